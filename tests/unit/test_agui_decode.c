/*
 * AG-UI decoder: one turn's event sequences (as the JSON an agent would
 * send) in, the transcript out: text, tool calls and results, chunks,
 * broken and cut streams, state. No HTTP, no clock: event i arrives at
 * T0 + 10 * i (support/agui_turns.h). The conversation across turns is
 * test_agui_history.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/agui_turns.h"
#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/transcript.h"
#include "core/json.h"
#include "support/json_assert.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"


static void test_text_assembly(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {
        STARTED,         TSTART("m1"), TCONT("m1", "Hel"), TCONT("m1", "lo \\u00e9"),
        TCONT("m1", ""), TEND("m1"),   FINISHED,           NULL};
    struct an_turn_rec *r = agui_turn(f, "hi", ev);
    agui_assert_ok(r);
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
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "hi", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "132");
}

static void test_interleaved_text_and_tool(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "hi", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "ab");
    assert_int_equal(r->ncalls, 1);
    const struct an_tool_call *c = &f->t.calls[0];
    assert_string_equal(c->id, "c1");
    assert_string_equal(c->name, "search");
    assert_string_equal(c->args_text, "{\"q\":\"x\"}");
    ut_assert_json("an_tool_call_args(c)", an_tool_call_args(c), "{\"q\":\"x\"}");
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
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_int_equal(r->first_call, 0);
    assert_int_equal(r->ncalls, 2);
    assert_string_equal(f->t.calls[0].id, "c1");
    ut_assert_json("an_tool_call_args(&f->t.calls[0])", an_tool_call_args(&f->t.calls[0]), "{\"k\":1}");
    assert_int_equal(f->t.calls[0].end_ms, AT(8));
    assert_string_equal(f->t.calls[1].id, "c2");
    ut_assert_json("an_tool_call_args(&f->t.calls[1])", an_tool_call_args(&f->t.calls[1]), "[1,2]");
    assert_int_equal(f->t.calls[1].end_ms, AT(7));
}

static void test_bad_args_kept_as_text(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,
                        CSTART("c1", "f"),
                        CARGS("c1", "{bad"),
                        CEND("c1"),
                        CSTART("c2", "g"),
                        CEND("c2"),
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_int_equal(r->ncalls, 2);
    const struct an_tool_call *c = &f->t.calls[0];
    assert_null(an_tool_call_args(c));
    assert_string_equal(c->args_text, "{bad");
    assert_non_null(c->args_error);
    assert_true(c->args_done);
    assert_true(agui_has_warning(r, "not valid JSON"));
    /* no argument text at all reads as {} (tools without parameters) */
    ut_assert_json("an_tool_call_args(&f->t.calls[1])", an_tool_call_args(&f->t.calls[1]), "{}");
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
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    for (size_t i = 0; i < 5; i++)
        free(args[i]);
    agui_assert_ok(r);
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
    ut_assert_json("an_tool_call_args(&c[1])", an_tool_call_args(&c[1]), "{\"amount\":54.99}");

    /* blank: {} */
    assert_true(c[2].args_lazy);
    ut_assert_json("an_tool_call_args(&c[2])", an_tool_call_args(&c[2]), "{}");
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
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,    CSTART("c1", "f"), CARGS("c1", "[1"),
                        CEND("c1"), CSTART("c1", "f"), CARGS("c1", ",2]"),
                        CEND("c1"), FINISHED,          NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_int_equal(r->ncalls, 1);
    assert_int_equal(r->nwarnings, 1); /* the first END: "[1" */
    assert_true(agui_has_warning(r, "tool call 'c1' (f): arguments are not valid JSON: "));
    const struct an_tool_call *c = &f->t.calls[0];
    assert_string_equal(c->args_text, "[1,2]");
    assert_true(c->args_lazy);
    assert_null(c->args_error);
    ut_assert_json("an_tool_call_args(c)", an_tool_call_args(c), "[1,2]");
}

static void test_results(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    ut_assert_json("f->t.calls[0].result", f->t.calls[0].result, "{\"ok\":true}");
    ut_assert_json("f->t.calls[1].result", f->t.calls[1].result, "\"plain text\"");
    ut_assert_json("f->t.calls[2].result", f->t.calls[2].result, "[{\"type\":\"text\",\"text\":\"hi\"}]");
    assert_int_equal(f->t.calls[0].result_ms, AT(7));
    assert_int_equal(f->t.calls[0].ts_ms, AT(7));
    assert_int_equal(f->t.calls[0].end_ms, AT(2));
    assert_int_equal(f->t.calls[2].result_ms, AT(9));
}

static void test_chunks(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "Hello");
    assert_int_equal(r->ncalls, 2);
    ut_assert_json("an_tool_call_args(&f->t.calls[0])", an_tool_call_args(&f->t.calls[0]), "{}");
    assert_true(f->t.calls[0].args_done);
    assert_int_equal(f->t.calls[0].start_ms, AT(3));
    assert_int_equal(f->t.calls[0].end_ms, AT(4));
    ut_assert_json("an_tool_call_args(&f->t.calls[1])", an_tool_call_args(&f->t.calls[1]), "{\"a\":2}");
    assert_int_equal(f->t.calls[1].end_ms, AT(7));
    assert_int_equal(r->nwarnings, 0);
}

static void test_first_chunk_needs_id(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,
                        "{\"type\":\"TOOL_CALL_CHUNK\",\"toolCallId\":\"c1\",\"delta\":\"{}\"}",
                        FINISHED, NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_EPROTO, "toolCallName");
    assert_int_equal(f->fed, 1);
}

static void test_run_error_keeps_capture(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,
                        TSTART("m1"),
                        TCONT("m1", "partial"),
                        CSTART("c1", "f"),
                        CARGS("c1", "{\\\"a\\\":1}"),
                        "{\"type\":\"RUN_ERROR\",\"message\":\"boom\",\"code\":\"E42\"}",
                        FINISHED,
                        NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_ERUN, "agent reported RUN_ERROR: boom (code E42)");
    /* the stream is still read after RUN_ERROR: a RUN_FINISHED there breaks
     * a MUST rule, shown as a warning since the turn had already failed */
    assert_int_equal(f->last_rc, AN_EPROTO);
    assert_int_equal(f->fed, 6);
    assert_true(agui_has_warning(r, "protocol violation [nothing-after-run-error] at event #7"));
    assert_string_equal(r->text, "partial");
    assert_int_equal(r->ncalls, 1);
    assert_false(f->t.calls[0].args_done);
    ut_assert_json("an_tool_call_args(&f->t.calls[0])", an_tool_call_args(&f->t.calls[0]), "{\"a\":1}");
    assert_int_equal(f->t.calls[0].end_ms, AT(4)); /* its last args event */
    assert_true(agui_has_warning(r, "never ended"));
}

static void test_run_error_first(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {"{\"type\":\"RUN_ERROR\",\"message\":\"no key\"}", NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_ERUN, "agent reported RUN_ERROR: no key");
    assert_null(strstr(r->error, "code"));
}

static void test_missing_run_finished(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, TSTART("m1"), TCONT("m1", "cut"), NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_EPROTO, "stream ended without RUN_FINISHED");
    assert_string_equal(r->text, "cut");
}

static void test_cut_stream(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, NULL};
    struct an_turn_rec *r = agui_turn_cut(f, "go", ev, "Recv failure: Connection reset by peer");
    agui_assert_failed(r, AN_EPROTO, "without RUN_FINISHED (Recv failure");
}

static void test_empty_stream(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_EPROTO, "no event received");
}

static void test_first_event_wrong(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {TSTART("m1"), STARTED, FINISHED, NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_EPROTO,
                  "protocol violation [first-event] at event #1 (TEXT_MESSAGE_START)");
    assert_int_equal(r->nframes, 1);
}

static void test_unknown_event_type(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,      "{\"type\":\"FOO_BAR\",\"x\":1}",
                        TSTART("m1"), TCONT("m1", "ok"),
                        TEND("m1"),   FINISHED,
                        NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_true(agui_has_warning(r, "unknown event type 'FOO_BAR'"));
    assert_string_equal(r->text, "ok");
    assert_int_equal(r->nframes, 6); /* kept in the raw frames */
}

static void test_malformed_events(void **state)
{
    struct agui_fx *f = *state;
    const char *bad_json[] = {STARTED, "{\"type\":\"TEXT_MESS", NULL};
    struct an_turn_rec *r = agui_turn(f, "go", bad_json);
    agui_assert_failed(r, AN_EPROTO, "event #2 is not valid JSON");
    assert_non_null(strstr(r->error, "{\"type\":\"TEXT_MESS"));

    const char *not_obj[] = {STARTED, "[1,2]", NULL};
    r = agui_turn(f, "go", not_obj);
    agui_assert_failed(r, AN_EPROTO, "event #2 is not an object with a string 'type'");

    const char *num_type[] = {"{\"type\":5}", NULL};
    r = agui_turn(f, "go", num_type);
    agui_assert_failed(r, AN_EPROTO, "event #1 is not an object");

    const char *no_id[] = {STARTED, "{\"type\":\"TEXT_MESSAGE_START\"}", NULL};
    r = agui_turn(f, "go", no_id);
    agui_assert_failed(r, AN_EPROTO,
                  "[required-field] at event #2 (TEXT_MESSAGE_START): missing 'messageId'");

    const char *bad_role[] = {
        STARTED, "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m\",\"role\":5}", NULL};
    r = agui_turn(f, "go", bad_role);
    agui_assert_failed(
        r, AN_EPROTO,
        "[field-type] at event #2 (TEXT_MESSAGE_START): 'role': expected string, received number");
}

static void test_blank_data_ignored(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, "", " \n", FINISHED, NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_true(agui_has_warning(r, "event #2 has no data"));
}

static void test_after_run_finished(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED,  TSTART("m1"),        TCONT("m1", "a"),     TEND("m1"),
                        FINISHED, TCONT("m1", "late"), CSTART("c9", "late"), NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_EPROTO, "[after-run-finished] at event #6 (TEXT_MESSAGE_CONTENT)");
    assert_string_equal(r->text, "a");

    /* warn mode: the late events are reported and kept out of the run */
    f->protocol = AN_PROTOCOL_WARN;
    r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "a");
    assert_int_equal(r->ncalls, 0);
    assert_true(agui_has_warning(
        r, "protocol violation [after-run-finished] at event #6 (TEXT_MESSAGE_CONTENT)"));
    assert_true(
        agui_has_warning(r, "protocol violation [after-run-finished] at event #7 (TOOL_CALL_START)"));
}

static void test_two_runs_in_one_stream(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, TSTART("m1"), TCONT("m1", "a"), TEND("m1"), FINISHED,
                        STARTED, TSTART("m2"), TCONT("m2", "b"), TEND("m2"), FINISHED,
                        NULL};
    struct an_turn_rec *r = agui_turn(f, NULL, ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "ab");
    assert_int_equal(r->nwarnings, 0);
}

static void test_late_run_error(void **state)
{
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, FINISHED, "{\"type\":\"RUN_ERROR\",\"message\":\"late\"}", NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_ERUN, "late");
}

static void test_max_tool_calls(void **state)
{
    struct agui_fx *f = *state;
    f->max_calls = 2;
    const char *ev[] = {STARTED,           CSTART("c1", "f"), CSTART("c2", "f"),
                        CSTART("c3", "f"), FINISHED,          NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_ELIMIT, "more than 2 tool calls in one turn (max_tool_calls)");
    assert_int_equal(r->ncalls, 2);
}

static void test_state(void **state)
{
    struct agui_fx *f = *state;
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
    ut_assert_json("json_object_get(probe, \"state\")", json_object_get(probe, "state"), "{\"count\":0}");
    json_decref(probe);

    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    ut_assert_json("json_object_get(f->input, \"state\")", json_object_get(f->input, "state"), "{\"count\":0}");
    ut_assert_json("r->state", r->state, "{\"count\":2,\"items\":[\"a\"]}");
    ut_assert_json("f->conv.state", f->conv.state, "{\"count\":2,\"items\":[\"a\"]}");
    assert_int_equal(r->nwarnings, 2);
    assert_true(agui_has_warning(r, "test failed"));
    assert_true(agui_has_warning(r, "/nope"));

    /* the next run sends the state the agent produced */
    const char *ev2[] = {STARTED, FINISHED, NULL};
    agui_turn(f, "again", ev2);
    ut_assert_json("json_object_get(f->input, \"state\")", json_object_get(f->input, "state"), "{\"count\":2,\"items\":[\"a\"]}");
}

/* RFC 6902 operations and their failures, applied to one document. */
static void test_state_cap(void **state)
{
    struct agui_fx *f = *state;
    char bomb[4096];
    size_t n = (size_t)snprintf(bomb, sizeof bomb,
                                "{\"type\":\"STATE_DELTA\",\"delta\":["
                                "{\"op\":\"add\",\"path\":\"/a\",\"value\":[0]}");
    for (int i = 0; i < 30; i++)
        n += (size_t)snprintf(bomb + n, sizeof bomb - n,
                              ",{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/a/-\"}");
    snprintf(bomb + n, sizeof bomb - n, "]}");
    const char *ev[] = {STARTED, bomb, FINISHED, NULL};
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_failed(r, AN_ELIMIT, "max_state_bytes (16777216 bytes)");
    ut_assert_json("r->state", r->state, "{}");

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
    r = agui_turn(f, "again", snap);
    agui_assert_failed(r, AN_ELIMIT, "STATE_SNAPSHOT (event #2) weighs");
    agui_assert_failed(r, AN_ELIMIT, "max_state_bytes (500 bytes)");
}

/* Numbers beyond int64 or a double in fields whose value the spec does not
 * need (rawEvent, the state) do not break the turn: kept as a real, or as
 * their text. (A typed field, `timestamp`, is then judged by the
 * conformance rules: a real is not an integer.) */
static void test_big_numbers(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "hi");
    assert_true(json_real_value(json_object_get(r->state, "n")) < -9e19);
    assert_string_equal(json_string_value(json_object_get(r->state, "x")), "1e999");
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, agui_fx_setup, agui_fx_teardown)
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
        T(test_state_cap),
        T(test_big_numbers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
