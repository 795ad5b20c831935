/* Paths into JSON (tool arguments, state, output), and the text a regex sees
 * for a JSON value. */
#include <stdint.h>
#include <string.h>

#include "ananke/check.h"
#include "ananke/err.h"
#include "core/json.h"

/* An array index written as plain decimal digits ("0", "12"); no sign, no
 * spaces, nothing that would overflow. */
static bool parse_index(const char *s, size_t n, size_t *out)
{
    size_t v = 0;
    if (n == 0)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        size_t d = (size_t)(s[i] - '0');
        if (v > (SIZE_MAX - d) / 10)
            return false;
        v = v * 10 + d;
    }
    *out = v;
    return true;
}

json_t *an_json_dot_path(const json_t *root, const char *path)
{
    json_t *v;
    return an_json_path_get((json_t *)root, path, &v) ? NULL : v;
}

char *an_json_match_text(const json_t *v)
{
    if (json_is_string(v))
        return an_xstrndup(json_string_value(v), json_string_length(v));
    return an_json_compact(v);
}

/* One path syntax for every place that takes one (args_match, state:, the
 * json_path and type checks): an optional "$" or "$.", then keys separated
 * by dots, and array indexes either in brackets or as a dotted number
 * ("$.items[0].sku", "items.0.sku"); "$" followed by anything else is part
 * of a key ("$ref"). A key may itself hold dots
 * ({"user.name": ...}): at an object, the whole rest of the path as one key
 * wins over splitting it. A walk that leaves the document stops with *out
 * NULL; the syntax is still checked to the end. */
int an_json_path_get(json_t *root, const char *path, json_t **out)
{
    const char *p = path;
    json_t *cur = root;
    *out = NULL;
    if (!p || !*p)
        return -1;
    if (p[0] == '$' && (!p[1] || p[1] == '.' || p[1] == '[')) {
        /* the root; "$ref" is a key */
        p++;
        if (*p == '.') {
            p++;
            if (!*p)
                return -1;
        }
    }
    bool first = true, whole = false;
    while (*p) {
        if (*p == '[') {
            const char *close = strchr(p, ']');
            size_t idx;
            if (!close || !parse_index(p + 1, (size_t)(close - p - 1), &idx))
                return -1;
            if (!whole)
                cur = json_is_array(cur) ? json_array_get(cur, idx) : NULL;
            p = close + 1;
            if (*p == '.') {
                p++;
                if (!*p || *p == '.' || *p == '[')
                    return -1;
            } else if (*p && *p != '[') {
                return -1;
            }
        } else {
            if (!first && p[-1] != '.')
                return -1;
            size_t n = strcspn(p, ".[");
            if (n == 0)
                return -1;
            json_t *k;
            if (!whole && json_is_object(cur) && p[n] && (k = json_object_get(cur, p))) {
                cur = k; /* the rest is one key; its syntax is still checked */
                whole = true;
            } else if (whole) {
                /* already found */
            } else if (json_is_object(cur)) {
                cur = json_object_getn(cur, p, n);
            } else {
                size_t idx;
                cur = json_is_array(cur) && parse_index(p, n, &idx) ? json_array_get(cur, idx)
                                                                    : NULL;
            }
            p += n;
            if (*p == '.') {
                p++;
                if (!*p || *p == '.' || *p == '[')
                    return -1;
            }
        }
        first = false;
    }
    *out = cur;
    return 0;
}
