/*
 * Choosing what runs, the command line's share (docs/cli.md "Choosing what
 * runs"): PATH:LINE, --last-failed and --forbid-only, and the state a run
 * leaves in the project's .ananke/ for the next --last-failed. Tags, `only`
 * and --filter are the library's (an_run_select).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "ananke/nofollow.h"

#define STATE_DIR ".ananke"
#define STATE_FILE "last-run.json"
#define STATE_MAX ((size_t)64 << 20)

/* "./x" -> "x", as the loader names files. */
static const char *tidy(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    return p;
}

int cli_select_path(struct cli_select *sel, const char *arg, const char **path)
{
    *path = arg;
    struct stat st;
    const char *colon = strrchr(arg, ':');
    if (!colon || colon == arg || !colon[1] || stat(arg, &st) == 0)
        return 0; /* a name with a colon in it that exists is that name */
    for (const char *p = colon + 1; *p; p++)
        if (*p < '0' || *p > '9')
            return 0;
    char *file = an_xstrndup(arg, (size_t)(colon - arg));
    if (stat(file, &st) != 0) {
        free(file);
        return 0; /* the loader says "no such file" of the whole argument */
    }
    errno = 0;
    unsigned long line = strtoul(colon + 1, NULL, 10);
    int rc = 0;
    if (S_ISDIR(st.st_mode))
        rc = cli_usage_error("'%s': a line number names a line of a test file, and '%s' is a "
                             "directory",
                             arg, file);
    else if (errno || line == 0 || line > UINT_MAX)
        rc = cli_usage_error("'%s': lines are numbered from 1", arg);
    if (rc) {
        free(file);
        return rc;
    }
    sel->at = an_xrealloc(sel->at, (sel->nat + 1) * sizeof *sel->at);
    sel->at[sel->nat++] = (struct cli_at){file, (unsigned)line, arg};
    *path = file;
    return 0;
}

/* How many lines the file has (a last line without a newline counts). */
static unsigned count_lines(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    unsigned n = 0;
    int c, last = '\n';
    while ((c = getc(f)) != EOF) {
        if (c == '\n')
            n++;
        last = c;
    }
    fclose(f);
    return n + (last != '\n');
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n >= t && !strcmp(s + n - t, tail);
}

/* PATH:LINE: the test of a YAML file (any of its lines: a file is one
 * test), the JSONL case written on that line, the cases.json case whose
 * object holds it. A file named with a line runs only the tests its lines
 * name; the other files run whole. */
static int pick_lines(const struct cli_select *sel, const struct an_suite *s, bool *chosen)
{
    bool *restricted = an_xcalloc(s->ntests + 1, sizeof *restricted);
    bool *hit = an_xcalloc(s->ntests + 1, sizeof *hit);
    int rc = 0;
    for (size_t k = 0; k < sel->nat && !rc; k++) {
        const struct cli_at *at = &sel->at[k];
        const char *file = tidy(at->file);
        size_t first = s->ntests, last = 0;
        for (size_t i = 0; i < s->ntests; i++)
            if (s->tests[i].file && !strcmp(tidy(s->tests[i].file), file)) {
                restricted[i] = true;
                if (first == s->ntests)
                    first = i;
                last = i;
            }
        unsigned nlines = count_lines(at->file);
        if (at->line > nlines) {
            rc = cli_usage_error("%s: '%s' has %u line%s", at->arg, at->file, nlines,
                                 nlines == 1 ? "" : "s");
            break;
        }
        if (first == s->ntests) {
            rc = cli_usage_error("%s: '%s' holds no test", at->arg, at->file);
            break;
        }
        size_t pick = s->ntests;
        if (!s->tests[first].id) {
            pick = first; /* a YAML file is one test: any of its lines */
        } else if (ends_with(file, ".jsonl")) {
            for (size_t i = first; i <= last; i++)
                if (s->tests[i].loc.line == at->line)
                    pick = i;
        } else {
            for (size_t i = first; i <= last; i++)
                if (s->tests[i].loc.line <= at->line)
                    pick = i;
        }
        if (pick == s->ntests)
            rc = cli_usage_error("%s: no case %s line %u of '%s'", at->arg,
                                 ends_with(file, ".jsonl") ? "is written on" : "holds", at->line,
                                 at->file);
        else
            hit[pick] = true;
    }
    for (size_t i = 0; i < s->ntests && !rc; i++)
        chosen[i] = chosen[i] && (!restricted[i] || hit[i]);
    free(restricted);
    free(hit);
    return rc;
}

/* `file` as the project (the config's directory) names it: relative to it
 * when it lies inside, else absolute. A name that is no file (an -i
 * message) stays as it is. Caller frees. */
static char *project_path(const char *root, const char *file)
{
    char *rf = realpath(file, NULL), *rr = rf ? realpath(root, NULL) : NULL;
    char *out;
    size_t n = rr ? strlen(rr) : 0;
    if (!rf)
        out = an_xstrdup(tidy(file));
    else if (rr && !strncmp(rf, rr, n) && rf[n] == '/')
        out = an_xstrdup(rf + n + 1);
    else if (rr && !strcmp(rr, "/"))
        out = an_xstrdup(rf + 1);
    else
        out = an_xstrdup(rf);
    free(rf);
    free(rr);
    return out;
}

/* --last-failed: keep the tests the last run left in .ananke/last-run.json.
 * *none: that run had no failure (or none of them is loaded now). */
static int pick_failed(const struct an_suite *s, bool *chosen, bool *none)
{
    struct an_err err = AN_ERR_INIT;
    const char *root = s->config.dir;
    json_t *st = an_nf_json(root, STATE_DIR "/" STATE_FILE, 0, STATE_MAX, &err);
    if (!st && err.code == AN_ENOTFOUND) {
        printf("ananke: --last-failed: no previous run recorded in %s/%s/: running every "
               "selected test\n",
               root, STATE_DIR);
        return 0;
    }
    json_t *failed = json_object_get(st, "failed");
    if (!st || !json_is_array(failed)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        int rc = cli_usage_error("--last-failed: %s/%s/%s is not a run's state (%s): delete it "
                                 "to start afresh",
                                 root, STATE_DIR, STATE_FILE,
                                 st ? "no 'failed' list" : an_err_format(&err, buf, sizeof buf));
        json_decref(st);
        return rc;
    }
    size_t nfailed = json_array_size(failed), kept = 0;
    char *prev_file = NULL, *prev_rel = NULL;
    for (size_t i = 0; i < s->ntests; i++) {
        const struct an_test *t = &s->tests[i];
        if (!chosen[i])
            continue;
        if (!prev_file || strcmp(prev_file, t->file)) { /* a file's tests are together */
            free(prev_file);
            free(prev_rel);
            prev_file = an_xstrdup(t->file);
            prev_rel = project_path(root, t->file);
        }
        bool was = false;
        for (size_t k = 0; k < nfailed && !was; k++) {
            json_t *e = json_array_get(failed, k);
            const char *f = json_string_value(json_object_get(e, "file"));
            const char *n = json_string_value(json_object_get(e, "name"));
            was = f && n && !strcmp(f, prev_rel) && !strcmp(n, t->name);
        }
        chosen[i] = was;
        kept += was;
    }
    free(prev_file);
    free(prev_rel);
    if (!nfailed)
        printf("ananke: --last-failed: no test failed in the last run: nothing to run\n");
    else if (!kept)
        printf("ananke: --last-failed: none of the %zu test%s that failed in the last run %s "
               "selected now: nothing to run\n",
               nfailed, nfailed == 1 ? "" : "s", nfailed == 1 ? "is" : "are");
    *none = !kept;
    json_decref(st);
    return 0;
}

int cli_select_apply(struct cli_select *sel, const struct an_suite *s, struct an_run_opts *ro,
                     bool *nothing)
{
    *nothing = false;
    const char *ci = getenv("CI");
    bool forbid = sel->forbid_only > 0 || (sel->forbid_only < 0 && ci && *ci);
    size_t nonly = 0;
    for (size_t i = 0; forbid && i < s->ntests; i++) {
        const struct an_test *t = &s->tests[i];
        if (!t->only)
            continue;
        nonly++;
        fprintf(stderr,
                "%s:%u:%u: 'only: true' is forbidden here (%s): it would leave the "
                "other tests out of the run\n",
                t->only_loc.file ? t->only_loc.file : t->file, t->only_loc.line, t->only_loc.col,
                sel->forbid_only > 0 ? "--forbid-only" : "CI is set");
    }
    if (nonly) {
        fprintf(stderr, "ananke: %zu test%s marked 'only'; nothing was run\n", nonly,
                nonly == 1 ? "" : "s");
        return AN_EXIT_INVALID;
    }
    if (!sel->nat && !sel->last_failed)
        return 0;
    free(sel->chosen);
    sel->chosen = an_xcalloc(s->ntests + 1, sizeof *sel->chosen);
    for (size_t i = 0; i < s->ntests; i++)
        sel->chosen[i] = true;
    int rc = pick_lines(sel, s, sel->chosen);
    if (!rc && sel->last_failed)
        rc = pick_failed(s, sel->chosen, nothing);
    ro->chosen = sel->chosen;
    return rc;
}

/* The JSON text of the state: the tests that failed or errored (what fails
 * a run: an expected failure does not, a stale one does). */
static char *state_text(const struct an_suite *s, const struct an_run_result *r)
{
    json_t *failed = json_array();
    for (size_t i = 0; i < r->ntests; i++) {
        const struct an_test_result *t = &r->tests[i];
        bool failing = t->status == AN_STATUS_ERROR || t->status == AN_STATUS_INCONCLUSIVE ||
                       (t->status == AN_STATUS_FAIL && t->expect != AN_EXPECT_FAILED) ||
                       t->expect == AN_EXPECT_STALE;
        if (!failing || !t->name)
            continue;
        /* a result's file is already relative to the project (result_paths):
         * resolved against the working directory it would name another */
        const char *tf = t->file ? t->file : "";
        char *file = tf[0] == '/' ? project_path(s->config.dir, tf) : an_xstrdup(tidy(tf));
        json_array_append_new(failed, json_pack("{s:s,s:s}", "file", file, "name", t->name));
        free(file);
    }
    json_t *o = json_pack("{s:i,s:o}", "version", 1, "failed", failed);
    char *text = json_dumps(o, JSON_INDENT(2));
    json_decref(o);
    return text;
}

void cli_select_save(const struct an_suite *s, const struct an_run_result *r)
{
    char *text = state_text(s, r);
    const char *root = s->config.dir;
    char tmp[64];
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", STATE_FILE, (long)getpid());
    int dfd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC), sfd = -1, fd = -1;
    const char *why = NULL;
    if (dfd < 0)
        why = "the project directory cannot be opened";
    else if (mkdirat(dfd, STATE_DIR, 0777) && errno != EEXIST)
        why = "cannot create it";
    /* a link in its place is not followed: the state goes nowhere else */
    else if ((sfd = openat(dfd, STATE_DIR, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
        why = errno == ELOOP || errno == ENOTDIR ? "not a directory (a link is not followed)"
                                                 : "cannot open it";
    else if ((fd = openat(sfd, tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666)) <
             0)
        why = "cannot write in it";
    int err = errno;
    if (!why) {
        size_t n = strlen(text), off = 0;
        while (off < n) {
            ssize_t w = write(fd, text + off, n - off);
            if (w < 0 && errno == EINTR)
                continue;
            if (w <= 0) {
                why = "cannot write in it";
                err = errno;
                break;
            }
            off += (size_t)w;
        }
        if (close(fd) && !why) {
            why = "cannot write in it";
            err = errno;
        }
        if (!why && renameat(sfd, tmp, sfd, STATE_FILE)) {
            why = "cannot write in it";
            err = errno;
        }
        if (why)
            unlinkat(sfd, tmp, 0);
    }
    if (why)
        fprintf(stderr,
                "ananke: warning: the failures of this run are not saved for "
                "--last-failed: %s/%s/: %s (%s)\n",
                root, STATE_DIR, why, strerror(err));
    if (sfd >= 0)
        close(sfd);
    if (dfd >= 0)
        close(dfd);
    free(text);
}

void cli_select_release(struct cli_select *sel)
{
    for (size_t i = 0; i < sel->nat; i++)
        free(sel->at[i].file);
    free(sel->at);
    free(sel->tags);
    free(sel->xtags);
    free(sel->chosen);
    memset(sel, 0, sizeof *sel);
}

/* Whether the .gitignore text already ignores the state directory. */
static bool ignores_state(const char *text)
{
    static const char *const forms[] = {".ananke", ".ananke/", "/.ananke", "/.ananke/", NULL};
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        while (n && (line[n - 1] == '\r' || line[n - 1] == ' '))
            n--;
        for (size_t k = 0; forms[k]; k++)
            if (strlen(forms[k]) == n && !strncmp(line, forms[k], n))
                return true;
        if (!end)
            break;
        line = end + 1;
    }
    return false;
}

int cli_gitignore_state(const char *dir)
{
    char path[4200];
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;
    if (!strcmp(dir, "."))
        snprintf(path, sizeof path, ".gitignore");
    else
        snprintf(path, sizeof path, "%.*s/.gitignore", (int)dlen, dir);
    char *old = NULL;
    size_t oldlen = 0;
    struct an_err err = AN_ERR_INIT;
    int rc = an_nf_read_str(NULL, path, (size_t)16 << 20, &old, &oldlen, &err);
    if (rc && rc != AN_ENOTFOUND) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        fprintf(stderr, "ananke: warning: %s: add '" STATE_DIR "/' to it yourself\n",
                an_err_format(&err, buf, sizeof buf));
        return 0;
    }
    bool had = !rc;
    if (had && ignores_state(old)) {
        free(old);
        return 0;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0666);
    const char *sep = had && oldlen && old[oldlen - 1] != '\n' ? "\n" : "";
    free(old);
    char line[64];
    int n =
        snprintf(line, sizeof line, "%s# ananke's state (--last-failed)\n" STATE_DIR "/\n", sep);
    if (fd < 0 || write(fd, line, (size_t)n) != n) {
        fprintf(stderr, "ananke: cannot write '%s': %s\n", path, strerror(errno));
        if (fd >= 0)
            close(fd);
        return AN_EXIT_FAIL;
    }
    close(fd);
    printf(had ? "added " STATE_DIR "/ to %s\n" : "wrote %s\n", path);
    return 0;
}
