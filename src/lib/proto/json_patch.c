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

/* ---- weight ---- */

#define W_VALUE 48u
#define W_MEMBER 16u
#define W_ELEM 8u

static uint64_t weigh(const json_t *v, size_t *depth)
{
    uint64_t w = W_VALUE;
    size_t d = 0, cd;
    if (json_is_string(v)) {
        w += json_string_length(v);
    } else if (json_is_array(v)) {
        d = 1;
        for (size_t i = 0; i < json_array_size(v); i++) {
            w += W_ELEM + weigh(json_array_get(v, i), &cd);
            if (cd + 1 > d)
                d = cd + 1;
        }
    } else if (json_is_object(v)) {
        const char *k;
        size_t kl;
        json_t *m;
        d = 1;
        json_object_keylen_foreach((json_t *)v, k, kl, m)
        {
            w += W_MEMBER + kl + weigh(m, &cd);
            if (cd + 1 > d)
                d = cd + 1;
        }
    }
    *depth = d;
    return w;
}

uint64_t an_json_weight(const json_t *v, size_t *depth)
{
    size_t d;
    uint64_t w = weigh(v, &d);
    if (depth)
        *depth = d;
    return w;
}

/* ---- changes, logged to be undone ---- */

enum ukind { U_ROOT, U_OBJ, U_ARR_INS, U_ARR_DEL, U_ARR_SET };

/* One change: what undoing it needs. `parent` and `old` are references
 * held by the log (old NULL: the member was absent). */
struct undo {
    enum ukind kind;
    json_t *parent;
    char *key;
    size_t keylen, index;
    json_t *old;
};

struct patch {
    json_t **root;
    struct an_json_patch_cap *cap; /* never NULL: a local one without caps */
    struct undo *log;
    size_t nlog, cap_log;
    const char *limit; /* set when a cap stopped the patch */
};

static struct undo *log_add(struct patch *p, enum ukind kind, json_t *parent)
{
    if (p->nlog == p->cap_log) {
        p->cap_log = p->cap_log ? p->cap_log * 2 : 16;
        p->log = an_xrealloc(p->log, p->cap_log * sizeof *p->log);
    }
    struct undo *u = &p->log[p->nlog++];
    memset(u, 0, sizeof *u);
    u->kind = kind;
    u->parent = json_incref(parent);
    return u;
}

static void log_release(struct patch *p)
{
    for (size_t i = 0; i < p->nlog; i++) {
        json_decref(p->log[i].parent);
        json_decref(p->log[i].old);
        free(p->log[i].key);
    }
    free(p->log);
    p->log = NULL;
    p->nlog = p->cap_log = 0;
}

/* Undo every change, newest first: each finds the tree as it left it. */
static void log_undo(struct patch *p)
{
    for (size_t i = p->nlog; i-- > 0;) {
        struct undo *u = &p->log[i];
        switch (u->kind) {
        case U_ROOT:
            json_decref(*p->root);
            *p->root = u->old;
            u->old = NULL;
            break;
        case U_OBJ:
            if (u->old)
                json_object_setn(u->parent, u->key, u->keylen, u->old);
            else
                json_object_deln(u->parent, u->key, u->keylen);
            break;
        case U_ARR_INS:
            json_array_remove(u->parent, u->index);
            break;
        case U_ARR_DEL:
            json_array_insert(u->parent, u->index, u->old);
            break;
        case U_ARR_SET:
            json_array_set(u->parent, u->index, u->old);
            break;
        }
    }
}

/* Count `n` bytes of work; false (and p->limit) past the cap. */
static bool work(struct patch *p, uint64_t n)
{
    p->cap->work += n;
    if (p->cap->max_work && p->cap->work > p->cap->max_work) {
        p->limit = "work";
        return false;
    }
    return true;
}

/* The document's weight goes from bytes to bytes + add - sub; false (and
 * p->limit) when that is over the cap: nothing was changed yet. */
static bool reweigh(struct patch *p, uint64_t add, uint64_t sub)
{
    uint64_t b = p->cap->bytes + add;
    b = b > sub ? b - sub : 0;
    if (p->cap->max_bytes && b > p->cap->max_bytes && add > sub) {
        p->limit = "bytes";
        return false;
    }
    p->cap->bytes = b;
    return true;
}

static uint64_t slot_weight(const struct place *pl)
{
    return json_is_object(pl->parent) ? W_MEMBER + pl->keylen : W_ELEM;
}

/* Weigh v (counted as work); false past the work cap. */
static bool weigh_work(struct patch *p, const json_t *v, uint64_t *w, size_t *depth)
{
    *w = an_json_weight(v, depth);
    return work(p, *w);
}

/* Put v (stolen) at the place, weighing wv (its slot is added here, and
 * whatever it replaces is taken off). `replace`: the place must hold a
 * value. Returns NULL or why it failed (v released). */
static const char *place_put(struct patch *p, const struct place *pl, json_t *v, uint64_t wv,
                             bool replace)
{
    json_t *old = place_get(*p->root, pl);
    uint64_t wold = 0;
    size_t d;
    if (replace && !old) {
        json_decref(v);
        return "path not found";
    }
    if (!pl->parent) {
        /* the new document weighs what v does */
        if (!reweigh(p, wv, p->cap->bytes))
            goto limit;
        struct undo *u = log_add(p, U_ROOT, NULL);
        u->old = *p->root; /* the log takes the root's reference */
        *p->root = v;
        return NULL;
    }
    if (json_is_object(pl->parent)) {
        if (old && !weigh_work(p, old, &wold, &d))
            goto limit;
        uint64_t slot = slot_weight(pl);
        if (!reweigh(p, slot + wv, old ? slot + wold : 0))
            goto limit;
        struct undo *u = log_add(p, U_OBJ, pl->parent);
        u->key = an_xstrndup(pl->key, pl->keylen);
        u->keylen = pl->keylen;
        u->old = json_incref(old);
        if (json_object_setn_new(pl->parent, pl->key, pl->keylen, v))
            an_oom();
        return NULL;
    }
    size_t n = json_array_size(pl->parent);
    long long i = replace                                ? array_index(pl->key, pl->keylen)
                  : pl->keylen == 1 && pl->key[0] == '-' ? (long long)n
                                                         : array_index(pl->key, pl->keylen);
    if (i < 0 || (size_t)i > n) {
        json_decref(v);
        return "path not found";
    }
    if (replace) {
        if (!weigh_work(p, old, &wold, &d) || !reweigh(p, wv, wold))
            goto limit;
        struct undo *u = log_add(p, U_ARR_SET, pl->parent);
        u->index = (size_t)i;
        u->old = json_incref(old);
        if (json_array_set_new(pl->parent, (size_t)i, v))
            an_oom();
        return NULL;
    }
    if (!work(p, (uint64_t)(n - (size_t)i) * W_ELEM) || !reweigh(p, W_ELEM + wv, 0))
        goto limit;
    struct undo *u = log_add(p, U_ARR_INS, pl->parent);
    u->index = (size_t)i;
    if (json_array_insert_new(pl->parent, (size_t)i, v))
        an_oom();
    return NULL;
limit:
    json_decref(v);
    return "limit";
}

/* Take the value at the place out of the document; *taken gets a
 * reference to it. `weigh`: its weight comes off the document's (else only
 * its slot's, for a move). NULL or why it failed. */
static const char *place_take(struct patch *p, const struct place *pl, bool weigh_it,
                              json_t **taken)
{
    json_t *old = place_get(*p->root, pl);
    uint64_t wold = 0;
    size_t d;
    *taken = NULL;
    if (!old)
        return "path not found";
    if (!pl->parent)
        return "path not found"; /* removing the whole document has no result to keep */
    if (weigh_it && !weigh_work(p, old, &wold, &d))
        return "limit";
    if (json_is_object(pl->parent)) {
        reweigh(p, 0, slot_weight(pl) + wold);
        struct undo *u = log_add(p, U_OBJ, pl->parent);
        u->key = an_xstrndup(pl->key, pl->keylen);
        u->keylen = pl->keylen;
        u->old = json_incref(old);
        *taken = json_incref(old);
        json_object_deln(pl->parent, pl->key, pl->keylen);
        return NULL;
    }
    size_t i = (size_t)array_index(pl->key, pl->keylen);
    if (!work(p, (uint64_t)(json_array_size(pl->parent) - i) * W_ELEM))
        return "limit";
    reweigh(p, 0, W_ELEM + wold);
    struct undo *u = log_add(p, U_ARR_DEL, pl->parent);
    u->index = i;
    u->old = json_incref(old);
    *taken = json_incref(old);
    json_array_remove(pl->parent, i);
    return NULL;
}

/* The depth of a place's value: its pointer's tokens. */
static size_t place_depth(const char *path, size_t plen)
{
    size_t d = 0;
    for (size_t i = 0; i < plen; i++)
        d += path[i] == '/';
    return d;
}

/* A copy of v (weighed first, then copied: both counted as work) put at
 * the place. */
static const char *put_copy(struct patch *p, const struct place *pl, size_t at_depth,
                            const json_t *v, bool replace)
{
    uint64_t w;
    size_t d;
    if (!weigh_work(p, v, &w, &d))
        return "limit";
    if (at_depth + d > AN_JSON_PATCH_MAX_DEPTH) {
        p->limit = "depth";
        return "limit";
    }
    /* a new member over the cap is refused before it is copied */
    if (pl->parent && !replace && !place_get(*p->root, pl) && p->cap->max_bytes &&
        p->cap->bytes + slot_weight(pl) + w > p->cap->max_bytes) {
        p->limit = "bytes";
        return "limit";
    }
    if (!work(p, w))
        return "limit";
    return place_put(p, pl, json_deep_copy(v), w, replace);
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

/* One operation. Returns NULL or a static reason ("limit": p->limit says
 * which cap). */
static const char *apply_op(struct patch *p, const json_t *op)
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
    if (!locate(*p->root, path, plen, &pl)) {
        why = "path not found";
        goto done;
    }
    if (!strcmp(name, "move") || !strcmp(name, "copy")) {
        if (!(from = str_member(op, "from", &flen))) {
            why = "missing string 'from'";
            goto done;
        }
        if (!locate(*p->root, from, flen, &fpl) || !place_get(*p->root, &fpl)) {
            why = "'from' not found";
            goto done;
        }
    }
    if (!strcmp(name, "add") || !strcmp(name, "replace")) {
        if (!value)
            why = "missing 'value'";
        else
            why = put_copy(p, &pl, place_depth(path, plen), value, name[0] == 'r');
    } else if (!strcmp(name, "remove")) {
        json_t *gone = NULL;
        why = place_take(p, &pl, true, &gone);
        json_decref(gone);
    } else if (!strcmp(name, "move")) {
        if (from && flen == plen && !memcmp(from, path, plen))
            goto done;
        if (from && plen > flen && !memcmp(from, path, flen) && path[flen] == '/') {
            why = "cannot move a value into one of its own children";
            goto done;
        }
        size_t to_depth = place_depth(path, plen);
        json_t *v = NULL;
        uint64_t wv = 0;
        size_t d = 0;
        /* Only a move to the root, or deeper, needs the value weighed:
         * elsewhere its weight moves with it, and its depth cannot grow. */
        bool weigh_it = !pl.parent || to_depth > place_depth(from, flen);
        if (weigh_it && !weigh_work(p, place_get(*p->root, &fpl), &wv, &d)) {
            why = "limit";
            goto done;
        }
        if (weigh_it && to_depth + d > AN_JSON_PATCH_MAX_DEPTH) {
            p->limit = "depth";
            why = "limit";
            goto done;
        }
        if ((why = place_take(p, &fpl, false, &v)))
            goto done;
        /* Removing can shift array elements, so find the target again. */
        place_release(&pl);
        if (!locate(*p->root, path, plen, &pl)) {
            json_decref(v);
            why = "path not found";
        } else {
            why = place_put(p, &pl, v, pl.parent ? 0 : wv, false);
        }
    } else if (!strcmp(name, "copy")) {
        why = put_copy(p, &pl, place_depth(path, plen), place_get(*p->root, &fpl), false);
    } else if (!strcmp(name, "test")) {
        json_t *cur = place_get(*p->root, &pl);
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

int an_json_patch(json_t **doc, const json_t *ops, struct an_json_patch_cap *cap, char *why,
                  size_t why_cap)
{
    struct an_json_patch_cap none = {0};
    if (!json_is_array(ops)) {
        snprintf(why, why_cap, "patch is not an array of operations");
        return AN_EPROTO;
    }
    bool was_null = !*doc;
    if (was_null)
        *doc = json_null();
    struct patch p = {.root = doc, .cap = cap ? cap : &none};
    uint64_t bytes_before = p.cap->bytes;
    for (size_t i = 0; i < json_array_size(ops); i++) {
        const json_t *op = json_array_get(ops, i);
        const char *r = apply_op(&p, op);
        if (!r)
            continue;
        const char *name = an_json_str(op, "op");
        const char *path = an_json_str(op, "path");
        int rc = AN_EPROTO;
        char reason[160];
        if (p.limit) {
            rc = AN_ELIMIT;
            if (!strcmp(p.limit, "bytes"))
                snprintf(reason, sizeof reason, "the document would weigh more than %llu bytes",
                         (unsigned long long)p.cap->max_bytes);
            else if (!strcmp(p.limit, "work"))
                snprintf(reason, sizeof reason,
                         "patches copied, weighed or shifted more than %llu bytes",
                         (unsigned long long)p.cap->max_work);
            else
                snprintf(reason, sizeof reason, "the document would nest deeper than %d levels",
                         AN_JSON_PATCH_MAX_DEPTH);
            r = reason;
        }
        snprintf(why, why_cap, "operation %zu (%s '%.200s'): %s", i, name ? name : "?",
                 path ? path : "", r);
        log_undo(&p);
        log_release(&p);
        p.cap->bytes = bytes_before;
        if (was_null) {
            json_decref(*doc);
            *doc = NULL;
        }
        return rc;
    }
    log_release(&p);
    return 0;
}
