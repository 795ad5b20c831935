/* `comply --expected-failures FILE` (docs/comply.md "Expected failures"):
 * a YAML map of agent name to a list of test ids or requirement ids, each
 * `ID` or `ID: reason`. Loading it (errors at file:line:col), and judging a
 * test against it: a listed test that failed is XFAIL, one that passed is
 * STALE; a listed requirement makes every failed test citing it XFAIL, and
 * when none of them failed, the passed ones STALE. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/yaml.h"
#include "run/comply_expected.h"

static int add(struct an_comply_xlist *x, const char *agent, const struct an_ynode *id,
               const struct an_ynode *reason, struct an_err *err)
{
    if (id->kind != AN_Y_SCALAR || an_yaml_is_null(id) || !id->len)
        return an_fail(err, AN_ESCHEMA, &id->loc,
                       "an expected failure is a test id or a requirement id, or `ID: reason`");
    if (reason && reason->kind != AN_Y_SCALAR)
        return an_fail(err, AN_ESCHEMA, &reason->loc,
                       "the reason for '%s' must be a string, not %s", id->str,
                       an_yaml_kind_name(reason));
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->e[i].agent, agent) && !strcmp(x->e[i].id, id->str))
            return an_fail(err, AN_ESCHEMA, &id->loc, "'%s' is listed twice for '%s' (first at %s)",
                           id->str, agent, x->e[i].where);
    x->e = an_xrealloc(x->e, (x->n + 1) * sizeof *x->e);
    struct an_comply_xentry *e = &x->e[x->n++];
    memset(e, 0, sizeof *e);
    char where[AN_ERR_FILE_MAX + 48];
    snprintf(where, sizeof where, "%s:%u:%u", id->loc.file ? id->loc.file : "?", id->loc.line,
             id->loc.col);
    e->agent = an_xstrdup(agent);
    e->id = an_xstrdup(id->str);
    e->where = an_xstrdup(where);
    e->reason = reason && !an_yaml_is_null(reason) && reason->len ? an_xstrdup(reason->str) : NULL;
    return 0;
}

static int load_agent(struct an_comply_xlist *x, const struct an_ypair *pr, struct an_err *err)
{
    const struct an_ynode *v = pr->value;
    if (an_yaml_is_null(v))
        return 0;
    if (v->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &v->loc,
                       "'%s': expected a list of test or requirement ids (each `ID` or "
                       "`ID: reason`), not %s",
                       pr->key->str, an_yaml_kind_name(v));
    for (size_t i = 0; i < v->nitems; i++) {
        const struct an_ynode *it = v->items[i];
        int rc;
        if (it->kind == AN_Y_MAP && it->npairs == 1)
            rc = add(x, pr->key->str, it->pairs[0].key, it->pairs[0].value, err);
        else if (it->kind == AN_Y_MAP)
            rc = an_fail(err, AN_ESCHEMA, &it->loc,
                         "write one id per item: `- ID: reason` (this item has %zu keys)",
                         it->npairs);
        else
            rc = add(x, pr->key->str, it, NULL, err);
        if (rc)
            return rc;
    }
    return 0;
}

int an_comply_xlist_load(const char *path, struct an_comply_xlist *out, struct an_err *err)
{
    struct an_arena a = AN_ARENA_INIT;
    struct an_ynode *root;
    memset(out, 0, sizeof *out);
    int rc = an_yaml_load_file(&root, path, &a, err);
    if (!rc)
        rc = an_yaml_no_nul(root, err);
    if (!rc && root->kind != AN_Y_MAP)
        rc = an_fail(err, AN_ESCHEMA, &root->loc,
                     "expected failures must be a map of agent name to a list of test or "
                     "requirement ids, not %s",
                     an_yaml_kind_name(root));
    for (size_t i = 0; !rc && i < root->npairs; i++)
        rc = load_agent(out, &root->pairs[i], err);
    if (rc)
        an_comply_xlist_release(out);
    an_arena_release(&a);
    return rc;
}

void an_comply_xlist_release(struct an_comply_xlist *x)
{
    for (size_t i = 0; i < x->n; i++) {
        free(x->e[i].agent);
        free(x->e[i].id);
        free(x->e[i].where);
        free(x->e[i].reason);
    }
    free(x->e);
    memset(x, 0, sizeof *x);
}

static bool cites(const struct an_comply_test *t, const char *id)
{
    for (size_t i = 0; i < t->nrequirements; i++)
        if (!strcmp(t->requirements[i], id))
            return true;
    return false;
}

static void mark(struct an_comply_test *t, enum an_comply_status st,
                 const struct an_comply_xentry *e)
{
    size_t n = strlen(e->id) + strlen(e->where) + (e->reason ? strlen(e->reason) : 0) + 8;
    char *s = an_xmalloc(n);
    snprintf(s, n, "%s (%s)%s%s", e->id, e->where, e->reason ? ": " : "",
             e->reason ? e->reason : "");
    free(t->expected_failure);
    t->expected_failure = s;
    t->status = st;
}

void an_comply_xlist_test(struct an_comply_xlist *x, const char *agent, struct an_comply_test *t)
{
    for (size_t i = 0; i < x->n; i++) {
        struct an_comply_xentry *e = &x->e[i];
        if (strcmp(e->agent, agent))
            continue;
        bool by_id = !strcmp(e->id, t->id);
        if (!by_id && !cites(t, e->id))
            continue;
        if (t->status == AN_COMPLY_FAIL) {
            e->failed = true;
            mark(t, AN_COMPLY_XFAIL, e);
        } else if (t->status == AN_COMPLY_PASS || t->status == AN_COMPLY_STALE) {
            e->passed = true;
            if (by_id)
                mark(t, AN_COMPLY_STALE, e);
        }
    }
}

void an_comply_xlist_agent(struct an_comply_xlist *x, struct an_comply_agent *a, FILE *log)
{
    for (size_t i = 0; i < x->n; i++) {
        struct an_comply_xentry *e = &x->e[i];
        if (strcmp(e->agent, a->name))
            continue;
        e->agent_seen = true;
        if (!e->failed && !e->passed) {
            fprintf(log,
                    "comply: warning: expected failure '%s' (%s) matched no test of '%s' "
                    "that ran\n",
                    e->id, e->where, a->name);
            continue;
        }
        if (e->failed || !e->passed)
            continue;
        /* a requirement whose tests all passed: its entry is stale */
        for (size_t k = 0; k < a->ntests; k++) {
            struct an_comply_test *t = &a->tests[k];
            if (t->status == AN_COMPLY_PASS && cites(t, e->id))
                mark(t, AN_COMPLY_STALE, e);
        }
        fprintf(log, "comply: %s: expected failure '%s' (%s) is STALE: it passed\n", a->name, e->id,
                e->where);
    }
}

void an_comply_xlist_unseen(const struct an_comply_xlist *x, FILE *log)
{
    for (size_t i = 0; i < x->n; i++)
        if (!x->e[i].agent_seen)
            fprintf(log,
                    "comply: warning: expected failure '%s' (%s) names agent '%s', which "
                    "did not run\n",
                    x->e[i].id, x->e[i].where, x->e[i].agent);
}
