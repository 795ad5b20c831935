/* ananke-mock a2a: the methods (send and stream, get and cancel,
 * resubscribe, push notification configs, ListTasks), by their 0.3 names
 * (a2a_agent_int.h). */
#include "a2a_agent_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"

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

enum MHD_Result a2a_do_send(struct a2a_agent *a, struct mock_http *http, const struct reply *c,
                            const json_t *id, const json_t *params, bool stream)
{
    const json_t *msg = json_object_get(params, "message");
    if (!json_is_object(msg))
        return a2a_rpc_error(c, id, -32602, "Invalid params: 'message' is required");
    const char *why = check_message(msg);
    if (why)
        return a2a_rpc_error(c, id, !strncmp(why, "Incompatible", 12) ? -32005 : -32602, why);
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
        rc = a2a_rpc_error(c, id, -32004, "Unsupported operation: no rockets");
        goto done;
    }
    if (!strcmp(text, "http500")) {
        static const char m[] = "internal server error (on purpose)\n";
        rc = mock_http_send(c->c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain", m, strlen(m), NULL,
                            0);
        goto done;
    }
    if (task_id) { /* a reply to a task that asked for input */
        if (!a2a_task_get(a, task_id, &r.t)) {
            snprintf(buf, sizeof buf, "Task not found: %.200s", task_id);
            rc = a2a_rpc_error(c, id, a2a_not_found_code(a), buf);
            goto done;
        }
        if (r.t.state != ST_INPUT_REQUIRED) {
            snprintf(buf, sizeof buf, "Task %.200s is in state %s and cannot be continued", task_id,
                     a2a_st_names[a->v03][r.t.state]);
            rc = a2a_rpc_error(c, id, -32004, buf);
            goto done;
        }
        r.status = a2a_status_obj(&r, r.t.state, NULL);
        a2a_emit_task(&r);
        a2a_emit_status(&r, ST_WORKING, "working");
        snprintf(buf, sizeof buf, "echo: %.400s", text);
        a2a_emit_artifact(&r, "echo", json_pack("[o]", a2a_part_text(a, buf)), false, true);
        a2a_emit_status(&r, ST_COMPLETED, NULL);
    } else if (a2a_starts(text, "msg:", &rest)) {
        snprintf(buf, sizeof buf, "echo: %.400s", rest);
        const char *ctx = an_json_str(msg, "contextId");
        r.message = a2a_agent_msg(a, NULL, ctx ? ctx : "ctx-direct",
                                  json_pack("[o]", a2a_part_text(a, buf)));
        json_array_append_new(r.events, a->v03 ? json_incref(r.message)
                                               : json_pack("{s:O}", "message", r.message));
    } else if (!strcmp(text, "shape")) {
        json_array_append_new(r.events, json_pack("{s:i}", "foo", 1));
        r.message = json_pack("{s:i}", "foo", 1); /* the blocking answer: as strange */
    } else {
        end = a2a_play(&r, text, an_json_str(msg, "contextId"));
    }

    if (r.t.id[0] && json_array_size(r.artifacts))
        a2a_task_keep_artifacts(a, r.t.id, r.artifacts);
    if (now && !r.message && end != END_GARBAGE && end != END_CUT) {
        json_t *task = a2a_task_obj(&r); /* blocking: false: the task as it is */
        rc = a2a_rpc_result(c, rid, a->v03 ? task : json_pack("{s:o}", "task", task));
    } else if (stream) {
        rc = a2a_send_events(http, c, rid, &r, end);
    } else if (end == END_GARBAGE) {
        static const char g[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{not json";
        rc = mock_http_send(c->c, MHD_HTTP_OK, "application/json", c->rest ? g + 33 : g,
                            strlen(g) - (c->rest ? 33 : 0), NULL, 0);
    } else if (end == END_CUT) {
        mock_http_wait(http, c->c, CUT_AFTER_MS);
        rc = MHD_NO; /* libmicrohttpd closes the connection: no answer at all */
    } else if (end == END_STALL && r.t.state != ST_COMPLETED) {
        rc = a2a_wait_canceled(http, c, rid, &r);
    } else if (r.message) {
        rc = a2a_rpc_result(c, rid,
                            a->v03 || !strcmp(text, "shape")
                                ? json_incref(r.message)
                                : json_pack("{s:O}", "message", r.message));
    } else {
        json_t *task = a2a_task_obj(&r);
        rc = a2a_rpc_result(c, rid, a->v03 ? task : json_pack("{s:o}", "task", task));
    }
done:
    a2a_run_release(&r);
    json_decref(wrong);
    free(text);
    return rc;
}

enum MHD_Result a2a_do_task(struct a2a_agent *a, const struct reply *c, const json_t *id,
                            const json_t *params, bool cancel)
{
    const char *tid = an_json_str(params, "id");
    struct run r = {.a = a};
    char buf[300];
    if (!tid)
        return a2a_rpc_error(c, id, -32602, "Invalid params: 'id' is required");
    if (!a2a_task_get(a, tid, &r.t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid ? tid : "");
        return a2a_rpc_error(c, id, a2a_not_found_code(a), buf);
    }
    if (cancel) {
        if (a2a_terminal(r.t.state)) {
            snprintf(buf, sizeof buf, "Task not cancelable: %.200s", tid);
            return a2a_rpc_error(c, id, -32002, buf);
        }
        r.t.state = a2a_task_set(a, tid, ST_CANCELED);
    }
    r.status = a2a_status_obj(&r, r.t.state, NULL);
    r.artifacts = a2a_task_artifacts(a, tid);
    json_t *task = a2a_task_obj(&r);
    json_decref(r.status);
    json_decref(r.artifacts);
    return a2a_rpc_result(c, id, task);
}

/* tasks/resubscribe (0.3): the task as it is, then whatever comes (the
 * stream stays open while the task runs). */
enum MHD_Result a2a_do_resubscribe(struct a2a_agent *a, struct mock_http *http,
                                   const struct reply *c, const json_t *id, const json_t *params)
{
    const char *tid = an_json_str(params, "id");
    struct run r = {.a = a, .events = json_array(), .artifacts = json_array()};
    char buf[300];
    enum MHD_Result rc;
    if (!tid) {
        rc = a2a_rpc_error(c, id, -32602, "Invalid params: 'id' is required");
    } else if (!a2a_task_get(a, tid, &r.t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid);
        rc = a2a_rpc_error(c, id, a2a_not_found_code(a), buf);
    } else if (a2a_terminal(r.t.state)) {
        snprintf(buf, sizeof buf, "Task %.200s is in a terminal state and cannot be subscribed to",
                 tid);
        rc = a2a_rpc_error(c, id, -32004, buf);
    } else {
        r.status = a2a_status_obj(&r, r.t.state, NULL);
        a2a_emit_task(&r);
        rc = a2a_send_events(http, c, id, &r, END_STALL);
    }
    a2a_run_release(&r);
    return rc;
}

/* tasks/pushNotificationConfig/{set,get,list,delete} of an agent that
 * offers push notifications: configs kept per task, never called. */
/* 1.0 push config params ({taskId, id, url, ...} flat; get, delete
 * {taskId, id}; list {taskId}) in the 0.3 shape this file keeps. New
 * reference. */
static json_t *push_params_03(const char *verb, const json_t *params)
{
    json_t *p = json_object();
    const json_t *tid = json_object_get(params, "taskId");
    if (!strcmp(verb, "set")) {
        json_t *cfg = json_deep_copy(json_is_object(params) ? params : NULL);
        if (!cfg)
            cfg = json_object();
        json_object_del(cfg, "taskId");
        json_object_del(cfg, "tenant");
        json_object_set_new(p, "pushNotificationConfig", cfg);
        if (tid)
            json_object_set(p, "taskId", (json_t *)tid);
        return p;
    }
    if (tid)
        json_object_set(p, "id", (json_t *)tid);
    const json_t *cid = json_object_get(params, "id");
    if (cid)
        json_object_set(p, "pushNotificationConfigId", (json_t *)cid);
    return p;
}

/* A 0.3 {taskId, pushNotificationConfig} as the flat 1.0 config. */
static json_t *push_config_10(const json_t *c)
{
    json_t *o = json_deep_copy(json_object_get(c, "pushNotificationConfig"));
    if (!o)
        o = json_object();
    const json_t *tid = json_object_get(c, "taskId");
    if (tid)
        json_object_set(o, "taskId", (json_t *)tid);
    return o;
}

/* The 0.3 answer of push `verb` (reference taken) in the 1.0 shape: a
 * config flat, a list {configs}, a delete {}. */
static json_t *push_result_10(const char *verb, json_t *r)
{
    json_t *o;
    if (json_is_array(r)) {
        json_t *l = json_array();
        size_t i;
        const json_t *c;
        json_array_foreach(r, i, c) json_array_append_new(l, push_config_10(c));
        o = json_pack("{s:o}", "configs", l);
    } else if (!strcmp(verb, "delete")) {
        o = json_object();
    } else {
        o = push_config_10(r);
    }
    json_decref(r);
    return o;
}

static enum MHD_Result push_03(struct a2a_agent *a, const struct reply *c, const json_t *id,
                               const char *verb, const json_t *params);

enum MHD_Result a2a_do_push(struct a2a_agent *a, const struct reply *c, const json_t *id,
                            const char *verb, const json_t *params)
{
    if (a->v03)
        return push_03(a, c, id, verb, params);
    json_t *p = push_params_03(verb, params);
    enum MHD_Result rc = push_03(a, c, id, verb, p);
    json_decref(p);
    return rc;
}

/* The push methods on 0.3 params; a 1.0 agent answers in the 1.0 shape. */
static enum MHD_Result push_03(struct a2a_agent *a, const struct reply *c, const json_t *id,
                               const char *verb, const json_t *params)
{
    bool set = !strcmp(verb, "set");
    const char *tid = an_json_str(params, set ? "taskId" : "id");
    const json_t *cfg = json_object_get(params, "pushNotificationConfig");
    struct task t;
    char buf[300];
    if (!tid || (set && !an_json_str(cfg, "url")))
        return a2a_rpc_error(c, id, -32602,
                             "Invalid params: the task id and a config url are needed");
    if (!a2a_task_get(a, tid, &t)) {
        snprintf(buf, sizeof buf, "Task not found: %.200s", tid);
        return a2a_rpc_error(c, id, a2a_not_found_code(a), buf);
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
        return a2a_rpc_error(c, id, !strcmp(verb, "get") ? -32001 : -32601,
                             !strcmp(verb, "get") ? "No push notification config for this task"
                                                  : "Method not found");
    return a2a_rpc_result(c, id, a->v03 ? result : push_result_10(verb, result));
}

/* ListTasks (1.0): the tasks, of one contextId when params name one,
 * oldest first, without history or artifacts; one page. */
enum MHD_Result a2a_do_list(struct a2a_agent *a, const struct reply *c, const json_t *id,
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
                             "state", a2a_st_names[a->fault == A2A_FAULT_V03_STATES][t->state]));
    }
    pthread_mutex_unlock(&a->lock);
    size_t n = json_array_size(tasks);
    return a2a_rpc_result(c, id,
                          json_pack("{s:o,s:s,s:I,s:I}", "tasks", tasks, "nextPageToken", "",
                                    "pageSize", (json_int_t)(n ? n : 50), "totalSize",
                                    (json_int_t)n));
}
