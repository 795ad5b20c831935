/* The loaders of the checks on text and JSON: contains, not_contains,
 * equals, regex, json_path, type (rows of check/check_kinds.c). */
#include <string.h>

#include "ananke/check.h"
#include "load/check_load.h"

static void regex_release(void *p)
{
    an_regex_free(p);
}

/* A regex compiled once per suite for every place it is written. */
static int compile(struct an_ld *ld, const char *src_text, const struct an_loc *loc,
                   struct an_regex **out)
{
    int rc;
    if (ld->regexes && (*out = an_strmap_get(ld->regexes, src_text)))
        return 0;
    if ((rc = an_regex_compile(out, src_text, loc, ld->err)))
        return rc;
    an_arena_defer(ld->a, regex_release, *out);
    if (ld->regexes)
        an_strmap_put(ld->regexes, an_arena_strdup(ld->a, src_text), *out);
    return 0;
}

int an_ck_load_text(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *value = json_object_get(item, "value");
    if (!value)
        return an_check_fail(cx, "type", "a %s check needs 'value'", cx->def->name);
    if (out->kind != AN_CHECK_EQUALS && json_is_string(value) && !json_string_length(value))
        return an_check_fail(cx, "value", "'value' must not be empty (every text contains \"\")");
    out->value = value;
    return 0;
}

int an_ck_load_regex(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *value = json_object_get(item, "value");
    json_t *p = json_object_get(item, "pattern");
    if (p && value)
        return an_check_fail(cx, "pattern", "a regex check takes 'pattern' or 'value', not both");
    if (!p)
        p = value;
    const char *key = json_object_get(item, "pattern") ? "pattern" : "value";
    if (!json_is_string(p) || !json_string_length(p))
        return an_check_fail(cx, p ? key : "type", "a regex check needs 'pattern' (a string)");
    struct an_loc loc = an_ck_key_loc(cx->src, key);
    return compile(cx->ld, json_string_value(p), &loc, &out->re);
}

/* `path:` of json_path and type, when written. */
static int load_path(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *p = json_object_get(item, "path"), *dummy;
    if (p && (!json_is_string(p) || an_json_path_get(NULL, json_string_value(p), &dummy)))
        return an_check_fail(cx, "path",
                             "'path' must be a JSON path such as \"$.order.items[0].sku\"");
    if (p)
        out->path = json_string_value(p);
    return 0;
}

int an_ck_load_json_path(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    int rc = load_path(cx, item, out);
    if (rc)
        return rc;
    if (!out->path)
        return an_check_fail(cx, "type", "a json_path check needs 'path'");
    out->value = json_object_get(item, "value"); /* absent: the path must exist */
    return 0;
}

int an_ck_load_type(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    static const char *const json_types[] = {"string", "number", "boolean", "array",
                                             "object", "null",   NULL};
    int rc = load_path(cx, item, out);
    if (rc)
        return rc;
    json_t *value = json_object_get(item, "value");
    const char *tn = json_string_value(value);
    size_t j = 0;
    while (tn && json_types[j] && strcmp(json_types[j], tn))
        j++;
    if (!tn || !json_types[j])
        return an_check_fail(cx, value ? "value" : "type",
                             "a type check needs 'value': string, number, boolean, array, "
                             "object or null");
    out->value = value;
    return 0;
}
