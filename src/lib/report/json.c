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

/* Write `text` with `indent` spaces after each line break (JSON strings
 * hold no raw line break, so this only moves the structure), a line at a
 * time: a byte at a time (fputc) was a fifth of a 10,000-test report. */
static void put_indented(FILE *fp, const char *text, const char *indent)
{
    size_t ilen = strlen(indent);
    for (const char *p = text;;) {
        const char *nl = strchr(p, '\n');
        if (!nl) {
            fputs(p, fp);
            return;
        }
        fwrite(p, 1, (size_t)(nl - p + 1), fp);
        fwrite(indent, 1, ilen, fp);
        p = nl + 1;
    }
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
    char *text = an_json_dumps(head, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(head);
    size_t n = strlen(text);
    while (n && text[n - 1] != '}')
        n--;
    if (n)
        n--; /* drop the closing brace; the tests go before it */
    while (n && (text[n - 1] == '\n' || text[n - 1] == ' '))
        n--;
    fwrite(text, 1, n, f.fp);
    free(text);
    fputs(r->ntests ? ",\n  \"tests\": [\n    " : ",\n  \"tests\": []\n}", f.fp);
    for (size_t i = 0; i < r->ntests; i++) {
        json_t *t = an_result_json_test(r, &r->tests[i]);
        char *tt = an_json_dumps(t, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(t);
        if (i)
            fputs(",\n    ", f.fp);
        put_indented(f.fp, tt, "    ");
        free(tt);
    }
    if (r->ntests)
        fputs("\n  ]\n}", f.fp);
    int bad = ferror(f.fp);
    if (bad) {
        const char *why = ferror(f.fp) ? strerror(errno) : "cannot encode the result as JSON";
        an_fail(err, AN_EIO, NULL, "cannot write report '%s': %s", path ? path : "-", why);
        an_atomic_abort(&f);
        return AN_EIO;
    }
    /* a failed write sets the stream's error flag; commit reports it */
    fputc('\n', f.fp);
    return an_atomic_commit(&f, err);
}
