/* Helper agents and the openai target in the config, agent checks, judge
 * answers, generator specs and JSONL attachments. */
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
#include "load/target_openai.h"
#include "core/base64.h"
#include "run/input_source.h"
#include "run/judge.h"
#include "support/files.h"

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *good_config = "version: '1.0'\n"
                                 "target:\n"
                                 "  type: openai\n"
                                 "  endpoint: http://127.0.0.1:1/v1\n"
                                 "  model: m1\n"
                                 "  api_key: \"${ENV.KEY}\"\n"
                                 "  system: be brief\n"
                                 "  params: {temperature: 0}\n"
                                 "  stream: false\n"
                                 "  max_rounds: 4\n"
                                 "  tools:\n"
                                 "    - name: weather\n"
                                 "      description: the weather\n"
                                 "      parameters: {type: object}\n"
                                 "      result: {sky: blue}\n"
                                 "    - name: clock\n"
                                 "      command: [date, '+%s']\n"
                                 "      timeout_ms: 100\n"
                                 "    - name: ask_user\n"
                                 "agents:\n"
                                 "  judge:\n"
                                 "    type: openai\n"
                                 "    endpoint: http://127.0.0.1:1/v1\n"
                                 "    model: j\n"
                                 "  helper:\n"
                                 "    type: agui\n"
                                 "    endpoint: http://127.0.0.1:1/agent\n"
                                 "    agentId: h\n";

static int load_with(const char *cfg_text, const char *file, const char *text,
                     const struct an_load_opts *extra, struct an_suite **s, struct an_errlist *errs)
{
    char cfg[256], path[256];
    put("ananke.config.yaml", cfg_text);
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", files_dir);
    snprintf(path, sizeof path, "%s/%s", files_dir, file);
    put(file, text);
    const char *paths[] = {path};
    struct an_load_opts o = extra ? *extra : (struct an_load_opts)AN_LOAD_OPTS_INIT;
    o.config_path = cfg;
    o.paths = paths;
    o.npaths = 1;
    return an_suite_load(s, &o, errs);
}

static void test_openai_target_and_agents(void **state)
{
    (void)state;
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load_with(good_config, "a.jsonl",
                               "{\"id\":\"c1\",\"input\":\"hi\",\"assert\":[{\"type\":\"agent\","
                               "\"use\":\"agents:judge\",\"value\":\"is polite\"}]}\n",
                               NULL, &s, &errs),
                     0);
    const struct an_target *t = &s->config.target;
    assert_string_equal(t->type->name, "openai");
    assert_string_equal(an_openai_target(t)->model.src, "m1");
    assert_string_equal(an_openai_target(t)->api_key.src, "${ENV.KEY}");
    assert_true(an_openai_target(t)->no_stream);
    assert_int_equal(an_openai_target(t)->max_rounds, 4);
    assert_int_equal(an_openai_target(t)->ntools, 3);
    assert_non_null(an_openai_target(t)->tools[0].result);
    assert_int_equal(an_openai_target(t)->tools[1].argc, 2);
    assert_int_equal(an_openai_target(t)->tools[1].timeout_ms, 100);
    assert_null(an_openai_target(t)->tools[2].result);
    assert_int_equal(an_openai_target(t)->tools[2].argc, 0);
    assert_int_equal(s->config.nagents, 2);
    assert_string_equal(s->config.agents[1].name, "helper");
    assert_string_equal(s->config.agents[1].target.type->name, "agui");
    const struct an_check_item *it = &s->tests[0].assert->checks[0];
    assert_int_equal(it->kind, AN_CHECK_AGENT);
    assert_ptr_equal(it->agent, &s->config.agents[0]);
    an_suite_free(s);

    /* -n picks an agent as the target; --connector sets an openai model */
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.target_name = "judge";
    o.model = "m9";
    assert_int_equal(
        load_with(good_config, "a.jsonl", "{\"id\":\"c\",\"input\":\"hi\"}\n", &o, &s, &errs), 0);
    assert_string_equal(an_openai_target(&s->config.target)->model.src, "m9");
    assert_int_equal(an_openai_target(&s->config.target)->ntools, 0);
    an_suite_free(s);
}

static void test_config_errors(void **state)
{
    (void)state;
    static const struct {
        const char *cfg, *msg;
        unsigned line, col;
    } rows[] = {
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x/v1'}\n",
         "missing required key 'model'", 2, 9},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'ftp://x', model: m}\n",
         "must be an http:// or https:// URL", 2, 34},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x', model: m, "
         "params: {stream: true}}\n",
         "'params' cannot set 'stream'", 2, 73},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x', model: m, "
         "tools: [{name: a, result: 1, command: [x]}]}\n",
         "'result' or by 'command', not both", 2, 94},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x', model: m, "
         "tools: [{name: a}, {name: a}]}\n",
         "tool 'a' is declared twice", 2, 75},
        {"version: '1.0'\ntarget: {type: openai, endpoint: 'http://x', model: m, modle: x}\n",
         "unknown key 'modle' in an openai target (did you mean 'model'?)", 2, 56},
        {"version: '1.0'\ntarget: {type: opnai}\n", "did you mean 'openai'?", 2, 16},
        {"version: '1.0'\ntarget: {type: agui, endpoint: 'http://x', agentId: a}\n"
         "agents:\n  j: {type: acp, command: x}\n",
         "a helper agent must be of type openai or agui", 4, 6},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        assert_int_not_equal(
            load_with(rows[i].cfg, "x.jsonl", "{\"id\":\"c\",\"input\":\"hi\"}\n", NULL, &s, &errs),
            0);
        assert_null(s);
        assert_true(errs.n >= 1);
        if (!strstr(errs.v[0].msg, rows[i].msg) || errs.v[0].line != rows[i].line ||
            errs.v[0].col != rows[i].col)
            fail_msg("row %zu: got %u:%u: %s", i, errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        an_errlist_release(&errs);
    }
}

static void test_agent_check_errors(void **state)
{
    (void)state;
    static const struct {
        const char *line, *msg;
    } rows[] = {
        {"{\"id\":\"c\",\"input\":\"hi\",\"assert\":{\"type\":\"agent\",\"use\":\"agents:jduge\","
         "\"value\":\"x\"}}",
         "agent 'jduge' is not declared in the config's 'agents:' (did you mean 'judge'?)"},
        {"{\"id\":\"c\",\"input\":\"hi\",\"assert\":{\"type\":\"agent\",\"use\":\"agents:zzz\","
         "\"value\":\"x\"}}",
         "(declared: judge, helper)"},
        {"{\"id\":\"c\",\"input\":\"hi\",\"assert\":{\"type\":\"agent\",\"use\":\"scripts:x\","
         "\"value\":\"x\"}}",
         "(scripts: are for script checks)"},
        {"{\"id\":\"c\",\"input\":\"hi\",\"assert\":{\"type\":\"agent\",\"use\":\"agents:judge\"}}",
         "needs criteria"},
        {"{\"id\":\"c\",\"input\":\"hi\",\"assert\":{\"type\":\"agent\",\"use\":\"agents:judge\","
         "\"value\":\"x\",\"cmd\":[\"x\"]}}",
         "'cmd'"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char text[512];
        snprintf(text, sizeof text, "%s\n", rows[i].line);
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        assert_int_not_equal(load_with(good_config, "c.jsonl", text, NULL, &s, &errs), 0);
        assert_true(errs.n >= 1);
        if (!strstr(errs.v[0].msg, rows[i].msg) || errs.v[0].line != 1)
            fail_msg("row %zu: got %u:%u: %s", i, errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        an_errlist_release(&errs);
    }
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.target_name = "jduge";
    assert_int_not_equal(
        load_with(good_config, "c.jsonl", "{\"id\":\"c\",\"input\":\"hi\"}\n", &o, &s, &errs), 0);
    assert_non_null(strstr(errs.v[0].msg, "(did you mean 'judge'?)"));
    an_errlist_release(&errs);
    o.target_name = NULL;
    o.model = "x";
    const char *agui = "version: '1.0'\ntarget: {type: agui, endpoint: 'http://x', agentId: a}\n";
    assert_int_not_equal(
        load_with(agui, "c.jsonl", "{\"id\":\"c\",\"input\":\"hi\"}\n", &o, &s, &errs), 0);
    assert_non_null(strstr(errs.v[0].msg, "--connector sets the model of an openai target"));
    an_errlist_release(&errs);
}

static void test_attachments(void **state)
{
    (void)state;
    put("pic.png", "PNGDATA");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(
        load_with(good_config, "att.jsonl",
                  "{\"id\":\"a\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"image\","
                  "\"source\":\"file://./pic.png\"}]},{\"role\":\"assistant\",\"content\":\"a "
                  "cat\"},{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"and "
                  "this?\"},{\"type\":\"file\",\"source\":\"file://pic.png\",\"mimeType\":"
                  "\"application/x-test\"},{\"type\":\"image\",\"source\":\"https://e.x/a.jpg\"}]}"
                  "]}\n",
                  NULL, &s, &errs),
        0);
    const struct an_test *t = &s->tests[0];
    char *b64 = an_base64_encode("PNGDATA", 7);
    /* the history keeps its attachment as an AG-UI part, the file read */
    json_t *h0 = json_array_get(t->history, 0);
    json_t *p0 = json_array_get(json_object_get(h0, "content"), 0);
    assert_string_equal(json_string_value(json_object_get(p0, "type")), "image");
    json_t *src = json_object_get(p0, "source");
    assert_string_equal(json_string_value(json_object_get(src, "type")), "data");
    assert_string_equal(json_string_value(json_object_get(src, "value")), b64);
    assert_string_equal(json_string_value(json_object_get(src, "mimeType")), "image/png");
    /* the turn: text for reports, parts to send */
    assert_string_equal(t->turns[0].user.src, "and this?");
    assert_int_equal(json_array_size(t->turns[0].parts), 3);
    json_t *p1 = json_array_get(t->turns[0].parts, 1);
    assert_string_equal(json_string_value(json_object_get(p1, "type")), "document");
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(p1, "source"), "mimeType")),
        "application/x-test");
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(p1, "metadata"), "filename")), "pic.png");
    json_t *p2 = json_array_get(t->turns[0].parts, 2);
    assert_string_equal(json_string_value(json_object_get(json_object_get(p2, "source"), "type")),
                        "url");
    free(b64);
    an_suite_free(s);

    assert_int_not_equal(
        load_with(good_config, "att.jsonl",
                  "{\"id\":\"a\",\"input\":{\"role\":\"user\",\"content\":[{\"type\":\"image\","
                  "\"source\":\"file://./missing.png\"}]}}\n",
                  NULL, &s, &errs),
        0);
    assert_non_null(strstr(errs.v[0].msg, "attachment 'file://./missing.png' cannot be read"));
    assert_int_equal(errs.v[0].line, 1);
    an_errlist_release(&errs);
    assert_int_not_equal(
        load_with(good_config, "att.jsonl",
                  "{\"id\":\"a\",\"input\":{\"role\":\"user\",\"content\":[{\"type\":\"imgae\","
                  "\"source\":\"file://./pic.png\"}]}}\n",
                  NULL, &s, &errs),
        0);
    assert_non_null(strstr(errs.v[0].msg, "did you mean 'image'?"));
    an_errlist_release(&errs);
}

static void test_base64(void **state)
{
    (void)state;
    static const char *const rows[][2] = {
        {"", ""},
        {"f", "Zg=="},
        {"fo", "Zm8="},
        {"foo", "Zm9v"},
        {"foob", "Zm9vYg=="},
        {"fooba", "Zm9vYmE="},
        {"foobar", "Zm9vYmFy"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *e = an_base64_encode(rows[i][0], strlen(rows[i][0]));
        assert_string_equal(e, rows[i][1]);
        free(e);
    }
}

static void test_judge_parse(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int verdict;
        const char *reason, *why;
    } rows[] = {
        {"{\"passed\": true, \"reason\": \"polite\"}", 1, "polite", NULL},
        {"```json\n{\"passed\": false, \"reason\": \"rude\"}\n```", 0, "rude", NULL},
        {"Sure! {\"passed\": true} hope that helps", 1, NULL, NULL},
        {"", -1, NULL, "answered nothing"},
        {"I think it passes", -1, NULL, "is not a JSON object"},
        {"{\"pass\": true}", -1, NULL, "has no 'passed' field"},
        {"{\"passed\": \"yes\"}", -1, NULL, "'passed' is not true or false"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *reason, *why;
        int v = an_judge_parse(rows[i].text, &reason, &why);
        assert_int_equal(v, rows[i].verdict);
        if (rows[i].reason)
            assert_string_equal(reason, rows[i].reason);
        else
            assert_null(reason);
        if (rows[i].why)
            assert_non_null(strstr(why, rows[i].why));
        else
            assert_null(why);
        free(reason);
        free(why);
    }
}

static void test_gen_spec(void **state)
{
    (void)state;
    struct an_gen_spec g;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_gen_spec_parse("agents:gen", &g, &err), 0);
    assert_string_equal(g.agent, "gen");
    assert_int_equal(g.count, AN_GENERATE_DEFAULT_COUNT);
    assert_null(g.focus);
    an_gen_spec_release(&g);
    assert_int_equal(an_gen_spec_parse("agents:gen?count=3&focus=edge+cases%21", &g, &err), 0);
    assert_int_equal(g.count, 3);
    assert_string_equal(g.focus, "edge cases!");
    an_gen_spec_release(&g);
    assert_int_not_equal(an_gen_spec_parse("agents:gen?count=0", &g, &err), 0);
    assert_non_null(strstr(err.msg, "count must be a whole number from 1 to 1000"));
    assert_int_not_equal(an_gen_spec_parse("agents:gen?cuont=2", &g, &err), 0);
    assert_non_null(strstr(err.msg, "unknown generator parameter 'cuont'"));
    assert_int_not_equal(an_gen_spec_parse("agents:?count=2", &g, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_openai_target_and_agents),
        cmocka_unit_test(test_config_errors),
        cmocka_unit_test(test_agent_check_errors),
        cmocka_unit_test(test_attachments),
        cmocka_unit_test(test_base64),
        cmocka_unit_test(test_judge_parse),
        cmocka_unit_test(test_gen_spec),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
