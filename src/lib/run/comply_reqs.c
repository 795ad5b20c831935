/*
 * The frozen requirement sets of a suite (docs/comply.md "Requirement
 * IDs"): `<suite>/requirements/<REVISION>.json`, one per spec revision,
 *
 *   {"protocol": "a2a", "revision": "0.3.0", "requirements": [
 *     {"id": "A2A-CARD-001", "level": "MUST", "title": "...", "section": "https://..."}]}
 *
 * --spec REV picks one; without it the newest revision the suite has
 * (compared number by number: 0.10 is newer than 0.9), but for a set marked
 * "default": false (a revision the suite does not cover yet: only --spec
 * names it). Every ID a selected
 * test names must be in the set, but for a test whose `revisions` leave the
 * revision out (it is NA in that run). After the run each agent gets the set's
 * rows, judged from its tests (an_comply_judge_reqs).
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "core/json.h"
#include "run/comply_plan_int.h"

#define MAX_REQS 4096

int an_comply_rev_cmp(const char *a, const char *b)
{
    while (*a && *b) {
        if (*a >= '0' && *a <= '9' && *b >= '0' && *b <= '9') {
            char *ea, *eb;
            unsigned long x = strtoul(a, &ea, 10), y = strtoul(b, &eb, 10);
            if (x != y)
                return x < y ? -1 : 1;
            a = ea;
            b = eb;
            continue;
        }
        if (*a != *b)
            return (unsigned char)*a < (unsigned char)*b ? -1 : 1;
        a++;
        b++;
    }
    return *a ? 1 : *b ? -1 : 0;
}

bool an_comply_rev_applies(const struct an_jsont *t, const char *rev)
{
    if (!t->nrevisions || !rev)
        return true;
    for (size_t i = 0; i < t->nrevisions; i++) {
        size_t n = strlen(t->revisions[i]);
        if (!strncmp(t->revisions[i], rev, n) && (rev[n] == '\0' || rev[n] == '.'))
            return true;
    }
    return false;
}

/* The suite directory: the first path that is a directory. */
static const char *suite_dir(const char *const *paths, size_t n)
{
    struct stat st;
    for (size_t i = 0; i < n; i++)
        if (!stat(paths[i], &st) && S_ISDIR(st.st_mode))
            return paths[i];
    return NULL;
}

/* Whether the set in dir/name may be the default: not "default": false. */
static bool may_default(const char *dir, const char *name)
{
    struct an_buf f = AN_BUF_INIT;
    an_buf_printf(&f, "%s/%s", dir, name);
    json_t *root = json_load_file(an_buf_cstr(&f), 0, NULL);
    an_buf_release(&f);
    bool ok = !json_is_false(json_object_get(root, "default"));
    json_decref(root);
    return ok;
}

/* The newest revision in dir that may be the default (malloc'd), or NULL
 * when it has none. */
static char *newest(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *best = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + n - 5, ".json") ||
            !may_default(dir, de->d_name))
            continue;
        char *rev = an_xstrndup(de->d_name, n - 5);
        if (!best || an_comply_rev_cmp(rev, best) > 0) {
            free(best);
            best = rev;
        } else {
            free(rev);
        }
    }
    closedir(d);
    return best;
}

static int load_rows(struct an_comply_plan *p, const char *file, const json_t *root)
{
    const json_t *rows = json_object_get(root, "requirements");
    if (!json_is_array(rows) || json_array_size(rows) > MAX_REQS)
        return an_comply_plan_fail(
            p, AN_ESCHEMA, "%s: 'requirements' must be an array (at most %d)", file, MAX_REQS);
    p->reqs = an_xcalloc(json_array_size(rows) + 1, sizeof *p->reqs);
    size_t i;
    const json_t *r;
    json_array_foreach(rows, i, r)
    {
        const char *id = an_json_str(r, "id"), *level = an_json_str(r, "level");
        if (!id || !*id || !level ||
            (strcmp(level, "MUST") && strcmp(level, "SHOULD") && strcmp(level, "MAY")))
            return an_comply_plan_fail(
                p, AN_ESCHEMA,
                "%s: requirements[%zu]: needs an 'id' and a 'level' (MUST, SHOULD or MAY)", file,
                i);
        for (size_t k = 0; k < p->nreqs; k++)
            if (!strcmp(p->reqs[k].id, id))
                return an_comply_plan_fail(p, AN_ESCHEMA, "%s: requirement '%s' is listed twice",
                                           file, id);
        struct an_comply_req *q = &p->reqs[p->nreqs++];
        q->id = an_xstrdup(id);
        q->level = an_xstrdup(level);
        q->title = an_xstrdup(an_json_str(r, "title") ? an_json_str(r, "title") : "");
        q->section = an_xstrdup(an_json_str(r, "section") ? an_json_str(r, "section") : "");
        q->status = AN_REQ_NOT_TESTED;
    }
    return 0;
}

/* Every requirement a test names is in the set. */
static int check_tests(struct an_comply_plan *p, const char *file)
{
    int rc = 0;
    for (size_t i = 0; i < p->ntests; i++) {
        const struct an_jsont *t = p->tests[i];
        for (size_t r = 0; an_comply_rev_applies(t, p->spec) && r < t->nrequirements; r++) {
            bool found = false;
            for (size_t k = 0; k < p->nreqs && !found; k++)
                found = !strcmp(p->reqs[k].id, t->requirements[r]);
            if (!found)
                rc = an_comply_plan_fail(p, AN_ESCHEMA,
                                         "%s: requirement '%s' is not in %s (revision %s)", t->file,
                                         t->requirements[r], file, p->spec);
        }
    }
    return rc;
}

int an_comply_reqs_load(struct an_comply_plan *p, const char *const *paths, size_t npaths,
                        const char *spec)
{
    const char *suite = suite_dir(paths, npaths);
    struct an_buf dir = AN_BUF_INIT, file = AN_BUF_INIT;
    int rc = 0;
    an_buf_printf(&dir, "%s/requirements", suite ? suite : ".");
    char *rev = spec ? an_xstrdup(spec) : suite ? newest(an_buf_cstr(&dir)) : NULL;
    if (!rev) {
        if (spec || !suite)
            rc = spec ? an_comply_plan_fail(p, AN_EUSAGE,
                                            "--spec %s: the suite has no requirement sets", spec)
                      : 0;
        goto done;
    }
    if (strchr(rev, '/') || rev[0] == '.') {
        rc = an_comply_plan_fail(p, AN_EUSAGE, "--spec '%s' is not a revision", rev);
        goto done;
    }
    an_buf_printf(&file, "%s/%s.json", an_buf_cstr(&dir), rev);
    json_error_t je;
    json_t *root = json_load_file(an_buf_cstr(&file), 0, &je);
    if (!root) {
        char *have = newest(an_buf_cstr(&dir));
        rc = an_comply_plan_fail(
            p, spec ? AN_EUSAGE : AN_ESCHEMA, "--spec %s: no requirement set %s (%s)%s%s", rev,
            an_buf_cstr(&file), je.text, have ? "; newest: " : "", have ? have : "");
        free(have);
        goto done;
    }
    p->spec = an_xstrdup(rev);
    rc = load_rows(p, an_buf_cstr(&file), root);
    json_decref(root);
    if (!rc)
        rc = check_tests(p, an_buf_cstr(&file));
done:
    free(rev);
    an_buf_release(&dir);
    an_buf_release(&file);
    return rc;
}

void an_comply_reqs_give(const struct an_comply_plan *p, struct an_comply_agent *a)
{
    if (!p->nreqs)
        return;
    a->reqs = an_xcalloc(p->nreqs, sizeof *a->reqs);
    a->nreqs = p->nreqs;
    for (size_t k = 0; k < p->nreqs; k++) {
        const struct an_comply_req *q = &p->reqs[k];
        a->reqs[k] = (struct an_comply_req){.id = an_xstrdup(q->id),
                                            .level = an_xstrdup(q->level),
                                            .title = an_xstrdup(q->title),
                                            .section = an_xstrdup(q->section)};
    }
    an_comply_judge_reqs(a);
}

void an_comply_reqs_free(struct an_comply_plan *p)
{
    for (size_t k = 0; k < p->nreqs; k++) {
        free(p->reqs[k].id);
        free(p->reqs[k].level);
        free(p->reqs[k].title);
        free(p->reqs[k].section);
    }
    free(p->reqs);
    free(p->spec);
}
