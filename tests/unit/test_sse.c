/*
 * SSE framer: a table of streams and the events a reader must see, each
 * fed in one piece, byte by byte, and split at every position in two.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "proto/sse.h"

/* Events rendered as "event|id|data;" with LF in data shown as "\n" and
 * absent fields as "-", so one string compares a whole run. */
struct sink {
    struct an_buf out;
    int stop_at; /* return 42 from this event on (1-based); 0: never */
    int64_t last_retry;
    bool lend;           /* the parser may lend events in place (sse.h) */
    const char *lo, *hi; /* the bytes fed */
    unsigned lent;       /* events whose data pointed into them */
    int take;            /* 0: no `take`; 1: take every event it may; 2: every other one */
    unsigned offered, taken;
    unsigned seen; /* events rendered, taken ones included: the next one's index */
    const struct an_sse_parser *p;
};

static void render(struct sink *k, const char *event, const char *id, const char *data, size_t len)
{
    an_buf_printf(&k->out, "%s|%s|", event ? event : "-", id ? id : "-");
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '\n')
            an_buf_puts(&k->out, "\\n");
        else if (data[i] == '\0')
            an_buf_puts(&k->out, "\\0");
        else
            an_buf_putc(&k->out, data[i]);
    }
    an_buf_putc(&k->out, ';');
}

/* A consumer's `take` as sse.h allows it: data up to the first CR or LF,
 * taken when "\n\n" follows at once in the bytes offered. */
static size_t take_some(void *ud, const char *bytes, size_t n)
{
    struct sink *k = ud;
    if (k->take == 2 && k->offered++ % 2)
        return 0;
    size_t j = 0;
    while (j < n && bytes[j] != '\r' && bytes[j] != '\n')
        j++;
    if (!j || n - j < 2 || bytes[j] != '\n' || bytes[j + 1] != '\n')
        return 0; /* 0 says "not taken": empty data cannot be */
    /* what on_event would have been given: no `event:` (the framer offers
     * none with one), the stream's last id */
    render(k, NULL, k->p->has_id ? an_buf_cstr((struct an_buf *)&k->p->id) : NULL, bytes, j);
    k->taken++;
    k->seen++;
    return j;
}

static int collect(void *ud, const struct an_sse_event *ev)
{
    struct sink *k = ud;
    k->lent += ev->data >= k->lo && ev->data < k->hi;
    if (ev->index != k->seen++)
        fail_msg("event index %llu, not %u: a taken event was not counted",
                 (unsigned long long)ev->index, k->seen - 1);
    render(k, ev->event, ev->id, ev->data, ev->len);
    k->last_retry = ev->retry_ms;
    if (k->stop_at && ev->index + 1 >= (uint64_t)k->stop_at)
        return 42;
    return 0;
}

enum how { WHOLE, BYTES, SPLIT };

/* Feed `in` as `how` says (SPLIT: at `at`), then finish. Returns the first
 * non-zero code; the rendered events go to k->out. */
static int run(struct sink *k, size_t max, const char *in, size_t n, enum how how, size_t at)
{
    struct an_sse_parser p;
    int rc = 0;
    an_buf_init(&k->out, 0);
    an_sse_init(&p, max, collect, k);
    p.lend = k->lend;
    if (k->take)
        p.take = take_some;
    k->p = &p;
    k->lo = in;
    k->hi = in + n;
    if (how == WHOLE) {
        rc = an_sse_feed(&p, in, n);
    } else if (how == BYTES) {
        for (size_t i = 0; i < n && !rc; i++)
            rc = an_sse_feed(&p, in + i, 1);
    } else {
        rc = an_sse_feed(&p, in, at);
        if (!rc)
            rc = an_sse_feed(&p, in + at, n - at);
    }
    int frc = an_sse_finish(&p);
    if (!rc)
        rc = frc;
    else
        assert_int_equal(frc, rc); /* a stopped parser stays stopped */
    an_sse_release(&p);
    return rc;
}

struct row {
    const char *name;
    const char *in;
    size_t len;
    size_t max; /* 0: default cap */
    int rc;
    const char *want;
};
#define ROW(name, lit, want)                                                                       \
    {                                                                                              \
        name, lit, sizeof(lit) - 1, 0, 0, want                                                     \
    }
#define CAP(name, lit, max, rc, want)                                                              \
    {                                                                                              \
        name, lit, sizeof(lit) - 1, max, rc, want                                                  \
    }

static const struct row rows[] = {
    ROW("one event", "data: {\"a\":1}\n\n", "-|-|{\"a\":1};"),
    ROW("two events in one read", "data: a\n\ndata: b\n\n", "-|-|a;-|-|b;"),
    ROW("crlf", "data: a\r\n\r\ndata: b\r\n\r\n", "-|-|a;-|-|b;"),
    ROW("lone cr", "data: a\r\rdata: b\r\r", "-|-|a;-|-|b;"),
    ROW("mixed line ends", "data: a\r\n\ndata: b\n\r\ndata: c\r\r\n", "-|-|a;-|-|b;-|-|c;"),
    ROW("crlf is one line end", "data: a\r\ndata: b\r\n\r\n", "-|-|a\\nb;"),
    ROW("bom skipped",
        "\xEF\xBB\xBF"
        "data: a\n\n",
        "-|-|a;"),
    ROW("bom only at the start",
        "data: a\n\n\xEF\xBB\xBF"
        "data: b\n\n",
        "-|-|a;"),
    ROW("half bom is data",
        "\xEF\xBB"
        "data: a\n\n",
        ""),
    ROW("comments ignored", ": keep-alive\ndata: a\n:\n\n:x\n\n", "-|-|a;"),
    ROW("data without space", "data:a\n\n", "-|-|a;"),
    ROW("only one space dropped", "data:  a\n\n", "-|-| a;"),
    ROW("data lines joined", "data: a\ndata: b\ndata:\n\n", "-|-|a\\nb\\n;"),
    ROW("field without colon", "data\n\n", "-|-|;"),
    ROW("colon inside value", "data: a:b\n\n", "-|-|a:b;"),
    ROW("event and id", "event: foo\nid: 7\nretry: 300\ndata: x\n\ndata: y\n\n", "foo|7|x;-|7|y;"),
    ROW("id with nul ignored", "id: a\0b\ndata: x\n\n", "-|-|x;"),
    ROW("unknown fields ignored", "foo: bar\ndata : no\ndata: x\nbaz\n\n", "-|-|x;"),
    ROW("no data, no event", "event: ping\n\n: c\n\nid: 3\n\n", ""),
    ROW("last event without blank line", "data: a\n\ndata: b", "-|-|a;-|-|b;"),
    ROW("last event with one newline", "data: a\n", "-|-|a;"),
    ROW("empty stream", "", ""),
    ROW("nul bytes pass through", "data: a\0b\n\n", "-|-|a\\0b;"),
    /* e-acute, and an emoji ZWJ sequence: splits land inside every one */
    ROW("utf-8 kept whole",
        "data: {\"t\":\"h\xC3\xA9llo \xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB\"}\n\n",
        "-|-|{\"t\":\"h\xC3\xA9llo \xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x92\xBB\"};"),
    ROW("agui frame", "data: {\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"}\n\n",
        "-|-|{\"type\":\"RUN_STARTED\",\"threadId\":\"t\",\"runId\":\"r\"};"),
    /* one-line events (taken whole when both line ends are in the read)
     * next to every other shape, lines longer than sixteen bytes */
    ROW("empty one-line events", "data:\n\ndata: \n\ndata:\n", "-|-|;-|-|;-|-|;"),
    ROW("one-line after joined lines", "data: a\ndata: b\n\ndata: c\n\n", "-|-|a\\nb;-|-|c;"),
    ROW("one-line after an event field", "event: e\ndata: a\n\ndata: b\n\n", "e|-|a;-|-|b;"),
    ROW("one-line then a cr", "data: a\n\r\ndata: b\n\r", "-|-|a;-|-|b;"),
    ROW("long lines, cr inside the block",
        "data: 0123456789abcdefghij\rdata: 0123456789abcdefghijklmnop\n\n"
        "data: 0123456789abcdefghijklmnopqrstuvwxyz\r\n\r\n",
        "-|-|0123456789abcdefghij\\n0123456789abcdefghijklmnop;"
        "-|-|0123456789abcdefghijklmnopqrstuvwxyz;"),
    ROW("data field name only at the start", "datax: a\n\ndata: b\n\n", "-|-|b;"),
    CAP("one-line data at the cap", "data:12345678\n\ndata: 1\n\n", 8, 0, "-|-|12345678;-|-|1;"),
    CAP("one-line data over the cap", "data: 1\n\ndata:123456789\n\n", 8, AN_ELIMIT, "-|-|1;"),
    CAP("data at the cap", "data: 12345678\n\n", 8, 0, "-|-|12345678;"),
    CAP("data over the cap", "data: 1\n\ndata: 123456789\n\ndata: 2\n\n", 8, AN_ELIMIT, "-|-|1;"),
    CAP("joined lines over the cap", "data: 1234\ndata: 5678\n\n", 8, AN_ELIMIT, ""),
    CAP("long comment over the line cap", ": 0123456789012345678901234567890\ndata: a\n\n", 8,
        AN_ELIMIT, ""),
};

static unsigned taken; /* events taken by a consumer's `take`, over a test */

/* The row's events, with the parser lending or not, and with a consumer
 * that takes every event it may, every other one, or none: the same every
 * way. Returns how many were lent. */
static unsigned check_row(const struct row *r, enum how how, size_t at, bool lend, int take)
{
    struct sink k = {.lend = lend, .take = take};
    int rc = run(&k, r->max, r->in, r->len, how, at);
    if (rc != r->rc || strcmp(an_buf_cstr(&k.out), r->want))
        fail_msg("%s (feed %s at %zu%s, take %d): rc %d want %d, events '%s' want '%s'", r->name,
                 how == WHOLE   ? "whole"
                 : how == BYTES ? "bytewise"
                                : "split",
                 at, lend ? ", lending" : "", take, rc, r->rc, an_buf_cstr(&k.out), r->want);
    if (!lend && k.lent)
        fail_msg("%s: an event was lent by a parser told not to", r->name);
    an_buf_release(&k.out);
    taken += k.taken;
    return k.lent;
}

static void test_table(void **state)
{
    (void)state;
    unsigned lent = 0;
    taken = 0;
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        for (int lend = 0; lend < 2; lend++)
            for (int take = 0; take < 3; take++) {
                unsigned whole = check_row(&rows[i], WHOLE, 0, lend, take);
                check_row(&rows[i], BYTES, 0, lend, take);
                for (size_t at = 0; at <= rows[i].len; at++)
                    check_row(&rows[i], SPLIT, at, lend, take);
                lent += take ? 0 : whole;
            }
    /* the one-line events of the table, fed whole, went out in place */
    assert_int_equal(check_row(&rows[0], WHOLE, 0, true, 0), 1);
    assert_true(lent >= 20);
    /* and a consumer that takes them took many, fed whole and split */
    assert_true(taken >= 500);
    taken = 0;
    check_row(&rows[1], WHOLE, 0, true, 1);
    assert_int_equal(taken, 2); /* "two events in one read" */
}

/* The last event's retry: the stream's last valid "retry:" ("1x" is not a
 * number, so it is ignored), -1 where there is none. */
static void test_retry(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        int64_t retry;
    } cases[] = {
        {"retry: 1500\ndata: x\n\nretry: 1x\ndata: y\n\n", 1500},
        {"data: x\n\n", -1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct sink k = {0};
        const char *in = cases[i].in;
        assert_int_equal(run(&k, 0, in, strlen(in), WHOLE, 0), 0);
        assert_int_equal(k.last_retry, cases[i].retry);
        an_buf_release(&k.out);
    }
}

/* A callback's non-zero return ends the stream there, however it is fed. */
static void test_callback_stops(void **state)
{
    (void)state;
    static const enum how hows[] = {WHOLE, BYTES};
    const char in[] = "data: a\n\ndata: b\n\ndata: c\n\n";
    for (size_t i = 0; i < 2 * sizeof hows / sizeof hows[0]; i++) {
        struct sink k = {.stop_at = 2, .lend = i % 2};
        assert_int_equal(run(&k, 0, in, sizeof in - 1, hows[i / 2], 0), 42);
        assert_string_equal(an_buf_cstr(&k.out), "-|-|a;-|-|b;");
        an_buf_release(&k.out);
    }
}

static void test_stopped_parser_stays_stopped(void **state)
{
    (void)state;
    struct sink k = {0};
    struct an_sse_parser p;
    an_buf_init(&k.out, 0);
    an_sse_init(&p, 4, collect, &k);
    assert_int_equal(an_sse_feed(&p, "data: 12345\n\n", 13), AN_ELIMIT);
    assert_int_equal(an_sse_feed(&p, "data: a\n\n", 9), AN_ELIMIT);
    assert_int_equal(an_sse_finish(&p), AN_ELIMIT);
    assert_string_equal(an_buf_cstr(&k.out), "");
    an_sse_release(&p);
    an_buf_release(&k.out);
}

/* A large event arriving in uneven reads comes out whole and once. */
static void test_big_event_many_reads(void **state)
{
    (void)state;
    struct an_buf in = AN_BUF_INIT;
    an_buf_puts(&in, "data: ");
    for (int i = 0; i < 100000; i++)
        an_buf_putc(&in, (char)('a' + i % 26));
    an_buf_puts(&in, "\r\n\r\n");
    struct sink k = {0};
    struct an_sse_parser p;
    an_buf_init(&k.out, 0);
    an_sse_init(&p, 200000, collect, &k);
    size_t step = 1;
    for (size_t off = 0; off < in.len; off += step, step = step * 3 % 4093 + 1) {
        size_t n = in.len - off < step ? in.len - off : step;
        assert_int_equal(an_sse_feed(&p, in.data + off, n), 0);
    }
    assert_int_equal(an_sse_finish(&p), 0);
    assert_int_equal(k.out.len, 100000 + 5); /* "-|-|" + data + ";" */
    assert_memory_equal(k.out.data + 4, in.data + 6, 100000);
    an_sse_release(&p);
    an_buf_release(&k.out);
    an_buf_release(&in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_retry),
        cmocka_unit_test(test_callback_stops),
        cmocka_unit_test(test_stopped_parser_stays_stopped),
        cmocka_unit_test(test_big_event_many_reads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
