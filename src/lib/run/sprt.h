/*
 * Adaptive repeats (--repeat auto): Wald's sequential probability ratio
 * test on a test's runs, as a pure decision function (no clock, no I/O).
 *
 * A run is a Bernoulli trial with an unknown pass rate p. For a required
 * rate P (--pass-rate) the rule tests
 *   H0: p = p0 = P - AN_SPRT_DELTA   (the agent is too weak: FAIL)
 *   H1: p = p1 = P + AN_SPRT_DELTA   (the agent is good enough: PASS)
 * each clipped to [0, 1], with alpha = beta = 1 - C (--confidence). After n
 * runs with s passes the log-likelihood ratio is
 *   L = s ln(p1/p0) + (n - s) ln((1-p1)/(1-p0)),
 * PASS once L >= ln((1-beta)/alpha), FAIL once L <= ln(beta/(1-alpha)),
 * INCONCLUSIVE when --max-repeats runs end between the two. A clipped
 * hypothesis makes one outcome decisive: with p1 = 1 (P >= 1 - delta) the
 * first failure is a FAIL; with p0 = 0 (P <= delta) the first pass a PASS.
 *
 * What it guarantees (docs/statistics-adaptive.md): for any true rate
 * p <= p0, P(PASS) <= alpha / (1 - beta); for p >= p1, P(FAIL) <=
 * beta / (1 - alpha) (Wald's bounds, exact for this truncated test: a cut
 * path is INCONCLUSIVE, never a verdict). Between p0 and p1 (the
 * indifference region) either verdict may come.
 */
#ifndef ANANKE_RUN_SPRT_H
#define ANANKE_RUN_SPRT_H

#include <stdbool.h>

#include "ananke/run.h"

/* Half the width of the indifference region around --pass-rate. */
#define AN_SPRT_DELTA 0.15
#define AN_SPRT_CONFIDENCE 0.95 /* --confidence by default */
#define AN_SPRT_MAX_REPEATS AN_RUN_MAX_REPEATS

enum an_sprt_verdict {
    AN_SPRT_CONTINUE = 0, /* undecided and runs left: run again */
    AN_SPRT_PASS,
    AN_SPRT_FAIL,
    AN_SPRT_INCONCLUSIVE, /* max_runs runs, undecided */
};

/* The rule for one (P, C, N); plain data, filled by an_sprt_init. */
struct an_sprt {
    double p0, p1;       /* the two hypotheses */
    double step_pass;    /* L added by a pass (+inf when p0 = 0) */
    double step_fail;    /* L added by a failure (-inf when p1 = 1) */
    double upper, lower; /* PASS at L >= upper, FAIL at L <= lower */
    unsigned max_runs;
};

/* pass_rate in (0, 1] (0: 1.0), confidence in (0.5, 1) (anything else:
 * AN_SPRT_CONFIDENCE), max_runs >= 1 (0: AN_SPRT_MAX_REPEATS). */
void an_sprt_init(struct an_sprt *r, double pass_rate, double confidence, unsigned max_runs);

/* The confidence the rule uses for `confidence` (out of range: the default). */
double an_sprt_confidence(double confidence);

/* The verdict after `runs` runs of which `passes` passed. */
enum an_sprt_verdict an_sprt_decide(const struct an_sprt *r, unsigned runs, unsigned passes);

/* The error bounds the rule guarantees: P(PASS | p <= p0) and
 * P(FAIL | p >= p1) are at most these. */
double an_sprt_false_pass_bound(const struct an_sprt *r);
double an_sprt_false_fail_bound(const struct an_sprt *r);

#endif
