/* Inside `ananke view` (include/ananke/view.h):
 *
 *   view_server.c  the HTTP server: loopback only, the Host check, the
 *                  request caps, the routes, the security headers
 *   view_db.c      the read-only queries, each a JSON value that the API
 *                  serves as is and the pages render
 *   view_rec.c     a test's conversation from the recording of its run
 *   view_page.c    the page frame, the style sheet, the runs and flaky pages
 *   view_run.c     a run's page and the side-by-side comparison
 *   view_test.c    a test's page: counters, findings, the sparkline, the
 *                  conversation and tool calls
 *
 * Every string from the database or a recording reaches HTML through
 * html_text() (report/html_int.h): made safe, then entity-escaped.
 */
#ifndef ANANKE_VIEW_INT_H
#define ANANKE_VIEW_INT_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/buf.h"
#include "history/history_int.h"

/* Caps (docs/history.md "ananke view"). */
#define VIEW_URL_MAX 2048            /* a request's path and query */
#define VIEW_QUERY_MAX 256           /* a search or filter value */
#define VIEW_CONN_MEMORY (32u << 10) /* MHD's per-connection memory: headers */
#define VIEW_CONN_MAX 32             /* connections at once */
#define VIEW_CONN_TIMEOUT_S 15       /* an idle connection is closed */
#define VIEW_PAGE_MAX (32u << 20)    /* a page or JSON answer */
#define VIEW_RESULTS_MAX (64u << 20) /* a recording's results.json read */
#define VIEW_ROWS_MAX 500            /* rows of a list */
#define VIEW_SPARK_RUNS 50           /* runs in a test's sparkline */

/* view_db.c. Each returns a new JSON value, or NULL when the thing asked
 * for does not exist (*missing) or the database failed (err). */
struct view_filter {
    const char *kind, *branch, *status, *q; /* "" or NULL: any */
    unsigned limit;
};
json_t *view_runs(struct an_history *h, const struct view_filter *f, struct an_err *err);
/* {run, tests: [... failures first, each with findings]} */
json_t *view_run(struct an_history *h, int64_t id, const char *q, bool *missing,
                 struct an_err *err);
/* {run, test, findings, history: [oldest first], recording: {...}|null} */
json_t *view_test(struct an_history *h, int64_t run, const char *test_id, bool *missing,
                  struct an_err *err);
/* {a, b, tests: [{test_id, name, file, a, b, change}], counts} */
bool view_run_exists(struct an_history *h, int64_t id);
json_t *view_compare(struct an_history *h, int64_t a, int64_t b, bool *missing, struct an_err *err);

/* view_rec.c: the test (by name and file) of the recording in `dir`: its
 * tags and transcript, or NULL (with *why saying what was wrong) */
json_t *view_recording(const char *dir, const char *name, const char *file, const char **why);
/* Each test of `tests` (rows of a run) that the recording in `dir` gives
 * tags gets them as "tags"; nothing when there is no readable recording. */
void view_rec_tags(const char *dir, json_t *tests);

/* Pages: the HTML of one answer appended to b. */
void view_page_open(struct an_buf *b, const char *title);
void view_page_close(struct an_buf *b);
extern const char view_style[];
void view_html_runs(struct an_buf *b, const json_t *runs, const struct view_filter *f);
void view_html_flaky(struct an_buf *b, const json_t *rows);
void view_html_run(struct an_buf *b, const json_t *run, const char *q);
void view_html_compare(struct an_buf *b, const json_t *cmp);
void view_html_test(struct an_buf *b, const json_t *test);
void view_html_error(struct an_buf *b, unsigned status, const char *msg);

/* Helpers for the pages (view_page.c). */
const char *view_str(const json_t *o, const char *k);
json_int_t view_int(const json_t *o, const char *k);
/* <span class="o-OUTCOME">OUTCOME</span>, the outcome checked against the known ones. */
void view_outcome(struct an_buf *b, const char *outcome);

#endif
