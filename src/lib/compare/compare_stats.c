/*
 * Repeated cases in `ananke compare` (docs/statistics-compare.md): each
 * side's pass rate with its Wilson interval, Fisher's exact test of the
 * difference (core/fisher.c), and the medians of per-run durations and
 * token usage with the Mann-Whitney (Hodges-Lehmann) interval of their
 * shift. Pure: reads the two results, writes it->rs.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/fisher.h"
#include "core/stats.h"
#include "ananke/err.h"

/* P(U <= w) for w = 0..m*n, exactly (m, n <= CMP_MW_EXACT_MAX): the
 * orderings of m baseline and n new values with w pairs (baseline > new)
 * counted as f[i][w] for i baseline values, adding the new values one by
 * one; the largest of all is either a baseline value (above all j new ones:
 * w grows by j) or a new one. Sums only, so the counts (up to C(100, 50))
 * keep double's relative precision. Caller frees. */
static double *mw_table(size_t m, size_t n)
{
    size_t len = m * n + 1;
    double *f = an_xcalloc((m + 1) * len, sizeof *f);
    for (size_t i = 0; i <= m; i++)
        f[i * len] = 1; /* no new value yet: one ordering, no pair */
    for (size_t j = 1; j <= n; j++)
        for (size_t i = 1; i <= m; i++)    /* ascending: f[i-1] already has j */
            for (size_t w = len; w-- > j;) /* descending: f[i]'s old values */
                f[i * len + w] += f[(i - 1) * len + w - j];
    double *cdf = an_xmalloc(len * sizeof *cdf), total = 0, run = 0;
    for (size_t w = 0; w < len; w++)
        total += f[m * len + w];
    for (size_t w = 0; w < len; w++) {
        run += f[m * len + w];
        cdf[w] = fmin(1.0, run / total);
    }
    free(f);
    return cdf;
}

static double mw_normal(size_t m, size_t n, double u)
{
    double mn = (double)m * (double)n, sd = sqrt(mn * (double)(m + n + 1) / 12);
    return 0.5 * erfc(-((floor(u) + 0.5 - mn / 2) / sd) / sqrt(2.0));
}

static bool mw_exact(size_t m, size_t n)
{
    return m <= CMP_MW_EXACT_MAX && n <= CMP_MW_EXACT_MAX;
}

double cmp_mw_cdf(size_t m, size_t n, double u)
{
    double mn = (double)m * (double)n;
    if (u < 0)
        return 0;
    if (u >= mn)
        return 1;
    if (!mw_exact(m, n))
        return mw_normal(m, n, u);
    double *cdf = mw_table(m, n), p = cdf[(size_t)floor(u)];
    free(cdf);
    return p;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(const double *v, size_t n)
{
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The largest k >= 1 with P(U <= k - 1) <= alpha / 2 (0: none): the rank
 * of the interval's ends among the sorted differences. */
static size_t interval_rank(size_t m, size_t n, double alpha, struct cmp_mw_cache *cache)
{
    if (cache && cache->m == m && cache->n == n && cache->alpha == alpha)
        return cache->k;
    size_t np = m * n, k = 0;
    double *cdf = mw_exact(m, n) ? mw_table(m, n) : NULL;
    while (k < np / 2 && (cdf ? cdf[k] : mw_normal(m, n, (double)k)) <= alpha / 2)
        k++;
    free(cdf);
    if (cache)
        *cache = (struct cmp_mw_cache){.m = m, .n = n, .alpha = alpha, .k = k};
    return k;
}

bool cmp_shift_of(double *x, size_t m, double *y, size_t n, double alpha, double max_slowdown,
                  struct cmp_mw_cache *cache, struct cmp_shift *out)
{
    memset(out, 0, sizeof *out);
    if (!m || !n)
        return false;
    qsort(x, m, sizeof *x, cmp_double);
    qsort(y, n, sizeof *y, cmp_double);
    out->known = true;
    out->base_median = median(x, m);
    out->new_median = median(y, n);
    out->shift = out->new_median - out->base_median;
    if ((double)m * (double)n > CMP_SHIFT_MAX_PAIRS)
        return true;
    size_t np = m * n;
    double *d = an_xmalloc(np * sizeof *d);
    for (size_t i = 0; i < m; i++)
        for (size_t j = 0; j < n; j++)
            d[i * n + j] = y[j] - x[i];
    qsort(d, np, sizeof *d, cmp_double);
    out->shift = median(d, np); /* Hodges-Lehmann */
    /* [d_(k), d_(mn+1-k)] (1-based) covers the true shift with probability
     * >= 1 - alpha (without ties) */
    size_t k = interval_rank(m, n, alpha, cache);
    if (k >= 1) {
        out->has_ci = true;
        out->ci_low = d[k - 1];
        out->ci_high = d[np - k];
        out->flagged = max_slowdown >= 0 && out->ci_low > max_slowdown * out->base_median;
    }
    free(d);
    return true;
}

/* Per-run durations (ms) or token totals of a repeated side; the tokens of
 * runs whose agent reported none are left out. */
static size_t values(const struct an_test_result *t, bool tokens, double *out)
{
    size_t n = 0;
    for (unsigned i = 0; i < t->runs; i++) {
        const struct an_attempt *a = &t->attempts[i];
        if (tokens && a->total_tokens < 0)
            continue;
        out[n++] = tokens ? (double)a->total_tokens : (double)a->duration_ms;
    }
    return n;
}

static void shift_of(const struct cmp_item *it, bool tokens, const struct cmp_stat_opts *o,
                     struct cmp_shift *out)
{
    const struct an_test_result *b = it->side[CMP_BASE].t, *n = it->side[CMP_NEW].t;
    double *x = an_xcalloc(b->runs, sizeof *x), *y = an_xcalloc(n->runs, sizeof *y);
    size_t m = values(b, tokens, x), k = values(n, tokens, y);
    cmp_shift_of(x, m, y, k, o->alpha, o->max_slowdown, o->cache, out);
    free(x);
    free(y);
}

void cmp_item_repeat(struct cmp_item *it, const struct cmp_stat_opts *o)
{
    memset(&it->rs, 0, sizeof it->rs);
    it->repeated = false;
    for (int k = 0; k < 2; k++) {
        const struct an_test_result *t = it->side[k].t;
        if (!t || t->runs < 2 || !t->attempts || t->status == AN_STATUS_SKIP)
            return;
    }
    struct cmp_rstats *rs = &it->rs;
    rs->alpha = o->alpha;
    rs->max_slowdown = o->max_slowdown;
    for (int k = 0; k < 2; k++) {
        const struct an_test_result *t = it->side[k].t;
        struct cmp_rate *r = &rs->side[k];
        r->runs = t->runs;
        r->passes = t->passes;
        r->rate = (double)t->passes / t->runs;
        /* the per-test rule (core/stats.h): Clopper-Pearson below 10 runs,
         * Wilson from 10, at confidence 1 - alpha */
        an_stats_ci(r->runs, r->passes, 1 - o->alpha, &r->ci_low, &r->ci_high);
    }
    struct an_fisher f;
    if (!an_fisher_exact(rs->side[0].passes, rs->side[0].runs, rs->side[1].passes, rs->side[1].runs,
                         &f))
        return; /* beyond AN_FISHER_MAX_RUNS: today's verdict stands */
    it->repeated = true;
    /* the rates compared as fractions, exactly: a1/n1 > a2/n2 */
    unsigned long long l = (unsigned long long)rs->side[0].passes * rs->side[1].runs,
                       r = (unsigned long long)rs->side[1].passes * rs->side[0].runs;
    rs->drop = l > r;
    rs->rise = r > l;
    rs->p_worse = f.worse;
    rs->p_two = f.two_sided;
    /* "worse" is the regression question, asked of every case before any
     * data: one-sided. Any other change is reported two-sided. */
    rs->p_value = rs->drop ? f.worse : f.two_sided;
    /* a p-value equal to alpha is significant (3/3 -> 0/3: p = 1/20 at
     * 0.05), whatever the last bit of the logs and exponentials says */
    rs->significant = rs->p_value <= o->alpha * (1 + 1e-9);
    rs->regression = rs->drop && (rs->significant || o->any_drop);
    rs->improvement = rs->rise && rs->significant;
    shift_of(it, false, o, &rs->duration);
    shift_of(it, true, o, &rs->tokens);
}

/* x to 12 significant digits, so that the report prints it short (0.05,
 * not 0.050000000000000003: an_json_dumps prints 15 digits when every
 * real of the document reads back the same). */
static json_t *real12(double x)
{
    char b[32];
    snprintf(b, sizeof b, "%.12g", x);
    return json_real(strtod(b, NULL));
}

static json_t *rate_json(const struct cmp_rate *r)
{
    return json_pack("{s:I, s:I, s:o, s:o, s:o}", "runs", (json_int_t)r->runs, "passes",
                     (json_int_t)r->passes, "pass_rate", real12(r->rate), "ci_low",
                     real12(r->ci_low), "ci_high", real12(r->ci_high));
}

json_t *cmp_rstats_json(const struct cmp_rstats *rs)
{
    return json_pack("{s:o, s:o, s:o, s:b, s:o}", "baseline", rate_json(&rs->side[CMP_BASE]), "new",
                     rate_json(&rs->side[CMP_NEW]), "p_value", real12(rs->p_value), "significant",
                     rs->significant, "alpha", real12(rs->alpha));
}

static json_t *shift_json(const struct cmp_shift *s)
{
    if (!s->known)
        return json_null();
    return json_pack("{s:o, s:o, s:o, s:o, s:o, s:b}", "baseline", real12(s->base_median), "new",
                     real12(s->new_median), "difference", real12(s->shift), "ci_low",
                     s->has_ci ? real12(s->ci_low) : json_null(), "ci_high",
                     s->has_ci ? real12(s->ci_high) : json_null(), "flagged", s->flagged);
}

json_t *cmp_medians_json(const struct cmp_rstats *rs)
{
    return json_pack("{s:o, s:o, s:o}", "max_slowdown",
                     rs->max_slowdown >= 0 ? real12(rs->max_slowdown) : json_null(), "duration_ms",
                     shift_json(&rs->duration), "total_tokens", shift_json(&rs->tokens));
}
