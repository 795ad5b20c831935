/* The JSON Schema of a typed check (definitions.check of
 * schema/ananke.test.schema.json and ananke.config.schema.json), derived
 * from the check-kind table and the assert block's rule groups;
 * tests/unit/test_check_kinds.c fails when the committed schemas differ. */
#include <string.h>

#include "ananke/check_kind.h"
#include "load/assert_load.h"
#include "load/check_load.h"

/* The key's JSON Schema: its description, its type's schema, its extras. */
static json_t *key_schema(const struct an_check_key *k)
{
    static const char *const types[] = {[AN_CK_BOOL] = "boolean",
                                        [AN_CK_INT] = "integer",
                                        [AN_CK_STRING] = "string",
                                        [AN_CK_OBJECT] = "object"};
    json_t *p = json_object();
    if (k->doc)
        json_object_set_new(p, "description", json_string(k->doc));
    if (k->type != AN_CK_ANY)
        json_object_set_new(p, "type", json_string(types[k->type]));
    json_t *extra = k->schema ? json_loads(k->schema, 0, NULL) : NULL;
    if (extra)
        json_object_update(p, extra);
    json_decref(extra);
    return p;
}

/* Every kind's name, then every assert block rule as GROUP.KEY. */
static json_t *type_names(void)
{
    json_t *e = json_array();
    for (size_t k = 0; k < an_check_kind_count(); k++)
        json_array_append_new(e, json_string(an_check_kind_get((enum an_check_kind)k)->name));
    for (size_t r = 0; an_rules[r].group; r++)
        json_array_append_new(e, json_sprintf("%s.%s", an_rules[r].group, an_rules[r].key));
    return e;
}

json_t *an_check_kinds_schema(void)
{
    json_t *props = json_object();
    for (size_t i = 0; i < an_check_keys_count(); i++) {
        const struct an_check_key *k = an_check_key_at(i);
        json_t *p = key_schema(k);
        if (!strcmp(k->name, "type"))
            json_object_set_new(p, "enum", type_names());
        json_object_set_new(props, k->name, p);
    }
    return json_pack(
        "{s:s,s:s,s:b,s:o}", "description",
        "A typed check (seed 002's assertion list), written as in a JSONL case: contains, "
        "not_contains, equals, regex, json_path, type, tool_called, tool_result, script, agent, "
        "and seed 004's run-case checks action_required, tool_sequence, retrieval_required, "
        "json_schema, evidence_required, tool_execution (docs/http.md), and task_state for an "
        "a2a target's task (docs/a2a.md). Every check takes negate and message. An assert "
        "block's rule may be written as a check too, {type: GROUP.KEY, value: ...}: "
        "tools.allow, tools.sequence, timing.max_ttft_ms, usage.max_total_tokens and the rest "
        "(docs/assertions.md).",
        "type", "object", "additionalProperties", 0, "properties", props);
}
