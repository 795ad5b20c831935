/*
 * The frozen requirement sets of a suite (docs/comply.md "Requirement
 * IDs"): `<suite>/requirements/<REVISION>.json`, one per spec revision,
 *
 *   {"protocol": "a2a", "revision": "0.3.0", "requirements": [
 *     {"id": "A2A-CARD-001", "level": "MUST", "title": "...", "section": "https://..."}]}
 *
 * --spec REV picks one, and every agent is judged at it. Without it every
 * set is loaded; the run's revision is the newest (compared number by
 * number: 0.10 is newer than 0.9), but for a set marked "default": false (a
 * revision the suite does not cover yet), and an agent whose probe says
 * which revision it speaks (MCP: a->spec) is judged at that one
 * (an_comply_reqs_pick): negotiating down is not a failure. Every ID a
 * test of a set's revision names must be in the set (a test whose
 * `revisions` leave it out is NA at that revision). After the run each
 * agent gets its set's rows, judged from its tests (an_comply_judge_reqs).
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

/* The newest revision in dir (malloc'd), or NULL: said when --spec names
 * none of them. */
static char *newest(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return NULL;
    char *best = NULL;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + n - 5, ".json"))
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

/* Whether a set may be the default: not "default": false. */
static bool may_default(const json_t *root)
{
    return !json_is_false(json_object_get(root, "default"));
}

static int load_rows(struct an_comply_plan *p, struct an_comply_reqset *set, const char *file,
                     const json_t *root)
{
    const json_t *rows = json_object_get(root, "requirements");
    if (!json_is_array(rows) || json_array_size(rows) > MAX_REQS)
        return an_comply_plan_fail(
            p, AN_ESCHEMA, "%s: 'requirements' must be an array (at most %d)", file, MAX_REQS);
    set->reqs = an_xcalloc(json_array_size(rows) + 1, sizeof *set->reqs);
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
        for (size_t k = 0; k < set->n; k++)
            if (!strcmp(set->reqs[k].id, id))
                return an_comply_plan_fail(p, AN_ESCHEMA, "%s: requirement '%s' is listed twice",
                                           file, id);
        struct an_comply_req *q = &set->reqs[set->n++];
        q->id = an_xstrdup(id);
        q->level = an_xstrdup(level);
        q->title = an_xstrdup(an_json_str(r, "title") ? an_json_str(r, "title") : "");
        q->section = an_xstrdup(an_json_str(r, "section") ? an_json_str(r, "section") : "");
        q->status = AN_REQ_NOT_TESTED;
    }
    return 0;
}

/* Every requirement a test of the set's revision names is in the set. */
static int check_tests(struct an_comply_plan *p, const struct an_comply_reqset *set,
                       const char *file)
{
    int rc = 0;
    for (size_t i = 0; i < p->ntests; i++) {
        const struct an_jsont *t = p->tests[i];
        for (size_t r = 0; an_comply_rev_applies(t, set->rev) && r < t->nrequirements; r++) {
            bool found = false;
            for (size_t k = 0; k < set->n && !found; k++)
                found = !strcmp(set->reqs[k].id, t->requirements[r]);
            if (!found)
                rc = an_comply_plan_fail(p, AN_ESCHEMA,
                                         "%s: requirement '%s' is not in %s (revision %s)", t->file,
                                         t->requirements[r], file, set->rev);
        }
    }
    return rc;
}

/* The set of revision rev from dir/REV.json, checked, as p's next set;
 * *dflt: whether it may be the default. `named`: --spec names it (a
 * missing file is a usage error). */
static int load_set(struct an_comply_plan *p, const char *dir, const char *rev, bool named,
                    bool *dflt)
{
    if (p->nsets == AN_COMPLY_MAX_SETS)
        return an_comply_plan_fail(p, AN_ESCHEMA, "%s: more than %d requirement sets", dir,
                                   AN_COMPLY_MAX_SETS);
    struct an_buf file = AN_BUF_INIT;
    an_buf_printf(&file, "%s/%s.json", dir, rev);
    json_error_t je;
    json_t *root = json_load_file(an_buf_cstr(&file), 0, &je);
    int rc = 0;
    if (!root) {
        char *have = named ? newest(dir) : NULL;
        rc = an_comply_plan_fail(p, named ? AN_EUSAGE : AN_ESCHEMA,
                                 "%s%s%sno requirement set %s (%s)%s%s", named ? "--spec " : "",
                                 named ? rev : "", named ? ": " : "", an_buf_cstr(&file), je.text,
                                 have ? "; newest: " : "", have ? have : "");
        free(have);
        goto done;
    }
    struct an_comply_reqset *set = &p->sets[p->nsets++];
    set->rev = an_xstrdup(rev);
    *dflt = may_default(root);
    rc = load_rows(p, set, an_buf_cstr(&file), root);
    json_decref(root);
    if (!rc)
        rc = check_tests(p, set, an_buf_cstr(&file));
done:
    an_buf_release(&file);
    return rc;
}

/* Every set in dir; the newest that may be the default becomes p->spec. */
static int load_all(struct an_comply_plan *p, const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    int rc = 0;
    struct dirent *de;
    while (!rc && (de = readdir(d))) {
        size_t n = strlen(de->d_name);
        if (n <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + n - 5, ".json"))
            continue;
        char *rev = an_xstrndup(de->d_name, n - 5);
        bool dflt = false;
        rc = load_set(p, dir, rev, false, &dflt);
        if (!rc && dflt && (!p->spec || an_comply_rev_cmp(rev, p->spec) > 0)) {
            free(p->spec);
            p->spec = an_xstrdup(rev);
        }
        free(rev);
    }
    closedir(d);
    return rc;
}

int an_comply_reqs_load(struct an_comply_plan *p, const char *const *paths, size_t npaths,
                        const char *spec)
{
    const char *suite = suite_dir(paths, npaths);
    struct an_buf dir = AN_BUF_INIT;
    int rc = 0;
    an_buf_printf(&dir, "%s/requirements", suite ? suite : ".");
    if (!spec) {
        rc = suite ? load_all(p, an_buf_cstr(&dir)) : 0;
    } else if (!suite) {
        rc =
            an_comply_plan_fail(p, AN_EUSAGE, "--spec %s: the suite has no requirement sets", spec);
    } else if (strchr(spec, '/') || spec[0] == '.') {
        rc = an_comply_plan_fail(p, AN_EUSAGE, "--spec '%s' is not a revision", spec);
    } else {
        bool dflt;
        p->spec_given = true;
        p->spec = an_xstrdup(spec);
        rc = load_set(p, an_buf_cstr(&dir), spec, true, &dflt);
    }
    an_buf_release(&dir);
    return rc;
}

static const struct an_comply_reqset *set_of(const struct an_comply_plan *p, const char *rev)
{
    for (size_t i = 0; rev && i < p->nsets; i++)
        if (!strcmp(p->sets[i].rev, rev))
            return &p->sets[i];
    return NULL;
}

const char *an_comply_reqs_pick(const struct an_comply_plan *p, const char *speaks)
{
    if (p->spec_given || !speaks || !p->nsets)
        return p->spec;
    const char *older = NULL, *oldest = NULL;
    for (size_t i = 0; i < p->nsets; i++) {
        const char *r = p->sets[i].rev;
        int c = an_comply_rev_cmp(r, speaks);
        if (!c)
            return r;
        if (c < 0 && (!older || an_comply_rev_cmp(r, older) > 0))
            older = r;
        if (!oldest || an_comply_rev_cmp(r, oldest) < 0)
            oldest = r;
    }
    return older ? older : oldest;
}

void an_comply_reqs_give(const struct an_comply_plan *p, const char *rev, struct an_comply_agent *a)
{
    const struct an_comply_reqset *set = set_of(p, rev);
    free(a->spec);
    a->spec = rev ? an_xstrdup(rev) : NULL;
    if (!set || !set->n)
        return;
    a->reqs = an_xcalloc(set->n, sizeof *a->reqs);
    a->nreqs = set->n;
    for (size_t k = 0; k < set->n; k++) {
        const struct an_comply_req *q = &set->reqs[k];
        a->reqs[k] = (struct an_comply_req){.id = an_xstrdup(q->id),
                                            .level = an_xstrdup(q->level),
                                            .title = an_xstrdup(q->title),
                                            .section = an_xstrdup(q->section)};
    }
    an_comply_judge_reqs(a);
}

void an_comply_reqs_free(struct an_comply_plan *p)
{
    for (size_t i = 0; i < p->nsets; i++) {
        struct an_comply_reqset *set = &p->sets[i];
        for (size_t k = 0; k < set->n; k++) {
            free(set->reqs[k].id);
            free(set->reqs[k].level);
            free(set->reqs[k].title);
            free(set->reqs[k].section);
        }
        free(set->reqs);
        free(set->rev);
    }
    p->nsets = 0;
    free(p->spec);
    p->spec = NULL;
}
