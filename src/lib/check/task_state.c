/* task_state: did the a2a task of the scope end in one of the states asked
 * for (docs/a2a.md)? The scope's task is its turn's, or for a whole test
 * the last turn's that has one. */
#include <string.h>

#include "check/check_int.h"
#include "core/json.h"

void an_ck_eval_task_state(const struct an_check_item *it, const struct an_scope *s,
                           const char *text, size_t len, struct an_check_verdict *v)
{
    (void)text;
    (void)len;
    const char *state = s->task ? an_json_str(s->task, "state") : NULL;
    size_t n = json_array_size(it->value), i;
    json_t *want;
    json_array_foreach(it->value, i, want)
    {
        if (state && !strcmp(state, json_string_value(want)))
            v->ok = true;
    }
    struct an_buf list = AN_BUF_INIT;
    json_array_foreach(it->value, i, want)
    {
        an_buf_printf(&list, "%s%s", i ? (i + 1 == n ? " or " : ", ") : "",
                      json_string_value(want));
    }
    an_buf_puts(&v->subject, "The task");
    an_buf_printf(&v->verb, "end %s", an_buf_cstr(&list));
    an_buf_printf(&v->expected, "%s%s", n > 1 ? "one of " : "", an_buf_cstr(&list));
    an_buf_printf(&v->negated_expected, "not %s", an_buf_cstr(&list));
    an_buf_release(&list);
    if (!s->task) {
        an_buf_puts(&v->actual, "no task (the agent answered with a message)");
        return;
    }
    an_buf_puts(&v->actual, state ? state : "no state");
    const json_t *states = json_object_get(s->task, "states");
    if (json_array_size(states) > 1) {
        an_buf_puts(&v->actual, " (");
        json_array_foreach(states, i, want)
        {
            an_buf_printf(&v->actual, "%s%s", i ? " → " : "", an_json_str(want, "state"));
        }
        an_buf_puts(&v->actual, ")");
    }
}
