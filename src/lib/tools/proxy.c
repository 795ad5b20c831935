/*
 * The tool proxy (ananke/tools.h, docs/tools.md): a Streamable HTTP MCP
 * endpoint per tool server, forwarding to its stdio upstream.
 *
 * Each HTTP connection has its own thread (libmicrohttpd's
 * thread-per-connection); the upstream is one JSON-RPC peer that one
 * thread at a time drives (the server's mutex), so requests reach it in
 * order, one outstanding at a time. Answers are plain application/json
 * (the transport allows it); the GET stream is refused with 405, which
 * clients take as "no server-initiated stream". No session id is issued.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ananke/clock.h"
#include "core/buf.h"
#include "core/interp.h"
#include "core/json.h"
#include "core/lazy.h"
#include "core/port.h"
#include "proto/http.h"
#include "proto/jsonrpc.h"
#include "tools/ctx.h"
#include "tools/mocks.h"
#include "tools/replay.h"
#include "tools/tape.h"
#include "tools/tools.h"
#include "tools/upstream_http.h"

#define UPSTREAM_TIMEOUT_MS 60000 /* tool_servers.NAME.timeout_ms's default */

struct server {
    const struct an_tool_server *cfg;
    char url[64];  /* the shared path's */
    char base[48]; /* http://127.0.0.1:PORT, for the tests' own paths */
    struct MHD_Daemon *d;
    pthread_mutex_t mu;            /* the upstream, and the fields below */
    struct an_rpc *rpc;            /* a stdio upstream, or */
    struct an_http_upstream *http; /* an HTTP one */
    json_t *want_id;               /* the request in flight */
    json_t *answer;                /* its response, once here */
    bool got;
    json_t *exposed; /* tool coverage: the upstream's tools/list names, or NULL */
};

static int64_t timeout_of(const struct server *s)
{
    return s->cfg->timeout_ms > 0 ? s->cfg->timeout_ms : UPSTREAM_TIMEOUT_MS;
}

static size_t max_body_of(const struct server *s)
{
    return s->cfg->max_body_bytes > 0 ? (size_t)s->cfg->max_body_bytes : AN_RPC_MAX_FRAME;
}

struct an_tools {
    struct server *s;
    size_t n;
    struct an_vars vars;
};

/* The calls of every server, in the order they were answered, and the
 * servers as ACP's mcpServers names them. */
static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static json_t *log_calls;
static unsigned long long *log_who; /* each call's test (ctx serial; 0: none) */
static size_t log_cap;
static json_t *mcp_servers;

json_t *an_tools_mcp_servers(const struct an_vars *vars)
{
    pthread_mutex_lock(&log_mu);
    json_t *v = mcp_servers ? json_deep_copy(mcp_servers) : NULL;
    pthread_mutex_unlock(&log_mu);
    size_t i;
    json_t *e;
    json_array_foreach(v, i, e)
    {
        char key[256];
        snprintf(key, sizeof key, "TOOL_SERVERS.%s.url",
                 json_string_value(json_object_get(e, "name")));
        const char *own = an_vars_get(vars, key);
        if (own)
            json_object_set_new(e, "url", json_string(own));
    }
    return v;
}

json_t *an_tools_mcp_servers_stdio(const struct an_vars *vars)
{
    char self[4096];
    json_t *http = an_tools_mcp_servers(vars);
    if (!http || an_port_self_exe(self, sizeof self) != 0) {
        json_decref(http);
        return NULL;
    }
    json_t *out = json_array();
    size_t i;
    json_t *e;
    json_array_foreach(http, i, e)
    {
        json_array_append_new(out, json_pack("{s:O,s:s,s:[s,O,s,O],s:[]}", "name",
                                             json_object_get(e, "name"), "command", self, "args",
                                             "tool-proxy", json_object_get(e, "name"), "--url",
                                             json_object_get(e, "url"), "env"));
    }
    json_decref(http);
    return out;
}

struct req_state {
    struct an_buf body;
    bool too_big;
};

static void on_response(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m)
{
    struct server *s = ud;
    (void)rpc;
    if (s->want_id && m->id && json_equal(m->id, s->want_id) && m->json) {
        s->answer = json_incref((json_t *)m->json);
        s->got = true;
    }
}

static json_t *rpc_error(const json_t *id, int code, const char *msg)
{
    return json_pack("{s:s,s:O,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", id ? id : json_null(),
                     "error", "code", code, "message", msg);
}

/* Send msg upstream; a request waits for its answer (a new reference, or
 * a JSON-RPC error built here when the upstream fails it). */
static json_t *forward(struct server *s, json_t *msg, const json_t *id)
{
    json_t *out = NULL;
    struct an_err err = AN_ERR_INIT;
    pthread_mutex_lock(&s->mu);
    if (!s->http && !s->rpc) { /* replayed, the upstream not started */
        char why[512];
        snprintf(why, sizeof why,
                 "tool server '%s': no upstream while a recording is replayed (--replay-tools)",
                 s->cfg->name);
        pthread_mutex_unlock(&s->mu);
        return id ? rpc_error(id, AN_RPC_METHOD_NOT_FOUND, why) : NULL;
    }
    if (s->http) {
        char why[512] = "";
        out =
            an_http_upstream_send(s->http, msg, id, timeout_of(s), max_body_of(s), why, sizeof why);
        if (!out && id)
            out = rpc_error(id, AN_RPC_INTERNAL_ERROR, why);
        pthread_mutex_unlock(&s->mu);
        return out;
    }
    if (!an_rpc_is_open(s->rpc)) {
        char why[512];
        snprintf(why, sizeof why, "tool server '%s': upstream closed: %s", s->cfg->name,
                 an_rpc_close_reason(s->rpc));
        out = id ? rpc_error(id, AN_RPC_INTERNAL_ERROR, why) : NULL;
        goto done;
    }
    s->want_id = id ? json_deep_copy(id) : NULL;
    s->answer = NULL;
    s->got = false;
    if (an_rpc_send(s->rpc, msg, &err)) {
        out = id ? rpc_error(id, AN_RPC_INTERNAL_ERROR, err.msg) : NULL;
        goto done;
    }
    if (!id) {
        an_rpc_pump(s->rpc, 0, NULL);
        goto done;
    }
    int64_t deadline = an_clock_mono_ms() + timeout_of(s);
    while (!s->got && an_rpc_is_open(s->rpc)) {
        int64_t left = deadline - an_clock_mono_ms();
        if (left <= 0)
            break;
        an_rpc_pump(s->rpc, left, &s->got);
    }
    if (s->got)
        out = s->answer;
    else if (!an_rpc_is_open(s->rpc))
        out = rpc_error(id, AN_RPC_INTERNAL_ERROR, an_rpc_close_reason(s->rpc));
    else
        out =
            rpc_error(id, -32001,
                      "the upstream tool server did not answer in time (tool_servers timeout_ms)");
    s->answer = NULL;
done:
    json_decref(s->want_id);
    s->want_id = NULL;
    pthread_mutex_unlock(&s->mu);
    return out;
}

/* One tools/call, as results.json's server_calls hold it. */
static void record_call(const struct server *s, const struct an_tool_ctx *ctx, const json_t *params,
                        const json_t *answer, int64_t start_ms, int64_t end_ms, bool mocked)
{
    const json_t *name = json_object_get(params, "name");
    const json_t *args = json_object_get(params, "arguments");
    const json_t *res = json_object_get(answer, "result");
    const json_t *rerr = json_object_get(answer, "error");
    bool is_error = !answer || rerr || json_is_true(json_object_get(res, "isError"));
    json_t *c = json_pack("{s:s,s:O,s:O,s:O,s:b,s:I,s:I,s:b}", "server", s->cfg->name, "name",
                          json_is_string(name) ? name : json_null(), "arguments",
                          args ? args : json_null(), "result",
                          res ? res : (rerr ? rerr : json_null()), "is_error", is_error, "start_ms",
                          (json_int_t)start_ms, "end_ms", (json_int_t)end_ms, "mocked", mocked);
    pthread_mutex_lock(&log_mu);
    if (!log_calls)
        log_calls = json_array();
    size_t n = json_array_size(log_calls);
    if (n >= log_cap) {
        log_cap = log_cap ? 2 * log_cap : 64;
        log_who = an_xrealloc(log_who, log_cap * sizeof *log_who);
    }
    log_who[n] = ctx ? ctx->serial : 0;
    json_array_append_new(log_calls, c);
    pthread_mutex_unlock(&log_mu);
}

json_t *an_tools_calls_of(const struct an_tool_ctx *ctx, int64_t from_ms, int64_t to_ms)
{
    json_t *out = NULL;
    pthread_mutex_lock(&log_mu);
    if (log_calls) {
        out = json_array();
        size_t i;
        json_t *c;
        json_array_foreach(log_calls, i, c)
        {
            int64_t t = (int64_t)json_integer_value(json_object_get(c, "start_ms"));
            if (ctx && log_who[i] == ctx->serial && t >= from_ms && t <= to_ms)
                json_array_append(out, c);
        }
    }
    pthread_mutex_unlock(&log_mu);
    return out;
}

static enum MHD_Result send_body(struct MHD_Connection *c, unsigned status, const char *body,
                                 const char *type)
{
    size_t len = body ? strlen(body) : 0;
    struct MHD_Response *r =
        MHD_create_response_from_buffer(len, (void *)(body ? body : ""), MHD_RESPMEM_MUST_COPY);
    if (!r)
        return MHD_NO;
    if (type)
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    if (status == MHD_HTTP_METHOD_NOT_ALLOWED)
        MHD_add_response_header(r, MHD_HTTP_HEADER_ALLOW, "POST");
    enum MHD_Result rc = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return rc;
}

static enum MHD_Result send_json(struct MHD_Connection *c, unsigned status, json_t *j)
{
    char *s = an_json_compact(j);
    enum MHD_Result rc = send_body(c, status, s, "application/json");
    free(s);
    json_decref(j);
    return rc;
}

/* ---- tools/call: a mock's answer or the upstream's ---- */

struct trickle {
    char *body;
    size_t len, pos;
    int64_t bps;
};

static ssize_t trickle_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct trickle *t = cls;
    (void)pos;
    if (t->pos >= t->len)
        return MHD_CONTENT_READER_END_OF_STREAM;
    /* a tenth of a second's bytes (at least one) every tenth of a second */
    size_t n = (size_t)(t->bps / 10 ? t->bps / 10 : 1);
    if (n > max)
        n = max;
    if (n > t->len - t->pos)
        n = t->len - t->pos;
    an_sleep_ms(t->bps >= 10 ? 100 : 1000 / t->bps);
    memcpy(buf, t->body + t->pos, n);
    t->pos += n;
    return (ssize_t)n;
}

static void trickle_free(void *cls)
{
    struct trickle *t = cls;
    free(t->body);
    free(t);
}

static enum MHD_Result send_trickle(struct MHD_Connection *c, json_t *answer, int64_t bps)
{
    struct trickle *t = an_xcalloc(1, sizeof *t);
    t->body = an_json_compact(answer);
    t->len = strlen(t->body);
    t->bps = bps;
    json_decref(answer);
    struct MHD_Response *r =
        MHD_create_response_from_callback(t->len, 1024, trickle_read, t, trickle_free);
    if (!r) {
        trickle_free(t);
        return MHD_NO;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    enum MHD_Result rc = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return rc;
}

/* The answer a rule gives by itself (a result, an error fault, a timeout
 * fault after its wait); NULL for the faults that are not an answer. */
static json_t *rule_answer(const struct an_mock_answer *ma, const json_t *id)
{
    const struct an_tool_mock *m = ma->rule;
    if (ma->result)
        return json_pack("{s:s,s:O,s:O}", "jsonrpc", "2.0", "id", id, "result", ma->result);
    if (m->fault == AN_FAULT_ERROR)
        return rpc_error(id, (int)m->code, m->message);
    if (m->fault == AN_FAULT_TIMEOUT) {
        an_sleep_ms(m->after_ms);
        char why[128];
        snprintf(why, sizeof why, "tool call timed out after %lld ms", (long long)m->after_ms);
        return rpc_error(id, -32001, why);
    }
    return NULL;
}

/* --replay-tools: the recorded answer, or on a miss a refusal that ends
 * the test as an ERROR (NULL with --replay-miss passthrough: upstream). */
static json_t *replayed(struct server *s, struct an_tool_ctx *ctx, const char *tool,
                        const json_t *args, const json_t *id)
{
    char *miss = NULL;
    json_t *answer = an_replay_call(ctx, s->cfg->name, tool, args, id, &miss);
    if (answer || an_replay_passthrough()) {
        free(miss);
        return answer;
    }
    answer = rpc_error(id, AN_RPC_INTERNAL_ERROR, miss);
    an_tool_ctx_refuse(ctx, miss);
    return answer;
}

static enum MHD_Result handle_call(struct server *s, struct an_tool_ctx *ctx,
                                   struct MHD_Connection *c, const json_t *msg, const json_t *id)
{
    const json_t *params = json_object_get(msg, "params");
    const char *tool = json_string_value(json_object_get(params, "name"));
    struct an_mock_answer ma;
    enum an_mock_verdict v =
        an_tools_mock_for(ctx, s->cfg->name, tool, json_object_get(params, "arguments"), &ma);
    int64_t t0 = an_clock_unix_ms();
    json_t *answer = NULL;
    enum an_fault_kind fault = v == AN_MOCK_RULE ? ma.rule->fault : AN_FAULT_NONE;
    if (v == AN_MOCK_STRICT_MISS)
        answer = rpc_error(id, AN_RPC_METHOD_NOT_FOUND,
                           "no tool_mocks rule matches this call (tool_mocks_strict)");
    else if (v == AN_MOCK_RULE && fault != AN_FAULT_TRICKLE)
        answer = rule_answer(&ma, id);
    else if ((v != AN_MOCK_RULE || fault == AN_FAULT_TRICKLE) && an_replay_on())
        answer = replayed(s, ctx, tool, json_object_get(params, "arguments"), id);
    if (!answer && v != AN_MOCK_STRICT_MISS && !(v == AN_MOCK_RULE && fault != AN_FAULT_TRICKLE))
        answer = forward(s, (json_t *)msg, id);
    bool mocked = v == AN_MOCK_RULE;
    record_call(s, ctx, params, answer, t0, an_clock_unix_ms(), mocked);
    an_tool_ctx_lock();
    size_t turn_no = ctx ? ctx->turn_no : 0;
    an_tool_ctx_unlock();
    an_tape_call(ctx ? ctx->key : NULL, turn_no, s->cfg->name, params, answer, mocked);
    if (fault == AN_FAULT_DISCONNECT)
        return MHD_NO; /* libmicrohttpd closes the connection without an answer */
    if (fault == AN_FAULT_MALFORMED)
        return send_body(c, MHD_HTTP_OK, "{\"jsonrpc\": \"2.0\", \"id\": ", "application/json");
    if (fault == AN_FAULT_TRICKLE)
        return send_trickle(c, answer, ma.rule->bytes_per_s);
    return send_json(c, MHD_HTTP_OK, answer);
}

/* The agent chose the arguments (up to max_body_bytes): a message quotes
 * at most QUOTE bytes of them, cut at a character's start. */
#define QUOTE 512

static void refuse_each(struct an_tool_ctx *c, void *msg)
{
    if (!c->refusal) /* the registry's lock is held */
        c->refusal = an_xstrdup(msg);
}

/* A tools/call on the shared path while n > 1 tests have a turn running:
 * it is no test's, so no test's tool_mocks, strict or recording answers
 * it. It is refused, and each of those tests ends as an ERROR naming it
 * and the fix (docs/tools.md "Parallel runs"). */
static enum MHD_Result handle_unattributable(struct server *s, struct MHD_Connection *c,
                                             const json_t *msg, const json_t *id, size_t n)
{
    const json_t *params = json_object_get(msg, "params");
    const char *tool = json_string_value(json_object_get(params, "name"));
    const json_t *args = json_object_get(params, "arguments");
    char *a = args ? json_dumps(args, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    size_t alen = a ? strlen(a) : 0, cut = alen;
    if (alen > QUOTE) {
        cut = QUOTE;
        while (cut > 0 && ((unsigned char)a[cut] & 0xC0) == 0x80)
            cut--;
    }
    int64_t t0 = an_clock_unix_ms();
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b,
                  "tool server '%s' is shared by %zu tests running at once: the call %s(%.*s%s) "
                  "cannot be attributed to one of them: use --parallel 1, or give the agent the "
                  "per-test URL ${TOOL_SERVERS.%s.url} in a per-test place (docs/tools.md "
                  "\"Parallel runs\")",
                  s->cfg->name, n, tool ? tool : "?", (int)cut, a ? a : "", cut < alen ? "…" : "",
                  s->cfg->name);
    free(a);
    an_tool_ctx_each_in_turn(refuse_each, (void *)an_buf_cstr(&b));
    json_t *answer = rpc_error(id, AN_RPC_INTERNAL_ERROR, an_buf_cstr(&b));
    an_buf_release(&b);
    record_call(s, NULL, params, answer, t0, an_clock_unix_ms(), false);
    an_tape_call(NULL, 0, s->cfg->name, params, answer, false);
    return send_json(c, MHD_HTTP_OK, answer);
}

/* One POSTed JSON-RPC message (never a batch: MCP 2025-06-18 dropped
 * them), on a test's own path (ctx) or on the shared one (NULL). */
static enum MHD_Result handle_post(struct server *s, struct an_tool_ctx *ctx,
                                   struct MHD_Connection *c, const struct req_state *rs)
{
    if (rs->too_big)
        return send_json(c, MHD_HTTP_CONTENT_TOO_LARGE,
                         rpc_error(NULL, AN_RPC_INVALID_REQUEST,
                                   "request body over the cap (tool_servers max_body_bytes)"));
    json_error_t je;
    json_t *msg = json_loadb(an_buf_cstr(&rs->body), rs->body.len, 0, &je);
    if (!json_is_object(msg)) {
        json_decref(msg);
        return send_json(c, MHD_HTTP_BAD_REQUEST,
                         rpc_error(NULL, AN_RPC_PARSE_ERROR, "expected one JSON-RPC object"));
    }
    const json_t *method = json_object_get(msg, "method");
    const json_t *id = json_object_get(msg, "id");
    if (!json_is_string(method) || !id) { /* a notification, or an answer to the server */
        if (json_is_string(method))
            json_decref(forward(s, msg, NULL));
        json_decref(msg);
        return send_body(c, MHD_HTTP_ACCEPTED, NULL, NULL);
    }
    if (!strcmp(json_string_value(method), "tools/call")) {
        size_t n = 1;
        struct an_tool_ctx *who = ctx ? ctx : an_tool_ctx_shared(&n);
        enum MHD_Result rc = n > 1 ? handle_unattributable(s, c, msg, id, n)
                                   : handle_call(s, who, c, msg, id);
        if (who != ctx)
            an_tool_ctx_put(who);
        json_decref(msg);
        return rc;
    }
    const char *m = json_string_value(method);
    json_t *answer = NULL;
    if (!s->rpc && !s->http) /* replayed with no upstream: the recorded answer */
        answer = an_replay_answer(s->cfg->name, m, id);
    if (!answer)
        answer = forward(s, msg, id);
    an_tape_answer(s->cfg->name, m, answer);
    json_decref(msg);
    return send_json(c, MHD_HTTP_OK, answer);
}

/* "/mcp" is the shared path (*tok NULL); "/t/TOKEN/mcp" a test's. Any
 * other path is none (404): nothing is normalised or looked up by it. */
static bool parse_path(const char *url, const char **tok, size_t *len)
{
    *tok = NULL;
    *len = 0;
    if (!strcmp(url, "/mcp"))
        return true;
    if (strncmp(url, "/t/", 3) != 0)
        return false;
    const char *t = url + 3;
    size_t n = strspn(t, "0123456789abcdef");
    if (n != AN_TOOL_TOKEN_LEN || strcmp(t + n, "/mcp") != 0)
        return false;
    *tok = t;
    *len = n;
    return true;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload,
                                  size_t *upload_size, void **con_cls)
{
    struct server *s = cls;
    struct req_state *rs = *con_cls;
    (void)version;
    if (!rs) {
        rs = an_xcalloc(1, sizeof *rs);
        an_buf_init(&rs->body, max_body_of(s));
        *con_cls = rs;
        return MHD_YES;
    }
    if (*upload_size) {
        if (!rs->too_big && an_buf_append(&rs->body, upload, *upload_size)) {
            rs->too_big = true;
            an_buf_release(&rs->body);
        }
        *upload_size = 0;
        return MHD_YES;
    }
    const char *tok;
    size_t tlen;
    struct an_tool_ctx *ctx = NULL;
    if (!parse_path(url, &tok, &tlen) || (tok && !(ctx = an_tool_ctx_by_token(tok, tlen))))
        return send_body(c, MHD_HTTP_NOT_FOUND, NULL, NULL); /* unknown, or its test ended */
    enum MHD_Result rc = strcmp(method, MHD_HTTP_METHOD_POST) != 0
                             ? send_body(c, MHD_HTTP_METHOD_NOT_ALLOWED, NULL, NULL)
                             : handle_post(s, ctx, c, rs);
    an_tool_ctx_put(ctx);
    return rc;
}

static void on_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    struct req_state *rs = *con_cls;
    (void)cls;
    (void)c;
    (void)toe;
    if (!rs)
        return;
    an_buf_release(&rs->body);
    free(rs);
    *con_cls = NULL;
}

/* ---- lifecycle ------------------------------------------------------------ */

/* Loopback only, an ephemeral port: the agent on this machine is the only
 * client meant to reach it. */
static int serve(struct server *s, struct an_err *err)
{
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    char what[160];
    snprintf(what, sizeof what, "tool server '%s'", s->cfg->name);
    int rc = an_lazy_mhd(what, err);
    if (rc)
        return rc;
    int fd = an_port_socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 128) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        return an_fail(err, AN_EIO, &s->cfg->loc,
                       "tool server '%s': cannot listen on 127.0.0.1: %s", s->cfg->name,
                       strerror(e));
    }
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &blen) != 0) {
        int e = errno;
        close(fd);
        return an_fail(err, AN_EIO, &s->cfg->loc, "tool server '%s': cannot read the port: %s",
                       s->cfg->name, strerror(e));
    }
    s->d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL, 0, NULL,
        NULL, on_request, s, MHD_OPTION_LISTEN_SOCKET, fd, MHD_OPTION_CONNECTION_LIMIT, 256u,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
    if (!s->d) {
        close(fd);
        return an_fail(err, AN_EIO, &s->cfg->loc, "tool server '%s': cannot serve on 127.0.0.1",
                       s->cfg->name);
    }
    snprintf(s->base, sizeof s->base, "http://127.0.0.1:%u", (unsigned)ntohs(bound.sin_port));
    snprintf(s->url, sizeof s->url, "%s/mcp", s->base);
    return 0;
}

/* An HTTP upstream: its endpoint and header values may read ${ENV.X}. */
static int start_http(struct server *s, struct an_err *err)
{
    struct an_vars none = AN_VARS_INIT;
    const struct an_tool_server *c = s->cfg;
    char *ep = NULL;
    char **hd = an_xcalloc(c->nheaders + 1, sizeof *hd);
    int rc = an_interp(c->endpoint, &c->loc, &none, &ep, err);
    for (size_t i = 0; i < c->nheaders && !rc; i++) {
        char *v = NULL;
        if ((rc = an_interp(c->header_values[i], &c->loc, &none, &v, err)))
            break;
        size_t len = strlen(c->header_names[i]) + strlen(v) + 3;
        hd[i] = an_xmalloc(len);
        snprintf(hd[i], len, "%s: %s", c->header_names[i], v);
        free(v);
    }
    if (!rc) {
        char what[160];
        snprintf(what, sizeof what, "tool server '%s'", c->name);
        rc = an_http_global_init(what, err);
    }
    if (rc) {
        for (size_t i = 0; i < c->nheaders; i++)
            free(hd[i]);
        free(hd);
    } else {
        s->http = an_http_upstream_new(ep, hd, c->nheaders);
    }
    free(ep);
    return rc;
}

static int start_upstream(struct server *s, const char *dir, struct an_err *err)
{
    if (s->cfg->endpoint)
        return start_http(s, err);
    /* the command's strings may read the environment (${ENV.X}) */
    struct an_vars none = AN_VARS_INIT;
    char **argv = an_xcalloc(s->cfg->ncommand + 1, sizeof *argv);
    int rc = 0;
    for (size_t i = 0; i < s->cfg->ncommand && !rc; i++)
        rc = an_interp(s->cfg->command[i], &s->cfg->loc, &none, &argv[i], err);
    if (!rc) {
        struct an_child_opts co = AN_CHILD_OPTS_INIT;
        co.argv = (const char *const *)argv;
        co.cwd = dir;
        struct an_rpc_opts ro = AN_RPC_OPTS_INIT;
        ro.peer_name = "tool server";
        ro.max_frame = max_body_of(s);
        ro.max_frame_key = "tool_servers max_body_bytes";
        struct an_rpc_cbs cbs = {.ud = s, .on_response = on_response};
        if ((rc = an_rpc_spawn(&s->rpc, &co, &ro, &cbs, err))) {
            struct an_err why = *err;
            an_fail(err, rc, &s->cfg->loc, "tool server '%s': %s", s->cfg->name, why.msg);
        }
    }
    for (size_t i = 0; i < s->cfg->ncommand; i++)
        free(argv[i]);
    free(argv);
    return rc;
}

/* Tool coverage's "exposed" (tools/coverage.c): the upstream's tools/list,
 * every page, asked before the agent connects. An HTTP upstream's session
 * is then started afresh, so the agent's initialize opens its own. A
 * failure leaves exposed NULL (coverage falls back on the tool_mocks). */
static json_t *ask(struct server *s, int id, const char *method, json_t *params)
{
    json_t *jid = json_integer(id);
    json_t *msg = json_pack("{s:s,s:s,s:o}", "jsonrpc", "2.0", "method", method, "params", params);
    if (id)
        json_object_set(msg, "id", jid);
    json_t *answer = forward(s, msg, id ? jid : NULL);
    json_decref(msg);
    json_decref(jid);
    return answer;
}

#define LIST_MAX_PAGES 100

static int list_exposed(struct server *s, struct an_err *err)
{
    json_t *a =
        ask(s, 1, "initialize",
            json_pack("{s:s,s:{},s:{s:s,s:s}}", "protocolVersion", "2025-06-18", "capabilities",
                      "clientInfo", "name", "ananke-coverage", "version", "1"));
    bool ok = json_is_object(json_object_get(a, "result"));
    json_decref(a);
    if (ok)
        json_decref(ask(s, 0, "notifications/initialized", json_object()));
    json_t *names = ok ? json_array() : NULL;
    char *cursor = NULL;
    for (int page = 0; ok && page < LIST_MAX_PAGES; page++) {
        json_t *p = cursor ? json_pack("{s:s}", "cursor", cursor) : json_object();
        a = ask(s, 2 + page, "tools/list", p);
        const json_t *tools = json_object_get(json_object_get(a, "result"), "tools");
        ok = json_is_array(tools);
        size_t i;
        const json_t *t;
        json_array_foreach(tools, i, t)
        {
            if (json_is_string(json_object_get(t, "name")))
                json_array_append(names, json_object_get(t, "name"));
        }
        const char *next = an_json_str(json_object_get(a, "result"), "nextCursor");
        free(cursor);
        cursor = next && *next ? an_xstrdup(next) : NULL;
        json_decref(a);
        if (!cursor)
            break;
    }
    free(cursor);
    if (ok)
        s->exposed = names;
    else
        json_decref(names);
    if (s->http) { /* the agent's session is its own */
        an_http_upstream_free(s->http);
        s->http = NULL;
        return start_http(s, err);
    }
    return 0;
}

const json_t *an_tools_exposed(const struct an_tools *t, const char *server)
{
    for (size_t i = 0; t && i < t->n; i++)
        if (!strcmp(t->s[i].cfg->name, server))
            return t->s[i].exposed;
    return NULL;
}

/* ANANKE_TOOL_SERVERS for `ananke tool-proxy`, and each server's
 * ${TOOL_SERVERS.NAME.command}: this program, tool-proxy, NAME. Set before
 * target.start and the tests start anything. */
static void set_env(struct an_tools *t)
{
    json_t *m = json_object();
    for (size_t i = 0; i < t->n; i++)
        json_object_set_new(m, t->s[i].cfg->name, json_string(t->s[i].url));
    char *v = an_json_compact(m);
    setenv(AN_TOOLS_ENV, v, 1);
    free(v);
    json_decref(m);
    char self[4096];
    if (an_port_self_exe(self, sizeof self) != 0)
        return;
    for (size_t i = 0; i < t->n; i++) {
        char key[256], cmd[4400];
        snprintf(key, sizeof key, "TOOL_SERVERS.%s.command", t->s[i].cfg->name);
        snprintf(cmd, sizeof cmd, "%s tool-proxy %s", self, t->s[i].cfg->name);
        an_vars_set(&t->vars, key, cmd);
    }
}

/* The one set of proxies that serves (an_tools_up), for the tests' paths. */
static struct an_tools *serving;

int an_tools_test_begin(struct an_tool_ctx **out, const struct an_test *test, struct an_vars *vars,
                        const char **token, struct an_err *err)
{
    *out = NULL;
    *token = NULL;
    struct an_tools *t = serving;
    if (!t)
        return 0;
    struct an_tool_ctx *c = an_tool_ctx_new(test);
    if (!c)
        return an_fail(err, AN_EIO, NULL,
                       "no random bytes for the test's own tool server path (getrandom)");
    char self[4096];
    bool have_self = an_port_self_exe(self, sizeof self) == 0;
    for (size_t i = 0; i < t->n; i++) {
        const char *name = t->s[i].cfg->name;
        char key[256], url[160], cmd[4500];
        snprintf(url, sizeof url, "%s/t/%s/mcp", t->s[i].base, c->token);
        snprintf(key, sizeof key, "TOOL_SERVERS.%s.url", name);
        an_vars_set(vars, key, url);
        if (have_self) {
            snprintf(key, sizeof key, "TOOL_SERVERS.%s.command", name);
            snprintf(cmd, sizeof cmd, "%s tool-proxy %s --url %s", self, name, url);
            an_vars_set(vars, key, cmd);
        }
    }
    *token = c->token;
    *out = c;
    return 0;
}

void an_tools_test_end(struct an_tool_ctx *c)
{
    an_tool_ctx_end(c);
}

int an_tools_up(struct an_tools **out, const struct an_config *cfg, struct an_err *err)
{
    *out = NULL;
    if (!cfg->ntool_servers)
        return 0;
    struct an_tools *t = an_xcalloc(1, sizeof *t);
    t->s = an_xcalloc(cfg->ntool_servers, sizeof *t->s);
    pthread_mutex_lock(&log_mu);
    json_decref(log_calls);
    log_calls = json_array();
    pthread_mutex_unlock(&log_mu);
    for (size_t i = 0; i < cfg->ntool_servers; i++) {
        struct server *s = &t->s[i];
        s->cfg = &cfg->tool_servers[i];
        pthread_mutex_init(&s->mu, NULL);
        t->n = i + 1;
        /* a replay that never passes a call upstream needs no upstream */
        bool upstream = !an_replay_on() || an_replay_passthrough();
        if ((upstream && (start_upstream(s, cfg->dir, err) || list_exposed(s, err))) ||
            serve(s, err)) {
            an_tools_down(t);
            return err->code;
        }
        char key[256];
        snprintf(key, sizeof key, "TOOL_SERVERS.%s.url", s->cfg->name);
        an_vars_set(&t->vars, key, s->url);
        pthread_mutex_lock(&log_mu);
        if (!mcp_servers)
            mcp_servers = json_array();
        json_array_append_new(mcp_servers, json_pack("{s:s,s:s,s:s,s:[]}", "type", "http", "name",
                                                     s->cfg->name, "url", s->url, "headers"));
        pthread_mutex_unlock(&log_mu);
    }
    set_env(t);
    an_interp_set_tool_vars(&t->vars);
    serving = t;
    *out = t;
    return 0;
}

void an_tools_down(struct an_tools *t)
{
    if (!t)
        return;
    an_interp_set_tool_vars(NULL);
    if (serving == t)
        serving = NULL;
    unsetenv(AN_TOOLS_ENV);
    pthread_mutex_lock(&log_mu);
    json_decref(mcp_servers);
    mcp_servers = NULL;
    pthread_mutex_unlock(&log_mu);
    /* the daemons are stopped below: no call is recorded after them */
    for (size_t i = 0; i < t->n; i++) {
        struct server *s = &t->s[i];
        if (s->d)
            MHD_stop_daemon(s->d);
        an_rpc_free(s->rpc);
        an_http_upstream_free(s->http);
        json_decref(s->exposed);
        pthread_mutex_destroy(&s->mu);
    }
    pthread_mutex_lock(&log_mu);
    json_decref(log_calls);
    log_calls = NULL;
    free(log_who);
    log_who = NULL;
    log_cap = 0;
    pthread_mutex_unlock(&log_mu);
    an_tape_release();
    an_vars_release(&t->vars);
    free(t->s);
    free(t);
}
