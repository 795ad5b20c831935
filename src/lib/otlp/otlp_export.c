/* The exporter (ananke/otlp.h): spans into batches, batches to the
 * collector over OTLP/HTTP. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/interp.h"
#include "otlp/otlp_int.h"
#include "proto/http.h"

#define OTLP_MAX_ANSWER (1024 * 1024) /* what a collector answers is read and dropped */

struct an_otlp {
    struct an_otlp_opts o; /* strings and arrays below are the exporter's copies */
    char *url;
    struct an_kv *headers;
    size_t nheaders;
    struct an_buf batch; /* encoded spans (JSON: separated by commas) */
    size_t nbatch;       /* spans in it */
    size_t overhead;     /* the request's bytes around the spans */
    size_t sent, dropped;
    bool failed; /* an export failed: nothing more is sent */
};

static void say(const struct an_otlp *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static void say(const struct an_otlp *x, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (x->o.warn)
        x->o.warn(msg, x->o.ud);
    else
        fprintf(stderr, "ananke: warning: %s\n", msg);
}

/* OTLP's base endpoint gets the traces path; a URL with a path is the
 * traces endpoint itself */
static char *traces_url(const char *endpoint)
{
    const char *host = strstr(endpoint, "://");
    host = host ? host + 3 : endpoint;
    const char *path = strchr(host, '/');
    if (path && strcmp(path, "/") != 0)
        return an_xstrdup(endpoint);
    size_t n = path ? (size_t)(path - endpoint) : strlen(endpoint);
    char *u = an_xmalloc(n + sizeof "/v1/traces");
    memcpy(u, endpoint, n);
    memcpy(u + n, "/v1/traces", sizeof "/v1/traces");
    return u;
}

static void request(const struct an_otlp_opts *o, const char *spans, size_t n, struct an_buf *b)
{
    const char *svc = o->service_name ? o->service_name : "ananke";
    if (o->json)
        otlp_json_request(b, svc, spans, n);
    else
        otlp_pb_request(b, svc, spans, n);
}

int an_otlp_new_opts(struct an_otlp **out, const struct an_otlp_opts *o, struct an_err *err)
{
    *out = NULL;
    if (!o->endpoint || (strncmp(o->endpoint, "http://", 7) && strncmp(o->endpoint, "https://", 8)))
        return an_fail(err, AN_EUSAGE, NULL, "otlp endpoint '%s' is not an http(s) URL",
                       o->endpoint ? o->endpoint : "");
    struct an_otlp *x = an_xcalloc(1, sizeof *x);
    x->o = *o;
    x->o.endpoint = NULL; /* borrowed; the exporter keeps url */
    x->o.header_names = x->o.header_values = NULL;
    x->o.service_name = o->service_name ? an_xstrdup(o->service_name) : NULL;
    x->o.tracestate = o->tracestate ? an_xstrdup(o->tracestate) : NULL;
    if (!x->o.timeout_ms)
        x->o.timeout_ms = AN_OTLP_TIMEOUT_MS_DEFAULT;
    if (!x->o.max_batch_bytes)
        x->o.max_batch_bytes = AN_OTLP_MAX_BATCH_BYTES_DEFAULT;
    if (!x->o.max_attribute_bytes)
        x->o.max_attribute_bytes = AN_OTLP_MAX_ATTRIBUTE_BYTES_DEFAULT;
    x->url = traces_url(o->endpoint);
    x->headers = an_xcalloc(o->nheaders + 1, sizeof *x->headers);
    for (size_t i = 0; i < o->nheaders; i++) {
        x->headers[i].name = an_xstrdup(o->header_names[i]);
        x->headers[i].value = an_xstrdup(o->header_values[i]);
    }
    x->nheaders = o->nheaders;
    struct an_buf empty = AN_BUF_INIT;
    request(&x->o, "", 0, &empty);
    x->overhead = empty.len;
    an_buf_release(&empty);
    *out = x;
    return AN_OK;
}

/* the config's header values with their ${ENV} references filled */
static int fill_headers(const struct an_otlp_config *cfg, char **vals, struct an_err *err)
{
    static const struct an_vars none;
    for (size_t i = 0; i < cfg->nheaders; i++) {
        int rc = an_interp(cfg->header_values[i], &cfg->header_locs[i], &none, &vals[i], err);
        if (rc)
            return rc;
        if (strpbrk(vals[i], "\r\n"))
            return an_fail(err, AN_EUSAGE, &cfg->header_locs[i],
                           "otlp header '%s' holds a line break", cfg->header_names[i]);
    }
    return 0;
}

int an_otlp_new(struct an_otlp **out, const struct an_otlp_config *cfg, const char *endpoint,
                void (*warn)(const char *msg, void *ud), void *ud, struct an_err *err)
{
    static const struct an_vars none;
    static const struct an_otlp_config off;
    if (!cfg)
        cfg = &off;
    *out = NULL;
    struct an_otlp_opts o = {
        .json = cfg->protocol && !strcmp(cfg->protocol, "http/json"),
        .service_name = cfg->service_name,
        .tracestate = cfg->tracestate,
        .timeout_ms = cfg->timeout_ms,
        .max_batch_bytes = (size_t)cfg->max_batch_bytes,
        .max_attribute_bytes = (size_t)cfg->max_attribute_bytes,
        .header_names = cfg->header_names,
        .nheaders = cfg->nheaders,
        .warn = warn,
        .ud = ud,
    };
    char *url = NULL;
    char **vals = an_xcalloc(cfg->nheaders + 1, sizeof *vals);
    int rc = 0;
    if (endpoint)
        url = an_xstrdup(endpoint);
    else if (!cfg->endpoint)
        rc = an_fail(err, AN_EUSAGE, cfg->present ? &cfg->loc : NULL,
                     "'otlp' names no endpoint (give 'endpoint' or --otlp ENDPOINT)");
    else
        rc = an_interp(cfg->endpoint, &cfg->endpoint_loc, &none, &url, err);
    if (!rc && !(rc = fill_headers(cfg, vals, err))) {
        o.endpoint = url;
        o.header_values = (const char *const *)vals;
        rc = an_otlp_new_opts(out, &o, err);
    }
    for (size_t i = 0; i < cfg->nheaders; i++)
        free(vals[i]);
    free(vals);
    free(url);
    return rc;
}

static int discard(void *ud, const char *p, size_t n)
{
    (void)ud;
    (void)p;
    (void)n;
    return 0;
}

/* POST the batch; a failure warns once and stops later exports */
static void send_batch(struct an_otlp *x)
{
    if (!x->nbatch)
        return;
    if (x->failed) {
        x->dropped += x->nbatch;
        goto done;
    }
    struct an_buf body = AN_BUF_INIT;
    request(&x->o, an_buf_cstr(&x->batch), x->batch.len, &body);
    struct an_http_req req = AN_HTTP_REQ_INIT;
    req.url = x->url;
    req.content_type = x->o.json ? "application/json" : "application/x-protobuf";
    req.accept = x->o.json ? "application/json" : "application/x-protobuf";
    req.headers = x->headers;
    req.nheaders = x->nheaders;
    req.body = an_buf_cstr(&body);
    req.body_len = body.len;
    req.timeout_ms = x->o.timeout_ms;
    req.connect_timeout_ms = x->o.timeout_ms;
    req.max_body = OTLP_MAX_ANSWER;
    req.on_data = discard;
    struct an_http_resp resp;
    struct an_err err = AN_ERR_INIT;
    int rc = an_http_post_stream(&req, &resp, &err);
    an_buf_release(&body);
    if (rc) {
        x->failed = true;
        x->dropped += x->nbatch;
        say(x, "otlp: export to '%s' failed, %zu span%s not sent, no more exports this run: %s",
            x->url, x->nbatch, x->nbatch == 1 ? "" : "s", err.msg);
    } else {
        x->sent += x->nbatch;
    }
done:
    an_buf_reset(&x->batch);
    x->nbatch = 0;
}

/* One encoded span into the batch, sending the batch first when the span
 * would push it past max_batch_bytes. */
static void batch_add(struct an_otlp *x, const struct an_buf *span, const char *test)
{
    size_t sep = x->o.json && x->nbatch ? 1 : 0;
    if (x->overhead + span->len > x->o.max_batch_bytes) {
        x->dropped++;
        say(x,
            "otlp: a span of test '%.200s' (%zu bytes) is larger than otlp.max_batch_bytes "
            "(%zu): left out",
            test, span->len + x->overhead, x->o.max_batch_bytes);
        return;
    }
    if (x->overhead + x->batch.len + sep + span->len > x->o.max_batch_bytes) {
        send_batch(x);
        sep = 0;
    }
    if (sep)
        an_buf_putc(&x->batch, ',');
    an_buf_append(&x->batch, span->data ? span->data : "", span->len);
    x->nbatch++;
}

static void encode_span(const struct an_otlp_opts *o, const struct otlp_span *s, struct an_buf *b)
{
    if (o->json)
        otlp_json_span(b, s, o->tracestate);
    else
        otlp_pb_span(b, s, o->tracestate);
}

void an_otlp_add(struct an_otlp *x, const struct an_test_result *t)
{
    struct an_arena a = AN_ARENA_INIT;
    struct otlp_spans sp = {.a = &a, .max_attr = x->o.max_attribute_bytes};
    otlp_spans_of(&sp, t);
    if (x->failed) { /* nothing more is sent this run: only counted */
        x->dropped += sp.n;
        an_arena_release(&a);
        return;
    }
    struct an_buf one = AN_BUF_INIT;
    for (size_t i = 0; i < sp.n; i++) {
        encode_span(&x->o, &sp.v[i], &one);
        batch_add(x, &one, t->name ? t->name : "");
        an_buf_reset(&one);
    }
    an_buf_release(&one);
    an_arena_release(&a);
}

void an_otlp_flush(struct an_otlp *x)
{
    if (!x)
        return;
    send_batch(x);
    if (x->dropped)
        say(x, "otlp: %zu span%s of this run not exported", x->dropped, x->dropped == 1 ? "" : "s");
    x->dropped = 0;
}

size_t an_otlp_sent(const struct an_otlp *x)
{
    return x ? x->sent : 0;
}

void an_otlp_free(struct an_otlp *x)
{
    if (!x)
        return;
    for (size_t i = 0; i < x->nheaders; i++) {
        free((char *)x->headers[i].name);
        free((char *)x->headers[i].value);
    }
    free(x->headers);
    free(x->url);
    free((char *)x->o.service_name);
    free((char *)x->o.tracestate);
    an_buf_release(&x->batch);
    free(x);
}

char *an_otlp_encode(const struct an_test_result *t, const struct an_otlp_opts *o, size_t *len)
{
    struct an_arena a = AN_ARENA_INIT;
    struct otlp_spans sp = {
        .a = &a,
        .max_attr = o->max_attribute_bytes ? o->max_attribute_bytes
                                           : AN_OTLP_MAX_ATTRIBUTE_BYTES_DEFAULT,
    };
    otlp_spans_of(&sp, t);
    struct an_buf spans = AN_BUF_INIT, body = AN_BUF_INIT;
    for (size_t i = 0; i < sp.n; i++) {
        if (o->json && i)
            an_buf_putc(&spans, ',');
        encode_span(o, &sp.v[i], &spans);
    }
    request(o, an_buf_cstr(&spans), spans.len, &body);
    an_buf_release(&spans);
    an_arena_release(&a);
    return an_buf_detach(&body, len);
}
