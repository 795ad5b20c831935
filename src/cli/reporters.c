/* --reporter NAME[:PATH], shared by run, merge and comply, and run's -o
 * FILE: every name, extension, message and help line comes from the
 * library's reporter table (include/ananke/reporter.h). */
#include <stdio.h>
#include <string.h>

#include "ananke/reporter.h"
#include "cli.h"

static int add(struct cli_reporters *r, const struct an_reporter *row, const char *path, bool file)
{
    if (r->n == CLI_MAX_REPORTERS)
        return cli_usage_error("at most %d reporters", CLI_MAX_REPORTERS);
    r->v[r->n].row = row;
    r->v[r->n].path = path;
    r->v[r->n].file = file;
    r->n++;
    return 0;
}

/* The rows `comply` (or the run) can write, by name, into b: "a, b, c". */
static void names(char *b, size_t cap, bool comply)
{
    size_t len = 0;
    b[0] = '\0';
    for (size_t i = 0; i < an_reporter_count(); i++) {
        const struct an_reporter *row = an_reporter_at(i);
        if (comply ? !row->write_comply : row->write_comply && !row->write)
            continue;
        int n = snprintf(b + len, cap - len, "%s%s", len ? ", " : "", row->name);
        if (n < 0 || (size_t)n >= cap - len)
            break;
        len += (size_t)n;
    }
}

static int parse(struct cli_reporters *r, const char *spec, bool comply)
{
    const char *colon = strchr(spec, ':');
    size_t n = colon ? (size_t)(colon - spec) : strlen(spec);
    const struct an_reporter *row = an_reporter_find(spec, n);
    /* the run takes every row but comply's own; comply those it can write */
    if (row && (comply ? row->write_comply != NULL : row->write || !row->write_comply)) {
        if (!comply && !row->write)
            return 0; /* the console is always on */
        return add(r, row, colon && colon[1] ? colon + 1 : row->default_path, false);
    }
    char list[512];
    names(list, sizeof list, comply);
    return cli_usage_error("unknown reporter '%.*s'%s (available: %s)", (int)n, spec,
                           comply ? " for comply" : "", list);
}

int cli_reporter_add(struct cli_reporters *r, const char *spec)
{
    return parse(r, spec, false);
}

int cli_reporter_add_comply(struct cli_reporters *r, const char *spec)
{
    return parse(r, spec, true);
}

/* The extensions -o knows, into b: ".xml, .json, ..." (with_names:
 * ".xml (junit), ..."). */
static void extensions(char *b, size_t cap, bool with_names)
{
    size_t len = 0;
    b[0] = '\0';
    for (size_t i = 0; i < an_reporter_count(); i++) {
        const struct an_reporter *k = an_reporter_at(i);
        if (!k->ext || !k->write)
            continue;
        int m = snprintf(b + len, cap - len, "%s%s%s%s%s", len ? ", " : "", k->ext,
                         with_names ? " (" : "", with_names ? k->name : "", with_names ? ")" : "");
        if (m < 0 || (size_t)m >= cap - len)
            break;
        len += (size_t)m;
    }
}

void cli_reporters_ext_help(void)
{
    char list[1024];
    extensions(list, sizeof list, true);
    printf("%*s", 27, "");
    cli_help_wrap(27, 27, list);
}

int cli_reporter_output(struct cli_reporters *r, const char *path)
{
    const struct an_reporter *row = an_reporter_for_ext(path);
    if (row && row->write)
        return add(r, row, path, true);
    char list[512];
    extensions(list, sizeof list, false);
    return cli_usage_error("-o: cannot tell the format of '%s' from its extension (known: %s)",
                           path, list);
}

bool cli_reporters_no_messages(const struct cli_reporters *r)
{
    for (size_t i = 0; i < r->n; i++)
        if (!r->v[i].row->no_messages)
            return false;
    return true;
}

int cli_reporters_write(const struct cli_reporters *r, const struct an_run_result *res)
{
    int rc = 0;
    for (size_t i = 0; i < r->n; i++) {
        const struct an_reporter *row = r->v[i].row;
        struct an_err err = AN_ERR_INIT;
        int (*w)(const struct an_run_result *, const char *, struct an_err *) =
            r->v[i].file && row->write_file ? row->write_file : row->write;
        if (w(res, r->v[i].path, &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: cannot write %s report: %s\n", row->name,
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    return rc;
}

int cli_reporters_write_comply(const struct cli_reporters *r, const struct an_comply_result *res)
{
    int rc = 0;
    for (size_t i = 0; i < r->n; i++) {
        struct an_err err = AN_ERR_INIT;
        if (r->v[i].row->write_comply(res, r->v[i].path, &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: cannot write report: %s\n",
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    return rc;
}

void cli_reporters_help(bool comply)
{
    for (size_t i = 0; i < an_reporter_count(); i++) {
        const struct an_reporter *row = an_reporter_at(i);
        if (comply ? !row->write_comply : false)
            continue;
        /* the alias, and a default PATH that is not standard output */
        char help[512];
        bool dflt = row->default_path && strcmp(row->default_path, "-");
        snprintf(help, sizeof help, "%s%s%s%s%s%s", row->help ? row->help : "",
                 row->alias ? " (also " : "", row->alias ? row->alias : "", row->alias ? ")" : "",
                 dflt ? "; default PATH " : "", dflt ? row->default_path : "");
        printf("%*s%-10s", 29, "", row->name);
        cli_help_wrap(39, 39, help);
    }
}

void cli_reporters_list(void)
{
    for (size_t i = 0; i < an_reporter_count(); i++) {
        const struct an_reporter *row = an_reporter_at(i);
        if (!row->write && !row->write_comply)
            continue;
        puts(row->name);
        if (row->alias)
            puts(row->alias);
    }
}
