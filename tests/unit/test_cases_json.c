/* cases.json suites (seed 004) and the http target: the model a case loads
 * into, and errors at file:line:col. */
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
#include "load/target_http.h"

static char dir[] = "/tmp/ananke-cases-XXXXXX";

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#define HTTP_CFG                                                                                   \
    "version: \"1.0\"\n"                                                                           \
    "target: {type: http, endpoint: \"http://127.0.0.1:1\"}\n"

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    put("ananke.config.yaml", HTTP_CFG);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static int load_with(const char *cfg_name, const char *file, struct an_suite **s,
                     struct an_errlist *errs)
{
    char cfg[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/%s", dir, cfg_name);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    const char *paths[] = {path};
    struct an_load_opts o = {
        .config_path = cfg, .paths = paths, .npaths = file ? 1 : 0, .config_only = file == NULL};
    return an_suite_load(s, &o, errs);
}

static int load(const char *file, struct an_suite **s, struct an_errlist *errs)
{
    return load_with("ananke.config.yaml", file, s, errs);
}

static void test_model(void **state)
{
    (void)state;
    put("cases.json",
        "[\n"
        "  {\"id\": \"tool_001\", \"title\": \"lookup first\",\n"
        "   \"input\": {\"user\": \"open a ticket ${not a var}\", \"context\": {\"tier\": "
        "\"gold\"}},\n"
        "   \"expected\": {\"must_include\": [\"Ticket\", \"created\"], \"tool_sequence\": "
        "[\"get_customer\", \"create_ticket\"],\n"
        "     \"tool_required\": [\"get_customer\"], \"must_not_include\": [\"sk-\"],\n"
        "     \"action_required\": [\"create_ticket\"], \"retrieval_required\": {\"doc_ids\": "
        "[\"kb_1\"]},\n"
        "     \"json_schema\": {\"type\": \"object\", \"required\": [\"ticket_id\"]},\n"
        "     \"evidence_required_for_actions\": true}},\n"
        "  {\"id\": \"fmt_001\", \"suite\": \"s\", \"metadata\": {\"tags\": []}, "
        "\"input\": {\"user\": \"hi\"}, \"expected\": "
        "{\"evidence_required_for_actions\": false, \"tool_sequence\": []}}\n"
        "]\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    int rc = load("cases.json", &s, &errs);
    if (rc)
        fail_msg("%s:%u:%u: %s", errs.v[0].file, errs.v[0].line, errs.v[0].col, errs.v[0].msg);
    assert_int_equal(s->ntests, 2);
    const struct an_test *a = &s->tests[0], *b = &s->tests[1];
    assert_string_equal(a->id, "tool_001");
    assert_string_equal(a->name, "tool_001 — lookup first");
    assert_int_equal(a->loc.line, 2);
    assert_int_equal(a->loc.col, 3);
    assert_int_equal(a->nturns, 1);
    assert_string_equal(a->turns[0].user.src, "open a ticket $${not a var}");
    assert_int_equal(a->turns[0].loc.line, 3);
    assert_int_equal(a->turns[0].loc.col, 14);
    assert_non_null(a->options);
    assert_string_equal(
        json_string_value(json_object_get(json_object_get(a->options, "context"), "tier")), "gold");
    /* in expected_keys order: action, tool_required, sequence, schema,
     * retrieval, must_include x2, must_not_include, evidence */
    static const enum an_check_kind kinds[] = {
        AN_CHECK_ACTION_REQUIRED, AN_CHECK_TOOL_CALLED,        AN_CHECK_TOOL_SEQUENCE,
        AN_CHECK_JSON_SCHEMA,     AN_CHECK_RETRIEVAL_REQUIRED, AN_CHECK_CONTAINS,
        AN_CHECK_CONTAINS,        AN_CHECK_NOT_CONTAINS,       AN_CHECK_EVIDENCE_REQUIRED};
    assert_int_equal(a->assert->nchecks, sizeof kinds / sizeof *kinds);
    for (size_t i = 0; i < a->assert->nchecks; i++) {
        assert_int_equal(a->assert->checks[i].kind, kinds[i]);
        assert_int_equal(a->assert->checks[i].level, AN_LEVEL_TEST);
    }
    assert_true(a->assert->checks[5].ignore_case);
    assert_true(a->assert->checks[7].ignore_case);
    assert_non_null(a->assert->checks[3].schema);
    /* each check is located at its key */
    assert_int_equal(a->assert->checks[0].loc.line, 6);
    assert_int_equal(a->assert->checks[0].loc.col, 6);
    assert_int_equal(a->assert->checks[5].loc.line, 4);
    assert_int_equal(a->assert->checks[5].loc.col, 17);
    assert_int_equal(a->assert->checks[8].loc.line, 8);
    /* empty lists and false ask for nothing */
    assert_string_equal(b->name, "fmt_001");
    assert_null(b->options);
    assert_null(b->assert);
    /* the http target always checks tool results */
    assert_string_equal(s->config.target.type->name, "http");
    assert_int_equal(s->config.target.assert.nchecks, 1);
    assert_int_equal(s->config.target.assert.checks[0].kind, AN_CHECK_TOOL_EXECUTION);
    assert_int_equal(an_http_target(&s->config.target)->retries, 2);
    assert_int_equal(s->config.target.timeout_ms, 15000);
    assert_int_equal(an_http_target(&s->config.target)->max_body_bytes, 2000000);
    assert_int_equal(an_http_target(&s->config.target)->body_snippet_bytes, 4000);
    assert_null(an_http_target(&s->config.target)->case_version.src);
    an_suite_free(s);
    an_errlist_release(&errs);
}

struct bad {
    const char *text;
    const char *msg; /* the error, "LINE:COL: message" */
};

static const struct bad bad_files[] = {
    {"[\n  {\"id\": \"a\",, }\n]\n", "2:14: invalid JSON: string or '}' expected near ','"},
    {"{\"id\": \"a\"}\n",
     "1:1: a cases.json file is a JSON array of cases [{id, input, expected}, ...], not object"},
    {"[\n  {\"id\": \"a\", \"input\": {\"user\": \"x\"}},\n  3\n]\n",
     "3:3: a case must be a JSON object {id, input, expected}, not number"},
    {"[{\"input\": {\"user\": \"x\"}}]", "1:2: a case needs 'id' (a unique string)"},
    {"[\n {\"id\": \"\", \"input\": {\"user\": \"x\"}}]", "2:3: 'id' must be a non-empty string"},
    {"[\n {\"id\": \"a\", \"inputs\": {}}]", "2:14: unknown key 'inputs' in a case (did you mean "
                                             "'input'?)"},
    {"[{\"id\": \"a\"}]", "1:2: a case needs 'input': {\"user\": \"...\"}"},
    {"[{\"id\": \"a\", \"input\": {\"usr\": \"x\"}}]",
     "1:24: unknown key 'usr' in 'input' (did you mean 'user'?)"},
    {"[{\"id\": \"a\", \"input\": {\"user\": 3}}]",
     "1:24: 'input' needs 'user': the user's message (a string)"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"must_inclde\": []}}]",
     "2:16: unknown key 'must_inclde' in 'expected' (did you mean 'must_include'?)"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"must_include\": \"ok\"}}]",
     "2:16: 'must_include' must be a list of phrases"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"tool_sequence\": [1]}}]",
     "2:16: 'tool_sequence' must be a list of tool names, in order"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"retrieval_required\": "
     "[\"d\"]}}]",
     "2:16: 'retrieval_required' must be {\"doc_ids\": [...]}"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"json_schema\": "
     "{\"type\": \"obj\"}}}]",
     "2:16: invalid JSON Schema at the top: unknown type 'obj' (one of: object, array, string, "
     "number, integer, boolean, null)"},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": {\"json_schema\": "
     "{\"properties\": {\"n\": {\"pattern\": \"(\"}}}}}]",
     NULL},
    {"[{\"id\": \"a\", \"input\": {\"user\": \"x\"},\n  \"expected\": "
     "{\"evidence_required_for_actions\": \"yes\"}}]",
     "2:16: 'evidence_required_for_actions' must be true or false"},
    {"[\n {\"id\": \"a\", \"input\": {\"user\": \"x\"}},\n {\"id\": \"a\", \"input\": {\"user\": "
     "\"y\"}}\n]",
     "3:3: duplicate id 'a' (also at line 2)"},
};

static void test_errors(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_files / sizeof *bad_files; i++) {
        put("bad.cases.json", bad_files[i].text);
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        int rc = load("bad.cases.json", &s, &errs);
        if (!rc)
            fail_msg("case %zu loaded, expected: %s", i, bad_files[i].msg);
        assert_null(s);
        assert_true(errs.n >= 1);
        char got[1200];
        snprintf(got, sizeof got, "%u:%u: %s", errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        assert_non_null(strstr(errs.v[0].file, "bad.cases.json"));
        if (bad_files[i].msg && strcmp(got, bad_files[i].msg))
            fail_msg("case %zu:\n  want: %s\n  got:  %s", i, bad_files[i].msg, got);
        if (!bad_files[i].msg) {
            assert_non_null(strstr(got, "2:16: invalid JSON Schema at /properties/n: 'pattern'"));
        }
        an_errlist_release(&errs);
    }
}

static void test_every_bad_case_is_reported(void **state)
{
    (void)state;
    put("two.cases.json", "[\n {\"id\": 1, \"input\": {\"user\": \"x\"}},\n"
                          " {\"id\": \"ok\", \"input\": {\"user\": \"x\"}},\n"
                          " {\"id\": \"b\"}\n]\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_not_equal(load("two.cases.json", &s, &errs), 0);
    assert_int_equal(errs.n, 2);
    assert_int_equal(errs.v[0].line, 2);
    assert_int_equal(errs.v[1].line, 4);
    an_errlist_release(&errs);
}

/* What an http target cannot send is refused at load time. */
static void test_http_fits(void **state)
{
    (void)state;
    put("multi.test.yaml", "version: \"1.0\"\nname: two turns\nturns:\n  - user: one\n"
                           "  - user: two\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_not_equal(load("multi.test.yaml", &s, &errs), 0);
    assert_int_equal(errs.v[0].line, 5);
    assert_non_null(strstr(errs.v[0].msg, "an http target takes one request per case"));
    an_errlist_release(&errs);

    put("hist.jsonl", "{\"id\": \"h\", \"input\": [{\"role\": \"user\", \"content\": \"a\"}, "
                      "{\"role\": \"assistant\", \"content\": \"b\"}, {\"role\": \"user\", "
                      "\"content\": \"c\"}]}\n"
                      "{\"id\": \"o\", \"input\": \"x\", \"options\": {\"context\": {}, "
                      "\"connector\": \"m\"}}\n"
                      "{\"id\": \"ok\", \"input\": \"x\", \"options\": {\"context\": {\"a\": "
                      "1}}}\n");
    assert_int_not_equal(load("hist.jsonl", &s, &errs), 0);
    assert_int_equal(errs.n, 2);
    assert_non_null(strstr(errs.v[0].msg, "carries 2 earlier messages"));
    assert_non_null(strstr(errs.v[1].msg, "option 'connector' has no place"));
    an_errlist_release(&errs);
}

static void test_http_config(void **state)
{
    (void)state;
    put("c1.yaml", "version: \"1.0\"\n"
                   "target:\n  type: http\n  endpoint: \"http://127.0.0.1:1\"\n"
                   "  version: baseline\n  retries: 0\n  timeout_ms: 500\n"
                   "  max_body_bytes: 100\n  body_snippet_bytes: 0\n"
                   "  headers: {X-Key: \"${ENV.HOME}\"}\n"
                   "  assert:\n    checks:\n      - type: tool_execution\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    int rc = load_with("c1.yaml", NULL, &s, &errs);
    if (rc)
        fail_msg("%u:%u: %s", errs.v[0].line, errs.v[0].col, errs.v[0].msg);
    const struct an_target *t = &s->config.target;
    const struct an_http_target *h = an_http_target(t);
    assert_string_equal(h->case_version.src, "baseline");
    assert_int_equal(h->retries, 0);
    assert_int_equal(t->timeout_ms, 500);
    assert_int_equal(h->max_body_bytes, 100);
    assert_int_equal(h->body_snippet_bytes, 0);
    assert_int_equal(t->nheaders, 1);
    assert_int_equal(t->assert.nchecks, 1); /* written out: not added twice */
    an_suite_free(s);

    static const struct bad cfgs[] = {
        {"version: \"1.0\"\ntarget: {type: http}\n",
         "2:9: missing required key 'endpoint' in an http target"},
        {"version: \"1.0\"\ntarget: {type: http, endpoint: \"x\"}\n",
         "2:32: 'endpoint' must be an http:// or https:// URL, not 'x'"},
        {"version: \"1.0\"\ntarget: {type: http, endpoint: \"http://h\", retrys: 1}\n",
         "2:44: unknown key 'retrys' in an http target (did you mean 'retries'?)"},
        {"version: \"1.0\"\ntarget: {type: http, endpoint: \"http://h\", retries: 101}\n",
         "2:53: 'retries' must be from 0 to 100, not 101"},
        {"version: \"1.0\"\ntarget: {type: http, endpoint: \"http://h\", max_body_bytes: 0}\n",
         "2:60: 'max_body_bytes' must be from 1 to 2^40 bytes"},
        {"version: \"1.0\"\ntarget: {type: http, endpoint: \"http://h\", version: \"\"}\n",
         "2:53: 'version' must not be empty (the agent's baseline or new, for example)"},
    };
    for (size_t i = 0; i < sizeof cfgs / sizeof *cfgs; i++) {
        put("c2.yaml", cfgs[i].text);
        s = NULL;
        assert_int_not_equal(load_with("c2.yaml", NULL, &s, &errs), 0);
        char got[1200];
        snprintf(got, sizeof got, "%u:%u: %s", errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        if (strcmp(got, cfgs[i].msg))
            fail_msg("config %zu:\n  want: %s\n  got:  %s", i, cfgs[i].msg, got);
        an_errlist_release(&errs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_every_bad_case_is_reported),
        cmocka_unit_test(test_http_fits),
        cmocka_unit_test(test_http_config),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
