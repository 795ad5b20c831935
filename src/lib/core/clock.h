/* Clock: public (include/ananke/clock.h). */
#ifndef ANANKE_CORE_CLOCK_H
#define ANANKE_CORE_CLOCK_H

#include "ananke/clock.h"

#endif
