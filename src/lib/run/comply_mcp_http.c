/*
 * The `mcpHttp` step: one HTTP request of an MCP test to the server's
 * Streamable HTTP endpoint, sent by the engine itself (not through the
 * bridge), so that the test sees HTTP: the headers it sends or leaves
 * out, the status and headers of the answer, a DELETE.
 *
 * Over stdio (a test whose `transports` name it) comply_mcp_stdio.c
 * sends the step's `json` on the pipe instead.
 *
 * The test keeps its own session: the Mcp-Session-Id of the last answer
 * that carried one goes on every later mcpHttp request but an initialize
 * (unless the step says `session: false` or names the header itself). The outcome the
 * step's expectation is matched against (docs/comply.md "Steps that see
 * HTTP"):
 *   status    completed (an answer came, any HTTP status) | timeout |
 *             transport_error
 *   error     what went wrong, or null
 *   http      {"status": 400, "contentType": "...", "headers": {lower-case
 *             name: value}}
 *   messages  the JSON-RPC messages of the answer: a JSON body, or each
 *             SSE event's data (an event stream is read until the answer
 *             to the request's id; one for a GET, a DELETE or a
 *             notification is not read past its headers)
 *   body      the start of a body that is not JSON (else null)
 *   first     the first of the messages, or null
 * A step with `listenMs` reads its answer's stream for that long, whatever
 * comes (a subscription: the stream is not expected to end), and its
 * window ending is no timeout; with `during`, that request is sent on its
 * own connection once the stream's first message came, and its outcome
 * (as above) is the outcome's `during` (null when it was never sent).
 */
#include "run/comply_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/buf.h"
#include "core/cancel.h"
#include "core/json.h"
#include "core/jsonmatch.h"
#include "proto/http.h"
#include "proto/sse.h"
#include "run/comply_agui.h"

#define MAX_ANSWER (16u << 20) /* one step's answer */
#define BODY_SHOWN 2000
#define HEADERS_MAX 64

struct hreq;

struct hx {
    const struct an_http_resp *resp;
    const struct hreq *during; /* sent once the first message came, or NULL */
    pthread_t during_th;
    bool during_started;
    json_t *during_out; /* its outcome, once joined */
    const json_t *rid; /* the request's id, or NULL: read no stream */
    json_t *headers;   /* lower-case name -> value */
    json_t *messages;
    struct an_sse_parser sse;
    struct an_buf body;
    bool done; /* what the step waits for is in: the transfer was stopped */
    size_t max_messages; /* more in one answer: the transfer stops, a transport error */
    bool over;
};

static size_t on_header(char *line, size_t size, size_t nitems, void *ud)
{
    struct hx *x = ud;
    size_t n = size * nitems;
    if (!strncmp(line, "HTTP/", 5)) { /* a new answer (after a 100): its own headers */
        json_object_clear(x->headers);
        return n;
    }
    if (n <= 2 && !x->rid) { /* the end of the headers: an event stream is not read */
        const char *ct = an_json_str(x->headers, "content-type");
        if (ct && !strncasecmp(ct, "text/event-stream", 17)) {
            x->done = true;
            return 0;
        }
        return n;
    }
    const char *colon = memchr(line, ':', n);
    if (!colon || json_object_size(x->headers) >= HEADERS_MAX)
        return n;
    char name[128];
    size_t k = (size_t)(colon - line);
    if (!k || k >= sizeof name)
        return n;
    for (size_t i = 0; i < k; i++)
        name[i] = (char)(line[i] >= 'A' && line[i] <= 'Z' ? line[i] + 32 : line[i]);
    name[k] = '\0';
    const char *v = colon + 1;
    size_t vl = n - k - 1;
    while (vl && (*v == ' ' || *v == '\t'))
        v++, vl--;
    while (vl && (v[vl - 1] == '\r' || v[vl - 1] == '\n' || v[vl - 1] == ' '))
        vl--;
    char *val = an_utf8_lossy(v, vl);
    json_object_set_new(x->headers, name, json_string(val));
    free(val);
    return n;
}

static json_t *exchange(const struct hreq *rq);

static void *during_thread(void *arg)
{
    struct hx *x = arg;
    x->during_out = exchange(x->during);
    an_http_thread_cleanup();
    return NULL;
}

static void add_message(struct hx *x, const char *p, size_t n)
{
    if (json_array_size(x->messages) >= x->max_messages) {
        x->over = x->done = true;
        return;
    }
    json_t *m = an_json_parse(p, n, NULL, 0);
    if (!m)
        m = an_json_lossy(p, n);
    if (x->rid && json_is_object(m) && json_equal(json_object_get(m, "id"), (json_t *)x->rid) &&
        !json_object_get(m, "method"))
        x->done = true;
    json_array_append_new(x->messages, m);
    if (x->during && !x->during_started && json_array_size(x->messages) == 1)
        x->during_started = !pthread_create(&x->during_th, NULL, during_thread, x);
}

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct hx *x = ud;
    if (ev->len) /* a priming event (an id, no data) carries nothing */
        add_message(x, ev->data, ev->len);
    return x->done ? AN_EINTERNAL : 0;
}

static bool is_sse(const struct hx *x)
{
    return !strncasecmp(x->resp->content_type, "text/event-stream", 17);
}

static int on_data(void *ud, const char *p, size_t n)
{
    struct hx *x = ud;
    if (!is_sse(x))
        return an_buf_append(&x->body, p, n) ? AN_ELIMIT : 0;
    if (!x->rid) { /* a stream the step does not read: its headers were the answer */
        x->done = true;
        return AN_EINTERNAL;
    }
    int rc = an_sse_feed(&x->sse, p, n);
    return x->done ? AN_EINTERNAL : rc;
}

/* The outcome object (above) of a finished exchange. New reference. */
static json_t *outcome(struct hx *x, int rc, const struct an_err *err, long status)
{
    json_t *o = json_object();
    const char *st = "completed", *why = NULL;
    char over[128];
    if (x->over) {
        snprintf(over, sizeof over, "more than %zu messages in one answer (max_messages)",
                 x->max_messages);
        st = "transport_error", why = over;
    } else if (x->done || !rc || rc == AN_EHTTP) {
        if (!is_sse(x) && x->body.len) {
            json_t *j = an_json_parse(x->body.data, x->body.len, NULL, 0);
            if (json_is_array(j))
                json_array_extend(x->messages, j);
            else if (j)
                json_array_append(x->messages, j);
            else {
                char *b = an_utf8_lossy(x->body.data,
                                        x->body.len < BODY_SHOWN ? x->body.len : BODY_SHOWN);
                json_object_set_new(o, "body", json_string(b));
                free(b);
            }
            json_decref(j);
        }
    } else if (rc == AN_ETIMEOUT) {
        st = "timeout", why = err->msg;
    } else {
        st = "transport_error", why = err->msg;
    }
    if (!json_object_get(o, "body"))
        json_object_set_new(o, "body", json_null());
    json_object_set_new(o, "status", json_string(st));
    json_object_set_new(o, "error", why ? json_string(why) : json_null());
    json_object_set_new(o, "http",
                        json_pack("{s:I,s:s,s:O}", "status", (json_int_t)status, "contentType",
                                  x->resp->content_type, "headers", x->headers));
    json_object_set(o, "messages", x->messages);
    json_t *first = json_array_get(x->messages, 0);
    json_object_set(o, "first", first ? first : json_null());
    if (x->during)
        json_object_set(o, "during", x->during_out ? x->during_out : json_null());
    return o;
}

struct hreq {
    const char *url, *method, *accept, *body;
    const json_t *headers, *rid;
    int64_t window_ms;
    int64_t listen_ms;         /* read the stream this long, whatever comes; 0: not */
    size_t max_messages;       /* 0: AN_COMPLY_MAX_MESSAGES */
    const struct hreq *during; /* listen_ms: sent once the first message came */
};

static json_t *exchange(const struct hreq *rq)
{
    struct hx x = {.rid = rq->rid,
                   .during = rq->during,
                   .max_messages = rq->max_messages ? rq->max_messages : AN_COMPLY_MAX_MESSAGES,
                   .headers = json_object(),
                   .messages = json_array()};
    an_sse_init(&x.sse, MAX_ANSWER, on_event, &x);
    an_buf_init(&x.body, MAX_ANSWER);
    struct an_http_req req;
    struct an_kv *kv = an_comply_http_req(&req, rq->url, rq->method, rq->headers, rq->body);
    req.accept = rq->accept;
    req.timeout_ms = rq->listen_ms ? rq->listen_ms : rq->window_ms;
    req.max_body = MAX_ANSWER;
    req.every_body = true;
    req.on_data = on_data;
    req.ud = &x;
    struct an_http_resp resp;
    memset(&resp, 0, sizeof resp);
    x.resp = &resp;
    struct an_http_xfer xf;
    struct an_err err = AN_ERR_INIT;
    int rc = an_http_xfer_init(&xf, &req, &resp, &err);
    if (!rc) {
        an_comply_http_method(&xf, rq->method);
        curl_easy_setopt(xf.easy, CURLOPT_HEADERFUNCTION, on_header);
        curl_easy_setopt(xf.easy, CURLOPT_HEADERDATA, &x);
        curl_easy_setopt(xf.easy, CURLOPT_XFERINFOFUNCTION, an_http_cancel_progress);
        curl_easy_setopt(xf.easy, CURLOPT_NOPROGRESS, 0L);
        CURLcode cc = curl_easy_perform(xf.easy);
        rc = an_http_xfer_done(&xf, cc, &err);
        if (cc == CURLE_OPERATION_TIMEDOUT)
            rc = rq->listen_ms && resp.status ? 0 : AN_ETIMEOUT; /* listened to the end */
        an_http_xfer_release(&xf);
    }
    if (x.during_started)
        pthread_join(x.during_th, NULL);
    json_t *o = outcome(&x, rc, &err, resp.status);
    json_decref(x.during_out);
    free(kv);
    an_sse_release(&x.sse);
    an_buf_release(&x.body);
    json_decref(x.headers);
    json_decref(x.messages);
    return o;
}

json_t *comply_mcp_http_post(const char *url, const json_t *headers, const json_t *js,
                             int64_t window_ms)
{
    char *body = an_json_compact(js);
    struct hreq rq = {.url = url,
                      .method = "POST",
                      .accept = "application/json, text/event-stream",
                      .body = body,
                      .headers = headers,
                      .rid = json_object_get(js, "id"),
                      .window_ms = window_ms};
    json_t *o = exchange(&rq);
    free(body);
    return o;
}

static bool has_header(const json_t *headers, const char *name)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)headers, k, v)
    {
        if (!strcasecmp(k, name))
            return true;
    }
    return false;
}

/* The test's session: the id the last answer minted, kept for the next
 * steps. */
static void keep_session(struct eng *e, const json_t *o)
{
    const char *sid =
        an_json_str(json_object_get(json_object_get(o, "http"), "headers"), "mcp-session-id");
    if (!sid)
        return;
    free(e->http_sid);
    e->http_sid = an_xstrdup(sid);
}

/* naUnless: the answer shows the test does not apply (a server without
 * sessions, one that does not let clients end them): NA, its reason. */
static bool not_applicable(struct eng *e, const struct an_jsont_agui *g, const json_t *o)
{
    if (!g->na_unless || an_jm_match(g->na_unless, o))
        return false;
    char *d = comply_agui_describe(o);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "%s (%s)", g->na_reason, d);
    free(d);
    free(e->na);
    e->na = an_buf_detach(&b, NULL);
    return true;
}

/* The first difference leads an unmet entry's message, so the progress
 * line says what came ("http.status: expected /^404$/, got 400"). */
static void say_what_differs(struct an_comply_test *out, size_t from)
{
    for (size_t i = from; i < out->nunmet; i++) {
        struct an_comply_unmet *u = &out->unmet[i];
        if (!u->ndiff || !u->diff[0])
            continue;
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "%s (%s)", u->diff[0], u->message);
        free(u->message);
        u->message = an_buf_detach(&b, NULL);
    }
}

/* One copy of the step (`concurrent` sends several), resolved with
 * ${copy}: what is sent and what is expected of its answer. */
struct copy {
    json_t *headers, *js, *expect, *any_of, *o;
    char *accept, *body;
    struct hreq rq;
    json_t *during_headers, *during_js; /* `during`, resolved */
    char *during_body;
    struct hreq during;
};

static void copy_release(struct copy *c)
{
    json_decref(c->headers);
    json_decref(c->js);
    json_decref(c->expect);
    json_decref(c->any_of);
    json_decref(c->o);
    free(c->accept);
    free(c->body);
    json_decref(c->during_headers);
    json_decref(c->during_js);
    free(c->during_body);
}

/* Copy k's request and expectation, resolved with ${copy} = k. */
static int resolve_copy(struct eng *e, const struct an_jsont_agui *g, unsigned k, struct copy *c,
                        struct an_err *err)
{
    char n[16];
    snprintf(n, sizeof n, "%u", k);
    an_vars_set(&e->vars, "copy", n);
    int rc = 0;
    if ((g->headers && (rc = an_jsont_resolve(g->headers, &e->vars, false, &c->headers, err))) ||
        (g->accept && (rc = an_jsont_resolve_str(g->accept, &e->vars, false, &c->accept, err))) ||
        (g->json && (rc = an_jsont_resolve(g->json, &e->vars, false, &c->js, err))) ||
        (g->body && (rc = an_jsont_resolve_str(g->body, &e->vars, false, &c->body, err))) ||
        (rc = an_jsont_resolve(g->expect, &e->vars, true, &c->expect, err)) ||
        (g->any_of && (rc = an_jsont_resolve(g->any_of, &e->vars, true, &c->any_of, err))))
        return rc;
    if (g->during) {
        const json_t *dh = json_object_get(g->during, "headers");
        if ((rc = an_jsont_resolve(json_object_get(g->during, "json"), &e->vars, false,
                                   &c->during_js, err)) ||
            (dh && (rc = an_jsont_resolve(dh, &e->vars, false, &c->during_headers, err))))
            return rc;
        if (!c->during_headers)
            c->during_headers = json_object();
        c->during_body = an_json_compact(c->during_js);
    }
    if (!c->headers)
        c->headers = json_object();
    if (c->js && !c->body)
        c->body = an_json_compact(c->js);
    return 0;
}

/* -v: one request as sent, `tag` before it. */
static void vrequest(struct eng *e, const char *verb, const struct hreq *rq, const char *tag)
{
    char *h = an_json_compact(rq->headers);
    struct an_buf v = AN_BUF_INIT;
    an_buf_printf(&v, "%s%s %s %s %s", tag, verb, rq->url, h, rq->body ? rq->body : "");
    comply_vframe(e, true, v.data, v.len);
    an_buf_release(&v);
    free(h);
}

/* Copy c's HTTP request: the test's session added (an initialize starts a
 * new one: it carries none). */
static void prepare(struct eng *e, const struct an_jsont_step *st, struct copy *c)
{
    const struct an_jsont_agui *g = st->agui;
    bool init =
        !strcmp(an_json_str(c->js, "method") ? an_json_str(c->js, "method") : "", "initialize");
    if (!g->no_session && !init && e->http_sid && !has_header(c->headers, "Mcp-Session-Id"))
        json_object_set_new(c->headers, "Mcp-Session-Id", json_string(e->http_sid));
    const char *verb = g->method ? g->method : "POST";
    c->rq =
        (struct hreq){.url = e->http_url,
                      .method = verb,
                      .accept = c->accept               ? c->accept
                                : !strcmp(verb, "POST") ? "application/json, text/event-stream"
                                : !strcmp(verb, "GET")  ? "text/event-stream"
                                                        : NULL,
                      .body = c->body ? c->body : "",
                      .headers = c->headers,
                      .rid = json_object_get(c->js, "method") ? json_object_get(c->js, "id") : NULL,
                      .window_ms = comply_window(e, st->ms),
                      .listen_ms = g->listen_ms ? comply_window(e, g->listen_ms) : 0,
                      .max_messages = comply_max_messages(e)};
    if (g->during) { /* on its own connection, with the test's session */
        if (!g->no_session && e->http_sid && !has_header(c->during_headers, "Mcp-Session-Id"))
            json_object_set_new(c->during_headers, "Mcp-Session-Id", json_string(e->http_sid));
        c->during = (struct hreq){.url = e->http_url,
                                  .method = "POST",
                                  .accept = "application/json, text/event-stream",
                                  .body = c->during_body,
                                  .headers = c->during_headers,
                                  .rid = json_object_get(c->during_js, "id"),
                                  .window_ms = comply_window(e, st->ms),
                                  .max_messages = comply_max_messages(e)};
        c->rq.during = &c->during;
    }
    if (e->o->verbose) { /* -v: the request (and `during`'s) and what came back */
        vrequest(e, verb, &c->rq, "");
        if (c->rq.during)
            vrequest(e, "POST", c->rq.during, "(during) ");
    }
}

/* What the engine keeps of an answer: its session, its messages, -v. */
static void took(struct eng *e, const json_t *o)
{
    if (e->o->verbose) {
        char *d = an_json_compact(o);
        comply_vframe(e, false, d, strlen(d));
        free(d);
    }
    keep_session(e, o);
    json_array_extend(e->http_seen, json_object_get(o, "messages"));
}

static void *exchange_thread(void *arg)
{
    struct copy *c = arg;
    c->o = exchange(&c->rq);
    an_http_thread_cleanup();
    return NULL;
}

/* Every copy's exchange: one, or all at once on their own connections
 * (over stdio one after another: there is one pipe). */
static void exchange_all(struct eng *e, const struct an_jsont_step *st, struct copy *cs, unsigned n)
{
    if (!e->http_url) { /* over stdio: the request on the pipe, no HTTP to judge */
        for (unsigned k = 0; k < n; k++) {
            comply_mcp_stdio_unhttp(cs[k].expect, &cs[k].any_of);
            const struct an_jsont_agui *g = st->agui;
            cs[k].o = g->listen_ms ? comply_mcp_stdio_listen(e, cs[k].js,
                                                             comply_window(e, g->listen_ms),
                                                             cs[k].during_js,
                                                             comply_window(e, st->ms))
                                   : comply_mcp_stdio_exchange(e, cs[k].js,
                                                               comply_window(e, st->ms));
        }
        return;
    }
    pthread_t th[AN_JSONT_MAX_CONCURRENT];
    bool started[AN_JSONT_MAX_CONCURRENT] = {false};
    for (unsigned k = 0; k < n; k++)
        prepare(e, st, &cs[k]);
    for (unsigned k = 1; k < n; k++)
        started[k] = !pthread_create(&th[k], NULL, exchange_thread, &cs[k]);
    cs[0].o = exchange(&cs[0].rq);
    for (unsigned k = 1; k < n; k++) {
        if (started[k])
            pthread_join(th[k], NULL);
        else
            cs[k].o = exchange(&cs[k].rq);
    }
    for (unsigned k = 0; k < n; k++)
        took(e, cs[k].o);
}

/* Copy k of n failed: its unmet entries from `from` on say which. */
static void say_copy(struct an_comply_test *out, size_t from, unsigned k, unsigned n)
{
    for (size_t i = from; i < out->nunmet; i++) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "copy %u of %u sent at once: %s", k + 1, n, out->unmet[i].message);
        free(out->unmet[i].message);
        out->unmet[i].message = an_buf_detach(&b, NULL);
    }
}

bool comply_step_mcp_http(struct eng *e, const struct an_jsont_step *st)
{
    const struct an_jsont_agui *g = st->agui;
    unsigned n = g->concurrent ? g->concurrent : 1;
    struct copy cs[AN_JSONT_MAX_CONCURRENT];
    memset(cs, 0, sizeof cs);
    struct an_err err = AN_ERR_INIT;
    long *matched = NULL;
    bool ok = true;
    for (unsigned k = 0; k < n && ok; k++)
        if (resolve_copy(e, g, k, &cs[k], &err)) {
            comply_unmet_add(e, "step", (int)st->index, "mcpHttp: %s", err.msg);
            ok = false;
        }
    an_vars_set(&e->vars, "copy", "0");
    if (!ok)
        goto done;
    exchange_all(e, st, cs, n);
    for (unsigned k = 0; k < n; k++) {
        size_t before = e->out->nunmet;
        free(matched);
        matched = NULL;
        bool met = comply_agui_judge(cs[k].expect, cs[k].any_of, cs[k].o, (int)st->index, e->out,
                                     &matched);
        if (!met && !strcmp(an_json_str(cs[k].o, "status"), "completed"))
            say_what_differs(e->out, before);
        if (!met && n > 1)
            say_copy(e->out, before, k, n);
        if (k == 0 && met && not_applicable(e, g, cs[0].o))
            ok = false, n = 0;
        else if (k == 0 && met)
            ok = comply_captures(e->out, &e->vars, st, cs[0].o, matched);
        ok = ok && met;
    }
    ok = ok && !an_cancelled();
done:
    free(matched);
    for (unsigned k = 0; k < AN_JSONT_MAX_CONCURRENT; k++)
        copy_release(&cs[k]);
    return ok;
}
