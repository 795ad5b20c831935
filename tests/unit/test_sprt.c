/*
 * Adaptive repeats (run/sprt.h): the decision table for known sequences,
 * and a simulation: thousands of simulated tests with known true pass rates
 * (a seeded generator, no agent) whose false-pass and false-fail rates must
 * stay within the bounds the rule documents, at a mean cost well under
 * --max-repeats.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <cmocka.h>

#include "run/sprt.h"

/* Runs a sequence ('p' pass, anything else fail) until a verdict. */
static enum an_sprt_verdict feed(const struct an_sprt *r, const char *seq, unsigned *runs)
{
    unsigned n = 0, s = 0;
    enum an_sprt_verdict v = AN_SPRT_CONTINUE;
    for (const char *c = seq; *c && v == AN_SPRT_CONTINUE; c++) {
        n++;
        s += *c == 'p';
        v = an_sprt_decide(r, n, s);
    }
    *runs = n;
    return v;
}

static void test_table(void **state)
{
    (void)state;
    static const struct {
        double P, C;
        unsigned N;
        const char *seq;
        enum an_sprt_verdict want;
        unsigned runs;
    } rows[] = {
        /* P = 0.8: p0 .65, p1 .95; a pass adds ln(.95/.65) = .380, a
         * failure ln(.05/.35) = -1.946; bounds +-ln 19 = +-2.944 */
        {0.8, 0.95, 20, "pppppppppppppppppppp", AN_SPRT_PASS, 8},
        {0.8, 0.95, 20, "ffffffffffffffffffff", AN_SPRT_FAIL, 2},
        {0.8, 0.95, 20, "ppppfppppfppppfppppf", AN_SPRT_INCONCLUSIVE, 20},
        {0.8, 0.95, 10, "ppppfppppfppppfppppf", AN_SPRT_INCONCLUSIVE, 10},
        {0.8, 0.95, 20, "pppfpppfpppfppp", AN_SPRT_CONTINUE, 15},
        /* P = 0.9: p1 clipped to 1, so the first failure decides */
        {0.9, 0.95, 20, "pfpfpfpf", AN_SPRT_FAIL, 2},
        {0.9, 0.95, 20, "pppppppppppppppppppp", AN_SPRT_PASS, 11},
        /* the default P = 1: p0 .85, 19 straight passes */
        {1.0, 0.95, 20, "pppppppppppppppppppp", AN_SPRT_PASS, 19},
        {1.0, 0.95, 18, "pppppppppppppppppppp", AN_SPRT_INCONCLUSIVE, 18},
        /* P = 0.5: symmetric, 5 either way */
        {0.5, 0.95, 20, "ppppp", AN_SPRT_PASS, 5},
        {0.5, 0.95, 20, "fffff", AN_SPRT_FAIL, 5},
        {0.5, 0.95, 20, "pfpfpfpfpfpfpfpfpfpf", AN_SPRT_INCONCLUSIVE, 20},
        /* higher confidence costs more runs: ln 99 = 4.595 -> 13 passes */
        {0.8, 0.99, 20, "pppppppppppppppppppp", AN_SPRT_PASS, 13},
        /* P = 0.1: p0 clipped to 0, so the first pass decides */
        {0.1, 0.95, 20, "ffp", AN_SPRT_PASS, 3},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_sprt r;
        an_sprt_init(&r, rows[i].P, rows[i].C, rows[i].N);
        unsigned runs;
        enum an_sprt_verdict v = feed(&r, rows[i].seq, &runs);
        if (v != rows[i].want || runs != rows[i].runs)
            fail_msg("row %zu: verdict %d after %u runs, want %d after %u", i, (int)v, runs,
                     (int)rows[i].want, rows[i].runs);
    }
}

static void test_defaults_and_bounds(void **state)
{
    (void)state;
    struct an_sprt r;
    an_sprt_init(&r, 0, 0, 0); /* P 1.0, C 0.95, N 20 */
    assert_int_equal(r.max_runs, AN_SPRT_MAX_REPEATS);
    assert_true(r.p0 > 0.8499 && r.p0 < 0.8501);
    assert_true(r.p1 == 1.0);
    /* alpha / (1 - beta) = 0.05 / 0.95 */
    assert_true(an_sprt_false_pass_bound(&r) > 0.05263 && an_sprt_false_pass_bound(&r) < 0.05264);
    assert_true(an_sprt_false_fail_bound(&r) > 0.05263 && an_sprt_false_fail_bound(&r) < 0.05264);
}

/* splitmix64: a seeded generator, the same numbers on every machine */
static uint64_t next_u64(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static double uniform(uint64_t *s)
{
    return (double)(next_u64(s) >> 11) * (1.0 / 9007199254740992.0);
}

struct outcome {
    unsigned pass, fail, inconclusive;
    double mean_runs;
};

static struct outcome simulate(const struct an_sprt *r, double p, unsigned trials, uint64_t *seed)
{
    struct outcome o = {0};
    unsigned long total = 0;
    for (unsigned t = 0; t < trials; t++) {
        unsigned n = 0, s = 0;
        enum an_sprt_verdict v = AN_SPRT_CONTINUE;
        while (v == AN_SPRT_CONTINUE) {
            n++;
            s += uniform(seed) < p;
            v = an_sprt_decide(r, n, s);
        }
        total += n;
        o.pass += v == AN_SPRT_PASS;
        o.fail += v == AN_SPRT_FAIL;
        o.inconclusive += v == AN_SPRT_INCONCLUSIVE;
    }
    o.mean_runs = (double)total / trials;
    return o;
}

#define TRIALS 20000

static void test_simulated_error_rates(void **state)
{
    (void)state;
    static const double required[] = {0.5, 0.7, 0.8, 0.9, 1.0};
    static const double confidence[] = {0.9, 0.95};
    uint64_t seed = 22;
    for (size_t ci = 0; ci < 2; ci++) {
        for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
            struct an_sprt r;
            an_sprt_init(&r, required[i], confidence[ci], 20);
            double fp = an_sprt_false_pass_bound(&r), ff = an_sprt_false_fail_bound(&r);
            /* true rates: the edge of each hypothesis, the threshold, the extremes */
            double rates[] = {r.p0, r.p0 - 0.1, required[i], r.p1, 0.0, 1.0};
            double runs_sum = 0;
            size_t nrates = 0;
            for (size_t k = 0; k < sizeof rates / sizeof rates[0]; k++) {
                double p = rates[k];
                if (p < 0)
                    continue;
                struct outcome o = simulate(&r, p, TRIALS, &seed);
                runs_sum += o.mean_runs;
                nrates++;
                double pass = (double)o.pass / TRIALS, fail = (double)o.fail / TRIALS;
                printf("P %.2f C %.2f true p %.2f: pass %.4f fail %.4f inconclusive %.4f "
                       "mean runs %.2f\n",
                       required[i], confidence[ci], p, pass, fail, (double)o.inconclusive / TRIALS,
                       o.mean_runs);
                if (p <= r.p0 && pass > fp)
                    fail_msg("false-pass rate %.4f above its bound %.4f (P %.2f, p %.2f)", pass, fp,
                             required[i], p);
                if (p >= r.p1 && fail > ff)
                    fail_msg("false-fail rate %.4f above its bound %.4f (P %.2f, p %.2f)", fail, ff,
                             required[i], p);
                /* an agent that always passes or always fails is decided,
                 * and well under --max-repeats */
                if (p == 0.0 || p == 1.0) {
                    assert_int_equal(o.inconclusive, 0);
                    assert_true(o.mean_runs < 20);
                }
                if (p <= r.p0 - 0.1 || p == 0.0)
                    assert_true(o.mean_runs < 10);
            }
            /* over these agents, the cost is well under the cap of 20 */
            if (runs_sum / (double)nrates >= 0.75 * 20)
                fail_msg("mean runs %.2f (P %.2f C %.2f)", runs_sum / (double)nrates, required[i],
                         confidence[ci]);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_defaults_and_bounds),
        cmocka_unit_test(test_simulated_error_rates),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
