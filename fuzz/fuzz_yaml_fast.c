/*
 * The YAML reader's fast path (core/yaml_fast.h) against libyaml: for every
 * input the fast path takes, libyaml must give the same tree (kinds,
 * strings, quoting, tags, file:line:col of every node) or the same error.
 * A difference aborts; the fix is to make the fast path decline that input
 * or read it right.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/arena.h"
#include "core/yaml.h"
#include "core/yaml_fast.h"
#include "fuzz.h"

static void differ(const char *what, const struct an_ynode *x, const struct an_ynode *y)
{
    fprintf(stderr, "fuzz_yaml_fast: %s: fast %u:%u, libyaml %u:%u\n", what, x->loc.line,
            x->loc.col, y->loc.line, y->loc.col);
    abort();
}

static void same(const struct an_ynode *x, const struct an_ynode *y)
{
    if (x->kind != y->kind || x->loc.line != y->loc.line || x->loc.col != y->loc.col ||
        strcmp(x->loc.file, y->loc.file) != 0)
        differ("node kind or location", x, y);
    if (x->kind == AN_Y_SCALAR) {
        if (x->len != y->len || memcmp(x->str, y->str, x->len + 1) != 0)
            differ("scalar value", x, y);
        if (x->quoted != y->quoted || !x->tag != !y->tag || (x->tag && strcmp(x->tag, y->tag)))
            differ("scalar quoting or tag", x, y);
        return;
    }
    if (x->nitems != y->nitems || x->npairs != y->npairs)
        differ("collection size", x, y);
    for (size_t i = 0; i < x->nitems; i++)
        same(x->items[i], y->items[i]);
    for (size_t i = 0; i < x->npairs; i++) {
        same(x->pairs[i].key, y->pairs[i].key);
        same(x->pairs[i].value, y->pairs[i].value);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct an_arena a1 = AN_ARENA_INIT, s1 = AN_ARENA_INIT, a2 = AN_ARENA_INIT, s2 = AN_ARENA_INIT;
    struct an_err e1 = AN_ERR_INIT, e2 = AN_ERR_INIT;
    struct an_ynode *fast = NULL, *slow = NULL;
    const char *text = (const char *)data;
    int rf =
        an_yaml_load_mem_with(&fast, "fuzz.yaml", text, size, &a1, &s1, &e1, AN_YAML_READER_FAST);
    if (rf != AN_YAML_FAST_DECLINED) {
        int rs = an_yaml_load_mem_with(&slow, "fuzz.yaml", text, size, &a2, &s2, &e2,
                                       AN_YAML_READER_LIBYAML);
        if (rf != rs) {
            fprintf(stderr, "fuzz_yaml_fast: fast rc %d (%s), libyaml rc %d (%s)\n", rf, e1.msg, rs,
                    e2.msg);
            abort();
        }
        if (rf == 0) {
            same(fast, slow);
        } else if (e1.code != e2.code || strcmp(e1.msg, e2.msg) || strcmp(e1.file, e2.file) ||
                   e1.line != e2.line || e1.col != e2.col) {
            fprintf(stderr, "fuzz_yaml_fast: errors differ: %u:%u %s / %u:%u %s\n", e1.line, e1.col,
                    e1.msg, e2.line, e2.col, e2.msg);
            abort();
        }
    }
    an_arena_release(&a1);
    an_arena_release(&s1);
    an_arena_release(&a2);
    an_arena_release(&s2);
    return 0;
}
