/*
 * The SSE framer (proto/sse.h): any bytes, in any split, with a small or
 * the default cap. The first byte chooses the read size (1..64 bytes, or
 * everything at once) and the cap; the rest is the stream. Every event is
 * checked against the framer's promises: data is NUL-terminated at len.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto/sse.h"

static int on_event(void *ud, const struct an_sse_event *ev)
{
    size_t *total = ud;
    if (ev->data[ev->len] != '\0')
        abort(); /* the header promises a terminated copy */
    *total += ev->len;
    /* a callback may stop the parser: do it now and then */
    return ev->len == 7 && ev->data[0] == 'S' ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int m = fz_mode(&data, &size);
    if (m < 0)
        return 0;
    unsigned mode = (unsigned)m;
    size_t step = fz_step(mode, size);
    size_t cap = (mode & 0x40) ? 64 : 0;
    size_t total = 0;
    struct an_sse_parser p;
    an_sse_init(&p, cap, on_event, &total);
    int rc = 0;
    for (size_t off = 0; off < size && !rc; off += step) {
        size_t n = size - off < step ? size - off : step;
        /* a copy per read, so ASan sees a read past what was pushed */
        uint8_t *chunk = malloc(n);
        memcpy(chunk, data + off, n);
        rc = an_sse_feed(&p, chunk, n);
        free(chunk);
    }
    int rc2 = an_sse_finish(&p);
    if (rc && rc2 != rc)
        abort(); /* "every later call returns the same value" */
    an_sse_release(&p);
    return 0;
}
