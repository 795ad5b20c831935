/*
 * Wald's SPRT for adaptive repeats (run/sprt.h has the rule and what it
 * guarantees).
 */
#include "run/sprt.h"

#include <math.h>

double an_sprt_confidence(double confidence)
{
    return confidence > 0.5 && confidence < 1 ? confidence : AN_SPRT_CONFIDENCE;
}

void an_sprt_init(struct an_sprt *r, double pass_rate, double confidence, unsigned max_runs)
{
    double P = pass_rate > 0 && pass_rate <= 1 ? pass_rate : 1.0;
    double C = an_sprt_confidence(confidence);
    double alpha = 1 - C, beta = 1 - C;
    r->p0 = P - AN_SPRT_DELTA < 0 ? 0 : P - AN_SPRT_DELTA;
    r->p1 = P + AN_SPRT_DELTA > 1 ? 1 : P + AN_SPRT_DELTA;
    r->step_pass = r->p0 > 0 ? log(r->p1 / r->p0) : INFINITY;
    r->step_fail = r->p1 < 1 ? log((1 - r->p1) / (1 - r->p0)) : -INFINITY;
    r->upper = log((1 - beta) / alpha);
    r->lower = log(beta / (1 - alpha));
    r->max_runs = max_runs ? max_runs : AN_SPRT_MAX_REPEATS;
}

enum an_sprt_verdict an_sprt_decide(const struct an_sprt *r, unsigned runs, unsigned passes)
{
    unsigned fails = runs - (passes < runs ? passes : runs);
    passes = runs - fails;
    /* a clipped hypothesis: one outcome it forbids refutes it outright
     * (p1 = 1 and p0 = 0 at once cannot happen: the region is narrower) */
    if (fails && isinf(r->step_fail))
        return AN_SPRT_FAIL;
    if (passes && isinf(r->step_pass))
        return AN_SPRT_PASS;
    double l = (passes ? passes * r->step_pass : 0) + (fails ? fails * r->step_fail : 0);
    if (l >= r->upper)
        return AN_SPRT_PASS;
    if (l <= r->lower)
        return AN_SPRT_FAIL;
    return runs >= r->max_runs ? AN_SPRT_INCONCLUSIVE : AN_SPRT_CONTINUE;
}

double an_sprt_false_pass_bound(const struct an_sprt *r)
{
    /* upper = ln((1-beta)/alpha): P0(PASS) <= e^-upper */
    return exp(-r->upper);
}

double an_sprt_false_fail_bound(const struct an_sprt *r)
{
    return exp(r->lower);
}
