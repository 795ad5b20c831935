/* The loaders of the checks on tool calls: tool_called, tool_result (rows
 * of check/check_kinds.c). Their subset patterns' "regex:..." strings are
 * compiled here once, so a bad one is a load error. */
#include <string.h>

#include "load/check_load.h"

/* Every "regex:..." string leaf of a subset pattern must compile. */
static int subset_regexes(struct an_ld *ld, const json_t *v, const struct an_loc *loc)
{
    if (json_is_string(v) && !strncmp(json_string_value(v), "regex:", 6)) {
        struct an_regex *re = NULL;
        int rc = an_regex_compile(&re, json_string_value(v) + 6, loc, ld->err);
        an_regex_free(re);
        return rc;
    }
    const char *k;
    json_t *m;
    size_t i;
    int rc;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, m)
        {
            if ((rc = subset_regexes(ld, m, loc)))
                return rc;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, m)
        {
            if ((rc = subset_regexes(ld, m, loc)))
                return rc;
        }
    }
    return 0;
}

/* tool_called's {name, arguments} value. */
static int called_object(struct an_check_ctx *cx, json_t *v)
{
    json_t *n = json_object_get(v, "name"), *a = json_object_get(v, "arguments");
    const char *k;
    json_t *m;
    json_object_foreach(v, k, m)
    {
        if (strcmp(k, "name") && strcmp(k, "arguments"))
            return an_check_fail(cx, "value",
                                 "unknown key '%s' in a tool_called value (valid keys: name, "
                                 "arguments)",
                                 k);
    }
    if (!json_is_string(n) || !json_string_length(n))
        return an_check_fail(cx, "value", "a tool_called value needs 'name' (a string)");
    if (a && !json_is_object(a))
        return an_check_fail(cx, "value", "'arguments' must be an object");
    struct an_loc loc = an_ck_key_loc(cx->src, "value");
    return subset_regexes(cx->ld, a, &loc);
}

/* tool_called's name, list of names or {name, arguments}, written at `key`. */
static int called_value(struct an_check_ctx *cx, const char *key, json_t *v)
{
    if (json_is_string(v)) {
        if (!json_string_length(v))
            return an_check_fail(cx, key, "the tool name must not be empty");
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        if (!json_array_size(v))
            return an_check_fail(cx, key, "the list of tool names is empty");
        json_array_foreach(v, i, e)
        {
            if (!json_is_string(e) || !json_string_length(e))
                return an_check_fail(cx, key, "a list of tool names must hold non-empty strings");
        }
    } else if (json_is_object(v)) {
        return called_object(cx, v);
    } else {
        return an_check_fail(cx, key,
                             "a tool_called check takes a tool name, a list of names, or "
                             "{name, arguments}");
    }
    return 0;
}

int an_ck_load_tool_called(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *name = json_object_get(item, "name"), *value = json_object_get(item, "value");
    json_t *args = json_object_get(item, "arguments");
    if (name && value)
        return an_check_fail(cx, "name", "a tool_called check takes 'name' or 'value', not both");
    json_t *v = name ? name : value;
    if (!v)
        return an_check_fail(cx, "type",
                             "a tool_called check needs 'name' (a tool name, a list of names, "
                             "or {name, arguments})");
    if (args) {
        if (!json_is_string(v))
            return an_check_fail(cx, "arguments", "'arguments' needs 'name' to be one tool name");
        if (!json_is_object(args))
            return an_check_fail(cx, "arguments", "'arguments' must be an object");
        v = an_ck_keep(cx->ld, json_pack("{s:O,s:O}", "name", v, "arguments", args));
    }
    int rc = called_value(cx, name ? "name" : "value", v);
    if (rc)
        return rc;
    out->value = v;
    return 0;
}

int an_ck_load_tool_result(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *v = json_object_get(item, "value");
    if (!json_is_object(v))
        return an_check_fail(cx, v ? "value" : "type",
                             "a tool_result check needs 'value': {tool, result} (both optional: "
                             "the tool's name and a subset of its result)");
    const char *k;
    json_t *m;
    json_object_foreach(v, k, m)
    {
        if (strcmp(k, "tool") && strcmp(k, "result"))
            return an_check_fail(cx, "value",
                                 "unknown key '%s' in a tool_result value (valid keys: tool, "
                                 "result)",
                                 k);
    }
    json_t *tool = json_object_get(v, "tool");
    if (tool && (!json_is_string(tool) || !json_string_length(tool)))
        return an_check_fail(cx, "value", "'tool' must be a tool name");
    struct an_loc loc = an_ck_key_loc(cx->src, "value");
    int rc = subset_regexes(cx->ld, json_object_get(v, "result"), &loc);
    if (rc)
        return rc;
    out->value = v;
    return 0;
}
