/*
 * Clock: Unix milliseconds that never go backwards.
 *
 * The wall clock is read once; later readings add the monotonic clock's
 * progress to it, so durations are immune to NTP steps while timestamps in
 * reports stay Unix milliseconds as seed 000 asks.
 */
#ifndef ANANKE_CLOCK_H
#define ANANKE_CLOCK_H

#include <stdint.h>

int64_t an_clock_unix_ms(void);
int64_t an_clock_mono_ms(void);
/* Sleep for ms milliseconds (EINTR-safe). */
void an_sleep_ms(int64_t ms);

#endif
