/* Test selection (--filter, --shard) and stability classes, as tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/run.h"

static struct an_suite *suite_of(size_t n)
{
    struct an_suite *s = calloc(1, sizeof *s);
    s->tests = calloc(n, sizeof *s->tests);
    s->ntests = n;
    for (size_t i = 0; i < n; i++) {
        char *name = malloc(32);
        snprintf(name, 32, "%s %02zu", i % 3 ? "chat" : "checkout", i);
        s->tests[i].name = name;
    }
    return s;
}

static void suite_free(struct an_suite *s)
{
    for (size_t i = 0; i < s->ntests; i++)
        free((char *)s->tests[i].name);
    free(s->tests);
    free(s);
}

static void test_shards_partition(void **state)
{
    (void)state;
    for (size_t n = 0; n <= 13; n++) {
        struct an_suite *s = suite_of(n);
        for (unsigned parts = 1; parts <= 5; parts++) {
            unsigned *seen = calloc(n + 1, sizeof *seen);
            size_t min = (size_t)-1, max = 0;
            for (unsigned k = 1; k <= parts; k++) {
                struct an_run_opts o = AN_RUN_OPTS_INIT;
                o.shard_index = k;
                o.shard_count = parts;
                size_t *idx;
                size_t m = an_run_select(s, &o, &idx);
                for (size_t i = 0; i < m; i++) {
                    seen[idx[i]]++;
                    if (i)
                        assert_true(idx[i] > idx[i - 1]); /* file order kept */
                }
                min = m < min ? m : min;
                max = m > max ? m : max;
                free(idx);
            }
            for (size_t i = 0; i < n; i++)
                assert_int_equal(seen[i], 1); /* every test exactly once */
            assert_true(max - min <= 1);      /* balanced by count */
            free(seen);
        }
        suite_free(s);
    }
}

static void test_filter_then_shard(void **state)
{
    (void)state;
    struct an_suite *s = suite_of(12); /* checkout 00, 03, 06, 09 */
    struct an_regex *re = NULL;
    assert_int_equal(an_regex_compile(&re, "^checkout", NULL, NULL), 0);
    struct an_run_opts o = AN_RUN_OPTS_INIT;
    o.filter = re;
    size_t *idx;
    size_t m = an_run_select(s, &o, &idx);
    assert_int_equal(m, 4);
    assert_int_equal(idx[0], 0);
    assert_int_equal(idx[3], 9);
    free(idx);
    o.shard_index = 2;
    o.shard_count = 2; /* the filtered list is sharded: 03 and 09 */
    m = an_run_select(s, &o, &idx);
    assert_int_equal(m, 2);
    assert_int_equal(idx[0], 3);
    assert_int_equal(idx[1], 9);
    free(idx);
    an_regex_free(re);
    suite_free(s);
}

static void count_test(const struct an_test_result *t, void *ud)
{
    size_t *seen = ud;
    assert_int_equal(t->status, AN_STATUS_SKIP);
    (*seen)++;
}

/* `skip: true` tests are selected like the others and reported as SKIP in
 * their place, once whatever --repeat says, without running anything. */
static void test_skipped_tests_reported(void **state)
{
    (void)state;
    struct an_suite *s = suite_of(5);
    s->config.path = "ananke.config.yaml";
    s->tests[1].skip = s->tests[3].skip = true;
    s->tests[3].id = "T3";
    struct an_regex *re = NULL;
    assert_int_equal(an_regex_compile(&re, "0[13]$", NULL, NULL), 0);
    struct an_run_opts o = AN_RUN_OPTS_INIT;
    o.filter = re;
    size_t *idx;
    assert_int_equal(an_run_select(s, &o, &idx), 2);
    free(idx);

    size_t seen = 0;
    o.repeat = 3;
    o.on_test = count_test;
    o.ud = &seen;
    struct an_run_result r = {0};
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_run_suite(s, &o, &r, &err), AN_OK);
    assert_int_equal(seen, 2);
    assert_int_equal(r.ntests, 2);
    assert_string_equal(r.tests[0].name, "chat 01");
    assert_null(r.tests[0].id);
    assert_string_equal(r.tests[1].name, "checkout 03");
    assert_string_equal(r.tests[1].id, "T3");
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(r.tests[i].status, AN_STATUS_SKIP);
        assert_int_equal(r.tests[i].runs, 0);
        assert_int_equal(r.tests[i].end_ms - r.tests[i].start_ms, 0);
        assert_int_equal(r.tests[i].transcript.nturns, 0);
    }
    struct an_counts c = an_run_result_counts(&r);
    assert_int_equal(c.skipped, 2);
    assert_int_equal(c.passed + c.failed + c.errors, 0);
    assert_int_equal(r.not_run, 0);
    an_run_result_release(&r);
    an_regex_free(re);
    suite_free(s);
}

/* `only`, --tag, --exclude-tag and `chosen` (PATH:LINE, --last-failed),
 * before the filter and the shard: a table of selections over 6 tests. */
static void test_tags_only_chosen(void **state)
{
    (void)state;
    static const char *const smoke[] = {"smoke"}, *const pay[] = {"payments", "smoke"},
                             *const slow[] = {"slow"};
    struct an_suite *s = suite_of(6);
    s->tests[0].tags = (const char **)smoke, s->tests[0].ntags = 1;
    s->tests[1].tags = (const char **)pay, s->tests[1].ntags = 2;
    s->tests[2].tags = (const char **)slow, s->tests[2].ntags = 1;
    s->tests[4].tags = (const char **)pay, s->tests[4].ntags = 2;
    static const char *const t_smoke[] = {"smoke"}, *const t_any[] = {"slow", "payments"},
                             *const t_none[] = {"nosuch"}, *const x_pay[] = {"payments"};
    bool chosen[6] = {true, false, true, true, true, true};
    static const struct {
        const char *const *tags;
        size_t ntags;
        const char *const *xtags;
        size_t nxtags;
        bool use_chosen, only3;
        const char *want; /* indexes selected */
    } rows[] = {
        {NULL, 0, NULL, 0, false, false, "012345"}, {t_smoke, 1, NULL, 0, false, false, "014"},
        {t_any, 2, NULL, 0, false, false, "124"}, /* any of them */
        {t_none, 1, NULL, 0, false, false, ""},     {NULL, 0, x_pay, 1, false, false, "0235"},
        {t_smoke, 1, x_pay, 1, false, false, "0"}, /* exclusion wins */
        {NULL, 0, NULL, 0, true, false, "02345"},   {t_smoke, 1, NULL, 0, true, false, "04"},
        {NULL, 0, NULL, 0, false, true, "3"},   /* only */
        {t_smoke, 1, NULL, 0, false, true, ""}, /* only, then tags */
        {NULL, 0, x_pay, 1, true, true, "3"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        struct an_run_opts o = AN_RUN_OPTS_INIT;
        o.tags = rows[r].tags, o.ntags = rows[r].ntags;
        o.exclude_tags = rows[r].xtags, o.nexclude_tags = rows[r].nxtags;
        o.chosen = rows[r].use_chosen ? chosen : NULL;
        s->tests[3].only = rows[r].only3;
        size_t *idx;
        size_t m = an_run_select(s, &o, &idx);
        char got[8] = {0};
        for (size_t i = 0; i < m && i < 7; i++)
            got[i] = (char)('0' + idx[i]);
        free(idx);
        if (strcmp(got, rows[r].want))
            fail_msg("row %zu: selected '%s', want '%s'", r, got, rows[r].want);
    }
    for (size_t i = 0; i < 6; i++)
        s->tests[i].tags = NULL, s->tests[i].ntags = 0;
    suite_free(s);
}

/* A skipped test's result carries its reason and tags. */
static void test_skip_reason_and_tags_in_result(void **state)
{
    (void)state;
    static const char *const tags[] = {"payments"};
    struct an_suite *s = suite_of(1);
    s->config.path = "ananke.config.yaml";
    s->tests[0].skip = true;
    s->tests[0].skip_reason = "upstream down";
    s->tests[0].tags = (const char **)tags;
    s->tests[0].ntags = 1;
    struct an_run_opts o = AN_RUN_OPTS_INIT;
    struct an_run_result r = {0};
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_run_suite(s, &o, &r, &err), AN_OK);
    assert_int_equal(r.ntests, 1);
    assert_int_equal(r.tests[0].status, AN_STATUS_SKIP);
    assert_string_equal(r.tests[0].skip_reason, "upstream down");
    assert_int_equal(r.tests[0].ntags, 1);
    assert_string_equal(r.tests[0].tags[0], "payments");
    an_run_result_release(&r);
    s->tests[0].tags = NULL;
    s->tests[0].ntags = 0;
    suite_free(s);
}

static void test_stability(void **state)
{
    (void)state;
    static const struct {
        unsigned passes, runs;
        const char *name;
    } rows[] = {
        {5, 5, "stable"},
        {4, 5, "mostly stable"},
        {8, 10, "mostly stable"},
        {79, 100, "unstable"},
        {1, 2, "unstable"},
        {5, 10, "unstable"},
        {49, 100, "highly unstable"},
        {0, 3, "highly unstable"},
        {0, 0, "stable"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        assert_string_equal(an_stability_name(an_stability_of(rows[i].passes, rows[i].runs)),
                            rows[i].name);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shards_partition),
        cmocka_unit_test(test_filter_then_shard),
        cmocka_unit_test(test_skipped_tests_reported),
        cmocka_unit_test(test_tags_only_chosen),
        cmocka_unit_test(test_skip_reason_and_tags_in_result),
        cmocka_unit_test(test_stability),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
