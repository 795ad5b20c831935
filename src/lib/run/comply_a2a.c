/*
 * The A2A compliance runner: one .jsont test against one A2A agent, its
 * base URL given (docs/comply.md "A2A"). The probe reads the agent card at
 * the well-known path; the JSON-RPC URL is the card's `url`, and only on
 * the base URL's origin: a card cannot send ananke elsewhere.
 *
 * Over REST (the agent's `binding` "rest", an_comply_a2a_bindings) each
 * step's JSON-RPC body is sent as its REST request under the card's
 * HTTP+JSON URL (proto/a2a_rest.h), and the answer is read back into the
 * same outcome: `response` {jsonrpc, id: the step's, result | error} in the
 * JSON-RPC shapes, each event likewise. The expected http.status is the
 * binding's to judge (rest_status), and a test whose `bindings` leave REST
 * out is NA.
 *
 * In A2A 1.0 (the revision judged, o->spec, is 1.0 or newer and the card
 * offers a 1.0 interface of the binding: speaks_v1) every request carries
 * A2A-Version: 1.0 and a step written in 0.3 is sent in the 1.0 shape,
 * its answer read back into the 0.3 one (proto/a2a_v1.h); a step written
 * in 1.0 is sent and judged as it is. Otherwise the run speaks 0.3
 * (negotiated down: not a failure). A test whose `revisions` leave out the
 * revision spoken is NA.
 *
 * Each `http` step is one request: a POST of its body to the JSON-RPC URL
 * (or to `path` on the base URL), or a GET of `path`. The whole answer is
 * read, bounded by the step's window and the caps: a JSON body, or an SSE
 * stream whose events are JSON-RPC responses. What came back becomes the
 * step's outcome object (below), which the step's expectation is matched
 * against with the AG-UI judge (the same pattern rules: `events` in order,
 * `noEvents`, `anyOf`).
 *
 * The outcome of one step:
 *   status    completed (an answer, read whole) | protocol_error (an SSE
 *             event or a JSON body that is not JSON, an event stream
 *             without events) | timeout | transport_error
 *   error     what went wrong, one line, or null
 *   http      {"status": 200, "contentType": "application/json"}
 *   response  the JSON body (a JSON-RPC response; the card for a GET), or null
 *   body      the start of a body that is not JSON, or null
 *   events    the SSE events' data, parsed (a frame that is not JSON: its text)
 *   kinds     "task:submitted status-update:working artifact-update
 *             status-update:completed": each event's result.kind, with the
 *             state of a task or status update; "error" for an error event
 *   last      the last event, or null
 *   sse       {"events", "notJson", "otherIds" (events under another
 *             JSON-RPC id than the request's), "finals" (status updates with
 *             final: true), "afterFinal" (events after the first final one)}
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/jsonmatch.h"
#include "core/spec_names.h"
#include "proto/a2a_rest.h"
#include "proto/a2a_v1.h"
#include "proto/http.h"
#include "proto/sse.h"
#include "proto/uuid.h"
#include "run/comply_agui.h"
#include "run/comply_int.h"
#include "run/comply_plan_int.h"
#include "run/comply_redact.h"

#define MAX_EVENT_BYTES ((size_t)16 << 20) /* --max-event-bytes */
#define MAX_BODY_BYTES ((size_t)64 << 20)  /* --max-turn-bytes */
#define PROBE_WINDOW_MS 30000
#define CARD_PATH "/.well-known/agent-card.json"

struct a2a_eng {
    const struct an_comply_opts *o;
    const char *base; /* the agent's base URL, without a trailing '/' */
    bool rest;        /* the binding spoken: REST (HTTP+JSON), else JSON-RPC */
    bool v1;          /* the revision spoken: A2A 1.0 (a2a_v1.h), else 0.3 */
    char *rpc;        /* the card's URL of that binding, or NULL */
    char *rpc_why;    /* why there is none */
    struct an_comply_test *out;
    struct an_vars vars;
    FILE *log;
    json_t *seen;
};

static char *base_of(const char *url);

static int64_t window(const struct an_comply_opts *o, int64_t ms)
{
    double f = o->timeout_scale > 0 ? o->timeout_scale : 1.0;
    int64_t w = (int64_t)((double)ms * f + 0.5);
    return w > 0 ? w : 1;
}

/* ---- one exchange ----------------------------------------------------- */

struct xfer {
    const struct an_http_resp *resp; /* its headers are in before the body */
    struct an_sse_parser sse;
    struct an_buf body;
    size_t max_body;
    json_t *events;
    size_t not_json;
    const json_t *rest_id; /* REST: events are read into JSON-RPC ones under this id */
    bool v1_in;            /* answers are 1.0: read back into the 0.3 shapes */
};

/* A REST answer (an SSE event's data, or a body with its HTTP status; 0
 * for an event) in the JSON-RPC shape the suite's expectations are
 * written against: {jsonrpc, id: the step's, result | error}. An event
 * that is an error body ({code, message}) is an error; no body (body NULL:
 * a 204) is an empty result. New reference. */
static json_t *rest_envelope(const json_t *body, long status, const json_t *rid, bool v1)
{
    json_t *env = json_pack("{s:s,s:O}", "jsonrpc", "2.0", "id", rid ? rid : json_null());
    bool err_event = !status && json_is_integer(json_object_get(body, "code")) &&
                     json_object_get(body, "message");
    if ((status && (status < 200 || status > 299)) || err_event)
        json_object_set_new(env, "error", an_a2a_rest_error(body, status));
    else
        json_object_set_new(env, "result",
                            !body ? json_object()
                            : v1  ? an_a2a_v1_result_in(body)
                                  : an_a2a_rest_result_in(body));
    return env;
}

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct xfer *x = ud;
    json_t *j = an_json_parse(ev->data, ev->len, NULL, 0);
    if (!j) {
        x->not_json++;
        j = an_json_lossy(ev->data, ev->len);
    } else if (x->rest_id) {
        json_t *env = rest_envelope(j, 0, x->rest_id, x->v1_in);
        json_decref(j);
        j = env;
    } else if (x->v1_in) {
        json_t *env = an_a2a_v1_response_in(j);
        json_decref(j);
        j = env;
    }
    json_array_append_new(x->events, j);
    return 0;
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct xfer *x = ud;
    if (strncasecmp(x->resp->content_type, "text/event-stream", 17)) {
        if (x->body.len + n <= x->max_body)
            an_buf_append(&x->body, p, n);
        return 0;
    }
    return an_sse_feed(&x->sse, p, n) == AN_ELIMIT ? AN_ELIMIT : 0;
}

/* "task:working", "status-update:completed", "artifact-update", "message", "error" */
static void kind_of(struct an_buf *b, const json_t *ev)
{
    const json_t *res = json_object_get(ev, "result");
    if (!json_is_object(res)) {
        an_buf_puts(b, json_object_get(ev, "error") ? "error" : "?");
        return;
    }
    const char *k = an_json_str(res, "kind");
    an_buf_puts(b, k ? k : "?");
    const char *st = an_json_str(json_object_get(res, "status"), "state");
    if (st)
        an_buf_printf(b, ":%s", st);
}

static json_t *sse_summary(const json_t *events, size_t not_json, const json_t *rid, char **kinds)
{
    size_t other = 0, finals = 0, after = 0, i;
    bool seen_final = false;
    const json_t *ev;
    struct an_buf b = AN_BUF_INIT;
    json_array_foreach(events, i, ev)
    {
        if (i)
            an_buf_putc(&b, ' ');
        kind_of(&b, ev);
        if (seen_final)
            after++;
        const json_t *id = json_object_get(ev, "id");
        if (rid && (!id || !json_equal((json_t *)id, (json_t *)rid)))
            other++;
        if (json_is_true(json_object_get(json_object_get(ev, "result"), "final"))) {
            finals++;
            seen_final = true;
        }
    }
    *kinds = an_buf_detach(&b, NULL);
    return json_pack("{s:I,s:I,s:I,s:I,s:I}", "events", (json_int_t)json_array_size(events),
                     "notJson", (json_int_t)not_json, "otherIds", (json_int_t)other, "finals",
                     (json_int_t)finals, "afterFinal", (json_int_t)after);
}

struct request {
    const char *url, *method, *body, *accept;
    const json_t *headers;  /* name -> value, or NULL */
    const json_t *rid;      /* the JSON-RPC id sent, or NULL */
    const char *rpc_method; /* the JSON-RPC method sent (REST: it stands for), or NULL */
    bool rest;              /* a REST request: its answer is read back as JSON-RPC */
    bool v1_in;             /* a translated 1.0 request: its answer is read back as 0.3 */
    int64_t window_ms;
};

static void set_status(json_t *o, const char *status, const char *error)
{
    json_object_set_new(o, "status", json_string(status));
    json_object_set_new(o, "error", error ? an_json_lossy(error, strlen(error)) : json_null());
}

/* A list of push configs answered {} (protobuf JSON leaves an empty
 * `configs` out; a 204) is the empty list, in place of response.result. */
static void empty_list(json_t *response, const char *method)
{
    json_t *res = json_object_get(response, "result");
    if (method &&
        (!strcmp(method, "tasks/pushNotificationConfig/list") ||
         !strcmp(method, "ListTaskPushNotificationConfigs")) &&
        json_is_object(res) && !json_object_size(res))
        json_object_set_new(response, "result", json_array());
}

/* What came back, once the transfer ended with rc (herr says why). */
static json_t *outcome(struct xfer *x, const struct an_http_resp *resp, int rc,
                       const struct an_err *herr, const struct request *rq)
{
    json_t *o = json_object();
    bool sse = !strncasecmp(resp->content_type, "text/event-stream", 17);
    json_t *response = json_null(), *body = json_null();
    if (!sse && x->body.len) {
        json_t *j = an_json_parse(x->body.data, x->body.len, NULL, 0);
        if (j && rq->rest) {
            json_decref(response);
            response = rest_envelope(j, (long)resp->status, rq->rid, rq->v1_in);
            json_decref(j);
        } else if (j && rq->v1_in) {
            json_decref(response);
            response = an_a2a_v1_response_in(j);
            json_decref(j);
        } else if (j) {
            json_decref(response);
            response = j;
        } else {
            json_decref(body);
            body = an_json_lossy(x->body.data, x->body.len < 512 ? x->body.len : 512);
        }
    }
    if (!sse && !x->body.len && rq->rest && resp->status) {
        json_decref(response); /* REST: an answer without a body (204) */
        response = rest_envelope(NULL, (long)resp->status, rq->rid, rq->v1_in);
    }
    if (rq->rest || rq->v1_in) /* a 0.3 JSON-RPC answer is judged as it is */
        empty_list(response, rq->rpc_method);
    if (sse)
        an_sse_finish(&x->sse);
    char *kinds = NULL;
    json_t *sum = sse_summary(x->events, x->not_json, rq->rid, &kinds);
    char why[AN_ERR_MSG_MAX + 64];
    if (rc == AN_ELIMIT && x->sse.stopped == AN_ELIMIT) {
        snprintf(why, sizeof why, "an SSE event larger than max_event_bytes (%zu bytes)",
                 x->sse.max_data);
        set_status(o, "protocol_error", why);
    } else if (rc == AN_ELIMIT) {
        snprintf(why, sizeof why, "response body larger than max_turn_bytes (%zu bytes)",
                 x->max_body);
        set_status(o, "protocol_error", why);
    } else if (rc != AN_ETIMEOUT && (!resp->status || (rc && rc != AN_EHTTP))) {
        snprintf(why, sizeof why, "%s", herr->msg[0] ? herr->msg : "no answer");
        set_status(o, "transport_error", why);
        if (resp->status && rc == AN_ECONNECT)
            set_status(o, "protocol_error", why); /* an answer cut short */
    } else if (rc == AN_ETIMEOUT) {
        snprintf(why, sizeof why, "no complete answer within %lld ms (the step's window)",
                 (long long)rq->window_ms);
        set_status(o, "timeout", why);
    } else if (sse && x->not_json) {
        set_status(o, "protocol_error", "an SSE event whose data is not JSON");
    } else if (sse && !json_array_size(x->events)) {
        set_status(o, "protocol_error", "an event stream without one event");
    } else if (!sse && x->body.len && json_is_null(response) &&
               strstr(resp->content_type, "json")) {
        set_status(o, "protocol_error", "a body declared JSON that does not parse");
    } else {
        set_status(o, "completed", NULL);
    }
    json_object_set_new(o, "http",
                        json_pack("{s:I,s:s}", "status", (json_int_t)resp->status, "contentType",
                                  resp->content_type));
    json_object_set_new(o, "response", response);
    json_object_set_new(o, "body", body);
    json_object_set(o, "events", x->events);
    json_object_set_new(o, "kinds", json_string(kinds));
    size_t n = json_array_size(x->events);
    json_object_set(o, "last", n ? json_array_get(x->events, n - 1) : json_null());
    json_object_set_new(o, "sse", sum);
    free(kinds);
    return o;
}

static json_t *exchange(const struct request *rq, FILE *log, const struct an_comply_opts *opts)
{
    struct xfer x = {.events = json_array(),
                     .max_body = opts->max_turn_bytes ? opts->max_turn_bytes : MAX_BODY_BYTES,
                     .rest_id = rq->rest ? (rq->rid ? rq->rid : json_null()) : NULL,
                     .v1_in = rq->v1_in};
    size_t max_event = opts->max_event_bytes ? opts->max_event_bytes : MAX_EVENT_BYTES;
    an_sse_init(&x.sse, max_event, on_event, &x);
    struct an_http_req req;
    struct an_kv *kv = an_comply_http_req(&req, rq->url, rq->method, rq->headers, rq->body);
    req.accept = rq->accept;
    req.timeout_ms = rq->window_ms;
    req.max_body = x.max_body;
    req.every_body = true;
    req.on_data = on_body;
    req.ud = &x;
    size_t nh = 0;
    if (opts->verbose) {
        char *s = an_redact_quoted(opts->redact, rq->body ? rq->body : "",
                                   rq->body ? strlen(rq->body) : 0, NULL, &nh);
        fprintf(log, "  [OUT] %s %s %.*s\n", rq->method, rq->url, (int)nh, s ? s : "");
        free(s);
    }
    struct an_http_resp resp;
    memset(&resp, 0, sizeof resp);
    x.resp = &resp;
    struct an_http_xfer xf;
    struct an_err herr = AN_ERR_INIT;
    int rc = an_http_xfer_init(&xf, &req, &resp, &herr);
    if (!rc) {
        an_comply_http_method(&xf, rq->method);
        curl_easy_setopt(xf.easy, CURLOPT_XFERINFOFUNCTION, an_http_cancel_progress);
        curl_easy_setopt(xf.easy, CURLOPT_NOPROGRESS, 0L);
        CURLcode cc = curl_easy_perform(xf.easy);
        rc = an_http_xfer_done(&xf, cc, &herr);
        curl_off_t sent_us = 0;
        curl_easy_getinfo(xf.easy, CURLINFO_PRETRANSFER_TIME_T, &sent_us);
        if (cc == CURLE_OPERATION_TIMEDOUT && (resp.status || sent_us > 0))
            rc = AN_ETIMEOUT;
        an_http_xfer_release(&xf);
    }
    json_t *o = outcome(&x, &resp, rc, &herr, rq);
    if (opts->verbose) {
        char *d = an_json_compact(o);
        char *s = an_redact_quoted(opts->redact, d, strlen(d), NULL, &nh);
        fprintf(log, "  [IN ] %.*s\n", (int)(nh < 4000 ? nh : 4000), s ? s : d);
        free(s);
        free(d);
    }
    free(kv);
    an_sse_release(&x.sse);
    an_buf_release(&x.body);
    json_decref(x.events);
    return o;
}

/* ---- steps ------------------------------------------------------------ */

static void unmet(struct a2a_eng *e, int step, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void unmet(struct a2a_eng *e, int step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    an_comply_add_unmetv(e->out, "step", step, fmt, ap);
    va_end(ap);
}

static void fresh(struct a2a_eng *e, const char *var)
{
    char id[AN_UUID_STR];
    an_uuid4(id);
    an_vars_set(&e->vars, var, id);
}

/* An answer (read whole) with the wrong content is said as such; one that
 * broke off or came late is said by what happened. The first line of
 * each new unmet part's diff ("response.error.code: expected -32001, got
 * -32603") leads its message, which the progress line and the reports
 * show, before what the answer was. */
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

/* The Accept a JSON-RPC body asks for: an event stream for the streaming
 * methods, JSON otherwise. */
static const char *default_accept(const json_t *body)
{
    const char *m = an_json_str(body, "method");
    if (m && (!strcmp(m, "message/stream") || !strcmp(m, "tasks/resubscribe") ||
              !strcmp(m, "SendStreamingMessage") || !strcmp(m, "SubscribeToTask")))
        return "text/event-stream";
    return "application/json";
}

/* REST: what HTTP says is the binding's, not the suite's: drop the
 * expected http.status (written for JSON-RPC, where every answer is 200)
 * of the expectation and of each alternative; rest_status() judges it. */
static void drop_http_status(json_t *expect, json_t *any_of)
{
    json_object_del(json_object_get(expect, "http"), "status");
    size_t i;
    json_t *alt;
    json_array_foreach(any_of, i, alt) json_object_del(json_object_get(alt, "http"), "status");
}

/* The REST binding's own check of an answer read whole: an error has a
 * non-2xx status (a task not found 404, as every REST API says it), a
 * result or a stream a 2xx one. */
static bool rest_status(struct a2a_eng *e, int step, const json_t *o)
{
    const json_t *http = json_object_get(o, "http");
    long hs = (long)json_integer_value(json_object_get(http, "status"));
    const json_t *err = json_object_get(json_object_get(o, "response"), "error");
    if (json_is_object(err)) {
        long code = (long)json_integer_value(json_object_get(err, "code"));
        if (code == -32001 ? hs == 404 : hs >= 400 && hs <= 599)
            return true;
        unmet(e, step, "REST: error %ld answered with HTTP %ld, expected %s", code, hs,
              code == -32001 ? "404" : "a 4xx or 5xx status");
        return false;
    }
    if (hs >= 200 && hs <= 299)
        return true;
    unmet(e, step, "REST: a result answered with HTTP %ld, expected a 2xx status", hs);
    return false;
}

/* The REST request of a step's JSON-RPC body js: *url under the card's
 * REST URL, *body, *verb, *accept (when the step set none). False with an
 * unmet part when the method has no REST route. */
static bool rest_request(struct a2a_eng *e, int step, const json_t *js, char **url, char **body,
                         const char **verb, char **accept)
{
    struct an_a2a_rest_req rr = {0};
    const char *m = an_json_str(js, "method");
    if (!an_a2a_rest_route(m, json_object_get(js, "params"), e->v1 ? AN_A2A_V1_0 : AN_A2A_V0_3,
                           &rr)) {
        unmet(e, step, "REST: JSON-RPC method '%s' has no REST route", m ? m : "(none)");
        return false;
    }
    char *base = base_of(e->rpc);
    struct an_buf u = AN_BUF_INIT;
    an_buf_printf(&u, "%s%s", base, rr.path);
    free(base);
    *url = an_buf_detach(&u, NULL);
    free(*body);
    *body = rr.body ? an_json_compact(rr.body) : NULL;
    *verb = rr.verb;
    if (!*accept)
        *accept = an_xstrdup(rr.stream ? "text/event-stream" : "application/json");
    an_a2a_rest_req_release(&rr);
    return true;
}

/* Speaking 1.0: every request carries A2A-Version: 1.0 (unless the step
 * sets the header itself), and a 0.3 JSON-RPC body *js is put in the 1.0
 * shape (a2a_v1.h). True when it was: the answer is read back as 0.3. */
static bool v1_prepare(const struct a2a_eng *e, json_t **js, json_t **headers, bool path)
{
    if (!e->v1)
        return false;
    if (!*headers)
        *headers = json_object();
    const char *name;
    json_t *val;
    bool set = false;
    json_object_foreach(*headers, name, val) set = set || !strcasecmp(name, "A2A-Version");
    if (!set)
        json_object_set_new(*headers, "A2A-Version", json_string("1.0"));
    json_t *v1 = *js && !path ? an_a2a_v1_request(*js) : NULL;
    if (!v1)
        return false;
    json_decref(*js);
    *js = v1;
    return true;
}

static bool step_exchange(struct a2a_eng *e, const struct an_jsont_step *st)
{
    const struct an_jsont_agui *g = st->agui;
    struct an_err err = AN_ERR_INIT;
    json_t *headers = NULL, *js = NULL, *expect = NULL, *any_of = NULL, *o = NULL;
    char *accept = NULL, *body = NULL, *path = NULL, *url = NULL;
    long *matched = NULL;
    bool ok = false;
    fresh(e, "runId");
    fresh(e, "messageId");
    if ((g->headers && an_jsont_resolve(g->headers, &e->vars, false, &headers, &err)) ||
        (g->accept && an_jsont_resolve_str(g->accept, &e->vars, false, &accept, &err)) ||
        (g->json && an_jsont_resolve(g->json, &e->vars, false, &js, &err)) ||
        (g->body && an_jsont_resolve_str(g->body, &e->vars, false, &body, &err)) ||
        (g->path && an_jsont_resolve_str(g->path, &e->vars, false, &path, &err)) ||
        an_jsont_resolve(g->expect, &e->vars, true, &expect, &err) ||
        (g->any_of && an_jsont_resolve(g->any_of, &e->vars, true, &any_of, &err))) {
        unmet(e, (int)st->index, "http: %s", err.msg);
        goto done;
    }
    if (path) {
        if (path[0] != '/') {
            unmet(e, (int)st->index, "http: path '%s' must start with '/'", path);
            goto done;
        }
        struct an_buf u = AN_BUF_INIT;
        an_buf_printf(&u, "%s%s", e->base, path);
        url = an_buf_detach(&u, NULL);
    } else if (!e->rpc) {
        unmet(e, (int)st->index, "no %s URL to send to: %s", e->rest ? "REST" : "JSON-RPC",
              e->rpc_why);
        goto done;
    }
    bool v1_in = v1_prepare(e, &js, &headers, path != NULL);
    const char *verb = g->method ? g->method : "POST";
    bool rest = e->rest && !path;
    if (rest && !rest_request(e, (int)st->index, js, &url, &body, &verb, &accept))
        goto done;
    if (rest)
        drop_http_status(expect, any_of);
    if (js && !body && !rest)
        body = an_json_compact(js);
    struct request rq = {.url = url ? url : e->rpc,
                         .method = verb,
                         .body = body ? body : "",
                         .accept = accept ? accept : default_accept(js),
                         .headers = headers,
                         .rid = json_object_get(js, "id"),
                         .rpc_method = an_json_str(js, "method"),
                         .rest = rest,
                         .v1_in = v1_in,
                         .window_ms = window(e->o, st->ms)};
    o = exchange(&rq, e->log, e->o);
    if (g->observe) {
        char *d = comply_agui_describe(o);
        struct an_buf n = AN_BUF_INIT;
        an_buf_printf(&n, "step %zu: %s; kinds: %s", st->index + 1, d,
                      an_json_str(o, "kinds") ? an_json_str(o, "kinds") : "");
        an_comply_add_note(e->out, an_buf_cstr(&n));
        an_buf_release(&n);
        free(d);
    }
    size_t before = e->out->nunmet;
    ok = comply_agui_judge(expect, any_of, o, (int)st->index, e->out, &matched);
    if (!ok && !strcmp(an_json_str(o, "status"), "completed"))
        say_what_differs(e->out, before);
    if (ok && rest && !strcmp(an_json_str(o, "status"), "completed"))
        ok = rest_status(e, (int)st->index, o);
    if (ok)
        ok = comply_captures(e->out, &e->vars, st, o, matched);
    ok = ok && !an_cancelled();
done:
    if (o) {
        json_array_extend(e->seen, json_object_get(o, "events"));
        if (!json_is_null(json_object_get(o, "response")))
            json_array_append(e->seen, json_object_get(o, "response"));
    }
    free(matched);
    json_decref(o);
    json_decref(js);
    json_decref(headers);
    json_decref(expect);
    json_decref(any_of);
    free(accept);
    free(body);
    free(path);
    free(url);
    return ok;
}

static void sleep_ms(int64_t ms)
{
    int64_t end = an_clock_mono_ms() + ms;
    for (int64_t left; (left = end - an_clock_mono_ms()) > 0 && !an_cancelled();) {
        int64_t n = left < AN_CANCEL_POLL_MS ? left : AN_CANCEL_POLL_MS;
        struct timespec ts = {(time_t)(n / 1000), (long)(n % 1000) * 1000000L};
        nanosleep(&ts, NULL);
    }
}

/* The base URL without its trailing '/' (malloc'd). */
static char *base_of(const char *url)
{
    size_t n = strlen(url);
    while (n && url[n - 1] == '/')
        n--;
    return an_xstrndup(url, n);
}

/* The card's URL of a binding ("JSONRPC" or "HTTP+JSON"): a 0.3 card's
 * `url` when its preferredTransport (JSONRPC when absent) is that one, or
 * an additionalInterfaces entry; a 1.0 card's supportedInterfaces entry. */
static const char *iface_of(const json_t *card, const char *binding)
{
    const char *pt = an_json_str(card, "preferredTransport");
    if (an_json_str(card, "url") && !strcasecmp(pt ? pt : "JSONRPC", binding))
        return an_json_str(card, "url");
    size_t i;
    const json_t *itf;
    json_array_foreach(json_object_get(card, "additionalInterfaces"), i, itf)
    {
        const char *t = an_json_str(itf, "transport");
        if (t && !strcasecmp(t, binding) && an_json_str(itf, "url"))
            return an_json_str(itf, "url");
    }
    json_array_foreach(json_object_get(card, "supportedInterfaces"), i, itf)
    {
        const char *t = an_json_str(itf, "protocolBinding");
        if (t && !strcasecmp(t, binding) && an_json_str(itf, "url"))
            return an_json_str(itf, "url");
    }
    return NULL;
}

/* The URL of the card's supportedInterfaces entry of a binding with
 * protocolVersion 1.x, or NULL when it offers none. */
static const char *iface_v1(const json_t *card, const char *binding)
{
    size_t i;
    const json_t *itf;
    json_array_foreach(json_object_get(card, "supportedInterfaces"), i, itf)
    {
        const char *t = an_json_str(itf, "protocolBinding"),
                   *v = an_json_str(itf, "protocolVersion");
        if (t && !strcasecmp(t, binding) && v && !strncmp(v, "1.", 2) && an_json_str(itf, "url"))
            return an_json_str(itf, "url");
    }
    return NULL;
}

/* Whether the run speaks A2A 1.0 to the agent: the revision judged (spec)
 * is 1.0 or newer and its card offers a 1.0 interface of the binding; else
 * it speaks 0.3 (negotiated down: not a failure, docs/comply.md). */
static bool speaks_v1(const json_t *card, const char *spec, bool rest)
{
    return (!spec || an_comply_rev_cmp(spec, "1.0") >= 0) &&
           iface_v1(card, rest ? "HTTP+JSON" : "JSONRPC");
}

/* NULL when test t applies to the revision spoken, else why it is NA. */
static char *revision_na(const struct an_jsont *t, const char *spec, bool v1)
{
    if (an_comply_rev_applies(t, v1 ? "1.0" : "0.3"))
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    if (v1)
        an_buf_puts(&b, "an A2A 0.3 test (this run speaks A2A 1.0)");
    else if (spec && an_comply_rev_cmp(spec, "1.0") < 0)
        an_buf_printf(&b, "an A2A 1.0 test (this run judges revision %s)", spec);
    else
        an_buf_puts(&b, "an A2A 1.0 test: the agent's card offers no A2A 1.0 interface of "
                        "this binding (the run speaks 0.3: negotiated down)");
    return an_buf_detach(&b, NULL);
}

/* The card's URL of the binding on the base's origin, or NULL with *why. */
static char *rpc_url(const json_t *card, const char *base, bool rest, bool v1, char **why)
{
    const char *u = v1 ? iface_v1(card, rest ? "HTTP+JSON" : "JSONRPC")
                       : iface_of(card, rest ? "HTTP+JSON" : "JSONRPC");
    struct an_buf b = AN_BUF_INIT;
    if (!card)
        an_buf_puts(&b, "no agent card");
    else if (!u && rest)
        an_buf_puts(&b, "the agent card names no HTTP+JSON (REST) URL ('url' with "
                        "preferredTransport HTTP+JSON, or an additionalInterfaces entry)");
    else if (!u)
        an_buf_puts(&b, "the agent card names no JSON-RPC URL ('url' with preferredTransport "
                        "JSONRPC, or an additionalInterfaces entry)");
    else if (!an_http_same_origin(u, base))
        an_buf_printf(&b,
                      "the agent card's URL '%.200s' is on another origin than '%.200s': comply "
                      "speaks only to the origin it was given",
                      u, base);
    else
        return an_xstrdup(u);
    *why = an_buf_detach(&b, NULL);
    return NULL;
}

size_t an_comply_a2a_bindings(const struct an_comply_agent *probed, const char *wanted,
                              const char *out[2])
{
    if (wanted) {
        out[0] = !strcmp(wanted, "rest") ? "rest" : "jsonrpc";
        return 1;
    }
    char *base = base_of(probed->command ? probed->command : "");
    size_t n = 0;
    const char *u = iface_of(probed->init, "JSONRPC");
    if (u && an_http_same_origin(u, base))
        out[n++] = "jsonrpc";
    u = iface_of(probed->init, "HTTP+JSON");
    if (u && an_http_same_origin(u, base))
        out[n++] = "rest";
    free(base);
    if (!n)
        out[n++] = "jsonrpc"; /* its tests say what is missing */
    return n;
}

/* NULL when test t speaks the engine's binding, else why it is NA. */
static char *binding_na(const struct an_jsont *t, bool rest)
{
    if (!t->nbindings)
        return NULL;
    for (size_t i = 0; i < t->nbindings; i++)
        if (!strcmp(t->bindings[i], rest ? "rest" : "jsonrpc"))
            return NULL;
    return an_xstrdup(rest ? "a JSON-RPC binding test (this run speaks REST)"
                           : "a REST binding test (this run speaks JSON-RPC)");
}

void an_comply_a2a_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                       const struct an_jsont *t, const struct an_comply_opts *o,
                       struct an_comply_test *out)
{
    int64_t t0 = an_clock_mono_ms();
    comply_fill_meta(out, t);
    bool rest = a->binding && !strcmp(a->binding, "rest");
    bool v1 = speaks_v1(a->init, o->spec, rest);
    char *na = binding_na(t, rest);
    if (!na)
        na = revision_na(t, o->spec, v1);
    if (!na)
        na = an_comply_precheck(t, a->init ? json_object_get(a->init, "capabilities") : NULL);
    if (na) {
        out->status = AN_COMPLY_NA;
        out->na_reason = na;
        return;
    }
    char *base = base_of(spec->command);
    struct a2a_eng e = {.o = o,
                        .base = base,
                        .rest = rest,
                        .v1 = v1,
                        .out = out,
                        .log = o->log ? o->log : stderr,
                        .seen = json_array()};
    e.rpc = rpc_url(a->init, base, rest, v1, &e.rpc_why);
    if (!a->init) {
        free(e.rpc_why);
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "no agent card: %s", a->init_error ? a->init_error : "?");
        e.rpc_why = an_buf_detach(&b, NULL);
    }
    fresh(&e, "threadId");
    an_vars_set(&e.vars, "suiteDir", ".");
    if (o->verbose) {
        char *name = an_comply_shown(o->redact, spec->name);
        fprintf(e.log, "-- %s: %s\n", name, t->id);
        free(name);
    }
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        if (an_cancelled()) {
            unmet(&e, (int)s, "interrupted (Ctrl-C or SIGTERM)");
            break;
        }
        if (st->kind == AN_JSONT_DELAY) {
            sleep_ms(st->ms);
            continue;
        }
        if (st->kind != AN_JSONT_AGUI_HTTP) {
            unmet(&e, (int)s, "'%s' is an AG-UI step: an A2A test has 'http' and 'delayMs' steps",
                  an_jsont_step_name(st->kind));
            break;
        }
        if (!step_exchange(&e, st))
            break;
    }
    out->status = out->nunmet ? AN_COMPLY_FAIL : AN_COMPLY_PASS;
    an_comply_test_redact_seen(out, o->redact, e.seen);
    json_decref(e.seen);
    an_vars_release(&e.vars);
    free(e.rpc);
    free(e.rpc_why);
    free(base);
    out->duration_ms = an_clock_mono_ms() - t0;
}

void an_comply_a2a_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                         const struct an_comply_opts *o)
{
    char *base = base_of(spec->command);
    struct an_buf u = AN_BUF_INIT;
    an_buf_printf(&u, "%s%s", base, CARD_PATH);
    FILE *log = o->log ? o->log : stderr;
    if (o->verbose) {
        char *name = an_comply_shown(o->redact, spec->name);
        fprintf(log, "-- %s: the agent card\n", name);
        free(name);
    }
    struct request rq = {.url = an_buf_cstr(&u),
                         .method = "GET",
                         .accept = "application/json",
                         .window_ms = window(o, PROBE_WINDOW_MS)};
    json_t *out = exchange(&rq, log, o);
    const json_t *card = json_object_get(out, "response");
    json_int_t hs = json_integer_value(json_object_get(json_object_get(out, "http"), "status"));
    if (hs == 200 && json_is_object(card)) {
        a->init = json_incref((json_t *)card);
    } else {
        struct an_buf b = AN_BUF_INIT;
        const char *err = an_json_str(out, "error");
        if (err)
            an_buf_printf(&b, "GET %s: %s", an_buf_cstr(&u), err);
        else
            an_buf_printf(&b, "GET %s: HTTP %lld, %s", an_buf_cstr(&u), (long long)hs,
                          json_is_object(card) ? "a JSON object" : "not a JSON object");
        a->init_error = an_buf_detach(&b, NULL);
    }
    json_decref(out);
    an_buf_release(&u);
    free(base);
}
