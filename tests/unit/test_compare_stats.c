/*
 * `ananke compare` on repeated cases (src/lib/compare/compare_stats.c):
 * the Mann-Whitney distribution, the Hodges-Lehmann shift and its
 * interval, the Wilson intervals of the pass rates, and the verdicts
 * (significant drop, noise, --gate-on any-drop, a rise, --max-slowdown).
 * Where the expected values come from:
 *   - Mann-Whitney: every P(U <= u) for small m, n against a brute-force
 *     enumeration of all C(m+n, m) orderings (here, below); the two-sided
 *     0.05 critical values of the published U tables (e.g. Siegel &
 *     Castellan, Nonparametric Statistics, table J): 2 for 5 and 5, 23 for
 *     10 and 10, 127 for 20 and 20 (the normal approximation beyond 50);
 *   - the interval of y = x + 5, x = 1..10: worked out by hand from the
 *     critical value 23 (d_(24) and d_(77) of the differences 5 + (j - i));
 *   - Wilson: Newcombe (1998), "Two-sided confidence intervals for the
 *     single proportion", Statistics in Medicine 17, table II, method 3:
 *     81/263 -> 0.2553-0.3662, 15/148 -> 0.0624-0.1605, 0/20 -> 0-0.1611,
 *     1/29 -> 0.0061-0.1718.
 *   - Fisher's p-values: tests/unit/test_fisher.c says where they come from.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"

/* P(U <= u) by enumerating which of the m + n ranks are the baseline's. */
static double brute_cdf(unsigned m, unsigned n, unsigned u)
{
    unsigned N = m + n, hits = 0, all = 0;
    for (unsigned mask = 0; mask < (1u << N); mask++) {
        if ((unsigned)__builtin_popcount(mask) != m)
            continue;
        /* U: pairs (baseline, new) with the baseline value above */
        unsigned pairs = 0, news_below = 0;
        for (unsigned r = 0; r < N; r++) {
            if (mask & (1u << r))
                pairs += news_below;
            else
                news_below++;
        }
        all++;
        hits += pairs <= u;
    }
    return (double)hits / all;
}

static void test_mw_exact_vs_enumeration(void **state)
{
    (void)state;
    static const unsigned sizes[][2] = {{1, 1}, {1, 4}, {3, 3}, {4, 5}, {5, 5}, {6, 3}, {7, 7}};
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
        unsigned m = sizes[s][0], n = sizes[s][1];
        for (unsigned u = 0; u <= m * n; u++) {
            double got = cmp_mw_cdf(m, n, u), want = brute_cdf(m, n, u);
            if (fabs(got - want) > 1e-12)
                fail_msg("m %u n %u u %u: got %.15g want %.15g", m, n, u, got, want);
        }
    }
    assert_true(cmp_mw_cdf(3, 3, -1) == 0);
    assert_true(cmp_mw_cdf(3, 3, 9) == 1);
}

/* The largest critical U with P(U <= c) <= 0.025. */
static int critical(size_t m, size_t n)
{
    int c = -1;
    while (cmp_mw_cdf(m, n, c + 1) <= 0.025)
        c++;
    return c;
}

static void test_mw_published_critical_values(void **state)
{
    (void)state;
    assert_int_equal(critical(5, 5), 2);
    assert_int_equal(critical(10, 10), 23);
    assert_int_equal(critical(20, 20), 127);
    /* beyond the exact limit (60 and 60 runs), the normal approximation:
     * the critical value's z is the two-sided 0.05 quantile, -1.96 */
    int c = critical(60, 60);
    double z = (c + 0.5 - 1800) / sqrt(3600.0 * 121 / 12);
    assert_true(z > -1.97 && z < -1.94);
}

static void test_shift_interval(void **state)
{
    (void)state;
    double x[10], y[10];
    for (int i = 0; i < 10; i++) {
        x[i] = 10 - i; /* unsorted on purpose */
        y[i] = 10 - i + 5;
    }
    struct cmp_shift s;
    assert_true(cmp_shift_of(x, 10, y, 10, 0.05, -1, NULL, &s));
    assert_true(s.known && s.has_ci);
    assert_true(s.base_median == 5.5 && s.new_median == 10.5 && s.shift == 5);
    assert_true(s.ci_low == 2 && s.ci_high == 8);
    assert_false(s.flagged); /* no --max-slowdown */
    /* 0.3 of the baseline median 5.5 = 1.65 < 2: flagged; 0.4 (2.2): not */
    assert_true(cmp_shift_of(x, 10, y, 10, 0.05, 0.3, NULL, &s) && s.flagged);
    assert_true(cmp_shift_of(x, 10, y, 10, 0.05, 0.4, NULL, &s) && !s.flagged);
    /* 3 and 3 runs cannot give 95 %: no interval, never flagged */
    double a[3] = {1, 2, 3}, b[3] = {100, 200, 300};
    assert_true(cmp_shift_of(a, 3, b, 3, 0.05, 0, NULL, &s));
    assert_true(s.known && !s.has_ci && !s.flagged);
    /* 4 and 4: the extreme differences */
    double c[4] = {1, 2, 3, 4}, d[4] = {10, 20, 30, 40};
    assert_true(cmp_shift_of(c, 4, d, 4, 0.05, 0, NULL, &s));
    assert_true(s.has_ci && s.ci_low == 6 && s.ci_high == 39 && s.flagged);
    assert_false(cmp_shift_of(c, 0, d, 4, 0.05, 0, NULL, &s));
    assert_false(s.known);
}

/* --- whole items ---------------------------------------------------------- */

struct side_fx {
    struct an_test_result t;
    struct an_attempt att[64];
};

static void side(struct side_fx *f, unsigned runs, unsigned passes, int64_t ms, int64_t tokens)
{
    memset(f, 0, sizeof *f);
    f->t.runs = runs;
    f->t.passes = passes;
    f->t.status = passes == runs ? AN_STATUS_PASS : AN_STATUS_FAIL;
    f->t.attempts = f->att;
    for (unsigned i = 0; i < runs; i++) {
        f->att[i].status = i < passes ? AN_STATUS_PASS : AN_STATUS_FAIL;
        f->att[i].duration_ms = ms + i % 3;
        f->att[i].total_tokens = tokens;
    }
}

static void judge(struct cmp_item *it, struct side_fx *b, struct side_fx *n,
                  const struct cmp_stat_opts *o)
{
    memset(it, 0, sizeof *it);
    it->side[CMP_BASE] = (struct cmp_side){
        .t = &b->t, .pass = b->t.status == AN_STATUS_PASS, .word = an_status_name(b->t.status)};
    it->side[CMP_NEW] = (struct cmp_side){
        .t = &n->t, .pass = n->t.status == AN_STATUS_PASS, .word = an_status_name(n->t.status)};
    cmp_item_repeat(it, o);
    cmp_item_judge(it);
}

static bool has_tag(const struct cmp_item *it, const char *t)
{
    for (size_t i = 0; i < it->ntags; i++)
        if (!strcmp(it->tags[i], t))
            return true;
    return false;
}

static void test_verdicts(void **state)
{
    (void)state;
    static struct side_fx b, n;
    struct cmp_item it;
    struct cmp_stat_opts o = {.alpha = 0.05, .any_drop = false, .max_slowdown = -1};

    /* 10/10 -> 2/10: significant (one-sided p = 0.000357), a regression */
    side(&b, 10, 10, 100, -1);
    side(&n, 10, 2, 100, -1);
    judge(&it, &b, &n, &o);
    assert_true(it.repeated && it.rs.drop && it.rs.significant);
    assert_true(fabs(it.rs.p_value - 0.0003572279114) < 1e-12);
    assert_true(fabs(it.rs.p_two - 0.0007144558228) < 1e-12);
    assert_int_equal(it.change, AN_CHANGE_REGRESSION);
    assert_int_equal(it.gate, AN_GATE_REQUIRE_APPROVAL);
    assert_true(has_tag(&it, "regression") && !has_tag(&it, "not_significant"));
    assert_false(it.rs.tokens.known); /* no run reported tokens */

    /* 10/10 -> 9/10: noise. Today's rule (pass -> fail) would gate it. */
    side(&n, 10, 9, 100, -1);
    judge(&it, &b, &n, &o);
    assert_true(it.rs.drop && !it.rs.significant && it.rs.p_value == 0.5);
    assert_int_equal(it.change, AN_CHANGE_NONE);
    assert_int_equal(it.gate, AN_GATE_NONE);
    assert_true(has_tag(&it, "not_significant"));
    /* ... unless --gate-on any-drop */
    o.any_drop = true;
    judge(&it, &b, &n, &o);
    assert_int_equal(it.change, AN_CHANGE_REGRESSION);
    assert_int_equal(it.gate, AN_GATE_REQUIRE_APPROVAL);
    assert_true(has_tag(&it, "regression") && has_tag(&it, "not_significant"));
    o.any_drop = false;

    /* 10/10 -> 6/10: the one-sided test (p = 0.0433) decides a drop,
     * though the two-sided p (0.0867) is above alpha */
    side(&n, 10, 6, 100, -1);
    judge(&it, &b, &n, &o);
    assert_true(it.rs.significant && fabs(it.rs.p_value - 0.04334365325) < 1e-10);
    assert_int_equal(it.change, AN_CHANGE_REGRESSION);

    /* p exactly alpha is significant: 3/3 -> 0/3, p = 1/20 */
    side(&b, 3, 3, 100, -1);
    side(&n, 3, 0, 100, -1);
    judge(&it, &b, &n, &o);
    assert_true(fabs(it.rs.p_value - 0.05) < 1e-12);
    assert_true(it.rs.significant);

    /* a rise is an improvement only when the two-sided test says so:
     * 3/10 -> 8/10, p = 0.0698, is not; 0/5 -> 5/5 (0.0079) is */
    side(&b, 10, 3, 100, -1);
    side(&n, 10, 8, 100, -1);
    judge(&it, &b, &n, &o);
    assert_true(it.rs.rise && !it.rs.significant);
    assert_int_equal(it.change, AN_CHANGE_NONE);
    side(&b, 5, 0, 100, -1);
    side(&n, 5, 5, 100, -1);
    judge(&it, &b, &n, &o);
    assert_int_equal(it.change, AN_CHANGE_IMPROVEMENT);
    assert_int_equal(it.gate, AN_GATE_NONE);

    /* Wilson intervals at 95 %, Newcombe's table */
    static const struct {
        unsigned passes, runs;
        double lo, hi;
    } w[] = {{81, 263, 0.2553, 0.3662},
             {15, 148, 0.0624, 0.1605},
             {0, 20, 0, 0.1611},
             {1, 29, 0.0061, 0.1718}};
    for (size_t i = 0; i < sizeof w / sizeof *w; i++) {
        struct side_fx *bb = malloc(sizeof *bb), *nn = malloc(sizeof *nn);
        memset(bb, 0, sizeof *bb);
        memset(nn, 0, sizeof *nn);
        bb->t.runs = w[i].runs;
        bb->t.passes = w[i].passes;
        bb->t.attempts = calloc(w[i].runs, sizeof *bb->t.attempts);
        nn->t.runs = 2;
        nn->t.attempts = nn->att;
        judge(&it, bb, nn, &o);
        assert_true(it.repeated);
        if (fabs(it.rs.side[CMP_BASE].ci_low - w[i].lo) > 5e-5 ||
            fabs(it.rs.side[CMP_BASE].ci_high - w[i].hi) > 5e-5)
            fail_msg("%u/%u: got %.5f-%.5f", w[i].passes, w[i].runs, it.rs.side[CMP_BASE].ci_low,
                     it.rs.side[CMP_BASE].ci_high);
        free(bb->t.attempts);
        free(bb);
        free(nn);
    }
}

static void test_slowdown_and_single_runs(void **state)
{
    (void)state;
    static struct side_fx b, n;
    struct cmp_item it;
    struct cmp_stat_opts o = {.alpha = 0.05, .any_drop = false, .max_slowdown = 0.5};
    /* 100 ms -> 300 ms, tokens 1000 -> 1200: the duration is beyond 50 %,
     * the tokens (+20 %) are not */
    side(&b, 10, 10, 100, 1000);
    side(&n, 10, 10, 300, 1200);
    judge(&it, &b, &n, &o);
    assert_true(it.rs.duration.flagged && !it.rs.tokens.flagged);
    assert_true(it.rs.tokens.known && it.rs.tokens.shift == 200);
    assert_int_equal(it.change, AN_CHANGE_NONE);
    assert_int_equal(it.gate, AN_GATE_REQUIRE_APPROVAL);
    assert_true(has_tag(&it, "slowdown"));
    o.max_slowdown = -1; /* not given: never flagged */
    judge(&it, &b, &n, &o);
    assert_false(it.rs.duration.flagged);
    assert_int_equal(it.gate, AN_GATE_NONE);

    /* a recording claiming more runs than Fisher's test takes: judged as
     * with single runs, its attempts never read */
    side(&n, 10, 9, 100, -1);
    n.t.runs = 200000;
    n.t.passes = 100000;
    judge(&it, &b, &n, &o);
    assert_false(it.repeated);

    /* 600 and 600 runs: beyond CMP_SHIFT_MAX_PAIRS, medians but no interval */
    {
        struct an_test_result big[2];
        memset(big, 0, sizeof big);
        for (int k = 0; k < 2; k++) {
            big[k].runs = big[k].passes = 600;
            big[k].attempts = calloc(600, sizeof *big[k].attempts);
            for (int i = 0; i < 600; i++)
                big[k].attempts[i] =
                    (struct an_attempt){.duration_ms = 10 + k * 1000 + i % 7, .total_tokens = -1};
        }
        o.max_slowdown = 0.5;
        memset(&it, 0, sizeof it);
        it.side[CMP_BASE] = (struct cmp_side){.t = &big[0], .pass = true, .word = "pass"};
        it.side[CMP_NEW] = (struct cmp_side){.t = &big[1], .pass = true, .word = "pass"};
        cmp_item_repeat(&it, &o);
        assert_true(it.repeated && it.rs.duration.known && !it.rs.duration.has_ci);
        assert_true(it.rs.duration.shift == 1000 && !it.rs.duration.flagged);
        free(big[0].attempts);
        free(big[1].attempts);
    }

    /* a side that ran once: not repeated, today's verdict (pass -> fail) */
    side(&n, 10, 9, 100, -1);
    n.t.runs = 0;
    n.t.attempts = NULL;
    judge(&it, &b, &n, &o);
    assert_false(it.repeated);
    assert_int_equal(it.change, AN_CHANGE_REGRESSION);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mw_exact_vs_enumeration),
        cmocka_unit_test(test_mw_published_critical_values),
        cmocka_unit_test(test_shift_interval),
        cmocka_unit_test(test_verdicts),
        cmocka_unit_test(test_slowdown_and_single_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
