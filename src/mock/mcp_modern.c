/*
 * `ananke-mock mcp --http` in MCP 2026-07-28 (mcp_modern.h): each POST
 * stands alone, its _meta and headers checked in the order the
 * specification gives them, then answered.
 */
#include "mcp_modern.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "mcp_listen.h"
#include "mcp_mrtr.h"
#include "mock_http.h"

#define META_VERSION "io.modelcontextprotocol/protocolVersion"
#define META_CAPS "io.modelcontextprotocol/clientCapabilities"
#define META_INFO "io.modelcontextprotocol/clientInfo"

bool mcp_modern_is(const json_t *body, const char *pv)
{
    const json_t *meta = json_object_get(json_object_get(body, "params"), "_meta");
    return json_object_get(meta, META_VERSION) || (pv && !strcmp(pv, MCP_MODERN_VERSION));
}

/* An error answer of `status` into out; returns the status. */
static unsigned refuse(json_t *out, unsigned status, const json_t *id, int code,
                       const char *message, json_t *data)
{
    json_t *err = json_pack("{s:i,s:s}", "code", code, "message", message);
    if (data)
        json_object_set_new(err, "data", data);
    json_array_append_new(out, json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id",
                                         id ? id : json_null(), "error", err));
    return status;
}

/* A header's value equals `want`, blanks around it aside. */
static bool header_is(const char *h, const char *want)
{
    if (!h || !want)
        return false;
    while (*h == ' ' || *h == '\t')
        h++;
    size_t n = strlen(h), w = strlen(want);
    while (n && (h[n - 1] == ' ' || h[n - 1] == '\t'))
        n--;
    return n == w && !strncmp(h, want, n);
}

/* What Mcp-Name must carry for this request, or NULL. */
static const char *name_of(const char *method, const json_t *params)
{
    if (!strcmp(method, "tools/call") || !strcmp(method, "prompts/get"))
        return an_json_str(params, "name");
    if (!strcmp(method, "resources/read"))
        return an_json_str(params, "uri");
    return NULL;
}

static bool removed(const char *method)
{
    static const char *const gone[] = {"initialize", "ping", "logging/setLevel",
                                       "resources/subscribe", "resources/unsubscribe"};
    for (size_t i = 0; i < sizeof gone / sizeof gone[0]; i++)
        if (!strcmp(method, gone[i]))
            return true;
    return false;
}

/* The headers disagree with the body: why (static text), or NULL. */
static const char *header_mismatch(const struct mcp_modern_hdr *h, const char *method,
                                   const json_t *params, const char *version)
{
    const char *pv = h->get(h->ud, "MCP-Protocol-Version");
    if (version && !header_is(pv, version))
        return "HeaderMismatch: MCP-Protocol-Version is not _meta's protocolVersion";
    if (!header_is(h->get(h->ud, "Mcp-Method"), method))
        return "HeaderMismatch: Mcp-Method is missing or is not the body's method";
    const char *name = name_of(method, params);
    if (name && !header_is(h->get(h->ud, "Mcp-Name"), name))
        return "HeaderMismatch: Mcp-Name is missing or is not the body's name or uri";
    return NULL;
}

/* server/discover's result: the capabilities and serverInfo the
 * 2025-11-25 initialize gives. */
static json_t *discover(const struct mcp_server_opts *o)
{
    json_t *init = json_pack("{s:s,s:i,s:s,s:{s:s,s:{},s:{s:s,s:s}}}", "jsonrpc", "2.0", "id", 0,
                             "method", "initialize", "params", "protocolVersion", "2025-11-25",
                             "capabilities", "clientInfo", "name", "mock", "version", "1");
    json_t *notes = json_array(), *reply = NULL;
    mcp_server_answer(o, init, notes, &reply);
    const json_t *r = json_object_get(reply, "result");
    json_t *res = json_pack("{s:O,s:{s:O},s:s,s:i,s:s}", "capabilities",
                            json_object_get(r, "capabilities"), "_meta",
                            "io.modelcontextprotocol/serverInfo", json_object_get(r, "serverInfo"),
                            "resultType", "complete", "ttlMs", 0, "cacheScope", "private");
    if (o->fault == MCP_F_NO_RESULT_TYPE)
        json_object_del(res, "resultType");
    if (o->fault == MCP_F_NO_SERVER_INFO)
        json_object_del(res, "_meta");
    if (o->fault != MCP_F_DISCOVER_NO_VERSIONS)
        json_object_set_new(res, "supportedVersions", json_pack("[s]", MCP_MODERN_VERSION));
    /* the lists change (the kit's trigger tools) and listen streams hear of it */
    json_t *caps = json_object_get(res, "capabilities");
    json_object_set_new(caps, "tools", json_pack("{s:b}", "listChanged", 1));
    json_object_set_new(caps, "prompts", json_pack("{s:b}", "listChanged", 1));
    if (o->fault == MCP_F_DISCOVER_CAPS_MISSING) {
        json_object_del(caps, "tools");
        json_object_del(caps, "prompts");
    }
    json_decref(init);
    json_decref(notes);
    json_decref(reply);
    return res;
}

/* Every result says it is complete; lists and reads say how to cache them. */
static void decorate(const struct mcp_server_opts *o, json_t *reply, const char *method)
{
    json_t *r = json_object_get(reply, "result");
    if (!json_is_object(r))
        return;
    if (o->fault == MCP_F_LIST_INPUT_REQUIRED &&
        (!strcmp(method, "tools/list") || !strcmp(method, "prompts/list"))) {
        json_object_set_new(r, "resultType", json_string("input_required"));
        json_object_set_new(r, "inputRequests",
                            json_pack("{s:{s:s,s:{}}}", "client_roots", "method", "roots/list",
                                      "params"));
    } else if (o->fault != MCP_F_NO_RESULT_TYPE && !json_object_get(r, "resultType")) {
        json_object_set_new(r, "resultType", json_string("complete"));
    }
    if (o->fault != MCP_F_NO_CACHE_HINTS &&
        (strstr(method, "/list") || !strcmp(method, "resources/read"))) {
        json_object_set_new(r, "ttlMs", json_integer(0));
        json_object_set_new(r, "cacheScope", json_string("private"));
    }
}

static json_int_t error_code(const json_t *reply)
{
    return json_integer_value(json_object_get(json_object_get(reply, "error"), "code"));
}

/* Each element of the list `key` in the result loses its `what`. */
static void strip_each(json_t *r, const char *key, const char *what)
{
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(r, key), i, e)
    {
        json_object_del(e, what);
    }
}

/* The faults that break what 2026-07-28 keeps of 2025-11-25: an unknown
 * method, tool or prompt answered as if known, a list's names left out. */
static void break_reply(const struct mcp_server_opts *o, const json_t *body, const char *method,
                        json_t **reply)
{
    json_t *r = json_object_get(*reply, "result");
    json_int_t code = error_code(*reply);
    json_t *fake = NULL;
    if (o->fault == MCP_F_UNKNOWN_METHOD_ANSWERED && code == -32601 && !removed(method))
        fake = json_object();
    else if (o->fault == MCP_F_UNKNOWN_PROMPT_ANSWERED && code == -32602 &&
             !strcmp(method, "prompts/get"))
        fake = json_pack("{s:[]}", "messages");
    if (fake) {
        json_decref(*reply);
        *reply = json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", json_object_get(body, "id"),
                           "result", fake);
        return;
    }
    const char *text = an_json_str(json_array_get(json_object_get(r, "content"), 0), "text");
    if (o->fault == MCP_F_UNKNOWN_TOOL_ANSWERED && json_is_true(json_object_get(r, "isError")) &&
        text && !strncmp(text, "unknown tool ", 13))
        json_object_del(r, "isError");
    else if (o->fault == MCP_F_RESOURCE_NO_NAME && !strcmp(method, "resources/list"))
        strip_each(r, "resources", "name");
    else if (o->fault == MCP_F_PROMPT_NO_NAME && !strcmp(method, "prompts/list"))
        strip_each(r, "prompts", "name");
}

/* The answer of a request that passed the checks, into out. */
static unsigned answer(const struct mcp_server_opts *o, const json_t *body, const char *method,
                       json_t *out)
{
    const json_t *id = json_object_get(body, "id");
    if (!strcmp(method, "server/discover")) {
        json_array_append_new(
            out, json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", discover(o)));
        return MHD_HTTP_OK;
    }
    json_t *mrtr = mcp_mrtr_answer(o, body, method);
    if (mrtr) {
        json_array_append_new(out, mrtr);
        return MHD_HTTP_OK;
    }
    json_t *notes = json_array(), *reply = NULL;
    mcp_server_answer(o, body, notes, &reply);
    if (reply)
        break_reply(o, body, method, &reply);
    unsigned status = MHD_HTTP_OK;
    if (!reply) {
        status = MHD_HTTP_ACCEPTED;
    } else if (error_code(reply) == -32002) { /* resource not found: -32602 in this revision */
        json_array_append_new(
            out, o->fault == MCP_F_UNKNOWN_RESOURCE_EMPTY
                     ? json_pack("{s:s,s:O,s:{s:[],s:s}}", "jsonrpc", "2.0", "id", id, "result",
                                 "contents", "resultType", "complete")
                     : json_pack("{s:s,s:O,s:{s:i,s:s,s:{s:s}}}", "jsonrpc", "2.0", "id", id,
                                 "error", "code", -32602, "message", "Resource not found", "data",
                                 "uri", an_json_str(json_object_get(body, "params"), "uri")));
    } else if (error_code(reply) == -32601) {
        json_array_append(out, reply);
        status = MHD_HTTP_NOT_FOUND;
    } else if (error_code(reply) == -32021) { /* a capability the client did not declare */
        json_array_append(out, reply);
        status = MHD_HTTP_BAD_REQUEST;
    } else {
        decorate(o, reply, method);
        json_array_extend(out, notes);
        json_array_append(out, reply);
    }
    json_decref(notes);
    json_decref(reply);
    return status;
}

/* subscriptions/listen, its request checked: over stdio the subscription
 * opens here (its acknowledgement into out); over HTTP (h) the caller
 * opens its stream (MCP_MODERN_LISTEN). */
static unsigned open_listen(const struct mcp_server_opts *o, const json_t *body,
                       const struct mcp_modern_hdr *h, json_t *out)
{
    const json_t *id = json_object_get(body, "id");
    if (!json_is_object(json_object_get(json_object_get(body, "params"), "notifications")))
        return refuse(out, MHD_HTTP_BAD_REQUEST, id, -32602,
                      "Invalid params: subscriptions/listen needs a 'notifications' object", NULL);
    if (h)
        return MCP_MODERN_LISTEN;
    mcp_listen_stdio(o->hub, o, body, out);
    return MHD_HTTP_OK;
}

static unsigned answer_checked(const struct mcp_server_opts *o, const json_t *body,
                               const struct mcp_modern_hdr *h, json_t *out)
{
    const json_t *id = json_object_get(body, "id"), *params = json_object_get(body, "params");
    const char *method = an_json_str(body, "method");
    if (!method || !id) /* a response (nothing was asked in this revision), a notification */
        return MHD_HTTP_ACCEPTED;
    const json_t *meta = json_object_get(params, "_meta");
    const char *version = an_json_str(meta, META_VERSION);
    if (o->fault != MCP_F_META_NOT_REQUIRED &&
        (!version || !json_is_object(json_object_get(meta, META_CAPS))))
        return refuse(out, MHD_HTTP_BAD_REQUEST, id, -32602,
                      "Invalid params: _meta needs " META_VERSION " and " META_CAPS, NULL);
    if (o->fault == MCP_F_CLIENT_INFO_REQUIRED && !json_object_get(meta, META_INFO))
        return refuse(out, MHD_HTTP_BAD_REQUEST, id, -32602,
                      "Invalid params: _meta needs " META_INFO, NULL);
    const char *why = o->fault == MCP_F_HEADERS_UNCHECKED || !h
                          ? NULL
                          : header_mismatch(h, method, params, version);
    if (why)
        return refuse(out, MHD_HTTP_BAD_REQUEST, id, -32020, why, NULL);
    if (version && strcmp(version, MCP_MODERN_VERSION) && o->fault != MCP_F_VERSION_ANY)
        return refuse(
            out, MHD_HTTP_BAD_REQUEST, id, -32022, "UnsupportedProtocolVersionError",
            json_pack("{s:[s],s:s}", "supported", MCP_MODERN_VERSION, "requested", version));
    if (removed(method) && o->fault != MCP_F_REMOVED_SERVED)
        return refuse(out, MHD_HTTP_NOT_FOUND, id, -32601,
                      "Method not found: removed in " MCP_MODERN_VERSION, NULL);
    if (!strcmp(method, "subscriptions/listen") && o->hub && o->fault != MCP_F_LISTEN_REFUSED)
        return open_listen(o, body, h, out);
    return answer(o, body, method, out);
}

unsigned mcp_modern_answer(const struct mcp_server_opts *o, const json_t *body,
                           const struct mcp_modern_hdr *h, json_t *out)
{
    unsigned status = answer_checked(o, body, h, out);
    size_t i;
    json_t *m;
    json_array_foreach(out, i, m)
    {
        if (o->fault == MCP_F_ERROR_ID_NULL && error_code(m) == -32021)
            json_object_set_new(m, "id", json_null());
    }
    return status;
}

static const char *mhd_header(void *ud, const char *name)
{
    return MHD_lookup_connection_value(ud, MHD_HEADER_KIND, name);
}

enum MHD_Result mcp_modern_post(const struct mcp_server_opts *o, struct mock_http *http,
                                struct MHD_Connection *c, const json_t *body)
{
    json_t *out = json_array();
    struct mcp_modern_hdr h = {mhd_header, c};
    unsigned status = mcp_modern_answer(o, body, &h, out);
    enum MHD_Result rc;
    if (status == MCP_MODERN_LISTEN) {
        rc = mcp_listen_http(o->hub, o, http, c, body);
    } else if (!json_array_size(out)) {
        rc = mock_http_send(c, status, NULL, "", 0, NULL, 0);
    } else if (json_array_size(out) == 1) {
        rc = mock_http_send_json(c, status, json_incref(json_array_get(out, 0)), NULL, 0);
    } else { /* notifications before the answer: an event stream */
        struct an_buf ev = AN_BUF_INIT;
        mcp_sse_frames(&ev, out);
        rc = mock_http_send(c, status, "text/event-stream", ev.data, ev.len, NULL, 0);
        an_buf_release(&ev);
    }
    json_decref(out);
    return rc;
}

void mcp_sse_frames(struct an_buf *ev, const json_t *msgs)
{
    size_t i;
    json_t *m;
    json_array_foreach(msgs, i, m)
    {
        char *f = an_json_compact(m);
        an_buf_printf(ev, "event: message\ndata: %s\n\n", f);
        free(f);
    }
}
