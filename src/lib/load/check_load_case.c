/* The loaders of seed 004's run-case checks (docs/http.md):
 * action_required, tool_sequence, retrieval_required, json_schema,
 * evidence_required, tool_execution; rows of check/check_kinds.c. */
#include <string.h>

#include "core/jsonschema.h"
#include "load/check_load.h"

static void jschema_release(void *p)
{
    an_jschema_free(p);
}

/* A name or a non-empty list of non-empty names, as a list (a new list in
 * the arena when one name was written). `what` names them in messages. */
static int name_list(struct an_check_ctx *cx, json_t *v, const char *what, json_t **out)
{
    const char *kind = cx->def->name;
    if (json_is_string(v) && json_string_length(v)) {
        *out = an_ck_keep(cx->ld, json_pack("[O]", v));
        return 0;
    }
    size_t i;
    json_t *e;
    bool ok = json_is_array(v) && json_array_size(v);
    json_array_foreach(v, i, e)
    {
        ok = ok && json_is_string(e) && json_string_length(e);
    }
    if (!ok)
        return an_check_fail(cx, v ? "value" : "type", "%s %s check needs 'value': a list of %s",
                             strchr("aeiou", kind[0]) ? "an" : "a", kind, what);
    *out = v;
    return 0;
}

int an_ck_load_action_required(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    return name_list(cx, json_object_get(item, "value"), "action types", &out->value);
}

int an_ck_load_tool_sequence(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    return name_list(cx, json_object_get(item, "value"), "tool names, in order", &out->value);
}

int an_ck_load_retrieval_required(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *value = json_object_get(item, "value");
    json_t *ids = json_is_object(value) ? json_object_get(value, "doc_ids") : value;
    if (json_is_object(value) && json_object_size(value) != (ids ? 1u : 0u))
        return an_check_fail(cx, "value",
                             "a retrieval_required value is a list of doc ids or {doc_ids: "
                             "[...]}");
    return name_list(cx, ids, "doc ids (or {doc_ids: [...]})", &out->value);
}

int an_ck_load_json_schema(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *value = json_object_get(item, "value");
    char why[700];
    if (!json_is_object(value) && !json_is_boolean(value))
        return an_check_fail(cx, value ? "value" : "type",
                             "a json_schema check needs 'value': a JSON Schema (an object)");
    if (an_jschema_compile(&out->schema, value, why, sizeof why))
        return an_check_fail(cx, "value", "invalid JSON Schema %s", why);
    an_arena_defer(cx->ld->a, jschema_release, out->schema);
    out->value = value;
    return 0;
}

int an_ck_load_evidence_required(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    (void)out;
    json_t *value = json_object_get(item, "value");
    if (value && !json_is_true(value))
        return an_check_fail(cx, "value",
                             "an evidence_required check takes no 'value' (or true); leave the "
                             "check out to not require evidence");
    return 0;
}

int an_ck_load_tool_execution(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    (void)out;
    if (json_object_get(item, "value"))
        return an_check_fail(cx, "value", "a tool_execution check takes no 'value'");
    return 0;
}
