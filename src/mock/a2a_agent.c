#include "a2a_agent.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/spec_names.h"
#include "mock_mcp.h"
#include "proto/a2a_rest.h"
#include "proto/a2a_v1.h"

#define CUT_AFTER_MS 100
#define WAIT_SLICE_MS 100

enum st { ST_SUBMITTED, ST_WORKING, ST_INPUT_REQUIRED, ST_COMPLETED, ST_FAILED, ST_CANCELED };
/* [v03][state] */
static const char *const st_names[2][6] = {
    {"TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED",
     "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED"},
    {"submitted", "working", "input-required", "completed", "failed", "canceled"},
};

struct task {
    char id[32], ctx[64];
    enum st state;
    json_t *artifacts; /* the store's own (task_keep_artifacts); a copy: borrowed, do not use */
};

struct a2a_agent {
    bool v03, push;
    enum a2a_bind bindings;
    enum a2a_fault fault;
    json_t *push_configs; /* task id -> [TaskPushNotificationConfig], under lock */
    pthread_mutex_t lock;
    struct task *tasks;
    size_t n, cap;
};

int a2a_fault_parse(const char *name)
{
    static const char *const names[] = {"none",
                                        "bad-transition",
                                        "card-no-name",
                                        "wrong-error-code",
                                        "push-forgets",
                                        "rest-status",
                                        "rest-jsonrpc",
                                        "version-ignored",
                                        "card-bad-interface",
                                        "v03-states",
                                        "list-empty",
                                        "push-delete-ignored",
                                        "push-set-bare"};
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}

struct a2a_agent *a2a_agent_new(bool v03, enum a2a_fault fault, bool push, enum a2a_bind bindings)
{
    struct a2a_agent *a = an_xcalloc(1, sizeof *a);
    a->v03 = v03;
    a->bindings = bindings;
    a->push = push;
    a->push_configs = json_object();
    a->fault = fault;
    pthread_mutex_init(&a->lock, NULL);
    return a;
}

void a2a_agent_free(struct a2a_agent *a)
{
    if (!a)
        return;
    pthread_mutex_destroy(&a->lock);
    json_decref(a->push_configs);
    for (size_t i = 0; i < a->n; i++)
        json_decref(a->tasks[i].artifacts);
    free(a->tasks);
    free(a);
}

/* ---- the task store ------------------------------------------------------------ */

static struct task task_new(struct a2a_agent *a, const char *ctx)
{
    pthread_mutex_lock(&a->lock);
    if (a->n == a->cap) {
        a->cap = a->cap ? a->cap * 2 : 16;
        a->tasks = an_xrealloc(a->tasks, a->cap * sizeof *a->tasks);
    }
    struct task *t = &a->tasks[a->n++];
    snprintf(t->id, sizeof t->id, "task-%zu", a->n);
    if (ctx && *ctx && strlen(ctx) < sizeof t->ctx)
        snprintf(t->ctx, sizeof t->ctx, "%s", ctx);
    else
        snprintf(t->ctx, sizeof t->ctx, "ctx-%zu", a->n);
    t->state = ST_SUBMITTED;
    t->artifacts = NULL;
    struct task copy = *t;
    pthread_mutex_unlock(&a->lock);
    return copy;
}

/* Copy the task `id` into *out; false when there is none. */
static bool task_get(struct a2a_agent *a, const char *id, struct task *out)
{
    bool found = false;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; id && i < a->n && !found; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            *out = a->tasks[i];
            found = true;
        }
    pthread_mutex_unlock(&a->lock);
    return found;
}

/* Set the state of task `id`, unless it is already canceled (a cancel wins
 * over a task still playing). Returns the state it has afterwards. */
static enum st task_set(struct a2a_agent *a, const char *id, enum st s)
{
    enum st now = s;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            if (a->tasks[i].state != ST_CANCELED)
                a->tasks[i].state = s;
            now = a->tasks[i].state;
        }
    pthread_mutex_unlock(&a->lock);
    return now;
}

/* Keep a copy of the task's artifacts for tasks/get; the task's artifacts
 * (a new reference, an empty array when none). */
static void task_keep_artifacts(struct a2a_agent *a, const char *id, const json_t *arts)
{
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n; i++)
        if (!strcmp(a->tasks[i].id, id)) {
            json_decref(a->tasks[i].artifacts);
            a->tasks[i].artifacts = json_deep_copy(arts);
        }
    pthread_mutex_unlock(&a->lock);
}

static json_t *task_artifacts(struct a2a_agent *a, const char *id)
{
    json_t *out = NULL;
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; i < a->n && !out; i++)
        if (!strcmp(a->tasks[i].id, id) && a->tasks[i].artifacts)
            out = json_deep_copy(a->tasks[i].artifacts);
    pthread_mutex_unlock(&a->lock);
    return out ? out : json_array();
}

static bool terminal(enum st s)
{
    return s == ST_COMPLETED || s == ST_FAILED || s == ST_CANCELED;
}

/* ---- shapes of the two versions -------------------------------------------------- */

static json_t *part_text(const struct a2a_agent *a, const char *text)
{
    return a->v03 ? json_pack("{s:s,s:s}", "kind", "text", "text", text)
                  : json_pack("{s:s}", "text", text);
}

static json_t *agent_msg(const struct a2a_agent *a, const struct task *t, const char *ctx,
                         json_t *parts)
{
    static unsigned long seq;
    char mid[48];
    snprintf(mid, sizeof mid, "mock-msg-%lu", __atomic_add_fetch(&seq, 1, __ATOMIC_RELAXED));
    json_t *m = json_pack("{s:s,s:s,s:o}", "messageId", mid, "role",
                          a->v03 ? "agent" : "ROLE_AGENT", "parts", parts);
    if (a->v03)
        json_object_set_new(m, "kind", json_string("message"));
    if (ctx)
        json_object_set_new(m, "contextId", json_string(ctx));
    if (t)
        json_object_set_new(m, "taskId", json_string(t->id));
    return m;
}

/* One behaviour played: the events of a stream, and what a blocking call
 * answers at the end. */
struct run {
    struct a2a_agent *a;
    struct task t;
    json_t *events;    /* StreamResponse results, in order */
    json_t *artifacts; /* the task's artifacts so far */
    json_t *status;    /* the task's current status */
    json_t *message;   /* a direct message: the answer, no task */
    json_t *user;      /* the client's message (borrowed), for the history; or NULL */
};

static void emit(struct run *r, const char *key, const char *kind, json_t *obj)
{
    if (r->a->v03) {
        json_object_set_new(obj, "kind", json_string(kind));
        json_array_append_new(r->events, obj);
    } else {
        json_array_append_new(r->events, json_pack("{s:o}", key, obj));
    }
}

static json_t *status_obj(struct run *r, enum st s, const char *text)
{
    json_t *st =
        json_pack("{s:s}", "state", st_names[r->a->v03 || r->a->fault == A2A_FAULT_V03_STATES][s]);
    if (text)
        json_object_set_new(
            st, "message",
            agent_msg(r->a, &r->t, r->t.ctx, json_pack("[o]", part_text(r->a, text))));
    return st;
}

static json_t *task_obj(struct run *r)
{
    json_t *t =
        json_pack("{s:s,s:s,s:O}", "id", r->t.id, "contextId", r->t.ctx, "status", r->status);
    if (json_array_size(r->artifacts))
        json_object_set(t, "artifacts", r->artifacts);
    if (r->a->v03)
        json_object_set_new(t, "kind", json_string("task"));
    if (r->user) {
        json_t *u = json_deep_copy(r->user);
        json_object_set_new(u, "taskId", json_string(r->t.id));
        json_object_set_new(u, "contextId", json_string(r->t.ctx));
        json_object_set_new(t, "history", json_pack("[o]", u));
    }
    return t;
}

static void emit_task(struct run *r)
{
    emit(r, "task", "task", task_obj(r));
}

static void emit_status(struct run *r, enum st s, const char *text)
{
    s = task_set(r->a, r->t.id, s);
    r->t.state = s;
    json_decref(r->status);
    r->status = status_obj(r, s, text);
    json_t *ev =
        json_pack("{s:s,s:s,s:O}", "taskId", r->t.id, "contextId", r->t.ctx, "status", r->status);
    if (r->a->v03)
        json_object_set_new(ev, "final", json_boolean(terminal(s) || s == ST_INPUT_REQUIRED));
    emit(r, "statusUpdate", "status-update", ev);
}

static void emit_artifact(struct run *r, const char *name, json_t *parts, bool append, bool last)
{
    char aid[64];
    snprintf(aid, sizeof aid, "%s-%s", r->t.id, name);
    json_t *art = json_pack("{s:s,s:s,s:o}", "artifactId", aid, "name", name, "parts", parts);
    json_t *kept = append ? json_array_get(r->artifacts, json_array_size(r->artifacts) - 1) : NULL;
    if (kept) /* as the SDKs' task aggregation keeps them: each chunk one more part */
        json_array_extend(json_object_get(kept, "parts"), parts);
    else
        json_array_append_new(r->artifacts, json_deep_copy(art));
    emit(r, "artifactUpdate", "artifact-update",
         json_pack("{s:s,s:s,s:o,s:b,s:b}", "taskId", r->t.id, "contextId", r->t.ctx, "artifact",
                   art, "append", append, "lastChunk", last));
}

static void run_release(struct run *r)
{
    json_decref(r->events);
    json_decref(r->artifacts);
    json_decref(r->status);
    json_decref(r->message);
}

/* The code of "no such task": -32001, unless the fault says otherwise. */
static int not_found_code(const struct a2a_agent *a)
{
    return a->fault == A2A_FAULT_WRONG_ERROR_CODE ? -32603 : -32001;
}

/* ---- answers ------------------------------------------------------------------- */

/* Where and how one request is answered. */
struct reply {
    struct MHD_Connection *c;
    bool v03;
    const char *rest; /* REST: the JSON-RPC method the request maps to; NULL: JSON-RPC */
    bool status_400;  /* REST: every error answered 400 (the fault rest-status) */
};

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
    return mock_http_send_json(c, status, j, NULL, 0);
}

/* An error: JSON-RPC's (HTTP 200), or REST's (its HTTP status and body). */
static enum MHD_Result rpc_error(const struct reply *c, const json_t *id, int code,
                                 const char *message)
{
    if (c->rest) {
        unsigned st = c->status_400 ? MHD_HTTP_BAD_REQUEST : an_a2a_rest_status_of(code);
        return send_json(
            c->c, st,
            an_a2a_rest_error_body(code, message, st, c->v03 ? AN_A2A_V0_3 : AN_A2A_V1_0));
    }
    return send_json(c->c, MHD_HTTP_OK,
                     json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id",
                               id ? id : json_null(), "error", "code", code, "message", message));
}

/* A result (reference taken): JSON-RPC's, or REST's body (0.3: its
 * protobuf JSON shape). */
static enum MHD_Result rpc_result(const struct reply *c, const json_t *id, json_t *result)
{
    if (c->rest) {
        json_t *body = c->v03 ? an_a2a_rest_result_out(c->rest, result)
                              : json_incref(json_is_null(result) ? NULL : result);
        json_decref(result);
        return send_json(c->c, MHD_HTTP_OK, body ? body : json_object());
    }
    return send_json(c->c, MHD_HTTP_OK,
                     json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

/* The text of the message's text parts, joined (1.0 and 0.3 both use `text`). */
static char *user_text(const json_t *msg)
{
    struct an_buf b = AN_BUF_INIT;
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(msg, "parts"), i, p)
    {
        const char *t = an_json_str(p, "text");
        if (t)
            an_buf_puts(&b, t);
    }
    return an_buf_detach(&b, NULL);
}

static bool starts(const char *s, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n))
        return false;
    *rest = s + n;
    return true;
}

enum ending { END_CLOSE, END_STALL, END_CUT, END_GARBAGE };

/* tool:SERVER:TOOL [JSON]: the call made on the MCP tool server SERVER (a
 * name in $ANANKE_TOOL_SERVERS, or a URL; docs/mock.md "Calling MCP
 * tools"), its result's content as the artifact `tool:TOOL`: A2A has no
 * tool calls of its own, so the agent reports none. */
static void play_tool(struct run *r, const char *spec)
{
    const char *args_at = strchr(spec, ' ');
    char *head = an_xstrndup(spec, args_at ? (size_t)(args_at - spec) : strlen(spec));
    char *colon = strrchr(head, ':');
    json_t *args = args_at ? json_loads(args_at + 1, 0, NULL) : NULL;
    char buf[300];
    if (!colon || colon == head || !colon[1] || (args_at && !json_is_object(args))) {
        snprintf(buf, sizeof buf, "cannot do: tool:%.200s (want tool:SERVER:TOOL {JSON object})",
                 spec);
        emit_status(r, ST_FAILED, buf);
    } else {
        *colon = '\0';
        json_t *res = mock_mcp_call(head, NULL, colon + 1, args, 0);
        char *text = mock_mcp_content_text(res);
        snprintf(buf, sizeof buf, "tool:%.200s", colon + 1);
        emit_artifact(r, buf, json_pack("[o]", part_text(r->a, text)), false, true);
        emit_status(r, ST_COMPLETED, NULL);
        free(text);
        json_decref(res);
    }
    json_decref(args);
    free(head);
}

/* Play a new task's behaviour for `text` into r; returns how its stream ends. */
static enum ending play(struct run *r, const char *text, const char *ctx)
{
    struct a2a_agent *a = r->a;
    const char *rest;
    char buf[512];
    r->t = task_new(a, ctx);
    r->status = status_obj(r, ST_SUBMITTED, NULL);
    if (!strcmp(text, "chunks")) { /* the task first, already working */
        r->t.state = task_set(a, r->t.id, ST_WORKING);
        json_decref(r->status);
        r->status = status_obj(r, ST_WORKING, NULL);
        emit_task(r);
        static const char *const bits[] = {"Once ", "upon ", "a time"};
        for (int i = 0; i < 3; i++)
            emit_artifact(r, "story", json_pack("[o]", part_text(a, bits[i])), i > 0, i == 2);
        emit_status(r, ST_COMPLETED, NULL);
        return END_CLOSE;
    }
    emit_task(r);
    if (!strcmp(text, "garbage"))
        return END_GARBAGE;
    if (!strcmp(text, "open")) {
        emit_status(r, ST_COMPLETED, "done, but I keep the line open");
        return END_STALL;
    }
    emit_status(r, ST_WORKING, "working");
    if (!strcmp(text, "cut"))
        return END_CUT;
    if (!strcmp(text, "hang") || starts(text, "slow:", &rest))
        return END_STALL;
    if (starts(text, "ask:", &rest)) {
        emit_status(r, ST_INPUT_REQUIRED, "need more input");
    } else if (starts(text, "fail:", &rest)) {
        snprintf(buf, sizeof buf, "cannot do: %.400s", rest);
        emit_status(r, ST_FAILED, buf);
    } else if (starts(text, "tool:", &rest)) {
        play_tool(r, rest);
    } else if (starts(text, "data:", &rest)) {
        json_t *data = json_pack("{s:s,s:i}", "echo", rest, "n", 3);
        json_t *file = a->v03 ? json_pack("{s:s,s:{s:s,s:s,s:s}}", "kind", "file", "file", "uri",
                                          "http://127.0.0.1/report.csv", "mimeType", "text/csv",
                                          "name", "report.csv")
                              : json_pack("{s:s,s:s,s:s}", "url", "http://127.0.0.1/report.csv",
                                          "mediaType", "text/csv", "filename", "report.csv");
        emit_artifact(r, "result",
                      json_pack("[o]", a->v03 ? json_pack("{s:s,s:o}", "kind", "data", "data", data)
                                              : json_pack("{s:o}", "data", data)),
                      false, true);
        emit_artifact(r, "report", json_pack("[o]", file), false, true);
        emit_status(r, ST_COMPLETED, NULL);
    } else {
        snprintf(buf, sizeof buf, "echo: %.400s", text);
        emit_artifact(r, "echo", json_pack("[o]", part_text(a, buf)), false, true);
        emit_status(r, ST_COMPLETED, NULL);
        if (a->fault == A2A_FAULT_BAD_TRANSITION) /* out of a terminal state */
            emit_status(r, ST_WORKING, "working again");
    }
    return END_CLOSE;
}

static enum MHD_Result send_events(struct mock_http *http, const struct reply *c, const json_t *rid,
                                   const struct run *r, enum ending end)
{
    struct mock_plan plan = MOCK_PLAN_INIT;
    size_t i;
    const json_t *ev;
    json_array_foreach(r->events, i, ev)
    {
        json_t *frame = !c->rest
                            ? json_pack("{s:s,s:O,s:O}", "jsonrpc", "2.0", "id", rid, "result", ev)
                        : c->v03 ? an_a2a_rest_result_out("message/stream", ev)
                                 : json_incref((json_t *)ev);
        char *s = an_json_compact(frame);
        json_decref(frame);
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "data: %s\n\n", s);
        free(s);
        size_t len;
        char *data = an_buf_detach(&b, &len);
        mock_plan_write_take(&plan, data, len);
    }
    static const char garbage[] = "data: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{not json\n\n";
    static const char garbage_rest[] = "data: {\"task\":{not json\n\n";
    switch (end) {
    case END_CLOSE:
        break;
    case END_GARBAGE:
        if (c->rest)
            mock_plan_write(&plan, garbage_rest, strlen(garbage_rest));
        else
            mock_plan_write(&plan, garbage, strlen(garbage));
        break;
    case END_CUT:
        mock_plan_sleep(&plan, CUT_AFTER_MS);
        mock_plan_push(&plan, MOCK_ACT_CUT);
        break;
    case END_STALL:
        mock_plan_push(&plan, MOCK_ACT_STALL);
        break;
    }
    enum MHD_Result rc =
        mock_http_send_plan(http, c->c, MHD_HTTP_OK, "text/event-stream", NULL, 0, &plan);
    mock_plan_release(&plan);
    return rc;
}

/* A blocking call whose task does not finish by itself: wait until it is
 * canceled (answer it) or the client gives up. */
static enum MHD_Result wait_canceled(struct mock_http *http, const struct reply *c,
                                     const json_t *rid, struct run *r)
{
    struct task t;
    while (mock_http_wait(http, c->c, WAIT_SLICE_MS))
        if (task_get(r->a, r->t.id, &t) && t.state == ST_CANCELED) {
            json_decref(r->status);
            r->status = status_obj(r, ST_CANCELED, NULL);
            json_t *task = task_obj(r);
            return rpc_result(c, rid, r->a->v03 ? task : json_pack("{s:o}", "task", task));
        }
    return MHD_NO;
}

/* Why a message is not acceptable, or NULL: "Invalid params: ..."
 * (-32602) or "Incompatible content types: ..." (-32005). The media type
 * of a file part: 0.3 file.mimeType, 1.0 mediaType of a url or raw part. */
static const char *check_message(const json_t *msg)
{
    if (!an_json_str(msg, "messageId"))
        return "Invalid params: 'message.messageId' is required";
    if (!json_is_array(json_object_get(msg, "parts")))
        return "Invalid params: 'message.parts' must be an array";
    size_t i;
    const json_t *p;
    json_array_foreach(json_object_get(msg, "parts"), i, p)
    {
        const char *mt = an_json_str(json_object_get(p, "file"), "mimeType");
        if (!mt && (json_object_get(p, "url") || json_object_get(p, "raw")))
            mt = an_json_str(p, "mediaType");
        if (mt && strncmp(mt, "text/", 5) && strcmp(mt, "application/json"))
            return "Incompatible content types: this agent takes text/* and application/json";
    }
    return NULL;
}

static enum MHD_Result do_send(struct a2a_agent *a, struct mock_http *http, const struct reply *c,
                               const json_t *id, const json_t *params, bool stream)
{
    const json_t *msg = json_object_get(params, "message");
    if (!json_is_object(msg))
        return rpc_error(c, id, -32602, "Invalid params: 'message' is required");
    const char *why = check_message(msg);
    if (why)
        return rpc_error(c, id, !strncmp(why, "Incompatible", 12) ? -32005 : -32602, why);
    const json_t *cfg = json_object_get(params, "configuration");
    bool now = !stream && (a->v03 ? json_is_false(json_object_get(cfg, "blocking"))
                                  : json_is_true(json_object_get(cfg, "returnImmediately")));
    char *text = user_text(msg);
    const char *task_id = an_json_str(msg, "taskId"), *rest;
    struct run r = {
        .a = a, .events = json_array(), .artifacts = json_array(), .user = (json_t *)msg};
    json_t *wrong = json_is_integer(id) ? json_integer(json_integer_value(id) + 1000)
                                        : json_string("wrong-id");
    const json_t *rid = strcmp(text, "wrongid") ? id : wrong;
    enum ending end = END_CLOSE;
    enum MHD_Result rc;
    char buf[512];

    if (!strcmp(text, "rpcerror")) {
        rc = rpc_error(c, id, -32004, "Unsupported operation: no rockets");
        goto done;
    }
    if (!strcmp(text, "http500")) {
        static const char m[] = "internal server error (on purpose)\n";
        rc = mock_http_send(c->c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", m, strlen(m), NULL,
                            0);
        goto done;
    }
    if (task_id) { /* a reply to a task that asked for input */
        if (!task_get(a, task_id, &r.t)) {
            snprintf(buf, sizeof buf, "Task not found: %.200s", task_id);
            rc = rpc_error(c, id, not_found_code(a), buf);
            goto done;
        }
        if (r.t.state != ST_INPUT_REQUIRED) {
            snprintf(buf, sizeof buf, "Task %.200s is in state %s and cannot be continued", task_id,
                     st_names[a->v03][r.t.state]);
            rc = rpc_error(c, id, -32004, buf);
            goto done;
        }
        r.status = status_obj(&r, r.t.state, NULL);
        emit_task(&r);
        emit_status(&r, ST_WORKING, "working");
        snprintf(buf, sizeof buf, "echo: %.400s", text);
        emit_artifact(&r, "echo", json_pack("[o]", part_text(a, buf)), false, true);
        emit_status(&r, ST_COMPLETED, NULL);
    } else if (starts(text, "msg:", &rest)) {
        snprintf(buf, sizeof buf, "echo: %.400s", rest);
        const char *ctx = an_json_str(msg, "contextId");
        r.message =
            agent_msg(a, NULL, ctx ? ctx : "ctx-direct", json_pack("[o]", part_text(a, buf)));
        json_array_append_new(r.events, a->v03 ? json_incref(r.message)
                                               : json_pack("{s:O}", "message", r.message));
    } else if (!strcmp(text, "shape")) {
        json_array_append_new(r.events, json_pack("{s:i}", "foo", 1));
        r.message = json_pack("{s:i}", "foo", 1); /* the blocking answer: as strange */
    } else {
        end = play(&r, text, an_json_str(msg, "contextId"));
    }

    if (r.t.id[0] && json_array_size(r.artifacts))
        task_keep_artifacts(a, r.t.id, r.artifacts);
    if (now && !r.message && end != END_GARBAGE && end != END_CUT) {
        json_t *task = task_obj(&r); /* blocking: false: the task as it is */
        rc = rpc_result(c, rid, a->v03 ? task : json_pack("{s:o}", "task", task));
    } else if (stream) {
        rc = send_events(http, c, rid, &r, end);
    } else if (end == END_GARBAGE) {
        static const char g[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{not json";
        rc = mock_http_send(c->c, MHD_HTTP_OK, "application/json", c->rest ? g + 33 : g,
                            strlen(g) - (c->rest ? 33 : 0), NULL, 0);
    } else if (end == END_CUT) {
        mock_http_wait(http, c->c, CUT_AFTER_MS);
        rc = MHD_NO; /* libmicrohttpd closes the connection: no answer at all */
    } else if (end == END_STALL && r.t.state != ST_COMPLETED) {
        rc = wait_canceled(http, c, rid, &r);
    } else if (r.message) {
        rc = rpc_result(c, rid,
                        a->v03 || !strcmp(text, "shape")
                            ? json_incref(r.message)
                            : json_pack("{s:O}", "message", r.message));
    } else {
        json_t *task = task_obj(&r);
        rc = rpc_result(c, rid, a->v03 ? task : json_pack("{s:o}", "task", task));
    }
done:
    run_release(&r);
    json_decref(wrong);
    free(text);
    return rc;
}

static enum MHD_Result do_task(struct a2a_agent *a, const struct reply *c, const json_t *id,
                               const json_t *params, bool cancel)
{
    const char *tid = an_json_str(params, "id");
    struct run r = {.a = a};
    char buf[300];
    if (!tid)
        return rpc_error(c, id, -32602, "Invalid params: 'id' is required");
    if (!task_get(a, tid, &r.t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid ? tid : "");
        return rpc_error(c, id, not_found_code(a), buf);
    }
    if (cancel) {
        if (terminal(r.t.state)) {
            snprintf(buf, sizeof buf, "Task not cancelable: %.200s", tid);
            return rpc_error(c, id, -32002, buf);
        }
        r.t.state = task_set(a, tid, ST_CANCELED);
    }
    r.status = status_obj(&r, r.t.state, NULL);
    r.artifacts = task_artifacts(a, tid);
    json_t *task = task_obj(&r);
    json_decref(r.status);
    json_decref(r.artifacts);
    return rpc_result(c, id, task);
}

/* tasks/resubscribe (0.3): the task as it is, then whatever comes (the
 * stream stays open while the task runs). */
static enum MHD_Result do_resubscribe(struct a2a_agent *a, struct mock_http *http,
                                      const struct reply *c, const json_t *id, const json_t *params)
{
    const char *tid = an_json_str(params, "id");
    struct run r = {.a = a, .events = json_array(), .artifacts = json_array()};
    char buf[300];
    enum MHD_Result rc;
    if (!tid) {
        rc = rpc_error(c, id, -32602, "Invalid params: 'id' is required");
    } else if (!task_get(a, tid, &r.t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid);
        rc = rpc_error(c, id, not_found_code(a), buf);
    } else if (terminal(r.t.state)) {
        snprintf(buf, sizeof buf, "Task %.200s is in a terminal state and cannot be subscribed to",
                 tid);
        rc = rpc_error(c, id, -32004, buf);
    } else {
        r.status = status_obj(&r, r.t.state, NULL);
        emit_task(&r);
        rc = send_events(http, c, id, &r, END_STALL);
    }
    run_release(&r);
    return rc;
}

/* tasks/pushNotificationConfig/{set,get,list,delete} of an agent that
 * offers push notifications: configs kept per task, never called. */
static enum MHD_Result do_push(struct a2a_agent *a, const struct reply *c, const json_t *id,
                               const char *verb, const json_t *params)
{
    bool set = !strcmp(verb, "set");
    const char *tid = an_json_str(params, set ? "taskId" : "id");
    const json_t *cfg = json_object_get(params, "pushNotificationConfig");
    struct task t;
    char buf[300];
    if (!tid || (set && !an_json_str(cfg, "url")))
        return rpc_error(c, id, -32602, "Invalid params: the task id and a config url are needed");
    if (!task_get(a, tid, &t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid);
        return rpc_error(c, id, not_found_code(a), buf);
    }
    json_t *result = NULL;
    pthread_mutex_lock(&a->lock);
    json_t *list = json_object_get(a->push_configs, tid);
    if (!list) {
        list = json_array();
        json_object_set_new(a->push_configs, tid, list);
    }
    if (set) {
        result = json_pack("{s:s,s:O}", "taskId", tid, "pushNotificationConfig", cfg);
        if (a->fault != A2A_FAULT_PUSH_FORGETS)
            json_array_append_new(list, json_deep_copy(result));
        if (a->fault == A2A_FAULT_PUSH_SET_BARE) /* answered without its taskId */
            json_object_del(result, "taskId");
    } else if (!strcmp(verb, "get")) {
        result = json_deep_copy(json_array_get(list, json_array_size(list) - 1));
    } else if (!strcmp(verb, "list")) {
        result = json_deep_copy(list);
    } else if (!strcmp(verb, "delete")) {
        if (a->fault != A2A_FAULT_PUSH_DELETE_IGNORED)
            json_array_clear(list);
        result = json_null();
    }
    pthread_mutex_unlock(&a->lock);
    if (!result)
        return rpc_error(c, id, !strcmp(verb, "get") ? -32001 : -32601,
                         !strcmp(verb, "get") ? "No push notification config for this task"
                                              : "Method not found");
    return rpc_result(c, id, result);
}

/* ListTasks (1.0): the tasks, of one contextId when params name one,
 * oldest first, without history or artifacts; one page. */
static enum MHD_Result do_list(struct a2a_agent *a, const struct reply *c, const json_t *id,
                               const json_t *params)
{
    const char *ctx = an_json_str(params, "contextId");
    json_t *tasks = json_array();
    pthread_mutex_lock(&a->lock);
    for (size_t i = 0; a->fault != A2A_FAULT_LIST_EMPTY && i < a->n; i++) {
        const struct task *t = &a->tasks[i];
        if (ctx && strcmp(ctx, t->ctx))
            continue;
        json_array_append_new(
            tasks, json_pack("{s:s,s:s,s:{s:s}}", "id", t->id, "contextId", t->ctx, "status",
                             "state", st_names[a->fault == A2A_FAULT_V03_STATES][t->state]));
    }
    pthread_mutex_unlock(&a->lock);
    size_t n = json_array_size(tasks);
    return rpc_result(c, id,
                      json_pack("{s:o,s:s,s:I,s:I}", "tasks", tasks, "nextPageToken", "",
                                "pageSize", (json_int_t)(n ? n : 50), "totalSize", (json_int_t)n));
}

/* The 0.3 name of a 1.0 method (a2a_v1.h), or NULL. */
static const char *name_03(const char *m)
{
    static const char *const names[] = {"message/send",
                                        "message/stream",
                                        "tasks/get",
                                        "tasks/cancel",
                                        "tasks/resubscribe",
                                        "tasks/pushNotificationConfig/set",
                                        "tasks/pushNotificationConfig/get",
                                        "tasks/pushNotificationConfig/list",
                                        "tasks/pushNotificationConfig/delete",
                                        "agent/getAuthenticatedExtendedCard"};
    for (size_t i = 0; m && i < sizeof names / sizeof *names; i++)
        if (!strcmp(m, an_a2a_v1_method(names[i])))
            return names[i];
    return NULL;
}

/* The requests beyond send, stream, get and cancel (by their 0.3 names;
 * ListTasks in 1.0); false when `method` is none of them. */
static bool extra(struct a2a_agent *a, struct mock_http *http, const struct reply *c,
                  const json_t *body, const char *method, enum MHD_Result *rc)
{
    const json_t *id = json_object_get(body, "id");
    const char *v = an_json_str(body, "jsonrpc");
    if (!v || strcmp(v, "2.0"))
        *rc = rpc_error(c, id, -32600, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    else if (!a->v03 && !strcmp(an_json_str(body, "method"), "ListTasks"))
        *rc = do_list(a, c, id, json_object_get(body, "params"));
    else if (!method)
        return false;
    else if (!strcmp(method, "tasks/resubscribe"))
        *rc = do_resubscribe(a, http, c, id, json_object_get(body, "params"));
    else if (!strncmp(method, "tasks/pushNotificationConfig/", 29) && a->push)
        *rc = do_push(a, c, id, method + 29, json_object_get(body, "params"));
    else if (!strncmp(method, "tasks/pushNotificationConfig/", 29))
        *rc = rpc_error(c, id, -32003, "Push Notification is not supported");
    else if (!strcmp(method, "agent/getAuthenticatedExtendedCard"))
        *rc = rpc_error(c, id, -32007,
                        a->v03 ? "Authenticated Extended Card is not configured"
                               : "Extended Agent Card is not configured");
    else
        return false;
    return true;
}

/* One JSON-RPC request (a REST one, translated) answered on c. */
static enum MHD_Result dispatch(struct a2a_agent *a, struct mock_http *http, const struct reply *c,
                                const json_t *body)
{
    char msg[300];
    enum MHD_Result rc;
    const json_t *id = json_object_get(body, "id");
    const char *given = an_json_str(body, "method");
    const char *method = a->v03 ? given : name_03(given); /* by its 0.3 name */
    const json_t *params = json_object_get(body, "params");
    const char *v = MHD_lookup_connection_value(c->c, MHD_HEADER_KIND, "A2A-Version");
    bool v_ok = a->v03 ? (!v || !*v || !strcmp(v, "0.3") || !strcmp(v, "0.3.0"))
                       : (v && !strcmp(v, "1.0")) || a->fault == A2A_FAULT_VERSION_IGNORED;
    static const char *const names[4] = {"message/send", "message/stream", "tasks/get",
                                         "tasks/cancel"};
    int verb = 0;
    while (verb < 4 && (!method || strcmp(method, names[verb])))
        verb++;
    if (!v_ok) {
        snprintf(msg, sizeof msg,
                 "The requested A2A protocol version '%.20s' is not supported. Supported "
                 "versions: %s",
                 v && *v ? v : "0.3", a->v03 ? "0.3" : "1.0");
        rc = rpc_error(c, id, -32009, msg);
    } else if (!given || !id) {
        rc = rpc_error(c, id, -32600, "Invalid Request: 'method' and 'id' are required");
    } else if (extra(a, http, c, body, method, &rc)) {
        /* answered */
    } else if (verb == 4) {
        snprintf(msg, sizeof msg, "Method not found: %.200s", given);
        rc = rpc_error(c, id, -32601, msg);
    } else if (verb < 2) {
        rc = do_send(a, http, c, id, params, verb == 1);
    } else {
        rc = do_task(a, c, id, params, verb == 3);
    }
    return rc;
}

static enum MHD_Result on_rpc(struct a2a_agent *a, struct mock_http *http,
                              const struct mock_http_req *rq)
{
    struct reply c = {rq->conn, a->v03, NULL, false};
    char msg[300];
    unsigned status;
    json_t *body = mock_http_read_json(http, rq, &status, msg, sizeof msg);
    if (!body && status == MHD_HTTP_CONTENT_TOO_LARGE)
        return mock_http_send(rq->conn, status, "text/plain", msg, strlen(msg), NULL, 0);
    if (!json_is_object(body)) {
        json_decref(body);
        return rpc_error(&c, NULL, -32700, "Invalid JSON payload.");
    }
    enum MHD_Result rc = dispatch(a, http, &c, body);
    json_decref(body);
    return rc;
}

/* One query parameter (MHD decoded it) put back, percent-encoded, on the
 * query text in cls (an an_buf) that an_a2a_rest_method() reads. */
static enum MHD_Result query_add(void *cls, enum MHD_ValueKind kind, const char *key,
                                 const char *value)
{
    (void)kind;
    struct an_buf *b = cls;
    char *k = an_a2a_rest_escape(key), *v = an_a2a_rest_escape(value ? value : "");
    an_buf_printf(b, "%s%s=%s", b->len > 0 ? "&" : "", k, v);
    free(k);
    free(v);
    return MHD_YES;
}

/* A REST request (0.3 under /v1, 1.0 at the root: proto/a2a_rest.h),
 * answered as the JSON-RPC request it maps to, in REST's shapes. */
static enum MHD_Result on_rest(struct a2a_agent *a, struct mock_http *http,
                               const struct mock_http_req *rq, const char *path)
{
    struct reply c = {rq->conn, a->v03, NULL, a->fault == A2A_FAULT_REST_STATUS};
    char msg[300];
    unsigned status = 0;
    json_t *in = NULL, *params = NULL;
    if (rq->body_len || rq->too_big) {
        in = mock_http_read_json(http, rq, &status, msg, sizeof msg);
        if (!in && status == MHD_HTTP_CONTENT_TOO_LARGE)
            return mock_http_send(rq->conn, status, "text/plain", msg, strlen(msg), NULL, 0);
    } else {
        mock_http_log(http, rq, NULL);
    }
    struct an_buf query = AN_BUF_INIT;
    an_buf_puts(&query, "");
    MHD_get_connection_values(rq->conn, MHD_GET_ARGUMENT_KIND, query_add, &query);
    const char *method = an_a2a_rest_method(rq->method, path, an_buf_cstr(&query), in,
                                            a->v03 ? AN_A2A_V0_3 : AN_A2A_V1_0, &params);
    an_buf_release(&query);
    /* rest-jsonrpc: the REST paths answered as JSON-RPC would be */
    c.rest = a->fault == A2A_FAULT_REST_JSONRPC ? NULL : method;
    enum MHD_Result rc;
    if ((rq->body_len && !in) || (in && !json_is_object(in))) {
        c.rest = c.rest ? "message/send" : NULL;
        rc = rpc_error(&c, NULL, -32700, "Invalid JSON payload.");
    } else if (!method) {
        snprintf(msg, sizeof msg, "no route %.10s %.200s", rq->method, rq->url);
        rc = send_json(rq->conn, MHD_HTTP_NOT_FOUND,
                       an_a2a_rest_error_body(-32601, msg, MHD_HTTP_NOT_FOUND,
                                              a->v03 ? AN_A2A_V0_3 : AN_A2A_V1_0));
    } else {
        json_t *body = json_pack("{s:s,s:i,s:s,s:O}", "jsonrpc", "2.0", "id", 1, "method", method,
                                 "params", params);
        rc = dispatch(a, http, &c, body);
        json_decref(body);
    }
    json_decref(params);
    json_decref(in);
    return rc;
}

static enum MHD_Result send_card(struct a2a_agent *a, struct mock_http *http,
                                 struct MHD_Connection *c)
{
    char url[64], rest[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/rpc", mock_http_port(http));
    snprintf(rest, sizeof rest, "http://127.0.0.1:%u/rest", mock_http_port(http));
    json_t *card = json_pack(
        "{s:s,s:s,s:s,s:{s:b,s:b},s:[s],s:[s,s],s:[{s:s,s:s,s:s,s:[s]}]}", "name",
        "ananke-mock a2a", "description", "answers and fails as its messages say", "version",
        ANANKE_VERSION, "capabilities", "streaming", 1, "pushNotifications", 0, "defaultInputModes",
        "text/plain", "defaultOutputModes", "text/plain", "application/json", "skills", "id",
        "echo", "name", "echo", "description", "echo the text", "tags", "echo");
    if (a->fault == A2A_FAULT_CARD_NO_NAME)
        json_object_del(card, "name");
    if (a->push)
        json_object_set_new(json_object_get(card, "capabilities"), "pushNotifications",
                            json_true());
    if (a->v03) {
        bool rest_first = a->bindings == A2A_BIND_REST;
        json_object_set_new(card, "url", json_string(rest_first ? rest : url));
        json_object_set_new(card, "preferredTransport",
                            json_string(rest_first ? "HTTP+JSON" : "JSONRPC"));
        json_object_set_new(card, "protocolVersion", json_string("0.3.0"));
        if (a->bindings == A2A_BIND_BOTH)
            json_object_set_new(card, "additionalInterfaces",
                                json_pack("[{s:s,s:s},{s:s,s:s}]", "url", url, "transport",
                                          "JSONRPC", "url", rest, "transport", "HTTP+JSON"));
    } else {
        json_t *ifs = json_array();
        if (a->bindings != A2A_BIND_REST)
            json_array_append_new(ifs, json_pack("{s:s,s:s,s:s}", "url", url, "protocolBinding",
                                                 "JSONRPC", "protocolVersion", "1.0"));
        if (a->bindings != A2A_BIND_JSONRPC)
            json_array_append_new(ifs, json_pack("{s:s,s:s,s:s}", "url", rest, "protocolBinding",
                                                 "HTTP+JSON", "protocolVersion", "1.0"));
        if (a->fault == A2A_FAULT_CARD_BAD_INTERFACE) /* no protocolVersion */
            json_array_append_new(ifs,
                                  json_pack("{s:s,s:s}", "url", url, "protocolBinding", "GRPC"));
        json_object_set_new(card, "supportedInterfaces", ifs);
    }
    return send_json(c, MHD_HTTP_OK, card);
}

enum MHD_Result a2a_agent_handle(void *ctx, struct mock_http *http, const struct mock_http_req *rq)
{
    struct a2a_agent *a = ctx;
    bool get = !strcmp(rq->method, MHD_HTTP_METHOD_GET);
    if (get && !strcmp(rq->url, "/.well-known/agent-card.json")) {
        mock_http_log(http, rq, NULL);
        return send_card(a, http, rq->conn);
    }
    if (!strcmp(rq->method, MHD_HTTP_METHOD_POST) &&
        (!strcmp(rq->url, "/rpc") || !strcmp(rq->url, "/")))
        return on_rpc(a, http, rq);
    if (!strncmp(rq->url, "/rest/", 6))
        return on_rest(a, http, rq, rq->url + 5); /* the REST interface is /rest */
    mock_http_log(http, rq, NULL);
    static const char m[] = "{\"error\":\"not_found\",\"message\":\"this agent serves GET "
                            "/.well-known/agent-card.json and POST /rpc\"}";
    return mock_http_send(rq->conn, MHD_HTTP_NOT_FOUND, "application/json", m, strlen(m), NULL, 0);
}
