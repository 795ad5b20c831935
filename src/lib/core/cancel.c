#include "core/cancel.h"

#include <stdatomic.h>

/* Lock-free, so both async-signal-safe (the handler sets it) and free of
 * data races between the threads that read it (the scheduler's loops, hook
 * and check threads, child supervision). */
static atomic_int flag;
_Static_assert(ATOMIC_INT_LOCK_FREE == 2, "the cancel flag must be lock-free");

void an_cancel_request(void)
{
    atomic_store_explicit(&flag, 1, memory_order_relaxed);
}

bool an_cancelled(void)
{
    return atomic_load_explicit(&flag, memory_order_relaxed) != 0;
}

void an_cancel_reset(void)
{
    atomic_store_explicit(&flag, 0, memory_order_relaxed);
}
