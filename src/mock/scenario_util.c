#include "scenario_util.h"

#include <string.h>

bool scn_in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return true;
    return false;
}

size_t scn_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), row[40];
    if (la >= 39 || lb >= 39)
        return 99;
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (row[j] + 1 < best)
                best = row[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[lb];
}

int scn_unknown_key(const struct an_ynode *key, const char *where,
                    const char *const *const *lists, struct an_err *err)
{
    const char *best = NULL;
    size_t best_d = 3; /* suggest only close misspellings */
    for (; *lists; lists++)
        for (const char *const *k = *lists; *k; k++) {
            size_t d = scn_edit_distance(key->str, *k);
            if (d < best_d) {
                best_d = d;
                best = *k;
            }
        }
    if (best)
        return an_fail(err, AN_ESCHEMA, &key->loc, "unknown key '%s' in %s (did you mean '%s'?)",
                       key->str, where, best);
    return an_fail(err, AN_ESCHEMA, &key->loc, "unknown key '%s' in %s", key->str, where);
}

int scn_want_map(const struct an_ynode *n, const char *what, struct an_err *err)
{
    if (n->kind != AN_Y_MAP)
        return an_fail(err, AN_ESCHEMA, &n->loc, "%s must be a map, not %s", what,
                       an_yaml_kind_name(n));
    return 0;
}

int scn_get_int(const struct an_ynode *n, const char *key, long long min, long long max,
                long long *out, struct an_err *err)
{
    if (!an_yaml_as_int(n, out))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be an integer, not %s", key,
                       an_yaml_kind_name(n));
    if (*out < min || *out > max)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be between %lld and %lld, not %lld",
                       key, min, max, *out);
    return 0;
}
