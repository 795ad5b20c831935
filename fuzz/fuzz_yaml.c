/*
 * The YAML reader (core/yaml.h) every YAML format goes through: a document
 * from memory into the located tree, typed scalars, and the tree as JSON
 * (aliases expanded under the node cap).
 */
#include "core/arena.h"
#include "core/yaml.h"
#include "fuzz.h"

static void walk(const struct an_ynode *n, unsigned depth)
{
    if (!n || depth > AN_YAML_MAX_DEPTH + 8)
        return;
    bool b;
    long long i;
    (void)an_yaml_is_null(n);
    (void)an_yaml_as_bool(n, &b);
    (void)an_yaml_as_int(n, &i);
    (void)an_yaml_kind_name(n);
    /* aliases share nodes: a bomb is walked only near the root */
    if (depth > 4)
        return;
    for (size_t k = 0; k < n->nitems && k < 16; k++)
        walk(n->items[k], depth + 1);
    for (size_t k = 0; k < n->npairs && k < 16; k++) {
        walk(n->pairs[k].key, depth + 1);
        walk(n->pairs[k].value, depth + 1);
        (void)an_yaml_get(n, n->pairs[k].key->str);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct an_arena a = AN_ARENA_INIT, s = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_ynode *root;
    if (an_yaml_load_mem2(&root, "fuzz.yaml", (const char *)data, size, &a, &s, &err) == 0) {
        walk(root, 0);
        json_t *j = an_yaml_to_json(root, &err);
        json_decref(j);
    }
    an_arena_release(&a);
    an_arena_release(&s);
    return 0;
}
