/*
 * The AG-UI decoder's fast path (proto/agui_fast.c) against its general
 * path: every stream here is decoded both ways, in strict, warn and off
 * mode, and what a user could observe must be the same: the transcript
 * (text, calls, parsed arguments, warnings, errors, frames), the history
 * for the next run, the turn's event count and error code, and what each
 * an_agui_dec_event call returned. A fast path that diverged on any of
 * these layouts or orders would fail here.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/model.h"
#include "ananke/transcript.h"
#include "core/buf.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"
#include "proto/sse.h"

#define AT(i) (1000 + 10 * (i))
#define MAXEV 24

/* A turn's end, as every way of decoding records it. */
static void end_turn(struct an_agui_dec *d, const struct an_transcript *t, int k,
                     struct an_buf *seen)
{
    an_agui_dec_finish(d, NULL);
    an_agui_dec_free(d);
    const struct an_turn_rec *r = &t->turns[k];
    an_buf_printf(seen, " events %zu code %d;", r->events, r->error_code);
}

/* What a user could observe of the turns, as one string; t, conv and seen
 * are released. */
static char *observed(struct an_transcript *t, struct an_agui_conv *conv, struct an_buf *seen)
{
    json_t *j = an_transcript_to_json(t, true);
    json_object_set(j, "history", conv->messages);
    json_object_set_new(j, "seen", json_string(an_buf_cstr(seen)));
    char *s = json_dumps(j, JSON_SORT_KEYS | JSON_COMPACT);
    json_decref(j);
    an_buf_release(seen);
    an_transcript_release(t);
    an_agui_conv_release(conv);
    return s;
}

static char *decode_one_way(const char *const *events, int mode, bool fast, size_t max_calls)
{
    struct an_agui_conv conv;
    struct an_transcript t;
    struct an_buf seen = AN_BUF_INIT;
    an_agui_conv_init(&conv, "thread-1", NULL, NULL);
    an_transcript_init(&t);
    for (int k = 0; k < 2; k++) { /* two turns: the history carries over */
        struct an_agui_dec *d;
        an_transcript_add_turn(&t, "agui:connect"); /* no user message: no random id */
        json_decref(an_agui_conv_input(&conv, "run-1", NULL));
        an_agui_dec_new(&d, &conv, &t, max_calls);
        an_agui_dec_protocol(d, mode);
        an_agui_fast_path = fast;
        for (size_t i = 0; events[i]; i++) {
            int rc = an_agui_dec_event(d, events[i], strlen(events[i]), AT(i));
            an_buf_printf(&seen, "%d,", rc);
            if (rc)
                break;
        }
        an_agui_fast_path = true;
        end_turn(d, &t, k, &seen);
    }
    return observed(&t, &conv, &seen);
}

/* The same events as an SSE stream ("data: EVENT\n\n" each), fed in pieces
 * of `piece` bytes (0: whole), the k-th piece arriving at AT(k), through
 * the framer into the decoder as proto/agui.c does, with the framer's
 * `take` (an_agui_fast_take) or without. */
struct sse_way {
    struct an_agui_dec *d;
    struct an_buf *seen;
    int64_t now;
    unsigned taken;
};

static int way_event(void *ud, const struct an_sse_event *ev)
{
    struct sse_way *w = ud;
    int rc = an_agui_dec_event(w->d, ev->data, ev->len, w->now);
    an_buf_printf(w->seen, "%d,", rc);
    return rc;
}

static size_t way_take(void *ud, const char *bytes, size_t n)
{
    struct sse_way *w = ud;
    size_t len = an_agui_fast_take(w->d, bytes, n, w->now);
    if (len) {
        an_buf_puts(w->seen, "0,"); /* what an_agui_dec_event would have returned */
        w->taken++;
    }
    return len;
}

static char *decode_sse(const char *const *events, int mode, bool take, size_t piece,
                        size_t max_calls, unsigned *taken)
{
    struct an_agui_conv conv;
    struct an_transcript t;
    struct an_buf seen = AN_BUF_INIT, in = AN_BUF_INIT;
    for (size_t i = 0; events[i]; i++)
        an_buf_printf(&in, "data: %s\n\n", events[i]);
    an_agui_conv_init(&conv, "thread-1", NULL, NULL);
    an_transcript_init(&t);
    for (int k = 0; k < 2; k++) {
        struct sse_way w = {.seen = &seen};
        an_transcript_add_turn(&t, "agui:connect");
        json_decref(an_agui_conv_input(&conv, "run-1", NULL));
        an_agui_dec_new(&w.d, &conv, &t, max_calls);
        an_agui_dec_protocol(w.d, mode);
        struct an_sse_parser p;
        an_sse_init(&p, 0, way_event, &w);
        p.lend = true;
        if (take)
            p.take = way_take;
        size_t step = piece ? piece : in.len;
        int rc = 0;
        for (size_t off = 0, j = 0; off < in.len && !rc; off += step, j++) {
            w.now = AT(j);
            rc = an_sse_feed(&p, in.data + off, in.len - off < step ? in.len - off : step);
        }
        if (!rc)
            an_sse_finish(&p);
        an_sse_release(&p);
        *taken += w.taken;
        end_turn(w.d, &t, k, &seen);
    }
    an_buf_release(&in);
    return observed(&t, &conv, &seen);
}

/* Each stream decoded by the general path and the fast one, event by
 * event; and through the SSE framer with and without its `take`, whole
 * and in pieces. Returns how many events `take` applied. */
static unsigned same_both_ways(const char *const (*streams)[MAXEV], size_t n, size_t max_calls)
{
    static const size_t pieces[] = {0, 1, 5, 64};
    unsigned taken = 0;
    for (size_t i = 0; i < n; i++)
        for (int mode = AN_PROTOCOL_STRICT; mode <= AN_PROTOCOL_OFF; mode++) {
            char *general = decode_one_way(streams[i], mode, false, max_calls);
            char *fast = decode_one_way(streams[i], mode, true, max_calls);
            if (strcmp(general, fast))
                fail_msg("stream %zu, mode %d:\ngeneral %s\nfast    %s", i, mode, general, fast);
            free(general);
            free(fast);
            for (size_t k = 0; k < sizeof pieces / sizeof *pieces; k++) {
                unsigned none = 0;
                char *framed = decode_sse(streams[i], mode, false, pieces[k], max_calls, &none);
                char *took = decode_sse(streams[i], mode, true, pieces[k], max_calls, &taken);
                if (strcmp(framed, took))
                    fail_msg("stream %zu, mode %d, pieces of %zu:\nframed %s\ntaken  %s", i, mode,
                             pieces[k], framed, took);
                assert_int_equal(none, 0);
                free(framed);
                free(took);
            }
        }
    return taken;
}

#define RS "{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"r\"}"
#define RF "{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"r\"}"
#define TS(id) "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}"
#define TE(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CS(id) "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"f\"}"
#define CE(id) "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"
#define TC(rest) "{\"type\":\"TEXT_MESSAGE_CONTENT\"," rest "}"
#define CA(rest) "{\"type\":\"TOOL_CALL_ARGS\"," rest "}"
#define EV(rest) "{" rest "}"
#define TR(rest) "{\"type\":\"TOOL_CALL_RESULT\"," rest "}"

/* TEXT_MESSAGE_CONTENT and TOOL_CALL_ARGS */
static void test_fast_deltas_same_as_general(void **state)
{
    (void)state;
    static const char *const streams[][MAXEV] = {
        /* plain, escapes, non-ASCII, NUL, a second call's args */
        {RS, TS("m"), TC("\"messageId\":\"m\",\"delta\":\"Hi \\\"x\\\" \\u00e9\\n\""),
         TC("\"messageId\":\"m\",\"delta\":\"caf\xc3\xa9 \\ud83d\\ude00\""),
         TC("\"messageId\":\"m\",\"delta\":\"a\\u0000b\""),
         TC("\"messageId\":\"m\",\"delta\":\"\xe6\x97\xa5\xf0\x9f\x98\x80 \\/\\b\\f\\r\\t\""),
         TC("\"messageId\":\"m\",\"delta\":\"long enough to take sixteen bytes at a time, "
            "then \\\"more\\\" after\""),
         TE("m"), CS("c"), CA("\"toolCallId\":\"c\",\"delta\":\"{\\\"q\\\":\""),
         CA("\"toolCallId\":\"c\",\"delta\":\"1}\""), CE("c"), RF, NULL},
        /* other layouts: key order, spaces, an extra key, a key twice, an
         * escaped id, a number for a delta, an unknown property */
        {RS, TS("m"), "{\"messageId\":\"m\",\"delta\":\"a\",\"type\":\"TEXT_MESSAGE_CONTENT\"}",
         " { \"type\" : \"TEXT_MESSAGE_CONTENT\" , \"messageId\" : \"m\" , \"delta\" : \"b\" } ",
         TC("\"messageId\":\"m\",\"delta\":\"c\",\"timestamp\":5"),
         TC("\"messageId\":\"m\",\"delta\":\"d\",\"delta\":\"e\""),
         TC("\"messageId\":\"\\u006d\",\"delta\":\"f\""), TC("\"messageId\":\"m\",\"delta\":7"),
         TC("\"messageId\":\"m\",\"delta\":\"g\",\"extra\":\"x\""),
         TC("\"messageId\":\"m\",\"delta\":\"h\",\"subagentRunId\":\"s\""),
         TC("\"messageId\":\"m\",\"delta\":null"), TC("\"messageId\":\"m\""),
         TC("\"delta\":\"no id\""), TE("m"), RF, NULL},
        /* wrong places: before the run, unknown ids, after the end, bad JSON,
         * an id for the other kind, invalid UTF-8, lone surrogates */
        {TC("\"messageId\":\"m\",\"delta\":\"early\""), RS,
         TC("\"messageId\":\"nope\",\"delta\":\"x\""),
         CA("\"toolCallId\":\"nope\",\"delta\":\"x\""), TS("m"), TE("m"),
         TC("\"messageId\":\"m\",\"delta\":\"late\""), TC("\"toolCallId\":\"m\",\"delta\":\"x\""),
         TC("\"messageId\":\"m\",\"delta\":\"\xff\""), TC("\"messageId\":\"m\",\"delta\":\"\xc3\""),
         TC("\"messageId\":\"m\",\"delta\":\"\\ud83d\""),
         TC("\"messageId\":\"m\",\"delta\":\"\\ude00\""),
         TC("\"messageId\":\"m\",\"delta\":\"\xed\xa0\x80\""), RF,
         TC("\"messageId\":\"m\",\"delta\":\"after\""), NULL},
        /* as SSE, a delta's line ended by a CR, then one followed by a
         * second data line of the same event: neither is a whole delta */
        {RS, TS("m"), TC("\"messageId\":\"m\",\"delta\":\"a\""),
         TC("\"messageId\":\"m\",\"delta\":\"cr\"}\r"),
         TC("\"messageId\":\"m\",\"delta\":\"one\"}\ndata: {\"x\":1"), TE("m"), RF, NULL},
        /* inside a chunk stream, then a cut string */
        {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"k\",\"delta\":\"a\"}",
         TC("\"messageId\":\"k\",\"delta\":\"b\""), TS("m"),
         TC("\"messageId\":\"m\",\"delta\":\"c\""),
         "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"d", TE("m"), RF, NULL},
        /* the same id for a text message and a call, deltas interleaved, an
         * id with non-ASCII text, a message that is not the assistant's */
        {RS, TS("x"), CS("x"), TC("\"messageId\":\"x\",\"delta\":\"t1\""),
         CA("\"toolCallId\":\"x\",\"delta\":\"{}\""), TC("\"messageId\":\"x\",\"delta\":\"t2\""),
         "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"\xc3\xa9\",\"role\":\"user\"}",
         TC("\"messageId\":\"\xc3\xa9\",\"delta\":\"u\""), TE("\xc3\xa9"),
         TC("\"messageId\":\"x\",\"delta\":\"\""), TE("x"), CE("x"), RF, NULL},
        /* the id of the last delta again, after its message or call closed,
         * or for the other kind */
        {RS, TS("m"), TC("\"messageId\":\"m\",\"delta\":\"a\""), TE("m"),
         TC("\"messageId\":\"m\",\"delta\":\"late\""), RF, NULL},
        {RS, TS("m"), TC("\"messageId\":\"m\",\"delta\":\"a\""),
         "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\",\"timestamp\":1}",
         TC("\"messageId\":\"m\",\"delta\":\"late\""), RF, NULL},
        {RS, CS("c"), CA("\"toolCallId\":\"c\",\"delta\":\"{\""), CE("c"),
         CA("\"toolCallId\":\"c\",\"delta\":\"}\""), RF, NULL},
        {RS, TS("x"), TC("\"messageId\":\"x\",\"delta\":\"a\""),
         CA("\"toolCallId\":\"x\",\"delta\":\"{}\""), TE("x"), RF, NULL},
        {RS, CS("x"), CA("\"toolCallId\":\"x\",\"delta\":\"{}\""),
         TC("\"messageId\":\"x\",\"delta\":\"a\""), CE("x"), RF, NULL},
    };
    /* the deltas of these streams that the framer's `take` applied: most
     * of those whole in a piece, in the plain layout, the decoder quiet */
    assert_true(same_both_ways(streams, sizeof streams / sizeof streams[0], 0) >= 100);
}

/* RUN_STARTED, RUN_FINISHED, TEXT_MESSAGE_START/END, TOOL_CALL_START/END */
static void test_fast_events_same_as_general(void **state)
{
    (void)state;
    static const char *const streams[][MAXEV] = {
        /* plain, with every optional member the fast path reads */
        {RS,
         "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\","
         "\"name\":\"bot\"}",
         TC("\"messageId\":\"m\",\"delta\":\"hi\""), TE("m"),
         "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\","
         "\"parentMessageId\":\"m\"}",
         CA("\"toolCallId\":\"c\",\"delta\":\"{\\\"a\\\":1}\""), CE("c"),
         "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"n\"}", TE("n"), RF, NULL},
        /* other layouts: key order, white space, escapes, \u sequences,
         * surrogate pairs, an empty id */
        {" {\"runId\":\"r\" ,\"threadId\":\"thread-1\",\"type\":\"RUN_STARTED\"}\r\n",
         EV("\"messageId\":\"m\\u00e9\",\"type\":\"TEXT_MESSAGE_START\""),
         TC("\"messageId\":\"m\xc3\xa9\",\"delta\":\"x\""), TE("m\\u00e9"),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallName\":\"f\\ud83d\\ude00\",\"toolCallId\":"
            "\"c\\\"1\",\"parentMessageId\":\"p\\n\""),
         CA("\"toolCallId\":\"c\\\"1\",\"delta\":\"[]\""), CE("c\\\"1"), TS(""), TE(""),
         EV("\"type\":\"RUN_FINISHED\",\"runId\":\"\\u0072\",\"threadId\":\"thread-1\""), NULL},
        /* extra members, known and unknown; wrong types; nulls; roles */
        {EV("\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"r\","
            "\"timestamp\":5"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a\",\"role\":\"user\""),
         TE("a"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"b\",\"role\":\"tool\""),
         TE("b"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"c\",\"role\":null"),
         TE("c"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"d\",\"role\":5"),
         TE("d"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"e\",\"extra\":\"x\""),
         TE("e"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"f\",\"subagentRunId\":\"s\""),
         EV("\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"f\",\"subagentRunId\":\"t\""),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"g\",\"metadata\":{}"),
         EV("\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"g\",\"rawEvent\":\"x\""),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":7"),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":null"),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\","
            "\"parentMessageId\":null"),
         EV("\"type\":\"TOOL_CALL_END\",\"toolCallId\":5"),
         CE("c"),
         EV("\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"r\","
            "\"result\":\"x\""),
         NULL},
        /* missing members, keys twice, a type twice, \u0000, bad JSON */
        {EV("\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\""),
         EV("\"type\":\"RUN_STARTED\",\"runId\":\"r\",\"threadId\":\"thread-1\",\"runId\":\"q\""),
         EV("\"type\":\"TEXT_MESSAGE_START\""), EV("\"type\":\"TEXT_MESSAGE_END\""),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"messageId\":\"n\""),
         EV("\"type\":\"TEXT_MESSAGE_END\",\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"n\""),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\""),
         EV("\"type\":\"TOOL_CALL_START\",\"toolCallName\":\"f\""),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"z\\u0000z\""), TE("z"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"y\",\"name\":\"a\\u0000b\""), TE("y"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"\\ud800\""),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"\xff\""),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"w\"} x"),
         EV("\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\""), RF, NULL},
        /* out of order: before the run, ends of unknown ids, starts twice,
         * a restart with another name, content after the end, a finish with
         * things open, after the finish, a nested run, a second run */
        {TS("early"), RS,
         TE("nope"),  CE("nope"),
         TS("m"),     TS("m"),
         CS("c"),     CS("c"),
         CE("c"),     "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"g\"}",
         CE("c"),     CE("c"),
         TE("m"),     TE("m"),
         TS("o"),     RF,
         TS("late"),  RF,
         RS,          RS,
         TE("o"),     RF,
         NULL},
        /* ids that do not echo the request, a run after RUN_ERROR, things
         * left open at the end of the stream */
        {EV("\"type\":\"RUN_STARTED\",\"threadId\":\"other\",\"runId\":\"r\""), TS("m"),
         EV("\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"q\""), TE("m"),
         EV("\"type\":\"RUN_FINISHED\",\"threadId\":\"other\",\"runId\":\"r\""),
         "{\"type\":\"RUN_ERROR\",\"message\":\"boom\"}", TS("x"), RS, TS("n"), CS("open"),
         CA("\"toolCallId\":\"open\",\"delta\":\"{\""), NULL},
        /* chunk streams around plain events */
        {RS, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"k\",\"delta\":\"a\"}", TE("k"),
         "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"k2\",\"delta\":\"b\"}", TS("m"),
         "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"c\"}", TE("m"),
         "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"t\",\"toolCallName\":\"f\","
         "\"delta\":\"{}\"}",
         CS("t"), CE("t"), CS("u"),
         "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"u\",\"toolCallName\":\"f\"}",
         "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"k3\",\"role\":\"assistant\"}", RF, NULL},
        /* owners: a call whose parent comes later, a text message of a
         * call's id, a parent that is not the assistant's */
        {RS,
         "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c\",\"toolCallName\":\"f\","
         "\"parentMessageId\":\"p\"}",
         TS("p"), TC("\"messageId\":\"p\",\"delta\":\"x\""), TE("p"), CE("c"),
         EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"u\",\"role\":\"user\""), TE("u"),
         "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"d\",\"toolCallName\":\"f\","
         "\"parentMessageId\":\"u\"}",
         CE("d"), CS("u"), CE("u"), CS("e"), TS("e"), TE("e"), CE("e"),
         "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r1\",\"toolCallId\":\"c\","
         "\"content\":\"{\\\"ok\\\":true}\"}",
         RF, NULL},
    };
    same_both_ways(streams, sizeof streams / sizeof streams[0], 0);
}

/* Each string below (a JSON string's body, as sent) in every place the fast
 * paths read one: a text delta, an args delta, a message id, a tool name.
 * Valid and invalid UTF-8 of every length, overlong forms, surrogates,
 * escapes of every kind, control bytes. */
static void test_fast_strings_same_as_general(void **state)
{
    (void)state;
    static const char *const bodies[] = {
        "plain",
        "caf\\u00e9 \\ud83d\\ude00 \\/ \\b\\f\\n\\r\\t \\\\ \\\"",
        "\\u00",
        "\\x41",
        "\\",
        "\\ud83d",
        "\\ude00",
        "\\ud83d\\u0041",
        "\\u0000",
        "\\uD83D\\uDE00",
        "\\u00E9",
        "\\u00g9",
        "\xc3\xa9",
        "\xe6\x97\xa5",
        "\xf0\x9f\x98\x80",
        "\xc2\x80",
        "\xdf\xbf",
        "\xef\xbf\xbf",
        "\xf4\x8f\xbf\xbf",
        "\xc0\xaf",
        "\xc1\xbf",
        "\xc3\x28",
        "\xc3",
        "\xe2\x82",
        "\xe2\x28\xa1",
        "\xe0\x80\xaf",
        "\xed\xa0\x80",
        "\xf0\x80\x80\xaf",
        "\xf4\x90\x80\x80",
        "\xf5\x80\x80\x80",
        "\xff",
        "\x80",
        "\x01",
        "\x1f",
        "\x7f",
        "tab\there",
        "sixteen bytes or more: 0123456789abcdef\xc3\xa9 0123456789abcdef\\n0123456789abcdef",
        "0123456\xc3",
        "01234567\\",
        "0123456789abcde\xf0\x9f\x98",
    };
    char ev[9][512];
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        const char *b = bodies[i];
        snprintf(ev[0], sizeof ev[0], TC("\"messageId\":\"m\",\"delta\":\"%s\""), b);
        snprintf(ev[1], sizeof ev[1], CA("\"toolCallId\":\"c\",\"delta\":\"%s\""), b);
        snprintf(ev[2], sizeof ev[2], EV("\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"%s\""),
                 b);
        snprintf(ev[3], sizeof ev[3], EV("\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"%s\""), b);
        snprintf(ev[4], sizeof ev[4],
                 EV("\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"%s\",\"toolCallName\":\"%s\""),
                 b, b);
        snprintf(ev[5], sizeof ev[5], TC("\"messageId\":\"%s\",\"delta\":\"x\""), b);
        snprintf(ev[6], sizeof ev[6], CA("\"toolCallId\":\"%s\",\"delta\":\"x\""), b);
        snprintf(ev[7], sizeof ev[7],
                 TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"%s\""), b);
        snprintf(ev[8], sizeof ev[8],
                 TR("\"messageId\":\"%s\",\"toolCallId\":\"%s\",\"content\":\"x\""), b, b);
        const char *const streams[][MAXEV] = {
            {RS, TS("m"), ev[0], TE("m"), CS("c"), ev[1], CE("c"), RF, NULL},
            {RS, ev[2], ev[3], ev[4], RF, NULL},
            {RS, TS("m"), TC("\"messageId\":\"m\",\"delta\":\"x\""), ev[5], TE("m"), CS("c"),
             CA("\"toolCallId\":\"c\",\"delta\":\"x\""), ev[6], CE("c"), RF, NULL},
            {RS, CS("c"), CE("c"), ev[7], ev[8], RF, NULL},
        };
        same_both_ways(streams, sizeof streams / sizeof streams[0], 0);
    }
}

/* TOOL_CALL_RESULT: plain ones, and each thing that sends one to the
 * general path or makes the decoder warn */
static void test_fast_results_same_as_general(void **state)
{
    (void)state;
    static char big[1400];
    memset(big, 'x', sizeof big - 1);
    char longer[1600];
    snprintf(longer, sizeof longer,
             TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"%s\""), big);
    const char *const streams[][MAXEV] = {
        /* JSON content, role and error, after the call's END and before it */
        {RS, TS("m"), TE("m"), CS("c"), CA("\"toolCallId\":\"c\",\"delta\":\"{}\""), CE("c"),
         TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"{\\\"ok\\\":true}\""), CS("d"),
         TR("\"messageId\":\"r2\",\"toolCallId\":\"d\",\"content\":\"plain text\","
            "\"role\":\"tool\",\"error\":\"boom\""),
         CE("d"), RF, NULL},
        /* a second result for a call (the same tool message id again); an
         * unknown call (a message id naming a text message is left out: the
         * new id either path makes is random) */
        {RS, TS("m"), TE("m"), CS("c"), CE("c"),
         TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"1\""),
         TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"2\""),
         TR("\"messageId\":\"r3\",\"toolCallId\":\"nope\",\"content\":\"3\""), RF, NULL},
        /* what the general path judges: another role, content parts, a
         * number, an extra key, a timestamp, before the run,
         * after it, inside a chunk stream, longer than the fast path holds (no
         * messageId is left out: the id either path makes is random) */
        {TR("\"messageId\":\"r0\",\"toolCallId\":\"c\",\"content\":\"early\""), RS, CS("c"),
         CE("c"),
         TR("\"messageId\":\"r1\",\"toolCallId\":\"c\",\"content\":\"a\",\"role\":\"assistant\""),
         TR("\"messageId\":\"r2\",\"toolCallId\":\"c\",\"content\":[{\"type\":\"text\","
            "\"text\":\"b\"}]"),
         TR("\"messageId\":\"r3\",\"toolCallId\":\"c\",\"content\":5"),
         TR("\"messageId\":\"r4\",\"toolCallId\":\"c\",\"content\":\"d\",\"extra\":\"e\""),
         TR("\"messageId\":\"r5\",\"toolCallId\":\"c\",\"content\":\"f\",\"timestamp\":1"),
         "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"k\",\"delta\":\"a\"}",
         TR("\"messageId\":\"r6\",\"toolCallId\":\"c\",\"content\":\"g\""), longer, RF,
         TR("\"messageId\":\"r7\",\"toolCallId\":\"c\",\"content\":\"late\""), NULL},
    };
    same_both_ways(streams, sizeof streams / sizeof streams[0], 0);

    /* and a plain one is the fast path's, not handed on */
    struct an_agui_conv conv;
    struct an_transcript t;
    an_agui_conv_init(&conv, "thread-1", NULL, NULL);
    an_transcript_init(&t);
    an_transcript_add_turn(&t, "agui:connect");
    struct an_agui_dec *d;
    an_agui_dec_new(&d, &conv, &t, 0);
    static const char *const pre[] = {RS, CS("c"), CE("c")};
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(an_agui_dec_event(d, pre[i], strlen(pre[i]), AT(i)), 0);
    static const char res[] =
        TR("\"messageId\":\"r\",\"toolCallId\":\"c\",\"content\":\"{\\\"ok\\\":true}\"");
    int rc = -1;
    assert_true(an_agui_fast_apply(d, res, strlen(res), AT(3), &rc));
    assert_int_equal(rc, 0);
    assert_non_null(t.calls[0].result);
    assert_true(json_is_true(json_object_get(t.calls[0].result, "ok")));
    an_agui_dec_finish(d, NULL);
    an_agui_dec_free(d);
    an_transcript_release(&t);
    an_agui_conv_release(&conv);
}

/* max_tool_calls reached by a plain TOOL_CALL_START */
static void test_fast_call_limit_same_as_general(void **state)
{
    (void)state;
    static const char *const streams[][MAXEV] = {
        {RS, CS("a"), CE("a"), CS("b"), CE("b"), RF, NULL},
        {RS, CS("a"), CE("a"), CS("a"), CE("a"), RF, NULL},
    };
    same_both_ways(streams, sizeof streams / sizeof streams[0], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fast_deltas_same_as_general),
        cmocka_unit_test(test_fast_events_same_as_general),
        cmocka_unit_test(test_fast_strings_same_as_general),
        cmocka_unit_test(test_fast_call_limit_same_as_general),
        cmocka_unit_test(test_fast_results_same_as_general),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
