/* Trace and span ids (core/trace_id.h). */
#include "core/trace_id.h"

#include <stdbool.h>

#include "core/port.h"

void an_trace_hex_id(char *out, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    unsigned char b[16] = {0};
    if (n > sizeof b)
        n = sizeof b;
    bool zero = true;
    /* a short read leaves zeros: a second try, then a fixed last byte
     * keeps the id valid (ids must be unique, not secret) */
    for (int tries = 0; tries < 2 && zero; tries++) {
        an_port_random(b, n);
        for (size_t i = 0; i < n; i++)
            zero = zero && !b[i];
    }
    if (zero)
        b[n - 1] = 1;
    for (size_t i = 0; i < n; i++) {
        out[2 * i] = digits[b[i] >> 4];
        out[2 * i + 1] = digits[b[i] & 15];
    }
    out[2 * n] = '\0';
}
