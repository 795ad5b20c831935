/* ananke-mock a2a (a2a_agent.h): the agent's life, its card, and each
 * request (JSON-RPC at /rpc, REST under /rest) taken to its method. */
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
#include "proto/a2a_v1.h"

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
        *rc = a2a_rpc_error(c, id, -32600, "Invalid Request: 'jsonrpc' must be \"2.0\"");
    else if (!a->v03 && !strcmp(an_json_str(body, "method"), "ListTasks"))
        *rc = a2a_do_list(a, c, id, json_object_get(body, "params"));
    else if (!method)
        return false;
    else if (!strcmp(method, "tasks/resubscribe"))
        *rc = a2a_do_resubscribe(a, http, c, id, json_object_get(body, "params"));
    else if (!strncmp(method, "tasks/pushNotificationConfig/", 29) && a->push)
        *rc = a2a_do_push(a, c, id, method + 29, json_object_get(body, "params"));
    else if (!strncmp(method, "tasks/pushNotificationConfig/", 29))
        *rc = a2a_rpc_error(c, id, -32003, "Push Notification is not supported");
    else if (!strcmp(method, "agent/getAuthenticatedExtendedCard"))
        *rc = a2a_rpc_error(c, id, -32007,
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
        rc = a2a_rpc_error(c, id, -32009, msg);
    } else if (!given || !id) {
        rc = a2a_rpc_error(c, id, -32600, "Invalid Request: 'method' and 'id' are required");
    } else if (extra(a, http, c, body, method, &rc)) {
        /* answered */
    } else if (verb == 4) {
        snprintf(msg, sizeof msg, "Method not found: %.200s", given);
        rc = a2a_rpc_error(c, id, -32601, msg);
    } else if (verb < 2) {
        rc = a2a_do_send(a, http, c, id, params, verb == 1);
    } else {
        rc = a2a_do_task(a, c, id, params, verb == 3);
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
        return a2a_rpc_error(&c, NULL, -32700, "Invalid JSON payload.");
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
        rc = a2a_rpc_error(&c, NULL, -32700, "Invalid JSON payload.");
    } else if (!method) {
        snprintf(msg, sizeof msg, "no route %.10s %.200s", rq->method, rq->url);
        rc = a2a_send_json(rq->conn, MHD_HTTP_NOT_FOUND,
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
    return a2a_send_json(c, MHD_HTTP_OK, card);
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
