/* JSONL suites: the model a case loads into, and one error per bad line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/load.h"

static char dir[] = "/tmp/ananke-jsonl-XXXXXX";

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    put("ananke.config.yaml",
        "version: \"1.0\"\n"
        "target: {type: agui, endpoint: \"http://127.0.0.1:1/\", agentId: a}\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd);
}

static int load(const char *file, struct an_suite **s, struct an_errlist *errs)
{
    char cfg[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    const char *paths[] = {path};
    struct an_load_opts o = {.config_path = cfg, .paths = paths, .npaths = 1};
    return an_suite_load(s, &o, errs);
}

static void test_model(void **state)
{
    (void)state;
    put("ok.jsonl",
        "// a comment, then a blank line\n"
        "\n"
        "{\"id\": \"a\", \"name\": \"first\", \"input\": \"hi\", \"assertions\": [{\"type\": "
        "\"contains\", \"value\": \"Hi\"}, {\"type\": \"tool_called\", \"name\": \"x\"}]}\n"
        "{\"id\": \"b\", \"input\": [{\"role\": \"system\", \"content\": \"be brief\"}, {\"role\": "
        "\"user\", \"content\": \"one\"}, {\"role\": \"assistant\", \"content\": \"two\"}, "
        "{\"role\": \"user\", \"content\": \"cost ${X}\"}], \"assert\": {\"type\": \"regex\", "
        "\"value\": \"\\\\d\"}, \"timeout\": \"1m30s\", \"skip\": true, \"options\": {\"k\": "
        "1}}\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("ok.jsonl", &s, &errs), 0);
    assert_int_equal(s->ntests, 2);
    const struct an_test *a = &s->tests[0], *b = &s->tests[1];
    assert_string_equal(a->id, "a");
    assert_string_equal(a->name, "a — first");
    assert_int_equal(a->loc.line, 3);
    assert_int_equal(a->nturns, 1);
    assert_string_equal(a->turns[0].user.src, "hi");
    assert_null(a->history);
    assert_int_equal(a->assert->nchecks, 2);
    assert_int_equal(a->assert->checks[0].kind, AN_CHECK_CONTAINS);
    assert_int_equal(a->assert->checks[1].kind, AN_CHECK_TOOL_CALLED);
    assert_int_equal(a->assert->checks[0].level, AN_LEVEL_TEST);
    assert_string_equal(b->name, "b");
    /* "${" is text in JSONL: escaped so interpolation leaves it alone */
    assert_string_equal(b->turns[0].user.src, "cost $${X}");
    assert_non_null(b->history);
    assert_int_equal(json_array_size(b->history), 3);
    assert_string_equal(json_string_value(json_object_get(json_array_get(b->history, 0), "role")),
                        "system");
    assert_string_equal(json_string_value(json_object_get(json_array_get(b->history, 2), "id")),
                        "b-m3");
    assert_int_equal(b->timeout_ms, 90000);
    assert_true(b->skip);
    assert_non_null(b->options);
    assert_int_equal(b->assert->nchecks, 1);
    an_suite_free(s);
    an_errlist_release(&errs);
}

/* Every bad line is its own error, with its line (and column where known). */
static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *line, *err; /* err: what follows "bad.jsonl:" */
    } rows[] = {
        {"{\"id\": \"ok\", \"input\": \"x\"}", NULL},
        {"{\"id\": \"x\", \"input\": ", "2:21: invalid JSON: unexpected token near end of file"},
        {"{\"id\": \"x\", \"id\": \"y\", \"input\": \"a\"}",
         "3:16: invalid JSON: duplicate object key near '\"id\"'"},
        {"\"just a string\"", "4:1: a case must be a JSON object, not a single value"},
        {"{\"input\": \"a\"}", "5:1: a case needs 'id' (a unique string)"},
        {"{\"id\": 7, \"input\": \"a\"}", "6:2: 'id' must be a non-empty string"},
        {"{\"id\": \"ok\", \"input\": \"again\"}", "7:2: duplicate id 'ok' (also on line 1)"},
        {"{\"id\": \"m\", \"messages\": [], \"input\": \"a\"}",
         "8:13: a case takes 'input' or 'messages', not both"},
        {"{\"id\": \"n\", \"input\": []}",
         "9:13: 'input' must be a string, a message, or a non-empty list of messages"},
        {"{\"id\": \"r\", \"input\": [{\"role\": \"robot\", \"content\": \"a\"}]}",
         "10:13: a message needs 'role': user, assistant, system, developer or tool (got 'robot"},
        {"{\"id\": \"t\", \"input\": \"a\", \"timeout\": \"soon\"}",
         "11:27: 'timeout' must be a duration such as \"30s\", \"5m\" or \"1m30s\", or a number of "
         "milliseconds"},
        {"{\"id\": \"c\", \"input\": \"a\", \"checkpoints\": []}",
         "12:27: a dynamic test needs 'checkpoints': a non-empty list of {id, description, "
         "assertion, after}"},
        {"{\"id\": \"a2\", \"input\": \"a\", \"assert\": [], \"assertions\": []}",
         "13:28: a case takes 'assertions' or 'assert', not both"},
        {"{\"id\": \"tc\", \"input\": [{\"role\": \"tool\", \"content\": \"a\"}, {\"role\": "
         "\"user\", \"content\": \"b\"}]}",
         "14:14: a tool message needs 'tool_call_id'"},
        {"{\"id\": \"k\", \"input\": [{\"rol\": \"user\", \"content\": \"a\"}]}",
         "15:24: unknown key 'rol' in a message (did you mean 'role'?)"},
    };
    char text[8192] = "";
    size_t off = 0, nerr = 0;
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        off += (size_t)snprintf(text + off, sizeof text - off, "%s\n", rows[i].line);
        nerr += rows[i].err != NULL;
    }
    put("bad.jsonl", text);
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_not_equal(load("bad.jsonl", &s, &errs), 0);
    assert_null(s);
    if (errs.n != nerr) {
        for (size_t k = 0; k < errs.n; k++)
            print_message("  %u:%u: %s\n", errs.v[k].line, errs.v[k].col, errs.v[k].msg);
        fail_msg("expected %zu errors, got %zu", nerr, errs.n);
    }
    size_t bad = 0;
    for (size_t i = 0, k = 0; i < sizeof rows / sizeof *rows; i++) {
        if (!rows[i].err)
            continue;
        char got[1200];
        snprintf(got, sizeof got, "%u:%u: %s", errs.v[k].line, errs.v[k].col, errs.v[k].msg);
        if (strncmp(got, rows[i].err, strlen(rows[i].err))) {
            print_message("line %zu:\n  got  %s\n  want %s\n", i + 1, got, rows[i].err);
            bad++;
        }
        assert_non_null(strstr(errs.v[k].file, "bad.jsonl"));
        k++;
    }
    assert_int_equal(bad, 0);
    an_errlist_release(&errs);
}

/* A line over 1 MiB is refused by its number; the next line still loads. */
static void test_long_line(void **state)
{
    (void)state;
    size_t n = ((size_t)1 << 20) + 100;
    char *big = malloc(n + 200);
    assert_non_null(big);
    size_t off = (size_t)snprintf(big, 200, "{\"id\": \"big\", \"input\": \"");
    memset(big + off, 'x', n);
    off += n;
    off += (size_t)snprintf(big + off, 200, "\"}\n{\"id\": \"after\", \"input\": [1]}\n");
    put("long.jsonl", big);
    free(big);
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_not_equal(load("long.jsonl", &s, &errs), 0);
    assert_int_equal(errs.n, 2);
    assert_int_equal(errs.v[0].line, 1);
    assert_string_equal(errs.v[0].msg, "line is longer than 1 MiB (one case per line)");
    assert_int_equal(errs.v[1].line, 2);
    an_errlist_release(&errs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_long_line),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
