/* ananke-mock's MCP client for scripted tool calls (mock_mcp.h). */
#include "mock_mcp.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/http.h"

#define MCP_MAX_ANSWER ((size_t)32 << 20) /* one answer, as the proxy's max_body_bytes */
#define MCP_VERSION "2025-06-18"

static bool is_url(const char *s)
{
    return !strncmp(s, "http://", 7) || !strncmp(s, "https://", 8);
}

char *mock_mcp_url(const char *server, const json_t *servers)
{
    if (is_url(server))
        return an_xstrdup(server);
    size_t i;
    const json_t *s;
    json_array_foreach(servers, i, s)
    {
        const char *name = an_json_str(s, "name"), *url = an_json_str(s, "url");
        if (name && url && !strcmp(name, server))
            return an_xstrdup(url);
    }
    const char *env = getenv("ANANKE_TOOL_SERVERS");
    json_t *m = env ? json_loads(env, 0, NULL) : NULL;
    const char *url = an_json_str(m, server);
    char *out = url ? an_xstrdup(url) : NULL;
    json_decref(m);
    return out;
}

static int on_data(void *ud, const char *p, size_t n)
{
    return an_buf_append(ud, p, n) ? AN_ELIMIT : 0;
}

/* The JSON-RPC answer in a body: the body itself, or the last `data:`
 * line of an event stream that parses as an object with an id. */
static json_t *answer_of(const char *body, size_t len)
{
    json_t *v = an_json_parse(body, len, NULL, 0);
    if (json_is_object(v))
        return v;
    json_decref(v);
    json_t *found = NULL;
    for (const char *p = body; p && p < body + len;) {
        const char *eol = memchr(p, '\n', (size_t)(body + len - p));
        size_t n = eol ? (size_t)(eol - p) : (size_t)(body + len - p);
        if (n > 5 && !strncmp(p, "data:", 5)) {
            json_t *d = an_json_parse(p + 5, n - 5, NULL, 0);
            if (json_is_object(d) && json_object_get(d, "id")) {
                json_decref(found);
                found = d;
            } else {
                json_decref(d);
            }
        }
        p = eol ? eol + 1 : NULL;
    }
    return found;
}

/* POST one message; a request's answer (a new reference), or NULL with
 * why filled. A notification returns NULL and leaves why empty. */
static json_t *post(const char *url, json_t *msg, int64_t timeout_ms, char *why, size_t cap)
{
    char *body = an_json_compact(msg);
    struct an_buf got;
    an_buf_init(&got, MCP_MAX_ANSWER);
    struct an_http_req req = AN_HTTP_REQ_INIT;
    req.url = url;
    req.accept = "application/json, text/event-stream";
    req.body = body;
    req.body_len = strlen(body);
    req.timeout_ms = timeout_ms;
    req.max_body = MCP_MAX_ANSWER;
    req.on_data = on_data;
    req.ud = &got;
    struct an_http_resp resp = {0};
    struct an_err err = AN_ERR_INIT;
    json_t *out = NULL;
    why[0] = '\0';
    if (an_http_post_stream(&req, &resp, &err))
        snprintf(why, cap, "%s", err.msg);
    else if (resp.status < 200 || resp.status > 299)
        snprintf(why, cap, "HTTP %ld", resp.status);
    else if (json_object_get(msg, "id") && !(out = answer_of(an_buf_cstr(&got), got.len)))
        snprintf(why, cap, "the answer is not a JSON-RPC message");
    an_buf_release(&got);
    free(body);
    return out;
}

static json_t *error_result(const char *why)
{
    char text[1200];
    snprintf(text, sizeof text, "tool error: %s", why);
    return json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text", "text", text, "isError", 1);
}

static json_t *session_call(const char *url, const char *tool, const json_t *args,
                            int64_t timeout_ms)
{
    char why[1024];
    json_t *init = json_pack("{s:s,s:i,s:s,s:{s:s,s:{},s:{s:s,s:s}}}", "jsonrpc", "2.0", "id", 1,
                             "method", "initialize", "params", "protocolVersion", MCP_VERSION,
                             "capabilities", "clientInfo", "name", "ananke-mock", "version", "1");
    json_t *a = post(url, init, timeout_ms, why, sizeof why);
    json_decref(init);
    if (!a)
        return error_result(why);
    json_decref(a);
    json_t *note = json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", "notifications/initialized");
    json_decref(post(url, note, timeout_ms, why, sizeof why));
    json_decref(note);
    json_t *arguments = json_is_object(args) ? json_deep_copy(args) : json_object();
    json_t *call = json_pack("{s:s,s:i,s:s,s:{s:s,s:o}}", "jsonrpc", "2.0", "id", 2, "method",
                             "tools/call", "params", "name", tool, "arguments", arguments);
    a = post(url, call, timeout_ms, why, sizeof why);
    json_decref(call);
    if (!a)
        return error_result(why);
    json_t *res = json_object_get(a, "result");
    json_t *out;
    if (json_is_object(res)) {
        out = json_incref(res);
    } else {
        char *e = an_json_compact(json_object_get(a, "error"));
        out = error_result(e);
        free(e);
    }
    json_decref(a);
    return out;
}

json_t *mock_mcp_call(const char *server, const json_t *servers, const char *tool,
                      const json_t *args, int64_t timeout_ms)
{
    char *url = mock_mcp_url(server, servers);
    if (!url) {
        char why[512];
        snprintf(why, sizeof why,
                 "no tool server '%s' (not a URL, not in session/new's mcpServers nor in "
                 "$ANANKE_TOOL_SERVERS)",
                 server);
        return error_result(why);
    }
    json_t *out = session_call(url, tool, args, timeout_ms > 0 ? timeout_ms : 30000);
    /* the calling thread is a server's, which ends without telling libananke */
    an_http_thread_cleanup();
    free(url);
    return out;
}

char *mock_mcp_content_text(const json_t *result)
{
    const json_t *c = json_object_get(result, "content");
    return c ? an_json_compact(c) : an_xstrdup("[]");
}
