/*
 * `ananke-mock mcp`: an MCP server double on stdio (mcp_stdio.c) or on
 * Streamable HTTP (here: POST /mcp on the shared mock_http plumbing).
 *
 * Over HTTP, initialize mints an Mcp-Session-Id that every later POST must
 * carry (400 without it, 404 for an unknown or ended one); notifications
 * and responses get 202; DELETE ends the session; GET (the standalone
 * stream) is 405; a request whose Origin is not the local machine's is 403
 * (DNS rebinding). A POST in MCP 2026-07-28 (stateless: its _meta names
 * the version) is answered by mcp_modern.c instead. Answers are application/json, or with --sse an
 * SSE stream of a priming event and the answer. The "HTTP:" faults of MCP_FAULT_MAP break these
 * rules (session_check, on_post, mcp_http_handle).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/buf.h"
#include "core/json.h"
#include "mcp_ask_http.h"
#include "mcp_listen.h"
#include "mcp_modern.h"
#include "mcp_server.h"
#include "mcp_stdio.h"
#include "mock_cmds.h"
#include "mock_common.h"
#include "mock_serve.h"
#include "proto/jsonrpc.h"

#define PRIMING "id: 0\ndata:\n\n"
#define LOG_EVENT                                                                                  \
    "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","             \
    "\"params\":{\"level\":\"info\",\"data\":\"still working\"}}\n\n"

struct mcp_http_srv {
    struct mcp_server_opts opts;
    bool sse;
    pthread_mutex_t lock;
    size_t nsessions;      /* minted so far: mock-session-1 … */
    bool *ended;           /* ended[i]: mock-session-(i+1) was DELETEd */
    bool busy;             /* fault one-stream: a POST is being answered */
    struct mcp_asks *asks; /* the kit tools' requests to the client (mcp_ask_http.c) */
};

static void usage(FILE *out)
{
    fputs("usage: ananke-mock mcp [--version V] [--fault NAME] [--requests PATH]\n"
          "       ananke-mock mcp --http [--sse] [--port N] [--port-file PATH] ...\n"
          "\n"
          "An MCP server double (see docs/mock.md): MCP 2025-11-25, negotiated down to\n"
          "2024-11-05; initialize, ping, tools/list (two pages), tools/call,\n"
          "resources/list/read, prompts/list/get; over HTTP also 2026-07-28 (stateless:\n"
          "server/discover, _meta per request). On stdio (the default) it exits 0\n"
          "when stdin ends. With --http it serves Streamable HTTP at\n"
          "http://127.0.0.1:PORT/mcp, prints that base URL as one line once\n"
          "listening, and stops cleanly on SIGTERM/SIGINT.\n"
          "\n"
          "  --version V       answer initialize with V, whatever was asked\n"
          "  --fault NAME      a tool: every tools/call behaves as it; or a fault\n"
          "                    below: break that one rule\n"
          "  --requests PATH   append each message received (stdio: the line as\n"
          "                    read; HTTP: {\"method\",\"path\",\"headers\",\"body\"})\n"
          "  --http            serve Streamable HTTP instead of stdio\n"
          "  --sse             HTTP: answer every request as an SSE stream\n"
          "  --modern-only     speak 2026-07-28 only: initialize and any request\n"
          "                    without its _meta are refused as that revision does\n"
          "  --port N          HTTP: port to listen on; 0 (default) picks a free one\n"
          "  --port-file PATH  HTTP: also write the port number to PATH (atomically)\n"
          "  --max-body BYTES  HTTP: answer larger request bodies with 413\n"
          "  --listen-ms MS    2026-07-28: a subscriptions/listen stream ends after MS\n"
          "                    (default 30000; 1 to 3600000) or 64 notifications\n"
          "  -h, --help        show this help\n"
          "\n"
          "tools (the faults are tools; arguments: echo {message}, add {a, b}):\n",
          out);
    for (unsigned i = 0; mcp_tool_name(i); i++)
        fprintf(out, "  %-13s %s\n", mcp_tool_name(i), mcp_tool_desc(i));
    fputs("\nfaults (rules broken on purpose: the kit scenarios', Streamable HTTP's):\n", out);
    for (unsigned f = 1; mcp_fault_name(f); f++)
        fprintf(out, "  %-20s %s\n", mcp_fault_name(f), mcp_fault_desc(f));
    fputs("\nExit status: 0 stdin ended or stopped by a signal, 1 the server failed,\n"
          "2 bad flags, 3 the die tool was called (stdio).\n",
          out);
}

/* ---- Streamable HTTP --------------------------------------------------------- */

static enum MHD_Result send_rpc_error(struct MHD_Connection *c, unsigned status, int code,
                                      const char *message)
{
    return mock_http_send_json(c, status,
                               json_pack("{s:s,s:n,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", "error",
                                         "code", code, "message", message),
                               NULL, 0);
}

enum ending { END_CLOSE, END_STALL, END_CUT };

/* A priming event, then `events` (already SSE-framed), then the ending. */
static enum MHD_Result send_stream(struct mock_http *http, struct MHD_Connection *c,
                                   const char *events, size_t len, enum ending end,
                                   const struct mock_header *h, size_t nh)
{
    struct mock_plan plan = MOCK_PLAN_INIT;
    mock_plan_write(&plan, PRIMING, strlen(PRIMING));
    mock_plan_write(&plan, events, len);
    if (end == END_STALL)
        mock_plan_push(&plan, MOCK_ACT_STALL);
    else if (end == END_CUT)
        mock_plan_push(&plan, MOCK_ACT_CUT);
    enum MHD_Result rc =
        mock_http_send_plan(http, c, MHD_HTTP_OK, "text/event-stream", h, nh, &plan);
    mock_plan_release(&plan);
    return rc;
}

/* One answer frame, as JSON or as an SSE event on a stream ended by `end`. */
static enum MHD_Result send_frame(struct mcp_http_srv *m, struct mock_http *http,
                                  struct MHD_Connection *c, char *frame, size_t len, bool sse,
                                  enum ending end, const struct mock_header *h, size_t nh)
{
    enum MHD_Result rc;
    if (!sse && !m->sse) {
        rc = mock_http_send(c, MHD_HTTP_OK, "application/json", frame, len, h, nh);
    } else {
        struct an_buf ev = AN_BUF_INIT;
        an_buf_puts(&ev, "event: message\ndata: ");
        an_buf_append(&ev, frame, len);
        an_buf_puts(&ev, "\n\n");
        rc = send_stream(http, c, ev.data, ev.len, end, h, nh);
        an_buf_release(&ev);
    }
    free(frame);
    return rc;
}

/* Messages as the events of one SSE stream, closed after the last. */
static enum MHD_Result send_events(struct mock_http *http, struct MHD_Connection *c,
                                   const json_t *msgs)
{
    struct an_buf ev = AN_BUF_INIT;
    mcp_sse_frames(&ev, msgs);
    enum MHD_Result rc = send_stream(http, c, ev.data, ev.len, END_CLOSE, NULL, 0);
    an_buf_release(&ev);
    return rc;
}

static bool known_version(const char *v)
{
    static const char *const ok[] = {"2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"};
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++)
        if (!strcmp(v, ok[i]))
            return true;
    return false;
}

/* 0 when `sid` names a live session; else the status to refuse with. */
static unsigned session_check(struct mcp_http_srv *m, const char *sid, bool end_it)
{
    enum mcp_fault f = m->opts.fault;
    if (!sid)
        return f == MCP_F_SESSION_NOT_REQUIRED ? 0 : MHD_HTTP_BAD_REQUEST;
    unsigned long n = 0;
    char *rest = NULL;
    if (!strncmp(sid, "mock-session-", 13) || !strncmp(sid, "mock session-", 13))
        n = strtoul(sid + 13, &rest, 10);
    unsigned status = f == MCP_F_SESSION_GONE_400 ? MHD_HTTP_BAD_REQUEST : MHD_HTTP_NOT_FOUND;
    pthread_mutex_lock(&m->lock);
    if (n >= 1 && n <= m->nsessions && rest && !*rest && !m->ended[n - 1]) {
        status = 0;
        if (end_it && f != MCP_F_DELETE_IGNORED)
            m->ended[n - 1] = true;
    }
    pthread_mutex_unlock(&m->lock);
    return status;
}

/* An Origin a local server may take: none (not a browser), or http(s) on
 * localhost, 127.0.0.1 or [::1], any port. Anything else is a page elsewhere
 * reaching us through DNS rebinding. */
static bool origin_local(const char *origin)
{
    static const char *const hosts[] = {"localhost", "127.0.0.1", "[::1]"};
    if (!origin)
        return true;
    const char *h = !strncmp(origin, "http://", 7)    ? origin + 7
                    : !strncmp(origin, "https://", 8) ? origin + 8
                                                      : NULL;
    if (!h)
        return false;
    for (size_t i = 0; i < sizeof hosts / sizeof hosts[0]; i++) {
        size_t n = strlen(hosts[i]);
        if (!strncmp(h, hosts[i], n) && (h[n] == '\0' || h[n] == ':' || h[n] == '/'))
            return true;
    }
    return false;
}

static enum MHD_Result refuse_session(struct MHD_Connection *c, unsigned status)
{
    if (status == MHD_HTTP_BAD_REQUEST)
        return send_rpc_error(c, status, -32000, "Bad Request: Mcp-Session-Id header is required");
    return send_rpc_error(c, status, -32001, "Session not found");
}

static enum MHD_Result on_post(struct mcp_http_srv *m, struct mock_http *http,
                               const struct mock_http_req *rq)
{
    struct MHD_Connection *c = rq->conn;
    char why[160], msg[300];
    unsigned status;
    json_t *body = mock_http_read_json(http, rq, &status, why, sizeof why);
    if (!body) {
        bool parse = status == MHD_HTTP_BAD_REQUEST;
        snprintf(msg, sizeof msg, "%s%s", parse ? "Parse error: " : "", why);
        return send_rpc_error(c, status, parse ? -32700 : -32600, msg);
    }
    enum MHD_Result rc;
    const char *method = an_json_str(body, "method");
    const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
    const char *pv = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "MCP-Protocol-Version");
    char sid_new[40];
    struct mock_header hdr = {"Mcp-Session-Id", sid_new};
    size_t nh = 0;
    unsigned refused;
    if (!json_is_object(body)) {
        rc = send_rpc_error(c, MHD_HTTP_BAD_REQUEST, -32600,
                            "Invalid Request: one JSON-RPC object per POST");
        goto done;
    }
    if (m->opts.modern_only || mcp_modern_is(body, pv)) { /* 2026-07-28: no session, no handshake */
        rc = mcp_modern_post(&m->opts, http, c, body);
        goto done;
    }
    if (method && !strcmp(method, "initialize")) {
        pthread_mutex_lock(&m->lock);
        m->ended = an_xrealloc(m->ended, (m->nsessions + 1) * sizeof *m->ended);
        m->ended[m->nsessions++] = false;
        snprintf(sid_new, sizeof sid_new, "%s%zu",
                 m->opts.fault == MCP_F_SESSION_ID_INVALID ? "mock session-" : "mock-session-",
                 m->nsessions);
        pthread_mutex_unlock(&m->lock);
        nh = 1;
    } else if ((refused = session_check(m, sid, false))) {
        rc = refuse_session(c, refused);
        goto done;
    } else if (pv && !known_version(pv) && m->opts.fault != MCP_F_VERSION_HEADER_IGNORED) {
        snprintf(msg, sizeof msg, "Bad Request: unsupported protocol version %.100s", pv);
        rc = send_rpc_error(c, MHD_HTTP_BAD_REQUEST, -32000, msg);
        goto done;
    }
    json_t *reply = NULL, *notes = json_array();
    enum mcp_tool t = mcp_server_answer(&m->opts, body, notes, &reply);
    if (!reply) { /* a notification or a response (maybe to a kit tool's request) */
        mcp_asks_answered(m->asks, body);
        json_decref(notes);
        rc = m->opts.fault == MCP_F_NOTIFICATION_200
                 ? mock_http_send(c, MHD_HTTP_OK, "application/json", "{}", 2, NULL, 0)
                 : mock_http_send(c, MHD_HTTP_ACCEPTED, NULL, "", 0, NULL, 0);
        goto done;
    }
    if (json_array_size(notes)) { /* notifications first: one SSE stream */
        json_array_append_new(notes, reply);
        rc = send_events(http, c, notes);
        json_decref(notes);
        goto done;
    }
    json_decref(notes);
    const json_t *id = json_object_get(body, "id");
    switch (t) {
    case MCP_T_DIE:
    case MCP_T_CLOSE_STDOUT:
        json_decref(reply);
        rc = send_stream(http, c, LOG_EVENT, strlen(LOG_EVENT), END_CUT, NULL, 0);
        break;
    case MCP_T_HANG:
        json_decref(reply);
        rc = send_stream(http, c, LOG_EVENT, strlen(LOG_EVENT), END_STALL, NULL, 0);
        break;
    case MCP_T_GARBAGE: {
        json_decref(reply);
        char *g = mcp_garbage_frame(id);
        rc = send_frame(m, http, c, g, strlen(g), false, END_CLOSE, NULL, 0);
        break;
    }
    case MCP_T_HUGE: {
        json_decref(reply);
        size_t len;
        char *h = mcp_huge_frame(id, AN_RPC_MAX_FRAME + 1, &len);
        rc = send_frame(m, http, c, h, len, false, END_CLOSE, NULL, 0);
        break;
    }
    case MCP_T_HTTP_500:
        json_decref(reply);
        rc = mock_http_send(c, MHD_HTTP_INTERNAL_SERVER_ERROR, "text/plain",
                            "internal server error (on purpose)\n", 35, NULL, 0);
        break;
    case MCP_T_STDERR_FLOOD:
        mcp_stderr_flood(MCP_FLOOD_BYTES);
        goto plain;
    case MCP_T_ENDLESS: {
        char *f = an_json_compact(reply);
        json_decref(reply);
        rc = send_frame(m, http, c, f, strlen(f), true, END_STALL, NULL, 0);
        break;
    }
    default:
        if (mcp_ask_is(t)) {
            json_decref(reply);
            rc = mcp_asks_stream(m->asks, &m->opts, http, c, t, body);
            break;
        }
    plain : {
        char *f = an_json_compact(reply);
        json_decref(reply);
        rc = send_frame(m, http, c, f, strlen(f), false, END_CLOSE, &hdr, nh);
        break;
    }
    }
done:
    json_decref(body);
    return rc;
}

/* Fault one-stream: one POST answered at a time, each held 300 ms; one
 * that comes meanwhile is refused 409 (a server that takes no concurrent
 * streams). */
static enum MHD_Result one_stream(struct mcp_http_srv *m, struct mock_http *http,
                                  const struct mock_http_req *rq)
{
    pthread_mutex_lock(&m->lock);
    bool busy = m->busy;
    m->busy = true;
    pthread_mutex_unlock(&m->lock);
    if (busy) {
        mock_http_log(http, rq, NULL);
        return send_rpc_error(rq->conn, MHD_HTTP_CONFLICT, -32000,
                              "Conflict: one request at a time");
    }
    struct timespec hold = {0, 300 * 1000 * 1000};
    while (nanosleep(&hold, &hold) && errno == EINTR)
        ;
    enum MHD_Result rc = on_post(m, http, rq);
    pthread_mutex_lock(&m->lock);
    m->busy = false;
    pthread_mutex_unlock(&m->lock);
    return rc;
}

static enum MHD_Result mcp_http_handle(void *ctx, struct mock_http *http,
                                       const struct mock_http_req *rq)
{
    struct mcp_http_srv *m = ctx;
    struct MHD_Connection *c = rq->conn;
    if (strcmp(rq->url, "/mcp")) {
        mock_http_log(http, rq, NULL);
        return send_rpc_error(c, MHD_HTTP_NOT_FOUND, -32600, "the MCP endpoint is /mcp");
    }
    const char *origin = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin");
    if (!origin_local(origin) && m->opts.fault != MCP_F_ORIGIN_IGNORED) {
        mock_http_log(http, rq, NULL);
        return send_rpc_error(c, MHD_HTTP_FORBIDDEN, -32000, "Forbidden: Origin not allowed");
    }
    if (!strcmp(rq->method, MHD_HTTP_METHOD_POST) && m->opts.fault == MCP_F_ONE_STREAM)
        return one_stream(m, http, rq);
    if (!strcmp(rq->method, MHD_HTTP_METHOD_POST))
        return on_post(m, http, rq);
    mock_http_log(http, rq, NULL);
    if (!strcmp(rq->method, MHD_HTTP_METHOD_DELETE)) {
        const char *sid = MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Mcp-Session-Id");
        unsigned refused = session_check(m, sid, true);
        return refused ? refuse_session(c, refused)
                       : mock_http_send(c, MHD_HTTP_OK, NULL, "", 0, NULL, 0);
    }
    if (m->opts.fault == MCP_F_GET_JSON)
        return mock_http_send_json(c, MHD_HTTP_OK, json_pack("{s:s}", "jsonrpc", "2.0"), NULL, 0);
    struct mock_header allow = {"Allow", "POST, DELETE"};
    return mock_http_send_json(c, MHD_HTTP_METHOD_NOT_ALLOWED,
                               json_pack("{s:s,s:n,s:{s:i,s:s}}", "jsonrpc", "2.0", "id", "error",
                                         "code", -32000, "message",
                                         "Method not allowed: no standalone stream"),
                               &allow, 1);
}

/* ---- the command ------------------------------------------------------------- */

int mock_cmd_mcp(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_server_flags f = {.max_body = MOCK_MAX_BODY_DEFAULT};
    struct mcp_http_srv m = {.opts = MCP_SERVER_OPTS_INIT};
    const char *fault = NULL;
    bool help = false, http = false;
    unsigned long listen_ms = MCP_LISTEN_MS_DEFAULT;
    sigset_t stop_set;
    const struct mock_flag flags[] = {
        {"--version", MOCK_FLAG_STR, &m.opts.version, 0, 0},
        {"--fault", MOCK_FLAG_STR, &fault, 0, 0},
        {"--requests", MOCK_FLAG_STR, &f.requests, 0, 0},
        {"--http", MOCK_FLAG_SWITCH, &http, 0, 0},
        {"--sse", MOCK_FLAG_SWITCH, &m.sse, 0, 0},
        {"--modern-only", MOCK_FLAG_SWITCH, &m.opts.modern_only, 0, 0},
        {"--port", MOCK_FLAG_ULONG, &f.port, 0, 65535},
        {"--port-file", MOCK_FLAG_STR, &f.port_file, 0, 0},
        {"--max-body", MOCK_FLAG_ULONG, &f.max_body, 1, (unsigned long)1 << 40},
        {"--listen-ms", MOCK_FLAG_ULONG, &listen_ms, 1, 3600000},
    };

    if (!mock_parse_flags(argc, argv, flags, sizeof flags / sizeof flags[0], &help, &err) &&
        fault) {
        unsigned i = 0;
        while (mcp_tool_name(i) && strcmp(mcp_tool_name(i), fault))
            i++;
        if (mcp_tool_name(i))
            m.opts.forced = (enum mcp_tool)i;
        else if (!(m.opts.fault = mcp_fault_parse(fault)))
            an_fail(&err, AN_EUSAGE, NULL,
                    "unknown tool or fault '%s' (see ananke-mock mcp --help)", fault);
    }
    if (err.code)
        return mock_usage_error(&err, "mcp");
    if (help) {
        usage(stdout);
        return 0;
    }
    m.opts.http = http;
    m.opts.hub = mcp_hub_new((int64_t)listen_ms);
    if (!http) {
        FILE *log = NULL;
        if (f.requests && !(log = fopen(f.requests, "a"))) {
            fprintf(stderr, "ananke-mock mcp: %s: cannot open requests log: %s\n", f.requests,
                    strerror(errno));
            return 2;
        }
        /* a client that closes our stdout must not kill us with SIGPIPE */
        signal(SIGPIPE, SIG_IGN);
        int status = mcp_stdio_run(&m.opts, log);
        if (log)
            fclose(log);
        mcp_hub_free(m.opts.hub);
        return status;
    }
    mock_signals_setup(&stop_set);
    pthread_mutex_init(&m.lock, NULL);
    m.asks = mcp_asks_new();
    int status = mock_serve_run("mcp", &f, mcp_http_handle, &m, &stop_set);
    mcp_asks_free(m.asks);
    mcp_hub_free(m.opts.hub);
    pthread_mutex_destroy(&m.lock);
    free(m.ended);
    return status;
}
