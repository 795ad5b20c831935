/*
 * The HTTP/1.1 response parser (proto/h1.h): a table of answers and what a
 * reader must see, each fed in one piece, byte by byte, and split at every
 * position in two; then the peer's close where the row says so.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "proto/h1.h"

struct sink {
    struct an_buf body;
    int heads;
    struct an_h1_head head;
    size_t stop_after; /* return 7 once this many body bytes came; 0: never */
};

static void on_head(void *ud, const struct an_h1_head *h)
{
    struct sink *k = ud;
    k->heads++;
    k->head = *h;
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct sink *k = ud;
    an_buf_append(&k->body, p, n);
    return k->stop_after && k->body.len >= k->stop_after ? 7 : 0;
}

struct row {
    const char *name;
    const char *in;
    size_t in_len;     /* 0: strlen(in) */
    bool eof;          /* the peer closes after `in` */
    enum an_h1_rc rc;  /* at the end */
    int status;        /* 0: not checked (no head) */
    const char *body;  /* what the callback got */
    const char *why;   /* AN_H1_FAIL: the message */
    bool reusable;
    size_t max_header; /* 0: the default */
    size_t rest;       /* bytes left unused after the answer */
};

#define OK200 "HTTP/1.1 200 OK\r\n"
static const struct row rows[] = {
    {"content-length", OK200 "Content-Type: text/event-stream\r\nContent-Length: 5\r\n\r\nhello",
     0, false, AN_H1_DONE, 200, "hello", NULL, true, 0, 0},
    {"content-length, more after it", OK200 "Content-Length: 2\r\n\r\nokEXTRA", 0, false,
     AN_H1_DONE, 200, "ok", NULL, true, 0, 5},
    {"chunked", OK200 "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\n\r\n",
     0, false, AN_H1_DONE, 200, "hello world", NULL, true, 0, 0},
    {"chunked, upper-case hex, trailer",
     OK200 "transfer-encoding: Chunked\r\n\r\nA\r\n0123456789\r\n0\r\nX-T: 1\r\nY: 2\r\n\r\n", 0,
     false, AN_H1_DONE, 200, "0123456789", NULL, true, 0, 0},
    {"chunked wins over a length", OK200 "Content-Length: 100\r\nTransfer-Encoding: chunked\r\n\r\n"
                                         "2\r\nok\r\n0\r\n\r\n",
     0, false, AN_H1_DONE, 200, "ok", NULL, true, 0, 0},
    {"chunked, LF only", OK200 "Transfer-Encoding: chunked\n\n2\nok\n0\n\n", 0, false, AN_H1_DONE,
     200, "ok", NULL, true, 0, 0},
    {"until the close", OK200 "Content-Type: text/event-stream\r\n\r\ndata: x\n\n", 0, true,
     AN_H1_DONE, 200, "data: x\n\n", NULL, false, 0, 0},
    {"LF line ends", "HTTP/1.1 200 OK\nContent-Length: 3\n\nabc", 0, false, AN_H1_DONE, 200, "abc",
     NULL, true, 0, 0},
    {"1xx skipped", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </x>\r\n\r\n" OK200
                    "Content-Length: 2\r\n\r\nok",
     0, false, AN_H1_DONE, 200, "ok", NULL, true, 0, 0},
    {"204 has no body", "HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n", 0, false,
     AN_H1_DONE, 204, "", NULL, true, 0, 0},
    {"304 has no body", "HTTP/1.1 304 Not Modified\r\n\r\n", 0, false, AN_H1_DONE, 304, "", NULL,
     true, 0, 0},
    {"zero length", OK200 "Content-Length: 0\r\n\r\n", 0, false, AN_H1_DONE, 200, "", NULL, true, 0,
     0},
    {"HTTP/1.0 closes", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 0, false, AN_H1_DONE, 200,
     "ok", NULL, false, 0, 0},
    {"HTTP/1.0 keep-alive", "HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 2\r\n\r\nok",
     0, false, AN_H1_DONE, 200, "ok", NULL, true, 0, 0},
    {"Connection: close", OK200 "Connection: close\r\nContent-Length: 2\r\n\r\nok", 0, false,
     AN_H1_DONE, 200, "ok", NULL, false, 0, 0},
    {"folded line", OK200 "X-A: 1\r\n  more\r\nContent-Length: 2\r\n\r\nok", 0, false, AN_H1_DONE,
     200, "ok", NULL, true, 0, 0},
    {"identity coding: until the close", OK200 "Transfer-Encoding: identity\r\nContent-Length: 1\r\n\r\nabc",
     0, true, AN_H1_DONE, 200, "abc", NULL, false, 0, 0},
    {"a 500 with a body", "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops", 0,
     false, AN_H1_DONE, 500, "oops", NULL, true, 0, 0},
    {"101 ends the head", "HTTP/1.1 101 Switching\r\n\r\nraw", 0, true, AN_H1_DONE, 101, "raw",
     NULL, false, 0, 0},
    {"no reason phrase", "HTTP/1.1 200\r\nContent-Length: 2\r\n\r\nok", 0, false, AN_H1_DONE, 200,
     "ok", NULL, true, 0, 0},
    /* malformed */
    {"HTTP/0.9", "ICY 200 OK\r\n\r\n", 0, false, AN_H1_FAIL, 0, "", "Received HTTP/0.9 when not allowed",
     false, 0, 0},
    {"leading space", " HTTP/1.1 200 OK\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Received HTTP/0.9 when not allowed", false, 0, 0},
    {"HTTP/2.0", "HTTP/2.0 200 OK\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Unsupported HTTP version (2.0) in response", false, 0, 0},
    {"HTTP/1.2", "HTTP/1.2 200 OK\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Unsupported HTTP version (1.2) in response", false, 0, 0},
    {"no status code", "HTTP/1.1 OK\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Unsupported HTTP version in response", false, 0, 0},
    {"two digits", "HTTP/1.1 99 x\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Unsupported response code in HTTP response", false, 0, 0},
    {"four digits", "HTTP/1.1 2000 x\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Unsupported response code in HTTP response", false, 0, 0},
    {"header without colon", OK200 "Content-Length 2\r\n\r\nok", 0, false, AN_H1_FAIL, 0, "",
     "Header without colon", false, 0, 0},
    {"folded first line", OK200 " X 1\r\n\r\n", 0, false, AN_H1_FAIL, 0, "", "Header without colon",
     false, 0, 0},
    {"NUL in a header", OK200 "X-A: a\0b\r\n\r\n", sizeof OK200 - 1 + 11, false, AN_H1_FAIL, 0, "",
     "Nul byte in header", false, 0, 0},
    {"length not a number", OK200 "Content-Length: abc\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Invalid Content-Length: value", false, 0, 0},
    {"negative length", OK200 "Content-Length: -1\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Invalid Content-Length: value", false, 0, 0},
    {"empty length", OK200 "Content-Length:\r\n\r\n", 0, false, AN_H1_FAIL, 0, "",
     "Invalid Content-Length: value", false, 0, 0},
    {"chunk size not hex", OK200 "Transfer-Encoding: chunked\r\n\r\nzz\r\n", 0, false, AN_H1_FAIL,
     200, "", "Illegal or missing hexadecimal sequence in chunked-encoding", false, 0, 0},
    {"chunk size too long", OK200 "Transfer-Encoding: chunked\r\n\r\n11111111111111111\r\n", 0,
     false, AN_H1_FAIL, 200, "", "Too long hexadecimal number in chunked-encoding", false, 0, 0},
    {"chunk size too large", OK200 "Transfer-Encoding: chunked\r\n\r\nFFFFFFFFFFFFFFFF\r\n", 0,
     false, AN_H1_FAIL, 200, "", "Illegal or missing hexadecimal sequence in chunked-encoding",
     false, 0, 0},
    {"chunk without its line end", OK200 "Transfer-Encoding: chunked\r\n\r\n2\r\nokX", 0, false,
     AN_H1_FAIL, 200, "ok", "Malformed encoding found in chunked-encoding", false, 0, 0},
    {"gzip transfer coding", OK200 "Transfer-Encoding: gzip, chunked\r\n\r\n", 0, false, AN_H1_FAIL,
     0, "", "Unsupported transfer coding in the response (only chunked is read without libcurl)",
     false, 0, 0},
    /* the peer closes early */
    {"nothing at all", "", 0, true, AN_H1_FAIL, 0, "", "Empty reply from server", false, 0, 0},
    {"half a status line", "HTTP/1.1 2", 0, true, AN_H1_FAIL, 0, "", "Empty reply from server",
     false, 0, 0},
    {"only a 100", "HTTP/1.1 100 Continue\r\n\r\n", 0, true, AN_H1_FAIL, 0, "",
     "Empty reply from server", false, 0, 0},
    {"head cut after a line", OK200 "Content-Type: text/event-stream\r\n", 0, true, AN_H1_DONE, 200,
     "", NULL, false, 0, 0},
    {"length cut short", OK200 "Content-Length: 5\r\n\r\nhe", 0, true, AN_H1_FAIL, 200, "he",
     "transfer closed with 3 bytes remaining to read", false, 0, 0},
    {"chunks cut short", OK200 "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", 0, true,
     AN_H1_FAIL, 200, "hello", "transfer closed with outstanding read data remaining", false, 0,
     0},
    /* the header cap */
    {"head over the cap", OK200 "X-Pad: 0123456789012345678901234567890123456789\r\n\r\n", 0, false,
     AN_H1_CAP, 0, "", NULL, false, 40, 0},
    {"head at the cap", OK200 "Content-Length: 2\r\n\r\nok", 0, false, AN_H1_DONE, 200, "ok", NULL,
     true, sizeof OK200 - 1 + 21, 0},
    {"a line that never ends", OK200 "X-Pad: 0123456789012345678901234567890123456789", 0, false,
     AN_H1_CAP, 0, "", NULL, false, 40, 0},
    {"1xx heads count", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 100 Continue\r\n\r\n" OK200 "\r\n",
     0, false, AN_H1_CAP, 0, "", NULL, false, 60, 0},
    {"trailers count", OK200 "Transfer-Encoding: chunked\r\n\r\n0\r\nX-Trailer: 0123456789\r\n\r\n",
     0, false, AN_H1_CAP, 200, "", NULL, false, sizeof OK200 - 1 + 30 + 5, 0},
};

/* Feed `in` in pieces of `step` bytes (or split once at `split` when step
 * is 0); then the close when the row says so. */
static void run(const struct row *r, size_t len, size_t step, size_t split, const char *how)
{
    struct sink k = {.body = AN_BUF_INIT};
    struct an_h1_parser p;
    an_h1_parse_init(&p, r->max_header, on_head, on_body, &k);
    enum an_h1_rc rc = AN_H1_MORE;
    size_t off = 0, rest = 0;
    while (off < len && rc == AN_H1_MORE) {
        size_t n = step ? step : (off < split ? split - off : len - off);
        if (n > len - off)
            n = len - off;
        size_t used = 0;
        rc = an_h1_parse_feed(&p, r->in + off, n, &used);
        if (rc == AN_H1_DONE)
            rest = len - off - used;
        off += n;
    }
    if (rc == AN_H1_MORE && r->eof)
        rc = an_h1_parse_eof(&p);
    if (rc != r->rc || (r->why && (!p.why || strcmp(p.why, r->why))) ||
        strcmp(an_buf_cstr(&k.body), r->body) || (r->status && p.head.status != r->status) ||
        (rc == AN_H1_DONE && (k.heads != 1 || an_h1_parse_reusable(&p) != r->reusable ||
                              rest != r->rest)))
        fail_msg("%s (%s): rc %d, why '%s', status %d, body '%s', heads %d, reusable %d, rest %zu",
                 r->name, how, rc, p.why ? p.why : "", p.head.status, an_buf_cstr(&k.body),
                 k.heads, an_h1_parse_reusable(&p), rest);
    /* a finished parser stays finished */
    size_t used = 1;
    if (rc != AN_H1_MORE && an_h1_parse_feed(&p, "x", 1, &used) != rc)
        fail_msg("%s (%s): the parser did not stay finished", r->name, how);
    an_h1_parse_release(&p);
    an_buf_release(&k.body);
}

static void test_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct row r = rows[i];
        size_t len = r.in_len ? r.in_len : strlen(r.in);
        char how[64];
        run(&r, len, len ? len : 1, 0, "one piece");
        run(&r, len, 1, 0, "byte by byte");
        for (size_t s = 1; s < len; s++) {
            snprintf(how, sizeof how, "split at %zu", s);
            run(&r, len, 0, s, how);
        }
    }
}

static void test_head_fields(void **state)
{
    (void)state;
    static const char in[] = "HTTP/1.1 307 Temporary Redirect\r\n"
                             "Content-Type:  text/html; charset=utf-8 \r\n"
                             "Content-Type:\r\n"
                             "Content-Encoding: gzip\r\n"
                             "Content-Encoding: br\r\n"
                             "Location: \r\n"
                             "Location: /next?a=1\r\n"
                             "Location: /ignored\r\n"
                             "Retry-After: 120\r\n"
                             "Content-Length: 0\r\n\r\n";
    struct sink k = {.body = AN_BUF_INIT};
    struct an_h1_parser p;
    an_h1_parse_init(&p, 0, on_head, on_body, &k);
    size_t used;
    assert_int_equal(an_h1_parse_feed(&p, in, sizeof in - 1, &used), AN_H1_DONE);
    assert_int_equal(k.head.status, 307);
    assert_string_equal(k.head.content_type, "text/html; charset=utf-8");
    assert_string_equal(k.head.content_encoding, "gzip");
    assert_string_equal(k.head.location, "/next?a=1");
    assert_int_equal(k.head.retry_after_s, 120);
    assert_int_equal(p.header_bytes, sizeof in - 1);
    an_h1_parse_release(&p);

    /* a Location of a 2xx is nobody's business; Retry-After as a date */
    char date[128];
    time_t t = time(NULL) + 60;
    struct tm tm;
    gmtime_r(&t, &tm);
    char in2[256];
    strftime(date, sizeof date, "%a, %d %b %Y %H:%M:%S GMT", &tm);
    snprintf(in2, sizeof in2, OK200 "Location: /x\r\nRetry-After: %s\r\nContent-Length: 0\r\n\r\n",
             date);
    an_h1_parse_init(&p, 0, on_head, on_body, &k);
    assert_int_equal(an_h1_parse_feed(&p, in2, strlen(in2), &used), AN_H1_DONE);
    assert_string_equal(k.head.location, "");
    assert_in_range(k.head.retry_after_s, 55, 61);
    an_h1_parse_release(&p);

    /* RFC 850 and asctime dates; nonsense is no Retry-After */
    static const char *const dates[] = {"Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
                                        "Sun, 06 Nov 1994 08:49:37 GMT"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(in2, sizeof in2, OK200 "Retry-After: %s\r\nContent-Length: 0\r\n\r\n", dates[i]);
        an_h1_parse_init(&p, 0, on_head, on_body, &k);
        assert_int_equal(an_h1_parse_feed(&p, in2, strlen(in2), &used), AN_H1_DONE);
        int64_t want = 784111777 - (int64_t)time(NULL);
        assert_true(k.head.retry_after_s >= want - 2 && k.head.retry_after_s <= want + 2);
        an_h1_parse_release(&p);
    }
    static const char *const none[] = {"-5", "soon", ""};
    for (size_t i = 0; i < 3; i++) {
        snprintf(in2, sizeof in2, OK200 "Retry-After: %s\r\nContent-Length: 0\r\n\r\n", none[i]);
        an_h1_parse_init(&p, 0, on_head, on_body, &k);
        assert_int_equal(an_h1_parse_feed(&p, in2, strlen(in2), &used), AN_H1_DONE);
        assert_int_equal(k.head.retry_after_s, 0);
        an_h1_parse_release(&p);
    }
    an_buf_release(&k.body);
}

static void test_callback_stops(void **state)
{
    (void)state;
    static const char in[] = OK200 "Transfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n3\r\ndef\r\n0\r\n\r\n";
    struct sink k = {.body = AN_BUF_INIT, .stop_after = 2};
    struct an_h1_parser p;
    an_h1_parse_init(&p, 0, on_head, on_body, &k);
    size_t used;
    assert_int_equal(an_h1_parse_feed(&p, in, sizeof in - 1, &used), AN_H1_STOP);
    assert_int_equal(p.stop, 7);
    assert_string_equal(an_buf_cstr(&k.body), "abc");
    assert_int_equal(an_h1_parse_eof(&p), AN_H1_STOP);
    an_h1_parse_release(&p);
    an_buf_release(&k.body);
}

/* ---- chunks read whole (whole_chunk) against the state machine ---- */

/* in[0..len) fed in pieces of `step` bytes (0: one piece) to two parsers
 * side by side, the second with chunks held whole in a piece taken in one
 * step (an_h1_whole_chunks), then the close; both must end alike: the
 * outcome, the message, the body, the counts, what was left unused.
 * Returns the outcome. */
static enum an_h1_rc side_by_side(const char *in, size_t len, size_t step, size_t stop_after,
                                  unsigned seed)
{
    struct sink k[2] = {{.body = AN_BUF_INIT, .stop_after = stop_after},
                        {.body = AN_BUF_INIT, .stop_after = stop_after}};
    struct an_h1_parser p[2];
    enum an_h1_rc rc[2] = {AN_H1_MORE, AN_H1_MORE};
    size_t rest[2] = {0, 0};
    for (int w = 0; w < 2; w++)
        an_h1_parse_init(&p[w], 0, on_head, on_body, &k[w]);
    size_t piece = step ? step : len;
    for (size_t at = 0; at < len; at += piece) {
        size_t n = piece < len - at ? piece : len - at;
        for (int w = 0; w < 2; w++) {
            if (rc[w] != AN_H1_MORE)
                continue;
            size_t used = 0;
            an_h1_whole_chunks = w == 1;
            rc[w] = an_h1_parse_feed(&p[w], in + at, n, &used);
            an_h1_whole_chunks = true;
            if (rc[w] != AN_H1_MORE)
                rest[w] = len - at - used;
        }
    }
    for (int w = 0; w < 2; w++)
        if (rc[w] == AN_H1_MORE)
            rc[w] = an_h1_parse_eof(&p[w]);
    const char *why0 = p[0].why ? p[0].why : "", *why1 = p[1].why ? p[1].why : "";
    if (rc[0] != rc[1] || !p[0].why != !p[1].why || strcmp(why0, why1) ||
        k[0].body.len != k[1].body.len ||
        memcmp(an_buf_cstr(&k[0].body), an_buf_cstr(&k[1].body), k[0].body.len) ||
        p[0].body_bytes != p[1].body_bytes || p[0].bytes != p[1].bytes || rest[0] != rest[1] ||
        p[0].stop != p[1].stop)
        fail_msg("stream %u, pieces of %zu bytes: rc %d/%d, why '%s'/'%s', body %zu/%zu bytes, "
                 "fed %llu/%llu, rest %zu/%zu",
                 seed, piece, rc[0], rc[1], why0, why1, k[0].body.len, k[1].body.len,
                 (unsigned long long)p[0].bytes, (unsigned long long)p[1].bytes, rest[0], rest[1]);
    for (int w = 0; w < 2; w++) {
        an_h1_parse_release(&p[w]);
        an_buf_release(&k[w].body);
    }
    return rc[1];
}

/* One chunk as a server might write it: mostly plain, sometimes in every
 * way the state machine reads (or rejects) a chunk. */
static void add_chunk(struct an_buf *b, uint32_t *seed, bool *last)
{
    *seed = *seed * 1103515245u + 12345u;
    uint32_t r = *seed >> 8;
    size_t size = r % 7 == 0 ? 200 + r % 300 : 1 + r % 40;
    if (r % 23 == 0)
        size = 0; /* the last chunk */
    *last = size == 0;
    if (r % 11 == 0)
        an_buf_puts(b, "00"); /* leading zeros */
    if (r % 97 == 0)
        an_buf_puts(b, "zz"); /* not hex */
    else if (r % 89 == 0)
        an_buf_puts(b, "11111111111111111"); /* 17 digits */
    else if (r % 83 == 0)
        an_buf_puts(b, "FFFFFFFFFFFFFFFF"); /* over int64_t */
    else if (r % 3 == 0)
        an_buf_printf(b, "%zX", size);
    else
        an_buf_printf(b, "%zx", size);
    static const char *const ends[] = {"\r\n", "\r\n", "\r\n", "\n", ";ext=1\r\n", " \r\n"};
    an_buf_puts(b, ends[(r >> 4) % 6]);
    if (*last) {
        if (r % 2)
            an_buf_puts(b, "X-T: 1\r\n");
        an_buf_puts(b, "\r\n");
        return;
    }
    for (size_t i = 0; i < size; i++)
        an_buf_putc(b, (char)('a' + (r + i) % 26));
    static const char *const after[] = {"\r\n", "\r\n", "\r\n", "\n", "\r\r\n", "X"};
    an_buf_puts(b, after[(r >> 8) % 6]);
}

static void test_whole_chunks(void **state)
{
    (void)state;
    unsigned whole = 0; /* streams whose pieces held whole plain chunks */
    for (unsigned seed = 1; seed <= 600; seed++) {
        struct an_buf in = AN_BUF_INIT;
        an_buf_puts(&in, OK200 "Transfer-Encoding: chunked\r\n\r\n");
        uint32_t rs = seed;
        bool last = false;
        for (unsigned c = 0; c < 1 + seed % 40 && !last; c++)
            add_chunk(&in, &rs, &last);
        if (seed % 5 == 0)
            an_buf_puts(&in, "HTTP/1.1 200 OK\r\n"); /* the next answer's start */
        size_t len = in.len;
        size_t stop_after = seed % 7 == 0 ? 1 + seed % 90 : 0;
        /* the same pieces with chunks read whole and without */
        static const size_t steps[] = {0, 1, 2, 7, 64};
        for (size_t k = 0; k < sizeof steps / sizeof *steps; k++) {
            size_t step = steps[k] == 64 ? 1 + seed % 97 : steps[k];
            enum an_h1_rc rc = side_by_side(in.data, len, step, stop_after, seed);
            whole += k == 0 && rc == AN_H1_DONE;
        }
        an_buf_release(&in);
    }
    assert_true(whole > 50); /* the streams reach their end often enough */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_head_fields),
        cmocka_unit_test(test_callback_stops),
        cmocka_unit_test(test_whole_chunks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
