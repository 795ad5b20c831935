/*
 * W3C trace context ids (docs/otel.md): a trace id is 16 random bytes, a
 * span id 8, both written as lowercase hex and never all zeros. From the
 * kernel's random source (core/port.h: getrandom).
 */
#ifndef ANANKE_CORE_TRACE_ID_H
#define ANANKE_CORE_TRACE_ID_H

#include <stddef.h>

#define AN_TRACE_ID_BYTES 16
#define AN_SPAN_ID_BYTES 8

/* n (at most 16) random bytes as 2n hex digits and a NUL into out. */
void an_trace_hex_id(char *out, size_t n);

#endif
