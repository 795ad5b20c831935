/* AG-UI compliance: expectations judged against step outcomes (pure). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/comply.h"
#include "run/comply_agui.h"

/* A completed run: text, one tool call without a result. */
static const char *const RUN =
    "{\"status\":\"completed\",\"rule\":null,\"error\":null,"
    "\"http\":{\"status\":200,\"contentType\":\"text/event-stream\"},"
    "\"threadId\":\"t1\",\"runId\":\"r1\","
    "\"types\":\"RUN_STARTED TEXT_MESSAGE_START TEXT_MESSAGE_CONTENT TEXT_MESSAGE_END "
    "TOOL_CALL_START TOOL_CALL_END RUN_FINISHED\","
    "\"events\":[{\"type\":\"RUN_STARTED\",\"threadId\":\"t1\",\"runId\":\"r1\"},"
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m1\",\"role\":\"assistant\"},"
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"Hi\"},"
    "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m1\"},"
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c1\",\"toolCallName\":\"pick\"},"
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c1\"},"
    "{\"type\":\"RUN_FINISHED\",\"threadId\":\"t1\",\"runId\":\"r1\"}],"
    "\"runError\":null,"
    "\"messages\":[{\"id\":\"u1\",\"role\":\"user\",\"content\":\"hello\"},"
    "{\"id\":\"m1\",\"role\":\"assistant\",\"content\":\"Hi\"}],"
    "\"state\":{\"n\":2},\"warnings\":[],\"body\":null}";

/* An MCP stream listened to: an acknowledgement, a change without a
 * subscription id, the listen's result. */
static const char *const LISTENED =
    "{\"status\":\"completed\",\"error\":null,\"body\":null,"
    "\"http\":{\"status\":200,\"contentType\":\"text/event-stream\"},"
    "\"messages\":[{\"method\":\"notifications/subscriptions/acknowledged\","
    "\"params\":{\"_meta\":{\"io.modelcontextprotocol/subscriptionId\":\"s1\"}}},"
    "{\"method\":\"notifications/tools/list_changed\",\"params\":{}},"
    "{\"id\":7,\"result\":{}}],"
    "\"first\":{\"method\":\"notifications/subscriptions/acknowledged\"}}";

/* Refused: HTTP 422, no event. */
static const char *const REFUSED =
    "{\"status\":\"http_error\",\"rule\":null,\"error\":\"HTTP 422: {\\\"error\\\":\\\"bad\\\"}\","
    "\"http\":{\"status\":422,\"contentType\":\"application/json\"},\"threadId\":null,"
    "\"runId\":\"r2\",\"types\":\"\",\"events\":[],\"runError\":null,\"messages\":[],"
    "\"state\":{},\"warnings\":[],\"body\":\"{\\\"error\\\":\\\"bad\\\"}\"}";

static json_t *J(const char *s)
{
    json_error_t je;
    json_t *v = json_loads(s, 0, &je);
    if (!v)
        fail_msg("bad fixture: %s: %s", je.text, s);
    return v;
}

static void test_judge(void **state)
{
    (void)state;
    static const struct {
        const char *outcome;
        const char *expect;
        const char *any_of; /* or NULL */
        bool ok;
        size_t nunmet;
        const char *message; /* in the first unmet */
        const char *diff;    /* in one of its diff lines, or NULL */
    } rows[] = {
        /* 0: events in order, ids, types */
        {RUN,
         "{\"status\":\"^completed$\",\"types\":\"^RUN_STARTED( [A-Z_]+)* RUN_FINISHED$\","
         "\"events\":[{\"type\":\"^RUN_STARTED$\",\"threadId\":\"^t1$\"},"
         "{\"type\":\"^TOOL_CALL_START$\",\"toolCallName\":\"^pick$\"},"
         "{\"type\":\"^RUN_FINISHED$\",\"runId\":\"^r1$\"}]}",
         NULL, true, 0, NULL, NULL},
        /* 1: in order only: RUN_STARTED is not after RUN_FINISHED */
        {RUN, "{\"events\":[{\"type\":\"^RUN_FINISHED$\"},{\"type\":\"^RUN_STARTED$\"}]}", NULL,
         false, 1, "events[1] not seen after event #7 (RUN_FINISHED)",
         "event #1 (RUN_STARTED) matches, but comes before event #7: out of order"},
        /* 2: a wrong id: the closest event and the field that differs */
        {RUN, "{\"events\":[{\"type\":\"^RUN_STARTED$\",\"threadId\":\"^t9$\"}]}", NULL, false, 1,
         "events[0] not seen in the 7 events", "threadId: expected /^t9$/, got \"t1\""},
        /* 3: a forbidden event */
        {RUN, "{\"noEvents\":[{\"type\":\"^TOOL_CALL_RESULT$\"},{\"type\":\"^TOOL_CALL_START$\"}]}",
         NULL, false, 1, "event #5 (TOOL_CALL_START) matches noEvents[1]", NULL},
        /* 4: the outcome's members: status, http, messages (subset, any order), state */
        {RUN,
         "{\"status\":\"^completed$\",\"http\":{\"status\":200},"
         "\"messages\":[{\"role\":\"^assistant$\",\"content\":\"Hi\"},{\"id\":\"^u1$\"}],"
         "\"state\":{\"n\":2}}",
         NULL, true, 0, NULL, NULL},
        {RUN, "{\"status\":\"^http_error$\"}", NULL, false, 1,
         "the answer was: HTTP 200 text/event-stream, 7 events, completed",
         "status: expected /^http_error$/, got \"completed\""},
        {RUN, "{\"state\":{\"n\":3}}", NULL, false, 1, "the answer was", "state.n: expected 3"},
        /* 7: no event at all: said once, by the outcome */
        {REFUSED, "{\"status\":\"^completed$\",\"events\":[{\"type\":\"^RUN_STARTED$\"}]}", NULL,
         false, 1, "HTTP 422 application/json, 0 events, http_error: HTTP 422",
         "status: expected /^completed$/, got \"http_error\""},
        /* 8: anyOf: the second alternative matches */
        {REFUSED, "{}",
         "[{\"status\":\"^run_error$\"},{\"status\":\"^http_error$\",\"http\":{\"status\":\"^4\"}}"
         "]",
         true, 0, NULL, NULL},
        /* 9: anyOf: none matches; each one's first difference */
        {RUN, "{}",
         "[{\"status\":\"^http_error$\",\"http\":{\"status\":\"^4\"}},{\"status\":\"^run_error$\"}"
         "]",
         false, 1, "matches none of the 2 accepted outcomes (anyOf): HTTP 200",
         "anyOf[1]: status: expected /^run_error$/, got \"completed\""},
        /* 10: the base pattern must hold as well as one alternative */
        {REFUSED, "{\"runId\":\"^r9$\"}", "[{\"status\":\"^http_error$\"}]", false, 1,
         "the answer was", "runId: expected /^r9$/, got \"r2\""},
        /* 11: noMessages: a forbidden message, named by its method */
        {LISTENED, "{\"first\":{\"method\":\"acknowledged$\"},"
                   "\"noMessages\":[{\"method\":\"^notifications/prompts/\"},"
                   "{\"method\":\"^notifications/tools/list_changed$\"}]}",
         NULL, false, 1, "message #2 (notifications/tools/list_changed) matches noMessages[1]",
         "noMessages[1]: a forbidden message was sent"},
        /* 12: a string entry is searched in each message's compact JSON: what a
         * message lacks (here a subscription id); an answer is named by its id */
        {LISTENED,
         "{\"noMessages\":[\"^(?=.*\\\"method\\\":\\\"notifications/)"
         "(?!.*subscriptionId)\",\"^\\\\{\\\"id\\\":7\"]}",
         NULL, false, 2, "message #2 (notifications/tools/list_changed) matches noMessages[0]",
         NULL},
        /* 13: none forbidden came: met, the other patterns too */
        {LISTENED, "{\"noMessages\":[{\"method\":\"^notifications/message$\"}],"
                   "\"messages\":[{\"id\":7}]}",
         NULL, true, 0, NULL, NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *o = J(rows[i].outcome), *ex = J(rows[i].expect);
        json_t *any = rows[i].any_of ? J(rows[i].any_of) : NULL;
        struct an_comply_result r = {0};
        struct an_comply_agent *a = an_comply_add_agent(&r, "a", "u");
        struct an_comply_test *t = an_comply_add_test(a);
        long *matched = NULL;
        bool ok = comply_agui_judge(ex, any, o, 2, t, &matched);
        if (ok != rows[i].ok || t->nunmet != rows[i].nunmet)
            fail_msg("row %zu: ok %d, %zu unmet (first: %s)", i, ok, t->nunmet,
                     t->nunmet ? t->unmet[0].message : "-");
        if (rows[i].message && !strstr(t->unmet[0].message, rows[i].message))
            fail_msg("row %zu: message '%s'", i, t->unmet[0].message);
        if (t->nunmet)
            assert_int_equal(t->unmet[0].step, 2);
        if (rows[i].diff) {
            bool found = false;
            for (size_t d = 0; d < t->unmet[0].ndiff; d++)
                found = found || strstr(t->unmet[0].diff[d], rows[i].diff);
            if (!found)
                fail_msg("row %zu: no diff line with '%s' (first: %s)", i, rows[i].diff,
                         t->unmet[0].ndiff ? t->unmet[0].diff[0] : "-");
        }
        if (i == 0) {
            /* the events expect.events matched, for captures */
            assert_int_equal(matched[0], 0);
            assert_int_equal(matched[1], 4);
            assert_int_equal(matched[2], 6);
        }
        free(matched);
        an_comply_result_release(&r);
        json_decref(o);
        json_decref(ex);
        json_decref(any);
    }
}

static void test_describe(void **state)
{
    (void)state;
    json_t *o = J(RUN);
    char *d = comply_agui_describe(o);
    assert_string_equal(d, "HTTP 200 text/event-stream, 7 events, completed");
    free(d);
    json_decref(o);
    o = J("{\"status\":\"transport_error\",\"error\":\"cannot reach x\",\"http\":{\"status\":0,"
          "\"contentType\":null},\"events\":[]}");
    d = comply_agui_describe(o);
    assert_string_equal(d, "no HTTP answer, 0 events, transport_error: cannot reach x");
    free(d);
    json_decref(o);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_judge),
        cmocka_unit_test(test_describe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
