/* target.start: public (include/ananke/start.h). */
#ifndef ANANKE_RUN_START_H
#define ANANKE_RUN_START_H

#include "ananke/start.h"

#endif
