/*
 * The AG-UI conversation across turns (proto/agui_history.c): what the
 * decoder merges into the history the next run is sent, the turn's record
 * of it, and the last turn whose messages nothing reads (drop_messages).
 * Turns fed as in test_agui_decode.c (support/agui_turns.h).
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
#include "ananke/transcript.h"
#include "core/json.h"
#include "support/json_assert.h"
#include "proto/agui_decode.h"

/* m1: "Let me check", and a get_weather call of Paris in it */
#define CHECK_WEATHER                                                                              \
    TSTART("m1"), TCONT("m1", "Let me check"), CSTARTP("c1", "get_weather", "m1"),                 \
        CARGS("c1", "{\\\"city\\\":\\\"Paris\\\"}"), CEND("c1"), TEND("m1")

static void test_history_across_turns(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "weather?", ev1);
    agui_assert_ok(r);
    json_t *msgs = json_object_get(f->input, "messages");
    assert_int_equal(json_array_size(msgs), 1);
    const char *user_id = an_json_str(json_array_get(msgs, 0), "id");
    assert_non_null(user_id);
    assert_int_equal(strlen(user_id), 36);
    char *uid = strdup(user_id);

    const char *ev2[] = {STARTED, FINISHED, NULL};
    agui_turn(f, "thanks", ev2);
    json_t *in = f->input;
    assert_string_equal(an_json_str(in, "threadId"), "thread-1");
    assert_string_equal(an_json_str(in, "runId"), "run-1");
    ut_assert_json("json_object_get(in, \"tools\")", json_object_get(in, "tools"), "[]");
    ut_assert_json("json_object_get(in, \"context\")", json_object_get(in, "context"), "[]");
    ut_assert_json("json_object_get(in, \"forwardedProps\")", json_object_get(in, "forwardedProps"),
                   "{}");
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
    ut_assert_json("first4", first4, want);
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
    struct agui_fx *f = *state;
    const char *ev[] = {STARTED, CHECK_WEATHER, FINISHED, NULL};
    struct an_turn_rec *r = agui_turn(f, "weather?", ev);
    agui_assert_ok(r);
    assert_int_equal(json_array_size(r->messages), 2); /* the user's and m1 */
    assert_int_equal(json_array_size(f->conv.messages), 2);

    f->drop_messages = true;
    r = agui_turn(f, "and tomorrow?", ev);
    agui_assert_ok(r);
    assert_null(r->messages);
    /* the conversation holds the user's second message (sent with the
     * request), not the run's answer */
    assert_int_equal(json_array_size(f->conv.messages), 3);
    assert_string_equal(an_json_str(json_array_get(f->conv.messages, 2), "role"), "user");
    /* what the checks read is all there */
    assert_string_equal(r->text, "Let me check");
    assert_int_equal(r->ncalls, 1);
    assert_string_equal(f->t.calls[r->first_call].name, "get_weather");
    ut_assert_json("an_tool_call_args(&f->t.calls[r->first_call])",
                   an_tool_call_args(&f->t.calls[r->first_call]), "{\"city\":\"Paris\"}");
    /* the first turn's record is untouched */
    assert_int_equal(json_array_size(f->t.turns[0].messages), 2);

    /* the text of two messages whose deltas alternate, and of one message
     * (taken over, not copied, when dropped): as when the messages are
     * built (new ids each turn: an id the conversation holds continues
     * that message) */
#define TWO(a, b)                                                                                  \
    {                                                                                              \
        STARTED, TSTART(a), TSTART(b), TCONT(a, "A1 "), TCONT(b, "B1 "), TCONT(a, "A2"),           \
            TCONT(b, "B2"), TEND(a), TEND(b), FINISHED, NULL                                       \
    }
#define ONE(c)                                                                                     \
    {                                                                                              \
        STARTED, TSTART(c), TCONT(c, "C1 "), TCONT(c, "C2"), TEND(c), FINISHED, NULL               \
    }
    const char *two[][11] = {TWO("a", "b"), TWO("d", "e"), TWO("g", "h")};
    const char *one[][7] = {ONE("c"), ONE("f")};
    for (int drop = 0; drop < 2; drop++) {
        f->drop_messages = drop;
        r = agui_turn(f, "two", two[drop]);
        agui_assert_ok(r);
        assert_string_equal(r->text, "A1 A2B1 B2");
        assert_true(drop ? !r->messages : json_array_size(r->messages) > 0);
        r = agui_turn(f, "one", one[drop]);
        agui_assert_ok(r);
        assert_string_equal(r->text, "C1 C2");
    }
    /* the decoder's kept buffers, emptied by the dropped turns, serve again */
    f->drop_messages = false;
    r = agui_turn(f, "again", two[2]);
    assert_string_equal(r->text, "A1 A2B1 B2");
    size_t n = json_array_size(r->messages);
    assert_string_equal(an_json_str(json_array_get(r->messages, n - 2), "content"), "A1 A2");
    assert_string_equal(an_json_str(json_array_get(r->messages, n - 1), "content"), "B1 B2");
#undef TWO
#undef ONE
}

static void test_tool_call_without_parent_and_connect(void **state)
{
    struct agui_fx *f = *state;
    const char *ev1[] = {STARTED, CSTART("c1", "ask_user"), CARGS("c1", "{}"), CEND("c1"), FINISHED,
                         NULL};
    agui_turn(f, "plan", ev1);
    const char *ev2[] = {STARTED, FINISHED, NULL};
    agui_turn(f, NULL, ev2); /* connect: no new user message */
    json_t *msgs = json_object_get(f->input, "messages");
    assert_int_equal(json_array_size(msgs), 2);
    /* frontend-style call: an assistant message named after the call, no
     * "content", and no tool message since no result came */
    ut_assert_json("json_object_get(json_array_get(msgs, 1), \"toolCalls\")",
                   json_object_get(json_array_get(msgs, 1), "toolCalls"),
                   "[{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"ask_user\","
                   "\"arguments\":\"{}\"}}]");
    assert_string_equal(an_json_str(json_array_get(msgs, 1), "id"), "c1");
    assert_null(json_object_get(json_array_get(msgs, 1), "content"));
}

static void test_messages_snapshot(void **state)
{
    struct agui_fx *f = *state;
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
    struct an_turn_rec *r = agui_turn(f, "go", ev);
    agui_assert_ok(r);
    assert_string_equal(r->text, "droppedafter");
    ut_assert_json("f->conv.messages", f->conv.messages,
                   "[{\"id\":\"u\",\"role\":\"user\",\"content\":\"restated\"},"
                   "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"after\"}]");
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
#define T(fn) cmocka_unit_test_setup_teardown(fn, agui_fx_setup, agui_fx_teardown)
    const struct CMUnitTest tests[] = {
        T(test_history_across_turns),
        T(test_tool_call_without_parent_and_connect),
        T(test_messages_snapshot),
        T(test_drop_messages),
        cmocka_unit_test(test_conv_init_sets_every_member),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
#undef T
}
