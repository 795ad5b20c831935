#include "agui_input.h"

#include <stdio.h>

const char *agui_input_problem(const json_t *body, char *buf, size_t cap)
{
    static const char *const ids[] = {"threadId", "runId"};
    for (size_t i = 0; i < 2; i++) {
        const json_t *v = json_object_get(body, ids[i]);
        if (!json_is_string(v)) {
            snprintf(buf, cap, "%s %s", v ? "not a string:" : "missing", ids[i]);
            return buf;
        }
    }
    const json_t *msgs = json_object_get(body, "messages");
    if (!json_is_array(msgs)) {
        snprintf(buf, cap, "%s messages", msgs ? "not an array:" : "missing");
        return buf;
    }
    size_t i;
    const json_t *m;
    json_array_foreach(msgs, i, m)
    {
        if (!json_is_string(json_object_get(m, "id")) ||
            !json_is_string(json_object_get(m, "role"))) {
            snprintf(buf, cap, "messages[%zu] needs string 'id' and 'role'", i);
            return buf;
        }
    }
    static const char *const arrays[] = {"tools", "context"};
    for (size_t k = 0; k < 2; k++) {
        const json_t *v = json_object_get(body, arrays[k]);
        if (v && !json_is_array(v)) {
            snprintf(buf, cap, "not an array: %s", arrays[k]);
            return buf;
        }
    }
    return NULL;
}
