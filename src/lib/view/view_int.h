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

/* Fixed caps (docs/view.md "Caps"). */
#define VIEW_URL_MAX 2048               /* a request's path and query */
#define VIEW_QUERY_MAX 256              /* a search or filter value */
#define VIEW_CONN_MEMORY (32u << 10)    /* MHD's per-connection memory: headers */
#define VIEW_ERROR_PAGE_MAX (64u << 10) /* an error page or JSON error */
#define VIEW_SPARK_RUNS 50              /* runs in a test's sparkline */
#define VIEW_TESTS_PER_ROW 20           /* a run's tests, a comparison: 20 x max_rows */

/* The settable caps (the config's `view:`, ananke/view.h), resolved: no 0. */
struct view_caps {
    unsigned max_rows;
    size_t max_page_bytes, max_results_bytes;
    unsigned max_connections, idle_timeout_s;
};
/* What a list cut at max_rows says of itself ("truncated" in the JSON, a
 * note on the page). */
#define VIEW_ROWS_KEY "view.max_rows"

/* view_db.c. Each returns a new JSON value, or NULL when the thing asked
 * for does not exist (*missing) or the database failed (err). */
struct view_filter {
    const char *kind, *branch, *status, *q; /* "" or NULL: any */
    unsigned limit; /* rows at most: one more is asked for, to tell a cut list */
    bool cut;       /* set by the server: the answer was cut at limit */
};
json_t *view_runs(struct an_history *h, const struct view_filter *f, struct an_err *err);
/* {run, tests: [... failures first, each with findings], truncated?} */
json_t *view_run(struct an_history *h, const struct view_caps *caps, int64_t id, const char *q,
                 bool *missing, struct an_err *err);
/* {run, test, findings, history: [oldest first], recording: {...}|null} */
json_t *view_test(struct an_history *h, const struct view_caps *caps, int64_t run,
                  const char *test_id, bool *missing, struct an_err *err);
/* {a, b, tests: [{test_id, name, file, a, b, change}], changed, truncated?} */
bool view_run_exists(struct an_history *h, int64_t id);
json_t *view_compare(struct an_history *h, const struct view_caps *caps, int64_t a, int64_t b,
                     bool *missing, struct an_err *err);
/* Cut the array `rows` to `max` elements; true when it was longer. */
bool view_cut(json_t *rows, size_t max);

/* view_rec.c: the test (by name and file) of the recording in `dir`: its
 * tags and transcript, or NULL (with *why saying what was wrong) */
json_t *view_recording(const char *dir, size_t max_bytes, const char *name, const char *file,
                       const char **why);
/* Each test of `tests` (rows of a run) that the recording in `dir` gives
 * tags gets them as "tags"; nothing when there is no readable recording. */
void view_rec_tags(const char *dir, size_t max_bytes, json_t *tests);

/* Pages: the HTML of one answer appended to b. */
void view_page_open(struct an_buf *b, const char *title);
void view_page_close(struct an_buf *b);
extern const char view_style[];
/* cut: the list was cut at max_rows (a note names the key) */
void view_html_runs(struct an_buf *b, const json_t *runs, const struct view_filter *f);
void view_html_flaky(struct an_buf *b, const json_t *rows, bool cut);
/* <p class="note" id="cut">...view.max_rows...</p> */
void view_html_cut(struct an_buf *b, unsigned max_rows);
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
