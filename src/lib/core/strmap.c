#include "core/strmap.h"

#include <stdint.h>
#include <string.h>

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return h;
}

void an_strmap_init(struct an_strmap *m, struct an_arena *a)
{
    memset(m, 0, sizeof *m);
    m->a = a;
}

static size_t slot(const char *const *keys, size_t cap, const char *key)
{
    size_t i = (size_t)hash(key) & (cap - 1);
    while (keys[i] && strcmp(keys[i], key))
        i = (i + 1) & (cap - 1);
    return i;
}

void *an_strmap_get(const struct an_strmap *m, const char *key)
{
    if (!m->cap)
        return NULL;
    size_t i = slot(m->keys, m->cap, key);
    return m->keys[i] ? m->vals[i] : NULL;
}

void an_strmap_put(struct an_strmap *m, const char *key, void *val)
{
    if ((m->n + 1) * 4 > m->cap * 3) { /* keep it at most 3/4 full */
        size_t cap = m->cap ? m->cap * 2 : 64;
        const char **keys = an_arena_alloc(m->a, cap * sizeof *keys);
        void **vals = an_arena_alloc(m->a, cap * sizeof *vals);
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->keys[i])
                continue;
            size_t j = slot(keys, cap, m->keys[i]);
            keys[j] = m->keys[i];
            vals[j] = m->vals[i];
        }
        m->keys = keys;
        m->vals = vals;
        m->cap = cap;
    }
    size_t i = slot(m->keys, m->cap, key);
    if (!m->keys[i]) {
        m->keys[i] = an_arena_strdup(m->a, key);
        m->n++;
    }
    m->vals[i] = val;
}
