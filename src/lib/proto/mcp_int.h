/* Internals shared by mcp.c (turns), mcp_conn.c (the connection, the
 * handshake, the server's requests) and mcp_http.c (Streamable HTTP). */
#ifndef ANANKE_PROTO_MCP_INT_H
#define ANANKE_PROTO_MCP_INT_H

#include <poll.h>

#include "proto/jsonrpc.h"
#include "proto/mcp.h"

/* ---- mcp_http.c: Streamable HTTP, one POST per message ---- */

struct mcp_http;

struct mcp_http_cbs {
    void *ud;
    /* One JSON-RPC message (or batch) the server sent, as text: a JSON body
     * or one SSE event's data. */
    void (*on_text)(void *ud, const char *text, size_t len, int64_t unix_ms);
    /* A POST failed (HTTP status, connection, cap). `id` is the request id
     * it carried (-1: a notification or a response); `http_status` 0 when
     * no answer came. */
    void (*on_fail)(void *ud, int64_t id, int code, int http_status, const char *why);
};

/* max_message: one JSON body or SSE event's bytes; 0: AN_RPC_MAX_FRAME. */
int mcp_http_new(struct mcp_http **out, const char *endpoint, const struct an_kv *headers,
                 size_t nheaders, size_t max_message, const struct mcp_http_cbs *cbs,
                 struct an_err *err);
/* One response body's cap (max_body_bytes), for the POSTs started from now
 * on; 0: AN_HTTP_DEFAULT_MAX_BODY (the default until set). */
void mcp_http_set_max_body(struct mcp_http *h, size_t max_body);
/* Queue a POST of `body` (copied). `id`: the request id it carries, or -1.
 * It goes out at mcp_http_flush() or the next mcp_http_handle(): never
 * inside this call, so no answer can arrive before the caller has noted
 * what it sent. */
int mcp_http_post(struct mcp_http *h, const char *body, size_t len, int64_t id, struct an_err *err);
/* Start what is queued (a no-op inside a callback: handle() does it). */
void mcp_http_flush(struct mcp_http *h);
/* The GET that opens the server's own stream (its requests and
 * notifications that belong to no request of ours), after initialize. Its
 * end is reported to on_fail with this id; a server without one answers 405. */
#define MCP_HTTP_STREAM (-3)
int mcp_http_open_stream(struct mcp_http *h, struct an_err *err);
/* Sent with every later POST (and the DELETE) once known. */
void mcp_http_set_version(struct mcp_http *h, const char *version);
const char *mcp_http_session_id(const struct mcp_http *h); /* NULL: none minted */
size_t mcp_http_fds(struct mcp_http *h, struct pollfd *out, size_t max);
/* Drive the transfers (whatever the fds allow; cheap when nothing is ready). */
void mcp_http_handle(struct mcp_http *h);
size_t mcp_http_inflight(const struct mcp_http *h);
/* Ends the session (DELETE with its id, a short blocking request) and
 * frees everything. NULL-safe. */
void mcp_http_free(struct mcp_http *h);

/* ---- mcp_conn.c: the connection the turns use ---- */

struct mcp_conn;

enum mcp_conn_state { MCP_NEW = 0, MCP_INIT, MCP_READY, MCP_BROKEN };

struct mcp_conn_cbs {
    void *ud;
    /* A response to one of our requests other than initialize (known or not). */
    void (*on_response)(void *ud, const struct an_rpc_msg *m);
    /* The handshake is done: requests may go. */
    void (*on_ready)(void *ud);
    /* The connection is lost or unusable (the handshake failed, the server
     * exited, an HTTP request failed): code and a sentence. Once. */
    void (*on_broken)(void *ud, int code, const char *why);
    /* Every frame both ways ("> " we sent, "< " the server did), and
     * oddities that do not break anything. */
    void (*on_frame)(void *ud, enum an_rpc_dir dir, const char *line, size_t len, int64_t unix_ms);
    void (*on_warning)(void *ud, const char *what);
};

int mcp_conn_new(struct mcp_conn **out, const struct an_mcp_opts *o, const struct mcp_conn_cbs *cbs,
                 struct an_err *err);
void mcp_conn_free(struct mcp_conn *c); /* ends the server or the HTTP session */
enum mcp_conn_state mcp_conn_state(const struct mcp_conn *c);
/* Send initialize (MCP_NEW -> MCP_INIT); on_ready or on_broken follows. */
int mcp_conn_start(struct mcp_conn *c, struct an_err *err);
/* A request of ours; *id gets its id. params borrowed, NULL: omitted. */
int mcp_conn_request(struct mcp_conn *c, const char *method, const json_t *params, int64_t *id,
                     struct an_err *err);
int mcp_conn_notify(struct mcp_conn *c, const char *method, const json_t *params,
                    struct an_err *err);
/* Requests, notifications and answers are queued; this sends them now. Call
 * it once what was sent is noted: an answer may arrive inside it. */
void mcp_conn_flush(struct mcp_conn *c);
size_t mcp_conn_fds(struct mcp_conn *c, struct pollfd *out, size_t max);
void mcp_conn_handle(struct mcp_conn *c, const struct pollfd *p, size_t n);
const char *mcp_conn_version(const struct mcp_conn *c); /* negotiated; NULL before */

#endif
