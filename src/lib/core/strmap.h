/*
 * A string -> pointer map (open addressing, FNV-1a), allocated from an
 * arena: entries live as long as the arena, nothing is removed. Keys are
 * copied into the arena; values are borrowed.
 */
#ifndef ANANKE_CORE_STRMAP_H
#define ANANKE_CORE_STRMAP_H

#include <stddef.h>

#include "core/arena.h"

struct an_strmap {
    struct an_arena *a;
    const char **keys;
    void **vals;
    size_t n, cap;
};

void an_strmap_init(struct an_strmap *m, struct an_arena *a);
void *an_strmap_get(const struct an_strmap *m, const char *key); /* NULL: absent */
void an_strmap_put(struct an_strmap *m, const char *key, void *val);

#endif
