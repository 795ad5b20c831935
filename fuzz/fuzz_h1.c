/*
 * The HTTP/1.1 response parser (proto/h1.h): any bytes, in any split, with
 * a small or the default header cap. The first byte chooses the read size
 * (1..63 bytes, or everything at once), the cap (bit 0x40: 64 bytes) and
 * whether the peer closes after the input (bit 0x80). Checked against the
 * parser's promises: a finished parser stays finished, the body handed out
 * is never more than what was fed, the head is reported at most once, a
 * status is a three-digit code, and the header bytes stay under the cap
 * unless the cap is what stopped it.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto/h1.h"

struct sink {
    size_t body, heads;
};

static void on_head(void *ud, const struct an_h1_head *h)
{
    struct sink *k = ud;
    k->heads++;
    if (h->status < 100 || h->status > 999)
        abort();
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct sink *k = ud;
    volatile char c = n ? p[n - 1] : 0; /* ASan: the bytes are readable */
    (void)c;
    k->body += n;
    /* a callback may stop the parser: do it now and then */
    return n == 13 ? 1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int m = fz_mode(&data, &size);
    if (m < 0)
        return 0;
    unsigned mode = (unsigned)m;
    size_t step = fz_step(mode, size);
    size_t cap = (mode & 0x40) ? 64 : 0;
    struct sink k = {0, 0};
    struct an_h1_parser p;
    an_h1_parse_init(&p, cap, on_head, on_body, &k);
    enum an_h1_rc rc = AN_H1_MORE;
    size_t fed = 0;
    for (size_t off = 0; off < size && rc == AN_H1_MORE; off += step) {
        size_t n = size - off < step ? size - off : step, used = 0;
        /* a copy per read, so ASan sees a read past what was pushed */
        char *chunk = malloc(n ? n : 1);
        memcpy(chunk, data + off, n);
        rc = an_h1_parse_feed(&p, chunk, n, &used);
        free(chunk);
        if (used > n || (rc == AN_H1_MORE && used != n))
            abort();
        fed += used;
    }
    if (rc == AN_H1_MORE && (mode & 0x80))
        rc = an_h1_parse_eof(&p);
    if (rc != AN_H1_MORE) {
        size_t used = 5;
        if (an_h1_parse_feed(&p, "HTTP/", 5, &used) != rc || used != 0 || an_h1_parse_eof(&p) != rc)
            abort(); /* "every later call returns the same" */
    }
    if (k.body > fed || k.body != p.body_bytes || k.heads > 1 || p.bytes != fed)
        abort();
    if (rc == AN_H1_FAIL && !p.why)
        abort();
    if (rc != AN_H1_CAP && p.header_bytes > p.max_header)
        abort();
    an_h1_parse_release(&p);
    return 0;
}
