/*
 * Results: plain data between the runner and every reporter.
 *
 * A failed assertion (a finding) and a broken run (an error: agent down,
 * stream cut, hook crashed) stay apart: a test with findings is FAIL, a test
 * with an error is ERROR, and reporters keep the two apart (JUnit
 * <failure> vs <error>).
 *
 * Ownership: results own copies of every string they hold, so they outlive
 * the suite they came from (reports may be written after it is freed, and
 * `ananke merge` builds results from JSON with no suite at all).
 * an_run_result_release() frees everything.
 */
#ifndef ANANKE_RESULT_H
#define ANANKE_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/transcript.h"

struct an_finding {
    const char *kind; /* static: "tools.forbid", "tools.require", "tools.require.after",
                         "tools.forbid_calls", "text.must_match", "text.must_not_match",
                         "timing.max_duration_ms", "timing.max_idle_ms", "timing.max_gap_ms",
                         typed checks: "check.contains", "check.not_contains",
                         "check.equals", "check.regex", "check.json_path", "check.type",
                         "check.tool_called", "check.tool_result", "check.script" */
    char *assertion;  /* human label: Tool "charge_card" must be called */
    char *expected;   /* "exactly 1 call" */
    char *actual;     /* "2 calls" */
    char *detail;     /* optional context (NULL) */
    int turn;         /* 0-based turn, or -1 for test level */
    char *file;       /* where the assertion was declared (copy; may be NULL) */
    unsigned line, col;
};

struct an_findings {
    struct an_finding *v;
    size_t n, cap;
};

/* Append a finding; strings are copied (NULL allowed for detail/file). */
struct an_finding *an_findings_add(struct an_findings *f, const char *kind, int turn,
                                   const char *file, unsigned line, unsigned col,
                                   const char *assertion, const char *expected, const char *actual,
                                   const char *detail);
void an_findings_release(struct an_findings *f);

/* SKIP: the test was selected but says it must not run (`skip: true` or
 * `skip: "reason"`); it has no run, no hooks, no transcript and duration 0, and
 * never fails the run. */
/* INCONCLUSIVE: adaptive repeats (--repeat auto) ran --max-repeats runs and
 * could not decide between PASS and FAIL at the asked confidence
 * (docs/statistics.md); it fails the run unless --allow-inconclusive. */
enum an_status {
    AN_STATUS_PASS = 0,
    AN_STATUS_FAIL,
    AN_STATUS_ERROR,
    AN_STATUS_SKIP,
    AN_STATUS_INCONCLUSIVE,
};
/* "pass", "fail", "error", "skip", "inconclusive" */
const char *an_status_name(enum an_status s);

/* --expected-failures (docs/cli.md): how a test on the list came out. A
 * listed test that fails (FAIL) failed as expected and does not fail the
 * run; one that passes is stale and does fail it, so the list can only
 * shrink. An ERROR stays an error and an INCONCLUSIVE test inconclusive:
 * the list is about verdicts. */
enum an_expect { AN_EXPECT_NONE = 0, AN_EXPECT_FAILED, AN_EXPECT_STALE };
const char *an_expect_name(enum an_expect e); /* "", "expected failure", "stale expected failure" */

/* How often a repeated test passes (--repeat): stable 100 %, mostly stable
 * >= 80 %, unstable >= 50 %, highly unstable below. */
enum an_stability {
    AN_STABLE = 0,
    AN_MOSTLY_STABLE,
    AN_UNSTABLE,
    AN_HIGHLY_UNSTABLE,
};
enum an_stability an_stability_of(unsigned passes, unsigned runs);
const char *an_stability_name(enum an_stability s); /* "stable", "mostly stable", ... */

/* An `agent` check (a judge): what the judge was shown and what it answered,
 * kept whether it passed or not, so a report can show why. */
struct an_judgement {
    char *agent; /* the `agents:` name */
    int turn;    /* 0-based turn, or -1 for the test level */
    char *file;  /* where the check is written (may be NULL) */
    unsigned line, col;
    char *shown;  /* the message the judge was sent */
    char *answer; /* what it answered, as text; NULL: nothing came back */
    int verdict;  /* 1 passed, 0 failed, -1 no usable answer (the test errors) */
    char *reason; /* the judge's reason, or why its answer was unusable */
    int64_t duration_ms;
    int64_t start_ms; /* Unix ms the judge was asked (for traces); 0: unknown */
    char span_id[17]; /* --otlp: the judge call's span, sent to the judge in its
                         traceparent (docs/otel.md); "": none */
};

struct an_judgements {
    struct an_judgement *v;
    size_t n, cap;
};
struct an_judgement *an_judgements_add(struct an_judgements *j); /* zeroed */
/* Move every entry of `from` to the end of `to` (from is left empty). */
void an_judgements_move(struct an_judgements *to, struct an_judgements *from);
void an_judgements_release(struct an_judgements *j);

/* A checkpoint of a dynamic test, as the run left it. */
struct an_checkpoint_result {
    char *id;
    char *description; /* NULL = none */
    bool required;
    int reached_at_turn; /* 0-based turn where it was reached; -1 = never */
    char *evidence;      /* what satisfied it (text excerpt, tool calls, judge's reason) */
    char *missed;        /* never reached: the check that failed the last time it was
                            judged, and why ("turn 3: Output must contain \"ok\": not
                            found in ..."); NULL when reached or never judged */
};

/* How a dynamic test ended. */
enum an_dyn_end {
    AN_DYN_NONE = 0,    /* a static test */
    AN_DYN_ALL_REACHED, /* every required checkpoint reached: pass */
    AN_DYN_GOAL,        /* the simulator said the goal is achieved */
    AN_DYN_MAX_TURNS,   /* max_turns without every required checkpoint: fail */
    AN_DYN_TIMEOUT,     /* the case's timeout: fail */
    AN_DYN_BROKEN,      /* a simulator or agent error: error */
};
const char *an_dyn_end_name(enum an_dyn_end e); /* "all_reached", "goal_achieved", ... */
struct an_dynamic_result;
void an_dynamic_result_free(struct an_dynamic_result *d); /* NULL-safe */

struct an_dynamic_result {
    enum an_dyn_end end;
    struct an_checkpoint_result *checkpoints;
    size_t ncheckpoints;
    char *simulator;  /* the simulator agent's name */
    char **reasoning; /* the simulator's reasoning per turn (NULL entries allowed) */
    size_t nreasoning;
    int64_t seed; /* --seed given to the simulator; -1 = none */
    /* when the simulator was asked for each turn's message (Unix ms, for
     * traces), indexed by turn like `reasoning`; 0: not asked */
    int64_t *sim_start_ms, *sim_end_ms;
    char (*sim_span_id)[17]; /* --otlp: each call's span, sent in its traceparent; "": none */
    size_t nsim;
};

/* One run of a repeated test: enough to list the runs in a report. */
struct an_attempt {
    enum an_status status;
    int64_t duration_ms;
    char *summary;        /* first finding's label or the error message; NULL on pass */
    int64_t total_tokens; /* the run's usage total_tokens, summed; -1: not reported */
};

/* What the redaction of one result replaced (docs/record.md): a secret's
 * label (never its value), whether in the raw frames or elsewhere in the
 * result, and how often. */
struct an_redacted {
    char *what;
    bool frames;
    size_t count;
};

struct an_test_result {
    char *name;
    char *file;
    /* the test's an_test.file_sum: borrowed from the suite that ran it,
     * valid while it lives (the history writes it as file_digest); NULL:
     * not known (replay, merge, comply: the history reads the file) */
    const unsigned char *file_sum;
    char *id;        /* a JSONL case's id (name is "ID — NAME"); NULL for YAML */
    size_t nhistory; /* messages sent before the first turn (JSONL input arrays) */
    char **tags;     /* the test's `tags`, in the order written */
    size_t ntags;
    char *skip_reason; /* SKIP: the reason `skip:` gave; NULL: none */
    enum an_status status;
    int64_t start_ms, end_ms; /* Unix ms, test start (before hooks) and end */
    struct an_findings findings;
    char *error;      /* ERROR: what broke, with where */
    int error_code;   /* enum an_code */
    int error_turn;   /* 0-based turn of the error, -1 = not in a turn */
    char **var_names; /* hook variables (names only: values may be secret) */
    size_t nvar_names;
    char **var_values; /* their values, in the same order, only when the run
                          was asked to keep them (an_run_opts.keep_var_values:
                          a recording); else NULL. No reporter writes them. */
    struct an_transcript transcript;
    struct an_judgements judgements; /* agent checks, in the order they ran */
    struct an_dynamic_result *dyn;   /* a dynamic test's checkpoints and end; NULL = static */
    bool timed_out;                  /* --timeout cut the test (status is ERROR) */
    enum an_expect expect;           /* --expected-failures: what the listed test did */
    char *expect_reason;             /* the list's reason for it; NULL: none given */
    /* --repeat: every run of the test; the findings, error and transcript
     * above are those of the first run that did not pass (else the last).
     * runs == 0 means the test was not repeated (one run). With --repeat
     * auto, runs is how many the rule needed (at most max_runs). */
    unsigned runs, passes;
    unsigned max_runs; /* --repeat auto: --max-repeats; 0: not adaptive */
    struct an_attempt *attempts;
    /* Every string of a run's result has had its known secrets replaced by
     * "[redacted]" before any reporter sees it (docs/security.md); what was
     * replaced, for a recording's redactions.json. */
    struct an_redacted *redacted;
    size_t nredacted;
    /* --otlp (docs/otel.md): the test's trace and its own span, lowercase
     * hex; "" when the run exports no traces. Each turn's span is in its
     * an_turn_rec.traceparent. */
    char trace_id[33];
    char span_id[17];
};

/* passes / runs, 1.0 for a test that was not repeated and passed. */
double an_test_pass_rate(const struct an_test_result *t);

/* The statistics of a repeated test (docs/statistics.md): what the json
 * reporter writes as "stats" and every reporter shows. */
#define AN_CONFIDENCE_DEFAULT 0.95
struct an_test_stats {
    unsigned runs, passes;
    double pass_rate;       /* passes / runs */
    unsigned k;             /* the k of pass@k and pass^k (--pass-k; default: runs) */
    double pass_at_k;       /* unbiased estimate that 1 of k runs passes; NAN: k > runs */
    double pass_hat_k;      /* ... that all k runs pass (pass^k); NAN: k > runs */
    double confidence;      /* of the interval (--confidence) */
    double ci_low, ci_high; /* an interval for the true pass rate */
    const char *ci_method;  /* static: "clopper-pearson" (runs < 10) or "wilson" */
    bool flaky;             /* an_test_flaky() */
};
/* Fill *s for a repeated test (runs > 0) and return true; false for a test
 * that ran once or was skipped. pass_k 0: k = runs; confidence outside
 * (0, 1): AN_CONFIDENCE_DEFAULT. */
bool an_test_stats(const struct an_test_result *t, unsigned pass_k, double confidence,
                   struct an_test_stats *s);
/* Flaky: a repeated test whose runs disagree, some passing and some not
 * (a state, not a guess: it holds whatever its pass rate). */
bool an_test_flaky(const struct an_test_result *t);

/* The list: test names (a JSONL case's id or its whole name), each with the
 * reason given (NULL: none) and where it was written. */
struct an_expected {
    char **names;
    char **reasons;
    char **where; /* "FILE:LINE:COL" */
    bool *used;   /* a test of the run matched it */
    size_t n;
};
void an_expected_release(struct an_expected *x);
/* Mark `t` when the list names it (t->expect, t->expect_reason). */
void an_expected_apply(struct an_expected *x, struct an_test_result *t);

struct an_run_result {
    struct an_test_result *tests;
    size_t ntests, cap;
    int64_t start_ms, end_ms;
    char *config_path; /* relative to project_dir, as every path of a result */
    /* The project's directory as an absolute path, for what must point at a
     * file from elsewhere (GitHub annotations are relative to the
     * repository); no report writes it. NULL: unknown (`ananke merge`). */
    char *project_dir;
    /* how the run was made, for reports (0 / NULL when not given) */
    unsigned parallel; /* --parallel */
    unsigned repeat;   /* --repeat */
    double pass_rate;  /* --pass-rate (default 1.0) */
    /* --repeat auto (adaptive repeats, run/sprt.h): repeat is 0 then */
    bool adaptive;
    unsigned max_repeats; /* --max-repeats */
    char *shard;          /* --shard "I/N" */
    char *filter;         /* --filter REGEX */
    size_t not_run;       /* tests never started (--fail-fast) */
    unsigned pass_k;      /* --pass-k (0: each test's runs) */
    /* --confidence, of the adaptive verdicts and of the intervals (0:
     * AN_CONFIDENCE_DEFAULT) */
    double confidence;
    bool fail_on_flaky; /* --fail-on-flaky: a flaky test fails the run */
    /* The tool servers' coverage (an_tools_coverage(), docs/tools.md "Tool
     * coverage"): {SERVER: {"exposed": [names], "called": {NAME: {"calls",
     * "tests", "argument_keys", "mocked"}}, "ratio"}}. Owned (one
     * reference); NULL when the config names no tool server. */
    json_t *tool_coverage;
};

struct an_test_result *an_run_result_add(struct an_run_result *r);
/* Room for n more tests, exactly: a run that knows its count does not
 * leave up to half of a doubled array unused (docs/performance.md). */
void an_run_result_reserve(struct an_run_result *r, size_t n);
void an_test_result_release(struct an_test_result *t);
void an_run_result_release(struct an_run_result *r);
/* How many tests ended how. Every test is in exactly one of passed, failed,
 * errors, skipped and inconclusive; timeouts are the errors that --timeout cut (a subset
 * of errors, for the formats that show them apart). */
struct an_counts {
    size_t passed, failed, errors, skipped;
    size_t inconclusive; /* --repeat auto could not decide */
    size_t timeouts;
    size_t xfailed; /* failed as --expected-failures expects (a subset of failed) */
    size_t stale;   /* listed there, yet passed (a subset of passed) */
    size_t flaky;   /* repeated tests whose runs disagree (an_test_flaky), any status */
};
/* Whether the run failed: a failure not expected, an error, a stale
 * expected failure or an inconclusive test (--allow-inconclusive: the
 * caller zeroes `inconclusive` first; not-run tests are the caller's to
 * add). */
bool an_counts_failing(const struct an_counts *c);
struct an_counts an_run_result_counts(const struct an_run_result *r);
/* --repeat auto: the runs adaptive mode did not need, summed over the
 * tests: max_runs - runs for each test the rule decided (PASS, FAIL or
 * ERROR; an INCONCLUSIVE test saved nothing). */
size_t an_run_result_runs_saved(const struct an_run_result *r);
/* The agent calls the run spent: every run of every test that ran (one
 * run = one conversation with the agent under test, whatever its turns;
 * helper agents such as judges are not counted). */
size_t an_run_result_agent_calls(const struct an_run_result *r);
/* passed / (passed + failed + errors + inconclusive): skipped tests ran
 * nothing and are left out; 0 when no test ran. */
double an_counts_pass_rate(const struct an_counts *c);

/* The result model as JSON: what the json reporter writes and `ananke run
 * --record` keeps as results.json (src/lib/core/result_json.c documents the
 * shape). New reference. */
json_t *an_run_result_to_json(const struct an_run_result *r);
/* Read a JSON report (an_report_json) and append its tests to `out`; the
 * run's start/end widen to cover it. Errors name the file (and line:col
 * for broken JSON). Used by `ananke merge`, replay and compare. */
int an_run_result_load(struct an_run_result *out, const char *path, struct an_err *err);

#endif
