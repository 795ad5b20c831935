/*
 * The HTTP/1.1 client (proto/h1.h) against a scripted peer: a thread that
 * listens on 127.0.0.1 and plays a script (accept, read a request, send
 * bytes, wait, close, reset) while the test drives transfers with poll, as
 * the scheduler does. Each case checks what an_http_xfer_done would say:
 * the code, the message, the response fields, and what the peer saw (the
 * request bytes, how many connections and requests).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "proto/h1.h"
#include "proto/http.h"

enum { ACCEPT = 1, READ, SEND, SLEEP, CLOSE, RESET, END };
struct act {
    int op;
    const char *s; /* SEND: the bytes (NUL-terminated); SLEEP: NULL */
    int ms;        /* SLEEP */
};

struct peer {
    int lfd, fd;
    unsigned port;
    const struct act *script;
    pthread_t th;
    int conns, reqs;
    struct an_buf last; /* the last request read, whole */
    struct an_buf in;   /* read and not yet a whole request */
};

static void sleep_ms(int ms)
{
    poll(NULL, 0, ms);
}

/* One whole request (head and Content-Length body) off the connection. */
static void read_request(struct peer *p)
{
    for (;;) {
        const char *d = an_buf_cstr(&p->in);
        const char *e = strstr(d, "\r\n\r\n");
        if (e) {
            size_t head = (size_t)(e - d) + 4, body = 0;
            const char *cl = strstr(d, "Content-Length: ");
            if (cl && cl < e)
                body = strtoul(cl + 16, NULL, 10);
            if (p->in.len >= head + body) {
                an_buf_reset(&p->last);
                an_buf_append(&p->last, d, head + body);
                an_buf_consume(&p->in, head + body);
                p->reqs++;
                return;
            }
        }
        char buf[4096];
        ssize_t n = recv(p->fd, buf, sizeof buf, 0);
        if (n <= 0)
            return;
        an_buf_append(&p->in, buf, (size_t)n);
    }
}

static void *peer_main(void *arg)
{
    struct peer *p = arg;
    for (const struct act *a = p->script; a->op != END; a++) {
        switch (a->op) {
        case ACCEPT:
            p->fd = accept(p->lfd, NULL, NULL);
            an_buf_reset(&p->in);
            p->conns++;
            int one = 1;
            setsockopt(p->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            break;
        case READ:
            read_request(p);
            break;
        case SEND:
            send(p->fd, a->s, strlen(a->s), MSG_NOSIGNAL);
            break;
        case SLEEP:
            sleep_ms(a->ms);
            break;
        case CLOSE:
            close(p->fd);
            p->fd = -1;
            break;
        case RESET: {
            struct linger l = {1, 0};
            setsockopt(p->fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
            close(p->fd);
            p->fd = -1;
            break;
        }
        }
    }
    return NULL;
}

static int listener(unsigned *port, int backlog)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(fd, backlog), 0);
    getsockname(fd, (struct sockaddr *)&a, &al);
    *port = ntohs(a.sin_port);
    return fd;
}

static void peer_start(struct peer *p, const struct act *script)
{
    memset(p, 0, sizeof *p);
    p->fd = -1;
    p->script = script;
    an_buf_init(&p->last, 0);
    an_buf_init(&p->in, 0);
    p->lfd = listener(&p->port, 16);
    pthread_create(&p->th, NULL, peer_main, p);
}

static void peer_stop(struct peer *p)
{
    pthread_join(p->th, NULL);
    if (p->fd >= 0)
        close(p->fd);
    close(p->lfd);
    an_buf_release(&p->last);
    an_buf_release(&p->in);
}

static int on_data(void *ud, const char *p, size_t n)
{
    an_buf_append(ud, p, n);
    return 0;
}

/* One transfer to url, driven by poll until it is over. */
static int transfer(struct an_http_req *req, struct an_http_resp *resp, struct an_err *err,
                    struct an_buf *got)
{
    struct an_h1_xfer x;
    req->on_data = on_data;
    req->ud = got;
    int rc = an_h1_xfer_init(&x, req, resp, err);
    if (rc) {
        an_h1_xfer_release(&x);
        return rc;
    }
    for (int i = 0; i < 1000; i++) {
        struct pollfd p;
        size_t n = an_h1_xfer_fds(&x, &p);
        if (n)
            poll(&p, 1, 20);
        if (an_h1_xfer_step(&x, n ? p.revents : 0))
            break;
    }
    rc = an_h1_xfer_done(&x, err);
    an_h1_xfer_release(&x);
    return rc;
}

static char url_buf[128];
static const char *url_of(const struct peer *p, const char *path)
{
    snprintf(url_buf, sizeof url_buf, "http://127.0.0.1:%u%s", p->port, path);
    return url_buf;
}

#define OK_HELLO "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: 5\r\n\r\nhello"

static void test_framings_on_one_connection(void **state)
{
    (void)state;
    static const struct act script[] = {
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, OK_HELLO, 0}, {READ, 0, 0},
        {SEND, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n", 0},
        {SLEEP, 0, 20}, {SEND, "2\r\nde\r\n0\r\n\r\n", 0}, {READ, 0, 0},
        {SEND, "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nuntil", 0}, {SLEEP, 0, 20},
        {SEND, " the close", 0}, {CLOSE, 0, 0}, {END, 0, 0}};
    struct peer p;
    peer_start(&p, script);
    an_h1_thread_cleanup();
    static const char *const bodies[] = {"hello", "abcde", "until the close"};
    static const size_t pooled[] = {1, 1, 0};
    for (int i = 0; i < 3; i++) {
        struct an_http_req req = AN_HTTP_REQ_INIT;
        struct an_http_resp resp;
        struct an_err err = AN_ERR_INIT;
        struct an_buf got = AN_BUF_INIT;
        req.url = url_of(&p, "/agent");
        req.body = "{}";
        req.body_len = 2;
        req.timeout_ms = 5000;
        assert_int_equal(transfer(&req, &resp, &err, &got), AN_OK);
        assert_int_equal(resp.status, 200);
        assert_string_equal(an_buf_cstr(&got), bodies[i]);
        assert_int_equal(resp.body_bytes, strlen(bodies[i]));
        assert_int_equal(an_h1_pooled(), pooled[i]);
        an_buf_release(&got);
    }
    peer_stop(&p);
    assert_int_equal(p.conns, 1);
    assert_int_equal(p.reqs, 3);
}

static void test_request_bytes(void **state)
{
    (void)state;
    static const struct act script[] = {{ACCEPT, 0, 0}, {READ, 0, 0},   {SEND, OK_HELLO, 0},
                                        {READ, 0, 0},   {SEND, OK_HELLO, 0}, {END, 0, 0}};
    struct peer p;
    peer_start(&p, script);
    an_h1_thread_cleanup();
    struct an_kv hs[] = {{"X-Api-Key", "k1"}, {"X-Empty", ""}, {"accept", "application/json"}};
    struct an_http_req req = AN_HTTP_REQ_INIT;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    struct an_buf got = AN_BUF_INIT;
    req.url = url_of(&p, "/a/b?x=1&y=/../z");
    req.accept = "text/event-stream";
    req.headers = hs;
    req.nheaders = 3;
    req.body = "{\"a\":1}";
    req.body_len = 7;
    req.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    an_http_set_tracestate("k=v");
    assert_int_equal(transfer(&req, &resp, &err, &got), AN_OK);
    an_http_set_tracestate(NULL);
    char want[1024];
    snprintf(want, sizeof want,
             "POST /a/b?x=1&y=/../z HTTP/1.1\r\nHost: 127.0.0.1:%u\r\nUser-Agent: ananke/%s\r\n"
             "Content-Type: application/json\r\n"
             "traceparent: 00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n"
             "tracestate: k=v\r\nX-Api-Key: k1\r\nX-Empty:\r\naccept: application/json\r\n"
             "Content-Length: 7\r\n\r\n{\"a\":1}",
             p.port, ANANKE_VERSION);
    /* the peer's thread wrote `last` before it answered */
    assert_string_equal(an_buf_cstr(&p.last), want);

    /* the target's Host and User-Agent replace ananke's; no body: length 0 */
    struct an_kv hs2[] = {{"Host", "example.test"}, {"User-Agent", "mine"}};
    req.headers = hs2;
    req.nheaders = 2;
    req.body = NULL;
    req.body_len = 0;
    req.traceparent = NULL;
    req.content_type = NULL;
    req.accept = NULL;
    an_buf_reset(&got);
    assert_int_equal(transfer(&req, &resp, &err, &got), AN_OK);
    assert_string_equal(an_buf_cstr(&p.last), "POST /a/b?x=1&y=/../z HTTP/1.1\r\nHost: example.test\r\n"
                                              "User-Agent: mine\r\nContent-Length: 0\r\n\r\n");
    an_buf_release(&got);
    peer_stop(&p);
}

/* A transfer against `script` that must fail: its code, and its message
 * starts with `head` and ends with `tail` (the URL is the peer's). */
static void failing(const struct act *script, int64_t timeout_ms, size_t max_body,
                    size_t max_header, int code, const char *head, const char *tail,
                    long status)
{
    struct peer p;
    peer_start(&p, script);
    an_h1_thread_cleanup();
    struct an_http_req req = AN_HTTP_REQ_INIT;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    struct an_buf got = AN_BUF_INIT;
    req.url = url_of(&p, "/agent");
    req.timeout_ms = timeout_ms;
    req.max_body = max_body;
    req.max_header = max_header;
    int rc = transfer(&req, &resp, &err, &got);
    char h[512];
    snprintf(h, sizeof h, head, p.port);
    if (rc != code || strncmp(err.msg, h, strlen(h)) ||
        strlen(err.msg) < strlen(tail) || strcmp(err.msg + strlen(err.msg) - strlen(tail), tail) ||
        resp.status != status)
        fail_msg("rc %d (want %d), status %ld (want %ld): '%s'\n want '%s ... %s'", rc, code,
                 resp.status, status, err.msg, h, tail);
    an_buf_release(&got);
    peer_stop(&p);
    an_h1_thread_cleanup();
}

static void test_failures(void **state)
{
    (void)state;
    static const struct act empty[] = {{ACCEPT, 0, 0}, {READ, 0, 0}, {CLOSE, 0, 0}, {END, 0, 0}};
    failing(empty, 5000, 0, 0, AN_ECONNECT, "cannot reach http://127.0.0.1:%u/agent: Empty reply from server",
            "", 0);
    static const struct act cut[] = {{ACCEPT, 0, 0},
                                     {READ, 0, 0},
                                     {SEND, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe", 0},
                                     {CLOSE, 0, 0},
                                     {END, 0, 0}};
    failing(cut, 5000, 0, 0, AN_ECONNECT,
            "connection to http://127.0.0.1:%u/agent broke after HTTP 200: transfer closed with 3 "
            "bytes remaining to read",
            "", 200);
    static const struct act chunks_cut[] = {
        {ACCEPT, 0, 0},
        {READ, 0, 0},
        {SEND, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n", 0},
        {CLOSE, 0, 0},
        {END, 0, 0}};
    failing(chunks_cut, 5000, 0, 0, AN_ECONNECT,
            "connection to http://127.0.0.1:%u/agent broke after HTTP 200: transfer closed with "
            "outstanding read data remaining",
            "", 200);
    static const struct act reset[] = {{ACCEPT, 0, 0},
                                       {READ, 0, 0},
                                       {SEND, "HTTP/1.1 200 OK\r\n\r\nsome", 0},
                                       {SLEEP, 0, 30},
                                       {RESET, 0, 0},
                                       {END, 0, 0}};
    failing(reset, 5000, 0, 0, AN_ECONNECT,
            "connection to http://127.0.0.1:%u/agent broke after HTTP 200: Recv failure: "
            "Connection reset by peer",
            "", 200);
    static const struct act stall[] = {{ACCEPT, 0, 0},
                                       {READ, 0, 0},
                                       {SEND, "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab", 0},
                                       {SLEEP, 0, 800},
                                       {CLOSE, 0, 0},
                                       {END, 0, 0}};
    failing(stall, 300, 0, 0, AN_ETIMEOUT,
            "http://127.0.0.1:%u/agent: no complete answer within 300 ms: Operation timed out after ",
            " milliseconds with 2 out of 10 bytes received", 200);
    static const struct act silent[] = {
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SLEEP, 0, 800}, {CLOSE, 0, 0}, {END, 0, 0}};
    failing(silent, 300, 0, 0, AN_ETIMEOUT,
            "http://127.0.0.1:%u/agent: no complete answer within 300 ms: Operation timed out after ",
            " milliseconds with 0 bytes received", 0);
    static const struct act slowloris[] = {{ACCEPT, 0, 0},     {READ, 0, 0},
                                           {SEND, "HTTP/1.1 200 OK\r\nX-", 0},
                                           {SLEEP, 0, 150},    {SEND, "A: 1\r\n", 0},
                                           {SLEEP, 0, 150},    {SEND, "X-B: 2\r\n", 0},
                                           {SLEEP, 0, 400},    {CLOSE, 0, 0},
                                           {END, 0, 0}};
    failing(slowloris, 300, 0, 0, AN_ETIMEOUT,
            "http://127.0.0.1:%u/agent: no complete answer within 300 ms: ",
            " milliseconds with 0 bytes received", 200);
    static const struct act big_head[] = {
        {ACCEPT, 0, 0},
        {READ, 0, 0},
        {SEND, "HTTP/1.1 200 OK\r\nX-Pad: 01234567890123456789012345678901234567890123456789\r\n"
               "X-Pad: 01234567890123456789012345678901234567890123456789\r\n\r\n", 0},
        {CLOSE, 0, 0},
        {END, 0, 0}};
    failing(big_head, 5000, 0, 100, AN_ELIMIT, "response headers larger than 100 bytes", "", 200);
    static const struct act hello[] = {
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, OK_HELLO, 0}, {SLEEP, 0, 50}, {END, 0, 0}};
    failing(hello, 5000, 3, 0, AN_ELIMIT, "response body larger than 3 bytes", "", 200);
    static const struct act moved[] = {
        {ACCEPT, 0, 0},
        {READ, 0, 0},
        {SEND, "HTTP/1.1 307 Temporary Redirect\r\nLocation: ../other?q=1\r\nContent-Length: 0\r\n\r\n",
         0},
        {END, 0, 0}};
    failing(moved, 5000, 0, 0, AN_EHTTP,
            "HTTP 307: redirect to 'http://127.0.0.1:%u/other?q=1' not followed", "", 307);
    static const struct act error[] = {
        {ACCEPT, 0, 0},
        {READ, 0, 0},
        {SEND, "HTTP/1.1 500 Internal Server Error\r\nContent-Length: 9\r\n\r\noops\x01 bad", 0},
        {END, 0, 0}};
    failing(error, 5000, 0, 0, AN_EHTTP, "HTTP 500: oops  bad", "", 500);
    static const struct act weird[] = {
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, "SSH-2.0-OpenSSH\r\n", 0}, {END, 0, 0}};
    failing(weird, 5000, 0, 0, AN_ECONNECT,
            "cannot reach http://127.0.0.1:%u/agent: Received HTTP/0.9 when not allowed", "", 0);
    static const struct act bad_chunk[] = {
        {ACCEPT, 0, 0},
        {READ, 0, 0},
        {SEND, "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nxyz\r\n", 0},
        {END, 0, 0}};
    failing(bad_chunk, 5000, 0, 0, AN_ECONNECT,
            "connection to http://127.0.0.1:%u/agent broke after HTTP 200: Illegal or missing "
            "hexadecimal sequence in chunked-encoding",
            "", 200);
}

static void test_refused(void **state)
{
    (void)state;
    unsigned port;
    int fd = listener(&port, 1);
    close(fd); /* nothing listens there now */
    struct an_http_req req = AN_HTTP_REQ_INIT;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    struct an_buf got = AN_BUF_INIT;
    char url[64], head[256];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/", port);
    req.url = url;
    assert_int_equal(transfer(&req, &resp, &err, &got), AN_ECONNECT);
    snprintf(head, sizeof head, "cannot reach %s: Failed to connect to 127.0.0.1 port %u after ", url,
             port);
    assert_memory_equal(err.msg, head, strlen(head));
    assert_non_null(strstr(err.msg, " ms: Couldn't connect to server"));
    /* localhost: 127.0.0.1, then ::1, and the message names the host */
    snprintf(url, sizeof url, "http://localhost:%u/", port);
    req.url = url;
    assert_int_equal(transfer(&req, &resp, &err, &got), AN_ECONNECT);
    snprintf(head, sizeof head, "cannot reach %s: Failed to connect to localhost port %u after ",
             url, port);
    assert_memory_equal(err.msg, head, strlen(head));
    an_buf_release(&got);
}

/* A pooled connection the peer closed is not used; one that dies with the
 * request in it (nothing of the answer came) is retried once on a new one. */
static void test_stale_connections(void **state)
{
    (void)state;
    static const struct act script[] = {
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, OK_HELLO, 0}, {CLOSE, 0, 0},   /* idle, then closed */
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, OK_HELLO, 0}, {READ, 0, 0},   /* reused ... */
        {CLOSE, 0, 0},                                                     /* ... dies */
        {ACCEPT, 0, 0}, {READ, 0, 0}, {SEND, OK_HELLO, 0}, {END, 0, 0}};
    struct peer p;
    peer_start(&p, script);
    an_h1_thread_cleanup();
    for (int i = 0; i < 3; i++) {
        struct an_http_req req = AN_HTTP_REQ_INIT;
        struct an_http_resp resp;
        struct an_err err = AN_ERR_INIT;
        struct an_buf got = AN_BUF_INIT;
        req.url = url_of(&p, "/");
        req.timeout_ms = 5000;
        assert_int_equal(transfer(&req, &resp, &err, &got), AN_OK);
        assert_string_equal(an_buf_cstr(&got), "hello");
        an_buf_release(&got);
        sleep_ms(50); /* the peer's close arrives */
    }
    peer_stop(&p);
    assert_int_equal(p.conns, 3);
    assert_int_equal(p.reqs, 4); /* the one that died is sent twice */
    an_h1_thread_cleanup();
}

/* The answer sent in pieces, each read on its own. */
static void test_pieces(void **state)
{
    (void)state;
    static const char whole[] = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nTransfer-Encoding: "
                                "chunked\r\nContent-Type: text/event-stream\r\n\r\n"
                                "7\r\ndata: 1\r\n8\r\n\n\ndata: \r\n3\r\n2\n\n\r\n0\r\n\r\n";
    static char chunk[sizeof whole][8];
    static struct act script[2 * sizeof whole + 4];
    size_t k = 0;
    script[k++] = (struct act){ACCEPT, 0, 0};
    script[k++] = (struct act){READ, 0, 0};
    for (size_t i = 0; i + 1 < sizeof whole; i += 7) {
        size_t n = sizeof whole - 1 - i < 7 ? sizeof whole - 1 - i : 7;
        memcpy(chunk[i], whole + i, n);
        chunk[i][n] = '\0';
        script[k++] = (struct act){SLEEP, 0, 2};
        script[k++] = (struct act){SEND, chunk[i], 0};
    }
    script[k++] = (struct act){END, 0, 0};
    struct peer p;
    peer_start(&p, script);
    an_h1_thread_cleanup();
    struct an_http_req req = AN_HTTP_REQ_INIT;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    struct an_buf got = AN_BUF_INIT;
    req.url = url_of(&p, "/");
    req.timeout_ms = 5000;
    assert_int_equal(transfer(&req, &resp, &err, &got), AN_OK);
    assert_string_equal(an_buf_cstr(&got), "data: 1\n\ndata: 2\n\n");
    assert_string_equal(resp.content_type, "text/event-stream");
    assert_int_equal(an_h1_pooled(), 1);
    an_buf_release(&got);
    peer_stop(&p);
    an_h1_thread_cleanup();
}

/* Connecting to a peer that never accepts (its backlog full) times out as
 * a connect problem. */
static void test_connect_timeout(void **state)
{
    (void)state;
    unsigned port;
    int lfd = listener(&port, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK),
                            .sin_port = htons((uint16_t)port)};
    int fill[4];
    for (int i = 0; i < 4; i++) {
        fill[i] = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
        connect(fill[i], (struct sockaddr *)&a, sizeof a);
    }
    sleep_ms(50);
    struct an_http_req req = AN_HTTP_REQ_INIT;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    struct an_buf got = AN_BUF_INIT;
    char url[64], head[256];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/", port);
    req.url = url;
    req.timeout_ms = 5000;
    req.connect_timeout_ms = 300;
    int rc = transfer(&req, &resp, &err, &got);
    snprintf(head, sizeof head, "cannot connect to %s: Connection timed out after ", url);
    if (rc != AN_ECONNECT || strncmp(err.msg, head, strlen(head)))
        fail_msg("rc %d: %s", rc, err.msg);
    for (int i = 0; i < 4; i++)
        close(fill[i]);
    close(lfd);
    an_buf_release(&got);
}

static void test_usable(void **state)
{
    (void)state;
    static const struct {
        const char *url;
        bool ok;
    } urls[] = {
        {"http://127.0.0.1:8080/agent", true},
        {"http://127.0.0.1/agent", true},
        {"HTTP://localhost:3000/", true},
        {"http://localhost:3000", true},
        {"http://[::1]:3000/a?b=/../c", true},
        {"http://127.0.0.1:8080/a/b.c/.d", true},
        {"https://127.0.0.1/agent", false},
        {"http://example.com/agent", false},
        {"http://LOCALHOST/", false},
        {"http://127.1:8080/", false},
        {"http://127.0.0.01/", false},
        {"http://256.0.0.1/", false},
        {"http://1.2.3/", false},
        {"http://1.2.3.4.5/", false},
        {"http://0.0.0.0:1/", true},
        {"http://10.255.255.254:65535/x", true},
        {"http://[0:0::1]:3000/", false},
        {"http://[fe80::1%25eth0]/", false},
        {"http://user:pw@127.0.0.1/", false},
        {"http://127.0.0.1:0/", false},
        {"http://127.0.0.1:080/", false},
        {"http://127.0.0.1:65536/", false},
        {"http://127.0.0.1:/", false},
        {"http://127.0.0.1?q", false},
        {"http://127.0.0.1/a/../b", false},
        {"http://127.0.0.1/a/./b", false},
        {"http://127.0.0.1/a/..", false},
        {"http://127.0.0.1/a b", false},
        {"http://127.0.0.1/a#frag", false},
        {"http://127.0.0.1/\xc3\xa9", false},
        {"ftp://127.0.0.1/", false},
    };
    for (size_t i = 0; i < sizeof urls / sizeof *urls; i++) {
        struct an_http_req req = AN_HTTP_REQ_INIT;
        req.url = urls[i].url;
        if (an_h1_usable(&req) != urls[i].ok)
            fail_msg("%s: usable %d", urls[i].url, !urls[i].ok);
    }
    static const char *const framing[] = {"Content-Length", "transfer-encoding", "Expect"};
    for (size_t i = 0; i < 3; i++) {
        struct an_kv h = {framing[i], "1"};
        struct an_http_req req = AN_HTTP_REQ_INIT;
        req.url = "http://127.0.0.1/";
        req.headers = &h;
        req.nheaders = 1;
        assert_false(an_h1_usable(&req));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_usable),
        cmocka_unit_test(test_framings_on_one_connection),
        cmocka_unit_test(test_request_bytes),
        cmocka_unit_test(test_failures),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_stale_connections),
        cmocka_unit_test(test_pieces),
        cmocka_unit_test(test_connect_timeout),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
