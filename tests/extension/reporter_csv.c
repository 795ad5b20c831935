/* The reporter checklist of docs/internals.md followed once: a reporter
 * that exists only in the tests, one file and one row. `ananke-ext run
 * --reporter csv[:PATH]` (or -o FILE.csv) writes "status,name,file" and
 * one line per test; tests/e2e/ext-reporter runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/reporter.h"

/* a field quoted when it holds a comma, a quote or a line break (RFC 4180) */
static void field(FILE *f, const char *s)
{
    if (!s || !s[strcspn(s, ",\"\r\n")]) {
        fputs(s ? s : "", f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static int write_csv(const struct an_run_result *r, const char *path, struct an_err *err)
{
    bool std = !path || !strcmp(path, "-");
    FILE *f = std ? stdout : fopen(path, "w");
    if (!f)
        return an_fail(err, AN_EIO, NULL, "cannot write '%s'", path);
    fputs("status,name,file\n", f);
    for (size_t i = 0; i < r->ntests; i++) {
        fprintf(f, "%s,", an_status_name(r->tests[i].status));
        field(f, r->tests[i].name);
        fputc(',', f);
        field(f, r->tests[i].file);
        fputc('\n', f);
    }
    if (std ? fflush(f) != 0 : fclose(f) != 0)
        return an_fail(err, AN_EIO, NULL, "cannot write '%s'", path);
    return AN_OK;
}

static const struct an_reporter csv = {
    .name = "csv",
    .help = "one line per test: status,name,file (an example under tests/extension/)",
    .default_path = "-",
    .ext = ".csv",
    .write = write_csv,
};

__attribute__((constructor)) static void register_csv(void)
{
    struct an_err err = AN_ERR_INIT;
    if (an_reporter_register(&csv, &err)) {
        fprintf(stderr, "reporter_csv: %s\n", err.msg);
        abort();
    }
}
