/*
 * Statistics of repeated runs (docs/statistics.md): pure functions of the
 * number of runs n and of passes c, no I/O, no state, safe from any thread
 * (no lgamma: its sign lives in a global).
 *
 * Estimators (Chen et al. 2021 for pass@k; Yao et al. 2024, tau-bench,
 * for pass^k), unbiased for k <= n:
 *   pass@k = 1 - C(n-c, k) / C(n, k)   at least one of k fresh runs passes
 *   pass^k =     C(c, k)   / C(n, k)   all k fresh runs pass
 * computed as products of k ratios, each at most 1: no overflow for any n.
 *
 * Intervals for the true pass rate at confidence C (0 < C < 1):
 *   Wilson score (Wilson 1927), and Clopper-Pearson (1934, exact: from the
 *   inverse regularized incomplete beta function). an_stats_ci() picks
 *   Clopper-Pearson below AN_STATS_EXACT_BELOW runs, Wilson from there on.
 */
#ifndef ANANKE_CORE_STATS_H
#define ANANKE_CORE_STATS_H

#include <stdbool.h>

/* Fewer runs than this: Clopper-Pearson (Wilson's normal approximation is
 * poor there); this many or more: Wilson. */
#define AN_STATS_EXACT_BELOW 10u

/* pass@k and pass^k from n runs with c passes (c <= n). NAN unless
 * 1 <= k <= n: no unbiased estimate exists from fewer runs than k. */
double an_stats_pass_at_k(unsigned n, unsigned c, unsigned k);
double an_stats_pass_hat_k(unsigned n, unsigned c, unsigned k);

/* The standard normal quantile: z with P(Z <= z) = p, 0 < p < 1 (NAN
 * outside). Full double precision (Acklam's rational approximation, one
 * Halley step on erfc). */
double an_stats_normal_quantile(double p);

/* ln Gamma(x) for x > 0 (Lanczos, g = 7). */
double an_stats_lgamma(double x);

/* The regularized incomplete beta function I_x(a, b), a, b > 0, 0 <= x <= 1
 * (a continued fraction, modified Lentz); NAN outside. */
double an_stats_betainc(double a, double b, double x);

/* Its inverse in x: the x in [0, 1] with I_x(a, b) = p (Newton steps kept
 * inside a bisection bracket). */
double an_stats_betainc_inv(double a, double b, double p);

/* Two-sided intervals for the pass rate from c passes of n runs (n >= 1,
 * c <= n) at confidence conf; [0, 1] when n is 0. */
void an_stats_wilson(unsigned n, unsigned c, double conf, double *lo, double *hi);
void an_stats_clopper_pearson(unsigned n, unsigned c, double conf, double *lo, double *hi);

enum an_ci_method { AN_CI_WILSON = 0, AN_CI_CLOPPER_PEARSON };
const char *an_ci_method_name(enum an_ci_method m); /* "wilson", "clopper-pearson" */
/* The interval the reports show: Clopper-Pearson when n < AN_STATS_EXACT_BELOW. */
enum an_ci_method an_stats_ci(unsigned n, unsigned c, double conf, double *lo, double *hi);

#endif
