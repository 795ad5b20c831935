/* Timestamps as reports and recordings write them. */
#ifndef ANANKE_CORE_ISO8601_H
#define ANANKE_CORE_ISO8601_H

#include <stddef.h>
#include <stdint.h>

/* The UTC time of a Unix ms timestamp as ISO 8601 with milliseconds,
 * "2025-01-17T07:46:40.000Z"; "" for 0 (unknown) or what cannot be shown. */
const char *an_iso8601_ms(char *buf, size_t cap, int64_t unix_ms);

#endif
