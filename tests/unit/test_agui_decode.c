/*
 * AG-UI decoder: event sequences (as the JSON an agent would send) in,
 * transcript and next-run history out. No HTTP, no clock: event i arrives
 * at T0 + 10 * i.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "ananke/transcript.h"
#include "core/json.h"
#include "ananke/model.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"

#define T0 1000
#define AT(i) (T0 + 10 * (i))

struct fx {
    struct an_agui_conv conv;
    struct an_transcript t;
    json_t *input; /* RunAgentInput of the last turn */
    int last_rc;   /* what an_agui_dec_event returned last */
    size_t fed;    /* events the decoder accepted before stopping */
    size_t max_calls;
    uint64_t max_state; /* max_state_bytes; 0: the default */
    int protocol;       /* enum an_protocol_mode for the next turns */
    bool drop_messages; /* the next turns' records say no one reads the conversation */
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    an_agui_conv_init(&f->conv, "thread-1", NULL, NULL);
    an_transcript_init(&f->t);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    json_decref(f->input);
    an_agui_conv_release(&f->conv);
    an_transcript_release(&f->t);
    free(f);
    return 0;
}

/* One turn: `events` is NULL-terminated; `cut` as an_agui_dec_finish takes. */
static struct an_turn_rec *turn_cut(struct fx *f, const char *user, const char *const *events,
                                    const char *cut)
{
    struct an_agui_dec *d;
    an_transcript_add_turn(&f->t, user ? "user" : "agui:connect")->drop_messages = f->drop_messages;
    json_decref(f->input);
    f->input = an_agui_conv_input(&f->conv, "run-1", user);
    an_agui_dec_new(&d, &f->conv, &f->t, f->max_calls);
    an_agui_dec_protocol(d, f->protocol);
    an_agui_dec_max_state(d, f->max_state);
    f->last_rc = 0;
    f->fed = 0;
    for (size_t i = 0; events[i]; i++) {
        f->last_rc = an_agui_dec_event(d, events[i], strlen(events[i]), AT(i));
        if (f->last_rc)
            break;
        f->fed++;
    }
    an_agui_dec_finish(d, cut);
    an_agui_dec_free(d);
    return &f->t.turns[f->t.nturns - 1];
}

static struct an_turn_rec *turn(struct fx *f, const char *user, const char *const *events)
{
    return turn_cut(f, user, events, NULL);
}

static void assert_ok(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_OK)
        fail_msg("turn failed: %s", r->error);
}

static void assert_failed(const struct an_turn_rec *r, int code, const char *needle)
{
    assert_int_equal(r->status, AN_TURN_ERROR);
    assert_int_equal(r->error_code, code);
    if (!strstr(r->error, needle))
        fail_msg("error '%s' lacks '%s'", r->error, needle);
}

static bool has_warning(const struct an_turn_rec *r, const char *needle)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], needle))
            return true;
    return false;
}

static void assert_json(const json_t *got, const char *want_text)
{
    json_t *want = json_loads(want_text, JSON_DECODE_ANY, NULL);
    assert_non_null(want);
    if (!got || !json_equal((json_t *)got, want)) {
        char *g = an_json_compact(got);
        json_decref(want);
        fail_msg("json %s, want %s", g, want_text);
    }
    json_decref(want);
}

#define STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define TSTART(id)                                                                                 \
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}"
#define TCONT(id, d)                                                                               \
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" d "\"}"
#define TEND(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CSTART(id, name)                                                                           \
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name "\"}"
#define CSTARTP(id, name, parent)                                                                  \
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name             \
    "\",\"parentMessageId\":\"" parent "\"}"
#define CARGS(id, d) "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"" d "\"}"
#define CEND(id) "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"

static void test_text_assembly(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {
        STARTED,         TSTART("m1"), TCONT("m1", "Hel"), TCONT("m1", "lo \\u00e9"),
        TCONT("m1", ""), TEND("m1"),   FINISHED,           NULL};
    struct an_turn_rec *r = turn(f, "hi", ev);
    assert_ok(r);
    assert_string_equal(r->text, "Hello \xC3\xA9");
    assert_int_equal(r->nframes, 7);
    assert_string_equal(r->frames[1].data, TSTART("m1"));
    assert_int_equal(r->frames[1].t_ms, AT(1));
    assert_int_equal(r->nwarnings, 0);
    assert_int_equal(r->ncalls, 0);
}

/* Assistant messages only, each whole, in the order their first deltas
 * came: "a" (1, 3) then "b" (2), not the deltas shuffled "123". */
static void test_text_of_assistant_only_by_message(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        TSTART("a"),
                        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"s\",\"role\":\"system\"}",
                        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"b\"}", /* role absent */
                        TCONT("a", "1"),
                        TCONT("s", "not the agent's"),
                        TCONT("b", "2"),
                        TCONT("a", "3"),
                        TEND("a"),
                        TEND("b"),
                        TEND("s"),
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "hi", ev);
    assert_ok(r);
    assert_string_equal(r->text, "132");
}

static void test_interleaved_text_and_tool(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        TSTART("m1"),
                        CSTARTP("c1", "search", "m1"),
                        TCONT("m1", "a"),
                        CARGS("c1", "{\\\"q\\\":"),
                        TCONT("m1", "b"),
                        CARGS("c1", "\\\"x\\\"}"),
                        CEND("c1"),
                        TEND("m1"),
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "hi", ev);
    assert_ok(r);
    assert_string_equal(r->text, "ab");
    assert_int_equal(r->ncalls, 1);
    const struct an_tool_call *c = &f->t.calls[0];
    assert_string_equal(c->id, "c1");
    assert_string_equal(c->name, "search");
    assert_string_equal(c->args_text, "{\"q\":\"x\"}");
    assert_json(an_tool_call_args(c), "{\"q\":\"x\"}");
    assert_true(c->args_done);
    assert_null(c->args_error);
    assert_int_equal(c->start_ms, AT(2));
    assert_int_equal(c->end_ms, AT(7));
    assert_int_equal(c->ts_ms, AT(7));
    assert_int_equal(c->result_ms, 0);
    assert_null(c->result); /* a call without a result is still captured */
    assert_int_equal(r->nwarnings, 0);
}

static void test_parallel_calls(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        CSTART("c1", "a"),
                        CSTART("c2", "b"),
                        CARGS("c2", "[1,"),
                        CARGS("c1", "{\\\"k\\\""),
                        CARGS("c2", "2]"),
                        CARGS("c1", ":1}"),
                        CEND("c2"),
                        CEND("c1"),
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_int_equal(r->first_call, 0);
    assert_int_equal(r->ncalls, 2);
    assert_string_equal(f->t.calls[0].id, "c1");
    assert_json(an_tool_call_args(&f->t.calls[0]), "{\"k\":1}");
    assert_int_equal(f->t.calls[0].end_ms, AT(8));
    assert_string_equal(f->t.calls[1].id, "c2");
    assert_json(an_tool_call_args(&f->t.calls[1]), "[1,2]");
    assert_int_equal(f->t.calls[1].end_ms, AT(7));
}

static void test_bad_args_kept_as_text(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        CSTART("c1", "f"),
                        CARGS("c1", "{bad"),
                        CEND("c1"),
                        CSTART("c2", "g"),
                        CEND("c2"),
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_int_equal(r->ncalls, 2);
    const struct an_tool_call *c = &f->t.calls[0];
    assert_null(an_tool_call_args(c));
    assert_string_equal(c->args_text, "{bad");
    assert_non_null(c->args_error);
    assert_true(c->args_done);
    assert_true(has_warning(r, "not valid JSON"));
    /* no argument text at all reads as {} (tools without parameters) */
    assert_json(an_tool_call_args(&f->t.calls[1]), "{}");
    assert_null(f->t.calls[1].args_error);
    assert_int_equal(r->nwarnings, 1);
}

/* A TOOL_CALL_ARGS event carrying `text` as its delta (caller frees). */
static char *cargs(const char *id, const char *text)
{
    json_t *ev =
        json_pack("{s:s,s:s,s:s}", "type", "TOOL_CALL_ARGS", "toolCallId", id, "delta", text);
    char *s = json_dumps(ev, JSON_COMPACT);
    json_decref(ev);
    return s;
}

/* At TOOL_CALL_END the decoder only makes sure the argument text is JSON;
 * the tree is built on first read (an_tool_call_args) and is what a parse
 * at once would give. Text outside the checker's subset (a real) is parsed
 * at once, text that is not JSON warns exactly as before, and a call whose
 * args nobody reads is released whole (the teardown, under ASan). */
static void test_lazy_args(void **state)
{
    struct fx *f = *state;
    static const char *const texts[] = {
        ("{\"q\":\"a\\\"b\\u00e9\\ud83d\\ude00 \u00e9\",\"n\":[1,-2,0,{\"x\":null}],"
         "\"t\":true,\"f\":false,\"e\":{},\"a\":[]}"),
        "{\"amount\":54.99}", /* a real: parsed at once */
        " \n\t",              /* blank: {} */
        "{\"a\":1} x",        /* not JSON */
        "[1,2,\"never read\"]",
    };
    static const char *const ids[] = {"c0", "c1", "c2", "c3", "c4"};
    char *args[5];
    for (size_t i = 0; i < 5; i++)
        args[i] = cargs(ids[i], texts[i]);
    const char *ev[] = {
        STARTED,    CSTART("c0", "f"), args[0], CEND("c0"), CSTART("c1", "f"), args[1],
        CEND("c1"), CSTART("c2", "f"), args[2], CEND("c2"), CSTART("c3", "f"), args[3],
        CEND("c3"), CSTART("c4", "f"), args[4], CEND("c4"), FINISHED,          NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    for (size_t i = 0; i < 5; i++)
        free(args[i]);
    assert_ok(r);
    assert_int_equal(r->ncalls, 5);
    struct an_tool_call *c = f->t.calls;
    for (size_t i = 0; i < 5; i++)
        assert_string_equal(c[i].args_text, texts[i]);

    /* plain JSON: judged, not built */
    assert_true(c[0].args_lazy);
    assert_null(c[0].args);
    assert_null(c[0].args_error);
    const json_t *got = an_tool_call_args(&c[0]);
    json_t *eager = json_loads(texts[0], 0, NULL);
    assert_non_null(got);
    assert_true(json_equal((json_t *)got, eager));
    json_decref(eager);
    assert_false(c[0].args_lazy);
    assert_ptr_equal(an_tool_call_args(&c[0]), got); /* built once */
    assert_string_equal(json_string_value(json_object_get(got, "q")),
                        "a\"b\xc3\xa9\xf0\x9f\x98\x80 \xc3\xa9");

    /* a real: outside the checker's subset, parsed at once as before */
    assert_false(c[1].args_lazy);
    assert_non_null(c[1].args);
    assert_json(an_tool_call_args(&c[1]), "{\"amount\":54.99}");

    /* blank: {} */
    assert_true(c[2].args_lazy);
    assert_json(an_tool_call_args(&c[2]), "{}");
    assert_null(c[2].args_error);

    /* not JSON: the same reason and warning as a parse at once gives */
    assert_false(c[3].args_lazy);
    assert_null(an_tool_call_args(&c[3]));
    assert_string_equal(c[3].args_error, "end of file expected near 'x' at line 1 column 9");
    assert_int_equal(r->nwarnings, 1);
    assert_string_equal(r->warnings[0], "tool call 'c3' (f): arguments are not valid JSON: end of "
                                        "file expected near 'x' at line 1 column 9");

    /* never read: left unbuilt for the release */
    assert_true(c[4].args_lazy);
}

/* A START after END reopens the call and appends: the second END judges
 * the whole text again, dropping the first judgment. */
static void test_lazy_args_reopened(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,    CSTART("c1", "f"), CARGS("c1", "[1"),
                        CEND("c1"), CSTART("c1", "f"), CARGS("c1", ",2]"),
                        CEND("c1"), FINISHED,          NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_int_equal(r->ncalls, 1);
    assert_int_equal(r->nwarnings, 1); /* the first END: "[1" */
    assert_true(has_warning(r, "tool call 'c1' (f): arguments are not valid JSON: "));
    const struct an_tool_call *c = &f->t.calls[0];
    assert_string_equal(c->args_text, "[1,2]");
    assert_true(c->args_lazy);
    assert_null(c->args_error);
    assert_json(an_tool_call_args(c), "[1,2]");
}

static void test_results(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        CSTART("c1", "f"),
                        CEND("c1"),
                        CSTART("c2", "g"),
                        CEND("c2"),
                        CSTART("c3", "h"),
                        CEND("c3"),
                        "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r1\",\"toolCallId\":\"c1\","
                        "\"content\":\"{\\\"ok\\\":true}\"}",
                        "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r2\",\"toolCallId\":\"c2\","
                        "\"content\":\"plain text\",\"role\":\"tool\"}",
                        "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"r3\",\"toolCallId\":\"c3\","
                        "\"content\":[{\"type\":\"text\",\"text\":\"hi\"}]}",
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_json(f->t.calls[0].result, "{\"ok\":true}");
    assert_json(f->t.calls[1].result, "\"plain text\"");
    assert_json(f->t.calls[2].result, "[{\"type\":\"text\",\"text\":\"hi\"}]");
    assert_int_equal(f->t.calls[0].result_ms, AT(7));
    assert_int_equal(f->t.calls[0].ts_ms, AT(7));
    assert_int_equal(f->t.calls[0].end_ms, AT(2));
    assert_int_equal(f->t.calls[2].result_ms, AT(9));
}

static void test_chunks(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {
        STARTED, "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"He\"}",
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"llo\"}",
        "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c1\",\"toolCallName\":\"f\","
        "\"parentMessageId\":null,\"delta\":\"{}\"}",
        /* a new id closes c1 */
        "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c2\",\"toolCallName\":\"g\","
        "\"delta\":\"{\\\"a\\\":\"}",
        "{\"type\":\"RAW\",\"event\":{}}", /* RAW does not close the stream */
        "{\"type\":\"TOOL_CALL_CHUNK\",\"delta\":\"2}\"}",
        "{\"type\":\"STEP_STARTED\",\"stepName\":\"s\"}", /* any other event closes it */
        "{\"type\":\"STEP_FINISHED\",\"stepName\":\"s\"}", FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_string_equal(r->text, "Hello");
    assert_int_equal(r->ncalls, 2);
    assert_json(an_tool_call_args(&f->t.calls[0]), "{}");
    assert_true(f->t.calls[0].args_done);
    assert_int_equal(f->t.calls[0].start_ms, AT(3));
    assert_int_equal(f->t.calls[0].end_ms, AT(4));
    assert_json(an_tool_call_args(&f->t.calls[1]), "{\"a\":2}");
    assert_int_equal(f->t.calls[1].end_ms, AT(7));
    assert_int_equal(r->nwarnings, 0);
}

static void test_first_chunk_needs_id(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c1\",\"delta\":\"{}\"}",
                        FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_EPROTO, "toolCallName");
    assert_int_equal(f->fed, 1);
}

static void test_run_error_keeps_capture(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,
                        TSTART("m1"),
                        TCONT("m1", "partial"),
                        CSTART("c1", "f"),
                        CARGS("c1", "{\\\"a\\\":1}"),
                        "{\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"E42\"}",
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_ERUN, "agent reported RUN_ERROR: boom (code E42)");
    /* the stream is still read after RUN_ERROR: a RUN_FINISHED there breaks
     * a MUST rule, shown as a warning since the turn had already failed */
    assert_int_equal(f->last_rc, AN_EPROTO);
    assert_int_equal(f->fed, 6);
    assert_true(has_warning(r, "protocol violation [nothing-after-run-error] at event #7"));
    assert_string_equal(r->text, "partial");
    assert_int_equal(r->ncalls, 1);
    assert_false(f->t.calls[0].args_done);
    assert_json(an_tool_call_args(&f->t.calls[0]), "{\"a\":1}");
    assert_int_equal(f->t.calls[0].end_ms, AT(4)); /* its last args event */
    assert_true(has_warning(r, "never ended"));
}

static void test_run_error_first(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {"{\"type\":\"RUN_ERROR\",\"message\":\"no key\"}", NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_ERUN, "agent reported RUN_ERROR: no key");
    assert_null(strstr(r->error, "code"));
}

static void test_missing_run_finished(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, TSTART("m1"), TCONT("m1", "cut"), NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_EPROTO, "stream ended without RUN_FINISHED");
    assert_string_equal(r->text, "cut");
}

static void test_cut_stream(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, NULL};
    struct an_turn_rec *r = turn_cut(f, "go", ev, "Recv failure: Connection reset by peer");
    assert_failed(r, AN_EPROTO, "without RUN_FINISHED (Recv failure");
}

static void test_empty_stream(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_EPROTO, "no event received");
}

static void test_first_event_wrong(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {TSTART("m1"), STARTED, FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_EPROTO,
                  "protocol violation [first-event] at event #1 (TEXT_MESSAGE_START)");
    assert_int_equal(r->nframes, 1);
}

static void test_unknown_event_type(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,      "{\"type\":\"FOO_BAR\",\"x\":1}",
                        TSTART("m1"), TCONT("m1", "ok"),
                        TEND("m1"),   FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_true(has_warning(r, "unknown event type 'FOO_BAR'"));
    assert_string_equal(r->text, "ok");
    assert_int_equal(r->nframes, 6); /* kept in the raw frames */
}

static void test_malformed_events(void **state)
{
    struct fx *f = *state;
    const char *bad_json[] = {STARTED, "{\"type\":\"TEXT_MESS", NULL};
    struct an_turn_rec *r = turn(f, "go", bad_json);
    assert_failed(r, AN_EPROTO, "event #2 is not valid JSON");
    assert_non_null(strstr(r->error, "{\"type\":\"TEXT_MESS"));

    const char *not_obj[] = {STARTED, "[1,2]", NULL};
    r = turn(f, "go", not_obj);
    assert_failed(r, AN_EPROTO, "event #2 is not an object with a string 'type'");

    const char *num_type[] = {"{\"type\":5}", NULL};
    r = turn(f, "go", num_type);
    assert_failed(r, AN_EPROTO, "event #1 is not an object");

    const char *no_id[] = {STARTED, "{\"type\":\"TEXT_MESSAGE_START\"}", NULL};
    r = turn(f, "go", no_id);
    assert_failed(r, AN_EPROTO,
                  "[required-field] at event #2 (TEXT_MESSAGE_START): missing 'messageId'");

    const char *bad_role[] = {
        STARTED, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":5}", NULL};
    r = turn(f, "go", bad_role);
    assert_failed(
        r, AN_EPROTO,
        "[field-type] at event #2 (TEXT_MESSAGE_START): 'role': expected string, received number");
}

static void test_blank_data_ignored(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, "", " \n", FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_true(has_warning(r, "event #2 has no data"));
}

static void test_after_run_finished(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED,  TSTART("m1"),        TCONT("m1", "a"),     TEND("m1"),
                        FINISHED, TCONT("m1", "late"), CSTART("c9", "late"), NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_EPROTO, "[after-run-finished] at event #6 (TEXT_MESSAGE_CONTENT)");
    assert_string_equal(r->text, "a");

    /* warn mode: the late events are reported and kept out of the run */
    f->protocol = AN_PROTOCOL_WARN;
    r = turn(f, "go", ev);
    assert_ok(r);
    assert_string_equal(r->text, "a");
    assert_int_equal(r->ncalls, 0);
    assert_true(has_warning(
        r, "protocol violation [after-run-finished] at event #6 (TEXT_MESSAGE_CONTENT)"));
    assert_true(
        has_warning(r, "protocol violation [after-run-finished] at event #7 (TOOL_CALL_START)"));
}

static void test_two_runs_in_one_stream(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, TSTART("m1"), TCONT("m1", "a"), TEND("m1"), FINISHED,
                        STARTED, TSTART("m2"), TCONT("m2", "b"), TEND("m2"), FINISHED,
                        NULL};
    struct an_turn_rec *r = turn(f, NULL, ev);
    assert_ok(r);
    assert_string_equal(r->text, "ab");
    assert_int_equal(r->nwarnings, 0);
}

static void test_late_run_error(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, FINISHED, "{\"type\":\"RUN_ERROR\",\"message\":\"late\"}", NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_ERUN, "late");
}

static void test_max_tool_calls(void **state)
{
    struct fx *f = *state;
    f->max_calls = 2;
    const char *ev[] = {STARTED,           CSTART("c1", "f"), CSTART("c2", "f"),
                        CSTART("c3", "f"), FINISHED,          NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_ELIMIT, "more than 2 tool calls in one turn (max_tool_calls)");
    assert_int_equal(r->ncalls, 2);
}

static void test_state(void **state)
{
    struct fx *f = *state;
    an_agui_conv_release(&f->conv);
    json_t *init = json_pack("{s:i}", "count", 0);
    an_agui_conv_init(&f->conv, "thread-1", init, NULL);
    json_decref(init);

    const char *ev[] = {
        STARTED, "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"count\":1,\"items\":[]}}",
        "{\"type\":\"STATE_DELTA\",\"delta\":["
        "{\"op\":\"add\",\"path\":\"/items/-\",\"value\":\"a\"},"
        "{\"op\":\"replace\",\"path\":\"/count\",\"value\":2,\"extra\":true}]}",
        /* the test fails: nothing of this patch applies */
        "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"replace\",\"path\":\"/count\",\"value\":7},"
        "{\"op\":\"test\",\"path\":\"/count\",\"value\":99}]}",
        "{\"type\":\"STATE_DELTA\",\"delta\":[{\"op\":\"remove\",\"path\":\"/nope\"}]}", FINISHED,
        NULL};
    json_t *probe = an_agui_conv_input(&f->conv, "r0", NULL);
    assert_json(json_object_get(probe, "state"), "{\"count\":0}");
    json_decref(probe);

    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_json(json_object_get(f->input, "state"), "{\"count\":0}");
    assert_json(r->state, "{\"count\":2,\"items\":[\"a\"]}");
    assert_json(f->conv.state, "{\"count\":2,\"items\":[\"a\"]}");
    assert_int_equal(r->nwarnings, 2);
    assert_true(has_warning(r, "test failed"));
    assert_true(has_warning(r, "/nope"));

    /* the next run sends the state the agent produced */
    const char *ev2[] = {STARTED, FINISHED, NULL};
    turn(f, "again", ev2);
    assert_json(json_object_get(f->input, "state"), "{\"count\":2,\"items\":[\"a\"]}");
}

/* m1: "Let me check", and a get_weather call of Paris in it */
#define CHECK_WEATHER                                                                              \
    TSTART("m1"), TCONT("m1", "Let me check"), CSTARTP("c1", "get_weather", "m1"),                 \
        CARGS("c1", "{\\\"city\\\":\\\"Paris\\\"}"), CEND("c1"), TEND("m1")

static void test_history_across_turns(void **state)
{
    struct fx *f = *state;
    const char *ev1[] = {
        STARTED,
        CHECK_WEATHER,
        "{\"type\":\"TOOL_CALL_RESULT\",\"messageId\":\"tr1\",\"toolCallId\":\"c1\","
        "\"content\":\"sunny\"}",
        TSTART("m2"),
        TCONT("m2", "It is sunny"),
        TEND("m2"),
        FINISHED,
        NULL};
    struct an_turn_rec *r = turn(f, "weather?", ev1);
    assert_ok(r);
    json_t *msgs = json_object_get(f->input, "messages");
    assert_int_equal(json_array_size(msgs), 1);
    const char *user_id = an_json_str(json_array_get(msgs, 0), "id");
    assert_non_null(user_id);
    assert_int_equal(strlen(user_id), 36);
    char *uid = strdup(user_id);

    const char *ev2[] = {STARTED, FINISHED, NULL};
    turn(f, "thanks", ev2);
    json_t *in = f->input;
    assert_string_equal(an_json_str(in, "threadId"), "thread-1");
    assert_string_equal(an_json_str(in, "runId"), "run-1");
    assert_json(json_object_get(in, "tools"), "[]");
    assert_json(json_object_get(in, "context"), "[]");
    assert_json(json_object_get(in, "forwardedProps"), "{}");
    assert_null(json_object_get(in, "protocolVersion"));
    msgs = json_object_get(in, "messages");
    assert_int_equal(json_array_size(msgs), 5);
    char want[2048];
    snprintf(want, sizeof want,
             "[{\"id\":\"%s\",\"role\":\"user\",\"content\":\"weather?\"},"
             "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Let me check\","
             "\"toolCalls\":[{\"id\":\"c1\",\"type\":\"function\",\"function\":"
             "{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}}]},"
             "{\"id\":\"tr1\",\"role\":\"tool\",\"toolCallId\":\"c1\",\"content\":\"sunny\"},"
             "{\"id\":\"m2\",\"role\":\"assistant\",\"content\":\"It is sunny\"}]",
             uid);
    json_t *first4 = json_array();
    for (size_t i = 0; i < 4; i++)
        json_array_append(first4, json_array_get(msgs, i));
    assert_json(first4, want);
    json_decref(first4);
    json_t *last = json_array_get(msgs, 4);
    assert_string_equal(an_json_str(last, "role"), "user");
    assert_string_equal(an_json_str(last, "content"), "thanks");
    assert_string_not_equal(an_json_str(last, "id"), uid);
    free(uid);

    /* the second turn's calls slice starts after the first's */
    assert_int_equal(f->t.turns[1].first_call, 1);
    assert_int_equal(f->t.turns[1].ncalls, 0);
}

/* A turn whose conversation no one reads (job.c: the test's last turn, no
 * check of: messages, no report keeping transcripts): the run's messages are
 * not merged and its record holds none; the rest of the turn is as always. */
static void test_drop_messages(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {STARTED, CHECK_WEATHER, FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "weather?", ev);
    assert_ok(r);
    assert_int_equal(json_array_size(r->messages), 2); /* the user's and m1 */
    assert_int_equal(json_array_size(f->conv.messages), 2);

    f->drop_messages = true;
    r = turn(f, "and tomorrow?", ev);
    assert_ok(r);
    assert_null(r->messages);
    /* the conversation holds the user's second message (sent with the
     * request), not the run's answer */
    assert_int_equal(json_array_size(f->conv.messages), 3);
    assert_string_equal(an_json_str(json_array_get(f->conv.messages, 2), "role"), "user");
    /* what the checks read is all there */
    assert_string_equal(r->text, "Let me check");
    assert_int_equal(r->ncalls, 1);
    assert_string_equal(f->t.calls[r->first_call].name, "get_weather");
    assert_json(an_tool_call_args(&f->t.calls[r->first_call]), "{\"city\":\"Paris\"}");
    /* the first turn's record is untouched */
    assert_int_equal(json_array_size(f->t.turns[0].messages), 2);

    /* the text of two messages whose deltas alternate, and of one message
     * (taken over, not copied, when dropped): as when the messages are
     * built (new ids each turn: an id the conversation holds continues
     * that message) */
#define TWO(a, b)                                                                                  \
    {STARTED,         TSTART(a),        TSTART(b),        TCONT(a, "A1 "), TCONT(b, "B1 "),         \
     TCONT(a, "A2"), TCONT(b, "B2"), TEND(a),          TEND(b),         FINISHED,                \
     NULL}
#define ONE(c) {STARTED, TSTART(c), TCONT(c, "C1 "), TCONT(c, "C2"), TEND(c), FINISHED, NULL}
    const char *two[][11] = {TWO("a", "b"), TWO("d", "e"), TWO("g", "h")};
    const char *one[][7] = {ONE("c"), ONE("f")};
    for (int drop = 0; drop < 2; drop++) {
        f->drop_messages = drop;
        r = turn(f, "two", two[drop]);
        assert_ok(r);
        assert_string_equal(r->text, "A1 A2B1 B2");
        assert_true(drop ? !r->messages : json_array_size(r->messages) > 0);
        r = turn(f, "one", one[drop]);
        assert_ok(r);
        assert_string_equal(r->text, "C1 C2");
    }
    /* the decoder's kept buffers, emptied by the dropped turns, serve again */
    f->drop_messages = false;
    r = turn(f, "again", two[2]);
    assert_string_equal(r->text, "A1 A2B1 B2");
    size_t n = json_array_size(r->messages);
    assert_string_equal(an_json_str(json_array_get(r->messages, n - 2), "content"), "A1 A2");
    assert_string_equal(an_json_str(json_array_get(r->messages, n - 1), "content"), "B1 B2");
#undef TWO
#undef ONE
}

static void test_tool_call_without_parent_and_connect(void **state)
{
    struct fx *f = *state;
    const char *ev1[] = {STARTED, CSTART("c1", "ask_user"), CARGS("c1", "{}"), CEND("c1"), FINISHED,
                         NULL};
    turn(f, "plan", ev1);
    const char *ev2[] = {STARTED, FINISHED, NULL};
    turn(f, NULL, ev2); /* connect: no new user message */
    json_t *msgs = json_object_get(f->input, "messages");
    assert_int_equal(json_array_size(msgs), 2);
    /* frontend-style call: an assistant message named after the call, no
     * "content", and no tool message since no result came */
    assert_json(json_object_get(json_array_get(msgs, 1), "toolCalls"),
                "[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"ask_user\","
                "\"arguments\":\"{}\"}}]");
    assert_string_equal(an_json_str(json_array_get(msgs, 1), "id"), "c1");
    assert_null(json_object_get(json_array_get(msgs, 1), "content"));
}

static void test_messages_snapshot(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {
        STARTED,
        TSTART("m0"),
        TCONT("m0", "dropped"),
        TEND("m0"),
        "{\"type\":\"MESSAGES_SNAPSHOT\",\"messages\":[{\"id\":\"u\",\"role\":\"user\","
        "\"content\":\"restated\"},{\"id\":\"act\",\"role\":\"activity\",\"activityType\":\"x\","
        "\"content\":{}}]}",
        TSTART("m1"),
        TCONT("m1", "after"),
        TEND("m1"),
        FINISHED,
        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_string_equal(r->text, "droppedafter");
    assert_json(f->conv.messages, "[{\"id\":\"u\",\"role\":\"user\",\"content\":\"restated\"},"
                                  "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"after\"}]");
}

/* RFC 6902 operations and their failures, applied to one document. */
static void test_state_cap(void **state)
{
    struct fx *f = *state;
    char bomb[4096];
    size_t n = (size_t)snprintf(bomb, sizeof bomb,
                                "{\"type\":\"STATE_DELTA\",\"delta\":["
                                "{\"op\":\"add\",\"path\":\"/a\",\"value\":[0]}");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(bomb + n, sizeof bomb - n,
                              ",{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/a/-\"}");
    snprintf(bomb + n, sizeof bomb - n, "]}");
    const char *ev[] = {STARTED, bomb, FINISHED, NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_failed(r, AN_ELIMIT, "max_state_bytes (16777216 bytes)");
    assert_json(r->state, "{}");

    f->max_state = 500;
    const char *snap[] = {
        STARTED,
        "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"s\":"
        "\"0123456789012345678901234567890123456789"
        "0123456789012345678901234567890123456789012345678901234567890123456789012345678901234567"
        "89012345678901234567890123456789012345678901234567890123456789012345678901234567890123456"
        "7890123456789012345678901234567890123456789012345678901234567890123456789012345678901234"
        "5678901234567890123456789012345678901234567890123456789012345678901234567890123456789012"
        "3456789012345678901234567890123456789012345678901234567890123456789012345678901234567890"
        "1234567890123456789012345678901234567890123456789012345678901234567890123456789012345678"
        "9012345678901234567890123456789012345678901234567890123456789012345678901234567890123456"
        "7890123456789012345678901234567890123456789012345678901234567890123456789012345678901234"
        "5678901234567890123456789012345678901234567890123456789012345678901234567890123456789\"}}",
        FINISHED, NULL};
    r = turn(f, "again", snap);
    assert_failed(r, AN_ELIMIT, "STATE_SNAPSHOT (event #2) weighs");
    assert_failed(r, AN_ELIMIT, "max_state_bytes (500 bytes)");
}

/* Numbers beyond int64 or a double in fields whose value the spec does not
 * need (rawEvent, the state) do not break the turn: kept as a real, or as
 * their text. (A typed field, `timestamp`, is then judged by the
 * conformance rules: a real is not an integer.) */
static void test_big_numbers(void **state)
{
    struct fx *f = *state;
    const char *ev[] = {
        "{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\","
        "\"rawEvent\":{\"id\":123456789012345678901234567890}}",
        "{\"type\":\"STATE_SNAPSHOT\",\"snapshot\":{\"n\":-99999999999999999999,\"x\":1e999}}",
        "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":\"assistant\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"hi\","
        "\"rawEvent\":[99999999999999999999]}",
        "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m\"}",
        FINISHED,
        NULL};
    struct an_turn_rec *r = turn(f, "go", ev);
    assert_ok(r);
    assert_string_equal(r->text, "hi");
    assert_true(json_real_value(json_object_get(r->state, "n")) < -9e19);
    assert_string_equal(json_string_value(json_object_get(r->state, "x")), "1e999");
}

/* A conversation initialised over stale memory (a struct on the stack) has
 * no attachment parts: the user message is its text. Found by fuzz_agui
 * (fuzz/regress/agui/conv-init-user-parts): init left user_parts unset. */
static void test_conv_init_sets_every_member(void **state)
{
    (void)state;
    struct an_agui_conv c;
    memset(&c, 0xa5, sizeof c);
    an_agui_conv_init(&c, "thread-1", NULL, NULL);
    assert_null(c.user_parts);
    json_t *in = an_agui_conv_input(&c, "run-1", "hello");
    const json_t *msgs = json_object_get(in, "messages");
    assert_int_equal(json_array_size(msgs), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(msgs, 0), "content")),
                        "hello");
    json_decref(in);
    an_agui_conv_release(&c);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        T(test_text_assembly),
        T(test_text_of_assistant_only_by_message),
        T(test_interleaved_text_and_tool),
        T(test_parallel_calls),
        T(test_bad_args_kept_as_text),
        T(test_lazy_args),
        T(test_lazy_args_reopened),
        T(test_results),
        T(test_chunks),
        T(test_first_chunk_needs_id),
        T(test_run_error_keeps_capture),
        T(test_run_error_first),
        T(test_missing_run_finished),
        T(test_cut_stream),
        T(test_empty_stream),
        T(test_first_event_wrong),
        T(test_unknown_event_type),
        T(test_malformed_events),
        T(test_blank_data_ignored),
        T(test_after_run_finished),
        T(test_two_runs_in_one_stream),
        T(test_late_run_error),
        T(test_max_tool_calls),
        T(test_state),
        T(test_history_across_turns),
        T(test_tool_call_without_parent_and_connect),
        T(test_messages_snapshot),
        cmocka_unit_test_setup_teardown(test_state_cap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_drop_messages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_big_numbers, setup, teardown),
        cmocka_unit_test(test_conv_init_sets_every_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
