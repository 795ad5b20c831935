/*
 * JSON reporter: the whole result model, for machines (`ananke merge`,
 * dashboards, scripts), pretty-printed with a 2-space indent. The shape is
 * core/result_json.c's, which also serialises it for the recorder.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "core/json.h"
#include "core/result_json.h"
#include "report/report_util.h"

/* the i-th test's element of "tests" */
static json_t *test_at(void *ud, size_t i)
{
    const struct an_run_result *r = ud;
    return an_result_json_test(r, &r->tests[i]);
}

int an_report_json(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    /* Streamed a test at a time, so a run of 10000 tests never holds the
     * whole document in memory; the bytes are those of dumping it at once. */
    json_t *head = an_result_json_head(r);
    (void)an_json_stream_object(f.fp, head, "tests", r->ntests, test_at, (void *)r);
    json_decref(head);
    int bad = ferror(f.fp);
    if (bad) {
        const char *why = ferror(f.fp) ? strerror(errno) : "cannot encode the result as JSON";
        an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path ? path : "-", why);
        an_atomic_abort(&f);
        return AN_EIO;
    }
    /* a failed write sets the stream's error flag; commit reports it */
    return an_atomic_commit(&f, err);
}
