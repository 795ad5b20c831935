/*
 * The AG-UI decoder's id maps (message id or toolCallId -> index): open
 * addressing over FNV-1a, keys copied. What a jansson object did here for
 * a handful of ids per run, with a fraction of the allocations: one table
 * and one copy per key.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "proto/agui_dec_int.h"

static uint64_t hash(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

/* The slot holding key[0..n), or the empty slot where it would go. */
static struct an_agui_idslot *find(const struct an_agui_idmap *m, const char *key, size_t n,
                                   uint64_t h)
{
    size_t i = (size_t)h & (m->cap - 1);
    for (;; i = (i + 1) & (m->cap - 1)) {
        struct an_agui_idslot *e = &m->slots[i];
        if (!e->key || (e->hash == h && e->len == n && !memcmp(e->key, key, n)))
            return e;
    }
}

static void key_free(struct an_agui_idslot *e)
{
    if (e->key != e->in)
        free(e->key);
}

size_t an_agui_idmap_getn(const struct an_agui_idmap *m, const char *key, size_t n)
{
    if (!m->cap)
        return NONE;
    const struct an_agui_idslot *e = find(m, key, n, hash(key, n));
    return e->key ? e->val : NONE;
}

void an_agui_idmap_set(struct an_agui_idmap *m, const char *key, size_t val)
{
    size_t n = strlen(key);
    uint64_t h = hash(key, n);
    if ((m->n + 1) * 4 > m->cap * 3) { /* at most 3/4 full */
        struct an_agui_idmap grown = {.cap = m->cap ? m->cap * 2 : 16, .n = m->n};
        grown.slots = an_xcalloc(grown.cap, sizeof *grown.slots);
        for (size_t i = 0; i < m->cap; i++) {
            struct an_agui_idslot *o = &m->slots[i];
            if (!o->key)
                continue;
            struct an_agui_idslot *e = find(&grown, o->key, o->len, o->hash);
            *e = *o;
            if (o->key == o->in)
                e->key = e->in;
        }
        free(m->slots);
        *m = grown;
    }
    struct an_agui_idslot *e = find(m, key, n, h);
    if (!e->key) {
        if (n < sizeof e->in) {
            memcpy(e->in, key, n + 1);
            e->key = e->in;
        } else {
            e->key = an_xstrndup(key, n);
        }
        e->len = n;
        e->hash = h;
        m->n++;
    }
    e->val = val;
}

void an_agui_idmap_release(struct an_agui_idmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        key_free(&m->slots[i]);
    free(m->slots);
    memset(m, 0, sizeof *m);
}

void an_agui_idmap_clear(struct an_agui_idmap *m, size_t max_cap)
{
    if (m->cap > max_cap) {
        an_agui_idmap_release(m);
        return;
    }
    if (!m->n)
        return;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key) {
            key_free(&m->slots[i]);
            m->slots[i].key = NULL;
        }
    m->n = 0;
}
