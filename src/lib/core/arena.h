/*
 * Arena: many small allocations released at once.
 *
 * The model of a suite (config, tests, assert blocks) lives in one arena.
 * Objects owned by other libraries (pcre2 codes, jansson values) are never
 * carved from the arena: they are registered with an_arena_defer() and
 * released by an_arena_release() in reverse order of registration.
 */
#ifndef ANANKE_CORE_ARENA_H
#define ANANKE_CORE_ARENA_H

#include <stddef.h>

struct an_arena_block;
struct an_arena_defer;

struct an_arena {
    struct an_arena_block *head;
    struct an_arena_defer *defers;
};
/* clang-format off */
#define AN_ARENA_INIT {0}
/* clang-format on */

/* Zeroed memory, aligned for any type; aborts on out of memory. */
void *an_arena_alloc(struct an_arena *a, size_t n) __attribute__((returns_nonnull));
char *an_arena_strdup(struct an_arena *a, const char *s);
char *an_arena_strndup(struct an_arena *a, const char *s, size_t n)
    __attribute__((returns_nonnull));
char *an_arena_printf(struct an_arena *a, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Grow an arena array: returns a copy of `old` (n elements) with room for cap. */
void *an_arena_grow(struct an_arena *a, void *old, size_t n, size_t cap, size_t elem)
    __attribute__((returns_nonnull));

/* Run fn(p) when the arena is released. */
void an_arena_defer(struct an_arena *a, void (*fn)(void *), void *p);

/* Free every block and run every deferred release; the arena is reusable. */
void an_arena_release(struct an_arena *a);

#endif
