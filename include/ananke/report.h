/*
 * Reporters: each one a function from a run result to one output format.
 *
 * Reporters read results only (include/ananke/result.h); they never talk to
 * an agent or the scheduler. `path` NULL or "-" means standard output.
 */
#ifndef ANANKE_REPORT_H
#define ANANKE_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "ananke/err.h"
#include "ananke/result.h"

struct an_console_opts {
    bool color;    /* ANSI colour: the CLI decides (a terminal, NO_COLOR unset) */
    int verbose;   /* -v: each turn's message, tool calls with args/results, timings */
    size_t cut;    /* cut long texts to this many bytes (0: 300) */
};
#define AN_CONSOLE_OPTS_INIT {.color = false, .verbose = 0, .cut = 300}

/* Streaming console output: one line per test as it finishes, then the summary.
 * an_console_test writes one block per test and does not flush: the caller
 * decides how often (a terminal at once, a pipe in batches). */
void an_console_test(FILE *out, const struct an_test_result *t, const struct an_console_opts *o);
void an_console_summary(FILE *out, const struct an_run_result *r, const struct an_console_opts *o);

/* Whole-run reporters. Return AN_OK or AN_EIO with err filled. */
int an_report_junit(const struct an_run_result *r, const char *path, struct an_err *err);
int an_report_json(const struct an_run_result *r, const char *path, struct an_err *err);

/* A self-contained HTML report (no network, no external file) written to
 * DIR/index.html; DIR is created if missing. Everything an agent produced
 * is escaped. */
int an_report_html(const struct an_run_result *r, const char *dir, struct an_err *err);
/* The same page written to the file `path` ("-": standard output). */
int an_report_html_file(const struct an_run_result *r, const char *path, struct an_err *err);
/* TAP version 14, one test point per test. */
int an_report_tap(const struct an_run_result *r, const char *path, struct an_err *err);
/* Seed 002's NDJSON events, one JSON object a line: a "start" event, a
 * "result" event per test in run order, a "stability" event per repeated
 * test (--repeat > 1), and a "summary" event. docs/cli.md shows the shape. */
int an_report_jsonl(const struct an_run_result *r, const char *path, struct an_err *err);
/* A Markdown summary for a person or a pull request comment: the totals and
 * pass rate in a table, each failed or errored test with its findings or
 * error, the passed (and skipped) tests in tables with their durations. */
int an_report_markdown(const struct an_run_result *r, const char *path, struct an_err *err);
/* GitHub Actions workflow commands (`::error file=F,line=L,col=C,title=T::msg`), one per
 * failed assertion or error, pointing at the assertion's line; written to `out`. */
void an_report_github(FILE *out, const struct an_run_result *r);

/* Read a JSON report (an_report_json) and append its tests to `out`; the
 * run's start/end widen to cover it. Errors name the file (and line:col
 * for broken JSON). Used by `ananke merge`. */
int an_run_result_load(struct an_run_result *out, const char *path, struct an_err *err);

/* The result model as JSON (what the json reporter writes). New reference. */
json_t *an_run_result_to_json(const struct an_run_result *r);

/*
 * ananke compare: two recorded runs (docs/record.md) compared case by case
 * into a portable evidence pack (docs/compare.md): compare-report.json
 * (Report Contract v5), report.html, one case-<id>.html replay diff per
 * case, raw copies of the recorded files, derived assets, repro commands
 * and artifacts/manifest.json with every file's size and SHA-256.
 *
 * an_compare_load reads both runs and computes every verdict (pairing,
 * regressions, root causes, signals, gates); an_compare_write writes the
 * pack. The inputs are only ever read. The handle owns everything it
 * holds; strings handed out through an_compare_case_at are borrowed until
 * an_compare_free.
 */
enum an_gate { AN_GATE_NONE = 0, AN_GATE_REQUIRE_APPROVAL, AN_GATE_BLOCK };
const char *an_gate_name(enum an_gate g); /* "none", "require_approval", "block" */

enum an_change { AN_CHANGE_NONE = 0, AN_CHANGE_REGRESSION, AN_CHANGE_IMPROVEMENT };

struct an_compare_opts {
    const char *report_id;     /* NULL: derived from the two run ids and the time */
    const char *const *redact; /* --redact values: "pii", "secrets" or a regex */
    size_t nredact;
    int64_t now_ms;            /* generated_at; 0: the clock */
    /* what was not read and why (a symbolic link in a recording), one
     * message a call; NULL: not said */
    void (*on_warning)(void *ud, const char *msg);
    void *warning_ud;
};
#define AN_COMPARE_OPTS_INIT {.report_id = NULL, .redact = NULL, .nredact = 0, .now_ms = 0}

struct an_compare; /* opaque */

/* Read the recorded runs in baseline_dir and new_dir and compare them.
 * AN_ENOTFOUND / AN_EPARSE / AN_ESCHEMA when a directory is not a recorded
 * run, AN_EREGEX for a --redact regex that does not compile. */
int an_compare_load(struct an_compare **out, const char *baseline_dir, const char *new_dir,
                    const struct an_compare_opts *o, struct an_err *err);
/* Write the evidence pack into report_dir (created; a previous pack there
 * is replaced, any other non-empty directory refused). AN_EUSAGE when
 * report_dir is one of the inputs, inside one, or holds one; AN_EIO when a
 * file cannot be written. The pack appears whole or not at all. */
int an_compare_write(struct an_compare *c, const char *report_dir, struct an_err *err);
void an_compare_free(struct an_compare *c); /* NULL-safe */

/* One compared case, in report order (borrowed from c). */
struct an_compare_case {
    const char *case_id;         /* the JSONL id, else the test name */
    const char *title;
    const char *baseline_status; /* pass, fail, error, skip, missing, broken,
                                    filtered_out */
    const char *new_status;
    enum an_change change;
    enum an_gate gate;
    const char *new_root;        /* the new side's root cause; NULL when it passed */
};
size_t an_compare_ncases(const struct an_compare *c);
void an_compare_case_at(const struct an_compare *c, size_t i, struct an_compare_case *out);

#endif
