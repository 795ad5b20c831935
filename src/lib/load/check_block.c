/* An assert block's rules written as typed checks: `{"type": "tools.allow",
 * "value": ["search_*"]}` is `tools: {allow: ["search_*"]}`. JSONL cases,
 * `checks:` lists and cases.json's `expected` reach every rule of the block
 * this way, and the block's own loader reads the value, so a rule is read,
 * checked and judged the same whichever way it is written. */
#include <string.h>

#include "core/yaml.h"
#include "load/assert_load.h"
#include "load/check_load.h"

static struct an_ynode *scalar(struct an_arena *a, const char *s, const struct an_loc *loc)
{
    struct an_ynode *n = an_arena_alloc(a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = AN_Y_SCALAR;
    n->loc = *loc;
    n->str = s;
    n->len = strlen(s);
    return n;
}

static struct an_ynode *map1(struct an_arena *a, struct an_ynode *key, struct an_ynode *value)
{
    struct an_ynode *n = an_arena_alloc(a, sizeof *n);
    memset(n, 0, sizeof *n);
    n->kind = AN_Y_MAP;
    n->loc = key->loc;
    n->pairs = an_arena_alloc(a, sizeof *n->pairs);
    n->pairs[0] = (struct an_ypair){key, value};
    n->npairs = 1;
    return n;
}

int an_check_block_load(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                        enum an_level level, struct an_assert *blk, bool *taken)
{
    *taken = false;
    const char *type =
        json_string_value(json_is_string(item) ? item : json_object_get(item, "type"));
    const char *dot = type ? strchr(type, '.') : NULL;
    if (!dot)
        return 0;
    const char *group = an_rule_group(type, (size_t)(dot - type));
    if (!group)
        return 0;
    *taken = true;
    if (!json_is_object(item))
        return an_ck_fail(ld, src, "type",
                          "a %s assertion needs 'value': {\"type\": \"%s\", "
                          "\"value\": ...}",
                          type, type);
    const char *k;
    json_t *m;
    json_object_foreach(item, k, m)
    {
        if (strcmp(k, "type") && strcmp(k, "value"))
            return an_ck_fail(ld, src, k,
                              "a %s assertion takes 'type' and 'value' only, not '%s' (its "
                              "findings are worded like the assert block's)",
                              type, k);
    }
    json_t *value = json_object_get(item, "value");
    if (!value)
        return an_ck_fail(ld, src, "type", "a %s assertion needs 'value'", type);
    struct an_loc tloc = an_ck_key_loc(src, "type"), vloc = an_ck_key_loc(src, "value");
    const struct an_ynode *vnode = src->ynode ? an_yaml_get(src->ynode, "value") : NULL;
    struct an_ynode *v = vnode ? (struct an_ynode *)vnode : an_yaml_from_json(value, &vloc, ld->a);
    struct an_ynode *root =
        map1(ld->a, scalar(ld->a, group, &tloc), map1(ld->a, scalar(ld->a, dot + 1, &tloc), v));
    root->loc = tloc;
    struct an_assert one;
    int rc = an_assert_load(ld, root, level, NULL, &one);
    if (rc)
        return rc;
    an_assert_absorb(ld, blk, &one);
    return 0;
}
