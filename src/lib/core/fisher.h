/*
 * Fisher's exact test on a 2x2 table of pass counts: did the share of
 * passing runs change between two samples (`ananke compare` on repeated
 * runs, docs/statistics-compare.md). Pure: no allocation, no state.
 *
 *              pass       fail
 *   baseline   a1         n1 - a1
 *   new        a2         n2 - a2
 *
 * With the margins fixed, the new side's passes X follow the
 * hypergeometric law (n1 + n2 runs, a1 + a2 passes, n2 drawn).
 */
#ifndef ANANKE_CORE_FISHER_H
#define ANANKE_CORE_FISHER_H

#include <stdbool.h>

/* More runs than this on a side are refused (the sums below stay exact
 * enough in doubles far beyond it; the cap only bounds the work). */
#define AN_FISHER_MAX_RUNS 100000u

struct an_fisher {
    double worse;     /* one-sided, H1: the new rate is lower: P(X <= a2) */
    double better;    /* one-sided, H1: the new rate is higher: P(X >= a2) */
    double two_sided; /* the sum of P(X = x) over every x no more likely than a2
                         (R's fisher.test rule, with its relative tolerance 1e-7) */
};

/* a1 passes of n1 runs (baseline) against a2 of n2 (new). false (out
 * untouched) when a count exceeds its runs, a side has no run, or a side
 * has more than AN_FISHER_MAX_RUNS. Every p-value is in [0, 1]. */
bool an_fisher_exact(unsigned a1, unsigned n1, unsigned a2, unsigned n2, struct an_fisher *out);

#endif
