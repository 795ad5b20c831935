/* `{type: task_state, value: completed}` (docs/a2a.md): the states an a2a
 * task may end in, spelled as the user likes ("completed",
 * "TASK_STATE_COMPLETED", "input_required"), kept as A2A 0.3 spells them. */
#include <string.h>

#include "load/check_load.h"
#include "core/spec_names.h"

int an_task_state_load(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    static const char *const usage =
        "a task_state check needs 'value': a task state (submitted, working, input-required, "
        "auth-required, completed, failed, canceled, rejected, unknown) or a list of them";
    json_t *value = json_object_get(item, "value");
    if (!value || !(json_is_string(value) || (json_is_array(value) && json_array_size(value))))
        return an_check_fail(cx, value ? "value" : "type", "%s", usage);
    json_t *states = an_ck_keep(cx->ld, json_array());
    size_t i;
    json_t *v;
    json_t *one = json_is_string(value) ? json_pack("[O]", value) : json_incref(value);
    json_array_foreach(one, i, v)
    {
        const char *st = an_a2a_state(json_string_value(v));
        if (!st) {
            json_decref(one);
            if (!json_is_string(v))
                return an_check_fail(cx, "value", "%s", usage);
            return an_check_fail(cx, "value", "unknown task state '%s' (%s)", json_string_value(v),
                                 strchr(usage, '(') + 1);
        }
        json_array_append_new(states, json_string(st));
    }
    json_decref(one);
    out->value = states;
    return 0;
}
