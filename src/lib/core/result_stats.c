/* The statistics of a repeated test and of a run (ananke/result.h), from
 * the plain counts a result holds: the formulas are core/stats.c's. */
#include <math.h>

#include "ananke/result.h"
#include "core/stats.h"

bool an_test_flaky(const struct an_test_result *t)
{
    return t->runs > 1 && t->passes > 0 && t->passes < t->runs;
}

bool an_test_stats(const struct an_test_result *t, unsigned pass_k, double confidence,
                   struct an_test_stats *s)
{
    if (t->runs == 0 || t->status == AN_STATUS_SKIP)
        return false;
    unsigned n = t->runs, c = t->passes <= t->runs ? t->passes : t->runs;
    double conf = confidence > 0 && confidence < 1 ? confidence : AN_CONFIDENCE_DEFAULT;
    *s = (struct an_test_stats){.runs = n, .passes = c, .confidence = conf};
    s->pass_rate = (double)c / (double)n;
    s->k = pass_k ? pass_k : n;
    s->pass_at_k = an_stats_pass_at_k(n, c, s->k);
    s->pass_hat_k = an_stats_pass_hat_k(n, c, s->k);
    s->ci_method = an_ci_method_name(an_stats_ci(n, c, conf, &s->ci_low, &s->ci_high));
    s->flaky = an_test_flaky(t);
    return true;
}

size_t an_run_result_agent_calls(const struct an_run_result *r)
{
    size_t n = 0;
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        if (t->status != AN_STATUS_SKIP)
            n += t->runs ? t->runs : 1;
    }
    return n;
}
