#include "proto/agui_decode.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/vec.h"
#include "core/json.h"
#include "core/usage.h"
#include "proto/json_patch.h"
#include "proto/uuid.h"

#include "proto/agui_dec_int.h"
#include "proto/agui_verify.h"

#define SHOW 80 /* bytes of a bad event shown in an error */

static struct an_turn_rec *rec(struct an_agui_dec *d)
{
    return &d->t->turns[d->turn];
}

static int fail(struct an_agui_dec *d, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(struct an_agui_dec *d, int code, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    an_turn_fail(rec(d), code, "%s", msg);
    if (!d->failed)
        d->failed = code;
    return d->failed;
}

static void warn(struct an_agui_dec *d, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(struct an_agui_dec *d, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    an_turn_warn(rec(d), "%s", msg);
}

/* ---- field access ----
 * Whether a field is present and well typed is agui_verify.c's to judge;
 * here a missing or mistyped field is simply not there, so that a stream
 * let through in warn or off mode is built as far as it can be. */

static const char *str(const json_t *ev, const char *key)
{
    return an_json_str(ev, key);
}

/* ---- index maps ---- */

static size_t map_get(struct an_agui_idmap *map, const char *id)
{
    return an_agui_idmap_getn(map, id, strlen(id));
}

static void map_set(struct an_agui_dec *d, struct an_agui_idmap *map, const char *id, size_t i)
{
    d->map_sets++;
    an_agui_idmap_set(map, id, i);
}

/* ---- messages ---- */

static size_t msg_new(struct an_agui_dec *d, const char *id, const char *role)
{
    AN_GROW(d->msgs, d->nmsgs, d->cap_msgs);
    struct msg *m = &d->msgs[d->nmsgs];
    if (d->nmsgs < d->kept_msgs) {
        struct msg keep = *m; /* emptied by an_agui_dec_reuse */
        memset(m, 0, sizeof *m);
        m->content = keep.content;
        m->calls = keep.calls;
        m->cap_calls = keep.cap_calls;
    } else {
        memset(m, 0, sizeof *m);
        d->kept_msgs = d->nmsgs + 1;
    }
    m->id = an_xstrdup(id);
    m->role = an_xstrdup(role);
    m->assistant = !strcmp(role, "assistant");
    m->seq = d->seq++;
    map_set(d, &d->msg_ids, id, d->nmsgs);
    return d->nmsgs++;
}

static void order_insert(struct an_agui_dec *d, size_t pos, size_t mi)
{
    AN_GROW(d->order, d->norder, d->cap_order);
    memmove(d->order + pos + 1, d->order + pos, (d->norder - pos) * sizeof *d->order);
    d->order[pos] = mi;
    d->norder++;
}

static size_t msg_add(struct an_agui_dec *d, const char *id, const char *role)
{
    size_t mi = msg_new(d, id, role);
    order_insert(d, d->norder, mi);
    return mi;
}

static bool is_assistant(const struct msg *m)
{
    return m->assistant;
}

void an_agui_text_start(struct an_agui_dec *d, const char *id, const char *role, const char *name)
{
    size_t mi = map_get(&d->msg_ids, id);
    if (mi == NONE) {
        mi = msg_add(d, id, role ? role : "assistant");
    }
    /* A message first created by a TOOL_CALL_START naming it as parent is
     * the same message: START reuses it (reference client behaviour). */
    struct msg *m = &d->msgs[mi];
    m->open = true;
    m->has_content = true;
    if (name && !m->name)
        m->name = an_xstrdup(name);
}

static void text_content_at(struct an_agui_dec *d, size_t mi, const char *delta, size_t n);

void an_agui_text_content(struct an_agui_dec *d, const char *id, const char *delta, size_t n)
{
    size_t mi = map_get(&d->msg_ids, id);
    if (mi == NONE) {
        /* Keep the text rather than drop it: the test may be about it. */
        mi = msg_add(d, id, "assistant");
        d->msgs[mi].open = true;
    }
    text_content_at(d, mi, delta, n);
}

static void text_content_at(struct an_agui_dec *d, size_t mi, const char *delta, size_t n)
{
    struct msg *m = &d->msgs[mi];
    m->has_content = true;
    an_buf_append_text(&m->content, delta, n);
    if (is_assistant(m)) {
        an_agui_text_add(d, mi, delta, n);
        if (n)
            an_turn_mark_text(rec(d), d->now);
    }
}

void an_agui_text_end(struct an_agui_dec *d, const char *id)
{
    size_t mi = map_get(&d->msg_ids, id);
    if (mi != NONE)
        d->msgs[mi].open = false;
}

/* ---- tool calls ---- */

static void parse_args(struct an_agui_dec *d, struct an_tool_call *tc)
{
    char why[256];
    if (!an_tool_call_parse_args(tc, why, sizeof why))
        warn(d, "tool call '%.100s' (%.100s): arguments are not valid JSON: %s", tc->id, tc->name,
             why);
}

/* Arguments complete at `t_ms`: by TOOL_CALL_END, a chunk stream closing,
 * or (ended = false) the stream ending first. */
static void call_close(struct an_agui_dec *d, size_t ci, int64_t t_ms, bool ended)
{
    struct call *c = &d->calls[ci];
    struct an_tool_call *tc = tcall(d, ci);
    c->open = false;
    tc->args_done = ended;
    tc->end_ms = t_ms;
    free(tc->args_text);
    tc->args_text = an_xstrndup(an_buf_cstr(&c->args), c->args.len);
    parse_args(d, tc);
    tc->ts_ms = tc->result_ms ? tc->result_ms : tc->end_ms;
}

/* A call still open when the decoder stopped reading: its arguments so
 * far, unfinished, with no warning about them (they were cut by the stop,
 * not by the agent). */
static void call_cut(struct an_agui_dec *d, size_t ci)
{
    struct call *c = &d->calls[ci];
    struct an_tool_call *tc = tcall(d, ci);
    char why[256];
    c->open = false;
    tc->args_done = false;
    tc->end_ms = c->last_ms;
    free(tc->args_text);
    tc->args_text = an_xstrndup(an_buf_cstr(&c->args), c->args.len);
    (void)an_tool_call_parse_args(tc, why, sizeof why);
    tc->ts_ms = tc->result_ms ? tc->result_ms : tc->end_ms;
}

int an_agui_tool_start(struct an_agui_dec *d, const char *id, const char *name, const char *parent)
{
    size_t ci = map_get(&d->call_ids, id);
    if (ci != NONE) {
        /* Closing is not sealing: a START after END reopens and appends. */
        struct an_tool_call *tc = tcall(d, ci);
        if (strcmp(tc->name, name)) {
            warn(d, "tool call '%.100s' restarted as '%.100s' (was '%.100s')", id, name, tc->name);
            free(tc->name);
            tc->name = an_xstrdup(name);
        }
        d->calls[ci].open = true;
        d->calls[ci].last_ms = d->now;
        tc->args_done = false;
        return 0;
    }
    if (d->ncalls >= d->max_calls)
        return fail(d, AN_ELIMIT, "more than %zu tool calls in one turn (max_tool_calls)",
                    d->max_calls);

    /* The owning assistant message, as the reference client picks it. */
    size_t owner;
    size_t pi = parent ? map_get(&d->msg_ids, parent) : NONE;
    if (pi != NONE && is_assistant(&d->msgs[pi]))
        owner = pi;
    else if (parent && pi == NONE)
        owner = msg_add(d, parent, "assistant");
    else if ((owner = map_get(&d->msg_ids, id)) == NONE || !is_assistant(&d->msgs[owner]))
        owner = msg_add(d, id, "assistant");

    struct an_tool_call *tc = an_transcript_add_call(d->t, (unsigned)d->turn);
    tc->id = an_xstrdup(id);
    tc->name = an_xstrdup(name);
    tc->start_ms = d->now;
    rec(d)->ncalls = d->t->ncalls - rec(d)->first_call;

    AN_GROW(d->calls, d->ncalls, d->cap_calls);
    struct call *c = &d->calls[d->ncalls];
    if (d->ncalls < d->kept_calls) {
        struct an_buf args = c->args; /* emptied by an_agui_dec_reuse */
        memset(c, 0, sizeof *c);
        c->args = args;
    } else {
        memset(c, 0, sizeof *c);
        d->kept_calls = d->ncalls + 1;
    }
    c->idx = d->t->ncalls - 1;
    c->open = true;
    c->last_ms = d->now;
    c->owner = owner;
    map_set(d, &d->call_ids, id, d->ncalls);

    struct msg *m = &d->msgs[owner];
    AN_GROW(m->calls, m->ncalls, m->cap_calls);
    m->calls[m->ncalls++] = d->ncalls;
    d->ncalls++;
    return 0;
}

static void tool_args_at(struct an_agui_dec *d, size_t ci, const char *delta, size_t n)
{
    an_buf_append_text(&d->calls[ci].args, delta, n);
    d->calls[ci].last_ms = d->now;
}

static void tool_args(struct an_agui_dec *d, const char *id, const char *delta, size_t n)
{
    size_t ci = map_get(&d->call_ids, id);
    if (ci == NONE)
        return;
    tool_args_at(d, ci, delta, n);
    if (!d->calls[ci].open) {
        /* After TOOL_CALL_END (let through by protocol warn or off): the
         * reference client's apply appends it to the call's arguments all
         * the same (`arguments += delta`), so the call's text is that, read
         * again; its end time stays the END's (docs/agui.md). */
        struct an_tool_call *tc = tcall(d, ci);
        free(tc->args_text);
        tc->args_text = an_xstrndup(an_buf_cstr(&d->calls[ci].args), d->calls[ci].args.len);
        parse_args(d, tc);
    }
}

void an_agui_tool_end(struct an_agui_dec *d, const char *id)
{
    size_t ci = map_get(&d->call_ids, id);
    if (ci == NONE || !d->calls[ci].open)
        return;
    call_close(d, ci, d->now, true);
}

/* ---- chunk expansion (agui.md 4.3) ---- */

static void chunk_close(struct an_agui_dec *d)
{
    if (d->chunk == CHUNK_TEXT)
        an_agui_text_end(d, d->chunk_id);
    else if (d->chunk == CHUNK_TOOL)
        an_agui_tool_end(d, d->chunk_id);
    free(d->chunk_id);
    d->chunk_id = NULL;
    d->chunk = CHUNK_NONE;
}

/* Close a pending chunk stream of another kind or id; returns true when a
 * stream of `kind` is (still) open afterwards. */
static bool chunk_switch(struct an_agui_dec *d, enum chunk_kind kind, const char *id)
{
    if (d->chunk != CHUNK_NONE && (d->chunk != kind || (id && strcmp(id, d->chunk_id))))
        chunk_close(d);
    return d->chunk == kind;
}

/* A chunk without an open stream and without an id has nothing to attach
 * to (a violation the verifier reports): dropped. */
static int h_text_chunk(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "messageId");
    json_t *delta = json_object_get(ev, "delta");
    if (!chunk_switch(d, CHUNK_TEXT, id)) {
        if (!id)
            return 0;
        an_agui_text_start(d, id, str(ev, "role"), str(ev, "name"));
        d->chunk = CHUNK_TEXT;
        d->chunk_id = an_xstrdup(id);
    }
    if (json_is_string(delta))
        an_agui_text_content(d, d->chunk_id, json_string_value(delta), json_string_length(delta));
    return 0;
}

static int h_tool_chunk(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "toolCallId"), *name = str(ev, "toolCallName");
    json_t *delta = json_object_get(ev, "delta");
    if (!chunk_switch(d, CHUNK_TOOL, id)) {
        if (!id || !name)
            return 0;
        int rc = an_agui_tool_start(d, id, name, str(ev, "parentMessageId"));
        if (rc)
            return rc;
        d->chunk = CHUNK_TOOL;
        d->chunk_id = an_xstrdup(id);
    }
    if (json_is_string(delta))
        tool_args(d, d->chunk_id, json_string_value(delta), json_string_length(delta));
    return 0;
}

static int h_reasoning_chunk(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "messageId");
    if (!chunk_switch(d, CHUNK_REASONING, id) && id) {
        d->chunk = CHUNK_REASONING;
        d->chunk_id = an_xstrdup(id);
    }
    return 0; /* reasoning is not part of the transcript */
}

/* ---- event handlers ---- */

static int h_run_started(struct an_agui_dec *d, json_t *ev)
{
    free(d->run_id);
    d->run_id = an_xstrdup(str(ev, "runId") ? str(ev, "runId") : "");
    d->run = RUN_ACTIVE;
    return 0;
}

/* RUN_FINISHED / RUN_ERROR `usage`: TokenUsage[], one report each. */
static void keep_usage(struct an_agui_dec *d, const json_t *ev)
{
    size_t i;
    const json_t *u;
    json_array_foreach(json_object_get(ev, "usage"), i, u)
    {
        if (json_is_object(u))
            an_turn_add_usage(rec(d), an_json_str(u, "model"), an_usage_count(u, "inputTokens"),
                              an_usage_count(u, "outputTokens"), an_usage_count(u, "totalTokens"),
                              -1);
    }
}

static int h_run_finished(struct an_agui_dec *d, json_t *ev)
{
    keep_usage(d, ev);
    json_t *outcome = json_object_get(ev, "outcome");
    const char *otype = an_json_str(outcome, "type");
    if (otype && strcmp(otype, "success"))
        warn(d, "run finished with outcome '%.100s'", otype);
    d->run = RUN_DONE;
    return 0;
}

/* The agent's own failure fails the turn, but the stream is still read:
 * a new run may follow, and what follows is still judged. */
static int h_run_error(struct an_agui_dec *d, json_t *ev)
{
    const char *msg = an_json_str(ev, "message");
    json_t *code = json_object_get(ev, "code");
    char codebuf[160] = "";
    if (json_is_string(code))
        snprintf(codebuf, sizeof codebuf, " (code %.100s)", json_string_value(code));
    else if (json_is_number(code))
        snprintf(codebuf, sizeof codebuf, " (code %g)", json_number_value(code));
    d->run = RUN_ERRORED;
    keep_usage(d, ev);
    an_turn_fail(rec(d), AN_ERUN, "agent reported RUN_ERROR: %.600s%s", msg ? msg : "(no message)",
                 codebuf);
    return 0;
}

static int h_text_start(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "messageId");
    if (id)
        an_agui_text_start(d, id, str(ev, "role"), str(ev, "name"));
    return 0;
}

/* TEXT_MESSAGE_CONTENT and TOOL_CALL_ARGS: the owner's id under `key` and
 * a string "delta", handed to `add`. */
static int with_delta(struct an_agui_dec *d, json_t *ev, const char *key,
                      void (*add)(struct an_agui_dec *, const char *, const char *, size_t))
{
    const char *id = str(ev, key);
    json_t *delta = json_object_get(ev, "delta");
    if (id && json_is_string(delta))
        add(d, id, json_string_value(delta), json_string_length(delta));
    return 0;
}

/* TEXT_MESSAGE_END and TOOL_CALL_END: the owner's id under `key`, handed
 * to `end`. */
static int with_id(struct an_agui_dec *d, json_t *ev, const char *key,
                   void (*end)(struct an_agui_dec *, const char *))
{
    const char *id = str(ev, key);
    if (id)
        end(d, id);
    return 0;
}

static int h_text_content(struct an_agui_dec *d, json_t *ev)
{
    return with_delta(d, ev, "messageId", an_agui_text_content);
}

static int h_text_end(struct an_agui_dec *d, json_t *ev)
{
    return with_id(d, ev, "messageId", an_agui_text_end);
}

static int h_tool_start(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "toolCallId"), *name = str(ev, "toolCallName");
    if (!id || !name)
        return 0;
    return an_agui_tool_start(d, id, name, str(ev, "parentMessageId"));
}

static int h_tool_args(struct an_agui_dec *d, json_t *ev)
{
    return with_delta(d, ev, "toolCallId", tool_args);
}

static int h_tool_end(struct an_agui_dec *d, json_t *ev)
{
    return with_id(d, ev, "toolCallId", an_agui_tool_end);
}

/* A result for a call of an earlier turn (a long-running backend tool). */
static struct an_tool_call *earlier_call(struct an_agui_dec *d, const char *id)
{
    for (size_t i = rec(d)->first_call; i-- > 0;)
        if (d->t->calls[i].id && !strcmp(d->t->calls[i].id, id))
            return &d->t->calls[i];
    return NULL;
}

static int h_tool_result(struct an_agui_dec *d, json_t *ev)
{
    const char *id = str(ev, "toolCallId");
    json_t *content = json_object_get(ev, "content");
    if (id && content)
        an_agui_tool_result(d, id, str(ev, "messageId"), content);
    return 0;
}

void an_agui_tool_result(struct an_agui_dec *d, const char *id, const char *mid, json_t *content)
{
    json_t *result = NULL;
    if (json_is_string(content))
        result = an_json_parse(json_string_value(content), json_string_length(content), NULL, 0);
    if (!result)
        result = json_incref(content); /* plain text, or content parts: keep the JSON */

    size_t ci = map_get(&d->call_ids, id);
    struct an_tool_call *tc = ci != NONE ? tcall(d, ci) : earlier_call(d, id);
    if (tc) {
        if (tc->result)
            warn(d, "second TOOL_CALL_RESULT for tool call '%.100s' replaces the first", id);
        json_decref(tc->result);
        tc->result = result;
        tc->result_ms = d->now;
        tc->ts_ms = d->now;
    } else {
        warn(d, "TOOL_CALL_RESULT for unknown tool call '%.100s'", id);
        json_decref(result);
    }

    /* The tool message for the history, right after the assistant message
     * owning the call and the tool messages already there. */
    char gen[AN_UUID_STR];
    if (!mid) {
        an_uuid4(gen);
        mid = gen;
    }
    size_t mi = map_get(&d->msg_ids, mid);
    if (mi != NONE && !strcmp(d->msgs[mi].role, "tool")) {
        json_decref(d->msgs[mi].tool_content);
        d->msgs[mi].tool_content = json_incref(content);
        return;
    }
    if (mi != NONE) {
        warn(d, "TOOL_CALL_RESULT messageId '%.100s' names another message; a new id is used", mid);
        an_uuid4(gen);
        mid = gen;
    }
    mi = msg_new(d, mid, "tool");
    d->msgs[mi].tool_call_id = an_xstrdup(id);
    d->msgs[mi].tool_content = json_incref(content);
    size_t pos = d->norder;
    if (ci != NONE) {
        size_t owner = d->calls[ci].owner;
        for (size_t k = 0; k < d->norder; k++)
            if (d->order[k] == owner) {
                pos = k + 1;
                while (pos < d->norder && !strcmp(d->msgs[d->order[pos]].role, "tool"))
                    pos++;
                break;
            }
    }
    order_insert(d, pos, mi);
}

void an_agui_dec_max_state(struct an_agui_dec *d, uint64_t max_state_bytes)
{
    d->state_cap.max_bytes = max_state_bytes ? max_state_bytes : AN_AGUI_DEFAULT_MAX_STATE;
    d->state_cap.max_work = d->state_cap.max_bytes * 64;
}

static int h_state_snapshot(struct an_agui_dec *d, json_t *ev)
{
    json_t *snap = json_object_get(ev, "snapshot");
    if (!snap)
        return 0;
    size_t depth;
    uint64_t w = an_json_weight(snap, &depth);
    if (w > d->state_cap.max_bytes)
        return fail(d, AN_ELIMIT,
                    "STATE_SNAPSHOT (event #%llu) weighs %llu bytes, more than max_state_bytes "
                    "(%llu bytes)",
                    (unsigned long long)d->nevents, (unsigned long long)w,
                    (unsigned long long)d->state_cap.max_bytes);
    if (depth > AN_JSON_PATCH_MAX_DEPTH)
        return fail(d, AN_ELIMIT,
                    "STATE_SNAPSHOT (event #%llu) nests deeper than the state may (%d levels)",
                    (unsigned long long)d->nevents, AN_JSON_PATCH_MAX_DEPTH);
    json_decref(d->state);
    d->state = json_incref(snap);
    d->state_own = false; /* the event's: copied by the first patch */
    d->state_cap.bytes = w;
    return 0;
}

static int h_state_delta(struct an_agui_dec *d, json_t *ev)
{
    char why[512];
    json_t *ops = json_object_get(ev, "delta");
    if (!json_is_array(ops))
        return 0;
    struct an_json_patch_cap *cap = &d->state_cap;
    if (!d->state_own) {
        /* patched in place: a copy of our own first (weighed, for a
         * state that came from the config or an earlier turn) */
        uint64_t w = an_json_weight(d->state, NULL);
        cap->bytes = w;
        cap->work += 2 * w;
        json_t *own = json_deep_copy(d->state);
        json_decref(d->state);
        d->state = own;
        d->state_own = true;
    }
    int rc = AN_ELIMIT;
    if (cap->work <= cap->max_work)
        rc = an_json_patch(&d->state, ops, cap, why, sizeof why);
    else
        snprintf(why, sizeof why, "patches copied, weighed or shifted more than %llu bytes",
                 (unsigned long long)cap->max_work);
    if (rc == AN_ELIMIT)
        return fail(d, AN_ELIMIT,
                    "STATE_DELTA (event #%llu) stopped at max_state_bytes (%llu bytes): %s",
                    (unsigned long long)d->nevents, (unsigned long long)cap->max_bytes, why);
    if (rc)
        warn(d, "STATE_DELTA (event #%llu) not applied, state kept: %s",
             (unsigned long long)d->nevents, why);
    return 0;
}

static int h_messages_snapshot(struct an_agui_dec *d, json_t *ev)
{
    json_t *msgs = json_object_get(ev, "messages");
    if (!json_is_array(msgs))
        return 0;
    json_t *keep = json_array();
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m)
    {
        const char *role = an_json_str(m, "role");
        if (!role || strcmp(role, "activity")) /* activity never goes back to the agent */
            json_array_append(keep, m);
    }
    json_decref(d->snapshot);
    d->snapshot = keep;
    d->snapshot_seq = d->seq;
    return 0;
}

static int h_subagent_error(struct an_agui_dec *d, json_t *ev)
{
    const char *who = an_json_str(ev, "subagentRunId");
    const char *msg = an_json_str(ev, "message");
    warn(d, "subagent '%.100s' reported an error: %.300s", who ? who : "?", msg ? msg : "");
    return 0;
}

static int h_ignore(struct an_agui_dec *d, json_t *ev)
{
    (void)d;
    (void)ev;
    return 0;
}

/* Every AG-UI 1.x event type (and the deprecated THINKING_* of 0.0.x).
 * `keeps_chunk`: the event does not close a pending chunk stream (4.3). */
static const struct handler {
    const char *type;
    int (*fn)(struct an_agui_dec *d, json_t *ev);
    bool keeps_chunk;
} handlers[] = {
    {"RUN_STARTED", h_run_started, false},
    {"RUN_FINISHED", h_run_finished, false},
    {"RUN_ERROR", h_run_error, false},
    {"STEP_STARTED", h_ignore, false},
    {"STEP_FINISHED", h_ignore, false},
    {"TEXT_MESSAGE_START", h_text_start, false},
    {"TEXT_MESSAGE_CONTENT", h_text_content, false},
    {"TEXT_MESSAGE_END", h_text_end, false},
    {"TEXT_MESSAGE_CHUNK", h_text_chunk, true},
    {"TOOL_CALL_START", h_tool_start, false},
    {"TOOL_CALL_ARGS", h_tool_args, false},
    {"TOOL_CALL_END", h_tool_end, false},
    {"TOOL_CALL_CHUNK", h_tool_chunk, true},
    {"TOOL_CALL_RESULT", h_tool_result, false},
    {"STATE_SNAPSHOT", h_state_snapshot, false},
    {"STATE_DELTA", h_state_delta, false},
    {"MESSAGES_SNAPSHOT", h_messages_snapshot, false},
    {"ACTIVITY_SNAPSHOT", h_ignore, true},
    {"ACTIVITY_DELTA", h_ignore, true},
    {"REASONING_START", h_ignore, false},
    {"REASONING_END", h_ignore, false},
    {"REASONING_MESSAGE_START", h_ignore, false},
    {"REASONING_MESSAGE_CONTENT", h_ignore, false},
    {"REASONING_MESSAGE_END", h_ignore, false},
    {"REASONING_MESSAGE_CHUNK", h_reasoning_chunk, true},
    {"REASONING_ENCRYPTED_VALUE", h_ignore, true},
    {"SUBAGENT_STARTED", h_ignore, true},
    {"SUBAGENT_FINISHED", h_ignore, false},
    {"SUBAGENT_ERROR", h_subagent_error, false},
    {"RAW", h_ignore, true},
    {"CUSTOM", h_ignore, false},
    {"THINKING_START", h_ignore, false},
    {"THINKING_END", h_ignore, false},
    {"THINKING_TEXT_MESSAGE_START", h_ignore, false},
    {"THINKING_TEXT_MESSAGE_CONTENT", h_ignore, false},
    {"THINKING_TEXT_MESSAGE_END", h_ignore, false},
};

static const struct handler *find_handler(const char *type)
{
    for (size_t i = 0; i < sizeof handlers / sizeof handlers[0]; i++)
        if (!strcmp(handlers[i].type, type))
            return &handlers[i];
    return NULL;
}

/* ---- the fast path (agui_fast.c) ----
 * Nearly every event of a stream is a delta, and most of the rest are the
 * starts and ends of runs, messages and calls. Such an event written plainly
 * (a flat object of string members), arriving where neither the verifier
 * nor the decoder has anything to say about it, is applied straight from its
 * bytes: no jansson tree. Anything else takes the general path below, so
 * what a stream yields, findings included, stays the same. */

bool an_agui_fast_path = true;

static int dec_event(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms);

int an_agui_dec_event(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms)
{
    int rc;
    if (d->failed)
        return d->failed;
    if (an_agui_fast_path && an_agui_fast_apply(d, data, len, t_ms, &rc))
        return rc;
    return dec_event(d, data, len, t_ms);
}

static int dec_event(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms)
{
    char why[256], head[SHOW * 3 + 8];
    d->nevents++;
    d->now = t_ms;
    an_turn_mark_event(rec(d), t_ms);
    an_turn_add_frame(rec(d), t_ms, data, len);

    size_t blank = 0;
    while (blank < len && data[blank] && strchr(" \t\r\n", data[blank]))
        blank++;
    if (blank == len) {
        warn(d, "event #%llu has no data, ignored", (unsigned long long)d->nevents);
        return 0;
    }
    json_t *ev = an_json_parse(data, len, why, sizeof why);
    if (!ev) {
        an_agui_show(head, sizeof head, data, len);
        return fail(d, AN_EPROTO, "event #%llu is not valid JSON (%s): %s",
                    (unsigned long long)d->nevents, why, head);
    }
    const char *type = an_json_str(ev, "type");
    if (!json_is_object(ev) || !type || !*type) {
        an_agui_show(head, sizeof head, data, len);
        json_decref(ev);
        return fail(d, AN_EPROTO, "event #%llu is not an object with a string 'type': %s",
                    (unsigned long long)d->nevents, head);
    }
    bool drop;
    int rc = an_agui_verify_event(d->verify, rec(d), ev, d->nevents, data, len, &drop);
    if (rc) {
        d->failed = rc;
    } else if (!drop) {
        const struct handler *h = find_handler(type);
        /* After a run's terminal event only a new run is applied: what a
         * stream let through in warn or off mode adds nothing to a closed run. */
        bool closed = d->run == RUN_DONE || d->run == RUN_ERRORED;
        if (h && (!closed || h->fn == h_run_started || h->fn == h_run_error)) {
            d->type = type;
            if (!h->keeps_chunk && d->chunk != CHUNK_NONE)
                chunk_close(d);
            rc = h->fn(d, ev);
            d->type = NULL;
        }
    }
    json_decref(ev);
    return rc;
}
/* The turn's text when deltas went to several messages (text_own): each
 * one's content, in the order of their first deltas; each content freed
 * once joined when no message is built from it (drop), so a long answer is
 * not held twice. */
static void join_text(struct an_agui_dec *d, bool drop)
{
    if (!d->text_own)
        return;
    size_t *at = an_xcalloc(d->text_msgs + 1, sizeof *at);
    for (size_t i = 0; i < d->nmsgs; i++)
        if (d->msgs[i].text_seq && d->msgs[i].text_seq <= d->text_msgs)
            at[d->msgs[i].text_seq - 1] = i + 1;
    for (size_t k = 0; k < d->text_msgs; k++) {
        if (!at[k])
            continue;
        struct an_buf *c = &d->msgs[at[k] - 1].content;
        an_buf_append(&d->text, an_buf_cstr(c), c->len);
        if (drop)
            an_buf_release(c);
    }
    free(at);
}

void an_agui_dec_finish(struct an_agui_dec *d, const char *cut)
{
    struct an_turn_rec *r = rec(d);
    /* the decoder stopped reading inside a run (a protocol stop under
     * strict, a cap, an event that is no JSON): what came after is unknown,
     * so a call still open here is not said to have never ended. A run
     * already over (RUN_ERROR) did close its calls unended. */
    bool stopped = d->failed != 0 && d->run == RUN_ACTIVE;
    if (!d->failed && r->status != AN_TURN_ERROR) {
        if (d->run != RUN_DONE) {
            if (d->nevents == 0)
                fail(d, AN_EPROTO, "stream ended without RUN_FINISHED: no event received%s%s",
                     cut ? ": " : "", cut ? cut : "");
            else
                fail(d, AN_EPROTO, "stream ended without RUN_FINISHED%s%s%s", cut ? " (" : "",
                     cut ? cut : "", cut ? ")" : "");
        } else if (cut) {
            warn(d, "stream was cut after RUN_FINISHED: %s", cut);
        }
    }
    for (size_t i = 0; i < d->ncalls; i++) {
        if (!d->calls[i].open)
            continue;
        if (stopped) {
            call_cut(d, i);
            continue;
        }
        warn(d, "tool call '%.100s' (%.100s) never ended (no TOOL_CALL_END)", tcall(d, i)->id,
             tcall(d, i)->name);
        call_close(d, i, d->calls[i].last_ms, false);
    }
    free(r->text);
    if (!d->text_own && d->text_owner != NONE) {
        struct an_buf *c = &d->msgs[d->text_owner].content;
        /* the message's content is the text (no NUL: an_buf_append_text);
         * when no message is built from it, it becomes the text, uncopied */
        r->text = r->drop_messages ? an_buf_detach(c, NULL) : an_xstrndup(an_buf_cstr(c), c->len);
    } else {
        join_text(d, r->drop_messages);
        r->text = an_buf_detach(&d->text, NULL);
    }
    r->ncalls = d->t->ncalls - r->first_call;
    json_decref(r->state);
    r->state = json_incref(d->state);
    json_decref(d->conv->state);
    d->conv->state = json_incref(d->state);
    if (r->drop_messages)
        return; /* read by no one: not built (docs/performance.md, session 16) */
    an_agui_history_merge(d);
    /* A copy of the list, sharing the messages: the conversation goes on
     * growing in later turns, but never changes a message it holds in
     * place (an_agui_history_merge replaces one it continues). */
    json_decref(r->messages);
    r->messages = json_array();
    json_array_extend(r->messages, d->conv->messages);
}

void an_agui_dec_protocol(struct an_agui_dec *d, int mode)
{
    if (d->nevents == 0) {
        /* nothing judged yet: a new verifier would differ only in its mode */
        an_agui_verify_mode(d->verify, mode);
        return;
    }
    an_agui_verify_free(d->verify);
    an_agui_verify_new(&d->verify, d->conv->thread_id, mode);
    d->quiet_changes = 0; /* what the old verifier said is no longer known */
}
