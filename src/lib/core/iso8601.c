/* Unix milliseconds as ISO 8601 (core/iso8601.h). */
#include "core/iso8601.h"

#include <stdio.h>
#include <time.h>

const char *an_iso8601_ms(char *buf, size_t cap, int64_t unix_ms)
{
    struct tm tm;
    time_t t = (time_t)(unix_ms / 1000);
    char day[32];
    buf[0] = '\0';
    if (unix_ms > 0 && gmtime_r(&t, &tm) && strftime(day, sizeof day, "%Y-%m-%dT%H:%M:%S", &tm))
        snprintf(buf, cap, "%s.%03dZ", day, (int)(unix_ms % 1000));
    return buf;
}
