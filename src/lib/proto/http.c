#include "proto/http.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/cancel.h"
#include "core/json.h"
#include "core/lazy.h"
#include "proto/h1.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "dev"
#endif

/* How much of an error body goes into the message: enough to show a
 * FastAPI 422 detail or the title of an HTML error page. */
#define HEAD_SHOWN 300

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

static void global_init_once(void)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "ananke: libcurl failed to initialise\n");
        abort();
    }
}

int an_http_cancel_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un)
{
    (void)ud;
    (void)dt;
    (void)dn;
    (void)ut;
    (void)un;
    return an_cancelled() ? 1 : 0;
}

int an_http_global_init(const char *what, struct an_err *err)
{
    int rc = an_lazy_curl(what, err);
    if (rc)
        return rc;
    pthread_once(&global_once, global_init_once);
    return AN_OK;
}

/* Easy handles are reused: curl_easy_init and cleanup cost more than the
 * rest of a small turn. A handful per thread is enough (one per transfer in
 * flight is the most a loop needs back at once). curl_easy_reset clears
 * every option, so a reused handle starts like a new one. */
#define POOL_MAX 64
static _Thread_local CURL *pool[POOL_MAX];
static _Thread_local size_t pooled;

static CURL *easy_take(void)
{
    if (pooled) {
        CURL *e = pool[--pooled];
        curl_easy_reset(e);
        return e;
    }
    return curl_easy_init();
}

static void easy_give(CURL *e)
{
    if (pooled < POOL_MAX)
        pool[pooled++] = e;
    else
        curl_easy_cleanup(e);
}

void an_http_thread_cleanup(void)
{
    while (pooled)
        curl_easy_cleanup(pool[--pooled]);
    an_h1_thread_cleanup();
}

static bool is_2xx(long status)
{
    return status >= 200 && status < 300;
}

static void note_response(struct an_http_xfer *x)
{
    long status = 0;
    char *ct = NULL;
    curl_easy_getinfo(x->easy, CURLINFO_RESPONSE_CODE, &status);
    curl_easy_getinfo(x->easy, CURLINFO_CONTENT_TYPE, &ct);
    x->resp->status = status;
    snprintf(x->resp->content_type, sizeof x->resp->content_type, "%s", ct ? ct : "");
    curl_off_t after = -1;
    /* libcurl reads both forms of Retry-After: delta-seconds and an HTTP date */
    if (curl_easy_getinfo(x->easy, CURLINFO_RETRY_AFTER, &after) == CURLE_OK && after > 0)
        x->resp->retry_after_ms = (int64_t)after * 1000;
    struct curl_header *h = NULL;
    if (curl_easy_header(x->easy, "Content-Encoding", 0, CURLH_HEADER, -1, &h) == CURLHE_OK && h &&
        h->value)
        snprintf(x->resp->content_encoding, sizeof x->resp->content_encoding, "%s", h->value);
    char *loc = NULL; /* libcurl resolves a relative Location against the URL */
    if (status >= 300 && status < 400 &&
        curl_easy_getinfo(x->easy, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK && loc &&
        strlen(loc) < sizeof x->resp->location)
        memcpy(x->resp->location, loc, strlen(loc) + 1);
}

bool an_http_take_body(const struct an_http_req *req, struct an_http_resp *r, const char *p,
                       size_t n, bool *over_cap, int *stop_rc)
{
    size_t cap = req->max_body ? req->max_body : AN_HTTP_DEFAULT_MAX_BODY;
    if (n > cap - r->body_bytes) {
        *over_cap = true;
        return false;
    }
    r->body_bytes += n;
    if (r->first_len < sizeof r->first) {
        size_t k = sizeof r->first - r->first_len < n ? sizeof r->first - r->first_len : n;
        memcpy(r->first + r->first_len, p, k);
        r->first_len += k;
    }
    if (is_2xx(r->status)) {
        int rc = req->on_data ? req->on_data(req->ud, p, n) : 0;
        if (rc) {
            *stop_rc = rc;
            return false;
        }
        return true;
    }
    size_t room = AN_HTTP_HEAD_MAX - r->head_len;
    size_t k = n < room ? n : room;
    memcpy(r->head + r->head_len, p, k);
    r->head_len += k;
    r->head[r->head_len] = '\0';
    if (req->every_body && req->on_data) {
        int rc = req->on_data(req->ud, p, n);
        if (rc) {
            *stop_rc = rc;
            return false;
        }
    }
    return true;
}

static size_t on_write(char *p, size_t size, size_t nmemb, void *ud)
{
    struct an_http_xfer *x = ud;
    size_t n = size * nmemb;
    if (!x->resp->status)
        note_response(x);
    if (!an_http_take_body(x->req, x->resp, p, n, &x->over_cap, &x->stop_rc))
        return n ? 0 : 1; /* anything but n aborts the transfer */
    return n;
}

/* Counts the header bytes against max_header (set only then). */
static size_t on_header(char *p, size_t size, size_t nmemb, void *ud)
{
    struct an_http_xfer *x = ud;
    size_t n = size * nmemb;
    (void)p;
    x->resp->header_bytes += n;
    if (x->resp->header_bytes > x->req->max_header) {
        x->over_header_cap = true;
        return n ? 0 : 1;
    }
    return n;
}

static bool has_crlf(const char *s)
{
    return s && strpbrk(s, "\r\n");
}

static bool overridden(const struct an_http_req *req, const char *name)
{
    for (size_t i = 0; i < req->nheaders; i++)
        if (!strcasecmp(req->headers[i].name, name))
            return true;
    return false;
}

static const char *tracestate;

void an_http_set_tracestate(const char *ts)
{
    tracestate = ts;
}

const char *an_http_tracestate(void)
{
    return tracestate;
}

static void add_header(struct an_http_xfer *x, const char *name, const char *value)
{
    struct an_buf b = AN_BUF_INIT;
    /* "Name;" is curl's way to send a header with an empty value;
     * "Name:" would remove the header instead. */
    an_buf_puts(&b, name); /* no printf: a few headers every turn */
    if (value && *value) {
        an_buf_append(&b, ": ", 2);
        an_buf_puts(&b, value);
    } else {
        an_buf_putc(&b, ';');
    }
    struct curl_slist *l = curl_slist_append(x->hdrs, an_buf_cstr(&b));
    an_buf_release(&b);
    if (!l)
        an_oom();
    x->hdrs = l;
}

int an_http_xfer_init(struct an_http_xfer *x, const struct an_http_req *req,
                      struct an_http_resp *resp, struct an_err *err)
{
    memset(x, 0, sizeof *x);
    memset(resp, 0, sizeof *resp);
    resp->retry_after_ms = -1;
    x->req = req;
    x->resp = resp;

    for (size_t i = 0; i < req->nheaders; i++) {
        const struct an_kv *h = &req->headers[i];
        if (!h->name || !*h->name || has_crlf(h->name) || strchr(h->name, ':') ||
            has_crlf(h->value))
            return an_fail(err, AN_EUSAGE, NULL,
                           "invalid HTTP header '%.100s': names need text without ':', "
                           "names and values no line breaks",
                           h->name ? h->name : "");
    }

    int rc = an_http_global_init("an HTTP request", err);
    if (rc)
        return rc;
    x->easy = easy_take();
    if (!x->easy)
        return an_fail(err, AN_EINTERNAL, NULL, "libcurl could not create a handle");

    if (req->content_type && !overridden(req, "Content-Type"))
        add_header(x, "Content-Type", req->content_type);
    if (req->accept && !overridden(req, "Accept"))
        add_header(x, "Accept", req->accept);
    if (req->traceparent && *req->traceparent && !overridden(req, "traceparent")) {
        add_header(x, "traceparent", req->traceparent);
        if (tracestate && *tracestate && !overridden(req, "tracestate"))
            add_header(x, "tracestate", tracestate);
    }
    /* curl waits up to a second for "100 Continue" before sending a body
     * over 1 KiB; agents rarely answer it, and that second would show up
     * in every turn's timing. */
    if (!overridden(req, "Expect")) {
        struct curl_slist *l = curl_slist_append(x->hdrs, "Expect:");
        if (!l)
            an_oom();
        x->hdrs = l;
    }
    for (size_t i = 0; i < req->nheaders; i++)
        add_header(x, req->headers[i].name, req->headers[i].value);

    int64_t cto = req->connect_timeout_ms;
    if (cto <= 0)
        cto = req->timeout_ms > 0 && req->timeout_ms < 30000 ? req->timeout_ms : 30000;

    CURL *e = x->easy;
    CURLcode cc = CURLE_OK;
#define SET(opt, val)                                                                              \
    do {                                                                                           \
        if (cc == CURLE_OK)                                                                        \
            cc = curl_easy_setopt(e, opt, val);                                                    \
    } while (0)
    SET(CURLOPT_URL, req->url);
    SET(CURLOPT_PROTOCOLS_STR, "http,https");
    SET(CURLOPT_NOSIGNAL, 1L); /* threads: no SIGALRM-based DNS timeouts */
    SET(CURLOPT_POST, 1L);
    SET(CURLOPT_POSTFIELDS, req->body ? req->body : "");
    SET(CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(req->body ? req->body_len : 0));
    SET(CURLOPT_HTTPHEADER, x->hdrs);
    SET(CURLOPT_USERAGENT, "ananke/" ANANKE_VERSION);
    SET(CURLOPT_FOLLOWLOCATION, 0L); /* http.h: credentials stay with their origin */
    SET(CURLOPT_TIMEOUT_MS, req->timeout_ms > 0 ? (long)req->timeout_ms : 0L);
    SET(CURLOPT_CONNECTTIMEOUT_MS, (long)cto);
    SET(CURLOPT_WRITEFUNCTION, on_write);
    SET(CURLOPT_WRITEDATA, x);
    SET(CURLOPT_ERRORBUFFER, resp->curl_error);
    if (req->max_header) {
        SET(CURLOPT_HEADERFUNCTION, on_header);
        SET(CURLOPT_HEADERDATA, x);
    }
#undef SET
    if (cc != CURLE_OK) {
        rc = an_fail(err, AN_EINTERNAL, NULL, "libcurl rejected an option: %s",
                     curl_easy_strerror(cc));
        an_http_xfer_release(x);
        return rc;
    }
    return AN_OK;
}

/* The start of an error body as one readable line: valid UTF-8 (cut on a
 * character boundary), control characters as spaces. Caller frees. */
static char *head_line(const struct an_http_resp *r)
{
    size_t n = r->head_len < HEAD_SHOWN ? r->head_len : HEAD_SHOWN;
    const unsigned char *s = (const unsigned char *)r->head;
    bool cut = r->body_bytes > n;
    while (n < r->head_len && n > 0 && (s[n] & 0xC0) == 0x80)
        n--; /* s[n] continues a character: cut before that character */
    char *t = an_utf8_lossy(r->head, n);
    for (char *p = t; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = ' ';
    if (cut) {
        size_t l = strlen(t);
        t = an_xrealloc(t, l + 4);
        memcpy(t + l, "...", 4);
    }
    return t;
}

int an_http_xfer_done(struct an_http_xfer *x, CURLcode cc, struct an_err *err)
{
    struct an_http_resp *r = x->resp;
    const struct an_http_req *req = x->req;
    const char *why = r->curl_error[0] ? r->curl_error : curl_easy_strerror(cc);

    if (!r->status && x->easy)
        note_response(x);
    if (x->over_cap && cc == CURLE_WRITE_ERROR)
        return an_fail(err, AN_ELIMIT, NULL, "response body larger than %zu bytes",
                       req->max_body ? req->max_body : (size_t)AN_HTTP_DEFAULT_MAX_BODY);
    if (x->over_header_cap && cc == CURLE_WRITE_ERROR)
        return an_fail(err, AN_ELIMIT, NULL, "response headers larger than %zu bytes",
                       req->max_header);
    if (x->stop_rc && cc == CURLE_WRITE_ERROR)
        return an_fail(err, (enum an_code)x->stop_rc, NULL, "transfer stopped by its reader");
    if (cc == CURLE_OPERATION_TIMEDOUT) {
        /* never got as far as sending: a connect problem. On a reused
         * connection the connect time is 0, so ask whether the request
         * was ready to go out (pretransfer) instead. */
        curl_off_t pre_us = 0;
        curl_easy_getinfo(x->easy, CURLINFO_PRETRANSFER_TIME_T, &pre_us);
        if (pre_us == 0)
            return an_fail(err, AN_ECONNECT, NULL, "cannot connect to %s: %s", req->url, why);
        return an_fail(err, AN_ETIMEOUT, NULL, "%s: no complete answer within %lld ms: %s",
                       req->url, (long long)req->timeout_ms, why);
    }
    if (cc != CURLE_OK) {
        if (r->status)
            return an_fail(err, AN_ECONNECT, NULL, "connection to %s broke after HTTP %ld: %s",
                           req->url, r->status, why);
        return an_fail(err, AN_ECONNECT, NULL, "cannot reach %s: %s", req->url, why);
    }
    return an_http_answer_rc(req, r, err);
}

int an_http_answer_rc(const struct an_http_req *req, const struct an_http_resp *r,
                      struct an_err *err)
{
    (void)req;
    if (r->status >= 300 && r->status < 400 && (r->location[0] || r->status != 304)) {
        /* the Location is the server's: shown, never followed */
        char *loc = an_utf8_lossy(r->location, strnlen(r->location, 300));
        for (char *p = loc; *p; p++)
            if ((unsigned char)*p < 0x20 || *p == 0x7F)
                *p = ' ';
        int rc = an_fail(err, AN_EHTTP, NULL,
                         "HTTP %ld: redirect to '%s' not followed (ananke follows no redirect, so "
                         "that configured headers stay with their origin: point the target at "
                         "the final URL)",
                         r->status, *loc ? loc : "(no Location)");
        free(loc);
        return rc;
    }
    if (!is_2xx(r->status)) {
        char *line = head_line(r);
        int rc =
            an_fail(err, AN_EHTTP, NULL, "HTTP %ld: %s", r->status, *line ? line : "(empty body)");
        free(line);
        return rc;
    }
    return AN_OK;
}

void an_http_xfer_release(struct an_http_xfer *x)
{
    if (x->easy)
        easy_give(x->easy);
    curl_slist_free_all(x->hdrs);
    x->easy = NULL;
    x->hdrs = NULL;
}

int an_http_post_stream(const struct an_http_req *req, struct an_http_resp *resp,
                        struct an_err *err)
{
    struct an_http_xfer x;
    int rc = an_http_xfer_init(&x, req, resp, err);
    if (rc)
        return rc;
    CURLcode cc = curl_easy_perform(x.easy);
    rc = an_http_xfer_done(&x, cc, err);
    an_http_xfer_release(&x);
    return rc;
}

/* The first bytes of a body as one line: printable ASCII as it is, the
 * rest as \xNN, "..." when there was more. */
static void first_bytes(struct an_buf *b, const struct an_http_resp *r)
{
    for (size_t i = 0; i < r->first_len; i++) {
        unsigned char c = (unsigned char)r->first[i];
        if (c >= 0x20 && c < 0x7F && c != '\\')
            an_buf_putc(b, (char)c);
        else if (c == '\\')
            an_buf_puts(b, "\\\\");
        else
            an_buf_printf(b, "\\x%02X", c);
    }
    if (r->body_bytes > r->first_len)
        an_buf_puts(b, "...");
}

/* Whether content type ct is one of the list `want` ("a/b, c/d"); *what
 * gets the list for people ("application/json or an event stream"). */
static bool type_in(const char *ct, const char *want, struct an_buf *what)
{
    bool in = false;
    for (const char *w = want; *w;) {
        size_t wn = strcspn(w, ", ");
        if (wn && !strncasecmp(ct, w, wn) && (!ct[wn] || ct[wn] == ';' || ct[wn] == ' '))
            in = true;
        if (wn) {
            if (what->len)
                an_buf_puts(what, " or ");
            if (wn == 17 && !strncasecmp(w, "text/event-stream", 17))
                an_buf_puts(what, "an event stream");
            else
                an_buf_append(what, w, wn);
        }
        w += wn;
        w += strspn(w, ", ");
    }
    return in;
}

char *an_http_why_not_stream(const struct an_http_resp *r, const char *want)
{
    struct an_buf b = AN_BUF_INIT, what = AN_BUF_INIT;
    const char *ct = r->content_type;
    bool type_ok = type_in(ct, want, &what);
    if (!is_2xx(r->status))
        return NULL;
    if (r->status == 204 || r->status == 205)
        an_buf_printf(&b, "status %ld %s: no body", r->status,
                      r->status == 204 ? "No Content" : "Reset Content");
    else if (!r->body_bytes)
        an_buf_printf(&b, "status %ld with an empty body (content-type '%.100s')", r->status,
                      *ct ? ct : "none");
    else if (*r->content_encoding && strcasecmp(r->content_encoding, "identity"))
        an_buf_printf(&b,
                      "the response is %.60s-encoded though no encoding was requested "
                      "(Content-Encoding: %.60s): not read",
                      r->content_encoding, r->content_encoding);
    else if (!type_ok) {
        an_buf_printf(&b, "the response was %.100s (status %ld), not %s: ", *ct ? ct : "untyped",
                      r->status, an_buf_cstr(&what));
        first_bytes(&b, r);
    }
    an_buf_release(&what);
    if (!b.len)
        return NULL;
    return an_buf_detach(&b, NULL);
}

char *an_http_origin(const char *url)
{
    CURLU *u = curl_url();
    if (!u && an_lazy_curl(NULL, NULL))
        return NULL; /* no libcurl: what needs it says so (an_http_global_init) */
    if (!u)
        an_oom();
    char *scheme = NULL, *host = NULL, *port = NULL, *out = NULL;
    if (url && curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_SCHEME, &scheme, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_PORT, &port, CURLU_DEFAULT_PORT) == CURLUE_OK) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "%s://%s:%s", scheme, host, port);
        out = an_buf_detach(&b, NULL);
        for (char *p = out; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
    }
    curl_free(scheme);
    curl_free(host);
    curl_free(port);
    curl_url_cleanup(u);
    return out;
}

bool an_http_same_origin(const char *a, const char *b)
{
    char *oa = an_http_origin(a), *ob = an_http_origin(b);
    bool same = oa && ob && !strcmp(oa, ob);
    free(oa);
    free(ob);
    return same;
}

int an_http_headers_check(const struct an_kv *h, size_t n, const char *url, struct an_err *err)
{
    for (size_t i = 0; i < n; i++)
        if (!h[i].name || !*h[i].name || strpbrk(h[i].name, ":\r\n") ||
            (h[i].value && strpbrk(h[i].value, "\r\n")))
            return an_fail(err, AN_EUSAGE, NULL,
                           "invalid HTTP header '%.100s' for %s: a name needs text without ':' "
                           "and neither may hold a line break",
                           h[i].name ? h[i].name : "", url);
    return AN_OK;
}

void an_kv_append(struct an_kv **to, size_t *nto, const struct an_kv *h, size_t n)
{
    if (!n)
        return;
    *to = an_xrealloc(*to, (*nto + n) * sizeof **to);
    for (size_t i = 0; i < n; i++) {
        (*to)[*nto].name = an_xstrdup(h[i].name);
        (*to)[(*nto)++].value = an_xstrdup(h[i].value ? h[i].value : "");
    }
}

void an_kv_free(struct an_kv *h, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free((char *)h[i].name);
        free((char *)h[i].value);
    }
    free(h);
}

void an_http_resolve_location(const char *url, const char *location, char *out, size_t cap)
{
    /* what libcurl does for CURLINFO_REDIRECT_URL (Curl_follow, FOLLOW_FAKE):
     * the Location against the URL, or as it is when that does not parse */
    CURLU *u = curl_url();
    if (!u)
        an_oom();
    char *abs = NULL;
    const char *res = location;
    if (curl_url_set(u, CURLUPART_URL, url, 0) == CURLUE_OK &&
        curl_url_set(u, CURLUPART_URL, location, CURLU_NON_SUPPORT_SCHEME) == CURLUE_OK &&
        curl_url_get(u, CURLUPART_URL, &abs, 0) == CURLUE_OK)
        res = abs;
    size_t n = strlen(res);
    if (n < cap)
        memcpy(out, res, n + 1);
    else if (cap)
        out[0] = '\0';
    curl_free(abs);
    curl_url_cleanup(u);
}
