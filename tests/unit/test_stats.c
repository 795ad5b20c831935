/*
 * core/stats.c against values computed independently of it, once, by
 * tests/unit/stats_fixtures.mjs (its header says how to run it again):
 *   - pass@k and pass^k: exact rationals (BigInt), rounded once;
 *   - I_x(a, b): the binomial tail P(Bin(a+b-1, x) >= a), exact (BigInt)
 *     at a dyadic x (the x below are those, written in full);
 *   - Clopper-Pearson: its definition (binomial tails equal to alpha/2)
 *     solved by bisection on exact BigInt tails, with jstat 1.9.6's
 *     ibetainv agreeing to 1e-8; the closed forms at c = 0 and c = n,
 *     1 - (alpha/2)^(1/n) and (alpha/2)^(1/n), are checked here as well;
 *   - Wilson: the closed form with z from jstat's normal.inv; z itself is
 *     the published 1.959963984540054 at 97.5 % (any normal table).
 * Edge cases: 0 of n, n of n, n = 1, k = n, k > n, n = 10^4.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "ananke/result.h"
#include "core/stats.h"

static void near(double got, double want, double rel, double abs_tol, const char *what)
{
    double err = fabs(got - want);
    if (!(err <= abs_tol || err <= rel * fabs(want))) {
        print_error("%s: got %.17g, want %.17g\n", what, got, want);
        fail();
    }
}

static void test_pass_k(void **state)
{
    (void)state;
    static const struct {
        unsigned n, c, k;
        double at, hat;
    } fx[] = {
        {1, 0, 1, 0, 0},
        {1, 1, 1, 1, 1},
        {10, 0, 1, 0, 0},
        {10, 0, 10, 0, 0},
        {10, 10, 10, 1, 1},
        {10, 5, 1, 0.5, 0.5},
        {10, 5, 3, 0.91666666666666663, 0.083333333333333329},
        {10, 7, 5, 1, 0.083333333333333329},
        {20, 15, 5, 0.99993550051599589, 0.19369195046439627},
        {5, 3, 5, 1, 0},
        {100, 61, 8, 0.99966938339416744, 0.015824929268383903},
        {8, 5, 8, 1, 0},
        {10000, 9990, 100, 1, 0.90434094148269006},
        {10000, 5000, 10000, 1, 0},
        {10000, 9999, 9999, 1, 0.0001},
        {10000, 9999, 10000, 1, 0},
        {10000, 1, 1, 0.0001, 0.0001},
    };
    char what[64];
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) {
        snprintf(what, sizeof what, "pass@%u of %u/%u", fx[i].k, fx[i].c, fx[i].n);
        near(an_stats_pass_at_k(fx[i].n, fx[i].c, fx[i].k), fx[i].at, 1e-12, 0, what);
        snprintf(what, sizeof what, "pass^%u of %u/%u", fx[i].k, fx[i].c, fx[i].n);
        near(an_stats_pass_hat_k(fx[i].n, fx[i].c, fx[i].k), fx[i].hat, 1e-12, 0, what);
    }
    /* k = 1: both are the pass rate; k > n and k = 0: no estimate */
    near(an_stats_pass_hat_k(7, 3, 1), 3.0 / 7, 1e-15, 0, "pass^1");
    assert_true(isnan(an_stats_pass_at_k(3, 2, 4)));
    assert_true(isnan(an_stats_pass_hat_k(3, 2, 4)));
    assert_true(isnan(an_stats_pass_hat_k(3, 2, 0)));
    assert_true(isnan(an_stats_pass_hat_k(3, 4, 1)));
    /* the largest count an unsigned holds does not overflow */
    double v = an_stats_pass_hat_k(4000000000u, 3999999999u, 2);
    near(v, 1 - 2.0 / 4000000000.0, 1e-12, 0, "pass^2 of 4e9");
}

static void test_normal_quantile(void **state)
{
    (void)state;
    static const struct {
        double p, z;
    } fx[] = {
        {0.975, 1.9599639845400545},
        {0.995, 2.5758293035489008},
        {0.95, 1.6448536269514724},
        {0.001, -3.0902323061678199},
        /* jstat is off in the far tail (its -6.3613408994540022 has
         * Phi = 1.0000000192e-10): this one is the z whose Phi, by
         * Python's math.erfc (the C library's), is 1e-10 to 2e-25 */
        {1e-10, -6.3613409024040566},
    };
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++)
        near(an_stats_normal_quantile(fx[i].p), fx[i].z, 1e-13, 0, "normal quantile");
    near(an_stats_normal_quantile(0.5), 0, 0, 1e-15, "median");
    /* near 1 a double p is coarse (steps of 1.1e-16 move z by 1e-10) */
    near(an_stats_normal_quantile(0.9999999), 5.1993375822471393, 1e-10, 0, "upper tail");
    assert_true(isnan(an_stats_normal_quantile(0)));
    assert_true(isnan(an_stats_normal_quantile(1)));
}

static void test_betainc(void **state)
{
    (void)state;
    static const struct {
        double a, b, x, i;
    } fx[] = {
        {1, 1, 0.30000019073486328, 0.30000019073486328},
        {2, 3, 0.25, 0.26171875},
        {5, 5, 0.5, 0.5},
        {3, 10, 0.10000038146972656, 0.11087095315550126},
        {10, 3, 0.89999961853027344, 0.88912904684449878},
        {20, 30, 0.375, 0.36599630383627557},
        {1, 50, 0.015625, 0.54498179434675975},
        {50, 1, 0.984375, 0.45501820565324030},
        {60, 40, 0.625, 0.69121780323919846},
    };
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) {
        double got = an_stats_betainc(fx[i].a, fx[i].b, fx[i].x);
        near(got, fx[i].i, 1e-12, 1e-14, "I_x(a,b)");
        /* and back */
        near(an_stats_betainc_inv(fx[i].a, fx[i].b, fx[i].i), fx[i].x, 1e-11, 1e-14,
             "inverse I_x(a,b)");
    }
    assert_true(an_stats_betainc(2, 3, 0) == 0 && an_stats_betainc(2, 3, 1) == 1);
    assert_true(isnan(an_stats_betainc(0, 3, 0.5)));
    assert_true(isnan(an_stats_betainc(2, 3, 1.5)));
    /* lgamma: Gamma(n) = (n-1)! */
    near(an_stats_lgamma(1), 0, 0, 1e-15, "lgamma(1)");
    near(an_stats_lgamma(10), log(362880.0), 1e-14, 0, "lgamma(10)");
    near(an_stats_lgamma(0.5), 0.5 * log(M_PI), 1e-14, 0, "lgamma(1/2)");
}

static void test_clopper_pearson(void **state)
{
    (void)state;
    static const struct {
        unsigned n, c;
        double conf, lo, hi;
    } fx[] = {
        {1, 0, 0.95, 0, 0.97500000000000009},
        {1, 1, 0.95, 0.025000000000000133, 1},
        {5, 3, 0.95, 0.14663279963467341, 0.94725504947368322},
        {8, 5, 0.95, 0.24486321636655192, 0.91476658586274662},
        {10, 0, 0.95, 0, 0.30849710781876105},
        {10, 10, 0.95, 0.69150289218123950, 1},
        {9, 4, 0.9, 0.16875049598732403, 0.74863237259182269},
        {7, 6, 0.99, 0.31508836075327112, 0.99928417891887455},
        {30, 29, 0.95, 0.82783054436658754, 0.99915642907336955},
        {100, 61, 0.95, 0.50731447963236365, 0.70598958514658305},
        {400, 1, 0.95, 0.000063292516904857543, 0.013849769962013286},
        {400, 399, 0.95, 0.98615023003798674, 0.99993670748309516},
    };
    char what[64];
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) {
        double lo, hi;
        an_stats_clopper_pearson(fx[i].n, fx[i].c, fx[i].conf, &lo, &hi);
        snprintf(what, sizeof what, "clopper-pearson %u/%u at %g", fx[i].c, fx[i].n, fx[i].conf);
        near(lo, fx[i].lo, 1e-9, 1e-14, what);
        near(hi, fx[i].hi, 1e-9, 1e-14, what);
    }
    /* the closed forms at the edges, for larger n too */
    for (unsigned n = 1; n <= 5000; n = n * 3 + 1) {
        double lo, hi;
        an_stats_clopper_pearson(n, 0, 0.95, &lo, &hi);
        assert_true(lo == 0);
        near(hi, 1 - pow(0.025, 1.0 / n), 1e-10, 0, "0 of n");
        an_stats_clopper_pearson(n, n, 0.95, &lo, &hi);
        assert_true(hi == 1);
        near(lo, pow(0.025, 1.0 / n), 1e-10, 0, "n of n");
        an_stats_clopper_pearson(n, 1, 0.95, &lo, &hi);
        near(lo, 1 - pow(1 - 0.025, 1.0 / n), 1e-9, 0, "1 of n");
    }
}

static void test_wilson(void **state)
{
    (void)state;
    static const struct {
        unsigned n, c;
        double conf, lo, hi;
    } fx[] = {
        {10, 0, 0.95, 0, 0.27753279986288926},
        {10, 10, 0.95, 0.72246720013711063, 1},
        {10, 5, 0.95, 0.23659309051256394, 0.76340690948743606},
        {20, 17, 0.95, 0.63958113525924298, 0.94763125410378335},
        {50, 45, 0.9, 0.80846248584842917, 0.95047096552255483},
        {100, 61, 0.95, 0.51203017045840726, 0.69983125993605577},
        {12, 11, 0.99, 0.54648820494869099, 0.99013940367737363},
        {10000, 9990, 0.95, 0.99816005561256194, 0.99945671401350278},
        {1, 1, 0.95, 0.20654931437723745, 1},
    };
    for (size_t i = 0; i < sizeof fx / sizeof *fx; i++) {
        double lo, hi;
        an_stats_wilson(fx[i].n, fx[i].c, fx[i].conf, &lo, &hi);
        near(lo, fx[i].lo, 1e-12, 1e-15, "wilson low");
        near(hi, fx[i].hi, 1e-12, 1e-15, "wilson high");
    }
}

static void test_choice_and_test_stats(void **state)
{
    (void)state;
    double lo, hi;
    assert_int_equal(an_stats_ci(9, 4, 0.95, &lo, &hi), AN_CI_CLOPPER_PEARSON);
    assert_int_equal(an_stats_ci(10, 4, 0.95, &lo, &hi), AN_CI_WILSON);
    assert_string_equal(an_ci_method_name(AN_CI_CLOPPER_PEARSON), "clopper-pearson");
    assert_string_equal(an_ci_method_name(AN_CI_WILSON), "wilson");

    struct an_test_result t = {.status = AN_STATUS_FAIL, .runs = 5, .passes = 3};
    struct an_test_stats s;
    assert_true(an_test_stats(&t, 0, 0, &s));
    assert_int_equal(s.k, 5);
    assert_true(s.flaky);
    near(s.pass_rate, 0.6, 1e-15, 0, "rate");
    assert_true(s.pass_hat_k == 0 && s.pass_at_k == 1);
    assert_string_equal(s.ci_method, "clopper-pearson");
    near(s.confidence, 0.95, 0, 0, "default confidence");
    near(s.ci_low, 0.14663279963467341, 1e-9, 0, "ci low");
    assert_true(an_test_stats(&t, 2, 0.9, &s));
    near(s.pass_hat_k, 0.3, 1e-15, 0, "pass^2 of 3/5");
    assert_true(an_test_stats(&t, 6, 0.9, &s));
    assert_true(isnan(s.pass_hat_k) && isnan(s.pass_at_k));
    /* agreeing runs are not flaky; one run has no statistics */
    t.passes = 5;
    assert_false(an_test_flaky(&t));
    t.passes = 0;
    assert_false(an_test_flaky(&t));
    t.runs = 0;
    assert_false(an_test_stats(&t, 0, 0, &s));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pass_k),  cmocka_unit_test(test_normal_quantile),
        cmocka_unit_test(test_betainc), cmocka_unit_test(test_clopper_pearson),
        cmocka_unit_test(test_wilson),  cmocka_unit_test(test_choice_and_test_stats),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
