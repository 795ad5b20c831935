/* The reporter table (include/ananke/reporter.h): the library's rows, then
 * the registered ones. A new format is its writer's file plus one row here
 * (or one an_reporter_register() call outside the library). */
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ananke/report.h"
#include "ananke/reporter.h"

/* --reporter html:PATH writes the page to PATH itself when PATH ends in
 * ".html" and is not an existing directory; any other PATH is a directory
 * that gets index.html (docs/cli.md). */
static int html_at(const struct an_run_result *r, const char *path, struct an_err *err)
{
    size_t n = path ? strlen(path) : 0;
    struct stat st;
    if (n >= 5 && !strcasecmp(path + n - 5, ".html") &&
        (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)))
        return an_report_html_file(r, path, err);
    return an_report_html(r, path, err);
}

static const struct an_reporter builtin[] = {
    {.name = "console", .help = "a line per test as it ends, then the totals (always on)"},
    {.name = "junit",
     .help = "JUnit XML",
     .default_path = "-",
     .ext = ".xml",
     .write = an_report_junit,
     .write_comply = an_report_comply_junit,
     .no_messages = true},
    {.name = "json",
     .help = "the whole result as one JSON document",
     .default_path = "-",
     .ext = ".json",
     .write = an_report_json,
     .write_comply = an_report_comply_json},
    {.name = "tap",
     .help = "TAP version 14",
     .default_path = "-",
     .ext = ".tap",
     .write = an_report_tap,
     .no_messages = true},
    {.name = "html",
     .help = "a self-contained page: PATH itself when it ends in .html, else PATH/index.html",
     .default_path = "ananke-report", /* a directory: stdout makes no sense */
     .ext = ".html",
     .write = html_at,
     .write_file = an_report_html_file,
     .write_comply = an_report_comply_html,
     .no_messages = true},
    {.name = "jsonl",
     .help = "one JSON event a line",
     .default_path = "-",
     .ext = ".jsonl",
     .write = an_report_jsonl,
     .no_messages = true},
    {.name = "markdown",
     .alias = "md",
     .help = "a summary for a person or a pull request comment",
     .default_path = "-",
     .ext = ".md",
     .write = an_report_markdown,
     .write_comply = an_report_comply_md,
     .no_messages = true},
};
#define NBUILTIN (sizeof builtin / sizeof *builtin)

#define MAX_REGISTERED 64
static const struct an_reporter *registered[MAX_REGISTERED];
static size_t nregistered;

size_t an_reporter_count(void)
{
    return NBUILTIN + nregistered;
}

const struct an_reporter *an_reporter_at(size_t i)
{
    if (i < NBUILTIN)
        return &builtin[i];
    return i - NBUILTIN < nregistered ? registered[i - NBUILTIN] : NULL;
}

static bool named(const char *s, const char *name, size_t len)
{
    return s && strlen(s) == len && !strncmp(s, name, len);
}

const struct an_reporter *an_reporter_find(const char *name, size_t len)
{
    for (size_t i = 0; i < an_reporter_count(); i++) {
        const struct an_reporter *r = an_reporter_at(i);
        if (named(r->name, name, len) || named(r->alias, name, len))
            return r;
    }
    return NULL;
}

const struct an_reporter *an_reporter_for_ext(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *dot = strrchr(slash ? slash + 1 : path, '.');
    for (size_t i = 0; dot && i < an_reporter_count(); i++) {
        const struct an_reporter *r = an_reporter_at(i);
        if (r->ext && !strcasecmp(dot, r->ext))
            return r;
    }
    return NULL;
}

static bool well_formed(const char *s)
{
    if (!s || !*s)
        return false;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-'))
            return false;
    return true;
}

int an_reporter_register(const struct an_reporter *row, struct an_err *err)
{
    if (!row || !well_formed(row->name) || (row->alias && !well_formed(row->alias)))
        return an_fail(err, AN_EUSAGE, NULL,
                       "a reporter needs a name of lowercase letters, digits and '-'");
    if (!row->write && !row->write_comply)
        return an_fail(err, AN_EUSAGE, NULL, "reporter '%s' has no writer", row->name);
    const char *names[] = {row->name, row->alias};
    for (size_t k = 0; k < 2; k++)
        if (names[k] && an_reporter_find(names[k], strlen(names[k])))
            return an_fail(err, AN_EUSAGE, NULL, "reporter '%s' exists already", names[k]);
    if (nregistered == MAX_REGISTERED)
        return an_fail(err, AN_EUSAGE, NULL, "at most %d registered reporters", MAX_REGISTERED);
    registered[nregistered++] = row;
    return AN_OK;
}
