/* Where cases come from besides files: public (include/ananke/input.h). */
#ifndef ANANKE_RUN_INPUT_SOURCE_H
#define ANANKE_RUN_INPUT_SOURCE_H

#include "ananke/input.h"

#endif
