/* --expected-failures FILE: a YAML list of test names, each a plain name or
 * `name: reason`, or one map of name -> reason (docs/cli.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/load.h"
#include "ananke/result.h"
#include "core/arena.h"
#include "core/yaml.h"

static int add(struct an_expected *x, const struct an_ynode *name, const struct an_ynode *reason,
               struct an_err *err)
{
    if (name->kind != AN_Y_SCALAR || an_yaml_is_null(name) || !name->len)
        return an_fail(err, AN_ESCHEMA, &name->loc,
                       "an expected failure is a test name, or `name: reason`");
    if (reason && reason->kind != AN_Y_SCALAR)
        return an_fail(err, AN_ESCHEMA, &reason->loc,
                       "the reason for '%s' must be a string, not %s", name->str,
                       an_yaml_kind_name(reason));
    for (size_t i = 0; i < x->n; i++)
        if (!strcmp(x->names[i], name->str))
            return an_fail(err, AN_ESCHEMA, &name->loc, "'%s' is listed twice (first at %s)",
                           name->str, x->where[i]);
    size_t n = x->n + 1;
    x->names = an_xrealloc(x->names, n * sizeof *x->names);
    x->reasons = an_xrealloc(x->reasons, n * sizeof *x->reasons);
    x->where = an_xrealloc(x->where, n * sizeof *x->where);
    x->used = an_xrealloc(x->used, n * sizeof *x->used);
    char where[AN_ERR_FILE_MAX + 48];
    snprintf(where, sizeof where, "%s:%u:%u", name->loc.file ? name->loc.file : "?", name->loc.line,
             name->loc.col);
    x->names[x->n] = an_xstrdup(name->str);
    x->reasons[x->n] = reason && !an_yaml_is_null(reason) && reason->len ? an_xstrdup(reason->str)
                                                                         : NULL;
    x->where[x->n] = an_xstrdup(where);
    x->used[x->n] = false;
    x->n = n;
    return 0;
}

static int load(const struct an_ynode *root, struct an_expected *x, struct an_err *err)
{
    int rc;
    if (root->kind == AN_Y_MAP) {
        for (size_t i = 0; i < root->npairs; i++)
            if ((rc = add(x, root->pairs[i].key, root->pairs[i].value, err)))
                return rc;
        return 0;
    }
    if (root->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &root->loc,
                       "expected failures must be a list of test names (each a name or "
                       "`name: reason`), not %s",
                       an_yaml_kind_name(root));
    for (size_t i = 0; i < root->nitems; i++) {
        const struct an_ynode *it = root->items[i];
        if (it->kind == AN_Y_MAP && it->npairs == 1)
            rc = add(x, it->pairs[0].key, it->pairs[0].value, err);
        else if (it->kind == AN_Y_MAP)
            rc = an_fail(err, AN_ESCHEMA, &it->loc,
                         "write one test per item: `- name: reason` (this item has %zu keys)",
                         it->npairs);
        else
            rc = add(x, it, NULL, err);
        if (rc)
            return rc;
    }
    return 0;
}

int an_expected_load(const char *path, struct an_expected *out, struct an_err *err)
{
    struct an_arena a = AN_ARENA_INIT;
    struct an_ynode *root;
    memset(out, 0, sizeof *out);
    int rc = an_yaml_load_file(&root, path, &a, err);
    if (!rc)
        rc = an_yaml_no_nul(root, err);
    if (!rc && (rc = load(root, out, err)))
        an_expected_release(out);
    an_arena_release(&a);
    return rc;
}
