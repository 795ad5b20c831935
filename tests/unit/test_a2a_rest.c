/*
 * The A2A REST binding's translation (proto/a2a_rest.h): routes of both
 * versions with every id percent-encoded (no path injection), the way
 * back for a server, the 0.3 protobuf-JSON shapes both ways, the error
 * statuses and bodies, and the card's choice of binding
 * (an_a2a_card_read_binding).
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
#include "core/spec_names.h"
#include "proto/a2a.h"
#include "proto/a2a_rest.h"

static void test_escape(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out;
    } rows[] = {
        {"task-1", "task-1"},       {"a/b", "a%2Fb"},
        {"../x", "..%2Fx"},         {"t?x=1#f", "t%3Fx%3D1%23f"},
        {"t:cancel", "t%3Acancel"}, {"sp ace%", "sp%20ace%25"},
        {"\xc3\xa9", "%C3%A9"},     {"", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *e = an_a2a_rest_escape(rows[i].in);
        assert_string_equal(e, rows[i].out);
        free(e);
    }
}

static void test_routes(void **state)
{
    (void)state;
    static const struct {
        const char *method, *params;
        int version;
        const char *verb, *path, *body; /* body NULL: none */
        bool stream;
    } rows[] = {
        {"message/send",
         "{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{"
         "\"kind\":"
         "\"text\",\"text\":\"hi\"}]},\"configuration\":{\"blocking\":false}}",
         AN_A2A_V0_3, "POST", "/v1/message:send",
         "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"content\":[{\"text\":\"hi\"}]}"
         ","
         "\"configuration\":{\"blocking\":false}}",
         false},
        {"message/stream",
         "{\"message\":{\"kind\":\"message\",\"messageId\":\"m\",\"role\":\"user\",\"parts\":[{"
         "\"kind\":"
         "\"data\",\"data\":{\"a\":1}},{\"kind\":\"file\",\"file\":{\"uri\":\"http://x/"
         "f\",\"mimeType\":"
         "\"text/csv\"}}]}}",
         AN_A2A_V0_3, "POST", "/v1/message:stream",
         "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"content\":[{\"data\":{"
         "\"data\":{"
         "\"a\":1}}},{\"file\":{\"fileWithUri\":\"http://x/f\",\"mimeType\":\"text/csv\"}}]}}",
         true},
        {"tasks/get", "{\"id\":\"../../admin?x=1\",\"historyLength\":2}", AN_A2A_V0_3, "GET",
         "/v1/tasks/..%2F..%2Fadmin%3Fx%3D1?historyLength=2", NULL, false},
        {"tasks/cancel", "{\"id\":\"a/b:c\"}", AN_A2A_V0_3, "POST", "/v1/tasks/a%2Fb%3Ac:cancel",
         "{}", false},
        {"tasks/resubscribe", "{\"id\":\"t 1\"}", AN_A2A_V0_3, "GET", "/v1/tasks/t%201:subscribe",
         NULL, true},
        {"tasks/pushNotificationConfig/set",
         "{\"taskId\":\"t1\",\"pushNotificationConfig\":{\"url\":\"http://h/p\"}}", AN_A2A_V0_3,
         "POST", "/v1/tasks/t1/pushNotificationConfigs",
         "{\"name\":\"tasks/t1/pushNotificationConfigs/t1\",\"pushNotificationConfig\":{\"url\":"
         "\"http://h/p\"}}",
         false},
        {"tasks/pushNotificationConfig/get", "{\"id\":\"t1\"}", AN_A2A_V0_3, "GET",
         "/v1/tasks/t1/pushNotificationConfigs/t1", NULL, false},
        {"tasks/pushNotificationConfig/delete",
         "{\"id\":\"t1\",\"pushNotificationConfigId\":\"c/2\"}", AN_A2A_V0_3, "DELETE",
         "/v1/tasks/t1/pushNotificationConfigs/c%2F2", NULL, false},
        {"agent/getAuthenticatedExtendedCard", "{}", AN_A2A_V0_3, "GET", "/v1/card", NULL, false},
        {"SendMessage",
         "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}",
         AN_A2A_V1_0, "POST", "/message:send",
         "{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}",
         false},
        {"CancelTask", "{\"id\":\"x/y\"}", AN_A2A_V1_0, "POST", "/tasks/x%2Fy:cancel", "{}", false},
        {"GetExtendedAgentCard", "{}", AN_A2A_V1_0, "GET", "/extendedAgentCard", NULL, false},
        /* ListTasks: every param a query parameter, each key and value
         * percent-encoded: a value cannot add a parameter, a fragment or
         * a path segment */
        {"ListTasks",
         "{\"contextId\":\"c&pageSize=1#/../x?\",\"pageSize\":2,\"includeArtifacts\":true,"
         "\"status\":\"TASK_STATE_WORKING\",\"x y\":[\"a\",1],\"skip\":{\"o\":1}}",
         AN_A2A_V1_0, "GET",
         "/tasks?contextId=c%26pageSize%3D1%23%2F..%2Fx%3F&pageSize=2&includeArtifacts=true"
         "&status=TASK_STATE_WORKING&x%20y=a&x%20y=1",
         NULL, false},
        {"ListTasks", "{}", AN_A2A_V1_0, "GET", "/tasks", NULL, false},
        {"CreateTaskPushNotificationConfig", "{\"taskId\":\"t/1\",\"url\":\"http://h/p\"}",
         AN_A2A_V1_0, "POST", "/tasks/t%2F1/pushNotificationConfigs",
         "{\"taskId\":\"t/1\",\"url\":\"http://h/p\"}", false},
        {"ListTaskPushNotificationConfigs", "{\"taskId\":\"t?1\"}", AN_A2A_V1_0, "GET",
         "/tasks/t%3F1/pushNotificationConfigs", NULL, false},
        /* 1.0 names the task taskId and the config id */
        {"GetTaskPushNotificationConfig", "{\"taskId\":\"t1\",\"id\":\"c#1\"}", AN_A2A_V1_0, "GET",
         "/tasks/t1/pushNotificationConfigs/c%231", NULL, false},
        {"DeleteTaskPushNotificationConfig", "{\"taskId\":\"t/1\",\"id\":\"c\"}", AN_A2A_V1_0,
         "DELETE", "/tasks/t%2F1/pushNotificationConfigs/c", NULL, false},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *p = ut_json_parse(rows[i].params);
        struct an_a2a_rest_req r = {0};
        assert_true(an_a2a_rest_route(rows[i].method, p, rows[i].version, &r));
        assert_string_equal(r.verb, rows[i].verb);
        assert_string_equal(r.path, rows[i].path);
        assert_int_equal(r.stream, rows[i].stream);
        if (rows[i].body)
            ut_assert_json(rows[i].method, r.body, rows[i].body);
        else
            assert_null(r.body);
        an_a2a_rest_req_release(&r);
        json_decref(p);
    }
    struct an_a2a_rest_req r = {0};
    assert_false(an_a2a_rest_route("ananke/no-such-method", NULL, AN_A2A_V0_3, &r));
    assert_false(an_a2a_rest_route("message/send", NULL, AN_A2A_V1_0, &r)); /* a 0.3 name */
    assert_false(an_a2a_rest_route("ListTasks", NULL, AN_A2A_V0_3, &r));    /* 0.3 has none */
    assert_false(an_a2a_rest_route("tasks/list", NULL, AN_A2A_V0_3, &r));
}

/* ListTasks both ways: the query a client builds is read back by a server
 * into the same params; a query that does not decode is no route. */
static void test_list_tasks(void **state)
{
    (void)state;
    const char *in = "{\"contextId\":\"c&pageSize=1#/../x?%41+\",\"pageSize\":2,"
                     "\"historyLength\":0,\"includeArtifacts\":false,\"pageToken\":\"a=b\"}";
    json_t *p = ut_json_parse(in), *back = NULL;
    struct an_a2a_rest_req r = {0};
    assert_true(an_a2a_rest_route("ListTasks", p, AN_A2A_V1_0, &r));
    char *q = strchr(r.path, '?');
    assert_non_null(q);
    *q = 0;
    const char *m = an_a2a_rest_method("GET", r.path, q + 1, NULL, AN_A2A_V1_0, &back);
    assert_non_null(m);
    assert_string_equal(m, "ListTasks");
    ut_assert_json("list params back", back, in);
    json_decref(back);
    an_a2a_rest_req_release(&r);
    json_decref(p);
    /* '+' is a space; a key given twice keeps its last value; digits only
     * make an integer */
    m = an_a2a_rest_method("GET", "/tasks", "contextId=a+b&pageSize=x1&status=1&status=2", NULL,
                           AN_A2A_V1_0, &back);
    assert_string_equal(m, "ListTasks");
    ut_assert_json("list params", back,
                   "{\"contextId\":\"a b\",\"pageSize\":\"x1\",\"status\":\"2\"}");
    json_decref(back);
    m = an_a2a_rest_method("GET", "/tasks", NULL, NULL, AN_A2A_V1_0, &back);
    assert_string_equal(m, "ListTasks");
    ut_assert_json("no query", back, "{}");
    json_decref(back);
    static const char *const bad[] = {"contextId=%zz", "contextId=a%00b", "contextId=%4", "%=x"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        back = NULL;
        assert_null(an_a2a_rest_method("GET", "/tasks", bad[i], NULL, AN_A2A_V1_0, &back));
        assert_null(back);
    }
    /* 0.3 has no ListTasks route; GetTask takes only its integer historyLength */
    assert_null(an_a2a_rest_method("GET", "/v1/tasks", NULL, NULL, AN_A2A_V0_3, &back));
    m = an_a2a_rest_method("GET", "/tasks/t1", "xhistoryLength=4&contextId=c", NULL, AN_A2A_V1_0,
                           &back);
    assert_string_equal(m, "GetTask");
    ut_assert_json("get params", back, "{\"id\":\"t1\"}");
    json_decref(back);
}

static void test_server_side(void **state)
{
    (void)state;
    json_t *params = NULL;
    json_t *body =
        ut_json_parse("{\"message\":{\"messageId\":\"m\",\"role\":\"ROLE_USER\",\"content\":[{"
                      "\"text\":\"hi\"}]}}");
    const char *m =
        an_a2a_rest_method("POST", "/v1/message:send", NULL, body, AN_A2A_V0_3, &params);
    assert_non_null(m);
    assert_string_equal(m, "message/send");
    ut_assert_json(
        "send params", params,
        "{\"message\":{\"messageId\":\"m\",\"role\":\"user\",\"kind\":\"message\",\"parts\":"
        "[{\"kind\":\"text\",\"text\":\"hi\"}]}}");
    json_decref(params);
    json_decref(body);
    m = an_a2a_rest_method("GET", "/v1/tasks/a%2Fb", "historyLength=3", NULL, AN_A2A_V0_3, &params);
    assert_string_equal(m, "tasks/get");
    ut_assert_json("get params", params, "{\"id\":\"a/b\",\"historyLength\":3}");
    json_decref(params);
    m = an_a2a_rest_method("POST", "/v1/tasks/t1:cancel", NULL, NULL, AN_A2A_V0_3, &params);
    assert_string_equal(m, "tasks/cancel");
    json_decref(params);
    m = an_a2a_rest_method("POST", "/v1/tasks/t1:subscribe", NULL, NULL, AN_A2A_V0_3, &params);
    assert_string_equal(m, "tasks/resubscribe");
    json_decref(params);
    m = an_a2a_rest_method("GET", "/tasks/t1", NULL, NULL, AN_A2A_V1_0, &params);
    assert_string_equal(m, "GetTask");
    json_decref(params);
    /* no route: unknown paths, a 1.0 path on 0.3, a NUL smuggled in, extra segments */
    static const char *const nope[][2] = {{"GET", "/v1/nope"},        {"GET", "/tasks/t1"},
                                          {"GET", "/v1/tasks/a%00b"}, {"GET", "/v1/tasks/t1/x/y"},
                                          {"DELETE", "/v1/tasks/t1"}, {"GET", "/v1/tasks/"}};
    for (size_t i = 0; i < sizeof nope / sizeof *nope; i++) {
        assert_null(an_a2a_rest_method(nope[i][0], nope[i][1], NULL, NULL, AN_A2A_V0_3, &params));
        assert_null(params);
    }
}

static void test_shapes(void **state)
{
    (void)state;
    /* the SDK's 0.3 REST answers (tests/a2a/agent.mjs --rest), read back */
    json_t *b = ut_json_parse(
        "{\"task\":{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":"
        "\"TASK_STATE_CANCELLED\",\"message\":{\"messageId\":\"x\",\"role\":\"ROLE_AGENT\","
        "\"content\":[{\"text\":\"w\"}]}},\"artifacts\":[{\"artifactId\":\"a\",\"parts\":[{"
        "\"data\":{\"data\":{\"n\":3}}},{\"file\":{\"fileWithUri\":\"http://f\"}}]}]}}");
    json_t *r = an_a2a_rest_result_in(b);
    ut_assert_json(
        "task in", r,
        "{\"kind\":\"task\",\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"canceled\","
        "\"message\":{\"kind\":\"message\",\"messageId\":\"x\",\"role\":\"agent\",\"parts\":[{"
        "\"kind\":\"text\",\"text\":\"w\"}]}},\"artifacts\":[{\"artifactId\":\"a\",\"parts\":[{"
        "\"kind\":\"data\",\"data\":{\"n\":3}},{\"kind\":\"file\",\"file\":{\"uri\":\"http://"
        "f\"}}]}]}");
    /* and out again: the server's shape */
    json_t *o = an_a2a_rest_result_out("message/send", r);
    ut_assert_json(
        "task out", o,
        "{\"task\":" /* as it came, states spelled as 0.3's proto */
        "{\"id\":\"t\",\"contextId\":\"c\",\"status\":{\"state\":\"TASK_STATE_CANCELLED\","
        "\"message\":{\"messageId\":\"x\",\"role\":\"ROLE_AGENT\",\"content\":[{\"text\":\"w\"}]}},"
        "\"artifacts\":[{\"artifactId\":\"a\",\"parts\":[{\"data\":{\"data\":{\"n\":3}}},{\"file\":"
        "{\"fileWithUri\":\"http://f\"}}]}]}}");
    json_decref(o);
    json_decref(r);
    json_decref(b);
    b = ut_json_parse(
        "{\"statusUpdate\":{\"taskId\":\"t\",\"status\":{\"state\":\"TASK_STATE_COMPLETED\"},"
        "\"final\":true}}");
    r = an_a2a_rest_result_in(b);
    ut_assert_json(
        "status-update in", r,
        "{\"kind\":\"status-update\",\"taskId\":\"t\",\"status\":{\"state\":\"completed\"},"
        "\"final\":true}");
    json_decref(r);
    json_decref(b);
    b = ut_json_parse("{\"configs\":[{\"name\":\"tasks/t9/pushNotificationConfigs/c\","
                      "\"pushNotificationConfig\":{\"url\":\"u\"}}]}");
    r = an_a2a_rest_result_in(b);
    ut_assert_json("push list in", r,
                   "[{\"taskId\":\"t9\",\"pushNotificationConfig\":{\"url\":\"u\"}}]");
    json_decref(r);
    json_decref(b);
    /* a body of no known shape is given as it is, for the judge */
    b = ut_json_parse("{\"foo\":1}");
    r = an_a2a_rest_result_in(b);
    ut_assert_json("unknown", r, "{\"foo\":1}");
    json_decref(r);
    json_decref(b);
}

static void test_errors(void **state)
{
    (void)state;
    assert_int_equal(an_a2a_rest_status_of(-32001), 404);
    assert_int_equal(an_a2a_rest_status_of(-32002), 400);
    assert_int_equal(an_a2a_rest_status_of(-32603), 500);
    assert_int_equal(an_a2a_rest_status_of(-32601), 501);
    json_t *b = ut_json_parse("{\"code\":-32001,\"message\":\"Task not found: x\"}");
    json_t *e = an_a2a_rest_error(b, 404);
    ut_assert_json("0.3 error", e, "{\"code\":-32001,\"message\":\"Task not found: x\"}");
    json_decref(e);
    json_decref(b);
    /* 1.0: google.rpc.Status with an ErrorInfo reason */
    b = an_a2a_rest_error_body(-32002, "no", 400, AN_A2A_V1_0);
    e = an_a2a_rest_error(b, 400);
    ut_assert_json("1.0 error", e, "{\"code\":-32002,\"message\":\"no\"}");
    json_decref(e);
    json_decref(b);
    /* no code the client knows: from the status */
    b = ut_json_parse("{\"error\":\"nope\"}");
    e = an_a2a_rest_error(b, 404);
    assert_int_equal(json_integer_value(json_object_get(e, "code")), -32001);
    json_decref(e);
    e = an_a2a_rest_error(b, 502);
    assert_int_equal(json_integer_value(json_object_get(e, "code")), -32603);
    json_decref(e);
    json_decref(b);
    e = an_a2a_rest_error(NULL, 500);
    assert_int_equal(json_integer_value(json_object_get(e, "code")), -32603);
    json_decref(e);
}

static void test_card_binding(void **state)
{
    (void)state;
    json_t *card = ut_json_parse(
        "{\"name\":\"n\",\"supportedInterfaces\":["
        "{\"url\":\"http://h/rest\",\"protocolBinding\":\"HTTP+JSON\",\"protocolVersion\":\"1.0\"},"
        "{\"url\":\"http://h/rpc\",\"protocolBinding\":\"JSONRPC\",\"protocolVersion\":\"1.0\"}]}");
    struct an_a2a_card c;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_a2a_card_read_binding(card, AN_A2A_AUTO, AN_A2A_BIND_AUTO, &c, &err), 0);
    assert_true(c.rest); /* the card's first */
    assert_string_equal(c.url, "http://h/rest");
    an_a2a_card_release(&c);
    assert_int_equal(an_a2a_card_read_binding(card, AN_A2A_AUTO, AN_A2A_BIND_JSONRPC, &c, &err), 0);
    assert_false(c.rest);
    assert_string_equal(c.url, "http://h/rpc");
    an_a2a_card_release(&c);
    assert_int_equal(an_a2a_card_read(card, AN_A2A_AUTO, &c, &err), 0); /* JSON-RPC, as before */
    assert_false(c.rest);
    an_a2a_card_release(&c);
    json_decref(card);
    /* 0.3: url with preferredTransport, additionalInterfaces */
    card = ut_json_parse(
        "{\"name\":\"n\",\"url\":\"http://h/\",\"preferredTransport\":\"JSONRPC\","
        "\"protocolVersion\":\"0.3.0\",\"additionalInterfaces\":[{\"url\":\"http://h/r\","
        "\"transport\":\"HTTP+JSON\"}]}");
    assert_int_equal(an_a2a_card_read_binding(card, AN_A2A_AUTO, AN_A2A_BIND_REST, &c, &err), 0);
    assert_true(c.rest);
    assert_string_equal(c.url, "http://h/r");
    assert_int_equal(c.version, AN_A2A_V0_3);
    an_a2a_card_release(&c);
    json_decref(card);
    card = ut_json_parse("{\"name\":\"n\",\"url\":\"http://h/\",\"protocolVersion\":\"0.3.0\"}");
    assert_int_equal(an_a2a_card_read_binding(card, AN_A2A_AUTO, AN_A2A_BIND_REST, &c, &err),
                     AN_EPROTO);
    assert_non_null(strstr(err.msg, "offers no HTTP+JSON interface"));
    json_decref(card);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape),      cmocka_unit_test(test_routes),
        cmocka_unit_test(test_server_side), cmocka_unit_test(test_shapes),
        cmocka_unit_test(test_errors),      cmocka_unit_test(test_card_binding),
        cmocka_unit_test(test_list_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
