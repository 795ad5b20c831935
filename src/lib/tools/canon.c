/* Canonical tool arguments (tools/canon.h). */
#include "tools/canon.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"

/* 2^53: past it a double no longer holds every integer */
#define EXACT_LIMIT 9007199254740992.0

/* A copy of v with its numbers normalised (keys are sorted when dumped). */
static json_t *normalise(const json_t *v)
{
    if (json_is_object(v)) {
        json_t *o = json_object();
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x)
        {
            json_object_set_new(o, k, normalise(x));
        }
        return o;
    }
    if (json_is_array(v)) {
        json_t *a = json_array();
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            json_array_append_new(a, normalise(x));
        }
        return a;
    }
    if (json_is_real(v)) {
        double d = json_real_value(v);
        if (d == floor(d) && fabs(d) < EXACT_LIMIT)
            return json_integer((json_int_t)d); /* -0.0 becomes 0 too */
        return json_real(d);
    }
    return json_deep_copy(v);
}

/* The next component of a path at *p ("a.b[0].c": "a", then "b", "0",
 * "c"), into tok; false at the end. */
static bool next_part(const char **p, struct an_buf *tok)
{
    const char *s = *p;
    while (*s == '.' || *s == '[' || *s == ']')
        s++;
    if (!*s)
        return false;
    an_buf_reset(tok);
    while (*s && *s != '.' && *s != '[' && *s != ']')
        an_buf_putc(tok, *s++);
    *p = s;
    return true;
}

static bool index_of(const char *tok, size_t n, size_t *out)
{
    char *end;
    if (!*tok || *tok == '-' || *tok == '+')
        return false;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end || v >= n)
        return false;
    *out = (size_t)v;
    return true;
}

static void drop(json_t *v, const char *rest);

/* One component `tok` at v: the last one removes, an earlier one walks on. */
static void drop_at(json_t *v, const char *tok, const char *rest)
{
    bool last = rest[strspn(rest, ".[]")] == '\0';
    bool any = !strcmp(tok, "*");
    if (json_is_object(v)) {
        if (any) {
            if (last) {
                json_object_clear(v);
                return;
            }
            const char *k;
            json_t *x;
            json_object_foreach(v, k, x)
            {
                drop(x, rest);
            }
        } else if (last) {
            json_object_del(v, tok);
        } else if (json_object_get(v, tok)) {
            drop(json_object_get(v, tok), rest);
        }
        return;
    }
    if (!json_is_array(v))
        return;
    size_t n = json_array_size(v), i;
    for (i = 0; i < n; i++) {
        size_t k;
        if (!any && (!index_of(tok, n, &k) || k != i))
            continue;
        if (last)
            json_array_set_new(v, i, json_null());
        else
            drop(json_array_get(v, i), rest);
    }
}

/* Remove the path `p` from v. At an object, the whole rest of the path as
 * one key wins ({"user.name": ...}), as in args_match. */
static void drop(json_t *v, const char *p)
{
    while (*p == '.' || *p == '[' || *p == ']')
        p++;
    if (!*p)
        return;
    if (json_is_object(v) && strchr(p, '.') && json_object_get(v, p)) {
        json_object_del(v, p);
        return;
    }
    struct an_buf tok = AN_BUF_INIT;
    const char *rest = p;
    if (next_part(&rest, &tok))
        drop_at(v, an_buf_cstr(&tok), rest);
    an_buf_release(&tok);
}

char *an_tools_canon(const json_t *args, const char *const *ignore, size_t nignore)
{
    json_t *v = args && !json_is_null(args) ? normalise(args) : json_object();
    for (size_t i = 0; i < nignore; i++) {
        const char *p = ignore[i];
        if (p[0] == '$')
            p++;
        drop(v, p);
    }
    char *s = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    json_decref(v);
    if (!s)
        abort(); /* out of memory */
    return s;
}
