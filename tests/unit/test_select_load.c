/* `tags`, `skip` and `only` as the YAML, JSONL and cases.json loaders read
 * them (load/select_load.c), and the errors for bad values, as a table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/load.h"

static char dir[] = "/tmp/ananke-select-XXXXXX";

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

/* Load `file` holding `text`; the first error's text after "DIR/", or "". */
static struct an_suite *load(const char *file, const char *text, char *err, size_t errsz)
{
    char cfg[256], path[256];
    put(file, text);
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    snprintf(path, sizeof path, "%s/%s", dir, file);
    const char *paths[] = {path};
    struct an_load_opts o = {.config_path = cfg, .paths = paths, .npaths = 1};
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    err[0] = '\0';
    if (an_suite_load(&s, &o, &errs) && errs.n) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        const char *e = an_err_format(&errs.v[0], buf, sizeof buf);
        size_t n = strlen(dir);
        snprintf(err, errsz, "%s", !strncmp(e, dir, n) ? e + n + 1 : e);
    }
    an_errlist_release(&errs);
    return s;
}

static void test_model(void **state)
{
    (void)state;
    char err[512];
    struct an_suite *s = load("a.test.yaml",
                              "version: \"1.0\"\ntags: [smoke, payments, smoke]\n"
                              "skip: \"upstream down\"\nonly: true\nturns:\n  - user: hi\n",
                              err, sizeof err);
    assert_string_equal(err, "");
    const struct an_test *t = &s->tests[0];
    assert_int_equal(t->ntags, 2); /* written twice: one tag */
    assert_string_equal(t->tags[0], "smoke");
    assert_string_equal(t->tags[1], "payments");
    assert_true(t->skip);
    assert_string_equal(t->skip_reason, "upstream down");
    assert_true(t->only);
    assert_int_equal(t->only_loc.line, 4);
    assert_int_equal(t->only_loc.col, 7);
    an_suite_free(s);

    s = load("b.test.jsonl",
             "{\"id\": \"a\", \"input\": \"hi\", \"tags\": [\"x\"], \"skip\": \"later\"}\n"
             "{\"id\": \"b\", \"input\": \"hi\", \"skip\": true, \"only\": true, "
             "\"metadata\": {\"tags\": [\"not-mine\"]}}\n",
             err, sizeof err);
    assert_string_equal(err, "");
    assert_int_equal(s->ntests, 2);
    assert_int_equal(s->tests[0].ntags, 1);
    assert_string_equal(s->tests[0].tags[0], "x");
    assert_string_equal(s->tests[0].skip_reason, "later");
    assert_false(s->tests[0].only);
    assert_int_equal(s->tests[1].ntags, 0); /* metadata.tags are not the case's */
    assert_true(s->tests[1].skip);
    assert_null(s->tests[1].skip_reason);
    assert_true(s->tests[1].only);
    assert_int_equal(s->tests[1].only_loc.line, 2);
    an_suite_free(s);

    s = load("cases.json",
             "[{\"id\": \"c\", \"input\": {\"user\": \"hi\"}, \"tags\": [\"http\"], "
             "\"skip\": \"no sandbox\"}]\n",
             err, sizeof err);
    assert_string_equal(err, "");
    assert_string_equal(s->tests[0].tags[0], "http");
    assert_string_equal(s->tests[0].skip_reason, "no sandbox");
    an_suite_free(s);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *file, *text, *err;
    } rows[] = {
        {"a.test.yaml", "version: \"1.0\"\ntags: smoke\nturns:\n  - user: hi\n",
         "a.test.yaml:2:7: 'tags' must be a list of words, e.g. [smoke, payments]"},
        {"a.test.yaml", "version: \"1.0\"\ntags: [ok, \"a,b\"]\nturns:\n  - user: hi\n",
         "a.test.yaml:2:12: bad tag 'a,b': a tag is a word of at most 100 characters, without "
         "blanks or commas"},
        {"a.test.yaml", "version: \"1.0\"\nskip: []\nturns:\n  - user: hi\n",
         "a.test.yaml:2:7: 'skip' takes a reason (skip: \"flaky upstream\") or true"},
        {"a.test.yaml", "version: \"1.0\"\nonly: yes please\nturns:\n  - user: hi\n",
         "a.test.yaml:2:7: 'only' must be true or false"},
        {"a.test.yaml", "version: \"1.0\"\ntag: [x]\nturns:\n  - user: hi\n",
         "a.test.yaml:2:1: unknown key 'tag' in a test file (did you mean 'tags'?)"},
        {"b.test.jsonl", "{\"id\": \"a\", \"input\": \"hi\", \"tags\": [\"\"]}\n",
         "b.test.jsonl:1:28: bad tag in 'tags': a tag is a word of at most 100 characters, "
         "without blanks or commas"},
        {"b.test.jsonl", "{\"id\": \"a\", \"input\": \"hi\", \"skip\": 1}\n",
         "b.test.jsonl:1:28: 'skip' takes a reason (\"skip\": \"flaky upstream\") or true"},
        {"b.test.jsonl", "{\"id\": \"a\", \"input\": \"hi\", \"only\": \"yes\"}\n",
         "b.test.jsonl:1:28: 'only' must be true or false"},
        {"b.test.jsonl", "{\"id\": \"a\", \"input\": \"hi\", \"metadata\": []}\n",
         "b.test.jsonl:1:28: 'metadata' must be an object"},
        {"cases.json", "[{\"id\": \"c\", \"input\": {\"user\": \"hi\"}, \"tags\": \"x\"}]\n",
         "cases.json:1:39: 'tags' must be a list of words, e.g. [\"smoke\", \"payments\"]"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char err[512];
        struct an_suite *s = load(rows[i].file, rows[i].text, err, sizeof err);
        assert_null(s);
        if (strcmp(err, rows[i].err))
            fail_msg("row %zu:\n got  %s\n want %s", i, err, rows[i].err);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
