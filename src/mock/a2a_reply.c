/* ananke-mock a2a: answers, JSON-RPC's or REST's: an error, a result, a
 * stream of events, a blocking wait (a2a_agent_int.h). */
#include "a2a_agent_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/spec_names.h"
#include "proto/a2a_rest.h"

#define WAIT_SLICE_MS 100

enum MHD_Result a2a_send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
    return mock_http_send_json(c, status, j, NULL, 0);
}

/* An error: JSON-RPC's (HTTP 200), or REST's (its HTTP status and body). */
enum MHD_Result a2a_rpc_error(const struct reply *c, const json_t *id, int code,
                              const char *message)
{
    if (c->rest) {
        unsigned st = c->status_400 ? MHD_HTTP_BAD_REQUEST : an_a2a_rest_status_of(code);
        return a2a_send_json(
            c->c, st,
            an_a2a_rest_error_body(code, message, st, c->v03 ? AN_A2A_V0_3 : AN_A2A_V1_0));
    }
    return a2a_send_json(c->c, MHD_HTTP_OK,
                         json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id",
                                   id ? id : json_null(), "error", "code", code, "message",
                                   message));
}

/* A result (reference taken): JSON-RPC's, or REST's body (0.3: its
 * protobuf JSON shape). */
enum MHD_Result a2a_rpc_result(const struct reply *c, const json_t *id, json_t *result)
{
    if (c->rest) {
        json_t *body = c->v03 ? an_a2a_rest_result_out(c->rest, result)
                              : json_incref(json_is_null(result) ? NULL : result);
        json_decref(result);
        return a2a_send_json(c->c, MHD_HTTP_OK, body ? body : json_object());
    }
    return a2a_send_json(c->c, MHD_HTTP_OK,
                         json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

enum MHD_Result a2a_send_events(struct mock_http *http, const struct reply *c, const json_t *rid,
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
enum MHD_Result a2a_wait_canceled(struct mock_http *http, const struct reply *c, const json_t *rid,
                                  struct run *r)
{
    struct task t;
    while (mock_http_wait(http, c->c, WAIT_SLICE_MS))
        if (a2a_task_get(r->a, r->t.id, &t) && t.state == ST_CANCELED) {
            json_decref(r->status);
            r->status = a2a_status_obj(r, ST_CANCELED, NULL);
            json_t *task = a2a_task_obj(r);
            return a2a_rpc_result(c, rid, r->a->v03 ? task : json_pack("{s:o}", "task", task));
        }
    return MHD_NO;
}
