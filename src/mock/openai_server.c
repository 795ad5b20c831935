#include "openai_server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/json.h"
#include "openai_plan.h"
#include "openai_request.h"

#define JSON_TYPE "application/json"

static bool is_path(const char *url, const char *a, const char *b)
{
    return !strcmp(url, a) || !strcmp(url, b);
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *message,
                                  const char *type, const char *param, const char *code)
{
    size_t len = 0;
    char *s = oai_render_error(message, type, param, code, &len);
    enum MHD_Result rc = mock_http_send(c, status, JSON_TYPE, s, len, NULL, 0);
    free(s);
    return rc;
}

/* A plain answer that the rule breaks off: cut closes the connection with
 * nothing sent, stall holds it until the client or the mock gives up. */
static bool broken_off(struct mock_http *http, const struct oai_rule *rule,
                       struct MHD_Connection *c)
{
    if (rule && rule->stall)
        mock_http_wait(http, c, -1);
    return rule && (rule->cut || rule->stall);
}

static enum MHD_Result send_answer(struct mock_http *http, struct oai_scenario *sc,
                                   struct MHD_Connection *c, const struct oai_rule *rule,
                                   const struct oai_request *rq)
{
    struct oai_answer in = {.model = rq->view.model ? rq->view.model : sc->models[0],
                            .include_usage = rq->include_usage,
                            .seq = mock_http_next_seq(http),
                            .created = (long long)time(NULL),
                            .prompt_words = rq->prompt_words,
                            .user_text = rq->view.user_text,
                            .user_text_len = rq->view.user_text_len};
    unsigned status = rule ? (unsigned)rule->status : 200u;
    const struct mock_header *headers = rule ? rule->headers : NULL;
    size_t nheaders = rule ? rule->nheaders : 0;
    if (rule && rule->delay_ms && !mock_http_wait(http, c, rule->delay_ms))
        return MHD_NO;
    if (status < 200 || status > 299) {
        if (rule->body)
            return mock_http_send(c, status, JSON_TYPE, rule->body, rule->body_len, headers,
                                  nheaders);
        size_t len = 0;
        char *s = oai_render_error(rule->error.message, rule->error.type, rule->error.param,
                                   rule->error.code, &len);
        enum MHD_Result rc = mock_http_send(c, status, JSON_TYPE, s, len, headers, nheaders);
        free(s);
        return rc;
    }
    /* Each form of answer the rule scripts, for the form the client asked
     * for first; else the other one (a stream where JSON was expected, or
     * the reverse, is a fault worth scripting). */
    bool has_body = rule && rule->body;
    bool has_reply = !rule || rule->has_reply;
    bool has_raw = rule && rule->raw;
    bool stream = rq->stream ? (has_raw || has_reply) : (!has_body && !has_reply);
    if (stream) {
        struct mock_plan plan = MOCK_PLAN_INIT;
        oai_render_stream(&plan, rule, &in);
        enum MHD_Result rc =
            mock_http_send_plan(http, c, status, "text/event-stream", headers, nheaders, &plan);
        mock_plan_release(&plan);
        return rc;
    }
    if (broken_off(http, rule, c))
        return MHD_NO;
    if (has_body)
        return mock_http_send(c, status, JSON_TYPE, rule->body, rule->body_len, headers, nheaders);
    size_t len = 0;
    char *s = oai_render_completion(rule, &in, &len);
    enum MHD_Result rc = mock_http_send(c, status, JSON_TYPE, s, len, headers, nheaders);
    free(s);
    return rc;
}

static enum MHD_Result answer_chat(struct mock_http *http, struct oai_scenario *sc,
                                   const struct mock_http_req *hr)
{
    struct MHD_Connection *c = hr->conn;
    char why[160];
    json_t *body = mock_http_json_body(http, hr, why, sizeof why);
    if (hr->too_big) {
        char msg[96];
        snprintf(msg, sizeof msg, "Request body larger than %zu bytes.", mock_http_max_body(http));
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg, "invalid_request_error", NULL, NULL);
    }
    if (!body) {
        /* the API's own words, then what the parser said */
        char msg[400];
        snprintf(msg, sizeof msg,
                 "We could not parse the JSON body of your request. (HINT: This likely means "
                 "you aren't using your HTTP library correctly. The OpenAI API expects a JSON "
                 "payload, but what was sent was not valid JSON.) (%s)",
                 hr->body_len ? why : "empty body");
        return send_error(c, MHD_HTTP_BAD_REQUEST, msg, "invalid_request_error", NULL, NULL);
    }
    if (!json_is_object(body)) {
        char msg[96];
        snprintf(msg, sizeof msg, "Invalid body: expected a JSON object, but got %s instead.",
                 an_json_type_name(body));
        json_decref(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, msg, "invalid_request_error", NULL,
                          "invalid_type");
    }
    struct oai_request rq;
    struct oai_request_error bad;
    enum MHD_Result rc;
    if (oai_request_read(&rq, body, &bad)) {
        rc = send_error(c, MHD_HTTP_BAD_REQUEST, bad.message, "invalid_request_error", bad.param,
                        bad.code);
    } else {
        const struct oai_rule *rule = oai_scenario_pick(sc, &rq.view);
        rc = send_answer(http, sc, c, rule, &rq);
    }
    oai_request_release(&rq);
    json_decref(body);
    return rc;
}

enum MHD_Result oai_server_handle(void *ctx, struct mock_http *http, const struct mock_http_req *hr)
{
    struct oai_scenario *sc = ctx;
    bool get = !strcmp(hr->method, MHD_HTTP_METHOD_GET);
    bool head = !strcmp(hr->method, MHD_HTTP_METHOD_HEAD);
    bool post = !strcmp(hr->method, MHD_HTTP_METHOD_POST);
    bool chat = is_path(hr->url, "/v1/chat/completions", "/chat/completions");
    if (post && chat)
        return answer_chat(http, sc, hr);
    /* Health checks are harness noise, not what the client under test sent,
     * so they stay out of the request log. */
    if ((get || head) && !strcmp(hr->url, "/health"))
        return mock_http_send(hr->conn, MHD_HTTP_OK, "text/plain", "ok", 2, NULL, 0);
    mock_http_log(http, hr, NULL);
    if ((get || head) && is_path(hr->url, "/v1/models", "/models")) {
        size_t len = 0;
        char *s = oai_render_models(sc, &len);
        enum MHD_Result rc = mock_http_send(hr->conn, MHD_HTTP_OK, JSON_TYPE, s, len, NULL, 0);
        free(s);
        return rc;
    }
    char msg[256];
    if (chat) {
        snprintf(msg, sizeof msg, "Method not allowed: chat completions are POST requests.");
        struct mock_header allow = {"Allow", "POST"};
        size_t len = 0;
        char *s = oai_render_error(msg, "invalid_request_error", NULL, NULL, &len);
        enum MHD_Result rc =
            mock_http_send(hr->conn, MHD_HTTP_METHOD_NOT_ALLOWED, JSON_TYPE, s, len, &allow, 1);
        free(s);
        return rc;
    }
    /* What the API answers for a path it does not serve. */
    snprintf(msg, sizeof msg, "Invalid URL (%s %.200s)", hr->method, hr->url);
    return send_error(hr->conn, MHD_HTTP_NOT_FOUND, msg, "invalid_request_error", NULL, NULL);
}
