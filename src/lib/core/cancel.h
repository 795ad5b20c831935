/* Cancellation: public (include/ananke/cancel.h), used by the CLI's
 * signal handlers and by every loop that waits. */
#ifndef ANANKE_CORE_CANCEL_H
#define ANANKE_CORE_CANCEL_H

#include "ananke/cancel.h"

#endif
