#include "agui_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agui_input.h"
#include "agui_plan.h"
#include "agui_request.h"
#include "core/json.h"

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    json_t *j = json_pack("{s:s}", "error", msg);
    char *s = an_json_compact(j);
    json_decref(j);
    enum MHD_Result rc = mock_http_send(c, status, "application/json", s, strlen(s), NULL, 0);
    free(s);
    return rc;
}

static enum MHD_Result send_stream(struct mock_http *http, struct MHD_Connection *c,
                                   const struct agui_rule *rule, const struct agui_request *rq)
{
    unsigned long seq = mock_http_next_seq(http);
    char run_id[64] = "";
    if (!rq->run_id)
        snprintf(run_id, sizeof run_id, "mock-run-%lu", seq);
    struct agui_plan_input in = {.thread_id = rq->thread_id,
                                 .run_id = rq->run_id ? rq->run_id : run_id,
                                 .user_text = rq->view.user_text,
                                 .user_text_len = rq->view.user_text_len,
                                 .seq = seq};
    struct mock_plan plan = MOCK_PLAN_INIT;
    agui_plan_build(&plan, rule, &in);
    enum MHD_Result rc = mock_http_send_plan(http, c, rule ? (unsigned)rule->status : 200u,
                                             rule ? rule->content_type : "text/event-stream",
                                             rule ? rule->headers : NULL, rule ? rule->nheaders : 0,
                                             &plan);
    mock_plan_release(&plan);
    return rc;
}

static enum MHD_Result answer_run(struct mock_http *http, struct agui_scenario *sc,
                                  const struct mock_http_req *hr)
{
    struct MHD_Connection *c = hr->conn;
    char why[160];
    json_t *body = mock_http_json_body(http, hr, why, sizeof why);
    if (hr->too_big) {
        char msg[96];
        snprintf(msg, sizeof msg, "request body larger than %zu bytes", mock_http_max_body(http));
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg);
    }
    if (!hr->body_len)
        return send_error(c, MHD_HTTP_BAD_REQUEST,
                          "empty body: expected a RunAgentInput JSON object");
    bool raw = sc->run_non_json && !json_is_object(body);
    if (raw) {
        /* the fault `non_json: run`: whatever came is run, its text the
         * user's message */
        json_decref(body);
        body = json_pack("{s:[{s:s,s:s,s:o}]}", "messages", "id", "mock-raw", "role", "user",
                         "content", an_json_lossy(hr->body, hr->body_len));
    }
    if (!body) {
        char msg[256];
        snprintf(msg, sizeof msg, "invalid JSON body: %s", why);
        return send_error(c, MHD_HTTP_BAD_REQUEST, msg);
    }
    if (!json_is_object(body)) {
        json_decref(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "body must be a JSON object (RunAgentInput)");
    }
    char problem[160], msg[200];
    if (sc->strict_input && !raw && agui_input_problem(body, problem, sizeof problem)) {
        json_decref(body);
        snprintf(msg, sizeof msg, "not a RunAgentInput: %s", problem);
        return send_error(c, MHD_HTTP_UNPROCESSABLE_CONTENT, msg);
    }
    struct agui_request rq;
    agui_request_read(&rq, body, hr->url);
    const struct agui_rule *rule = agui_scenario_pick(sc, &rq.view);
    enum MHD_Result rc;
    if (rule && rule->body)
        rc = mock_http_send(c, (unsigned)rule->status, rule->content_type, rule->body,
                            rule->body_len, rule->headers, rule->nheaders);
    else
        rc = send_stream(http, c, rule, &rq);
    agui_request_release(&rq);
    json_decref(body);
    return rc;
}

enum MHD_Result agui_server_handle(void *ctx, struct mock_http *http,
                                   const struct mock_http_req *hr)
{
    if (!strcmp(hr->method, MHD_HTTP_METHOD_POST))
        return answer_run(http, ctx, hr);
    /* Health checks are harness noise, not what the client under test sent,
     * so they stay out of the request log. */
    if (!strcmp(hr->url, "/health") &&
        (!strcmp(hr->method, MHD_HTTP_METHOD_GET) || !strcmp(hr->method, MHD_HTTP_METHOD_HEAD)))
        return mock_http_send(hr->conn, MHD_HTTP_OK, "text/plain", "ok", 2, NULL, 0);
    mock_http_log(http, hr, NULL);
    struct mock_header allow = {"Allow", "POST"};
    json_t *j = json_pack("{s:s}", "error", "method not allowed: AG-UI runs are POST requests");
    char *s = an_json_compact(j);
    json_decref(j);
    enum MHD_Result rc = mock_http_send(hr->conn, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json",
                                        s, strlen(s), &allow, 1);
    free(s);
    return rc;
}
