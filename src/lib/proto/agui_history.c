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

/* A message's text or a call's arguments, as the decoder assembled them:
 * JSON string values joined (jansson's, or an_json_scan_string's on the
 * fast path), so valid UTF-8, with every NUL already replaced
 * (an_buf_append_text): nothing an_json_lossy would change, and no need to
 * read it all again. */
static json_t *decoded_json(const char *s, size_t n)
{
    json_t *j = json_stringn_nocheck(s, n);
    if (!j)
        an_oom();
    return j;
}

/* json_object_set_new for a literal key: no strlen, no UTF-8 check */
#define SET(o, key, v) json_object_setn_new_nocheck(o, key, sizeof key - 1, v)

static json_t *call_json(const struct an_tool_call *tc, const struct call *c)
{
    const char *args = tc->args_text ? tc->args_text : an_buf_cstr(&c->args);
    /* {id, type: "function", function: {name, arguments}}, built directly
     * (json_pack parses its format string every time) */
    json_t *fn = json_object(), *o = json_object();
    if (!fn || !o)
        an_oom();
    SET(fn, "name", an_json_lossy(tc->name, strlen(tc->name)));
    SET(fn, "arguments", decoded_json(args, strlen(args)));
    SET(o, "id", an_json_lossy(tc->id, strlen(tc->id)));
    SET(o, "type", json_stringn_nocheck("function", 8));
    SET(o, "function", fn);
    return o;
}

static json_t *str_json(const char *s)
{
    return an_json_lossy(s, strlen(s));
}

static json_t *msg_json(struct an_agui_dec *d, const struct msg *m)
{
    json_t *o = json_object();
    SET(o, "id", str_json(m->id));
    SET(o, "role", str_json(m->role));
    if (m->tool_call_id) {
        SET(o, "toolCallId", str_json(m->tool_call_id));
        json_object_set(o, "content", m->tool_content);
        return o;
    }
    if (m->name)
        SET(o, "name", str_json(m->name));
    if (m->has_content || !m->ncalls)
        SET(o, "content", decoded_json(an_buf_cstr(&m->content), m->content.len));
    if (m->ncalls) {
        json_t *calls = json_array();
        for (size_t k = 0; k < m->ncalls; k++) {
            size_t ci = m->calls[k];
            json_array_append_new(calls, call_json(tcall(d, ci), &d->calls[ci]));
        }
        SET(o, "toolCalls", calls);
    }
    return o;
}

/* id -> position in `arr` (the first message with that id), so merging a
 * run of many messages costs their number, not its square. */
static void index_ids(struct an_agui_idmap *ix, json_t *arr)
{
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m)
    {
        const char *mid = an_json_str(m, "id");
        if (mid && an_agui_idmap_getn(ix, mid, strlen(mid)) == NONE)
            an_agui_idmap_set(ix, mid, i);
    }
}

/* The position of the first message with that id in arr, NONE if none:
 * what index_ids would say, without the table. */
#define SCAN_MAX 16
static size_t find_id(json_t *arr, const char *id)
{
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m)
    {
        const char *mid = an_json_str(m, "id");
        if (mid && !strcmp(mid, id))
            return i;
    }
    return NONE;
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
    /* A short history is searched; a long one indexed. */
    bool indexed = json_array_size(c->messages) + d->norder > SCAN_MAX;
    struct an_agui_idmap ix = {0};
    if (indexed)
        index_ids(&ix, c->messages);
    for (size_t k = 0; k < d->norder; k++) {
        const struct msg *m = &d->msgs[d->order[k]];
        if (d->snapshot && m->seq < d->snapshot_seq)
            continue;
        json_t *j = msg_json(d, m);
        size_t at = indexed ? an_agui_idmap_getn(&ix, m->id, strlen(m->id))
                            : find_id(c->messages, m->id);
        if (at == NONE) {
            if (indexed)
                an_agui_idmap_set(&ix, m->id, json_array_size(c->messages));
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
    an_agui_idmap_release(&ix);
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

/* The user message joins the history. */
static void add_user(struct an_agui_conv *c, const char *user)
{
    if (!user)
        return;
    char id[AN_UUID_STR];
    an_uuid4(id);
    json_t *content = c->user_parts ? json_deep_copy(c->user_parts) : str_json(user);
    c->user_parts = NULL;
    json_t *m = json_object();
    if (!m || !content)
        an_oom();
    SET(m, "id", json_stringn_nocheck(id, strlen(id)));
    SET(m, "role", json_stringn_nocheck("user", 4));
    SET(m, "content", content);
    json_array_append_new(c->messages, m);
}

/* The input object, whose members are copies (`copy`) or borrowed
 * references to the conversation's own. */
static json_t *input(struct an_agui_conv *c, const char *run_id, bool copy)
{
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
    json_object_set_new(in, "forwardedProps",
                        copy ? json_deep_copy(c->forwarded_props)
                             : json_incref(c->forwarded_props));
    return in;
}

json_t *an_agui_conv_input(struct an_agui_conv *c, const char *run_id, const char *user)
{
    /* Copies: the conversation changes as the run is decoded, the input
     * must stay what was sent. */
    add_user(c, user);
    return input(c, run_id, true);
}

/* A member of the body, as an_json_compact would write it within input()'s
 * object; false when only the whole object's text can say (or the value is
 * NULL, which input() leaves out). */
static bool member(struct an_buf *b, const char *key, const json_t *v)
{
    if (!v)
        return false;
    an_buf_puts(b, key);
    return an_json_compact_try(b, v);
}

char *an_agui_conv_body(struct an_agui_conv *c, const char *run_id, const char *user)
{
    add_user(c, user);
    /* Written member by member: the text an_json_compact gives input()'s
     * object, without building it. */
    struct an_buf b = AN_BUF_INIT;
    /* under glibc's 1 KiB, above which an allocation costs far more */
    b.data = an_xmalloc(b.cap = 1000);
    b.data[0] = '\0';
    json_t *tid = str_json(c->thread_id), *rid = str_json(run_id);
    bool ok = member(&b, "{\"threadId\":", tid) && member(&b, ",\"runId\":", rid) &&
              member(&b, ",\"state\":", c->state ? c->state : json_null()) &&
              member(&b, ",\"messages\":", c->messages) &&
              member(&b, ",\"tools\":[],\"context\":[],\"forwardedProps\":", c->forwarded_props);
    json_decref(tid);
    json_decref(rid);
    if (ok) {
        an_buf_putc(&b, '}');
        return an_buf_detach(&b, NULL);
    }
    an_buf_release(&b);
    /* Serialised at once, so the conversation's own values can be shared:
     * no deep copy of a history that grows every turn. */
    json_t *in = input(c, run_id, false);
    char *body = an_json_compact(in);
    json_decref(in);
    return body;
}
