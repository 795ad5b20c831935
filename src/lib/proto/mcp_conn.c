/*
 * An MCP client connection: the transport (a child's stdio through
 * proto/jsonrpc, or Streamable HTTP through mcp_http.c), the legacy
 * lifecycle (initialize -> check the version -> notifications/initialized)
 * and the server's own requests, answered here so the turns never see them:
 *   ping        -> {}
 *   roots/list  -> the roots we declared (the test's sandbox by default)
 *   anything else (sampling, elicitation: never offered) -> -32601
 * Responses are matched by id, never by order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/envmin.h"
#include "core/json.h"
#include "proto/mcp_int.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "dev"
#endif

/* What a response POST carries instead of a request id (mcp_http's -1 is a
 * notification): its failure is a warning, the session goes on. */
#define ID_RESPONSE (-2)
/* The notifications/initialized POST: over HTTP the POSTs run side by side,
 * so requests wait for its 202, or the server could see them first. */
#define ID_INITIALIZED (-4)

const char *an_mcp_check_init(const json_t *result, char *why, size_t cap)
{
    if (!json_is_object(result))
        return "the initialize result is not an object";
    const json_t *pv = json_object_get(result, "protocolVersion");
    if (!json_is_string(pv))
        return "the initialize result has no protocolVersion";
    const char *v = json_string_value(pv);
    if (an_mcp_version_known(v))
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    for (size_t i = 0; an_mcp_versions[i]; i++)
        an_buf_printf(&b, "%s%s", i ? ", " : "", an_mcp_versions[i]);
    snprintf(why, cap,
             "the server answered protocolVersion '%.60s', which ananke does not speak (it "
             "speaks %s)",
             v, an_buf_cstr(&b));
    an_buf_release(&b);
    return why;
}

struct mcp_conn {
    struct mcp_conn_cbs cbs;
    struct an_rpc *rpc;    /* stdio */
    struct mcp_http *http; /* http */
    enum mcp_conn_state state;
    char *ask_version;
    char *version; /* negotiated */
    json_t *roots; /* [{uri, name}], NULL: no roots capability */
    int64_t init_id;
    int64_t next_id; /* http: ours; stdio: the rpc allocates */
    json_t *pending; /* http: {"id": "method"} of our unanswered requests */
};

static void broken(struct mcp_conn *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void broken(struct mcp_conn *c, int code, const char *fmt, ...)
{
    if (c->state == MCP_BROKEN)
        return;
    c->state = MCP_BROKEN;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (c->cbs.on_broken)
        c->cbs.on_broken(c->cbs.ud, code, msg);
}

static void warn(struct mcp_conn *c, const char *what)
{
    if (c->cbs.on_warning)
        c->cbs.on_warning(c->cbs.ud, what);
}

/* ---- sending ---- */

static void ready(struct mcp_conn *c);

static int http_send(struct mcp_conn *c, json_t *msg, int64_t id, struct an_err *err)
{
    char *text = an_json_compact(msg);
    size_t len = strlen(text);
    if (c->cbs.on_frame)
        c->cbs.on_frame(c->cbs.ud, AN_RPC_OUT, text, len, an_clock_unix_ms());
    int rc = mcp_http_post(c->http, text, len, id, err);
    free(text);
    return rc;
}

int mcp_conn_request(struct mcp_conn *c, const char *method, const json_t *params, int64_t *id,
                     struct an_err *err)
{
    if (c->state == MCP_BROKEN)
        return an_fail(err, AN_EIO, NULL, "the server connection is broken");
    if (c->rpc)
        return an_rpc_request(c->rpc, method, params, id, err);
    *id = c->next_id++;
    json_t *msg =
        json_pack("{s:s,s:I,s:s}", "jsonrpc", "2.0", "id", (json_int_t)*id, "method", method);
    if (params)
        json_object_set(msg, "params", (json_t *)params);
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)*id);
    json_object_set_new(c->pending, key, json_string(method));
    int rc = http_send(c, msg, *id, err);
    json_decref(msg);
    return rc;
}

static int notify(struct mcp_conn *c, const char *method, const json_t *params, int64_t tag,
                  struct an_err *err)
{
    if (c->state == MCP_BROKEN)
        return an_fail(err, AN_EIO, NULL, "the server connection is broken");
    if (c->rpc)
        return an_rpc_notify(c->rpc, method, params, err);
    json_t *msg = json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", method);
    if (params)
        json_object_set(msg, "params", (json_t *)params);
    int rc = http_send(c, msg, tag, err);
    json_decref(msg);
    return rc;
}

int mcp_conn_notify(struct mcp_conn *c, const char *method, const json_t *params,
                    struct an_err *err)
{
    return notify(c, method, params, -1, err);
}

static void reply(struct mcp_conn *c, const json_t *id, json_t *result, int code,
                  const char *message)
{
    struct an_err err = AN_ERR_INIT;
    int rc;
    if (c->rpc) {
        rc = result ? an_rpc_reply(c->rpc, id, result, &err)
                    : an_rpc_reply_error(c->rpc, id, code, message, NULL, &err);
    } else {
        json_t *msg = json_pack("{s:s,s:O}", "jsonrpc", "2.0", "id", (json_t *)id);
        if (result)
            json_object_set(msg, "result", result);
        else
            json_object_set_new(msg, "error",
                                json_pack("{s:i,s:s}", "code", code, "message", message));
        rc = http_send(c, msg, ID_RESPONSE, &err);
        json_decref(msg);
    }
    if (rc) {
        char w[AN_ERR_MSG_MAX + 64];
        snprintf(w, sizeof w, "cannot answer the server: %s", err.msg);
        warn(c, w);
    }
}

/* ---- what the server sends ---- */

static void server_request(struct mcp_conn *c, const struct an_rpc_msg *m)
{
    if (!strcmp(m->method, "ping")) {
        json_t *empty = json_object();
        reply(c, m->id, empty, 0, NULL);
        json_decref(empty);
        return;
    }
    if (!strcmp(m->method, "roots/list") && c->roots) {
        json_t *r = json_pack("{s:O}", "roots", c->roots);
        reply(c, m->id, r, 0, NULL);
        json_decref(r);
        return;
    }
    char msg[200];
    snprintf(msg, sizeof msg, "Method not found: ananke does not offer '%.100s'", m->method);
    reply(c, m->id, NULL, AN_RPC_METHOD_NOT_FOUND, msg);
}

static void err_text(const json_t *e, char *buf, size_t cap)
{
    json_t *code = json_object_get(e, "code");
    const char *msg = an_json_str(e, "message");
    snprintf(buf, cap, "error %lld: %.300s%s", /* a cut says so: see mcp.c */
             json_is_integer(code) ? (long long)json_integer_value(code) : 0LL,
             msg ? msg : "(no message)", msg && strlen(msg) > 300 ? "..." : "");
}

static void init_answered(struct mcp_conn *c, const struct an_rpc_msg *m)
{
    char why[512];
    if (m->error) {
        err_text(m->error, why, sizeof why);
        broken(c, AN_EPROTO, "initialize failed: %s", why);
        return;
    }
    const char *bad = an_mcp_check_init(m->result, why, sizeof why);
    if (bad) {
        broken(c, AN_EPROTO, "%s", bad);
        return;
    }
    c->version = an_xstrdup(an_json_str(m->result, "protocolVersion"));
    if (c->http)
        mcp_http_set_version(c->http, c->version);
    struct an_err err = AN_ERR_INIT;
    if (notify(c, "notifications/initialized", NULL, ID_INITIALIZED, &err)) {
        broken(c, err.code, "cannot send notifications/initialized: %s", err.msg);
        return;
    }
    if (!c->http)
        ready(c); /* stdio keeps the order: requests may follow at once */
}

/* The handshake is over (over HTTP: the server took notifications/initialized). */
static void ready(struct mcp_conn *c)
{
    struct an_err err = AN_ERR_INIT;
    if (c->http && mcp_http_open_stream(c->http, &err)) {
        char w[AN_ERR_MSG_MAX + 64];
        snprintf(w, sizeof w, "cannot open the server's GET stream: %s", err.msg);
        warn(c, w);
    }
    c->state = MCP_READY;
    if (c->cbs.on_ready)
        c->cbs.on_ready(c->cbs.ud);
}

static void dispatch(struct mcp_conn *c, const struct an_rpc_msg *m)
{
    switch (m->kind) {
    case AN_RPC_REQUEST:
        server_request(c, m);
        return;
    case AN_RPC_NOTIFICATION:
        return; /* logging, progress, list_changed: kept in the frames */
    case AN_RPC_RESPONSE:
        if (c->state == MCP_INIT && json_is_integer(m->id) &&
            json_integer_value(m->id) == c->init_id) {
            init_answered(c, m);
            return;
        }
        if (c->cbs.on_response)
            c->cbs.on_response(c->cbs.ud, m);
        return;
    }
}

/* stdio: the rpc has classified the message already */
static void rpc_response(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    dispatch(ud, m);
}

static void rpc_request(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    (void)rpc;
    dispatch(ud, m);
}

static void rpc_frame(void *ud, struct an_rpc *rpc, enum an_rpc_dir dir, const char *line,
                      size_t len, int64_t unix_ms)
{
    struct mcp_conn *c = ud;
    (void)rpc;
    if (c->cbs.on_frame)
        c->cbs.on_frame(c->cbs.ud, dir, line, len, unix_ms);
}

static void rpc_warning(void *ud, struct an_rpc *rpc, const char *what, const char *line,
                        size_t len)
{
    char w[400];
    (void)rpc;
    snprintf(w, sizeof w, "%s: %.*s", what, (int)(len < 200 ? len : 200), line);
    warn(ud, w);
}

static void rpc_close(void *ud, struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *reason)
{
    struct mcp_conn *c = ud;
    (void)kind;
    size_t n = 0, dropped = 0;
    const char *log = an_rpc_stderr(rpc, &n, &dropped);
    char tail[300] = "";
    while (n && (log[n - 1] == '\n' || log[n - 1] == '\r' || log[n - 1] == ' '))
        n--;
    if (n) /* the end of its stderr usually says why */
        snprintf(tail, sizeof tail, "; its stderr ends: %s%.*s", n > 200 ? "..." : "",
                 (int)(n > 200 ? 200 : n), n > 200 ? log + n - 200 : log);
    broken(c, AN_EPROTO, "the server connection closed: %s%s", reason, tail);
}

/* http: classify each message ourselves (jsonrpc.h's rules) */
static void http_message(struct mcp_conn *c, const json_t *j, int64_t ms)
{
    struct an_rpc_msg m = {.json = j, .unix_ms = ms};
    if (!json_is_object(j)) {
        warn(c, "a message that is not a JSON object");
        return;
    }
    const json_t *method = json_object_get(j, "method");
    m.id = json_object_get(j, "id");
    m.params = json_object_get(j, "params");
    if (json_is_string(method)) {
        m.method = json_string_value(method);
        m.kind = m.id ? AN_RPC_REQUEST : AN_RPC_NOTIFICATION;
        dispatch(c, &m);
        return;
    }
    if (!m.id) {
        warn(c, "a message without method or id");
        return;
    }
    m.kind = AN_RPC_RESPONSE;
    m.params = NULL;
    m.result = json_object_get(j, "result");
    m.error = json_object_get(j, "error");
    char key[32] = "";
    if (json_is_integer(m.id))
        snprintf(key, sizeof key, "%lld", (long long)json_integer_value(m.id));
    m.known = key[0] && json_object_get(c->pending, key);
    if (m.known)
        json_object_del(c->pending, key);
    else
        warn(c, "a response to an id we never sent");
    dispatch(c, &m);
}

static void http_text(void *ud, const char *text, size_t len, int64_t ms)
{
    struct mcp_conn *c = ud;
    if (c->cbs.on_frame)
        c->cbs.on_frame(c->cbs.ud, AN_RPC_IN, text, len, ms);
    char why[200];
    json_t *j = an_json_parse(text, len, why, sizeof why);
    if (!j) {
        char w[300];
        snprintf(w, sizeof w, "invalid JSON: %s", why);
        warn(c, w);
        return;
    }
    if (json_is_array(j)) { /* a batch: gone since 2025-06-18, still read */
        size_t i;
        json_t *x;
        json_array_foreach(j, i, x)
        {
            if (c->state != MCP_BROKEN)
                http_message(c, x, ms);
        }
    } else {
        http_message(c, j, ms);
    }
    json_decref(j);
}

static void http_fail(void *ud, int64_t id, int code, int status, const char *why)
{
    struct mcp_conn *c = ud;
    char key[32];
    snprintf(key, sizeof key, "%lld", (long long)id);
    if (id == ID_INITIALIZED) {
        if (code)
            broken(c, code, "notifications/initialized: %s", why);
        else if (c->state == MCP_INIT)
            ready(c);
        return;
    }
    if (!code) {
        /* the answer is over: a request's answer must have held its response */
        const char *method = id >= 0 ? an_json_str(c->pending, key) : NULL;
        if (method)
            broken(c, AN_EPROTO,
                   "the server's answer to %s (id %lld) ended without its response (resuming "
                   "a stream is not supported)",
                   method, (long long)id);
        return;
    }
    if (id == MCP_HTTP_STREAM) {
        /* optional: a server without it answers 405; a cut one is not resumed */
        if (status != 405) {
            char w[AN_ERR_MSG_MAX + 64];
            snprintf(w, sizeof w, "the server's GET stream ended: %s", why);
            warn(c, w);
        }
        return;
    }
    if (id == ID_RESPONSE) {
        char w[AN_ERR_MSG_MAX + 64];
        snprintf(w, sizeof w, "our answer to a server request was refused: %s", why);
        warn(c, w);
        return;
    }
    const char *method = id >= 0 ? an_json_str(c->pending, key) : "a notification";
    if (status == 404 && mcp_http_session_id(c->http))
        broken(c, code, "%s: the server no longer knows the session (%s)",
               method ? method : "a request", why);
    else
        broken(c, code, "%s: %s", method ? method : "a request", why);
}

/* ---- the connection ---- */

int mcp_conn_start(struct mcp_conn *c, struct an_err *err)
{
    json_t *caps = json_object();
    if (c->roots)
        json_object_set_new(caps, "roots", json_pack("{s:b}", "listChanged", 0));
    json_t *params = json_pack("{s:s,s:o,s:{s:s,s:s}}", "protocolVersion", c->ask_version,
                               "capabilities", caps, "clientInfo", "name", "ananke", "version",
                               ANANKE_VERSION);
    int rc = mcp_conn_request(c, "initialize", params, &c->init_id, err);
    json_decref(params);
    if (rc)
        return rc;
    c->state = MCP_INIT;
    return AN_OK;
}

enum mcp_conn_state mcp_conn_state(const struct mcp_conn *c)
{
    return c->state;
}

const char *mcp_conn_version(const struct mcp_conn *c)
{
    return c->version;
}

void mcp_conn_flush(struct mcp_conn *c)
{
    if (c->http)
        mcp_http_flush(c->http);
    /* stdio: the rpc writes at once, and reads only in handle() */
}

size_t mcp_conn_fds(struct mcp_conn *c, struct pollfd *out, size_t max)
{
    if (c->rpc)
        return an_rpc_fds(c->rpc, out, max);
    return c->http ? mcp_http_fds(c->http, out, max) : 0;
}

void mcp_conn_handle(struct mcp_conn *c, const struct pollfd *p, size_t n)
{
    if (c->rpc)
        an_rpc_handle(c->rpc, p, n);
    else if (c->http)
        mcp_http_handle(c->http);
}

int mcp_conn_new(struct mcp_conn **out, const struct an_mcp_opts *o, const struct mcp_conn_cbs *cbs,
                 struct an_err *err)
{
    *out = NULL;
    const char *ask = o->version ? o->version : AN_MCP_LATEST;
    if (!an_mcp_version_known(ask))
        return an_fail(err, AN_EUSAGE, NULL, "unknown MCP protocol version '%s'", ask);
    struct mcp_conn *c = an_xcalloc(1, sizeof *c);
    c->cbs = *cbs;
    c->ask_version = an_xstrdup(ask);
    c->pending = json_object();
    c->next_id = 1;
    if (!o->no_roots) {
        c->roots = json_array();
        for (size_t i = 0; o->roots && o->roots[i]; i++) {
            const char *uri = o->roots[i];
            const char *slash = strrchr(uri, '/');
            json_array_append_new(c->roots, json_pack("{s:s,s:s}", "uri", uri, "name",
                                                      slash && slash[1] ? slash + 1 : uri));
        }
    }
    int rc;
    if (o->http) {
        struct mcp_http_cbs hc = {.ud = c, .on_text = http_text, .on_fail = http_fail};
        rc = mcp_http_new(&c->http, o->endpoint, o->headers, o->nheaders, o->max_frame_bytes, &hc,
                          err);
        if (!rc)
            mcp_http_set_max_body(c->http, o->max_body_bytes);
    } else {
        struct an_child_opts co = AN_CHILD_OPTS_INIT;
        char **env = o->clean_env ? an_envmin_build(o->home, o->env) : NULL;
        co.argv = o->argv;
        co.env = env ? (const char *const *)env : o->env;
        co.env_clear = o->clean_env;
        co.cwd = o->cwd;
        struct an_rpc_opts ro = AN_RPC_OPTS_INIT;
        ro.peer_name = "server";
        ro.max_frame = o->max_frame_bytes;
        ro.max_frame_key = "max_frame_bytes";
        ro.stderr_max = o->max_stderr_bytes;
        ro.no_message = true; /* nothing here or in mcp.c reads a message whole */
        struct an_rpc_cbs rc_cbs = {.ud = c,
                                    .on_response = rpc_response,
                                    .on_request = rpc_request,
                                    .on_frame = rpc_frame,
                                    .on_warning = rpc_warning,
                                    .on_close = rpc_close};
        rc = an_rpc_spawn(&c->rpc, &co, &ro, &rc_cbs, err);
        an_envmin_free(env);
    }
    if (rc) {
        mcp_conn_free(c);
        return rc;
    }
    *out = c;
    return AN_OK;
}

void mcp_conn_free(struct mcp_conn *c)
{
    if (!c)
        return;
    an_rpc_free(c->rpc);
    mcp_http_free(c->http);
    json_decref(c->roots);
    json_decref(c->pending);
    free(c->ask_version);
    free(c->version);
    free(c);
}
