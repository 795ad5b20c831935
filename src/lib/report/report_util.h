/*
 * Helpers shared by the reporters: showing untrusted text safely, short
 * durations, a transcript summary, and writing a report file atomically.
 *
 * Everything an agent produced (assistant text, tool args and results,
 * error bodies) may hold invalid UTF-8 and control characters. A terminal
 * obeys escape sequences, so a hostile agent could repaint a CI log (print a
 * fake PASS line over its FAIL). an_rpt_text() therefore never emits a byte
 * below 0x20 (apart from the line breaks it adds itself), DEL, C1 controls or
 * bidi overrides, and replaces invalid bytes with U+FFFD. A CI log shows
 * this text too, so it never starts a line with GitHub's "::" (a workflow
 * command such as ::add-mask::, which the runner accepts after leading
 * blanks) nor holds "##[" anywhere (the runner's legacy command syntax):
 * the first ':' is written \u003a, the second '#' \u0023.
 */
#ifndef ANANKE_REPORT_UTIL_H
#define ANANKE_REPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "ananke/err.h"
#include "ananke/result.h"
#include "ananke/transcript.h"
#include "core/buf.h"

/* Length of the UTF-8 sequence at s[0..n) and its code point in *cp, or 0
 * when the bytes there are not valid UTF-8 (overlong, surrogate, cut). */
size_t an_rpt_utf8_next(const char *s, size_t n, uint32_t *cp);

/*
 * One character of a format's escaping: code point c, whose bytes are
 * s[0..k), appended to b as the format needs. `attr` is the format's one
 * switch (an XML attribute or a GitHub property rather than text).
 */
typedef void an_rpt_esc_fn(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr);
/* Append the NUL-terminated s (NULL: nothing) to b character by character
 * through `esc`; invalid UTF-8 bytes become U+FFFD and never reach it. */
void an_rpt_escape(struct an_buf *b, const char *s, an_rpt_esc_fn *esc, bool attr);

/*
 * Append s (NULL: nothing) as XML character data, or as an attribute value
 * when `attr`. XML 1.0 forbids most C0 controls (even as &#..; references)
 * and U+FFFE/U+FFFF, so those are dropped; invalid UTF-8 becomes U+FFFD. In
 * attributes, tab and line breaks are written as references because parsers
 * normalise raw ones to spaces. & < > " are always escaped; ' only when
 * `apos` (the JUnit reporter escapes it, the compliance JUnit has always
 * left it as is; both are valid XML).
 */
void an_rpt_xml(struct an_buf *b, const char *s, bool attr, bool apos);

/* Append s[0..n) to b as HTML text or a quoted attribute value: & < > " '
 * become entities, everything else is copied. s[0..n) must already be valid
 * UTF-8 without controls (an_rpt_text's output); the HTML reporters pass
 * untrusted text through an_rpt_text first. */
void an_rpt_html(struct an_buf *b, const char *s, size_t n);

/* A JSONL case's own name: t->name without its "ID — " prefix; NULL when
 * the case has none (its name is its id) or t is not a JSONL case (no id).
 * Borrowed from t. */
const char *an_rpt_case_name(const struct an_test_result *t);
/* How a report names a test, appended raw (the caller escapes): "[ID] NAME"
 * or "[ID]" for a JSONL case, the name (or "(unnamed)") for a YAML test. */
void an_rpt_title(struct an_buf *b, const struct an_test_result *t);
/* The UTC time of a Unix ms timestamp as ISO 8601 with milliseconds,
 * "2025-01-17T07:46:40.000Z"; "" for 0 (unknown) or what cannot be shown. */
const char *an_rpt_iso8601(char *buf, size_t cap, int64_t unix_ms);

/* Milliseconds as seconds for a time="" attribute; negative counts as 0. */
double an_rpt_secs(int64_t ms);

#define AN_RPT_QUOTE 0x1u /* wrap in "..." (the cut marker goes outside) */

/*
 * Append s[0..n) to b, made safe for a terminal. At most `cut` input bytes
 * are shown (0: all); a cut never splits a character and is marked with
 * "…" and the number of bytes left out. A newline becomes `nl_indent`'s
 * line break plus that indent when nl_indent is non-NULL (multi-line
 * messages stay readable), else the two characters \n. Other controls are
 * shown as \t, \r or \u001b.
 */
void an_rpt_text(struct an_buf *b, const char *s, size_t n, size_t cut, const char *nl_indent,
                 unsigned flags);
/* Same for a NUL-terminated string; NULL shows as nothing. */
void an_rpt_str(struct an_buf *b, const char *s, size_t cut, const char *nl_indent,
                unsigned flags);
/* A JSON value compactly, made safe and cut like an_rpt_text; NULL: "null". */
void an_rpt_json(struct an_buf *b, const json_t *v, size_t cut);

/* "812ms" below 10 s, "12.3s" from there on; negative shows as 0ms. */
const char *an_rpt_ms(char *buf, size_t cap, int64_t ms);

/*
 * The evidence of one turn as indented lines, each ending in '\n':
 * the tool calls `name(args) → result` (with "+Nms" offsets from the turn
 * start when `timing`), then the assistant text quoted. `indent` prefixes
 * every line. Used by the console (FAIL evidence, -v) and JUnit system-out.
 */
void an_rpt_turn_evidence(struct an_buf *b, const struct an_transcript *t, size_t turn,
                          const char *indent, size_t cut, bool timing);
/* "turn 2 user: \"message\" (812ms)" header line plus warnings and, when
 * `timing`, the evidence with offsets. The whole verbose block of a turn. */
void an_rpt_turn_block(struct an_buf *b, const struct an_transcript *t, size_t turn,
                       const char *indent, size_t cut);
/* The test's judgements (agent checks), one line each: "judge 'NAME'
 * passed (12 ms): reason"; `full` adds what each was shown and answered. */
void an_rpt_judgements(struct an_buf *b, const struct an_test_result *t, const char *indent,
                       size_t cut, bool full);
/* "turns 3–4 not run" lines for every run of consecutive not-run turns. */
void an_rpt_not_run(struct an_buf *b, const struct an_transcript *t, const char *indent);

/*
 * A dynamic test (t->dyn non-NULL; each helper does nothing for a static
 * test). Its conversation is the ordinary transcript: turn i's input is what
 * the simulated user said, and a checkpoint's reached_at_turn indexes it.
 * Every line these append starts with `indent` and ends in '\n'; text from
 * the agent, the simulator or the test file goes through an_rpt_str(), cut
 * at `cut` bytes (0: whole).
 */
/* Turns that ran (not-run turns left out): a dynamic test's total_turns. */
size_t an_rpt_turns_run(const struct an_transcript *t);
/* Checkpoints reached, of t->dyn->ncheckpoints. */
size_t an_rpt_dyn_reached(const struct an_dynamic_result *d);
/* How the test ended as words: "all reached", "max turns", ... */
const char *an_rpt_dyn_end(enum an_dyn_end e);
/* The outcome on one line, without indent or newline:
 * "3 turns, 2/3 checkpoints (max turns); missing: confirm", then
 * "; optional, not reached: ID, ..." when an optional one was missed. */
void an_rpt_dyn_outcome(struct an_buf *b, const struct an_test_result *t, size_t cut);
/* "simulator: NAME (seed 42)". */
void an_rpt_dyn_simulator(struct an_buf *b, const struct an_test_result *t, const char *indent,
                          size_t cut);
/* What goes right under turn `turn`'s block: "reached: ID (DESCRIPTION)"
 * per checkpoint reached there, each with an "  evidence: ..." line, then
 * 'simulator reasoning: "..."' when the simulator gave one for the turn. */
void an_rpt_dyn_turn(struct an_buf *b, const struct an_test_result *t, size_t turn,
                     const char *indent, size_t cut);
/* The simulator's reasoning for turns that were never sent (it ended the
 * conversation), as 'simulator after turn N: "..."'. */
void an_rpt_dyn_after(struct an_buf *b, const struct an_test_result *t, const char *indent,
                      size_t cut);
/* "checkpoints:" and one line per checkpoint: 'ID (DESCRIPTION): reached at
 * turn 1', '...: missing' (required, never reached) or '...: not reached
 * (optional)', each reached one with its evidence. */
void an_rpt_dyn_checkpoints(struct an_buf *b, const struct an_test_result *t, const char *indent,
                            size_t cut);
/* The whole dynamic test as text (JUnit system-out): the simulator, the
 * outcome, every turn's block (an_rpt_turn_block) with an_rpt_dyn_turn under
 * it, an_rpt_dyn_after and the checkpoints. */
void an_rpt_dyn_text(struct an_buf *b, const struct an_test_result *t, const char *indent,
                     size_t cut);

/*
 * A report file written atomically: the text goes to a temporary file in the
 * same directory and is renamed over `path` only once complete, so readers
 * (and a crashed run) never see half a report. path NULL or "-" writes to
 * standard output directly.
 */
struct an_rpt_file {
    FILE *fp;
    const char *path; /* borrowed; NULL for stdout */
    char *tmp;        /* temporary path (malloc), NULL for stdout */
};
/* AN_OK or AN_EIO with the path and strerror in err. */
int an_rpt_open(struct an_rpt_file *f, const char *path, struct an_err *err);
/* mkdir -p of path[0..n) (each prefix ending at a '/', then the whole);
 * AN_EIO naming the directory that could not be made. an_rpt_open makes a
 * report's directory this way. */
int an_rpt_mkdir_p(const char *path, size_t n, struct an_err *err);
/* Flush, close and rename into place; on any failure the temporary file is
 * removed and AN_EIO returned. Always releases f. */
int an_rpt_commit(struct an_rpt_file *f, struct an_err *err);
/* b's contents written to path through an_rpt_open and an_rpt_commit:
 * AN_OK or AN_EIO with the path in err. */
int an_rpt_write(const char *path, const struct an_buf *b, struct an_err *err);
/* Give up: close and remove the temporary file. NULL-safe on a zeroed f. */
void an_rpt_abort(struct an_rpt_file *f);

#endif
