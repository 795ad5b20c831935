/*
 * Fisher's exact test (src/lib/core/fisher.c) against values computed
 * independently of it. Where each fixture came from:
 *   - the tea-tasting row is Fisher's own example (The Design of
 *     Experiments, 1935; also R's ?fisher.test "TeaTasting"): 3 of 4 cups
 *     right against 1 of 4, two-sided p = 0.4857, one-sided 0.2429;
 *   - every row (that one included) was computed once, 2026-11-28, by
 *     node with @stdlib/stats-base-dists-hypergeometric-pmf and -cdf 0.2.x
 *     installed in /tmp (not committed): worse = cdf(a2), better =
 *     1 - cdf(a2 - 1), two-sided = the sum of the pmf over the tables no
 *     more likely than the observed one (R's rule, relative tolerance
 *     1e-7). The script is in docs/statistics.md ("Comparing runs").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>

#include "core/fisher.h"

static const struct {
    unsigned a1, n1, a2, n2;
    double worse, better, two;
} rows[] = {
    /* Fisher's tea tasting */
    {3, 4, 1, 4, 0.2428571429, 0.9857142857, 0.4857142857},
    /* a significant drop and noise, as the e2e case scripts them */
    {10, 10, 2, 10, 0.0003572279114, 1.000000000, 0.0007144558228},
    {10, 10, 9, 10, 0.5000000000, 1.000000000, 1.000000000},
    {10, 10, 7, 10, 0.1052631579, 1.000000000, 0.2105263158},
    /* one-sided significant at 0.05, two-sided not */
    {10, 10, 6, 10, 0.04334365325, 1.000000000, 0.08668730650},
    {0, 5, 5, 5, 1.000000000, 0.003968253968, 0.007936507937},
    {5, 5, 5, 5, 1.000000000, 1.000000000, 1.000000000},
    {20, 20, 10, 20, 0.0002179598954, 1.000000000, 0.0004359197908},
    {18, 20, 12, 20, 0.03241658080, 0.9958191329, 0.06483316161},
    {45, 50, 30, 50, 0.0004834216015, 0.9999283209, 0.0009668432031},
    {1, 1, 0, 1, 0.5000000000, 1.000000000, 1.000000000},
    /* unequal sample sizes */
    {7, 12, 2, 9, 0.1129078352, 0.9840948525, 0.1842343415},
    {100, 200, 80, 200, 0.02802389581, 0.9826635811, 0.05604779163},
    {3, 10, 8, 10, 0.9972612527, 0.03488925935, 0.06977851869},
    {0, 10, 0, 10, 1.000000000, 1.000000000, 1.000000000},
    {50, 60, 49, 60, 0.5000000000, 0.6841640794, 1.000000000},
};

static void close_to(double got, double want, unsigned row, const char *what)
{
    /* the fixtures have 10 significant digits */
    if (fabs(got - want) > 1e-9 + 1e-8 * want)
        fail_msg("row %u %s: got %.12g, want %.12g", row, what, got, want);
}

static void test_reference_values(void **state)
{
    (void)state;
    for (unsigned i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_fisher f;
        assert_true(an_fisher_exact(rows[i].a1, rows[i].n1, rows[i].a2, rows[i].n2, &f));
        close_to(f.worse, rows[i].worse, i, "worse");
        close_to(f.better, rows[i].better, i, "better");
        close_to(f.two_sided, rows[i].two, i, "two_sided");
    }
}

/* Swapping the sides swaps the one-sided tails and keeps the two-sided p. */
static void test_symmetry(void **state)
{
    (void)state;
    for (unsigned i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_fisher f, g;
        assert_true(an_fisher_exact(rows[i].a1, rows[i].n1, rows[i].a2, rows[i].n2, &f));
        assert_true(an_fisher_exact(rows[i].a2, rows[i].n2, rows[i].a1, rows[i].n1, &g));
        close_to(g.better, f.worse, i, "swapped better");
        close_to(g.worse, f.better, i, "swapped worse");
        close_to(g.two_sided, f.two_sided, i, "swapped two_sided");
    }
}

static void test_refused(void **state)
{
    (void)state;
    struct an_fisher f = {-1, -1, -1};
    assert_false(an_fisher_exact(0, 0, 1, 2, &f)); /* no baseline run */
    assert_false(an_fisher_exact(1, 2, 0, 0, &f)); /* no new run */
    assert_false(an_fisher_exact(3, 2, 1, 2, &f)); /* more passes than runs */
    assert_false(an_fisher_exact(1, 2, 3, 2, &f));
    assert_false(an_fisher_exact(1, AN_FISHER_MAX_RUNS + 1, 1, 2, &f));
    assert_true(f.worse == -1 && f.better == -1 && f.two_sided == -1); /* untouched */
}

/* Large samples stay finite and in [0, 1], and a huge drop is ~0. */
static void test_large(void **state)
{
    (void)state;
    struct an_fisher f;
    assert_true(an_fisher_exact(90000, 100000, 10000, 100000, &f));
    assert_true(f.worse >= 0 && f.worse < 1e-300);
    assert_true(f.better == 1.0 || fabs(f.better - 1.0) < 1e-12);
    assert_true(an_fisher_exact(50000, 100000, 50000, 100000, &f));
    assert_true(f.two_sided > 0.99 && f.two_sided <= 1.0);
    assert_true(f.worse > 0.5 && f.worse <= 1.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_values),
        cmocka_unit_test(test_symmetry),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_large),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
