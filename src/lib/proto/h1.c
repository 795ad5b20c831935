/*
 * The transfer of proto/h1.h: which requests it takes, the request bytes
 * (libcurl's, header for header), connecting without blocking, the
 * per-thread pool of idle connections, and the outcome in
 * an_http_xfer_done's codes and words.
 */
#include "proto/h1.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "core/child.h"
#include "core/clock.h"
#include "core/port.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "dev"
#endif

enum { P_CONNECT = 1, P_SEND, P_RECV, P_DONE };
/* how a transfer ended badly (x->fail) */
enum { F_NONE = 0, F_CONNECT, F_CONNECT_TIMEOUT, F_TIMEOUT, F_SEND, F_RECV, F_PARSE, F_CAP, F_STOP };

/* Idle connections kept per thread, and for how long: libcurl's default
 * age (CURLOPT_MAXAGE_CONN, 118 s). More than POOL_MAX idle at once (more
 * than that many turns in flight on one loop) closes the oldest. */
#define POOL_MAX 256
#define POOL_AGE_MS 118000
#define READ_SIZE 65536

/* ---- which requests ---- */

static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static bool env_curl; /* ANANKE_HTTP_CLIENT=curl, or a proxy variable set */

static void read_env(void)
{
    static const char *const proxies[] = {"http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"};
    const char *c = getenv("ANANKE_HTTP_CLIENT");
    env_curl = c && !strcmp(c, "curl");
    /* libcurl reads these (HTTP_PROXY too, though it ignores it for http://
     * URLs): any of them set, even to "", and libcurl decides */
    for (size_t i = 0; i < sizeof proxies / sizeof *proxies; i++)
        if (getenv(proxies[i]))
            env_curl = true;
}

struct url {
    char host[256]; /* brackets off */
    char hostport[300];
    unsigned port;
    const char *path; /* into the URL: path and query */
};

/* Four decimal numbers 0..255 without leading zeros: libcurl writes any
 * other IPv4 form (127.1, 0x7f.1, 010.0.0.1) its own way. */
static bool canonical_ipv4(const char *h)
{
    for (int part = 0; part < 4; part++) {
        unsigned v = 0, nd = 0;
        while (*h >= '0' && *h <= '9' && nd < 4) {
            v = v * 10 + (unsigned)(*h++ - '0');
            nd++;
        }
        if (!nd || nd > 3 || v > 255 || (nd > 1 && h[-(int)nd] == '0'))
            return false;
        if (part < 3 && *h++ != '.')
            return false;
    }
    return !*h;
}

static bool canonical_ipv6(const char *h)
{
    struct in6_addr a;
    char back[INET6_ADDRSTRLEN];
    return inet_pton(AF_INET6, h, &a) == 1 && inet_ntop(AF_INET6, &a, back, sizeof back) &&
           !strcmp(back, h);
}

/* A path libcurl sends as it is: printable ASCII, no '#', no '\\', no dot
 * segment (libcurl removes them), the query after '?' anything printable. */
static bool plain_path(const char *p)
{
    bool query = false;
    for (const char *c = p; *c; c++) {
        if (*c <= 0x20 || *c >= 0x7F || *c == '#' || *c == '\\')
            return false;
        if (*c == '?')
            query = true;
        if (!query && *c == '.' && c[-1] == '/') {
            size_t k = c[1] == '.' ? 2 : 1;
            if (!c[k] || c[k] == '/' || c[k] == '?')
                return false;
        }
    }
    return true;
}

static bool parse_url(const char *url, struct url *u)
{
    if (!url || strncasecmp(url, "http://", 7))
        return false;
    const char *a = url + 7, *e = a + strcspn(a, "/?#");
    const char *hs = a, *he, *ps = NULL;
    if (*a == '[') {
        const char *rb = memchr(a, ']', (size_t)(e - a));
        if (!rb)
            return false;
        hs = a + 1;
        he = rb;
        if (rb + 1 < e) {
            if (rb[1] != ':')
                return false;
            ps = rb + 2;
        }
    } else {
        const char *colon = memchr(a, ':', (size_t)(e - a));
        he = colon ? colon : e;
        ps = colon ? colon + 1 : NULL;
    }
    size_t hn = (size_t)(he - hs);
    if (!hn || hn >= sizeof u->host || memchr(a, '@', (size_t)(e - a)))
        return false;
    memcpy(u->host, hs, hn);
    u->host[hn] = '\0';
    u->port = 80;
    if (ps) {
        unsigned v = 0;
        if (ps == e || *ps == '0')
            return false;
        for (const char *c = ps; c < e; c++) {
            if (*c < '0' || *c > '9' || v > 6553)
                return false;
            v = v * 10 + (unsigned)(*c - '0');
        }
        if (v < 1 || v > 65535)
            return false;
        u->port = v;
    }
    bool v6 = *a == '[';
    if (v6 ? !canonical_ipv6(u->host) : !(canonical_ipv4(u->host) || !strcmp(u->host, "localhost")))
        return false;
    u->path = *e ? e : "/";
    if (*e == '?' || !plain_path(u->path))
        return false; /* libcurl writes "/?q" for "?q": leave it that */
    /* "[::1]:8080", "127.0.0.1": no printf, this runs every turn */
    char *o = u->hostport;
    if (v6)
        *o++ = '[';
    memcpy(o, u->host, hn);
    o += hn;
    if (v6)
        *o++ = ']';
    if (u->port != 80) {
        *o++ = ':';
        size_t pn = (size_t)(e - ps);
        memcpy(o, ps, pn);
        o += pn;
    }
    *o = '\0';
    return true;
}

/* parse_url with a one-entry cache per thread: a target's turns all go to
 * the same URL, and both an_h1_usable and an_h1_xfer_init ask. */
static bool parse_url_cached(const char *url, struct url *u)
{
    static _Thread_local char last[512];
    static _Thread_local struct url lu;
    static _Thread_local size_t path_at;
    static _Thread_local bool last_ok;
    if (!url)
        return false;
    size_t n = strlen(url);
    if (n < sizeof last && !memcmp(last, url, n + 1)) {
        *u = lu;
        u->path = lu.path ? url + path_at : "/";
        return last_ok;
    }
    bool ok = parse_url(url, u);
    if (n < sizeof last) {
        memcpy(last, url, n + 1);
        lu = *u;
        lu.path = ok && u->path >= url && u->path <= url + n ? u->path : NULL;
        path_at = lu.path ? (size_t)(u->path - url) : 0;
        last_ok = ok;
    }
    return ok;
}

static bool named(const struct an_http_req *req, const char *name)
{
    for (size_t i = 0; i < req->nheaders; i++)
        if (!strcasecmp(req->headers[i].name, name))
            return true;
    return false;
}

bool an_h1_usable(const struct an_http_req *req)
{
    pthread_once(&env_once, read_env);
    struct url u;
    return !env_curl && parse_url_cached(req->url, &u) && !named(req, "Content-Length") &&
           !named(req, "Transfer-Encoding") && !named(req, "Expect");
}

/* ---- the request ---- */

static void header(struct an_buf *b, const char *name, const char *value)
{
    an_buf_puts(b, name);
    if (value && *value) {
        an_buf_append(b, ": ", 2);
        an_buf_puts(b, value);
    } else {
        an_buf_putc(b, ':'); /* libcurl sends "Name;" so */
    }
    an_buf_append(b, "\r\n", 2);
}

/* The bytes libcurl sends for this POST, in its order: the request line,
 * Host, User-Agent (either unless the target's headers name it), the
 * defaults the request asks for, the target's headers, Content-Length. */
static void build_request(struct an_buf *b, const struct an_http_req *req, const struct url *u)
{
    an_buf_puts(b, "POST ");
    an_buf_puts(b, u->path);
    an_buf_puts(b, " HTTP/1.1\r\n");
    if (!named(req, "Host"))
        header(b, "Host", u->hostport);
    if (!named(req, "User-Agent"))
        header(b, "User-Agent", "ananke/" ANANKE_VERSION);
    if (req->content_type && !named(req, "Content-Type"))
        header(b, "Content-Type", req->content_type);
    if (req->accept && !named(req, "Accept"))
        header(b, "Accept", req->accept);
    if (req->traceparent && *req->traceparent && !named(req, "traceparent")) {
        const char *ts = an_http_tracestate();
        header(b, "traceparent", req->traceparent);
        if (ts && *ts && !named(req, "tracestate"))
            header(b, "tracestate", ts);
    }
    for (size_t i = 0; i < req->nheaders; i++)
        header(b, req->headers[i].name, req->headers[i].value);
    size_t n = req->body ? req->body_len : 0;
    char num[24], *d = num + sizeof num;
    size_t v = n;
    do
        *--d = (char)('0' + v % 10);
    while ((v /= 10));
    an_buf_puts(b, "Content-Length: ");
    an_buf_append(b, d, (size_t)(num + sizeof num - d));
    an_buf_append(b, "\r\n\r\n", 4);
    if (n)
        an_buf_append(b, req->body, n);
}

/* ---- the pool ---- */

struct idle {
    int fd;
    int64_t since;
    char key[300];
};
struct pool {
    struct idle v[POOL_MAX];
    size_t n;
};

static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static pthread_key_t pool_key;
static _Thread_local struct pool *my_pool;

static void pool_free(void *arg)
{
    struct pool *p = arg;
    for (size_t i = 0; p && i < p->n; i++)
        close(p->v[i].fd);
    free(p);
}

static void make_key(void)
{
    pthread_key_create(&pool_key, pool_free);
}

void an_h1_thread_cleanup(void)
{
    if (!my_pool)
        return;
    pthread_setspecific(pool_key, NULL);
    pool_free(my_pool);
    my_pool = NULL;
}

size_t an_h1_pooled(void)
{
    return my_pool ? my_pool->n : 0;
}

/* Whether an idle connection still looks open: nothing to read, no close
 * (libcurl's check before it reuses one). */
static bool alive(int fd)
{
    char c;
    ssize_t r = recv(fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
    return r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);
}

static int pool_take(const char *key)
{
    struct pool *p = my_pool;
    int64_t now = an_clock_mono_ms();
    for (size_t i = p ? p->n : 0; i-- > 0;) {
        if (strcmp(p->v[i].key, key))
            continue;
        struct idle c = p->v[i];
        memmove(&p->v[i], &p->v[i + 1], (p->n - i - 1) * sizeof *p->v);
        p->n--;
        if (now - c.since <= POOL_AGE_MS && alive(c.fd))
            return c.fd;
        close(c.fd);
    }
    return -1;
}

static void pool_give(const char *key, int fd)
{
    if (!my_pool) {
        pthread_once(&key_once, make_key);
        my_pool = an_xcalloc(1, sizeof *my_pool);
        pthread_setspecific(pool_key, my_pool);
    }
    struct pool *p = my_pool;
    if (p->n == POOL_MAX) {
        close(p->v[0].fd);
        memmove(&p->v[0], &p->v[1], (p->n - 1) * sizeof *p->v);
        p->n--;
    }
    p->v[p->n].fd = fd;
    p->v[p->n].since = an_clock_mono_ms();
    size_t kn = strnlen(key, sizeof p->v[p->n].key - 1);
    memcpy(p->v[p->n].key, key, kn);
    p->v[p->n].key[kn] = '\0';
    p->n++;
}

/* ---- the transfer ---- */

static void end(struct an_h1_xfer *x, int fail, const char *why)
{
    x->fail = fail;
    x->phase = P_DONE;
    if (why && !x->resp->curl_error[0])
        snprintf(x->resp->curl_error, sizeof x->resp->curl_error, "%s", why);
}

static void close_fd(struct an_h1_xfer *x)
{
    if (x->fd >= 0)
        close(x->fd);
    x->fd = -1;
}

/* What the final answer's head says, as note_response takes it from libcurl. */
static void note_head(struct an_h1_xfer *x, const struct an_h1_head *h)
{
    struct an_http_resp *r = x->resp;
    r->status = h->status;
    memcpy(r->content_type, h->content_type, sizeof r->content_type);
    if (h->retry_after_s > 0)
        r->retry_after_ms =
            h->retry_after_s < INT64_MAX / 1000 ? h->retry_after_s * 1000 : INT64_MAX / 1000 * 1000;
    memcpy(r->content_encoding, h->content_encoding, sizeof r->content_encoding);
    if (h->status >= 300 && h->status < 400 && h->location[0])
        an_http_resolve_location(x->req->url, h->location, r->location, sizeof r->location);
}

static void on_head(void *ud, const struct an_h1_head *h)
{
    note_head(ud, h);
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct an_h1_xfer *x = ud;
    return an_http_take_body(x->req, x->resp, p, n, &x->over_cap, &x->stop_rc) ? 0 : 1;
}

static void start_parser(struct an_h1_xfer *x)
{
    an_h1_parse_release(&x->p);
    an_h1_parse_init(&x->p, x->req->max_header, on_head, on_body, x);
}

static bool send_some(struct an_h1_xfer *x);

/* A connection to the next address (localhost: 127.0.0.1, then ::1, as
 * libcurl tries them); false when none is left. */
static bool open_next(struct an_h1_xfer *x)
{
    for (; x->addr < 2; x->addr++) {
        struct sockaddr_storage ss;
        socklen_t sl;
        memset(&ss, 0, sizeof ss);
        const char *ip = x->host;
        bool local = !strcmp(x->host, "localhost");
        if (local)
            ip = x->addr == 0 ? "127.0.0.1" : "::1";
        else if (x->addr > 0)
            return false;
        struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
        if (inet_pton(AF_INET, ip, &a4->sin_addr) == 1) {
            a4->sin_family = AF_INET;
            a4->sin_port = htons((uint16_t)x->port);
            sl = sizeof *a4;
        } else if (inet_pton(AF_INET6, ip, &a6->sin6_addr) == 1) {
            a6->sin6_family = AF_INET6;
            a6->sin6_port = htons((uint16_t)x->port);
            sl = sizeof *a6;
        } else {
            continue;
        }
        int fd = an_port_socket(ss.ss_family, SOCK_STREAM, 0);
        if (fd < 0)
            continue;
        int one = 1;
        setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        if (connect(fd, (struct sockaddr *)&ss, sl) == 0 || errno == EINPROGRESS) {
            x->fd = fd;
            x->addr++;
            x->phase = P_CONNECT;
            return true;
        }
        close(fd);
    }
    return false;
}

static void connect_failed(struct an_h1_xfer *x)
{
    char why[512];
    snprintf(why, sizeof why,
             "Failed to connect to %s port %u after %lld ms: Couldn't connect to server", x->host,
             x->port, (long long)(an_clock_mono_ms() - x->start_ms));
    end(x, F_CONNECT, why);
}

/* Connected (or a pooled connection): send. */
static void connected(struct an_h1_xfer *x)
{
    x->connected_ms = an_clock_mono_ms();
    x->phase = P_SEND;
    x->sent = 0;
    send_some(x);
}

static void start_connect(struct an_h1_xfer *x)
{
    int fd = x->retried ? -1 : pool_take(x->key);
    if (fd >= 0) {
        x->fd = fd;
        x->reused = true;
        connected(x);
        return;
    }
    x->reused = false;
    if (!open_next(x))
        connect_failed(x);
}

/* A reused connection died before any of the answer came: once more on a
 * new one (libcurl's Curl_retry_request). */
static bool retry_fresh(struct an_h1_xfer *x)
{
    if (!x->reused || x->p.bytes || x->retried)
        return false;
    close_fd(x);
    x->retried = true;
    x->addr = 0;
    start_parser(x);
    start_connect(x);
    return true;
}

static void io_failed(struct an_h1_xfer *x, int fail, const char *what, int e)
{
    if (retry_fresh(x))
        return;
    char why[256];
    snprintf(why, sizeof why, "%s: %s", what, strerror(e));
    end(x, fail, why);
}

static void parsed(struct an_h1_xfer *x, enum an_h1_rc rc, bool extra)
{
    switch (rc) {
    case AN_H1_MORE:
        return;
    case AN_H1_DONE:
        if (!extra && x->sent == x->out.len && an_h1_parse_reusable(&x->p)) {
            pool_give(x->key, x->fd);
            x->fd = -1;
        }
        end(x, F_NONE, NULL);
        return;
    case AN_H1_FAIL:
        end(x, F_PARSE, x->p.why);
        return;
    case AN_H1_CAP:
        end(x, F_CAP, NULL);
        return;
    case AN_H1_STOP:
        end(x, F_STOP, NULL);
        return;
    }
}

static void recv_some(struct an_h1_xfer *x)
{
    char buf[READ_SIZE];
    for (int i = 0; i < 16 && x->phase != P_DONE; i++) {
        ssize_t n = recv(x->fd, buf, sizeof buf, 0);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                io_failed(x, F_RECV, "Recv failure", errno);
            return;
        }
        if (n == 0) {
            if (!x->p.bytes && retry_fresh(x))
                return;
            parsed(x, an_h1_parse_eof(&x->p), true);
            return;
        }
        size_t used = 0;
        x->recv_unix_ms = an_clock_unix_ms();
        enum an_h1_rc rc = an_h1_parse_feed(&x->p, buf, (size_t)n, &used);
        x->resp->header_bytes = x->p.header_bytes;
        parsed(x, rc, used < (size_t)n);
        if ((size_t)n < sizeof buf)
            return; /* all there was: the poll says when there is more */
    }
}

static bool send_some(struct an_h1_xfer *x)
{
    while (x->sent < x->out.len) {
        ssize_t n = an_write_nosigpipe(x->fd, x->out.data + x->sent, x->out.len - x->sent);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                io_failed(x, F_SEND, "Send failure", errno);
            return false;
        }
        x->sent += (size_t)n;
    }
    x->phase = P_RECV;
    return true;
}

int an_h1_xfer_init(struct an_h1_xfer *x, const struct an_http_req *req,
                    struct an_http_resp *resp, struct an_err *err)
{
    memset(x, 0, sizeof *x);
    memset(resp, 0, sizeof *resp);
    resp->retry_after_ms = -1;
    x->req = req;
    x->resp = resp;
    x->fd = -1;
    an_buf_init(&x->out, 0);
    an_h1_parse_init(&x->p, req->max_header, on_head, on_body, x);
    int rc = an_http_headers_check(req->headers, req->nheaders, req->url, err);
    struct url u;
    if (rc)
        return rc;
    if (!parse_url_cached(req->url, &u))
        return an_fail(err, AN_EINTERNAL, NULL, "'%s' is not a URL for the HTTP/1.1 client",
                       req->url);
    memcpy(x->host, u.host, sizeof x->host);
    x->port = u.port;
    memcpy(x->key, u.hostport, sizeof x->key < sizeof u.hostport ? sizeof x->key : sizeof u.hostport);
    x->key[sizeof x->key - 1] = '\0';
    build_request(&x->out, req, &u);

    int64_t cto = req->connect_timeout_ms;
    if (cto <= 0)
        cto = req->timeout_ms > 0 && req->timeout_ms < 30000 ? req->timeout_ms : 30000;
    x->start_ms = an_clock_mono_ms();
    x->deadline_ms = req->timeout_ms > 0 ? x->start_ms + req->timeout_ms : 0;
    x->connect_deadline_ms = x->start_ms + cto;
    start_connect(x);
    return AN_OK;
}

size_t an_h1_xfer_fds(const struct an_h1_xfer *x, struct pollfd *out)
{
    if (x->phase == P_DONE || x->fd < 0)
        return 0;
    out->fd = x->fd;
    out->events = x->phase == P_CONNECT ? POLLOUT
                  : x->phase == P_SEND  ? (short)(POLLOUT | POLLIN)
                                        : POLLIN;
    out->revents = 0;
    return 1;
}

static void timed_out(struct an_h1_xfer *x, int64_t now)
{
    char why[256];
    long long ms = (long long)(now - x->start_ms);
    if (x->phase == P_CONNECT) {
        snprintf(why, sizeof why, "Connection timed out after %lld milliseconds", ms);
        end(x, F_CONNECT_TIMEOUT, why);
        return;
    }
    if (x->p.head.length >= 0 && x->resp->status >= 200)
        snprintf(why, sizeof why,
                 "Operation timed out after %lld milliseconds with %llu out of %lld bytes received",
                 ms, (unsigned long long)x->p.body_bytes, (long long)x->p.head.length);
    else
        snprintf(why, sizeof why, "Operation timed out after %lld milliseconds with %llu bytes received",
                 ms, (unsigned long long)x->p.body_bytes);
    end(x, F_TIMEOUT, why);
}

bool an_h1_xfer_step(struct an_h1_xfer *x, short revents)
{
    if (x->phase == P_CONNECT && (revents & (POLLOUT | POLLERR | POLLHUP))) {
        int e = 0;
        socklen_t el = sizeof e;
        struct sockaddr_storage peer;
        socklen_t pl = sizeof peer;
        if (getsockopt(x->fd, SOL_SOCKET, SO_ERROR, &e, &el) || e) {
            close_fd(x);
            if (!open_next(x))
                connect_failed(x);
        } else if (getpeername(x->fd, (struct sockaddr *)&peer, &pl) == 0) {
            connected(x); /* (a poll's word alone could be stale: ask) */
        }
    } else if (x->phase == P_SEND && revents) {
        if (revents & (POLLIN | POLLERR | POLLHUP)) {
            /* an answer before the whole request went (or the peer is
             * gone): read it, the request is not sent further */
            x->phase = P_RECV;
            recv_some(x);
        } else {
            send_some(x);
        }
    } else if (x->phase == P_RECV && revents) {
        recv_some(x);
    }
    if (x->phase != P_DONE) {
        int64_t now = an_clock_mono_ms();
        if (x->phase == P_CONNECT && now >= x->connect_deadline_ms)
            timed_out(x, now);
        else if (x->deadline_ms && now >= x->deadline_ms)
            timed_out(x, now);
    }
    return x->phase == P_DONE;
}

int an_h1_xfer_done(struct an_h1_xfer *x, struct an_err *err)
{
    struct an_http_resp *r = x->resp;
    const struct an_http_req *req = x->req;
    const char *url = req->url, *why = r->curl_error;
    if (!r->status && x->p.head.status)
        note_head(x, &x->p.head);
    r->header_bytes = x->p.header_bytes;
    switch (x->fail) {
    case F_NONE:
        return an_http_answer_rc(req, r, err);
    case F_STOP:
        if (x->over_cap)
            return an_fail(err, AN_ELIMIT, NULL, "response body larger than %zu bytes",
                           req->max_body ? req->max_body : (size_t)AN_HTTP_DEFAULT_MAX_BODY);
        return an_fail(err, (enum an_code)x->stop_rc, NULL, "transfer stopped by its reader");
    case F_CAP:
        return an_fail(err, AN_ELIMIT, NULL, "response headers larger than %zu bytes",
                       x->p.max_header);
    case F_CONNECT_TIMEOUT:
        return an_fail(err, AN_ECONNECT, NULL, "cannot connect to %s: %s", url, why);
    case F_TIMEOUT:
        return an_fail(err, AN_ETIMEOUT, NULL, "%s: no complete answer within %lld ms: %s", url,
                       (long long)req->timeout_ms, why);
    default:
        if (r->status)
            return an_fail(err, AN_ECONNECT, NULL, "connection to %s broke after HTTP %ld: %s",
                           url, r->status, why);
        return an_fail(err, AN_ECONNECT, NULL, "cannot reach %s: %s", url, why);
    }
}

void an_h1_xfer_release(struct an_h1_xfer *x)
{
    if (!x->req)
        return;
    close_fd(x);
    an_buf_release(&x->out);
    an_h1_parse_release(&x->p);
    x->req = NULL;
}
