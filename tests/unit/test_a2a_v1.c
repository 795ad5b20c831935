/*
 * A2A 1.0 as a translation of the 0.3 JSON-RPC shapes (proto/a2a_v1.h):
 * requests renamed and reshaped, a 1.0 request left alone, answers read
 * back with kind, lowercase states and roles, file parts, and `final`
 * from the state.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support/json_assert.h"

#include "core/json.h"
#include "proto/a2a_v1.h"

static void test_request(void **state)
{
    (void)state;
    json_t *in = ut_json_parse(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"message/send\",\"params\":{\"message\":"
        "{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":["
        "{\"kind\":\"text\",\"text\":\"hi\"},{\"kind\":\"data\",\"data\":{\"a\":1}},"
        "{\"kind\":\"file\",\"file\":{\"uri\":\"http://x/f.csv\",\"mimeType\":\"text/csv\","
        "\"name\":\"f.csv\"}},{\"kind\":\"file\",\"file\":{\"bytes\":\"AAE=\"}}]},"
        "\"configuration\":{\"blocking\":false,\"historyLength\":0,"
        "\"pushNotificationConfig\":{\"url\":\"http://h\"}}}}");
    json_t *out = an_a2a_v1_request(in);
    ut_assert_json(
        "message/send in 1.0", out,
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":"
        "{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"},"
        "{\"data\":{\"a\":1}},{\"url\":\"http://x/f.csv\",\"mediaType\":\"text/csv\","
        "\"filename\":\"f.csv\"},{\"raw\":\"AAE=\"}]},\"configuration\":{"
        "\"returnImmediately\":true,\"historyLength\":0,"
        "\"taskPushNotificationConfig\":{\"url\":\"http://h\"}}}}");
    json_decref(out);
    json_decref(in);

    static const char *const pairs[][2] = {
        {"message/stream", "SendStreamingMessage"},
        {"tasks/get", "GetTask"},
        {"tasks/cancel", "CancelTask"},
        {"tasks/resubscribe", "SubscribeToTask"},
        {"tasks/pushNotificationConfig/get", "GetTaskPushNotificationConfig"},
        {"agent/getAuthenticatedExtendedCard", "GetExtendedAgentCard"},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof *pairs; i++)
        assert_string_equal(an_a2a_v1_method(pairs[i][0]), pairs[i][1]);
    /* a test written in 1.0, or a method of neither: sent as it is */
    in = ut_json_parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{}}");
    assert_null(an_a2a_v1_request(in));
    json_decref(in);
    in = ut_json_parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"bogus/method\"}");
    assert_null(an_a2a_v1_request(in));
    json_decref(in);
    assert_null(an_a2a_v1_method(NULL));
    /* a message without parts stays without parts (the invalid-params tests) */
    in = ut_json_parse("{\"method\":\"message/send\",\"params\":{\"message\":{\"kind\":\"message\","
                       "\"messageId\":\"m\",\"role\":\"user\"}}}");
    out = an_a2a_v1_request(in);
    ut_assert_json("no parts", out,
                   "{\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":\"m\","
                   "\"role\":\"ROLE_USER\"}}}");
    json_decref(out);
    json_decref(in);
}

static void test_answers(void **state)
{
    (void)state;
    json_t *in = ut_json_parse(
        "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"task\":{\"id\":\"t\",\"contextId\":\"c\","
        "\"status\":{\"state\":\"TASK_STATE_COMPLETED\"},\"artifacts\":[{\"artifactId\":\"a\","
        "\"parts\":[{\"text\":\"x\",\"mediaType\":\"text/plain\"},{\"url\":\"http://h/r.csv\","
        "\"mediaType\":\"text/csv\",\"filename\":\"r.csv\"}]}],\"history\":[{\"messageId\":\"m\","
        "\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}]}}}");
    json_t *out = an_a2a_v1_response_in(in);
    ut_assert_json("{task} read back", out,
                   "{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":{\"kind\":\"task\",\"id\":\"t\","
                   "\"contextId\":\"c\",\"status\":{\"state\":\"completed\"},\"artifacts\":[{"
                   "\"artifactId\":\"a\",\"parts\":[{\"kind\":\"text\",\"text\":\"x\"},{\"kind\":"
                   "\"file\",\"file\":{\"uri\":\"http://h/r.csv\",\"mimeType\":\"text/csv\","
                   "\"name\":\"r.csv\"}}]}],\"history\":[{\"kind\":\"message\",\"messageId\":\"m\","
                   "\"role\":\"user\",\"parts\":[{\"kind\":\"text\",\"text\":\"hi\"}]}]}}");
    json_decref(out);
    json_decref(in);

    /* status updates: final from the state (1.0 has none) */
    static const char *const cases[][2] = {
        {"TASK_STATE_WORKING", "false"},       {"TASK_STATE_COMPLETED", "true"},
        {"TASK_STATE_INPUT_REQUIRED", "true"}, {"TASK_STATE_CANCELED", "true"},
        {"TASK_STATE_AUTH_REQUIRED", "true"},  {"TASK_STATE_SUBMITTED", "false"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[256], want[256];
        snprintf(text, sizeof text,
                 "{\"statusUpdate\":{\"taskId\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":"
                 "\"%s\"}}}",
                 cases[i][0]);
        in = ut_json_parse(text);
        out = an_a2a_v1_result_in(in);
        assert_string_equal(an_json_str(out, "kind"), "status-update");
        snprintf(want, sizeof want, "%s", cases[i][1]);
        assert_int_equal(json_is_true(json_object_get(out, "final")), !strcmp(want, "true"));
        json_decref(out);
        json_decref(in);
    }
    /* an error, and a result of no known shape, are left as they are */
    in = ut_json_parse(
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32009,\"message\":\"v\"}}");
    out = an_a2a_v1_response_in(in);
    assert_true(json_equal(out, in));
    json_decref(out);
    json_decref(in);
    in = ut_json_parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tasks\":[],\"totalSize\":0}}");
    out = an_a2a_v1_response_in(in);
    assert_true(json_equal(out, in));
    json_decref(out);
    json_decref(in);
}

/* The push config methods: 0.3 params as 1.0's (set flat, get and delete
 * {taskId, id}, list {taskId}), 1.0 answers back as 0.3's. */
static void test_push(void **state)
{
    (void)state;
    static const char *const rows[][2] = {
        {"{\"method\":\"tasks/pushNotificationConfig/set\",\"params\":{\"taskId\":\"t\","
         "\"pushNotificationConfig\":{\"id\":\"c\",\"url\":\"http://h\",\"token\":\"k\"}}}",
         "{\"method\":\"CreateTaskPushNotificationConfig\",\"params\":{\"taskId\":\"t\","
         "\"id\":\"c\",\"url\":\"http://h\",\"token\":\"k\"}}"},
        {"{\"method\":\"tasks/pushNotificationConfig/get\",\"params\":{\"id\":\"t\","
         "\"pushNotificationConfigId\":\"c\"}}",
         "{\"method\":\"GetTaskPushNotificationConfig\",\"params\":{\"taskId\":\"t\","
         "\"id\":\"c\"}}"},
        {"{\"method\":\"tasks/pushNotificationConfig/delete\",\"params\":{\"id\":\"t\"}}",
         "{\"method\":\"DeleteTaskPushNotificationConfig\",\"params\":{\"taskId\":\"t\","
         "\"id\":\"t\"}}"},
        {"{\"method\":\"tasks/pushNotificationConfig/list\",\"params\":{\"id\":\"t\"}}",
         "{\"method\":\"ListTaskPushNotificationConfigs\",\"params\":{\"taskId\":\"t\"}}"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *in = ut_json_parse(rows[i][0]), *out = an_a2a_v1_request(in);
        ut_assert_json(rows[i][0], out, rows[i][1]);
        json_decref(out);
        json_decref(in);
    }
    json_t *in = ut_json_parse("{\"taskId\":\"t\",\"id\":\"c\",\"url\":\"http://h\"}");
    json_t *out = an_a2a_v1_result_in(in);
    ut_assert_json("a config", out,
                   "{\"taskId\":\"t\",\"pushNotificationConfig\":{\"id\":\"c\",\"url\":"
                   "\"http://h\"}}");
    json_decref(out);
    json_decref(in);
    in = ut_json_parse("{\"configs\":[{\"taskId\":\"t\",\"url\":\"http://h\"}]}");
    out = an_a2a_v1_result_in(in);
    ut_assert_json("a list", out,
                   "[{\"taskId\":\"t\",\"pushNotificationConfig\":{\"url\":\"http://h\"}}]");
    json_decref(out);
    json_decref(in);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_request),
        cmocka_unit_test(test_answers),
        cmocka_unit_test(test_push),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
