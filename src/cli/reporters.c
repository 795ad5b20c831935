/* --reporter NAME[:PATH], shared by run and merge. */
#include <stdio.h>
#include <string.h>

#include "ananke/report.h"
#include "cli.h"

/* A reporter writes the whole run to a path (a file, "-", or a directory). */
static const struct {
    const char *name;
    int (*write)(const struct an_run_result *, const char *, struct an_err *);
    const char *default_path;
} kinds[] = {
    {"junit", an_report_junit, "-"},
    {"json", an_report_json, "-"},
    {"tap", an_report_tap, "-"},
    {"html", an_report_html, "ananke-report"}, /* a directory: stdout makes no sense */
};

int cli_reporter_add(struct cli_reporters *r, const char *spec)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 7 && !strncmp(spec, "console", 7))
        return 0; /* the console is always on */
    if (r->n == CLI_MAX_REPORTERS)
        return cli_usage_error("at most %d reporters", CLI_MAX_REPORTERS);
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
        if (strlen(kinds[k].name) == n && !strncmp(spec, kinds[k].name, n)) {
            r->v[r->n].kind = k;
            r->v[r->n].path = colon && colon[1] ? colon + 1 : kinds[k].default_path;
            r->n++;
            return 0;
        }
    }
    return cli_usage_error("unknown reporter '%.*s' (available: console, junit, json, tap, html)",
                           (int)n, spec);
}

int cli_reporters_write(const struct cli_reporters *r, const struct an_run_result *res)
{
    int rc = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct an_err err = AN_ERR_INIT;
        if (kinds[r->v[i].kind].write(res, r->v[i].path, &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: cannot write %s report: %s\n", kinds[r->v[i].kind].name,
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    return rc;
}
