/*
 * Seed 004's run-case contract (adapter.h "an_http_case_open"): a test is
 * one POST of the case to <endpoint>/run-case; the whole JSON answer is read
 * (up to max_body_bytes) and judged by http_case_record.c. The session has
 * its own retry policy (the original runner's), which the scheduler applies
 * through the retries/backoff_ms ops.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/adapter.h"
#include "proto/http.h"
#include "proto/http_case_int.h"

#define DEFAULT_MAX_BODY 2000000u
#define BACKOFF_BASE_MS 250
#define BACKOFF_MAX_DOUBLINGS 6 /* 250 ms x 2^6 = 16 s at most */
#define RETRY_AFTER_MAX_MS 60000

struct hc_session {
    struct an_session base;
    char *url;
    char *case_id;
    char *version;
    json_t *context;       /* NULL: none */
    struct an_kv *headers; /* deep copies */
    size_t nheaders;
    int64_t timeout_ms;
    unsigned retries;
    size_t max_body, snippet;

    /* the attempt in flight */
    unsigned attempt;
    int64_t start_mono;
    int64_t retry_after_ms;
    struct an_buf body;
    char *req_body;
    struct an_http_req req;
    struct an_http_resp resp;
    struct an_http_xfer xfer;
    bool active;
};

static int on_body(void *ud, const char *p, size_t n)
{
    struct hc_session *s = ud;
    return an_buf_append(&s->body, p, n); /* the cap: max_body_bytes */
}

static void io_release(struct hc_session *s)
{
    an_http_xfer_release(&s->xfer);
    an_buf_release(&s->body);
    free(s->req_body);
    s->req_body = NULL;
    s->active = false;
}

static char *request_body(const struct hc_session *s, const char *user)
{
    json_t *input = json_pack("{s:o}", "user", an_json_lossy(user, strlen(user)));
    if (s->context)
        json_object_set(input, "context", s->context);
    json_t *o = json_pack("{s:o,s:o,s:o}", "case_id", an_json_lossy(s->case_id, strlen(s->case_id)),
                          "version", an_json_lossy(s->version, strlen(s->version)), "input", input);
    char *t = an_json_compact(o);
    json_decref(o);
    return t;
}

static int hc_begin(struct an_session *base, struct an_transcript *t, const char *user, bool retry,
                    CURL **easy)
{
    struct hc_session *s = (struct hc_session *)base;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    struct an_err herr = AN_ERR_INIT;

    *easy = NULL;
    if (s->active)
        io_release(s);
    if (!user) {
        an_turn_fail(r, AN_EUSAGE, "a run-case request needs the user's message");
        return AN_EUSAGE;
    }
    if (retry)
        an_transcript_drop_calls(t, r->first_call); /* a failed attempt records none; be sure */
    s->attempt = retry ? s->attempt + 1 : 1;
    s->retry_after_ms = -1;
    if (!r->input)
        r->input = an_xstrdup(user);

    an_buf_init(&s->body, s->max_body);
    s->req_body = request_body(s, user);
    struct an_http_req req = AN_HTTP_REQ_INIT;
    req.url = s->url;
    req.accept = "application/json";
    req.headers = s->headers;
    req.nheaders = s->nheaders;
    req.body = s->req_body;
    req.body_len = strlen(s->req_body);
    req.timeout_ms = s->timeout_ms;
    req.max_body = s->max_body;
    req.every_body = true; /* a failed answer's body is kept (body_snippet_bytes) */
    req.traceparent = r->traceparent;
    req.on_data = on_body;
    req.ud = s;
    s->req = req;
    s->active = true;

    r->start_ms = an_clock_unix_ms();
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    s->start_mono = an_clock_mono_ms();
    int rc = an_http_xfer_init(&s->xfer, &s->req, &s->resp, &herr);
    if (rc) {
        an_turn_fail(r, rc, "%s", herr.msg);
        r->end_ms = t->end_ms = an_clock_unix_ms();
        io_release(s);
        return rc;
    }
    *easy = s->xfer.easy;
    return AN_OK;
}

static void hc_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct hc_session *s = (struct hc_session *)base;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    struct an_err herr = AN_ERR_INIT;
    if (!s->active)
        return;
    int rc = an_http_xfer_done(&s->xfer, cc, &herr);
    int64_t now = an_clock_unix_ms();
    s->retry_after_ms = s->resp.retry_after_ms;
    if (cc != CURLE_ABORTED_BY_CALLBACK) { /* else the caller said why the turn ended */
        struct an_hc_attempt a = {
            .url = s->url,
            .cc = cc,
            .rc = rc,
            .why = herr.msg,
            .status = s->resp.status,
            .body = an_buf_cstr(&s->body),
            .body_len = s->body.len,
            .retry_after_ms = s->resp.retry_after_ms,
            .timeout_ms = s->timeout_ms,
            .latency_ms = an_clock_mono_ms() - s->start_mono,
            .attempt = s->attempt,
            .snippet_bytes = s->snippet,
            .max_body_bytes = s->max_body,
        };
        an_hc_finish(t, &a, now);
    }
    r->end_ms = t->end_ms = now;
    io_release(s);
}

static int64_t hc_retry_after(const struct an_session *base)
{
    return ((const struct hc_session *)base)->retry_after_ms;
}

static unsigned hc_retries(const struct an_session *base)
{
    return ((const struct hc_session *)base)->retries;
}

/* The original runner's backoff: 250 ms x 2^(retry-1), the doubling capped
 * at 2^6, plus up to 20 % jitter; an answer's Retry-After wins. */
static int64_t hc_backoff(const struct an_session *base, unsigned retry)
{
    const struct hc_session *s = (const struct hc_session *)base;
    if (s->retry_after_ms >= 0)
        return s->retry_after_ms < RETRY_AFTER_MAX_MS ? s->retry_after_ms : RETRY_AFTER_MAX_MS;
    unsigned d = retry > 0 ? retry - 1 : 0;
    if (d > BACKOFF_MAX_DOUBLINGS)
        d = BACKOFF_MAX_DOUBLINGS;
    int64_t base_ms = (int64_t)BACKOFF_BASE_MS << d;
    return base_ms + (int64_t)(random() % (base_ms / 5 + 1));
}

static void hc_free(struct an_session *base)
{
    struct hc_session *s = (struct hc_session *)base;
    if (s->active)
        io_release(s);
    free(s->url);
    free(s->case_id);
    free(s->version);
    json_decref(s->context);
    an_kv_free(s->headers, s->nheaders);
    free(s);
}

static const struct an_session_ops http_case_ops = {
    .name = "http",
    .begin = hc_begin,
    .end = hc_end,
    .retry_after_ms = hc_retry_after,
    .retries = hc_retries,
    .backoff_ms = hc_backoff,
    .free = hc_free,
};

int an_http_case_open(struct an_session **out, const struct an_http_case_opts *o,
                      struct an_err *err)
{
    *out = NULL;
    if (!o->base_url || !*o->base_url)
        return an_fail(err, AN_EUSAGE, NULL, "http target has no endpoint");
    if (!o->case_id || !*o->case_id)
        return an_fail(err, AN_EUSAGE, NULL, "a run-case request needs a case id");
    int rc = an_http_headers_check(o->headers, o->nheaders, o->base_url, err);
    if (rc)
        return rc;
    rc = an_http_global_init("an http target", err);
    if (rc)
        return rc;
    struct hc_session *s = an_xcalloc(1, sizeof *s);
    s->base.ops = &http_case_ops;
    size_t n = strlen(o->base_url);
    while (n > 0 && o->base_url[n - 1] == '/')
        n--;
    s->url = an_xmalloc(n + sizeof "/run-case");
    memcpy(s->url, o->base_url, n);
    memcpy(s->url + n, "/run-case", sizeof "/run-case");
    s->case_id = an_xstrdup(o->case_id);
    s->version = an_xstrdup(o->version && *o->version ? o->version : "new");
    s->context = o->context ? json_deep_copy(o->context) : NULL;
    an_kv_append(&s->headers, &s->nheaders, o->headers, o->nheaders);
    s->timeout_ms = o->timeout_ms;
    s->retries = o->retries;
    s->max_body = o->max_body_bytes ? o->max_body_bytes : DEFAULT_MAX_BODY;
    s->snippet = o->body_snippet_bytes;
    s->retry_after_ms = -1;
    *out = &s->base;
    return AN_OK;
}
