#include "agui_server.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>

#include "agui_plan.h"
#include "agui_request.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"

/* Each connection is a thread; this bounds threads and file descriptors
 * when a client misbehaves (or a test opens many streams at once). */
/* enough for a test that holds hundreds of streams open at once */
#define CONNECTION_LIMIT 1024u
#define THREAD_STACK (256u * 1024u) /* a connection thread needs little */
/* Idle connections (no request bytes) are closed after this long. */
#define CONNECTION_TIMEOUT_S 120u
/* How often a sleeping or stalled stream looks at the stop flag and at the
 * client's socket: the brief's promise that SIGTERM exits promptly. */
#define POLL_SLICE_MS 100

struct agui_server {
    struct MHD_Daemon *d;
    struct agui_scenario *sc;
    struct mock_reqlog *log;
    size_t max_body;
    unsigned port;
    atomic_bool stopping;
    atomic_ulong seq; /* answers so far, for automatic ids */
};

/* Per request: the body as it arrives. Freed when MHD completes the request. */
struct req_state {
    struct an_buf body;
    bool too_big;
};

/* Per streamed answer: the rendered plan and how far it has been sent.
 * Owned by the MHD response, freed by its free callback. */
struct stream {
    struct agui_server *srv;
    struct MHD_Connection *conn;
    struct agui_plan plan;
    size_t i;   /* current action */
    size_t off; /* bytes of the current write already sent */
};

/* ---- plain answers -------------------------------------------------------- */

static enum MHD_Result send_bytes(struct MHD_Connection *c, unsigned status,
                                  const char *content_type, const char *data, size_t len,
                                  const struct agui_header *headers, size_t nheaders)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_MUST_COPY);
    if (!resp)
        return MHD_NO;
    if (content_type)
        MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    for (size_t i = 0; i < nheaders; i++)
        MHD_add_response_header(resp, headers[i].name, headers[i].value);
    enum MHD_Result rc = MHD_queue_response(c, status, resp);
    MHD_destroy_response(resp);
    return rc;
}

static enum MHD_Result send_error(struct MHD_Connection *c, unsigned status, const char *msg)
{
    json_t *j = json_pack("{s:s}", "error", msg);
    char *s = an_json_compact(j);
    json_decref(j);
    enum MHD_Result rc = send_bytes(c, status, "application/json", s, strlen(s), NULL, 0);
    free(s);
    return rc;
}

/* ---- the request log ------------------------------------------------------ */

static enum MHD_Result add_header(void *cls, enum MHD_ValueKind kind, const char *key,
                                  const char *value)
{
    json_t *obj = cls;
    (void)kind;
    if (!key)
        return MHD_YES;
    struct an_buf name = AN_BUF_INIT;
    for (const char *p = key; *p; p++)
        an_buf_putc(&name, (char)tolower((unsigned char)*p));
    const char *v = value ? value : "";
    /* A header sent twice is one comma-joined value, as HTTP allows. */
    const char *prev = an_json_str(obj, an_buf_cstr(&name));
    if (prev) {
        struct an_buf joined = AN_BUF_INIT;
        an_buf_printf(&joined, "%s, %s", prev, v);
        json_object_set_new(obj, an_buf_cstr(&name), an_json_lossy(joined.data, joined.len));
        an_buf_release(&joined);
    } else {
        json_object_set_new(obj, an_buf_cstr(&name), an_json_lossy(v, strlen(v)));
    }
    an_buf_release(&name);
    return MHD_YES;
}

/* `body` is the parsed JSON or NULL; `raw` the bytes as received or NULL. */
static void log_request(struct agui_server *srv, struct MHD_Connection *c, const char *method,
                        const char *url, const json_t *body, const struct an_buf *raw)
{
    if (!srv->log)
        return;
    json_t *line = json_object();
    json_t *headers = json_object();
    MHD_get_connection_values(c, MHD_HEADER_KIND, add_header, headers);
    json_object_set_new(line, "method", json_string(method));
    json_object_set_new(line, "path", an_json_lossy(url, strlen(url)));
    json_object_set_new(line, "headers", headers);
    if (body)
        json_object_set(line, "body", (json_t *)body);
    else if (raw && raw->len)
        json_object_set_new(line, "body", an_json_lossy(raw->data, raw->len));
    else
        json_object_set_new(line, "body", json_null());
    mock_reqlog_write(srv->log, line);
    json_decref(line);
}

/* ---- streaming ------------------------------------------------------------ */

/* True when the client closed its end. Waits up to `ms` for that to
 * happen, so it doubles as the sleep of delays and stalls. */
static bool peer_gone(struct stream *st, int ms)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(st->conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci) {
        an_sleep_ms(ms);
        return false;
    }
    struct pollfd pfd = {.fd = ci->connect_fd, .events = POLLIN};
    int64_t start = an_clock_mono_ms();
    int n = poll(&pfd, 1, ms);
    if (n <= 0)
        return false;
    if (pfd.revents & (POLLHUP | POLLERR | POLLNVAL))
        return true;
    char byte;
    ssize_t got = recv(ci->connect_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR))
        return true;
    /* The client sent more bytes (a pipelined request): poll would return at
     * once from now on, so sleep out the rest of the slice instead. */
    an_sleep_ms(ms - (an_clock_mono_ms() - start));
    return false;
}

/* Sleep `ms` (forever when ms < 0); false when the server is stopping or
 * the client went away, so the stream should be aborted. */
static bool wait_ms(struct stream *st, int64_t ms)
{
    int64_t deadline = an_clock_mono_ms() + ms;
    for (;;) {
        if (atomic_load(&st->srv->stopping))
            return false;
        int64_t slice = POLL_SLICE_MS;
        if (ms >= 0) {
            int64_t left = deadline - an_clock_mono_ms();
            if (left <= 0)
                return true;
            if (left < slice)
                slice = left;
        }
        if (peer_gone(st, (int)slice))
            return false;
    }
}

/* libmicrohttpd calls this whenever it can send more. Each call returns at
 * most one scripted write, so every event leaves in its own chunk, right
 * away; delays sleep here, which is fine with a thread per connection. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct stream *st = cls;
    (void)pos;
    while (st->i < st->plan.n) {
        if (atomic_load(&st->srv->stopping))
            return MHD_CONTENT_READER_END_WITH_ERROR;
        const struct agui_act *a = &st->plan.acts[st->i];
        switch (a->kind) {
        case AGUI_ACT_WRITE: {
            size_t left = a->len - st->off;
            if (left == 0) { /* an empty `raw` step: nothing to send */
                st->i++;
                st->off = 0;
                continue;
            }
            size_t n = left < max ? left : max;
            memcpy(buf, a->data + st->off, n);
            st->off += n;
            if (st->off == a->len) {
                st->i++;
                st->off = 0;
            }
            return (ssize_t)n;
        }
        case AGUI_ACT_SLEEP:
            if (!wait_ms(st, a->ms))
                return MHD_CONTENT_READER_END_WITH_ERROR;
            st->i++;
            continue;
        case AGUI_ACT_CUT:
            return MHD_CONTENT_READER_END_WITH_ERROR;
        case AGUI_ACT_STALL:
            wait_ms(st, -1);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        }
    }
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    agui_plan_release(&st->plan);
    free(st);
}

static enum MHD_Result send_stream(struct agui_server *srv, struct MHD_Connection *c,
                                   const struct agui_rule *rule, const struct agui_request *rq)
{
    unsigned long seq = atomic_fetch_add(&srv->seq, 1) + 1;
    char run_id[64] = "";
    if (!rq->run_id)
        snprintf(run_id, sizeof run_id, "mock-run-%lu", seq);
    struct agui_plan_input in = {.thread_id = rq->thread_id,
                                 .run_id = rq->run_id ? rq->run_id : run_id,
                                 .user_text = rq->view.user_text,
                                 .user_text_len = rq->view.user_text_len,
                                 .seq = seq};
    struct stream *st = an_xcalloc(1, sizeof *st);
    st->srv = srv;
    st->conn = c;
    agui_plan_build(&st->plan, rule, &in);
    struct MHD_Response *resp =
        MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024, stream_read, st,
                                          stream_free);
    if (!resp) {
        stream_free(st);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE,
                            rule ? rule->content_type : "text/event-stream");
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    if (rule)
        for (size_t i = 0; i < rule->nheaders; i++)
            MHD_add_response_header(resp, rule->headers[i].name, rule->headers[i].value);
    enum MHD_Result rc = MHD_queue_response(c, rule ? (unsigned)rule->status : 200u, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* ---- request dispatch ----------------------------------------------------- */

static enum MHD_Result answer_run(struct agui_server *srv, struct MHD_Connection *c,
                                  const char *url, struct req_state *rs)
{
    if (rs->too_big) {
        log_request(srv, c, "POST", url, NULL, NULL);
        char msg[96];
        snprintf(msg, sizeof msg, "request body larger than %zu bytes", srv->max_body);
        return send_error(c, MHD_HTTP_CONTENT_TOO_LARGE, msg);
    }
    char why[160];
    json_t *body = rs->body.len ? an_json_parse(rs->body.data, rs->body.len, why, sizeof why)
                                : NULL;
    log_request(srv, c, "POST", url, body, &rs->body);
    if (!rs->body.len)
        return send_error(c, MHD_HTTP_BAD_REQUEST, "empty body: expected a RunAgentInput JSON object");
    if (!body) {
        char msg[256];
        snprintf(msg, sizeof msg, "invalid JSON body: %s", why);
        return send_error(c, MHD_HTTP_BAD_REQUEST, msg);
    }
    if (!json_is_object(body)) {
        json_decref(body);
        return send_error(c, MHD_HTTP_BAD_REQUEST, "body must be a JSON object (RunAgentInput)");
    }
    struct agui_request rq;
    agui_request_read(&rq, body, url);
    const struct agui_rule *rule = agui_scenario_pick(srv->sc, &rq.view);
    enum MHD_Result rc;
    if (rule && rule->body)
        rc = send_bytes(c, (unsigned)rule->status, rule->content_type, rule->body,
                        rule->body_len, rule->headers, rule->nheaders);
    else
        rc = send_stream(srv, c, rule, &rq);
    agui_request_release(&rq);
    json_decref(body);
    return rc;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version,
                                  const char *upload_data, size_t *upload_data_size,
                                  void **con_cls)
{
    struct agui_server *srv = cls;
    struct req_state *rs = *con_cls;
    (void)version;
    if (!rs) {
        rs = an_xcalloc(1, sizeof *rs);
        an_buf_init(&rs->body, srv->max_body);
        *con_cls = rs;
        /* Refuse an announced oversize body before reading it (and before
         * `100 Continue`); a chunked one is caught as it arrives. */
        const char *cl =
            MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && !strcmp(method, MHD_HTTP_METHOD_POST)) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(cl, &end, 10);
            if (!errno && *end == '\0' && n > srv->max_body) {
                rs->too_big = true;
                return answer_run(srv, c, url, rs);
            }
        }
        return MHD_YES;
    }
    if (*upload_data_size) {
        if (!rs->too_big && an_buf_append(&rs->body, upload_data, *upload_data_size)) {
            rs->too_big = true;
            an_buf_release(&rs->body);
        }
        *upload_data_size = 0;
        return MHD_YES;
    }
    if (!strcmp(method, MHD_HTTP_METHOD_POST))
        return answer_run(srv, c, url, rs);
    /* Health checks are harness noise, not what the client under test sent,
     * so they stay out of the request log. */
    if (!strcmp(url, "/health") &&
        (!strcmp(method, MHD_HTTP_METHOD_GET) || !strcmp(method, MHD_HTTP_METHOD_HEAD)))
        return send_bytes(c, MHD_HTTP_OK, "text/plain", "ok", 2, NULL, 0);
    log_request(srv, c, method, url, NULL, &rs->body);
    struct agui_header allow = {"Allow", "POST"};
    json_t *j = json_pack("{s:s}", "error", "method not allowed: AG-UI runs are POST requests");
    char *s = an_json_compact(j);
    json_decref(j);
    enum MHD_Result rc =
        send_bytes(c, MHD_HTTP_METHOD_NOT_ALLOWED, "application/json", s, strlen(s), &allow, 1);
    free(s);
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

int agui_server_start(struct agui_server **out, struct agui_scenario *sc,
                      const struct agui_server_opts *opts, struct an_err *err)
{
    struct agui_server *srv = an_xcalloc(1, sizeof *srv);
    srv->sc = sc;
    srv->log = opts->log;
    srv->max_body = opts->max_body;
    atomic_init(&srv->stopping, false);
    atomic_init(&srv->seq, 0);
    /* Loopback only: a scripted agent must never be reachable from outside. */
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)opts->port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    srv->d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL,
        (uint16_t)opts->port, NULL, NULL, on_request, srv, MHD_OPTION_SOCK_ADDR,
        (struct sockaddr *)&sa, MHD_OPTION_CONNECTION_LIMIT, CONNECTION_LIMIT,
        MHD_OPTION_CONNECTION_TIMEOUT, CONNECTION_TIMEOUT_S, MHD_OPTION_THREAD_STACK_SIZE,
        (size_t)THREAD_STACK, MHD_OPTION_LISTENING_ADDRESS_REUSE, 1u, MHD_OPTION_LISTEN_BACKLOG_SIZE,
        1024u, MHD_OPTION_NOTIFY_COMPLETED,
        on_completed, srv, MHD_OPTION_END);
    if (!srv->d) {
        free(srv);
        return an_fail(err, AN_EIO, NULL, "cannot listen on 127.0.0.1:%u (port in use?)",
                       opts->port);
    }
    const union MHD_DaemonInfo *di = MHD_get_daemon_info(srv->d, MHD_DAEMON_INFO_LISTEN_FD);
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    if (!di || getsockname(di->listen_fd, (struct sockaddr *)&bound, &blen) != 0) {
        MHD_stop_daemon(srv->d);
        free(srv);
        return an_fail(err, AN_EIO, NULL, "cannot read the bound port: %s", strerror(errno));
    }
    srv->port = ntohs(bound.sin_port);
    *out = srv;
    return 0;
}

unsigned agui_server_port(const struct agui_server *s)
{
    return s->port;
}

void agui_server_stop(struct agui_server *s)
{
    if (!s)
        return;
    atomic_store(&s->stopping, true);
    MHD_stop_daemon(s->d);
    free(s);
}
