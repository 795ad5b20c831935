/* The pure parts of the MCP target: version negotiation, a tools/call
 * answer as a transcript call, a turn as the request it sends, and the
 * config and turn loaders. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/load.h"
#include "ananke/target_type.h"
#include "load/target_mcp.h"
#include "proto/mcp.h"
#include "run/mcp_turn.h"
#include "support/files.h"

static void test_versions(void **state)
{
    (void)state;
    static const struct {
        const char *answer; /* the InitializeResult, as JSON */
        const char *why;    /* NULL: accepted; else part of the refusal */
    } rows[] = {
        {"{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}}", NULL},
        {"{\"protocolVersion\":\"2025-06-18\"}", NULL},
        {"{\"protocolVersion\":\"2025-03-26\"}", NULL},
        {"{\"protocolVersion\":\"2024-11-05\"}", NULL},
        {"{\"protocolVersion\":\"2026-07-28\"}", "'2026-07-28', which ananke does not speak"},
        {"{\"protocolVersion\":\"2024-10-07\"}", "does not speak (it speaks 2025-11-25, "},
        {"{\"protocolVersion\":20251125}", "has no protocolVersion"},
        {"{}", "has no protocolVersion"},
        {"[]", "is not an object"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_t *j = json_loads(rows[i].answer, 0, NULL);
        char why[512];
        const char *got = an_mcp_check_init(j, why, sizeof why);
        if (!rows[i].why)
            assert_null(got);
        else {
            assert_non_null(got);
            assert_non_null(strstr(got, rows[i].why));
        }
        json_decref(j);
    }
    assert_true(an_mcp_version_known(AN_MCP_LATEST));
    assert_false(an_mcp_version_known(NULL));
    assert_false(an_mcp_version_known(""));
}

static void test_record_call(void **state)
{
    (void)state;
    static const struct {
        const char *result, *error; /* one of them */
        const char *status, *text;
    } rows[] = {
        {"{\"content\":[{\"type\":\"text\",\"text\":\"Echo: hi\"}]}", NULL, "ok", "Echo: hi"},
        /* text blocks joined, other blocks not text */
        {"{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":\"AA==\","
         "\"mimeType\":\"image/png\"},{\"type\":\"text\",\"text\":\"b\"}]}",
         NULL, "ok", "a\nb"},
        {"{\"content\":[{\"type\":\"resource_link\",\"uri\":\"x://y\",\"text\":\"no\"}]}", NULL,
         "ok", ""},
        /* a tool error is a result, with status error */
        {"{\"content\":[{\"type\":\"text\",\"text\":\"bad\"}],\"isError\":true}", NULL, "error",
         "bad"},
        {"{\"content\":[],\"isError\":false,\"structuredContent\":{\"t\":1}}", NULL, "ok", ""},
        {"{}", NULL, "ok", ""},
        /* a protocol error is kept apart */
        {NULL, "{\"code\":-32602,\"message\":\"Tool x not found\"}", "rpc_error",
         "{\"error\":{\"code\":-32602,\"message\":\"Tool x not found\"}}"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_tool_call c = {0};
        json_t *r = rows[i].result ? json_loads(rows[i].result, 0, NULL) : NULL;
        json_t *e = rows[i].error ? json_loads(rows[i].error, 0, NULL) : NULL;
        char *text = an_mcp_record_call(&c, r, e, 1234);
        assert_string_equal(text, rows[i].text);
        assert_string_equal(c.status, rows[i].status);
        assert_int_equal(c.result_ms, 1234);
        assert_int_equal(c.ts_ms, 1234);
        if (r)
            assert_true(json_equal(c.result, r)); /* the whole CallToolResult */
        else
            assert_true(json_equal(json_object_get(c.result, "error"), e));
        free(text);
        free(c.status);
        json_decref(c.result);
        json_decref(r);
        json_decref(e);
    }
}

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int load(const char *cfg_text, const char *test_text, struct an_suite **s,
                struct an_errlist *errs)
{
    char cfg[256], path[256];
    put("ananke.config.yaml", cfg_text);
    put("a.test.yaml", test_text);
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", files_dir);
    snprintf(path, sizeof path, "%s/a.test.yaml", files_dir);
    const char *paths[] = {path};
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.config_path = cfg;
    o.paths = paths;
    o.npaths = 1;
    return an_suite_load(s, &o, errs);
}

#define TURNS_YAML                                                                                 \
    "version: '1.0'\n"                                                                             \
    "turns:\n"                                                                                     \
    "  - type: mcp:call\n"                                                                         \
    "    tool: '${T}'\n"                                                                           \
    "    arguments: {message: 'hi ${T}', n: 2}\n"                                                  \
    "  - {type: mcp:call, tool: ping_tool, allow_error: true}\n"                                   \
    "  - {type: mcp:list, what: templates}\n"                                                      \
    "  - {type: mcp:read, uri: 'demo://r/${T}'}\n"
static const char *const turns = TURNS_YAML;

static void test_load_and_requests(void **state)
{
    (void)state;
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("version: '1.0'\n"
                          "target:\n"
                          "  type: mcp\n"
                          "  command: node\n"
                          "  args: [server.js, '${SANDBOX}']\n"
                          "  env: {A: b}\n"
                          "  protocol_version: '2025-06-18'\n"
                          "  roots: ['/srv/data']\n",
                          turns, &s, &errs),
                     0);
    const struct an_target *t = &s->config.target;
    assert_string_equal(t->type->name, "mcp");
    const struct an_mcp_target *m = an_mcp_target(t);
    assert_false(m->http);
    assert_string_equal(m->proc.command.src, "node");
    assert_int_equal(m->proc.nargs, 2);
    assert_int_equal(m->proc.nenv, 1);
    assert_string_equal(m->version, "2025-06-18");
    assert_true(m->roots_set);
    assert_int_equal(m->nroots, 1);
    const struct an_test *test = &s->tests[0];
    assert_int_equal(test->nturns, 4);
    assert_int_equal(test->turns[0].type, AN_TURN_MCP_CALL);
    assert_false(test->turns[0].mcp->allow_error);
    assert_true(test->turns[1].mcp->allow_error);

    static const char *const want[] = {
        ("{\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":"
         "\"hi echo\",\"n\":2}}}"),
        "{\"method\":\"tools/call\",\"params\":{\"name\":\"ping_tool\"}}",
        "{\"method\":\"resources/templates/list\"}",
        "{\"method\":\"resources/read\",\"params\":{\"uri\":\"demo://r/echo\"}}",
    };
    struct an_vars vars = AN_VARS_INIT;
    an_vars_set(&vars, "T", "echo");
    for (size_t i = 0; i < 4; i++) {
        char *req = NULL;
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_mcp_turn_input(&test->turns[i], &vars, &req, &err), 0);
        assert_string_equal(req, want[i]);
        free(req);
    }
    /* an unknown variable is an error naming it */
    struct an_vars none = AN_VARS_INIT;
    char *req = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_not_equal(an_mcp_turn_input(&test->turns[0], &none, &req, &err), 0);
    assert_non_null(strstr(err.msg, "T"));
    assert_null(req);
    an_vars_release(&vars);
    an_suite_free(s);

    /* http: inferred from endpoint; roots: false */
    assert_int_equal(load("version: '1.0'\n"
                          "target: {type: mcp, endpoint: 'http://127.0.0.1:1/mcp', "
                          "headers: {X-Key: k}, roots: false}\n",
                          turns, &s, &errs),
                     0);
    assert_true(an_mcp_target(&s->config.target)->http);
    assert_true(an_mcp_target(&s->config.target)->no_roots);
    assert_int_equal(s->config.target.nheaders, 1);
    an_suite_free(s);
}

static void test_load_errors(void **state)
{
    (void)state;
#define STDIO_CFG "version: '1.0'\ntarget: {type: mcp, command: node}\n"
    static const struct {
        const char *cfg, *test, *msg;
    } rows[] = {
        {"version: '1.0'\ntarget: {type: mcp, transport: pipe, command: x}\n", TURNS_YAML,
         "unknown transport 'pipe'"},
        {"version: '1.0'\ntarget: {type: mcp, transport: http, command: x}\n", TURNS_YAML,
         "'command' belongs to a stdio transport"},
        {"version: '1.0'\ntarget: {type: mcp, transport: http}\n", TURNS_YAML,
         "missing required key 'endpoint'"},
        {"version: '1.0'\ntarget: {type: mcp}\n", TURNS_YAML, "missing required key 'command'"},
        {"version: '1.0'\ntarget: {type: mcp, command: x, protocol_version: '2026-07-28'}\n",
         TURNS_YAML, "unknown MCP protocol version '2026-07-28'"},
        {"version: '1.0'\ntarget: {type: mcp, endpoint: 'http://x/mcp', "
         "protocol_version: '2024-11-05'}\n",
         TURNS_YAML, "old HTTP+SSE transport"},
        {"version: '1.0'\ntarget: {type: mcp, command: x, roots: true}\n", TURNS_YAML,
         "'roots' is a list of directories"},
        {"version: '1.0'\ntarget: {type: mcp, command: x, model: m}\n", TURNS_YAML,
         "unknown key 'model'"},
        {"version: '1.0'\ntarget: {type: agui, endpoint: 'http://x/a', agentId: a}\n", TURNS_YAML,
         "an MCP turn needs an mcp target (the config's target is agui)"},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x/v1', model: m}\nagents:\n"
         "  s: {type: mcp, command: x}\n",
         TURNS_YAML, "a helper agent must be of type openai or agui"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - user: hi\n",
         "a user turn cannot run on an mcp target"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:call}\n",
         "missing required key 'tool'"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:call, tool: t, arguments: [1]}\n",
         "'arguments' must be a map, not a list"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:list}\n",
         "missing required key 'what'"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:read, uri: x, what: tools}\n",
         "an mcp:read turn takes no 'what'"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:call, tool: t, user: hi}\n",
         "sends a request, not a message"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {user: hi, tool: t}\n",
         "'tool' belongs to an MCP turn"},
        {STDIO_CFG, "version: '1.0'\nturns:\n  - {type: mcp:call, tool: t, allow_error: maybe}\n",
         "'allow_error' must be true or false"},
        {STDIO_CFG,
         "version: '1.0'\nsimulate:\n  checkpoints: [{id: a, assertion: {type: contains, "
         "value: x}}]\n",
         "a simulated user cannot talk to an mcp target"},
        /* its first message is a user turn: still the simulated user is refused */
        {STDIO_CFG,
         "version: '1.0'\nsimulate:\n  input: hi\n  checkpoints: [{id: a, assertion: {type: "
         "contains, value: x}}]\n",
         "a simulated user cannot talk to an mcp target"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        int rc = load(rows[i].cfg, rows[i].test, &s, &errs);
        if (!rc || !errs.n || !strstr(errs.v[0].msg, rows[i].msg))
            fail_msg("row %zu: rc %d, wanted '%s', got '%s'", i, rc, rows[i].msg,
                     errs.n ? errs.v[0].msg : "(no error)");
        an_errlist_release(&errs);
        an_suite_free(s);
    }
#undef STDIO_CFG
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_record_call),
        cmocka_unit_test(test_load_and_requests),
        cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
