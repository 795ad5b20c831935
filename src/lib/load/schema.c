#include "load/schema.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static size_t edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 64 || lb > 64)
        return 99;
    /* optimal string alignment: a swap of neighbours ("agiu" for "agui")
     * costs one edit, as a typo does */
    size_t prev2[65] = {0}, prev[65], cur[65];
    for (size_t j = 0; j <= lb; j++)
        prev[j] = j;
    for (size_t i = 1; i <= la; i++) {
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
            cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                prev2[j - 2] + 1 < cur[j])
                cur[j] = prev2[j - 2] + 1;
        }
        memcpy(prev2, prev, (lb + 1) * sizeof *prev);
        memcpy(prev, cur, (lb + 1) * sizeof *prev);
    }
    return prev[lb];
}

const char *an_closest(const char *key, const char *const *valid)
{
    const char *best = NULL;
    size_t best_d = 99, klen = strlen(key);
    size_t limit = klen <= 4 ? 1 : klen <= 8 ? 2 : 3;
    for (size_t i = 0; valid[i]; i++) {
        size_t d = edit_distance(key, valid[i]);
        if (d < best_d) {
            best_d = d;
            best = valid[i];
        }
    }
    return best_d <= limit ? best : NULL;
}

int an_ld_keep(struct an_ld *ld, int rc)
{
    if (!rc || !ld->errs)
        return rc;
    if (ld->errs->n < AN_LD_MAX_ERRS)
        an_errlist_add(ld->errs, ld->err);
    else
        ld->dropped++;
    memset(ld->err, 0, sizeof *ld->err);
    return 0;
}

int an_ld_keys(struct an_ld *ld, const struct an_ynode *map, const char *const *valid,
               const char *where)
{
    for (size_t i = 0; i < map->npairs; i++) {
        const char *k = map->pairs[i].key->str;
        bool ok = false;
        for (size_t j = 0; valid[j] && !ok; j++)
            ok = strcmp(k, valid[j]) == 0;
        if (ok)
            continue;
        /* every unknown key is said; with ld->errs the map is read on
         * without it */
        const char *near = an_closest(k, valid);
        int rc;
        if (near) {
            rc = an_fail(ld->err, AN_ESCHEMA, &map->pairs[i].key->loc,
                         "unknown key '%s' in %s (did you mean '%s'?)", k, where, near);
        } else {
            char list[512] = "";
            size_t off = 0;
            for (size_t j = 0; valid[j] && off < sizeof list; j++)
                off += (size_t)snprintf(list + off, sizeof list - off, "%s%s", j ? ", " : "",
                                        valid[j]);
            rc = an_fail(ld->err, AN_ESCHEMA, &map->pairs[i].key->loc,
                         "unknown key '%s' in %s (valid keys: %s)", k, where, list);
        }
        if ((rc = an_ld_keep(ld, rc)))
            return rc;
    }
    return 0;
}

int an_ld_expect(struct an_ld *ld, const struct an_ynode *n, enum an_ynode_kind kind,
                 const char *what)
{
    static const char *names[] = {"a string", "a list", "a map"};
    if (n->kind == kind && !(kind == AN_Y_SCALAR && an_yaml_is_null(n)))
        return 0;
    return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must be %s, not %s", what, names[kind],
                   an_yaml_kind_name(n));
}

int an_ld_string(struct an_ld *ld, const struct an_ynode *n, const char *what, const char **out)
{
    int rc = an_ld_expect(ld, n, AN_Y_SCALAR, what);
    if (rc)
        return rc;
    *out = n->str;
    return 0;
}

int an_ld_uint(struct an_ld *ld, const struct an_ynode *n, const char *what, int64_t *out)
{
    long long v;
    if (!an_yaml_as_int(n, &v)) {
        size_t wl = strlen(what);
        int64_t ms;
        json_t *j = n->kind == AN_Y_SCALAR && wl > 3 && !strcmp(what + wl - 3, "_ms")
                        ? json_string(n->str)
                        : NULL;
        bool dur = j && an_duration_json(j, &ms);
        json_decref(j);
        if (dur) /* "5s" where milliseconds are asked for */
            return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                           "'%s' is a number of milliseconds: write %lld, not \"%s\"", what,
                           (long long)ms, n->str);
        if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n))
            return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must be a whole number, not \"%s\"",
                           what, n->str);
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must be a whole number, not %s", what,
                       an_yaml_kind_name(n));
    }
    if (v < 0)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must not be negative (got %lld)", what,
                       v);
    *out = v;
    return 0;
}

int an_ld_amount(struct an_ld *ld, const struct an_ynode *n, const char *what, double *out)
{
    char *end = NULL;
    double v = 0;
    if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n) && n->str[0])
        v = strtod(n->str, &end);
    if (!end || *end || v != v)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must be a number, not %s%s%s", what,
                       n->kind == AN_Y_SCALAR ? "\"" : "",
                       n->kind == AN_Y_SCALAR ? n->str : an_yaml_kind_name(n),
                       n->kind == AN_Y_SCALAR ? "\"" : "");
    if (v < 0)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s' must not be negative (got %s)", what,
                       n->str);
    *out = v;
    return 0;
}

int an_ld_require(struct an_ld *ld, const struct an_ynode *map, const char *key, const char *where,
                  struct an_ynode **out)
{
    *out = an_yaml_get(map, key);
    if (*out)
        return 0;
    return an_fail(ld->err, AN_ESCHEMA, &map->loc, "missing required key '%s' in %s", key, where);
}

bool an_duration_json(const json_t *v, int64_t *ms)
{
    if (json_is_integer(v)) {
        *ms = json_integer_value(v);
        return *ms > 0;
    }
    const char *s = json_string_value(v);
    if (!s || !*s)
        return false;
    double total = 0;
    while (*s) {
        char *end;
        errno = 0;
        double n = strtod(s, &end);
        if (errno || end == s || n < 0 || *s == '-' || *s == '+')
            return false;
        s = end;
        double mul;
        if (!strncmp(s, "ms", 2)) {
            mul = 1;
            s += 2;
        } else if (*s == 's') {
            mul = 1000;
            s++;
        } else if (*s == 'm') {
            mul = 60000;
            s++;
        } else if (*s == 'h') {
            mul = 3600000;
            s++;
        } else {
            return false;
        }
        total += n * mul;
    }
    if (!(total >= 1 && total <= 1e12))
        return false;
    *ms = (int64_t)(total + 0.5);
    return true;
}
