/* Test selection (--filter, --shard) and stability classes, as tables. */
#include <setjmp.h>
#include <stdarg.h>
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

static void test_stability(void **state)
{
    (void)state;
    static const struct {
        unsigned passes, runs;
        const char *name;
    } rows[] = {
        {5, 5, "stable"},          {4, 5, "mostly stable"}, {8, 10, "mostly stable"},
        {79, 100, "unstable"},     {1, 2, "unstable"},      {5, 10, "unstable"},
        {49, 100, "highly unstable"}, {0, 3, "highly unstable"}, {0, 0, "stable"},
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
        cmocka_unit_test(test_stability),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
