/* Dynamic tests (simulator + checkpoints): the model they load into, and
 * every load error with its place. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/load.h"
#include "support/files.h"

static const char *config =
    "version: '1.0'\n"
    "target: {type: agui, endpoint: 'http://127.0.0.1:1/a', agentId: a}\n"
    "agents:\n"
    "  sim: {type: openai, endpoint: 'http://127.0.0.1:1/v1', model: s}\n"
    "  judge: {type: openai, endpoint: 'http://127.0.0.1:1/v1', model: j}\n";

static int load(const char *file, const char *text, const char *simulator, struct an_suite **s,
                struct an_errlist *errs)
{
    char cfg[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", files_dir);
    snprintf(path, sizeof path, "%s/%s", files_dir, file);
    FILE *f = fopen(cfg, "w");
    fputs(config, f);
    fclose(f);
    f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    const char *paths[] = {path};
    struct an_load_opts o = {
        .config_path = cfg, .paths = paths, .npaths = 1, .simulator = simulator};
    return an_suite_load(s, &o, errs);
}

#define CASE(rest) "{\"id\": \"d\", \"simulator\": {\"use\": \"sim\"}, " rest "}\n"
#define CP(id, extra)                                                                              \
    "{\"id\": \"" id "\", \"assertion\": {\"type\": \"contains\", \"value\": \"x\"}" extra "}"

static void test_model(void **state)
{
    (void)state;
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(
        load("d.jsonl",
             "{\"id\": \"d\", \"input\": \"hi\", \"simulator\": {\"use\": \"agents:sim\", "
             "\"options\": {\"metadata\": {\"goal\": \"g\"}}}, \"checkpoints\": [" CP(
                 "a", "") ", "
                          "{\"id\": \"b\", \"description\": \"then b\", \"after\": \"a\", "
                          "\"required\": false, "
                          "\"assert\": [{\"type\": \"contains\", \"value\": \"y\"}, {\"type\": "
                          "\"agent\", "
                          "\"use\": \"agents:judge\", \"value\": \"ok\"}]}], \"max_turns\": 4, "
                          "\"timeout\": "
                          "\"30s\"}\n",
             NULL, &s, &errs),
        0);
    const struct an_test *t = &s->tests[0];
    const struct an_dynamic *d = t->dyn;
    assert_non_null(d);
    assert_string_equal(d->simulator->name, "sim");
    assert_string_equal(d->first_input, "hi");
    assert_int_equal(t->nturns, 1);
    assert_int_equal(d->max_turns, 4);
    assert_int_equal(d->timeout_ms, 30000);
    assert_int_equal(d->ncheckpoints, 2);
    assert_true(d->checkpoints[0].required);
    assert_false(d->checkpoints[1].required);
    assert_string_equal(d->checkpoints[1].after[0], "a");
    assert_int_equal(d->checkpoints[1].blk.nchecks, 2);
    assert_string_equal(d->checkpoints[1].blk.checks[1].agent->name, "judge");
    an_suite_free(s);

    /* defaults, and the simulator from --simulator */
    assert_int_equal(
        load("e.jsonl", "{\"id\": \"e\", \"checkpoints\": [" CP("a", "") "]}\n", "sim", &s, &errs),
        0);
    assert_int_equal(s->tests[0].dyn->max_turns, 20);
    assert_int_equal(s->tests[0].dyn->timeout_ms, 300000);
    assert_int_equal(s->tests[0].nturns, 0);
    an_suite_free(s);

    /* YAML: a simulate block */
    assert_int_equal(load("y.test.yaml",
                          "version: '1.0'\nsimulate:\n  simulator: {use: sim}\n  input: hello\n"
                          "  checkpoints:\n    - {id: a, assertion: {type: contains, value: x}}\n",
                          NULL, &s, &errs),
                     0);
    assert_string_equal(s->tests[0].dyn->first_input, "hello");
    an_suite_free(s);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file, *text, *msg;
        unsigned line, col;
    } rows[] = {
        {"a.jsonl", CASE("\"checkpoints\": []"), "needs 'checkpoints': a non-empty list", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [{\"id\": \"a\"}]"), "checkpoint 'a' needs 'assertion'",
         1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", ", \"aftr\": \"b\"") "]"),
         "unknown key 'aftr' in a checkpoint (did you mean 'after'?)", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", "") ", " CP("a", "") "]"),
         "checkpoint id 'a' is used twice", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", ", \"after\": \"bb\"") ", " CP("b", "") "]"),
         "comes after 'bb', which is no checkpoint of this test (did you mean 'b'?)", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", ", \"after\": \"a\"") "]"),
         "cannot come after itself", 1, 0},
        {"a.jsonl",
         CASE("\"checkpoints\": [" CP("a", ", \"after\": \"b\"") ", " CP("b",
                                                                         ", \"after\": \"a\"") "]"),
         "can never be reached: its 'after' ids wait for each other in a cycle", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", ", \"required\": false") "]"),
         "at least one must be required", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", "") "], \"max_turns\": 0"),
         "'max_turns' must be a whole number from 1 to 1000", 1, 0},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", "") "], \"timeout\": \"soon\""),
         "'timeout' must be a duration", 1, 0},
        {"a.jsonl",
         "{\"id\": \"d\", \"simulator\": {\"use\": \"smi\"}, \"checkpoints\": [" CP("a", "") "]}\n",
         "simulator 'smi' is not an agent of the config's 'agents:' (did you mean 'sim'?)", 1, 0},
        {"a.jsonl", "{\"id\": \"d\", \"checkpoints\": [" CP("a", "") "]}\n",
         "a dynamic test needs a simulator", 1, 1},
        {"a.jsonl", CASE("\"checkpoints\": [" CP("a", "") "], \"expected\": \"x\""),
         "a dynamic case has no single answer to compare", 1, 0},
        {"a.jsonl",
         CASE("\"checkpoints\": [{\"id\": \"a\", \"assertion\": {\"type\": \"agent\", \"use\": "
              "\"agents:jdge\", \"value\": \"v\"}}]"),
         "agent 'jdge' is not declared in the config's 'agents:' (did you mean 'judge'?)", 1, 0},
        {"b.test.yaml",
         "version: '1.0'\nturns: [{user: hi}]\nsimulate: {simulator: sim, checkpoints: []}\n",
         "a test has 'turns' or 'simulate' (a simulated user), not both", 2, 8},
        {"b.test.yaml",
         "version: '1.0'\nsimulate:\n  simulator: sim\n  checkpoints:\n    - {id: a, asert: {type: "
         "contains, value: x}}\n",
         "unknown key 'asert' in a checkpoint (did you mean 'assert'?)", 5, 15},
        {"b.test.yaml",
         "version: '1.0'\nsimulate:\n  simulator: sim\n  max_turn: 3\n  checkpoints: []\n",
         "unknown key 'max_turn' in a simulate block (did you mean 'max_turns'?)", 4, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        assert_int_not_equal(load(rows[i].file, rows[i].text, NULL, &s, &errs), 0);
        assert_null(s);
        assert_true(errs.n >= 1);
        if (!strstr(errs.v[0].msg, rows[i].msg) || errs.v[0].line != rows[i].line ||
            (rows[i].col && errs.v[0].col != rows[i].col))
            fail_msg("row %zu: got %u:%u: %s", i, errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        an_errlist_release(&errs);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
