/* ananke-mock a2a: one behaviour played into a struct run, the events of
 * a stream, in the shapes of the version spoken (a2a_agent_int.h). */
#include "a2a_agent_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "mock_mcp.h"

/* [v03][state] */
const char *const a2a_st_names[2][6] = {
    {"TASK_STATE_SUBMITTED", "TASK_STATE_WORKING", "TASK_STATE_INPUT_REQUIRED",
     "TASK_STATE_COMPLETED", "TASK_STATE_FAILED", "TASK_STATE_CANCELED"},
    {"submitted", "working", "input-required", "completed", "failed", "canceled"},
};

json_t *a2a_part_text(const struct a2a_agent *a, const char *text)
{
    return a->v03 ? json_pack("{s:s,s:s}", "kind", "text", "text", text)
                  : json_pack("{s:s}", "text", text);
}

json_t *a2a_agent_msg(const struct a2a_agent *a, const struct task *t, const char *ctx,
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

static void emit(struct run *r, const char *key, const char *kind, json_t *obj)
{
    if (r->a->v03) {
        json_object_set_new(obj, "kind", json_string(kind));
        json_array_append_new(r->events, obj);
    } else {
        json_array_append_new(r->events, json_pack("{s:o}", key, obj));
    }
}

json_t *a2a_status_obj(struct run *r, enum st s, const char *text)
{
    json_t *st = json_pack("{s:s}", "state",
                           a2a_st_names[r->a->v03 || r->a->fault == A2A_FAULT_V03_STATES][s]);
    if (text)
        json_object_set_new(
            st, "message",
            a2a_agent_msg(r->a, &r->t, r->t.ctx, json_pack("[o]", a2a_part_text(r->a, text))));
    return st;
}

json_t *a2a_task_obj(struct run *r)
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

void a2a_emit_task(struct run *r)
{
    emit(r, "task", "task", a2a_task_obj(r));
}

void a2a_emit_status(struct run *r, enum st s, const char *text)
{
    s = a2a_task_set(r->a, r->t.id, s);
    r->t.state = s;
    json_decref(r->status);
    r->status = a2a_status_obj(r, s, text);
    json_t *ev =
        json_pack("{s:s,s:s,s:O}", "taskId", r->t.id, "contextId", r->t.ctx, "status", r->status);
    if (r->a->v03)
        json_object_set_new(ev, "final", json_boolean(a2a_terminal(s) || s == ST_INPUT_REQUIRED));
    emit(r, "statusUpdate", "status-update", ev);
}

void a2a_emit_artifact(struct run *r, const char *name, json_t *parts, bool append, bool last)
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

void a2a_run_release(struct run *r)
{
    json_decref(r->events);
    json_decref(r->artifacts);
    json_decref(r->status);
    json_decref(r->message);
}

/* The code of "no such task": -32001, unless the fault says otherwise. */
int a2a_not_found_code(const struct a2a_agent *a)
{
    return a->fault == A2A_FAULT_WRONG_ERROR_CODE ? -32603 : -32001;
}

bool a2a_starts(const char *s, const char *prefix, const char **rest)
{
    size_t n = strlen(prefix);
    if (strncmp(s, prefix, n))
        return false;
    *rest = s + n;
    return true;
}

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
        a2a_emit_status(r, ST_FAILED, buf);
    } else {
        *colon = '\0';
        json_t *res = mock_mcp_call(head, NULL, colon + 1, args, 0);
        char *text = mock_mcp_content_text(res);
        snprintf(buf, sizeof buf, "tool:%.200s", colon + 1);
        a2a_emit_artifact(r, buf, json_pack("[o]", a2a_part_text(r->a, text)), false, true);
        a2a_emit_status(r, ST_COMPLETED, NULL);
        free(text);
        json_decref(res);
    }
    json_decref(args);
    free(head);
}

/* Play a new task's behaviour for `text` into r; returns how its stream ends. */
enum ending a2a_play(struct run *r, const char *text, const char *ctx)
{
    struct a2a_agent *a = r->a;
    const char *rest;
    char buf[512];
    r->t = a2a_task_new(a, ctx);
    r->status = a2a_status_obj(r, ST_SUBMITTED, NULL);
    if (!strcmp(text, "chunks")) { /* the task first, already working */
        r->t.state = a2a_task_set(a, r->t.id, ST_WORKING);
        json_decref(r->status);
        r->status = a2a_status_obj(r, ST_WORKING, NULL);
        a2a_emit_task(r);
        static const char *const bits[] = {"Once ", "upon ", "a time"};
        for (int i = 0; i < 3; i++)
            a2a_emit_artifact(r, "story", json_pack("[o]", a2a_part_text(a, bits[i])), i > 0,
                              i == 2);
        a2a_emit_status(r, ST_COMPLETED, NULL);
        return END_CLOSE;
    }
    a2a_emit_task(r);
    if (!strcmp(text, "garbage"))
        return END_GARBAGE;
    if (!strcmp(text, "open")) {
        a2a_emit_status(r, ST_COMPLETED, "done, but I keep the line open");
        return END_STALL;
    }
    a2a_emit_status(r, ST_WORKING, "working");
    if (!strcmp(text, "cut"))
        return END_CUT;
    if (!strcmp(text, "hang") || a2a_starts(text, "slow:", &rest))
        return END_STALL;
    if (a2a_starts(text, "ask:", &rest)) {
        a2a_emit_status(r, ST_INPUT_REQUIRED, "need more input");
    } else if (a2a_starts(text, "fail:", &rest)) {
        snprintf(buf, sizeof buf, "cannot do: %.400s", rest);
        a2a_emit_status(r, ST_FAILED, buf);
    } else if (a2a_starts(text, "tool:", &rest)) {
        play_tool(r, rest);
    } else if (a2a_starts(text, "data:", &rest)) {
        json_t *data = json_pack("{s:s,s:i}", "echo", rest, "n", 3);
        json_t *file = a->v03 ? json_pack("{s:s,s:{s:s,s:s,s:s}}", "kind", "file", "file", "uri",
                                          "http://127.0.0.1/report.csv", "mimeType", "text/csv",
                                          "name", "report.csv")
                              : json_pack("{s:s,s:s,s:s}", "url", "http://127.0.0.1/report.csv",
                                          "mediaType", "text/csv", "filename", "report.csv");
        a2a_emit_artifact(
            r, "result",
            json_pack("[o]", a->v03 ? json_pack("{s:s,s:o}", "kind", "data", "data", data)
                                    : json_pack("{s:o}", "data", data)),
            false, true);
        a2a_emit_artifact(r, "report", json_pack("[o]", file), false, true);
        a2a_emit_status(r, ST_COMPLETED, NULL);
    } else {
        snprintf(buf, sizeof buf, "echo: %.400s", text);
        a2a_emit_artifact(r, "echo", json_pack("[o]", a2a_part_text(a, buf)), false, true);
        a2a_emit_status(r, ST_COMPLETED, NULL);
        if (a->fault == A2A_FAULT_BAD_TRANSITION) /* out of a terminal state */
            a2a_emit_status(r, ST_WORKING, "working again");
    }
    return END_CLOSE;
}
