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
/* ananke compare (the evidence pack and the gate) is not a reporter: its API
 * is ananke/compare.h, included here for the callers that know it from here */
#include "ananke/compare.h"

struct an_console_opts {
    bool color;  /* ANSI colour: the CLI decides (a terminal, NO_COLOR unset) */
    int verbose; /* -v: each turn's message, tool calls with args/results, timings */
    size_t cut;  /* cut long texts to this many bytes (0: 300) */
    /* a repeated test's statistics (an_test_stats): --pass-k (0: its
     * runs) and --confidence (0: AN_CONFIDENCE_DEFAULT) */
    unsigned pass_k;
    double confidence;
};
/* clang-format off */
#define AN_CONSOLE_OPTS_INIT {.color = false, .verbose = 0, .cut = 300}
/* clang-format on */

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

/* an_run_result_load and an_run_result_to_json, the result model's JSON
 * form that the json reporter writes, are in ananke/result.h. */

#endif
