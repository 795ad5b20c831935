#include "scenario_util.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/json.h"

bool scn_in_list(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (!strcmp(*list, s))
            return true;
    return false;
}

bool scn_use(long long times, long long *used)
{
    if (times && *used >= times)
        return false;
    (*used)++;
    return true;
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

int scn_unknown_key(const struct an_ynode *key, const char *where, const char *const *const *lists,
                    struct an_err *err)
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

int scn_check_keys(const struct an_ynode *n, const char *const *keys, const char *where,
                   struct an_err *err)
{
    for (size_t i = 0; i < n->npairs; i++) {
        const struct an_ynode *k = n->pairs[i].key;
        if (!scn_in_list(keys, k->str)) {
            const char *const *lists[] = {keys, NULL};
            return scn_unknown_key(k, where, lists, err);
        }
    }
    return 0;
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

int scn_get_status(const struct an_ynode *n, const char *key, int *out, struct an_err *err)
{
    long long v;
    int rc = scn_get_int(n, key, 200, 599, &v, err);
    if (!rc)
        *out = (int)v;
    return rc;
}

int scn_get_chunks(const struct an_ynode *n, const char *key, unsigned *out, struct an_err *err)
{
    long long v;
    int rc = scn_get_int(n, key, 1, SCN_MAX_CHUNKS, &v, err);
    if (!rc)
        *out = (unsigned)v;
    return rc;
}

int scn_get_delay(const struct an_ynode *n, const char *key, int64_t *out, struct an_err *err)
{
    long long v;
    int rc = scn_get_int(n, key, 0, SCN_MAX_DELAY_MS, &v, err);
    if (!rc)
        *out = v;
    return rc;
}

int scn_get_str(const struct an_ynode *n, const char *key, const char **out, size_t *len,
                struct an_err *err)
{
    /* Any scalar reads as its text; only lists, maps and null are wrong here. */
    if (n->kind != AN_Y_SCALAR || an_yaml_is_null(n))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be a string, not %s", key,
                       an_yaml_kind_name(n));
    *out = n->str;
    if (len)
        *len = n->len;
    return 0;
}

int scn_get_name(const struct an_ynode *n, const char *key, const char **out, struct an_err *err)
{
    size_t len = 0;
    int rc = scn_get_str(n, key, out, &len, err);
    if (rc)
        return rc;
    if (len == 0 || strlen(*out) != len)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be a non-empty string without NUL",
                       key);
    return 0;
}

const struct an_ynode *scn_key_node(const struct an_ynode *n, const char *key)
{
    for (size_t i = 0; i < n->npairs; i++)
        if (!strcmp(n->pairs[i].key->str, key))
            return n->pairs[i].key;
    return n;
}

int scn_get_bool(const struct an_ynode *n, const char *key, bool *out, struct an_err *err)
{
    if (!an_yaml_as_bool(n, out))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be true or false, not %s", key,
                       an_yaml_kind_name(n));
    return 0;
}

int scn_get_json(struct an_arena *a, const struct an_ynode *n, const char **out, struct an_err *err)
{
    json_t *j = an_yaml_to_json(n, err);
    if (!j)
        return err ? (int)err->code : AN_ELIMIT;
    char *txt = an_json_compact(j);
    json_decref(j);
    *out = an_arena_strdup(a, txt);
    free(txt);
    return 0;
}

int scn_get_text_or_json(struct an_arena *a, const struct an_ynode *n, const char **out,
                         size_t *len, struct an_err *err)
{
    if (n->kind == AN_Y_SCALAR) {
        json_t *j = an_yaml_to_json(n, err);
        if (!j)
            return err ? (int)err->code : AN_ELIMIT;
        bool is_str = json_is_string(j);
        json_decref(j);
        if (is_str) {
            *out = n->str;
            *len = n->len;
            return 0;
        }
    }
    int rc = scn_get_json(a, n, out, err);
    if (!rc)
        *len = strlen(*out);
    return rc;
}

static void free_regex(void *p)
{
    an_regex_free(p);
}

int scn_compile_regex(struct an_arena *a, const struct an_ynode *n, const char *pattern,
                      struct an_regex **out, struct an_err *err)
{
    int rc = an_regex_compile(out, pattern, &n->loc, err);
    if (rc)
        return rc;
    an_arena_defer(a, free_regex, *out);
    return 0;
}

int scn_get_regex(struct an_arena *a, const struct an_ynode *n, const char *key,
                  struct an_regex **out, struct an_err *err)
{
    const char *pattern = NULL;
    int rc = scn_get_str(n, key, &pattern, NULL, err);
    return rc ? rc : scn_compile_regex(a, n, pattern, out, err);
}

static bool header_name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!strchr("!#$%&'*+-.^_`|~", *s) &&
            !((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
            return false;
    return true;
}

int scn_load_headers(struct an_arena *a, const struct an_ynode *n, const char *content_type_msg,
                     struct mock_header **out, size_t *nout, struct an_err *err)
{
    int rc;
    if ((rc = scn_want_map(n, "'headers'", err)))
        return rc;
    struct mock_header *h = an_arena_alloc(a, (n->npairs ? n->npairs : 1) * sizeof *h);
    size_t nh = 0;
    for (size_t i = 0; i < n->npairs; i++) {
        const struct an_ynode *k = n->pairs[i].key, *v = n->pairs[i].value;
        if (!header_name_ok(k->str))
            return an_fail(err, AN_ESCHEMA, &k->loc, "'%s' is not a valid header name", k->str);
        /* libmicrohttpd writes these itself; a scripted copy would contradict it. */
        if (!strcasecmp(k->str, "content-length") || !strcasecmp(k->str, "transfer-encoding"))
            return an_fail(err, AN_ESCHEMA, &k->loc, "header '%s' cannot be scripted", k->str);
        if (!strcasecmp(k->str, "content-type"))
            return an_fail(err, AN_ESCHEMA, &k->loc, "%s", content_type_msg);
        const char *val = NULL;
        size_t len = 0;
        if ((rc = scn_get_str(v, k->str, &val, &len, err)))
            return rc;
        if (strlen(val) != len || strpbrk(val, "\r\n"))
            return an_fail(err, AN_ESCHEMA, &v->loc,
                           "header '%s' must not contain line breaks or NUL", k->str);
        h[nh].name = k->str;
        h[nh].value = val;
        nh++;
    }
    *out = h;
    *nout = nh;
    return 0;
}
