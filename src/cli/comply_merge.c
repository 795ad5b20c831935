/* ananke comply --merge: comply JSON results read back and joined into one
 * HTML page (docs/comply.md "One page for all"), as `ananke merge` joins
 * the results of runs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/comply.h"
#include "ananke/reporter.h"
#include "cli.h"

/* Only html joins several results; the others write one. */
static int check_reporters(const struct cli_reporters *reps, size_t n)
{
    if (!reps->n)
        return cli_usage_error("--merge: give the page to write, -r html:PATH");
    for (size_t i = 0; i < reps->n; i++)
        if (strcmp(reps->v[i].row->name, "html") && n > 1)
            return cli_usage_error("--merge: reporter '%s' writes one result; several are "
                                   "joined by html only",
                                   reps->v[i].row->name);
    return 0;
}

static int write_all(const struct cli_reporters *reps, const struct an_comply_result *const *rs,
                     size_t n)
{
    int rc = 0;
    for (size_t i = 0; i < reps->n; i++) {
        struct an_err err = AN_ERR_INIT;
        int w = strcmp(reps->v[i].row->name, "html")
                    ? reps->v[i].row->write_comply(rs[0], reps->v[i].path, &err)
                    : an_report_comply_html_all(rs, n, reps->v[i].path, &err);
        if (w) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: cannot write report: %s\n",
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    return rc;
}

int cli_comply_merge(const char *const *paths, size_t n, const struct cli_reporters *reps)
{
    if (!n)
        return cli_usage_error("--merge: give the comply JSON results to join");
    int rc = check_reporters(reps, n);
    if (rc)
        return rc;
    struct an_comply_result *res = an_xcalloc(n, sizeof *res);
    const struct an_comply_result **rs = an_xcalloc(n, sizeof *rs);
    size_t pass = 0, fail = 0, na = 0, rfail = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        struct an_err err = AN_ERR_INIT;
        rs[i] = &res[i];
        if (an_comply_result_load(&res[i], paths[i], &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_INVALID;
            break;
        }
        size_t p, f, a, r;
        an_comply_counts(&res[i], &p, &f, &a, &r);
        pass += p;
        fail += f;
        na += a;
        rfail += r;
    }
    if (!rc) {
        rc = write_all(reps, rs, n);
        fprintf(stderr,
                "comply --merge: %zu result%s, %zu passed, %zu failed, %zu NA, %zu "
                "required failed\n",
                n, n == 1 ? "" : "s", pass, fail, na, rfail);
        if (!rc && rfail)
            rc = AN_EXIT_FAIL;
    }
    for (size_t i = 0; i < n; i++)
        an_comply_result_release(&res[i]);
    free(res);
    free(rs);
    return rc;
}
