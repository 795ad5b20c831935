/*
 * The conversation an AG-UI client keeps between runs: the RunAgentInput
 * each run sends (full history, state, forwardedProps), and how a run's
 * messages join that history (spec: processing, 4.4 of reference/agui.md).
 */
#include <string.h>

#include "ananke/err.h"
#include "core/json.h"
#include "proto/agui_dec_int.h"
#include "proto/uuid.h"

static json_t *call_json(const struct an_tool_call *tc, const struct call *c)
{
    const char *args = tc->args_text ? tc->args_text : an_buf_cstr(&c->args);
    /* {id, type: "function", function: {name, arguments}}, built directly
     * (json_pack parses its format string every time) */
    json_t *fn = json_object(), *o = json_object();
    if (!fn || !o)
        an_oom();
    json_object_set_new(fn, "name", an_json_lossy(tc->name, strlen(tc->name)));
    json_object_set_new(fn, "arguments", an_json_lossy(args, strlen(args)));
    json_object_set_new(o, "id", an_json_lossy(tc->id, strlen(tc->id)));
    json_object_set_new(o, "type", json_string("function"));
    json_object_set_new(o, "function", fn);
    return o;
}

static json_t *str_json(const char *s)
{
    return an_json_lossy(s, strlen(s));
}

static json_t *msg_json(struct an_agui_dec *d, const struct msg *m)
{
    json_t *o = json_object();
    json_object_set_new(o, "id", str_json(m->id));
    json_object_set_new(o, "role", str_json(m->role));
    if (m->tool_call_id) {
        json_object_set_new(o, "toolCallId", str_json(m->tool_call_id));
        json_object_set(o, "content", m->tool_content);
        return o;
    }
    if (m->name)
        json_object_set_new(o, "name", str_json(m->name));
    if (m->has_content || !m->ncalls)
        json_object_set_new(o, "content",
                            an_json_lossy(an_buf_cstr(&m->content), m->content.len));
    if (m->ncalls) {
        json_t *calls = json_array();
        for (size_t k = 0; k < m->ncalls; k++) {
            size_t ci = m->calls[k];
            json_array_append_new(calls, call_json(tcall(d, ci), &d->calls[ci]));
        }
        json_object_set_new(o, "toolCalls", calls);
    }
    return o;
}

/* id -> position in `arr` (the first message with that id), so merging a
 * run of many messages costs their number, not its square. New reference. */
static json_t *index_ids(json_t *arr)
{
    json_t *ix = json_object();
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m)
    {
        const char *mid = an_json_str(m, "id");
        if (mid && !json_object_get(ix, mid))
            json_object_set_new(ix, mid, json_integer((json_int_t)i));
    }
    return ix;
}

/* A message reopened in a later run continues the one in the history. */
static void continue_msg(json_t *old, json_t *add)
{
    const char *role = an_json_str(old, "role");
    if (!role || strcmp(role, "assistant") || strcmp(role, an_json_str(add, "role"))) {
        json_object_update(old, add);
        return;
    }
    const char *c0 = an_json_str(old, "content"), *c1 = an_json_str(add, "content");
    if (c1) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_puts(&b, c0 ? c0 : "");
        an_buf_puts(&b, c1);
        json_object_set_new(old, "content", an_json_lossy(b.data ? b.data : "", b.len));
        an_buf_release(&b);
    }
    json_t *calls = json_object_get(add, "toolCalls");
    if (calls) {
        json_t *have = json_object_get(old, "toolCalls");
        if (!json_is_array(have)) {
            have = json_array();
            json_object_set_new(old, "toolCalls", have);
        }
        json_array_extend(have, calls);
    }
}

void an_agui_history_merge(struct an_agui_dec *d)
{
    struct an_agui_conv *c = d->conv;
    if (d->snapshot) {
        /* The agent restated the history: it replaces ours, and only what
         * this run produced after the snapshot is added to it (4.4). */
        json_decref(c->messages);
        c->messages = json_deep_copy(d->snapshot);
    }
    json_t *ix = index_ids(c->messages);
    for (size_t k = 0; k < d->norder; k++) {
        const struct msg *m = &d->msgs[d->order[k]];
        if (d->snapshot && m->seq < d->snapshot_seq)
            continue;
        json_t *j = msg_json(d, m);
        json_t *pos = json_object_get(ix, m->id);
        size_t at = pos ? (size_t)json_integer_value(pos) : NONE;
        if (at == NONE) {
            json_object_set_new(ix, m->id, json_integer((json_int_t)json_array_size(c->messages)));
            json_array_append_new(c->messages, j);
        } else {
            /* Earlier turn records share the history's message objects
             * (an_agui_dec_finish): change a copy, never one they hold. */
            json_t *old = json_deep_copy(json_array_get(c->messages, at));
            continue_msg(old, j);
            json_array_set_new(c->messages, at, old);
            json_decref(j);
        }
    }
    json_decref(ix);
}

void an_agui_conv_init(struct an_agui_conv *c, const char *thread_id, const json_t *state,
                       const json_t *forwarded_props)
{
    char id[AN_UUID_STR];
    if (!thread_id) {
        an_uuid4(id);
        thread_id = id;
    }
    c->thread_id = an_xstrdup(thread_id);
    c->messages = json_array();
    c->state = state ? json_deep_copy(state) : json_object();
    c->forwarded_props = forwarded_props ? json_deep_copy(forwarded_props) : json_object();
    c->user_parts = NULL;
}

void an_agui_conv_seed(struct an_agui_conv *c, const json_t *messages)
{
    if (!json_is_array(messages))
        return;
    json_decref(c->messages);
    c->messages = json_deep_copy(messages);
}

void an_agui_conv_release(struct an_agui_conv *c)
{
    free(c->thread_id);
    json_decref(c->messages);
    json_decref(c->state);
    json_decref(c->forwarded_props);
    memset(c, 0, sizeof *c);
}

/* The user message joins the history; then the input object, whose members
 * are copies (`copy`) or borrowed references to the conversation's own. */
static json_t *input(struct an_agui_conv *c, const char *run_id, const char *user, bool copy)
{
    if (user) {
        char id[AN_UUID_STR];
        an_uuid4(id);
        json_t *content = c->user_parts ? json_deep_copy(c->user_parts) : str_json(user);
        c->user_parts = NULL;
        json_array_append_new(c->messages, json_pack("{s:s,s:s,s:o}", "id", id, "role", "user",
                                                     "content", content));
    }
    /* Key order as the reference client sends it; `protocolVersion` is left
     * out so 0.0.x servers that reject unknown keys still accept the body. */
    json_t *in = json_object();
    json_t *state = c->state ? c->state : json_null();
    json_object_set_new(in, "threadId", str_json(c->thread_id));
    json_object_set_new(in, "runId", str_json(run_id));
    json_object_set_new(in, "state", copy ? json_deep_copy(state) : json_incref(state));
    json_object_set_new(in, "messages",
                        copy ? json_deep_copy(c->messages) : json_incref(c->messages));
    json_object_set_new(in, "tools", json_array());
    json_object_set_new(in, "context", json_array());
    json_object_set_new(in, "forwardedProps", copy ? json_deep_copy(c->forwarded_props)
                                                   : json_incref(c->forwarded_props));
    return in;
}

json_t *an_agui_conv_input(struct an_agui_conv *c, const char *run_id, const char *user)
{
    /* Copies: the conversation changes as the run is decoded, the input
     * must stay what was sent. */
    return input(c, run_id, user, true);
}

char *an_agui_conv_body(struct an_agui_conv *c, const char *run_id, const char *user)
{
    /* Serialised at once, so the conversation's own values can be shared:
     * no deep copy of a history that grows every turn. */
    json_t *in = input(c, run_id, user, false);
    char *body = an_json_compact(in);
    json_decref(in);
    return body;
}
