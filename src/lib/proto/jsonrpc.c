/* JSON-RPC 2.0 over NDJSON: framing, classification, id matching, a
 * non-blocking write queue, the peer's stderr log. */
#include "proto/jsonrpc.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"

#define SCRATCH_SIZE ((size_t)64 << 10)
/* Reads per fd per handle() call, so a flood cannot starve other peers in
 * the same loop. */
#define READS_PER_WAKE 16
/* After stdout EOF, how long to wait for the child's exit status. */
#define EXIT_LINGER_MS 200
#define REASON_MAX 512

struct an_rpc {
    struct an_rpc_cbs cbs;
    size_t max_frame, max_queue, stderr_max;
    int64_t grace_ms;
    char peer[32];
    char frame_key[40]; /* " (max_frame_bytes)" or "" */

    bool has_child;
    struct an_child child;
    int rfd, wfd; /* child mode: the child's out_fd / in_fd */

    struct an_buf line; /* the frame being assembled */
    bool line_over;     /* the current line crossed max_frame */
    struct an_buf out;  /* unsent bytes */
    struct an_buf errlog;
    size_t err_dropped;
    char *scratch;

    /* our ids awaiting a response: the integers we chose (or an_rpc_send
     * was given) in a plain array, any other id (an_rpc_send) in a JSON
     * array, NULL until one is sent */
    int64_t *pend;
    size_t npend, pend_cap;
    json_t *pend_other;
    int64_t next_id;

    /* the outbound frame being built; a send from inside on_frame (which
     * runs while it is in use) builds its own */
    struct an_buf wire;
    bool wire_busy;

    bool no_message; /* opts: scan the envelope, no m.json */
    bool eof, write_dead;
    enum an_rpc_close_kind closed;
    char reason[REASON_MAX];
};

static void init_common(struct an_rpc *rpc, const struct an_rpc_opts *o,
                        const struct an_rpc_cbs *cbs)
{
    if (cbs)
        rpc->cbs = *cbs;
    rpc->max_frame = o && o->max_frame ? o->max_frame : AN_RPC_MAX_FRAME;
    rpc->max_queue = o && o->max_queue ? o->max_queue : AN_RPC_MAX_QUEUE;
    rpc->stderr_max = o && o->stderr_max ? o->stderr_max : AN_RPC_STDERR_MAX;
    rpc->grace_ms = o && o->grace_ms > 0 ? o->grace_ms : AN_CHILD_GRACE_MS;
    snprintf(rpc->peer, sizeof rpc->peer, "%s", o && o->peer_name ? o->peer_name : "agent");
    rpc->no_message = o && o->no_message;
    if (o && o->max_frame_key)
        snprintf(rpc->frame_key, sizeof rpc->frame_key, " (%s)", o->max_frame_key);
    rpc->child = (struct an_child)AN_CHILD_INIT;
    rpc->rfd = rpc->wfd = -1;
    an_buf_init(&rpc->line, 0);
    an_buf_init(&rpc->out, 0);
    an_buf_init(&rpc->errlog, 0);
    an_buf_init(&rpc->wire, 0);
    rpc->scratch = an_xmalloc(SCRATCH_SIZE);
    /* SIGPIPE's once-per-process set-up now, not at the first write */
    an_sigpipe_ignore();
}

int an_rpc_spawn(struct an_rpc **out, const struct an_child_opts *co,
                 const struct an_rpc_opts *opts, const struct an_rpc_cbs *cbs, struct an_err *err)
{
    *out = NULL;
    struct an_rpc *rpc = an_xcalloc(1, sizeof *rpc);
    init_common(rpc, opts, cbs);
    struct an_child_opts o = *co;
    o.stdin_null = false;
    o.merge_stderr = false;
    int rc = an_child_spawn(&rpc->child, &o, err);
    if (rc != AN_OK) {
        an_rpc_free(rpc);
        return rc;
    }
    rpc->has_child = true;
    rpc->rfd = rpc->child.out_fd;
    rpc->wfd = rpc->child.in_fd;
    *out = rpc;
    return AN_OK;
}

int an_rpc_new_fds(struct an_rpc **out, int rfd, int wfd, const struct an_rpc_opts *opts,
                   const struct an_rpc_cbs *cbs, struct an_err *err)
{
    *out = NULL;
    if (rfd < 0 || wfd < 0)
        return an_fail(err, AN_EUSAGE, NULL, "json-rpc peer needs two valid fds");
    if (an_fd_nonblock(rfd) || an_fd_nonblock(wfd))
        return an_fail(err, AN_EIO, NULL, "cannot make the peer's fds non-blocking: %s",
                       strerror(errno));
    struct an_rpc *rpc = an_xcalloc(1, sizeof *rpc);
    init_common(rpc, opts, cbs);
    rpc->rfd = rfd;
    rpc->wfd = wfd;
    *out = rpc;
    return AN_OK;
}

void an_rpc_free(struct an_rpc *rpc)
{
    if (!rpc)
        return;
    if (rpc->has_child)
        an_child_close(&rpc->child, rpc->grace_ms);
    an_buf_release(&rpc->line);
    an_buf_release(&rpc->out);
    an_buf_release(&rpc->errlog);
    an_buf_release(&rpc->wire);
    free(rpc->scratch);
    free(rpc->pend);
    json_decref(rpc->pend_other);
    free(rpc);
}

/* ---- closure ---------------------------------------------------------- */

static void read_stderr(struct an_rpc *rpc);

static void close_with(struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void close_with(struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *fmt, ...)
{
    if (rpc->closed)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rpc->reason, sizeof rpc->reason, fmt, ap);
    va_end(ap);
    rpc->closed = kind;
    an_buf_reset(&rpc->out);
    if (rpc->has_child)
        read_stderr(rpc); /* the log should hold the last words */
    if (rpc->cbs.on_close)
        rpc->cbs.on_close(rpc->cbs.ud, rpc, kind, rpc->reason);
}

void an_rpc_close_now(struct an_rpc *rpc, const char *reason)
{
    close_with(rpc, AN_RPC_CLOSE_LOCAL, "%s", reason ? reason : "closed by the client");
}

/* The child closed its stdout: give it a moment to exit so the reason can
 * say how it ended. */
static void close_at_eof(struct an_rpc *rpc)
{
    if (!rpc->has_child) {
        close_with(rpc, AN_RPC_CLOSE_EOF, "%s closed the connection", rpc->peer);
        return;
    }
    int64_t until = an_clock_mono_ms() + EXIT_LINGER_MS;
    while (!an_child_reap(&rpc->child, true)) {
        int64_t left = until - an_clock_mono_ms();
        if (left <= 0)
            break;
        if (rpc->child.pid_fd >= 0) {
            struct pollfd p = {.fd = rpc->child.pid_fd, .events = POLLIN};
            poll(&p, 1, (int)left);
        } else {
            an_sleep_ms(left < 5 ? left : 5);
        }
    }
    char st[96];
    if (rpc->child.exited)
        close_with(rpc, AN_RPC_CLOSE_EXITED, "%s %s", rpc->peer,
                   an_child_status_str(&rpc->child, st, sizeof st));
    else
        close_with(rpc, AN_RPC_CLOSE_EOF, "%s closed its stdout", rpc->peer);
}

/* ---- inbound ---------------------------------------------------------- */

static void warn(struct an_rpc *rpc, const char *line, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void warn(struct an_rpc *rpc, const char *line, size_t len, const char *fmt, ...)
{
    if (!rpc->cbs.on_warning)
        return;
    char what[REASON_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    rpc->cbs.on_warning(rpc->cbs.ud, rpc, what, line, len);
}

static void pend_add_int(struct an_rpc *rpc, int64_t id)
{
    if (rpc->npend == rpc->pend_cap) {
        rpc->pend_cap = rpc->pend_cap ? rpc->pend_cap * 2 : 16;
        rpc->pend = an_xrealloc(rpc->pend, rpc->pend_cap * sizeof *rpc->pend);
    }
    rpc->pend[rpc->npend++] = id;
}

/* json_equal semantics: an integer id matches only the same integer (not
 * 1.0, not "1"), anything else only an equal value. */
static bool settle_pending(struct an_rpc *rpc, const json_t *id)
{
    if (json_is_integer(id)) {
        int64_t v = json_integer_value(id);
        for (size_t i = rpc->npend; i-- > 0;)
            if (rpc->pend[i] == v) {
                rpc->pend[i] = rpc->pend[--rpc->npend]; /* the order does not matter */
                return true;
            }
        return false;
    }
    size_t i;
    json_t *v;
    json_array_foreach(rpc->pend_other, i, v)
    {
        if (json_equal(v, (json_t *)id)) {
            json_array_remove(rpc->pend_other, i);
            return true;
        }
    }
    return false;
}

/* The whole message as a jansson object (m.json), its members borrowed
 * into *mb; NULL after a warning when it is not one. */
static json_t *parse_whole(struct an_rpc *rpc, const char *line, size_t len,
                           struct an_rpc_members *mb)
{
    char why[200];
    json_t *j = an_json_parse(line, len, why, sizeof why);
    if (!j) {
        warn(rpc, line, len, "invalid JSON: %s", why);
        return NULL;
    }
    if (!json_is_object(j)) {
        warn(rpc, line, len,
             json_is_array(j) ? "batch (JSON array) received: ACP has no batches"
                              : "message is not a JSON object");
        json_decref(j);
        return NULL;
    }
    an_rpc_members_of(j, mb);
    return j;
}

static void dispatch(struct an_rpc *rpc, const char *line, size_t len, int64_t now)
{
    struct an_rpc_members mb = {0};
    json_t *j = NULL;
    if (!rpc->no_message || !an_rpc_scan(line, len, &mb)) {
        if (!(j = parse_whole(rpc, line, len, &mb)))
            return;
    }
    struct an_rpc_msg m = {.json = j, .unix_ms = now, .id = mb.id, .params = mb.params};
    json_t *method = mb.method;
    if (method) {
        if (!json_is_string(method)) {
            warn(rpc, line, len, "method is not a string");
        } else if (m.id) {
            m.kind = AN_RPC_REQUEST;
            m.method = json_string_value(method);
            if (rpc->cbs.on_request)
                rpc->cbs.on_request(rpc->cbs.ud, rpc, &m);
            else
                an_rpc_reply_error(rpc, m.id, AN_RPC_METHOD_NOT_FOUND, "Method not found", NULL,
                                   NULL);
        } else {
            m.kind = AN_RPC_NOTIFICATION;
            m.method = json_string_value(method);
            if (rpc->cbs.on_notification)
                rpc->cbs.on_notification(rpc->cbs.ud, rpc, &m);
        }
    } else if (m.id && (mb.result || mb.error)) {
        m.kind = AN_RPC_RESPONSE;
        m.params = NULL;
        m.result = mb.result;
        m.error = mb.error;
        m.known = settle_pending(rpc, m.id);
        if (!m.known) {
            char *ids = an_json_compact(m.id);
            warn(rpc, line, len, "response to unknown id %s", ids);
            free(ids);
        }
        if (rpc->cbs.on_response)
            rpc->cbs.on_response(rpc->cbs.ud, rpc, &m);
    } else {
        warn(rpc, line, len, "message is neither a request, a notification nor a response");
    }
    if (j)
        json_decref(j); /* the members were borrowed from it */
    else
        an_rpc_members_release(&mb);
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

/* One complete line (without its '\n'). */
static void take_line(struct an_rpc *rpc, const char *p, size_t n)
{
    while (n && is_space(*p))
        p++, n--;
    while (n && is_space(p[n - 1]))
        n--;
    if (!n)
        return;
    int64_t now = an_clock_unix_ms();
    if (rpc->cbs.on_frame)
        rpc->cbs.on_frame(rpc->cbs.ud, rpc, AN_RPC_IN, p, n, now);
    if (!rpc->closed)
        dispatch(rpc, p, n, now);
}

static void oversize(struct an_rpc *rpc)
{
    close_with(rpc, AN_RPC_CLOSE_OVERSIZE, "%s sent a frame over the %zu-byte cap%s", rpc->peer,
               rpc->max_frame, rpc->frame_key);
}

/* Split a chunk into lines; a line's bytes before trimming count to the cap. */
static void feed(struct an_rpc *rpc, const char *p, size_t n)
{
    while (n && !rpc->closed) {
        const char *nl = memchr(p, '\n', n);
        size_t seg = nl ? (size_t)(nl - p) : n;
        if (rpc->line.len + seg > rpc->max_frame) {
            oversize(rpc);
            return;
        }
        if (nl) {
            if (rpc->line.len) {
                an_buf_append(&rpc->line, p, seg);
                /* the callbacks may re-enter; take the line out first */
                size_t len;
                char *l = an_buf_detach(&rpc->line, &len);
                take_line(rpc, l, len);
                free(l);
            } else {
                take_line(rpc, p, seg);
            }
            p += seg + 1;
            n -= seg + 1;
        } else {
            an_buf_append(&rpc->line, p, seg);
            n = 0;
        }
    }
}

static void read_stderr(struct an_rpc *rpc)
{
    for (int i = 0; i < READS_PER_WAKE && rpc->child.err_fd >= 0; i++) {
        ssize_t n = read(rpc->child.err_fd, rpc->scratch, SCRATCH_SIZE);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n <= 0) {
            close(rpc->child.err_fd);
            rpc->child.err_fd = -1;
            return;
        }
        an_buf_append(&rpc->errlog, rpc->scratch, (size_t)n);
        if (rpc->errlog.len > rpc->stderr_max) {
            size_t drop = rpc->errlog.len - rpc->stderr_max;
            an_buf_consume(&rpc->errlog, drop);
            rpc->err_dropped += drop;
        }
    }
}

static void read_frames(struct an_rpc *rpc)
{
    for (int i = 0; i < READS_PER_WAKE && !rpc->closed && !rpc->eof; i++) {
        ssize_t n = read(rpc->rfd, rpc->scratch, SCRATCH_SIZE);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        if (n < 0) {
            int e = errno;
            close_with(rpc, AN_RPC_CLOSE_IO, "reading from %s: %s", rpc->peer, strerror(e));
            return;
        }
        if (n == 0) {
            rpc->eof = true;
            /* a last line without '\n' */
            if (rpc->line.len) {
                size_t len;
                char *l = an_buf_detach(&rpc->line, &len);
                take_line(rpc, l, len);
                free(l);
            }
            if (!rpc->closed)
                close_at_eof(rpc);
            return;
        }
        /* frames are copied out of scratch before any callback runs (one
         * may read stderr into it, or pump); a small chunk on the stack */
        char small[4096];
        char *chunk = (size_t)n <= sizeof small ? small : an_xmalloc((size_t)n);
        memcpy(chunk, rpc->scratch, (size_t)n);
        feed(rpc, chunk, (size_t)n);
        if (chunk != small)
            free(chunk);
        /* A short read drained the pipe: the next read would only say
         * EAGAIN (a syscall per frame); poll (level-triggered) calls again
         * when more arrives. */
        if ((size_t)n < SCRATCH_SIZE)
            return;
    }
}

/* ---- outbound --------------------------------------------------------- */

static void flush(struct an_rpc *rpc)
{
    while (rpc->out.len && !rpc->write_dead) {
        ssize_t w = an_write_nosigpipe(rpc->wfd, rpc->out.data, rpc->out.len);
        if (w > 0) {
            an_buf_consume(&rpc->out, (size_t)w);
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            /* EPIPE: the peer stopped reading; what it still says is read */
            rpc->write_dead = true;
            an_buf_reset(&rpc->out);
        }
    }
}

/* The frame buffer for one send: rpc->wire, or *local when a send is
 * already building there (a send from inside on_frame). */
static struct an_buf *frame_begin(struct an_rpc *rpc, struct an_buf *local)
{
    an_buf_init(local, 0);
    if (rpc->wire_busy)
        return local;
    rpc->wire_busy = true;
    an_buf_reset(&rpc->wire);
    return &rpc->wire;
}

static void frame_end(struct an_rpc *rpc, struct an_buf *b)
{
    if (b == &rpc->wire)
        rpc->wire_busy = false;
    /* kept for the next frame, unless a big one grew it */
    if (b != &rpc->wire || b->cap > SCRATCH_SIZE)
        an_buf_release(b);
}

/* Send the frame b holds (without its '\n'). It is written at once when
 * nothing is queued before it, else queued behind what is. */
static int send_frame(struct an_rpc *rpc, struct an_buf *b, struct an_err *err)
{
    size_t len = b->len;
    if (rpc->closed)
        return an_fail(err, AN_EIO, NULL, "cannot send to %s: %s", rpc->peer, rpc->reason);
    if (rpc->write_dead)
        return an_fail(err, AN_EIO, NULL, "cannot send to %s: it closed its input", rpc->peer);
    if (len + 1 > rpc->max_queue || rpc->out.len > rpc->max_queue - len - 1) {
        close_with(rpc, AN_RPC_CLOSE_IO,
                   "%s does not read its input: more than %zu bytes waiting to be sent", rpc->peer,
                   rpc->max_queue);
        return an_fail(err, AN_ELIMIT, NULL, "%s", rpc->reason);
    }
    int64_t now = an_clock_unix_ms();
    an_buf_putc(b, '\n');
    size_t done = 0;
    bool queued = rpc->out.len > 0;
    while (!queued && done < len + 1) {
        ssize_t w = an_write_nosigpipe(rpc->wfd, b->data + done, len + 1 - done);
        if (w > 0) {
            done += (size_t)w;
        } else if (w < 0 && errno == EINTR) {
            continue;
        } else {
            if (!(w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))) {
                /* EPIPE: the peer stopped reading; what it still says is read */
                rpc->write_dead = true;
                done = len + 1;
            }
            break;
        }
    }
    if (done < len + 1)
        an_buf_append(&rpc->out, b->data + done, len + 1 - done);
    if (queued)
        flush(rpc);
    if (rpc->cbs.on_frame)
        rpc->cbs.on_frame(rpc->cbs.ud, rpc, AN_RPC_OUT, b->data, len, now);
    return AN_OK;
}

static int send_line(struct an_rpc *rpc, const char *line, size_t len, struct an_err *err)
{
    struct an_buf local, *b = frame_begin(rpc, &local);
    an_buf_append(b, line, len);
    int rc = send_frame(rpc, b, err);
    frame_end(rpc, b);
    return rc;
}

/* Append compact JSON text of v (an_json_compact's, jansson's form). */
static void put_json(struct an_buf *b, const json_t *v)
{
    char *s = an_json_compact(v);
    an_buf_puts(b, s);
    free(s);
}

static void put_int(struct an_buf *b, int64_t x)
{
    char num[24], *e = num + sizeof num, *p = e;
    uint64_t u = x < 0 ? 0ull - (uint64_t)x : (uint64_t)x;
    do
        *--p = (char)('0' + u % 10);
    while (u /= 10);
    if (x < 0)
        *--p = '-';
    an_buf_append(b, p, (size_t)(e - p));
}

/* ,"method":"..." -- a method of plain printable ASCII (every real one) as
 * it is, anything else through jansson, which leaves out a method that is
 * not valid UTF-8 as the envelope object used to. */
static void put_method(struct an_buf *b, const char *method)
{
    const char *p = method;
    while ((unsigned char)*p >= 0x20 && (unsigned char)*p < 0x7f && *p != '"' && *p != '\\')
        p++;
    if (!*p) {
        an_buf_puts(b, ",\"method\":\"");
        an_buf_append(b, method, (size_t)(p - method));
        an_buf_putc(b, '"');
        return;
    }
    json_t *j = json_string(method);
    if (j) {
        an_buf_puts(b, ",\"method\":");
        put_json(b, j);
        json_decref(j);
    }
}

/* The envelope is written from bytes, in the order and form the jansson
 * object it replaces had: {"jsonrpc":"2.0","id":..,"method":..,"params":..}
 * (no id for a notification; params only when given). */
static int send_call(struct an_rpc *rpc, const int64_t *id, const char *method,
                     const json_t *params, const char *ptext, size_t plen, struct an_err *err)
{
    struct an_buf local, *b = frame_begin(rpc, &local);
    an_buf_puts(b, "{\"jsonrpc\":\"2.0\"");
    if (id) {
        an_buf_puts(b, ",\"id\":");
        put_int(b, *id);
    }
    put_method(b, method);
    if (params) {
        an_buf_puts(b, ",\"params\":");
        put_json(b, params);
    } else if (ptext) {
        an_buf_puts(b, ",\"params\":");
        an_buf_append(b, ptext, plen);
    }
    an_buf_putc(b, '}');
    int rc = send_frame(rpc, b, err);
    frame_end(rpc, b);
    return rc;
}

static int request(struct an_rpc *rpc, const char *method, const json_t *params, const char *ptext,
                   size_t plen, int64_t *id_out, struct an_err *err)
{
    int64_t id = rpc->next_id;
    int rc = send_call(rpc, &id, method, params, ptext, plen, err);
    if (rc != AN_OK)
        return rc;
    rpc->next_id++;
    pend_add_int(rpc, id);
    if (id_out)
        *id_out = id;
    return AN_OK;
}

int an_rpc_request(struct an_rpc *rpc, const char *method, const json_t *params, int64_t *id_out,
                   struct an_err *err)
{
    return request(rpc, method, params, NULL, 0, id_out, err);
}

int an_rpc_request_text(struct an_rpc *rpc, const char *method, const char *params, size_t len,
                        int64_t *id_out, struct an_err *err)
{
    if (memchr(params, '\n', len))
        return an_fail(err, AN_EUSAGE, NULL, "a frame cannot hold a newline");
    return request(rpc, method, NULL, params, len, id_out, err);
}

int an_rpc_notify(struct an_rpc *rpc, const char *method, const json_t *params, struct an_err *err)
{
    return send_call(rpc, NULL, method, params, NULL, 0, err);
}

int an_rpc_send(struct an_rpc *rpc, const json_t *msg, struct an_err *err)
{
    if (!msg || json_is_array(msg))
        return an_fail(err, AN_EUSAGE, NULL, "refusing to send a batch: one message per frame");
    struct an_buf local, *b = frame_begin(rpc, &local);
    put_json(b, msg);
    int rc = send_frame(rpc, b, err);
    frame_end(rpc, b);
    if (rc != AN_OK)
        return rc;
    json_t *id = json_is_object(msg) ? json_object_get(msg, "id") : NULL;
    if (id && json_object_get(msg, "method")) {
        if (json_is_integer(id)) {
            pend_add_int(rpc, json_integer_value(id));
        } else {
            if (!rpc->pend_other && !(rpc->pend_other = json_array()))
                an_oom();
            json_array_append_new(rpc->pend_other, json_deep_copy(id));
        }
        if (json_is_integer(id) && json_integer_value(id) >= rpc->next_id &&
            json_integer_value(id) < INT64_MAX)
            rpc->next_id = json_integer_value(id) + 1;
    }
    return AN_OK;
}

int an_rpc_send_raw(struct an_rpc *rpc, const char *line, size_t len, struct an_err *err)
{
    if (memchr(line, '\n', len))
        return an_fail(err, AN_EUSAGE, NULL, "a frame cannot hold a newline");
    return send_line(rpc, line, len, err);
}

/* {"jsonrpc":"2.0","id":<peer's id>, then the caller's member and '}' */
static void reply_head(struct an_buf *b, const json_t *peer_id)
{
    an_buf_puts(b, "{\"jsonrpc\":\"2.0\",\"id\":");
    if (peer_id)
        put_json(b, peer_id);
    else
        an_buf_puts(b, "null");
}

int an_rpc_reply(struct an_rpc *rpc, const json_t *peer_id, const json_t *result,
                 struct an_err *err)
{
    struct an_buf local, *b = frame_begin(rpc, &local);
    reply_head(b, peer_id);
    an_buf_puts(b, ",\"result\":");
    if (result)
        put_json(b, result);
    else
        an_buf_puts(b, "{}");
    an_buf_putc(b, '}');
    int rc = send_frame(rpc, b, err);
    frame_end(rpc, b);
    return rc;
}

int an_rpc_reply_error(struct an_rpc *rpc, const json_t *peer_id, int code, const char *message,
                       const json_t *data, struct an_err *err)
{
    json_t *e = json_object();
    if (!e)
        an_oom();
    json_object_set_new(e, "code", json_integer(code));
    json_object_set_new(e, "message", an_json_lossy(message, strlen(message)));
    if (data)
        json_object_set(e, "data", (json_t *)data);
    struct an_buf local, *b = frame_begin(rpc, &local);
    reply_head(b, peer_id);
    an_buf_puts(b, ",\"error\":");
    put_json(b, e);
    an_buf_putc(b, '}');
    json_decref(e);
    int rc = send_frame(rpc, b, err);
    frame_end(rpc, b);
    return rc;
}

/* ---- polling ---------------------------------------------------------- */

size_t an_rpc_fds(const struct an_rpc *rpc, struct pollfd *out, size_t max)
{
    size_t n = 0;
    if (rpc->closed)
        return 0;
    if (!rpc->eof && n < max)
        out[n++] = (struct pollfd){.fd = rpc->rfd, .events = POLLIN};
    if (rpc->out.len && !rpc->write_dead && n < max)
        out[n++] = (struct pollfd){.fd = rpc->wfd, .events = POLLOUT};
    if (rpc->has_child) {
        if (rpc->child.err_fd >= 0 && n < max)
            out[n++] = (struct pollfd){.fd = rpc->child.err_fd, .events = POLLIN};
        if (rpc->child.pid_fd >= 0 && !rpc->child.exited && n < max)
            out[n++] = (struct pollfd){.fd = rpc->child.pid_fd, .events = POLLIN};
    }
    return n;
}

void an_rpc_handle(struct an_rpc *rpc, const struct pollfd *pfds, size_t n)
{
    if (rpc->closed)
        return;
    bool rd = n == 0, wr = n == 0, er = n == 0, ex = n == 0;
    for (size_t i = 0; i < n; i++) {
        if (!pfds[i].revents)
            continue;
        if (pfds[i].fd == rpc->rfd && (pfds[i].events & POLLIN))
            rd = true;
        if (pfds[i].fd == rpc->wfd && (pfds[i].events & POLLOUT))
            wr = true;
        if (rpc->has_child && pfds[i].fd == rpc->child.err_fd)
            er = true;
        if (rpc->has_child && pfds[i].fd == rpc->child.pid_fd)
            ex = true;
    }
    if (wr)
        flush(rpc);
    if (er && rpc->has_child)
        read_stderr(rpc);
    if (rd)
        read_frames(rpc);
    if (rpc->closed || !rpc->has_child)
        return;
    /* without a pidfd, look at every call */
    if (ex || rpc->child.pid_fd < 0) {
        if (an_child_reap(&rpc->child, true)) {
            /* what it wrote before dying is still in the pipe: take it */
            read_frames(rpc);
            if (!rpc->closed) {
                char st[96];
                close_with(rpc, AN_RPC_CLOSE_EXITED, "%s %s", rpc->peer,
                           an_child_status_str(&rpc->child, st, sizeof st));
            }
        }
    }
}

bool an_rpc_pump(struct an_rpc *rpc, int64_t timeout_ms, const bool *stop)
{
    int64_t start = an_clock_mono_ms();
    bool once = timeout_ms == 0;
    while (!rpc->closed && !(stop && *stop)) {
        struct pollfd p[8];
        size_t n = an_rpc_fds(rpc, p, 8);
        int64_t now = an_clock_mono_ms();
        int64_t wait = AN_CANCEL_POLL_MS;
        if (timeout_ms > 0) {
            int64_t left = start + timeout_ms - now;
            if (left <= 0)
                break;
            if (left < wait)
                wait = left;
        }
        if (once)
            wait = 0;
        if (rpc->has_child && rpc->child.pid_fd < 0 && !rpc->child.exited && wait > 10)
            wait = 10; /* no pidfd: nothing wakes us at the exit */
        int got = poll(p, (nfds_t)n, (int)wait);
        if (got > 0)
            an_rpc_handle(rpc, p, n);
        else if (rpc->has_child && rpc->child.pid_fd < 0)
            an_rpc_handle(rpc, p, 0);
        if (once || an_cancelled())
            break;
    }
    return !rpc->closed;
}

/* ---- accessors -------------------------------------------------------- */

bool an_rpc_is_open(const struct an_rpc *rpc)
{
    return !rpc->closed;
}

enum an_rpc_close_kind an_rpc_close_kind(const struct an_rpc *rpc)
{
    return rpc->closed;
}

const char *an_rpc_close_reason(const struct an_rpc *rpc)
{
    return rpc->reason;
}

size_t an_rpc_pending(const struct an_rpc *rpc)
{
    return rpc->npend + json_array_size(rpc->pend_other);
}

size_t an_rpc_queued(const struct an_rpc *rpc)
{
    return rpc->out.len;
}

const struct an_child *an_rpc_child(const struct an_rpc *rpc)
{
    return rpc->has_child ? &rpc->child : NULL;
}

const char *an_rpc_stderr(const struct an_rpc *rpc, size_t *len, size_t *dropped)
{
    if (len)
        *len = rpc->errlog.len;
    if (dropped)
        *dropped = rpc->err_dropped;
    return an_buf_cstr(&rpc->errlog);
}
