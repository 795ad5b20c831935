#include "proto/json_patch.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/json.h"

/* The place a pointer names: the container holding it and the last
 * reference token (unescaped), or the document root itself. */
struct place {
    json_t *parent; /* NULL: the pointer is "" (the root) */
    char *key;      /* malloc'd, unescaped last token */
    size_t keylen;
};

static void place_release(struct place *pl)
{
    free(pl->key);
    pl->key = NULL;
}

/* Unescape one reference token (~0 -> ~, ~1 -> /). NULL on a bad escape. */
static char *unescape(const char *s, size_t n, size_t *outlen)
{
    char *o = an_xmalloc(n + 1);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '~') {
            o[k++] = s[i];
            continue;
        }
        if (i + 1 < n && (s[i + 1] == '0' || s[i + 1] == '1')) {
            o[k++] = s[i + 1] == '0' ? '~' : '/';
            i++;
            continue;
        }
        free(o);
        return NULL;
    }
    o[k] = '\0';
    *outlen = k;
    return o;
}

/* An array index token: digits without a leading zero. -1 when not one. */
static long long array_index(const char *s, size_t n)
{
    long long v = 0;
    if (n == 0 || (n > 1 && s[0] == '0'))
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9' || v > 100000000000LL)
            return -1;
        v = v * 10 + (s[i] - '0');
    }
    return v;
}

/* The member or element `tok` of container c, or NULL. */
static json_t *child(json_t *c, const char *tok, size_t n)
{
    if (json_is_object(c))
        return json_object_getn(c, tok, n);
    if (json_is_array(c)) {
        long long i = array_index(tok, n);
        return i >= 0 && (size_t)i < json_array_size(c) ? json_array_get(c, (size_t)i) : NULL;
    }
    return NULL;
}

/* Walk every token but the last. Fails when an intermediate is missing. */
static bool locate(json_t *root, const char *path, size_t plen, struct place *pl)
{
    memset(pl, 0, sizeof *pl);
    if (plen == 0)
        return true;
    if (path[0] != '/')
        return false;
    json_t *cur = root;
    size_t i = 1;
    for (;;) {
        const char *end = memchr(path + i, '/', plen - i);
        size_t tl = end ? (size_t)(end - (path + i)) : plen - i;
        size_t klen;
        char *tok = unescape(path + i, tl, &klen);
        if (!tok)
            return false;
        if (!end) {
            pl->parent = cur;
            pl->key = tok;
            pl->keylen = klen;
            return json_is_object(cur) || json_is_array(cur);
        }
        cur = child(cur, tok, klen);
        free(tok);
        if (!cur)
            return false;
        i += tl + 1;
    }
}

static json_t *place_get(json_t *root, const struct place *pl)
{
    return pl->parent ? child(pl->parent, pl->key, pl->keylen) : root;
}

/* Steals `v`. */
static bool place_add(json_t **root, const struct place *pl, json_t *v)
{
    if (!pl->parent) {
        json_decref(*root);
        *root = v;
        return true;
    }
    if (json_is_object(pl->parent))
        return json_object_setn_new(pl->parent, pl->key, pl->keylen, v) == 0;
    size_t n = json_array_size(pl->parent);
    long long i = pl->keylen == 1 && pl->key[0] == '-' ? (long long)n
                                                        : array_index(pl->key, pl->keylen);
    if (i < 0 || (size_t)i > n) {
        json_decref(v);
        return false;
    }
    return json_array_insert_new(pl->parent, (size_t)i, v) == 0;
}

static bool place_remove(const struct place *pl)
{
    if (!pl->parent)
        return false; /* removing the whole document has no result to keep */
    if (json_is_object(pl->parent))
        return json_object_deln(pl->parent, pl->key, pl->keylen) == 0;
    long long i = array_index(pl->key, pl->keylen);
    return i >= 0 && json_array_remove(pl->parent, (size_t)i) == 0;
}

/* Steals `v`. */
static bool place_replace(json_t **root, const struct place *pl, json_t *v)
{
    if (!place_get(*root, pl)) {
        json_decref(v);
        return false;
    }
    if (!pl->parent || json_is_object(pl->parent))
        return place_add(root, pl, v);
    return json_array_set_new(pl->parent, (size_t)array_index(pl->key, pl->keylen), v) == 0;
}

int an_json_equal_num(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b)) {
        if (json_is_integer(a) && json_is_integer(b))
            return json_integer_value(a) == json_integer_value(b);
        return json_number_value(a) == json_number_value(b);
    }
    if (json_typeof(a) != json_typeof(b))
        return 0;
    switch (json_typeof(a)) {
    case JSON_STRING:
        return json_string_length(a) == json_string_length(b) &&
               !memcmp(json_string_value(a), json_string_value(b), json_string_length(a));
    case JSON_ARRAY:
        if (json_array_size(a) != json_array_size(b))
            return 0;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!an_json_equal_num(json_array_get(a, i), json_array_get(b, i)))
                return 0;
        return 1;
    case JSON_OBJECT: {
        const char *k;
        size_t kl;
        json_t *v;
        if (json_object_size(a) != json_object_size(b))
            return 0;
        json_object_keylen_foreach((json_t *)a, k, kl, v)
        {
            json_t *w = json_object_getn(b, k, kl);
            if (!w || !an_json_equal_num(v, w))
                return 0;
        }
        return 1;
    }
    default:
        return 1; /* true, false, null: the type is the value */
    }
}

static const char *str_member(const json_t *op, const char *key, size_t *len)
{
    json_t *v = json_object_get(op, key);
    if (!json_is_string(v))
        return NULL;
    *len = json_string_length(v);
    return json_string_value(v);
}

/* One operation on *root. Returns NULL or a static reason. */
static const char *apply_op(json_t **root, const json_t *op)
{
    const char *name, *path, *from = NULL;
    size_t nlen, plen, flen = 0;
    struct place pl = {0}, fpl = {0};
    const char *why = NULL;
    json_t *value = json_object_get(op, "value");

    if (!json_is_object(op))
        return "operation is not an object";
    if (!(name = str_member(op, "op", &nlen)))
        return "missing string 'op'";
    if (!(path = str_member(op, "path", &plen)))
        return "missing string 'path'";
    if (!locate(*root, path, plen, &pl)) {
        why = "path not found";
        goto done;
    }
    if (!strcmp(name, "move") || !strcmp(name, "copy")) {
        if (!(from = str_member(op, "from", &flen))) {
            why = "missing string 'from'";
            goto done;
        }
        if (!locate(*root, from, flen, &fpl) || !place_get(*root, &fpl)) {
            why = "'from' not found";
            goto done;
        }
    }
    if (!strcmp(name, "add")) {
        if (!value)
            why = "missing 'value'";
        else if (!place_add(root, &pl, json_deep_copy(value)))
            why = "path not found";
    } else if (!strcmp(name, "remove")) {
        if (!place_get(*root, &pl) || !place_remove(&pl))
            why = "path not found";
    } else if (!strcmp(name, "replace")) {
        if (!value)
            why = "missing 'value'";
        else if (!place_replace(root, &pl, json_deep_copy(value)))
            why = "path not found";
    } else if (!strcmp(name, "move")) {
        if (from && flen == plen && !memcmp(from, path, plen))
            goto done;
        if (from && plen > flen && !memcmp(from, path, flen) && path[flen] == '/') {
            why = "cannot move a value into one of its own children";
            goto done;
        }
        json_t *v = json_incref(place_get(*root, &fpl));
        place_remove(&fpl);
        /* Removing can shift array elements, so find the target again. */
        place_release(&pl);
        if (!locate(*root, path, plen, &pl)) {
            json_decref(v);
            why = "path not found";
        } else if (!place_add(root, &pl, v)) {
            why = "path not found";
        }
    } else if (!strcmp(name, "copy")) {
        if (!place_add(root, &pl, json_deep_copy(place_get(*root, &fpl))))
            why = "path not found";
    } else if (!strcmp(name, "test")) {
        json_t *cur = place_get(*root, &pl);
        if (!value)
            why = "missing 'value'";
        else if (!cur)
            why = "path not found";
        else if (!an_json_equal_num(cur, value))
            why = "test failed: value differs";
    } else {
        why = "unknown op";
    }
done:
    place_release(&pl);
    place_release(&fpl);
    return why;
}

int an_json_patch(json_t **doc, const json_t *ops, char *why, size_t why_cap)
{
    if (!json_is_array(ops)) {
        snprintf(why, why_cap, "patch is not an array of operations");
        return AN_EPROTO;
    }
    json_t *work = *doc ? json_deep_copy(*doc) : json_null();
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *r = apply_op(&work, op);
        if (r) {
            const char *name = an_json_str(op, "op");
            const char *path = an_json_str(op, "path");
            snprintf(why, why_cap, "operation %zu (%s '%.200s'): %s", i, name ? name : "?",
                     path ? path : "", r);
            json_decref(work);
            return AN_EPROTO;
        }
    }
    json_decref(*doc);
    *doc = work;
    return 0;
}
