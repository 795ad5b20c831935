#include "core/clock.h"

#include <errno.h>
#include <pthread.h>
#include <time.h>

static int64_t ts_ms(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int64_t base_unix, base_mono;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void init_base(void)
{
    base_unix = ts_ms(CLOCK_REALTIME);
    base_mono = ts_ms(CLOCK_MONOTONIC);
}

int64_t an_clock_mono_ms(void)
{
    return ts_ms(CLOCK_MONOTONIC);
}

int64_t an_clock_unix_ms(void)
{
    pthread_once(&once, init_base);
    return base_unix + (ts_ms(CLOCK_MONOTONIC) - base_mono);
}

void an_sleep_ms(int64_t ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {.tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}
