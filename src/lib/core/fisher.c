/* Fisher's exact test (core/fisher.h). The hypergeometric probabilities are
 * computed in logs (lgamma) and summed relative to the most likely table, so
 * large factorials do not overflow (a tail below 1e-300 of it counts as 0). */
#include "core/fisher.h"

#include <math.h>

/* log C(n, k) */
static double lchoose(unsigned n, unsigned k)
{
    return lgamma((double)n + 1.0) - lgamma((double)k + 1.0) - lgamma((double)(n - k) + 1.0);
}

/* log P(X = x): x of the n2 new runs pass, of N runs with K passes */
static double ldhyper(unsigned x, unsigned K, unsigned N, unsigned n2)
{
    return lchoose(K, x) + lchoose(N - K, n2 - x) - lchoose(N, n2);
}

bool an_fisher_exact(unsigned a1, unsigned n1, unsigned a2, unsigned n2, struct an_fisher *out)
{
    if (n1 == 0 || n2 == 0 || a1 > n1 || a2 > n2 || n1 > AN_FISHER_MAX_RUNS ||
        n2 > AN_FISHER_MAX_RUNS)
        return false;
    unsigned N = n1 + n2, K = a1 + a2;
    /* the support of X: max(0, n2 - (N - K)) .. min(K, n2) */
    unsigned lo = n2 > N - K ? n2 - (N - K) : 0, hi = K < n2 ? K : n2;
    double lobs = ldhyper(a2, K, N, n2);
    /* R's tolerance: a table counts as "no more likely" than the observed
     * one when its probability is within a relative 1e-7 of it, so that
     * rounding does not split tables of equal probability */
    double lcut = lobs + log1p(1e-7);
    double lmax = lobs;
    for (unsigned x = lo; x <= hi; x++)
        lmax = fmax(lmax, ldhyper(x, K, N, n2));
    double total = 0, le = 0, ge = 0, two = 0;
    for (unsigned x = lo; x <= hi; x++) {
        double l = ldhyper(x, K, N, n2);
        double p = exp(l - lmax); /* relative to the most likely table */
        total += p;
        if (x <= a2)
            le += p;
        if (x >= a2)
            ge += p;
        if (l <= lcut)
            two += p;
    }
    out->worse = fmin(1.0, le / total);
    out->better = fmin(1.0, ge / total);
    out->two_sided = fmin(1.0, two / total);
    return true;
}
