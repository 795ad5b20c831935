/*
 * The HTML reporter's pieces (html.c is the page and its doc):
 *
 *   html.c         the page: head, header and filter bar, the tests in
 *                  order, the CSP; an_report_html, an_report_html_file
 *   html_assets.c  the page's only style sheet and script
 *   html_parts.c   untrusted text escaped for HTML, durations, percentages,
 *                  a finding, a list of notes
 *   html_turn.c    a turn of the timeline, a dynamic test's boxes
 *   html_test.c    one test's <details> section, and the report's order
 *   html_toolcov.c the tool servers' coverage tables
 *
 * Each function appends to b; nothing is owned. Every string from an
 * agent or a test file goes through html_text (an_rpt_text, then HTML
 * entities).
 */
#ifndef ANANKE_REPORT_HTML_INT_H
#define ANANKE_REPORT_HTML_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/result.h"
#include "core/buf.h"

/* One agent text, tool argument or result is shown up to this many bytes:
 * a page of many megabytes is slow to open and no one reads it. */
#define HTML_CUT 65536

/* html_assets.c. The script's SHA-256 goes into the page's CSP. */
extern const char html_script[];
extern const char html_style[];

/* html.c */
/* The page's start, up to <div class="wrap">: doctype, the CSP (no source
 * at all but inline styles, data: images and our script by its SHA-256),
 * <title> (already HTML: the caller escapes what it puts in), html_style
 * and more_style (NULL: none). */
void html_page_open(struct an_buf *b, const char *title, const char *more_style);
/* The page's end after its <main>: footer, our script, </html>. */
void html_page_close(struct an_buf *b);

/* html_parts.c */
/* Untrusted s[0..n), made safe and escaped. `multi` keeps line breaks and
 * tabs as they are (for pre-wrap blocks); otherwise they show as \n, \t. */
void html_text_n(struct an_buf *b, const char *s, size_t n, bool multi);
/* The same for a NUL-terminated s; NULL shows as nothing. */
void html_text(struct an_buf *b, const char *s, bool multi);
/* A JSON value pretty-printed; a string as its text. */
void html_json_pretty(struct an_buf *b, const json_t *v);
/* PASS, FAIL, ERROR, SKIP, XFAIL or STALE. */
const char *html_status_label(const struct an_test_result *t);
/* A duration as an_rpt_ms shows it. */
void html_ms(struct an_buf *b, int64_t v);
/* part/whole as a CSS percentage with one decimal ("12.5%"), 0..100. */
void html_pct(struct an_buf *b, int64_t part, int64_t whole);
/* <dt>key</dt><dd>val</dd> (val untrusted, kept multi-line); nothing when
 * val is NULL. `key` is trusted HTML. */
void html_kv(struct an_buf *b, const char *key, const char *val);
/* A failed assertion: title, kind, expected/actual/detail, location. */
void html_finding(struct an_buf *b, const struct an_finding *f);
/* v[0..n) as <ul class="notes CLS">; nothing when n is 0. */
void html_notes(struct an_buf *b, const char *cls, char **v, size_t n);

/* html_turn.c */
/* Turn i of t as an <li> of the timeline. */
void html_turn_item(struct an_buf *b, const struct an_test_result *t, size_t i);
/* A dynamic test's simulator, seed and outcome, above the turns. */
void html_dyn_box(struct an_buf *b, const struct an_test_result *t);
/* Every checkpoint: reached at which turn, with what evidence. */
void html_checkpoint_table(struct an_buf *b, const struct an_dynamic_result *d);

/* html_toolcov.c */
/* The run's tool coverage (an_run_result.tool_coverage) as a section of
 * one table per tool server; nothing when cov is NULL. */
void html_tool_coverage(struct an_buf *b, const json_t *cov);

/* html_test.c */
/* Test idx (0-based, its anchor is test-IDX+1) as one <details>. */
void html_test_section(struct an_buf *b, const struct an_run_result *r,
                       const struct an_test_result *t, size_t idx);
/* Where a test goes: 0 fails the run, 1 flaky, 2 passed, 3 skipped. */
int html_order_rank(const struct an_test_result *t);

#endif
