/*
 * The HTTP/1.1 response parser (proto/h1.h): any bytes, in any split, with
 * a small or the default header cap. The first byte chooses the read size
 * (1..63 bytes, or everything at once), the cap (bit 0x40: 64 bytes) and
 * whether the peer closes after the input (bit 0x80). Checked against the
 * parser's promises: a finished parser stays finished, the body handed out
 * is never more than what was fed, the head is reported at most once, a
 * status is a three-digit code, and the header bytes stay under the cap
 * unless the cap is what stopped it. Each input is read twice, with chunks
 * held whole in a read taken in one step (an_h1_whole_chunks) and without:
 * the outcome, the message, the body (its bytes and how it was cut) and
 * the counts must be the same.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "proto/h1.h"

struct sink {
    size_t body, heads, pieces;
    uint64_t hash; /* FNV-1a of the body's bytes and of where it was cut */
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
    k->pieces++;
    for (size_t i = 0; i < n; i++)
        k->hash = (k->hash ^ (unsigned char)p[i]) * 1099511628211u;
    k->hash = (k->hash ^ 0x100u) * 1099511628211u;
    /* a callback may stop the parser: do it now and then */
    return n == 13 ? 1 : 0;
}

struct outcome {
    enum an_h1_rc rc;
    bool has_why;
    char why[160]; /* a copy: it may point into the parser */
    struct sink k;
    size_t fed, header_bytes;
    uint64_t bytes, body_bytes;
    int stop;
};

static void read_all(const uint8_t *data, size_t size, unsigned mode, bool whole,
                     struct outcome *o)
{
    an_h1_whole_chunks = whole;
    size_t step = fz_step(mode, size);
    size_t cap = (mode & 0x40) ? 64 : 0;
    memset(o, 0, sizeof *o);
    o->k.hash = 14695981039346656037u;
    struct an_h1_parser p;
    an_h1_parse_init(&p, cap, on_head, on_body, &o->k);
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
    if (o->k.body > fed || o->k.body != p.body_bytes || o->k.heads > 1 || p.bytes != fed)
        abort();
    if (rc == AN_H1_FAIL && !p.why)
        abort();
    if (rc != AN_H1_CAP && p.header_bytes > p.max_header)
        abort();
    o->rc = rc;
    o->has_why = p.why != NULL;
    if (p.why)
        snprintf(o->why, sizeof o->why, "%s", p.why);
    o->fed = fed;
    o->header_bytes = p.header_bytes;
    o->bytes = p.bytes;
    o->body_bytes = p.body_bytes;
    o->stop = p.stop;
    an_h1_parse_release(&p);
    an_h1_whole_chunks = true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int m = fz_mode(&data, &size);
    if (m < 0)
        return 0;
    struct outcome fast, slow;
    read_all(data, size, (unsigned)m, true, &fast);
    read_all(data, size, (unsigned)m, false, &slow);
    if (fast.rc != slow.rc || fast.has_why != slow.has_why || strcmp(fast.why, slow.why) ||
        fast.k.body != slow.k.body ||
        fast.k.pieces != slow.k.pieces || fast.k.hash != slow.k.hash ||
        fast.k.heads != slow.k.heads || fast.fed != slow.fed ||
        fast.header_bytes != slow.header_bytes || fast.bytes != slow.bytes ||
        fast.body_bytes != slow.body_bytes || fast.stop != slow.stop)
        abort(); /* the chunks read whole differ from the state machine */
    return 0;
}
