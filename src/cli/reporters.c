/* --reporter NAME[:PATH], shared by run and merge, and run's -o FILE. */
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ananke/report.h"
#include "cli.h"

/* A reporter writes the whole run to a path (a file, "-", or a directory).
 * -r NAME picks a row by name (the `named` rows); -o FILE by the file's
 * extension (`ext`). */
static const struct {
    const char *name; /* -r NAME, and in messages */
    int (*write)(const struct an_run_result *, const char *, struct an_err *);
    const char *default_path;
    const char *ext;  /* -o FILE with this extension; NULL: none */
    bool named;
} kinds[] = {
    {"junit", an_report_junit, "-", ".xml", true},
    {"json", an_report_json, "-", ".json", true},
    {"tap", an_report_tap, "-", ".tap", true},
    /* a directory: stdout makes no sense */
    {"html", an_report_html, "ananke-report", NULL, true},
    {"html", an_report_html_file, NULL, ".html", false}, /* -o page.html: one file */
    {"jsonl", an_report_jsonl, "-", ".jsonl", true},
    {"markdown", an_report_markdown, "-", ".md", true},
    {"md", an_report_markdown, "-", NULL, true},
};
#define NKINDS (sizeof kinds / sizeof *kinds)

static int add(struct cli_reporters *r, size_t kind, const char *path)
{
    if (r->n == CLI_MAX_REPORTERS)
        return cli_usage_error("at most %d reporters", CLI_MAX_REPORTERS);
    r->v[r->n].kind = kind;
    r->v[r->n].path = path;
    r->n++;
    return 0;
}

/* -r html:PATH writes the page to PATH itself when PATH ends in ".html"
 * and is not an existing directory; any other PATH is a directory that gets
 * index.html (docs/cli.md). */
static bool html_file(const char *path)
{
    size_t n = strlen(path);
    struct stat st;
    if (n < 5 || strcasecmp(path + n - 5, ".html"))
        return false;
    return stat(path, &st) != 0 || !S_ISDIR(st.st_mode);
}

int cli_reporter_add(struct cli_reporters *r, const char *spec)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    if (n == 7 && !strncmp(spec, "console", 7))
        return 0; /* the console is always on */
    for (size_t k = 0; k < NKINDS; k++)
        if (kinds[k].named && strlen(kinds[k].name) == n && !strncmp(spec, kinds[k].name, n)) {
            const char *path = colon && colon[1] ? colon + 1 : kinds[k].default_path;
            if (kinds[k].write == an_report_html && html_file(path))
                while (kinds[k].write != an_report_html_file)
                    k++;
            return add(r, k, path);
        }
    return cli_usage_error("unknown reporter '%.*s' (available: console, junit, json, tap, html, "
                           "jsonl, markdown)",
                           (int)n, spec);
}

int cli_reporter_output(struct cli_reporters *r, const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    for (size_t k = 0; dot && k < NKINDS; k++)
        if (kinds[k].ext && !strcasecmp(dot, kinds[k].ext))
            return add(r, k, path);
    return cli_usage_error("-o: cannot tell the format of '%s' from its extension (known: "
                           ".jsonl, .json, .md, .html, .xml, .tap)",
                           path);
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
