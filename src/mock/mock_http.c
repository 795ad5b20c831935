#include "mock_http.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/port.h"

/* Each connection is a thread; this bounds threads and file descriptors
 * when a client misbehaves (or a test opens many streams at once). */
/* enough for a test that holds hundreds of streams open at once */
#define CONNECTION_LIMIT 1024u
#define THREAD_STACK (256u * 1024u) /* a connection thread needs little */
/* Idle connections (no request bytes) are closed after this long. */
#define CONNECTION_TIMEOUT_S 120u
/* How often a sleeping or stalled stream looks at the stop flag and at the
 * client's socket: the promise that SIGTERM exits promptly. */
#define POLL_SLICE_MS 100
#define AWAIT_SLICE_MS 10 /* how often an awaited answer is looked for */

struct mock_http {
    struct MHD_Daemon *d;
    mock_http_handler handle;
    void *ctx;
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

/* Per streamed answer: the plan and how far it has been sent. Owned by the
 * MHD response, freed by its free callback. */
struct stream {
    struct mock_http *srv;
    struct MHD_Connection *conn;
    struct mock_plan plan;
    size_t i;   /* current action */
    size_t off; /* bytes of the current write already sent */
};

/* ---- plain answers -------------------------------------------------------- */

enum MHD_Result mock_http_send(struct MHD_Connection *c, unsigned status, const char *content_type,
                               const char *data, size_t len, const struct mock_header *headers,
                               size_t nheaders)
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

enum MHD_Result mock_http_send_json(struct MHD_Connection *c, unsigned status, json_t *j,
                                    const struct mock_header *headers, size_t nheaders)
{
    char *s = an_json_compact(j);
    json_decref(j);
    enum MHD_Result rc =
        mock_http_send(c, status, "application/json", s, strlen(s), headers, nheaders);
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

void mock_http_log(struct mock_http *s, const struct mock_http_req *rq, const json_t *body)
{
    if (!s->log)
        return;
    json_t *line = json_object();
    json_t *headers = json_object();
    MHD_get_connection_values(rq->conn, MHD_HEADER_KIND, add_header, headers);
    json_object_set_new(line, "method", json_string(rq->method));
    json_object_set_new(line, "path", an_json_lossy(rq->url, strlen(rq->url)));
    json_object_set_new(line, "headers", headers);
    if (body)
        json_object_set(line, "body", (json_t *)body);
    else if (rq->body_len)
        json_object_set_new(line, "body", an_json_lossy(rq->body, rq->body_len));
    else
        json_object_set_new(line, "body", json_null());
    mock_reqlog_write(s->log, line);
    json_decref(line);
}

json_t *mock_http_json_body(struct mock_http *s, const struct mock_http_req *rq, char *why,
                            size_t why_size)
{
    json_t *body = NULL;
    if (!rq->too_big && rq->body_len)
        body = an_json_parse(rq->body, rq->body_len, why, why_size);
    mock_http_log(s, rq, body);
    return body;
}

json_t *mock_http_read_json(struct mock_http *s, const struct mock_http_req *rq, unsigned *status,
                            char *msg, size_t msg_size)
{
    json_t *body = mock_http_json_body(s, rq, msg, msg_size);
    if (body)
        return body;
    *status = rq->too_big ? MHD_HTTP_CONTENT_TOO_LARGE : MHD_HTTP_BAD_REQUEST;
    if (rq->too_big)
        snprintf(msg, msg_size, "request body larger than %zu bytes", s->max_body);
    else if (!rq->body_len)
        snprintf(msg, msg_size, "empty body");
    return NULL;
}

/* ---- waiting ------------------------------------------------------------------ */

/* True when the client closed its end. Waits up to `ms` for that to
 * happen, so it doubles as the sleep of delays and stalls. */
static bool peer_gone(struct MHD_Connection *c, int ms)
{
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
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

bool mock_http_wait(struct mock_http *s, struct MHD_Connection *c, int64_t ms)
{
    int64_t deadline = an_clock_mono_ms() + ms;
    for (;;) {
        if (atomic_load(&s->stopping))
            return false;
        int64_t slice = POLL_SLICE_MS;
        if (ms >= 0) {
            int64_t left = deadline - an_clock_mono_ms();
            if (left <= 0)
                return true;
            if (left < slice)
                slice = left;
        }
        if (peer_gone(c, (int)slice))
            return false;
    }
}

/* ---- streaming ------------------------------------------------------------ */

/* libmicrohttpd calls this whenever it can send more. Each call returns at
 * most one scripted write, so every write leaves in its own chunk, right
 * away; sleeps happen here, which is fine with a thread per connection. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    struct stream *st = cls;
    (void)pos;
    while (st->i < st->plan.n) {
        if (atomic_load(&st->srv->stopping))
            return MHD_CONTENT_READER_END_WITH_ERROR;
        const struct mock_act *a = &st->plan.acts[st->i];
        switch (a->kind) {
        case MOCK_ACT_WRITE: {
            size_t left = a->len - st->off;
            if (left == 0) { /* an empty write: nothing to send */
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
        case MOCK_ACT_SLEEP:
            if (!mock_http_wait(st->srv, st->conn, a->ms))
                return MHD_CONTENT_READER_END_WITH_ERROR;
            st->i++;
            continue;
        case MOCK_ACT_CUT:
            return MHD_CONTENT_READER_END_WITH_ERROR;
        case MOCK_ACT_STALL:
            mock_http_wait(st->srv, st->conn, -1);
            return MHD_CONTENT_READER_END_WITH_ERROR;
        case MOCK_ACT_AWAIT: { /* once ready, the bytes are this action's write */
            struct mock_act *w = &st->plan.acts[st->i];
            size_t n = 0;
            char *d = w->await(w->ud, &n);
            if (!d) {
                if (!mock_http_wait(st->srv, st->conn, AWAIT_SLICE_MS))
                    return MHD_CONTENT_READER_END_WITH_ERROR;
                continue;
            }
            if (w->drop)
                w->drop(w->ud);
            *w = (struct mock_act){.kind = MOCK_ACT_WRITE, .data = d, .len = n};
            continue;
        }
        }
    }
    return MHD_CONTENT_READER_END_OF_STREAM;
}

static void stream_free(void *cls)
{
    struct stream *st = cls;
    mock_plan_release(&st->plan);
    free(st);
}

enum MHD_Result mock_http_send_plan(struct mock_http *s, struct MHD_Connection *c, unsigned status,
                                    const char *content_type, const struct mock_header *headers,
                                    size_t nheaders, struct mock_plan *plan)
{
    struct stream *st = an_xcalloc(1, sizeof *st);
    st->srv = s;
    st->conn = c;
    st->plan = *plan;
    memset(plan, 0, sizeof *plan);
    struct MHD_Response *resp = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16 * 1024,
                                                                  stream_read, st, stream_free);
    if (!resp) {
        stream_free(st);
        return MHD_NO;
    }
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, content_type);
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL, "no-cache");
    for (size_t i = 0; i < nheaders; i++)
        MHD_add_response_header(resp, headers[i].name, headers[i].value);
    enum MHD_Result rc = MHD_queue_response(c, status, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* ---- request dispatch ----------------------------------------------------- */

static enum MHD_Result call_handler(struct mock_http *s, struct MHD_Connection *c, const char *url,
                                    const char *method, struct req_state *rs)
{
    struct mock_http_req rq = {.conn = c,
                               .method = method,
                               .url = url,
                               .body = an_buf_cstr(&rs->body),
                               .body_len = rs->body.len,
                               .too_big = rs->too_big};
    return s->handle(s->ctx, s, &rq);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url,
                                  const char *method, const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    struct mock_http *s = cls;
    struct req_state *rs = *con_cls;
    (void)version;
    if (!rs) {
        rs = an_xcalloc(1, sizeof *rs);
        an_buf_init(&rs->body, s->max_body);
        *con_cls = rs;
        /* Refuse an announced oversize body before reading it (and before
         * `100 Continue`); a chunked one is caught as it arrives. */
        const char *cl =
            MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (cl && !strcmp(method, MHD_HTTP_METHOD_POST)) {
            char *end;
            errno = 0;
            unsigned long long n = strtoull(cl, &end, 10);
            if (!errno && *end == '\0' && n > s->max_body) {
                rs->too_big = true;
                return call_handler(s, c, url, method, rs);
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
    return call_handler(s, c, url, method, rs);
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

int mock_http_start(struct mock_http **out, const struct mock_http_opts *opts, struct an_err *err)
{
    struct mock_http *s = an_xcalloc(1, sizeof *s);
    s->handle = opts->handle;
    s->ctx = opts->ctx;
    s->log = opts->log;
    s->max_body = opts->max_body;
    atomic_init(&s->stopping, false);
    atomic_init(&s->seq, 0);
    /* Loopback only: a scripted agent must never be reachable from outside.
     * The socket is ours, bound without SO_REUSEPORT: a second mock on a
     * port already bound must fail, not share the traffic with the first
     * (SO_REUSEADDR alone lets a port in TIME_WAIT be reused, never one
     * that a listener holds). */
    struct sockaddr_in sa;
    memset(&sa, 0, sizeof sa);
    sa.sin_family = AF_INET;
    sa.sin_port = htons((uint16_t)opts->port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int one = 1;
    int fd = an_port_socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0 || setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
        bind(fd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(fd, 1024) != 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        free(s);
        if (e == EADDRINUSE)
            return an_fail(err, AN_EIO, NULL,
                           "port %u is already in use on 127.0.0.1: another server listens "
                           "there (choose another --port, or 0 for a free one)",
                           opts->port);
        return an_fail(err, AN_EIO, NULL, "cannot listen on 127.0.0.1:%u: %s", opts->port,
                       strerror(e));
    }
    /* the port before the first request: a client that polls a --port it
     * chose can connect as soon as the daemon runs, and the answers (an
     * A2A card's URLs) name this port */
    struct sockaddr_in bound;
    socklen_t blen = sizeof bound;
    if (getsockname(fd, (struct sockaddr *)&bound, &blen) != 0) {
        int e = errno;
        close(fd);
        free(s);
        return an_fail(err, AN_EIO, NULL, "cannot read the bound port: %s", strerror(e));
    }
    s->port = ntohs(bound.sin_port);
    s->d = MHD_start_daemon(
        MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL,
        (uint16_t)opts->port, NULL, NULL, on_request, s, MHD_OPTION_LISTEN_SOCKET, fd,
        MHD_OPTION_CONNECTION_LIMIT, CONNECTION_LIMIT, MHD_OPTION_CONNECTION_TIMEOUT,
        CONNECTION_TIMEOUT_S, MHD_OPTION_THREAD_STACK_SIZE, (size_t)THREAD_STACK,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, s, MHD_OPTION_END);
    if (!s->d) {
        free(s);
        return an_fail(err, AN_EIO, NULL, "cannot serve on 127.0.0.1:%u", opts->port);
    }
    *out = s;
    return 0;
}

unsigned mock_http_port(const struct mock_http *s)
{
    return s->port;
}

size_t mock_http_max_body(const struct mock_http *s)
{
    return s->max_body;
}

unsigned long mock_http_next_seq(struct mock_http *s)
{
    return atomic_fetch_add(&s->seq, 1) + 1;
}

void mock_http_stop(struct mock_http *s)
{
    if (!s)
        return;
    atomic_store(&s->stopping, true);
    MHD_stop_daemon(s->d);
    free(s);
}
