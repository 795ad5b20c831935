/* Loading config + tests into the model, and the errors a user sees. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ananke/load.h"
#include "load/assert_load.h"

static char dir[] = "/tmp/ananke-load-XXXXXX";

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *config =
    "version: \"1.0\"\n"
    "target:\n"
    "  type: agui\n"
    "  endpoint: \"http://127.0.0.1:1/${ENV.X}\"\n"
    "  agentId: a\n"
    "  headers: {Authorization: \"Bearer ${ENV.TOKEN}\"}\n"
    "  assert:\n"
    "    tools: {forbid: [danger]}\n"
    "    timing: {max_duration_ms: 60000, max_idle_ms: 10000}\n"
    "assertions:\n"
    "  quick: {timing: {max_duration_ms: 5000}, text: {must_not_match: [oops]}}\n"
    "  strict: {timing: {max_duration_ms: 1000}}\n";

static int setup(void **state)
{
    (void)state;
    assert_non_null(mkdtemp(dir));
    put("ananke.config.yaml", config);
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
    put("ok.test.yaml", "version: 1.0\n"
                        "hooks:\n"
                        "  - cmd: [sh, -c, 'echo {}']\n"
                        "    timeout_ms: 500\n"
                        "turns:\n"
                        "  - user: \"hi ${X}\"\n"
                        "    assert:\n"
                        "      extends: [quick, strict]\n"
                        "      tools:\n"
                        "        require:\n"
                        "          - search\n"
                        "          - name: book\n"
                        "            count: 2\n"
                        "            args_match: {user.name: /ada/i}\n"
                        "            after: search\n"
                        "      timing: {max_idle_ms: false}\n"
                        "  - type: agui:connect\n"
                        "assert:\n"
                        "  text: {must_match: done}\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("ok.test.yaml", &s, &errs), 0);
    assert_int_equal(errs.n, 0);
    assert_int_equal(s->ntests, 1);
    const struct an_test *t = &s->tests[0];
    assert_string_equal(t->name, "ok"); /* from the file name */
    assert_int_equal(t->nhooks, 1);
    assert_int_equal(t->hooks[0].argc, 3);
    assert_int_equal(t->hooks[0].timeout_ms, 500);
    assert_int_equal(t->nturns, 2);
    assert_int_equal(t->turns[1].type, AN_TURN_AGUI_CONNECT);
    struct an_assert whole;
    an_assert_expand(t->turns[0].assert, &whole);
    const struct an_assert *b = &whole;
    assert_int_equal(b->nrequire, 2);
    assert_string_equal(b->require[0].name, "search");
    assert_false(b->require[0].has_count);
    assert_true(b->require[1].count.has_exact);
    assert_int_equal(b->require[1].count.exact, 2);
    assert_string_equal(b->require[1].args[0].path, "user.name");
    assert_string_equal(b->require[1].after, "search");
    /* extends: later names override earlier limits; own limits override both */
    assert_int_equal(b->max_duration_ms.state, AN_LIMIT_SET);
    assert_int_equal(b->max_duration_ms.value, 1000);
    assert_int_equal(b->max_duration_ms.level, AN_LEVEL_TURN);
    assert_int_equal(b->max_idle_ms.state, AN_LIMIT_DISABLED);
    assert_int_equal(b->nmust_not_match, 1);
    assert_int_equal(s->config.target.assert.nforbid, 1);
    assert_int_equal(s->config.target.assert.forbid[0].level, AN_LEVEL_TARGET);
    assert_int_equal(s->config.target.timeout_ms, 30000);
    assert_string_equal(s->config.target.headers[0].value.src, "Bearer ${ENV.TOKEN}");
    assert_int_equal(t->assert->nmust_match, 1);
    an_suite_free(s);
}

/* A test's and a turn's assert block exist only when written (issue 26):
 * NULL otherwise, read as the empty block; `assert: {}` is kept, with its
 * place, as before. */
static void sparse_assert_blocks(void **state)
{
    (void)state;
    put("sparse.test.yaml", "version: 1.0\n"
                            "turns:\n"
                            "  - user: a\n"
                            "  - user: b\n"
                            "    assert: {text: {must_match: x}}\n"
                            "  - user: c\n"
                            "    assert: {}\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("sparse.test.yaml", &s, &errs), 0);
    const struct an_test *t = &s->tests[0];
    assert_null(t->assert);
    assert_null(t->turns[0].assert);
    assert_non_null(t->turns[1].assert);
    assert_int_equal(t->turns[1].assert->nmust_match, 1);
    assert_int_equal(t->turns[1].assert->loc.line, 5);
    assert_non_null(t->turns[2].assert);
    assert_int_equal(t->turns[2].assert->loc.line, 7);
    assert_int_equal(t->turns[2].assert->nmust_match, 0);
    assert_null(t->turns[1].assert->limits); /* none set: none kept */
    static const struct an_assert zero;
    struct an_assert none;
    an_assert_expand(t->turns[0].assert, &none);
    assert_memory_equal(&none, &zero, sizeof zero);
    an_suite_free(s);
}

/* The kept form of a block gives the whole block back, byte for byte:
 * every field set (a field struct an_assert gains and the kept form misses
 * fails here), no limit set (none kept), one limit set, and nothing. */
static void kept_same_as_whole(void **state)
{
    (void)state;
    struct an_arena a = AN_ARENA_INIT;
    struct an_ld ld = {.a = &a};
    struct an_assert in, out;
    static const struct an_assert zero;
    memset(&in, 0x5A, sizeof in);
    struct an_assert_kept *k = an_assert_keep(&ld, &in);
    assert_non_null(k->limits);
    an_assert_expand(k, &out);
    assert_memory_equal(&in, &out, sizeof in);

    memset(&in.max_duration_ms, 0, AN_ASSERT_NLIMITS * sizeof in.max_duration_ms);
    k = an_assert_keep(&ld, &in);
    assert_null(k->limits);
    an_assert_expand(k, &out);
    assert_memory_equal(&in, &out, sizeof in);

    in = zero;
    in.consistent.state = AN_LIMIT_DISABLED; /* the last limit alone */
    k = an_assert_keep(&ld, &in);
    assert_non_null(k->limits);
    an_assert_expand(k, &out);
    assert_memory_equal(&in, &out, sizeof in);

    assert_null(an_assert_keep(&ld, &zero));
    memset(&out, 0x5A, sizeof out);
    an_assert_expand(NULL, &out);
    assert_memory_equal(&zero, &out, sizeof out);
    an_arena_release(&a);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
        unsigned line, col;
    } rows[] = {
        {"version: '1.0'\nturns:\n  - user: hi\n    asert: {}\n",
         "unknown key 'asert' in a turn (did you mean 'assert'?)", 4, 5},
        {"version: '1.0'\nturns: hi\n", "'turns' must be a list, not a string", 2, 8},
        {"turns:\n  - user: hi\n", "missing required key 'version' in a test file", 1, 1},
        {"version: '3.1'\nturns:\n  - user: hi\n", "unsupported schema version '3.1'", 1, 10},
        {"version: '1.0'\nturns: []\n", "at least one turn", 2, 8},
        {"version: '1.0'\nturns:\n  - type: agui:connect\n    user: hi\n", "sends no message", 4,
         11},
        {"version: '1.0'\nturns:\n  - {}\n", "needs 'user: <message>'", 3, 5},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {require: [{count: 1}]}}\n",
         "missing required key 'name'", 4, 32},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {forbid_calls: [{name: x, "
         "count: 1}]}}\n",
         "unknown key 'count' in a tools.forbid_calls rule", 4, 47},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {timing: {max_idle_ms: -5}}\n",
         "must not be negative", 4, 36},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {timing: {max_idle_ms: fast}}\n",
         "'max_idle_ms' must be a whole number, not \"fast\"", 4, 36},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {text: {must_match: '[z-a]'}}\n",
         "invalid regex '[z-a]'", 4, 33},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {extends: [quik]}\n",
         "unknown assertion block 'quik' (did you mean 'quick'?)", 4, 24},
        {"version: '1.0'\nhooks:\n  - cmd: 'bash x.sh'\nturns:\n  - user: hi\n",
         "'cmd' must be a list", 3, 10},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {require: [{name: x, "
         "count: {exact: 1, min: 1}}]}}\n",
         "either exact or min/max", 4, 49},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {allow: []}}\n",
         "'tools.allow' is empty", 4, 29},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {sequence: {names: []}}}\n",
         "'tools.sequence' names is empty", 4, 40},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {sequence: {names: [a], "
         "mode: any}}}\n",
         "unknown tools.sequence mode 'any' (in_order, exact or contains)", 4, 51},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {tools: {sequence: {mode: exact}}}\n",
         "missing required key 'names'", 4, 32},
        {"version: '1.0'\nturns:\n  - user: hi\n    assert: {timing: {max_ttft_ms: true}}\n",
         "'max_ttft_ms' takes a number of milliseconds", 4, 36},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        put("bad.test.yaml", rows[i].text);
        struct an_suite *s = NULL;
        struct an_errlist errs = {0};
        assert_int_not_equal(load("bad.test.yaml", &s, &errs), 0);
        assert_null(s);
        assert_int_equal(errs.n, 1);
        if (!strstr(errs.v[0].msg, rows[i].msg) || errs.v[0].line != rows[i].line ||
            errs.v[0].col != rows[i].col)
            fail_msg("row %zu: got %u:%u: %s", i, errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        an_errlist_release(&errs);
    }
}

/* Every error of a file, not the first (issue 19): in line order, each
 * where it was written, the valid parts of the file still read. */
static void test_every_error(void **state)
{
    (void)state;
    put("many.test.yaml", "version: '1.0'\n"
                          "nmae: x\n" /* 2:1 */
                          "turns:\n"
                          "  - user: hi\n"
                          "    assert:\n"
                          "      text:\n"
                          "        must_mach: hello\n" /* 7:9 */
                          "      tools:\n"
                          "        require:\n"
                          "          - name: search\n"
                          "            arg_match: {q: x}\n"     /* 11:13 */
                          "      timing: {max_idle_ms: '5s'}\n" /* 12:29 */
                          "  - user: again\n"
                          "    assert:\n"
                          "      checks:\n"
                          "        - {type: regex, pattern: '/ok/x'}\n" /* 16:25 */
                          "        - {type: contains, valu: a}\n"       /* 17:28 */
                          "        - {type: contains, value: fine}\n"
                          "  - {}\n"); /* 19:5 */
    static const struct {
        unsigned line, col;
        const char *msg;
    } want[] = {
        {2, 1, "unknown key 'nmae' in a test file (did you mean 'name'?)"},
        {7, 9, "unknown key 'must_mach' in text (did you mean 'must_match'?)"},
        {11, 13, "unknown key 'arg_match' in a tools.require rule (did you mean 'args_match'?)"},
        {12, 29, "'max_idle_ms' is a number of milliseconds: write 5000, not \"5s\""},
        {16, 25, "unknown regex flag 'x' in '/ok/x'"},
        {17, 28, "unknown key 'valu' in an assertion (did you mean 'value'?)"},
        {19, 5, "a user turn needs 'user: <message>'"},
    };
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("many.test.yaml", &s, &errs), AN_ESCHEMA);
    assert_null(s);
    assert_int_equal(errs.n, sizeof want / sizeof *want);
    for (size_t i = 0; i < errs.n; i++)
        if (!strstr(errs.v[i].msg, want[i].msg) || errs.v[i].line != want[i].line ||
            errs.v[i].col != want[i].col)
            fail_msg("error %zu: got %u:%u: %s", i, errs.v[i].line, errs.v[i].col, errs.v[i].msg);
    an_errlist_release(&errs);
}

/* check_env (validate, --dry-run): an unset ${ENV.NAME} is an error once
 * per variable, at its first use; without check_env, loading is silent. */
static void test_check_env(void **state)
{
    (void)state;
    unsetenv("X");
    unsetenv("ANANKE_UNIT_UNSET");
    setenv("TOKEN", "t", 1);
    put("env.test.yaml", "version: '1.0'\nturns:\n  - user: \"${ENV.ANANKE_UNIT_UNSET}\"\n"
                         "  - user: \"${ENV.ANANKE_UNIT_UNSET} ${ENV.TOKEN}\"\n");
    char cfg[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    snprintf(path, sizeof path, "%s/env.test.yaml", dir);
    const char *paths[] = {path};
    struct an_load_opts o = {.config_path = cfg, .paths = paths, .npaths = 1};
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(an_suite_load(&s, &o, &errs), 0);
    assert_int_equal(errs.n, 0);
    an_suite_free(s);
    s = NULL;
    o.check_env = true;
    assert_int_equal(an_suite_load(&s, &o, &errs), AN_ESCHEMA);
    assert_null(s);
    assert_int_equal(errs.n, 2);
    assert_non_null(strstr(errs.v[0].msg, "environment variable 'X' is not set"));
    assert_int_equal(errs.v[0].line, 4);
    assert_non_null(strstr(errs.v[1].msg, "environment variable 'ANANKE_UNIT_UNSET' is not set"));
    assert_int_equal(errs.v[1].line, 3);
    an_errlist_release(&errs);
    unsetenv("TOKEN");
}

static void test_shared_regex(void **state)
{
    (void)state;
    /* the same pattern in two places is compiled once, but each place keeps
     * its own location for the findings that name it */
    put("shared.test.yaml", "version: '1.0'\n"
                            "turns:\n"
                            "  - user: a\n"
                            "    assert: {text: {must_match: 'same'}}\n"
                            "  - user: b\n"
                            "    assert: {text: {must_match: ['other', 'same']}}\n");
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(load("shared.test.yaml", &s, &errs), 0);
    const struct an_assert_kept *a = s->tests[0].turns[0].assert, *b = s->tests[0].turns[1].assert;
    assert_ptr_equal(a->must_match[0].re, b->must_match[1].re);
    assert_ptr_not_equal(a->must_match[0].re, b->must_match[0].re);
    assert_int_equal(a->must_match[0].loc.line, 4);
    assert_int_equal(b->must_match[1].loc.line, 6);
    assert_int_equal(b->must_match[1].loc.col, 43);
    an_suite_free(s);
}

static void test_config_not_found(void **state)
{
    (void)state;
    char *found = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_config_find("/", &found, &err), AN_ENOTFOUND);
    assert_null(found);
    char sub[300];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    assert_int_equal(mkdir(sub, 0700), 0);
    assert_int_equal(an_config_find(sub, &found, &err), 0);
    assert_non_null(strstr(found, "ananke.config.yaml"));
    free(found);
}

/* A large suite is loaded on several threads; tests and errors must come
 * out exactly as one thread loads them: same order, same names, same
 * locations, same first error. */
static char *summary(const char *sub, unsigned threads, int *rc)
{
    char cfg[256], path[256];
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    snprintf(path, sizeof path, "%s/%s", dir, sub);
    const char *paths[] = {path};
    struct an_load_opts o = {.config_path = cfg, .paths = paths, .npaths = 1, .threads = threads};
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    *rc = an_suite_load(&s, &o, &errs);
    size_t cap = 1 << 20, n = 0;
    char *out = malloc(cap);
    assert_non_null(out);
    out[0] = '\0';
    for (size_t i = 0; s && i < s->ntests; i++) {
        const struct an_test *t = &s->tests[i];
        struct an_assert whole;
        an_assert_expand(t->nturns ? t->turns[0].assert : NULL, &whole);
        const struct an_assert *b = &whole;
        n += (size_t)snprintf(out + n, cap - n, "T %s %s %u:%u turns=%zu re=%zu/%u:%u\n", t->file,
                              t->name, t->loc.line, t->loc.col, t->nturns, b->nmust_match,
                              b->nmust_match ? b->must_match[1].loc.line : 0,
                              b->nmust_match ? b->must_match[1].loc.col : 0);
    }
    for (size_t i = 0; i < errs.n; i++)
        n += (size_t)snprintf(out + n, cap - n, "E %d %s:%u:%u %s\n", errs.v[i].code,
                              errs.v[i].file, errs.v[i].line, errs.v[i].col, errs.v[i].msg);
    assert_true(n < cap);
    an_errlist_release(&errs);
    an_suite_free(s);
    return out;
}

static void make_many(const char *sub, bool with_errors, bool jsonl)
{
    char name[128], text[512];
    snprintf(name, sizeof name, "%s/%s", dir, sub);
    assert_int_equal(mkdir(name, 0755), 0);
    for (int i = 0; i < 150; i++) {
        snprintf(name, sizeof name, "%s/t%03d.test.yaml", sub, i);
        if (with_errors && (i == 7 || i == 101 || i == 149))
            snprintf(text, sizeof text,
                     "version: \"1.0\"\nname: bad %d\nturns:\n  - user: hi\n"
                     "    asert: {}\n",
                     i);
        else
            snprintf(text, sizeof text,
                     "version: \"1.0\"\nname: many %d\nturns:\n  - user: \"q %d\"\n"
                     "    assert:\n      text: {must_match: [\"/n%d[a-z]+/\", \"/shared/\"]}\n"
                     "  - user: again\n",
                     i, i, i % 5);
        put(name, text);
        if (!jsonl && i % 37 == 5) { /* no test: a gap in the part's slice */
            snprintf(name, sizeof name, "%s/e%03d.test.jsonl", sub, i);
            put(name, "");
        }
        if (jsonl && i % 40 == 3) {
            snprintf(name, sizeof name, "%s/c%03d.test.jsonl", sub, i);
            snprintf(text, sizeof text,
                     "{\"id\": \"j%d-a\", \"input\": \"x\", \"assertions\": [{\"type\": "
                     "\"contains\", \"value\": \"y\"}]}\n"
                     "{\"id\": \"j%d-b\", \"input\": \"x\"%s}\n",
                     i, i, with_errors && i == 43 ? ", \"bogus\": 1" : "");
            put(name, text);
        }
    }
}

static void test_threads_same_as_one(void **state)
{
    (void)state;
    /* with JSONL files (more tests than files: the parts outgrow their
     * slices) and without (the tests stay where they were loaded, moved
     * down over the slots of files that failed) */
    make_many("many-ok", false, true);
    make_many("many-bad", true, true);
    make_many("yaml-ok", false, false);
    make_many("yaml-bad", true, false);
    const char *subs[] = {"many-ok", "many-bad", "yaml-ok", "yaml-bad"};
    for (size_t k = 0; k < 4; k++) {
        int rc1, rc;
        char *one = summary(subs[k], 1, &rc1);
        assert_int_equal(rc1 != 0, k % 2 == 1);
        if (k % 2 == 0) {
            assert_non_null(strstr(one, "many 149 1:1"));
            assert_null(strstr(one, "e005"));
        } else
            assert_non_null(strstr(one, "t101.test.yaml:5:5"));
        unsigned threads[] = {0, 2, 3, 7, 200};
        for (size_t t = 0; t < sizeof threads / sizeof *threads; t++) {
            char *many = summary(subs[k], threads[t], &rc);
            assert_int_equal(rc, rc1);
            assert_string_equal(many, one);
            free(many);
        }
        free(one);
    }
}

/* an_assert_load reads a group when it meets its first row: a group whose
 * rows were split would be read twice, its second half's keys refused. */
static void rule_groups_adjacent(void **state)
{
    (void)state;
    for (size_t i = 0; an_rules[i].group; i++)
        for (size_t j = i + 1; an_rules[j].group; j++)
            if (j > i + 1 && !strcmp(an_rules[i].group, an_rules[j].group) &&
                strcmp(an_rules[j - 1].group, an_rules[j].group))
                fail_msg("an_rules: group '%s' has rows %zu and %zu apart", an_rules[i].group, i,
                         j);
}


/* The files of a suite and their order: a directory's test files sorted,
 * hidden names and node_modules left out, paths as the user typed them
 * ("./" dropped, no "//" for a trailing slash); a file named twice, or
 * named and found in a directory named too, loaded once where first named. */
static char *files_of(const char *const *paths, size_t npaths)
{
    char cfg[256];
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    struct an_load_opts o = {.config_path = cfg, .paths = paths, .npaths = npaths};
    struct an_suite *s = NULL;
    struct an_errlist errs = {0};
    assert_int_equal(an_suite_load(&s, &o, &errs), 0);
    assert_int_equal(errs.n, 0);
    char *out = calloc(1, 4096);
    assert_non_null(out);
    for (size_t i = 0; i < s->ntests; i++) {
        const char *f = s->tests[i].file;
        size_t dl = strlen(dir);
        if (!strncmp(f, dir, dl)) /* a path under the temporary directory: shown relative */
            f += dl + 1;
        snprintf(out + strlen(out), 4096 - strlen(out), "%s%s", i ? " " : "", f);
    }
    an_suite_free(s);
    an_errlist_release(&errs);
    return out;
}

static void test_discover_paths(void **state)
{
    (void)state;
    static const char *const made[] = {"walk", "walk/sub", "walk/node_modules", "walk/.git"};
    for (size_t i = 0; i < sizeof made / sizeof *made; i++) {
        char p[256];
        snprintf(p, sizeof p, "%s/%s", dir, made[i]);
        assert_int_equal(mkdir(p, 0755), 0);
    }
    const char *t = "version: 1.0\nturns:\n  - user: hi\n";
    put("walk/b.test.yaml", t);
    put("walk/a.test.yaml", t);
    put("walk/sub/c.test.yml", t);
    put("walk/notes.txt", "not a test");
    put("walk/.hidden.test.yaml", t);
    put("walk/node_modules/x.test.yaml", t);
    put("walk/.git/y.test.yaml", t);
    char w[256], b[256], slash[256];
    snprintf(w, sizeof w, "%s/walk", dir);
    snprintf(b, sizeof b, "%s/walk/b.test.yaml", dir);
    snprintf(slash, sizeof slash, "%s/walk//", dir);
    struct {
        const char *paths[3];
        size_t n;
        const char *want;
    } rows[] = {
        {{w}, 1, "walk/a.test.yaml walk/b.test.yaml walk/sub/c.test.yml"},
        {{slash}, 1, "walk/a.test.yaml walk/b.test.yaml walk/sub/c.test.yml"},
        {{b, w, b}, 3, "walk/b.test.yaml walk/a.test.yaml walk/sub/c.test.yml"},
        {{w, b}, 2, "walk/a.test.yaml walk/b.test.yaml walk/sub/c.test.yml"},
        {{b, b}, 2, "walk/b.test.yaml"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *got = files_of(rows[i].paths, rows[i].n);
        if (strcmp(got, rows[i].want))
            fail_msg("row %zu: %s, not %s", i, got, rows[i].want);
        free(got);
    }
    /* a relative path: "./walk" loses its "./" */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    const char *rel[] = {"./walk"};
    char *got = files_of(rel, 1);
    assert_int_equal(chdir(cwd), 0);
    assert_string_equal(got, "walk/a.test.yaml walk/b.test.yaml walk/sub/c.test.yml");
    free(got);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(sparse_assert_blocks),
        cmocka_unit_test(kept_same_as_whole),
        cmocka_unit_test(rule_groups_adjacent),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_every_error),
        cmocka_unit_test(test_check_env),
        cmocka_unit_test(test_shared_regex),
        cmocka_unit_test(test_config_not_found),
        cmocka_unit_test(test_threads_same_as_one),
        cmocka_unit_test(test_discover_paths),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
