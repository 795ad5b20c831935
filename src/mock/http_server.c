#include "http_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "http_scenario.h"
#include "mock_mcp.h"

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
    return mock_http_send_json(c, status, j, NULL, 0);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *error,
                                  const char *msg)
{
    return send_json(c, status, json_pack("{s:s,s:s}", "error", error, "message", msg));
}

/* What makes a body not a run-case request, or NULL. */
static const char *request_problem(const json_t *body)
{
    if (!json_is_object(body))
        return "the body must be a JSON object {case_id, version, input}";
    const json_t *id = json_object_get(body, "case_id");
    if (!json_is_string(id) || !json_string_length(id))
        return "'case_id' must be a non-empty string";
    if (!json_is_string(json_object_get(body, "version")))
        return "'version' must be a string (baseline or new)";
    const json_t *input = json_object_get(body, "input");
    if (!json_is_object(input))
        return "'input' must be an object {user, context?}";
    if (!json_is_string(json_object_get(input, "user")))
        return "'input.user' must be a string";
    return NULL;
}

/* mcp_calls: each made on its tool server; the reported ones added to the
 * answer's events as a tool_call and its tool_result (docs/mock.md
 * "Calling MCP tools"). */
static void make_calls(const char *calls_json, json_t *answer)
{
    json_t *calls = json_loads(calls_json, 0, NULL);
    json_t *events = json_object_get(answer, "events");
    if (!json_is_array(events)) {
        events = json_array();
        json_object_set_new(answer, "events", events);
    }
    size_t i;
    json_t *c;
    json_array_foreach(calls, i, c)
    {
        const char *tool = an_json_str(c, "tool");
        json_t *args = json_object_get(c, "arguments");
        json_t *res = mock_mcp_call(an_json_str(c, "server"), NULL, tool, args, 0);
        if (!json_is_false(json_object_get(c, "report"))) {
            char id[32];
            snprintf(id, sizeof id, "mcp_%zu", i + 1);
            json_array_append_new(events, json_pack("{s:s,s:s,s:s,s:o}", "type", "tool_call",
                                                    "call_id", id, "tool", tool, "args",
                                                    args ? json_incref(args) : json_object()));
            bool bad = json_is_true(json_object_get(res, "isError"));
            json_array_append_new(events, json_pack("{s:s,s:s,s:s,s:s,s:O}", "type", "tool_result",
                                                    "call_id", id, "tool", tool, "status",
                                                    bad ? "error" : "ok", "payload", res));
        }
        json_decref(res);
    }
    json_decref(calls);
}

/* The rule's run-case answer, with the request's case_id and version when
 * the script left them out (as the demo agent echoes them). */
static enum MHD_Result send_response(struct MHD_Connection *c, const struct http_rule *r,
                                     const char *case_id, const char *version)
{
    json_t *j = json_loads(r->response, JSON_DECODE_ANY, NULL);
    if (json_is_object(j)) {
        if (!json_object_get(j, "case_id"))
            json_object_set_new(j, "case_id", json_string(case_id));
        if (!json_object_get(j, "version"))
            json_object_set_new(j, "version", json_string(version));
        if (r->mcp_calls)
            make_calls(r->mcp_calls, j);
    }
    char *s = j ? an_json_compact(j) : an_xstrdup(r->response);
    json_decref(j);
    enum MHD_Result rc = mock_http_send(c, (unsigned)r->status, r->content_type, s, strlen(s),
                                        r->headers, r->nheaders);
    free(s);
    return rc;
}

static enum MHD_Result run_case(struct mock_http *http, struct http_scenario *sc,
                                const struct mock_http_req *hr)
{
    struct MHD_Connection *c = hr->conn;
    char msg[300];
    unsigned status;
    json_t *body = mock_http_read_json(http, hr, &status, msg, sizeof msg);
    if (!body)
        return send_error(c, status, status == MHD_HTTP_BAD_REQUEST ? "bad_request" : "too_large",
                          msg);
    const char *problem = request_problem(body);
    if (problem) {
        json_decref(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "bad_request", problem);
    }
    const char *case_id = json_string_value(json_object_get(body, "case_id"));
    const char *version = json_string_value(json_object_get(body, "version"));
    const struct http_rule *r = http_scenario_pick(sc, case_id, version);
    enum MHD_Result rc;
    if (!r) {
        rc = send_json(c, MHD_HTTP_NOT_FOUND,
                       json_pack("{s:s,s:s,s:s}", "error", "unknown_case", "case_id", case_id,
                                 "version", version));
    } else if (r->drop) {
        rc = MHD_NO; /* libmicrohttpd closes the connection: no status line at all */
    } else if (r->stall) {
        mock_http_wait(http, c, -1); /* until the client hangs up or the mock stops */
        rc = MHD_NO;
    } else if (r->delay_ms && !mock_http_wait(http, c, r->delay_ms)) {
        rc = MHD_NO;
    } else if (r->body) {
        rc = mock_http_send(c, (unsigned)r->status, r->content_type, r->body, r->body_len,
                            r->headers, r->nheaders);
    } else {
        rc = send_response(c, r, case_id, version);
    }
    json_decref(body);
    return rc;
}

enum MHD_Result http_server_handle(void *ctx, struct mock_http *http,
                                   const struct mock_http_req *hr)
{
    bool get = !strcmp(hr->method, MHD_HTTP_METHOD_GET) ||
               !strcmp(hr->method, MHD_HTTP_METHOD_HEAD);
    /* health checks are harness noise: not in the request log */
    if (!strcmp(hr->url, "/health") && get)
        return mock_http_send(hr->conn, MHD_HTTP_OK, "application/json", "{\"ok\":true}", 11, NULL,
                              0);
    if (!strcmp(hr->url, "/run-case")) {
        if (!strcmp(hr->method, MHD_HTTP_METHOD_POST))
            return run_case(http, ctx, hr);
        mock_http_log(http, hr, NULL);
        struct mock_header allow = {"Allow", "POST"};
        const char *m =
            "{\"error\":\"method_not_allowed\",\"message\":\"POST a case to /run-case\"}";
        return mock_http_send(hr->conn, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json", m,
                              strlen(m), &allow, 1);
    }
    mock_http_log(http, hr, NULL);
    return send_error(hr->conn, MHD_HTTP_NOT_FOUND, "not_found",
                      "this agent serves POST /run-case and GET /health");
}
