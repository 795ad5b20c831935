/*
 * ananke compare: two recorded runs (docs/record.md) compared case by case
 * into a portable evidence pack (docs/compare.md). The library's
 * src/lib/compare/ layer implements it; it reads results (ananke/result.h)
 * and recordings, and writes only the pack.
 */
#ifndef ANANKE_COMPARE_H
#define ANANKE_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"

/*
 * The pack: compare-report.json
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
    int64_t now_ms; /* generated_at; 0: the clock */
    /* what was not read and why (a symbolic link in a recording), one
     * message a call; NULL: not said */
    void (*on_warning)(void *ud, const char *msg);
    void *warning_ud;
    /* Cases repeated on both sides (--repeat K, K > 1; docs/compare.md
     * "Repeated runs"): a drop in pass rate is a regression only when
     * Fisher's exact test finds it significant at `alpha` (0 or less:
     * 0.05), or with `gate_any_drop` (--gate-on any-drop) whatever its
     * p-value. `max_slowdown` (--max-slowdown; negative: not given): flag
     * a case whose median duration or token usage grew by more than this
     * share of the baseline's with confidence 1 - alpha. */
    double alpha;
    bool gate_any_drop;
    double max_slowdown;
};
/* clang-format off */
#define AN_COMPARE_OPTS_INIT                                                                  \
    {.report_id = NULL, .redact = NULL, .nredact = 0, .now_ms = 0, .alpha = 0.05,              \
     .gate_any_drop = false, .max_slowdown = -1}
/* clang-format on */

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
    const char *case_id; /* the JSONL id, else the test name */
    const char *title;
    const char *baseline_status; /* pass, fail, error, skip, missing, broken,
                                    filtered_out */
    const char *new_status;
    enum an_change change;
    enum an_gate gate;
    const char *new_root; /* the new side's root cause; NULL when it passed */
    /* both sides repeated (runs > 1): the pass counts, Fisher's p-value
     * (one-sided "worse" for a drop, else two-sided) and its verdict at
     * alpha. All 0 / false when not repeated. */
    bool repeated;
    unsigned baseline_runs, baseline_passes, new_runs, new_passes;
    double p_value;
    bool significant;
    bool slower, more_tokens; /* median duration / token usage beyond max_slowdown */
};
size_t an_compare_ncases(const struct an_compare *c);
/* The tool coverage changes (docs/compare.md "Tool coverage"), a line per
 * tool server of either run: "tool coverage: NAME 15% -> 23% (+8 points);
 * newly covered: a, b; no longer covered: c\n", names made safe for a
 * terminal. NULL when neither run has tool servers; else malloc'd, the
 * caller's. */
char *an_compare_tool_coverage_text(const struct an_compare *c);
void an_compare_case_at(const struct an_compare *c, size_t i, struct an_compare_case *out);

#endif
