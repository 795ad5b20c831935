/*
 * Running a loaded suite: which tests (filter, shard), how (parallel,
 * repeat, retries, timeouts, fail-fast), and the results.
 *
 * One thread drives every test through a libcurl multi handle: hundreds of
 * open SSE streams cost sockets and buffers, not threads. Hooks (child
 * processes that may take seconds) run on short-lived helper threads so
 * they never stall the streams. Turns inside a test stay sequential.
 *
 * Results are in selection order whatever the parallelism: `on_test` is
 * called for each test in that order, as soon as it and every test before
 * it have finished, so the console reads the same as a sequential run.
 * The suite is borrowed; the results are the caller's (ananke/result.h).
 */
#ifndef ANANKE_RUN_H
#define ANANKE_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/regex.h"
#include "ananke/result.h"

struct an_progress {
    size_t done, total; /* tests */
    size_t passed, failed, errors, skipped;
    size_t inconclusive; /* --repeat auto could not decide */
    size_t running;      /* runs in flight */
    int64_t elapsed_ms;
};

struct an_run_opts {
    unsigned parallel; /* runs at once; 0 or 1: one after another */
    /* event loops (threads) sharing the runs; 0: one per core, each with
     * at least 4 of `parallel` (at most 8); 1: one loop on the caller's
     * thread. Results and their order do not depend on it. */
    unsigned loops;
    unsigned repeat;  /* runs of each test; 0 or 1: once */
    double pass_rate; /* share of runs that must pass (0..1]; 0: 1.0 */
    /* --repeat auto (docs/statistics.md, run/sprt.h): each test runs again,
     * one run after another, only while a sequential test (Wald's SPRT on
     * pass_rate at `confidence`) cannot decide, at most max_repeats times;
     * an undecided test is INCONCLUSIVE. `repeat` is ignored. */
    bool adaptive;
    unsigned max_repeats;    /* 0: 20 */
    bool allow_inconclusive; /* an INCONCLUSIVE test does not stop --fail-fast */
    /* for the statistics of repeated tests (an_test_stats): copied into
     * the run result, which the reports read */
    unsigned pass_k; /* the k of pass@k and pass^k; 0: each test's runs */
    /* --confidence: of the adaptive verdicts and of the intervals, in
     * (0.5, 1); 0: AN_CONFIDENCE_DEFAULT (0.95) */
    double confidence;
    unsigned retries;              /* transport retries per turn */
    int64_t test_timeout_ms;       /* bound on one test (hooks and turns); 0: none */
    bool fail_fast;                /* start no new test after the first failure */
    const struct an_regex *filter; /* select tests whose name matches; NULL: all */
    /* --tag (any of them; none: every test) and --exclude-tag (none of them) */
    const char *const *tags;
    size_t ntags;
    const char *const *exclude_tags;
    size_t nexclude_tags;
    /* one per test of the suite: false leaves it out (PATH:LINE,
     * --last-failed); NULL: every test */
    const bool *chosen;
    unsigned shard_index; /* 1-based; with shard_count */
    unsigned shard_count; /* 0: no sharding */
    /* --expected-failures: marks the listed tests' results (and which
     * entries matched) as each finishes; NULL: no list */
    struct an_expected *expected;
    bool has_seed; /* --seed: given to simulators and judges */
    int64_t seed;
    /* What the reports will need once the run is over. Memory grows with
     * the number of tests only by this: without it a test's transcript is
     * dropped once on_test has seen it. */
    bool keep_transcripts; /* whole-run reports (json, junit, html ...) */
    bool keep_frames;      /* the raw protocol frames (-vv, --record) */
    bool keep_var_values;  /* hook variable values (an_test_result.var_values):
                              a recording writes them, redacted, and needs
                              them to find the secrets it must redact */
    /* with keep_transcripts: no report reads a turn's messages (every one's
     * an_reporter no_messages), so a test's last turn does not build them,
     * as without keep_transcripts */
    bool drop_messages;
    /* Secrets (docs/security.md): every result is redacted before on_test
     * or the caller sees it, with the config's credentials, each test's
     * secret-named hook variables and every match of these patterns
     * (`--redact`, an_regex syntax; an_run_suite fails with AN_EREGEX on
     * one that does not compile). */
    const char *const *redact;
    size_t nredact;
    /* --otlp (docs/otel.md): each test gets a trace id and each turn a span
     * id (an_test_result.trace_id, an_turn_rec.traceparent), and the
     * agent's requests carry the turn's W3C `traceparent` header (AG-UI,
     * A2A, OpenAI and http targets), with `tracestate` when not NULL */
    bool trace;
    const char *tracestate;
    /* Told what cannot be redacted as asked: a secret too short to search
     * for (once per secret), a pattern PCRE2 gave up on (at the end of the
     * run; the texts it gave up on were redacted whole). Called one at a
     * time, from any thread. NULL: nobody is told. */
    void (*warn)(const char *msg, void *ud);
    /* Called for each finished test, in selection order (borrowed). */
    void (*on_test)(const struct an_test_result *t, void *ud);
    /* Called whenever a run finishes or starts (for a progress line). */
    void (*on_progress)(const struct an_progress *p, void *ud);
    void *ud;
};
/* clang-format off */
#define AN_RUN_OPTS_INIT {.pass_rate = 1.0, .confidence = 0.95}
/* clang-format on */
#define AN_RUN_MAX_REPEATS 20 /* --max-repeats by default */

/* Which tests of `s` the options select, in order: when some test of the
 * suite says `only: true`, those alone; then the tags, the filter and
 * `chosen`; the shard last (test k of that list goes to shard k mod N + 1,
 * so shards differ in size by at most one and the split depends only on
 * the sorted file paths). Tests marked `skip` are selected like the
 * others: the run reports each as SKIP in its place without running it.
 * Fills idx (caller frees) and returns the count. */
size_t an_run_select(const struct an_suite *s, const struct an_run_opts *o, size_t **idx);

/* Run the selected tests into `out` (zeroed by the caller). Returns AN_OK
 * when the run happened, whatever the verdicts (each test result has its
 * own); an_cancelled() stops it early with what finished reported. */
int an_run_suite(const struct an_suite *s, const struct an_run_opts *opts,
                 struct an_run_result *out, struct an_err *err);

#endif
