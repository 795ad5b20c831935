#include "core/arena.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

#define BLOCK_MIN (16u * 1024u)
#define ALIGN ((size_t) _Alignof(max_align_t))

struct an_arena_block {
    struct an_arena_block *next;
    size_t used, cap;
    _Alignas(max_align_t) unsigned char data[];
};

struct an_arena_defer {
    struct an_arena_defer *next;
    void (*fn)(void *);
    void *p;
};

void *an_arena_alloc(struct an_arena *a, size_t n)
{
    struct an_arena_block *b = a->head;
    size_t need = (n + ALIGN - 1) & ~(ALIGN - 1);
    if (need < n)
        an_oom();
    if (!b || b->cap - b->used < need) {
        size_t cap = need > BLOCK_MIN ? need : BLOCK_MIN;
        b = malloc(sizeof *b + cap);
        if (!b)
            an_oom();
        b->used = 0;
        b->cap = cap;
        b->next = a->head;
        a->head = b;
    }
    void *p = b->data + b->used;
    b->used += need;
    memset(p, 0, n);
    return p;
}

char *an_arena_strndup(struct an_arena *a, const char *s, size_t n)
{
    char *p = an_arena_alloc(a, n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}

char *an_arena_strdup(struct an_arena *a, const char *s)
{
    return s ? an_arena_strndup(a, s, strlen(s)) : NULL;
}

char *an_arena_printf(struct an_arena *a, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        n = 0;
    char *p = an_arena_alloc(a, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

void *an_arena_grow(struct an_arena *a, void *old, size_t n, size_t cap, size_t elem)
{
    if (cap && elem > SIZE_MAX / cap)
        an_oom();
    void *p = an_arena_alloc(a, cap * elem);
    if (old && n)
        memcpy(p, old, n * elem);
    return p;
}

void an_arena_defer(struct an_arena *a, void (*fn)(void *), void *p)
{
    struct an_arena_defer *d = an_xmalloc(sizeof *d);
    d->fn = fn;
    d->p = p;
    d->next = a->defers;
    a->defers = d;
}

void an_arena_release(struct an_arena *a)
{
    while (a->defers) {
        struct an_arena_defer *d = a->defers;
        a->defers = d->next;
        d->fn(d->p);
        free(d);
    }
    while (a->head) {
        struct an_arena_block *b = a->head;
        a->head = b->next;
        free(b);
    }
}
