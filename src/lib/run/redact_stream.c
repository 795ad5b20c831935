/* Frames redacted as the streams they carry (redact.h, an_redact_frames). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/arena.h"
#include "core/strmap.h"
#include "core/vec.h"
#include "run/redact.h"

/*
 * A streamed value may be cut into pieces in more than one way, so the
 * string values of a turn's frames are joined into streams three ways
 * (views), each searched, and the union of what they find is redacted:
 *   TYPED  the frame's "type" and the value's path: every
 *          TEXT_MESSAGE_CONTENT .delta, every choices[].delta.content;
 *   OWNED  the value's path and its owner: the ids met on the way to it
 *          (messageId, toolCallId, an OpenAI tool call's index, ACP's
 *          sessionUpdate), whatever the frame's type: two messages whose
 *          deltas alternate are two streams, and a message continued by
 *          TEXT_MESSAGE_CHUNK after TEXT_MESSAGE_CONTENT is one;
 *   PATH   the path alone: pieces under one name, whatever the type and
 *          the owner (a CHUNK that names no message).
 */
enum { V_TYPED, V_OWNED, V_PATH, NVIEWS };

/* Keys whose value says whose piece a frame (or an object in it) carries. */
static const char *const owner_keys[] = {"messageId", "toolCallId", "index", "sessionUpdate"};

struct span_list {
    struct an_redact_span *v;
    size_t n, cap;
};

/* A string value inside a parsed frame, its keys in each view, and the
 * spans of it (its own offsets) to redact. */
struct leaf {
    json_t *v;
    size_t frame;
    char *key[NVIEWS];
    struct span_list cut;
};

struct stream {
    char *key;
    struct an_buf text;
    size_t *leaves, *at; /* the leaves in stream order, and where each starts */
    size_t n, cap;
};

struct ctx {
    struct leaf *leaves;
    size_t nleaves, cap_leaves;
    bool *changed; /* per frame */
};

static void owner_of(json_t *o, struct an_buf *owner)
{
    for (size_t i = 0; i < sizeof owner_keys / sizeof *owner_keys; i++) {
        json_t *v = json_object_get(o, owner_keys[i]);
        if (json_is_string(v))
            an_buf_printf(owner, "%s=%s;", owner_keys[i], json_string_value(v));
        else if (json_is_integer(v))
            an_buf_printf(owner, "%s=%lld;", owner_keys[i], (long long)json_integer_value(v));
    }
}

static void walk(struct ctx *c, json_t *v, size_t frame, const char *type, struct an_buf *path,
                 struct an_buf *owner)
{
    size_t keep = path->len, keep_owner = owner->len;
    if (json_is_string(v)) {
        AN_GROW(c->leaves, c->nleaves, c->cap_leaves);
        struct leaf *l = &c->leaves[c->nleaves++];
        memset(l, 0, sizeof *l);
        l->v = v;
        l->frame = frame;
        struct an_buf k = AN_BUF_INIT;
        an_buf_printf(&k, "%s %s", type, an_buf_cstr(path));
        l->key[V_TYPED] = an_buf_detach(&k, NULL);
        an_buf_printf(&k, "%s|%s", an_buf_cstr(path), an_buf_cstr(owner));
        l->key[V_OWNED] = an_buf_detach(&k, NULL);
        l->key[V_PATH] = an_xstrdup(an_buf_cstr(path));
    } else if (json_is_object(v)) {
        owner_of(v, owner);
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            an_buf_printf(path, ".%s", k);
            walk(c, x, frame, type, path, owner);
            path->len = keep;
            path->data[keep] = '\0';
        }
        owner->len = keep_owner;
        if (owner->data)
            owner->data[keep_owner] = '\0';
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        an_buf_puts(path, "[]");
        json_array_foreach(v, i, x)
        {
            walk(c, x, frame, type, path, owner);
        }
        path->len = keep;
        path->data[keep] = '\0';
    }
}

/* One view: the leaves grouped into streams by their key in it, each
 * stream searched joined, and what it finds handed to its leaves. */
static void search_view(struct ctx *c, const struct an_redactor *r, int view, size_t *counts)
{
    /* counts: what this view found (the caller keeps, per label, the most
     * any view found: the views search the same pieces) */
    struct stream *st = NULL;
    size_t nst = 0, cap = 0;
    /* an agent may send as many message ids as events: look keys up */
    struct an_arena arena = AN_ARENA_INIT;
    struct an_strmap ix;
    an_strmap_init(&ix, &arena);
    for (size_t i = 0; i < c->nleaves; i++) {
        struct leaf *l = &c->leaves[i];
        struct stream *s = NULL;
        size_t k = (size_t)(uintptr_t)an_strmap_get(&ix, l->key[view]);
        if (k) {
            s = &st[k - 1];
        } else {
            AN_GROW(st, nst, cap);
            s = &st[nst++];
            memset(s, 0, sizeof *s);
            s->key = l->key[view];
            an_strmap_put(&ix, l->key[view], (void *)(uintptr_t)nst);
        }
        if (s->n == s->cap) {
            s->cap = s->cap ? s->cap * 2 : 8;
            s->leaves = an_xrealloc(s->leaves, s->cap * sizeof *s->leaves);
            s->at = an_xrealloc(s->at, s->cap * sizeof *s->at);
        }
        s->leaves[s->n] = i;
        s->at[s->n++] = s->text.len;
        an_buf_append(&s->text, json_string_value(l->v), json_string_length(l->v));
    }
    for (size_t k = 0; k < nst; k++) {
        struct stream *s = &st[k];
        struct an_redact_span *sp;
        size_t nsp = an_redact_find(r, an_buf_cstr(&s->text), s->text.len, counts, &sp);
        for (size_t i = 0; i < s->n && nsp; i++) {
            struct leaf *l = &c->leaves[s->leaves[i]];
            size_t at = s->at[i], len = json_string_length(l->v);
            for (size_t j = 0; j < nsp; j++) {
                if (sp[j].b <= at || sp[j].a >= at + len)
                    continue;
                size_t a = sp[j].a > at ? sp[j].a - at : 0;
                size_t e = sp[j].b - at < len ? sp[j].b - at : len;
                AN_GROW(l->cut.v, l->cut.n, l->cut.cap);
                l->cut.v[l->cut.n++] = (struct an_redact_span){a, e};
            }
        }
        free(sp);
        an_buf_release(&s->text);
        free(s->leaves);
        free(s->at);
    }
    free(st);
    an_arena_release(&arena);
}

static int span_cmp(const void *x, const void *y)
{
    const struct an_redact_span *p = x, *q = y;
    return p->a < q->a ? -1 : p->a > q->a ? 1 : 0;
}

/* The parts of one value its spans cover (from every view), replaced:
 * overlapping and touching spans become one "[redacted]". */
static void cut_leaf(struct ctx *c, struct leaf *l)
{
    if (!l->cut.n)
        return;
    struct an_redact_span *sp = l->cut.v;
    qsort(sp, l->cut.n, sizeof *sp, span_cmp);
    size_t w = 0;
    for (size_t i = 0; i < l->cut.n; i++) {
        if (w && sp[i].a <= sp[w - 1].b) {
            if (sp[i].b > sp[w - 1].b)
                sp[w - 1].b = sp[i].b;
            continue;
        }
        sp[w++] = sp[i];
    }
    const char *s = json_string_value(l->v);
    size_t len = json_string_length(l->v);
    struct an_buf b = AN_BUF_INIT;
    size_t at = 0; /* within the value */
    for (size_t i = 0; i < w; i++) {
        an_buf_append(&b, s + at, sp[i].a - at);
        an_buf_puts(&b, AN_REDACTED);
        at = sp[i].b;
    }
    an_buf_append(&b, s + at, len - at);
    /* a pattern may have cut a character in two: keep the JSON valid */
    char *clean = an_utf8_lossy(an_buf_cstr(&b), b.len);
    if (json_string_set(l->v, clean))
        an_oom();
    free(clean);
    an_buf_release(&b);
    c->changed[l->frame] = true;
}

/* Search the leaves of c joined every way; counts get, per label, the
 * most any view found (the views search the same pieces). True when a
 * leaf has something to cut. */
static bool search(struct ctx *c, const struct an_redactor *r, size_t *counts)
{
    size_t nl = an_redactor_nlabels(r);
    size_t *one = an_xcalloc(nl + 1, sizeof *one), *most = an_xcalloc(nl + 1, sizeof *most);
    for (int v = 0; v < NVIEWS; v++) {
        memset(one, 0, (nl + 1) * sizeof *one);
        search_view(c, r, v, one);
        for (size_t l = 0; l < nl; l++)
            most[l] = one[l] > most[l] ? one[l] : most[l];
    }
    for (size_t l = 0; counts && l < nl; l++)
        counts[l] += most[l];
    free(one);
    free(most);
    bool any = false;
    for (size_t i = 0; i < c->nleaves && !any; i++)
        any = c->leaves[i].cut.n > 0;
    return any;
}

static void release(struct ctx *c)
{
    for (size_t i = 0; i < c->nleaves; i++) {
        free(c->leaves[i].cut.v);
        for (int v = 0; v < NVIEWS; v++)
            free(c->leaves[i].key[v]);
    }
    free(c->leaves);
    free(c->changed);
}

/* The string values of v in walk()'s order. */
static void strings_of(json_t *v, json_t ***out, size_t *n, size_t *cap)
{
    if (json_is_string(v)) {
        AN_GROW(*out, *n, *cap);
        (*out)[(*n)++] = v;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *x;
        json_object_foreach(v, k, x)
        {
            strings_of(x, out, n, cap);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *x;
        json_array_foreach(v, i, x)
        {
            strings_of(x, out, n, cap);
        }
    }
}

/* Whether an object key anywhere in v holds something to redact. */
static bool keys_match(const struct an_redactor *r, const json_t *v)
{
    const char *k;
    json_t *x;
    size_t i;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, x)
        {
            struct an_redact_span *sp;
            size_t nsp = an_redact_find(r, k, strlen(k), NULL, &sp);
            free(sp);
            if (nsp || keys_match(r, x))
                return true;
        }
    } else if (json_is_array(v)) {
        json_array_foreach((json_t *)v, i, x)
        {
            if (keys_match(r, x))
                return true;
        }
    }
    return false;
}

json_t *an_redact_tree(const struct an_redactor *r, const json_t *v, size_t *counts)
{
    if (an_redactor_empty(r) || !v)
        return NULL;
    struct ctx c = {0};
    c.changed = an_xcalloc(2, sizeof *c.changed);
    struct an_buf path = AN_BUF_INIT, owner = AN_BUF_INIT;
    /* the walk only reads: the tree may be shared (a test's history) */
    const char *type = an_json_str(v, "type");
    walk(&c, (json_t *)v, 0, type ? type : "", &path, &owner);
    an_buf_release(&path);
    an_buf_release(&owner);
    json_t *out = NULL;
    if (search(&c, r, counts)) {
        /* cut in a copy: its strings, in the same order, are the leaves' */
        out = json_deep_copy(v);
        if (!out)
            an_oom();
        json_t **mine = NULL;
        size_t n = 0, cap = 0;
        strings_of(out, &mine, &n, &cap);
        for (size_t i = 0; i < c.nleaves && i < n; i++) {
            c.leaves[i].v = mine[i];
            cut_leaf(&c, &c.leaves[i]);
        }
        free(mine);
    }
    release(&c);
    if (keys_match(r, out ? out : v)) {
        json_t *all = an_redact_json(r, out ? out : v, counts);
        json_decref(out);
        out = all;
    }
    return out;
}

char **an_redact_frames(const struct an_redactor *r, const char *const *frames, size_t n,
                        size_t *counts)
{
    char **out = an_xcalloc(n + 1, sizeof *out);
    if (an_redactor_empty(r)) {
        for (size_t i = 0; i < n; i++)
            out[i] = an_xstrdup(frames[i] ? frames[i] : "");
        return out;
    }
    struct ctx c = {0};
    json_t **parsed = an_xcalloc(n + 1, sizeof *parsed);
    c.changed = an_xcalloc(n + 1, sizeof *c.changed);
    struct an_buf path = AN_BUF_INIT, owner = AN_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        const char *f = frames[i] ? frames[i] : "";
        parsed[i] = json_loadb(f, strlen(f), JSON_ALLOW_NUL, NULL);
        if (!json_is_object(parsed[i]) && !json_is_array(parsed[i]))
            continue; /* not JSON: only its text is searched, below */
        an_buf_reset(&path);
        an_buf_reset(&owner);
        const char *type = an_json_str(parsed[i], "type");
        walk(&c, parsed[i], i, type ? type : "", &path, &owner);
    }
    an_buf_release(&path);
    an_buf_release(&owner);

    if (search(&c, r, counts))
        for (size_t i = 0; i < c.nleaves; i++)
            cut_leaf(&c, &c.leaves[i]);
    bool *changed = c.changed;
    c.changed = NULL;
    release(&c);
    c.changed = changed;

    for (size_t i = 0; i < n; i++) {
        char *text = c.changed[i] ? an_json_compact(parsed[i])
                                  : an_xstrdup(frames[i] ? frames[i] : "");
        char *red = an_redact_text(r, text, strlen(text), counts, NULL);
        out[i] = red ? red : text;
        if (red)
            free(text);
        json_decref(parsed[i]);
    }
    free(parsed);
    free(c.changed);
    return out;
}
