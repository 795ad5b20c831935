/*
 * MCP Streamable HTTP (2025-11-25 basic/transports): every message we send
 * is one POST to the endpoint, with `Accept: application/json,
 * text/event-stream` (servers answer 406 without both). A request is
 * answered by one JSON body or by an SSE stream carrying the server's
 * notifications and requests and then the response; a notification or a
 * response we send is answered 202 with no body. The server may mint an
 * `Mcp-Session-Id` on the initialize answer: it goes back on every later
 * POST, with `MCP-Protocol-Version`, and the session is ended with DELETE.
 *
 * The POSTs run on a curl multi handle of our own, so several can be in
 * flight: while a tools/call stream is open the server may ask us
 * something (ping, roots/list) and wait for our answer, which is another
 * POST.
 *
 * After the handshake a GET opens the server's own stream (mcp_conn.c).
 * Not done: resuming a cut stream with Last-Event-ID, the 2024-11-05
 * HTTP+SSE transport.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/http.h"
#include "proto/mcp_int.h"
#include "proto/sse.h"

#define SESSION_ID_MAX 256
#define DELETE_TIMEOUT_MS 2000

struct post {
    struct mcp_http *h;
    struct an_http_xfer x;
    struct an_http_req req;
    struct an_http_resp resp;
    struct an_kv *hdrs;
    size_t nhdrs;
    char *body;
    int64_t id;
    int mode;   /* 0: not decided, 1: SSE, 2: one JSON body */
    bool added; /* on the multi handle */
    struct an_sse_parser sse;
    struct an_buf json;
};

struct mcp_http {
    struct mcp_http_cbs cbs;
    CURLM *multi;
    char *endpoint;
    struct an_kv *headers; /* the target's, copied */
    size_t nheaders;
    char *session_id;
    char *version;
    struct post **posts;
    size_t nposts, cap;
    bool busy;          /* inside curl_multi_perform: libcurl refuses handles added now */
    size_t max_message; /* one JSON body or SSE event */
    size_t max_body;    /* one response body (max_body_bytes) */
};

/* Put new POSTs on the multi handle and let them start. Never from inside
 * a libcurl callback (an answer's data is read there, and answering it
 * queues a POST): libcurl refuses that as a recursive call. */
static void perform(struct mcp_http *h)
{
    if (h->busy)
        return;
    h->busy = true;
    for (size_t i = 0; i < h->nposts; i++)
        if (!h->posts[i]->added) {
            curl_multi_add_handle(h->multi, h->posts[i]->x.easy);
            h->posts[i]->added = true;
        }
    int running = 0;
    curl_multi_perform(h->multi, &running);
    h->busy = false;
}

/* ---- one POST ---- */

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct post *p = ud;
    if (ev->len) /* a priming event (an id and empty data) carries nothing */
        p->h->cbs.on_text(p->h->cbs.ud, ev->data, ev->len, an_clock_unix_ms());
    return 0;
}

static int on_data(void *ud, const char *bytes, size_t n)
{
    struct post *p = ud;
    if (!p->mode)
        p->mode = !strncasecmp(p->resp.content_type, "text/event-stream", 17) ? 1 : 2;
    if (p->mode == 1)
        return an_sse_feed(&p->sse, bytes, n);
    return an_buf_append(&p->json, bytes, n);
}

/* libcurl hands each header line to us: the session id is the one we need. */
static size_t on_header(char *line, size_t size, size_t nitems, void *ud)
{
    struct post *p = ud;
    size_t n = size * nitems;
    static const char name[] = "mcp-session-id:";
    if (n > sizeof name - 1 && !strncasecmp(line, name, sizeof name - 1)) {
        const char *v = line + sizeof name - 1;
        size_t k = n - (sizeof name - 1);
        while (k && (*v == ' ' || *v == '\t'))
            v++, k--;
        while (k && (v[k - 1] == '\r' || v[k - 1] == '\n' || v[k - 1] == ' '))
            k--;
        if (k && k < SESSION_ID_MAX) {
            free(p->h->session_id);
            p->h->session_id = an_xstrndup(v, k);
        }
    }
    return n;
}

static void post_free(struct post *p)
{
    an_http_xfer_release(&p->x);
    an_kv_free(p->hdrs, p->nhdrs);
    an_sse_release(&p->sse);
    an_buf_release(&p->json);
    free(p->body);
    free(p);
}

/* A POST of body, or (body NULL) the GET that opens the server's stream. */
static int start(struct mcp_http *h, const char *body, size_t len, int64_t id, struct an_err *err)
{
    struct post *p = an_xcalloc(1, sizeof *p);
    p->h = h;
    p->id = id;
    p->body = body ? an_xstrndup(body, len) : NULL;
    an_sse_init(&p->sse, h->max_message, on_event, p);
    an_buf_init(&p->json, h->max_message);
    an_kv_append(&p->hdrs, &p->nhdrs, h->headers, h->nheaders);
    if (h->session_id) {
        struct an_kv kv = {"Mcp-Session-Id", h->session_id};
        an_kv_append(&p->hdrs, &p->nhdrs, &kv, 1);
    }
    if (h->version) {
        struct an_kv kv = {"MCP-Protocol-Version", h->version};
        an_kv_append(&p->hdrs, &p->nhdrs, &kv, 1);
    }
    p->req = (struct an_http_req)AN_HTTP_REQ_INIT;
    p->req.url = h->endpoint;
    p->req.accept = body ? "application/json, text/event-stream" : "text/event-stream";
    if (!body)
        p->req.content_type = NULL;
    p->req.headers = p->hdrs;
    p->req.nheaders = p->nhdrs;
    p->req.body = p->body;
    p->req.body_len = len;
    p->req.timeout_ms = 0; /* the session keeps the turn's timeout */
    p->req.connect_timeout_ms = 10000;
    p->req.max_body = h->max_body;
    p->req.on_data = on_data;
    p->req.ud = p;
    int rc = an_http_xfer_init(&p->x, &p->req, &p->resp, err);
    if (rc) {
        post_free(p);
        return rc;
    }
    if (!body)
        curl_easy_setopt(p->x.easy, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(p->x.easy, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(p->x.easy, CURLOPT_HEADERDATA, p);
    if (h->nposts == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 4;
        h->posts = an_xrealloc(h->posts, h->cap * sizeof *h->posts);
    }
    h->posts[h->nposts++] = p;
    return AN_OK; /* mcp_http_flush() or the next handle starts it */
}

int mcp_http_post(struct mcp_http *h, const char *body, size_t len, int64_t id, struct an_err *err)
{
    return start(h, body, len, id, err);
}

void mcp_http_flush(struct mcp_http *h)
{
    perform(h);
}

int mcp_http_open_stream(struct mcp_http *h, struct an_err *err)
{
    return start(h, NULL, 0, MCP_HTTP_STREAM, err);
}

static void post_done(struct mcp_http *h, struct post *p, CURLcode cc)
{
    struct an_err err = AN_ERR_INIT;
    int rc = an_http_xfer_done(&p->x, cc, &err);
    if (!rc && p->mode == 1)
        rc = an_sse_finish(&p->sse);
    /* a request's answer that holds nothing to read, or is no JSON: say
     * what came instead (no body, an encoding, HTML) rather than "ended
     * without its response" */
    bool unread = p->mode == 1 ? !p->sse.nevents
                               : !p->json.len || p->resp.content_encoding[0] ||
                                     (strncasecmp(p->resp.content_type, "application/json", 16) &&
                                      !an_json_valid(p->json.data, p->json.len));
    if (!rc && p->id >= 0 && unread) {
        char *why = an_http_why_not_stream(&p->resp, "application/json, text/event-stream");
        if (why) {
            rc = an_fail(&err, AN_EPROTO, NULL, "%s", why);
            free(why);
        }
    }
    if (!rc && p->mode == 2 && p->json.len)
        h->cbs.on_text(h->cbs.ud, p->json.data, p->json.len, an_clock_unix_ms());
    if (rc && !err.msg[0])
        an_fail(&err, rc, NULL, "the answer could not be read");
    if (rc == AN_ELIMIT && p->x.over_cap)
        an_fail(&err, rc, NULL, "response body larger than max_body_bytes (%zu bytes)",
                h->max_body);
    else if (rc == AN_ELIMIT && p->mode)
        an_fail(&err, rc, NULL, "a message over the %zu-byte cap (max_frame_bytes)",
                h->max_message);
    h->cbs.on_fail(h->cbs.ud, p->id, rc, (int)p->resp.status, rc ? err.msg : "");
}

void mcp_http_handle(struct mcp_http *h)
{
    int left = 0;
    perform(h);
    CURLMsg *m;
    while ((m = curl_multi_info_read(h->multi, &left))) {
        if (m->msg != CURLMSG_DONE)
            continue;
        CURL *easy = m->easy_handle;
        CURLcode cc = m->data.result;
        curl_multi_remove_handle(h->multi, easy);
        for (size_t i = 0; i < h->nposts; i++) {
            struct post *p = h->posts[i];
            if (p->x.easy != easy)
                continue;
            /* keep the order they were queued in: that is the order they go out */
            memmove(&h->posts[i], &h->posts[i + 1], (h->nposts - i - 1) * sizeof *h->posts);
            h->nposts--;
            post_done(h, p, cc); /* may queue more POSTs */
            post_free(p);
            break;
        }
    }
    perform(h); /* what the answers queued */
}

size_t mcp_http_fds(struct mcp_http *h, struct pollfd *out, size_t max)
{
    fd_set r, w, e;
    int maxfd = -1;
    FD_ZERO(&r);
    FD_ZERO(&w);
    FD_ZERO(&e);
    if (curl_multi_fdset(h->multi, &r, &w, &e, &maxfd) != CURLM_OK)
        return 0;
    size_t n = 0;
    for (int fd = 0; fd <= maxfd && n < max; fd++) {
        short ev = (short)((FD_ISSET(fd, &r) ? POLLIN : 0) | (FD_ISSET(fd, &w) ? POLLOUT : 0));
        if (ev)
            out[n++] = (struct pollfd){.fd = fd, .events = ev};
    }
    return n;
}

size_t mcp_http_inflight(const struct mcp_http *h)
{
    return h->nposts;
}

void mcp_http_set_version(struct mcp_http *h, const char *version)
{
    free(h->version);
    h->version = version ? an_xstrdup(version) : NULL;
}

void mcp_http_set_max_body(struct mcp_http *h, size_t max_body)
{
    h->max_body = max_body ? max_body : AN_HTTP_DEFAULT_MAX_BODY;
}

const char *mcp_http_session_id(const struct mcp_http *h)
{
    return h->session_id;
}

int mcp_http_new(struct mcp_http **out, const char *endpoint, const struct an_kv *headers,
                 size_t nheaders, size_t max_message, const struct mcp_http_cbs *cbs,
                 struct an_err *err)
{
    *out = NULL;
    int rc = an_http_headers_check(headers, nheaders, endpoint, err);
    if (rc)
        return rc;
    rc = an_http_global_init("an MCP server over HTTP", err);
    if (rc)
        return rc;
    struct mcp_http *h = an_xcalloc(1, sizeof *h);
    h->cbs = *cbs;
    h->multi = curl_multi_init();
    if (!h->multi) {
        free(h);
        return an_fail(err, AN_EINTERNAL, NULL, "libcurl could not create a multi handle");
    }
    h->endpoint = an_xstrdup(endpoint);
    h->max_message = max_message ? max_message : AN_RPC_MAX_FRAME;
    h->max_body = AN_HTTP_DEFAULT_MAX_BODY;
    an_kv_append(&h->headers, &h->nheaders, headers, nheaders);
    *out = h;
    return AN_OK;
}

/* End the server's session: a courtesy, so its result is not looked at. */
static void send_delete(struct mcp_http *h)
{
    CURL *e = curl_easy_init();
    if (!e)
        return;
    struct curl_slist *l = NULL;
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "Mcp-Session-Id: %s", h->session_id);
    l = curl_slist_append(l, an_buf_cstr(&b));
    an_buf_reset(&b);
    if (h->version) {
        an_buf_printf(&b, "MCP-Protocol-Version: %s", h->version);
        l = curl_slist_append(l, an_buf_cstr(&b));
    }
    an_buf_release(&b);
    for (size_t i = 0; i < h->nheaders; i++) {
        struct an_buf hb = AN_BUF_INIT;
        an_buf_printf(&hb, "%s: %s", h->headers[i].name, h->headers[i].value);
        l = curl_slist_append(l, an_buf_cstr(&hb));
        an_buf_release(&hb);
    }
    curl_easy_setopt(e, CURLOPT_URL, h->endpoint);
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, "DELETE");
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, l);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (long)DELETE_TIMEOUT_MS);
    curl_easy_perform(e);
    curl_easy_cleanup(e);
    curl_slist_free_all(l);
}

void mcp_http_free(struct mcp_http *h)
{
    if (!h)
        return;
    for (size_t i = 0; i < h->nposts; i++) {
        if (h->posts[i]->added)
            curl_multi_remove_handle(h->multi, h->posts[i]->x.easy);
        post_free(h->posts[i]);
    }
    free(h->posts);
    if (h->session_id)
        send_delete(h);
    curl_multi_cleanup(h->multi);
    an_kv_free(h->headers, h->nheaders);
    free(h->endpoint);
    free(h->session_id);
    free(h->version);
    free(h);
}
