/*
 * The AG-UI compliance runner: one .jsont test against one AG-UI endpoint.
 *
 * Each `run` or `http` step is one POST. A 2xx answer is framed as SSE and
 * every event goes through ananke's own AG-UI decoder, which judges it by
 * the conformance rules (agui_verify.h, strict: a MUST violation ends the
 * run as a protocol error naming the rule) and rebuilds the messages and
 * the state. What came back becomes the step's outcome object
 * (comply_agui.h), which the step's expectation is matched against
 * (comply_agui_judge.c). Every request is bounded by the step's window: a
 * server that never finishes is a `timeout`, never a hang.
 *
 * Steps run in order; the first step whose expectation is not met ends the
 * test, since what follows builds on it (a continued conversation, a
 * captured id).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/agui_decode.h"
#include "proto/http.h"
#include "proto/sse.h"
#include "proto/uuid.h"
#include "run/comply_agui.h"
#include "run/comply_int.h"
#include "run/comply_redact.h"

#define MAX_EVENT_BYTES ((size_t)16 << 20) /* --max-event-bytes */
#define MAX_BODY_BYTES ((size_t)64 << 20)  /* --max-turn-bytes */
#define PROBE_WINDOW_MS 30000

/* What a `run` step leaves for the next one that continues it. */
struct conv_end {
    char *thread_id;
    json_t *messages, *state;
};

struct ag_eng {
    const struct an_jsont *t;
    const struct an_comply_opts *o;
    const char *url;
    struct an_comply_test *out;
    struct an_vars vars;
    struct conv_end prev;
    FILE *log;
    json_t *seen; /* every event of every answer: what the agent sent */
    char *na;     /* a run step's naUnless unmet: why the test does not apply */
};

/* A window's length after --timeout-scale (at least 1 ms). */
static int64_t window(const struct an_comply_opts *o, int64_t ms)
{
    double f = o->timeout_scale > 0 ? o->timeout_scale : 1.0;
    int64_t w = (int64_t)((double)ms * f + 0.5);
    return w > 0 ? w : 1;
}

/* ---- one exchange: POST, stream, decoded outcome ---------------------- */

struct request {
    const char *body;
    const char *thread_id;  /* what every run must echo; NULL: not checked */
    const char *run_id;     /* what the request sent, for the outcome; or NULL */
    const json_t *messages; /* the history sent (seeds the reconstruction), or NULL */
    const json_t *state;    /* the state sent, or NULL */
    const json_t *headers;  /* name -> value, or NULL */
    const char *accept;     /* NULL: text/event-stream */
    int64_t window_ms;
};

struct xfer_io {
    struct an_sse_parser sse;
    struct an_agui_dec *dec;
    bool event_over; /* the SSE parser stopped at max_event_bytes */
};

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct xfer_io *io = ud;
    return an_agui_dec_event(io->dec, ev->data, ev->len, an_clock_unix_ms());
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct xfer_io *io = ud;
    int rc = an_sse_feed(&io->sse, p, n);
    if (rc == AN_ELIMIT)
        io->event_over = true;
    return rc;
}

static const char *status_name(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_ERROR)
        return "completed";
    switch (r->error_code) {
    case AN_ERUN:
        return "run_error";
    case AN_EPROTO:
        return "protocol_error";
    case AN_EHTTP:
        return "http_error";
    case AN_ETIMEOUT:
        return "timeout";
    default:
        return "transport_error";
    }
}

/* "protocol violation [rule] at event ..." -> "rule". */
static json_t *rule_of(const struct an_turn_rec *r)
{
    static const char head[] = "protocol violation [";
    if (r->status != AN_TURN_ERROR || r->error_code != AN_EPROTO || !r->error ||
        strncmp(r->error, head, sizeof head - 1))
        return json_null();
    const char *s = r->error + sizeof head - 1, *e = strchr(s, ']');
    return e ? json_stringn(s, (size_t)(e - s)) : json_null();
}

static json_t *str_or_null(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

static json_t *outcome_json(const struct an_turn_rec *r, const struct an_http_resp *resp,
                            const struct an_agui_conv *conv, const struct request *rq)
{
    json_t *events = json_array(), *warnings = json_array(), *run_error = json_null();
    struct an_buf types = AN_BUF_INIT;
    for (size_t i = 0; i < r->nframes; i++) {
        const char *d = r->frames[i].data;
        json_t *ev = an_json_parse(d, strlen(d), NULL, 0);
        if (!ev)
            ev = an_json_lossy(d, strlen(d));
        const char *type = an_json_str(ev, "type");
        an_buf_printf(&types, "%s%s", i ? " " : "", type ? type : "?");
        if (type && !strcmp(type, "RUN_ERROR")) {
            json_decref(run_error);
            run_error = json_pack("{s:O?,s:O?}", "message", json_object_get(ev, "message"), "code",
                                  json_object_get(ev, "code"));
        }
        json_array_append_new(events, ev);
    }
    for (size_t i = 0; i < r->nwarnings; i++)
        json_array_append_new(warnings, str_or_null(r->warnings[i]));
    bool ok2xx = resp->status >= 200 && resp->status < 300;
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(status_name(r)));
    json_object_set_new(o, "rule", rule_of(r));
    json_object_set_new(o, "error", str_or_null(r->status == AN_TURN_ERROR ? r->error : NULL));
    json_object_set_new(o, "http",
                        json_pack("{s:I,s:o}", "status", (json_int_t)resp->status, "contentType",
                                  str_or_null(resp->status ? resp->content_type : NULL)));
    json_object_set_new(o, "threadId", str_or_null(rq->thread_id));
    json_object_set_new(o, "runId", str_or_null(rq->run_id));
    json_object_set_new(o, "types", an_json_lossy(an_buf_cstr(&types), types.len));
    json_object_set_new(o, "events", events);
    json_object_set_new(o, "runError", run_error);
    json_object_set(o, "messages", conv->messages ? conv->messages : json_array());
    json_object_set(o, "state", r->state ? r->state : json_null());
    json_object_set_new(o, "warnings", warnings);
    json_object_set_new(o, "body",
                        resp->status && !ok2xx ? an_json_lossy(resp->head, resp->head_len)
                                               : json_null());
    an_buf_release(&types);
    return o;
}

/* One -v line, the run's secrets redacted (a piece of one at a string's
 * edge too: one event of a streamed secret). */
static void vlog(FILE *log, const struct an_redactor *red, const char *what, const char *s,
                 size_t n)
{
    char *out = an_redact_quoted(red, s, n, NULL, &n);
    fprintf(log, "  [%s] %.*s\n", what, (int)n, out ? out : s);
    free(out);
}

/* POST the request and decode the answer into an outcome (new reference).
 * *conv_out (may be NULL) takes the conversation after the run. */
/* What the transfer's end says about the step: the turn failed (with
 * why), or a stream cut short (*cut: judged by whether the run finished). */
static void judge_transfer(struct an_turn_rec *r, CURLcode cc, int rc,
                           const struct an_http_resp *resp, const struct an_err *herr,
                           struct xfer_io *io, const struct request *rq, size_t max_event,
                           size_t max_body, const char **cut)
{
    if (cc == CURLE_ABORTED_BY_CALLBACK) {
        an_turn_fail(r, AN_ECONNECT, "interrupted (Ctrl-C or SIGTERM)");
    } else {
        switch (rc) {
        case AN_OK:
            rc = an_sse_finish(&io->sse);
            if (rc == AN_ELIMIT)
                an_turn_fail(r, AN_ELIMIT, "an SSE event larger than max_event_bytes (%zu bytes)",
                             max_event);
            if (!io->sse.nevents && r->status != AN_TURN_ERROR) {
                /* not one event: what came instead of a stream */
                char *why = an_http_why_not_stream(resp, "text/event-stream");
                if (why)
                    an_turn_fail(r, AN_EPROTO, "%s", why);
                free(why);
            }
            break;
        case AN_ETIMEOUT:
            an_turn_fail(r, AN_ETIMEOUT, "no complete answer within %lld ms (the step's window)",
                         (long long)rq->window_ms);
            break;
        case AN_ECONNECT:
            if (resp->status >= 200 && resp->status < 300) {
                /* a stream cut short: judged by whether the run finished */
                *cut = resp->curl_error[0] ? resp->curl_error : herr->msg;
                break;
            }
            an_turn_fail(r, AN_ECONNECT, "%s", herr->msg);
            break;
        case AN_ELIMIT:
            if (r->status == AN_TURN_ERROR)
                break;
            if (io->event_over)
                an_turn_fail(r, AN_ELIMIT, "an SSE event larger than max_event_bytes (%zu bytes)",
                             max_event);
            else
                an_turn_fail(r, AN_ELIMIT, "response body larger than max_turn_bytes (%zu bytes)",
                             max_body);
            break;
        default: /* AN_EHTTP, or the decoder stopping the transfer (recorded) */
            an_turn_fail(r, rc, "%s", herr->msg);
            break;
        }
    }
}

/* -v: the answer's status line, head and frames (redacted together: a
 * secret streamed across several). */
static void log_answer(FILE *log, const struct an_redactor *red, const struct an_turn_rec *r,
                       const struct an_http_resp *resp)
{
    fprintf(log, "  [IN ] HTTP %ld %s\n", resp->status, resp->content_type);
    if (resp->head_len)
        vlog(log, red, "IN ", resp->head, resp->head_len);
    const char **texts = an_xcalloc(r->nframes + 1, sizeof *texts);
    for (size_t i = 0; i < r->nframes; i++)
        texts[i] = r->frames[i].data;
    char **shown = an_redactor_empty(red) ? NULL : an_redact_frames(red, texts, r->nframes, NULL);
    for (size_t i = 0; i < r->nframes; i++) {
        const char *f = shown ? shown[i] : texts[i];
        vlog(log, red, "IN ", f, strnlen(f, 2000));
        if (shown)
            free(shown[i]);
    }
    free(shown);
    free(texts);
}

static json_t *exchange(const char *url, const struct request *rq, FILE *log,
                        const struct an_comply_opts *opts, struct an_agui_conv *conv_out)
{
    int verbose = opts->verbose;
    const struct an_redactor *red = opts->redact;
    size_t max_event = opts->max_event_bytes ? opts->max_event_bytes : MAX_EVENT_BYTES;
    size_t max_body = opts->max_turn_bytes ? opts->max_turn_bytes : MAX_BODY_BYTES;
    struct an_transcript t;
    an_transcript_init(&t);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    struct an_agui_conv conv;
    an_agui_conv_init(&conv, "-", rq->state, NULL);
    free(conv.thread_id);
    conv.thread_id = rq->thread_id ? an_xstrdup(rq->thread_id) : NULL;
    an_agui_conv_seed(&conv, rq->messages);

    struct xfer_io io = {0};
    an_agui_dec_new(&io.dec, &conv, &t, 0);
    an_sse_init(&io.sse, max_event, on_event, &io);

    /* headers from the test, after the defaults (a same name replaces) */
    struct an_http_req req;
    struct an_kv *kv = an_comply_http_req(&req, url, "POST", rq->headers, rq->body);
    req.accept = rq->accept ? rq->accept : "text/event-stream";
    req.timeout_ms = rq->window_ms;
    req.max_body = max_body;
    req.on_data = on_body;
    req.ud = &io;
    if (verbose) {
        struct an_buf line = AN_BUF_INIT;
        an_buf_printf(&line, "POST %s %s", url, rq->body);
        vlog(log, red, "OUT", line.data, line.len);
        an_buf_release(&line);
    }

    struct an_http_resp resp;
    struct an_http_xfer x;
    struct an_err herr = AN_ERR_INIT;
    const char *cut = NULL;
    r->start_ms = an_clock_unix_ms();
    int rc = an_http_xfer_init(&x, &req, &resp, &herr);
    if (rc) {
        an_turn_fail(r, rc, "%s", herr.msg);
    } else {
        curl_easy_setopt(x.easy, CURLOPT_XFERINFOFUNCTION, an_http_cancel_progress);
        curl_easy_setopt(x.easy, CURLOPT_NOPROGRESS, 0L);
        CURLcode cc = curl_easy_perform(x.easy);
        rc = an_http_xfer_done(&x, cc, &herr);
        /* an_http_xfer_done() tells a connect timeout from a slow answer by
         * the connect time, which is 0 on a reused connection: once the
         * request went out, running out of time is the window passing */
        curl_off_t sent_us = 0;
        curl_easy_getinfo(x.easy, CURLINFO_PRETRANSFER_TIME_T, &sent_us);
        if (cc == CURLE_OPERATION_TIMEDOUT && (resp.status || sent_us > 0))
            rc = AN_ETIMEOUT;
        r->http_status = (int)resp.status;
        judge_transfer(r, cc, rc, &resp, &herr, &io, rq, max_event, max_body, &cut);
        if (resp.status >= 200 && resp.status < 300 && io.sse.nevents &&
            strncasecmp(resp.content_type, "text/event-stream", 17))
            an_turn_warn(r, "response content-type is '%.100s', expected text/event-stream",
                         resp.content_type[0] ? resp.content_type : "(none)");
        an_http_xfer_release(&x);
    }
    an_agui_dec_finish(io.dec, cut);
    r->end_ms = an_clock_unix_ms();
    if (verbose)
        log_answer(log, red, r, &resp);
    json_t *o = outcome_json(r, &resp, &conv, rq);
    an_agui_dec_free(io.dec);
    an_sse_release(&io.sse);
    free(kv);
    an_transcript_release(&t);
    if (conv_out)
        *conv_out = conv;
    else
        an_agui_conv_release(&conv);
    return o;
}

/* ---- steps ------------------------------------------------------------ */

static void fresh_run_id(struct ag_eng *e)
{
    char id[AN_UUID_STR];
    an_uuid4(id);
    an_vars_set(&e->vars, "runId", id);
}

/* The RunAgentInput of a `run` step: the defaults, the previous run's
 * conversation when it continues one, then what the test wrote. Members
 * in the order the reference client sends them, extra ones after. */
static json_t *build_input(struct ag_eng *e, const struct an_jsont_agui *g, const json_t *in,
                           const char *user)
{
    const json_t *x;
    json_t *o = json_object();
    const char *thread = an_json_str(in, "threadId");
    if (!thread)
        thread = g->cont && e->prev.thread_id ? e->prev.thread_id
                                              : an_vars_get(&e->vars, "threadId");
    json_object_set_new(o, "threadId", json_string(thread));
    x = json_object_get(in, "runId");
    json_object_set_new(o, "runId",
                        x ? json_incref((json_t *)x) : json_string(an_vars_get(&e->vars, "runId")));
    x = json_object_get(in, "state");
    json_object_set_new(o, "state",
                        x                          ? json_incref((json_t *)x)
                        : g->cont && e->prev.state ? json_deep_copy(e->prev.state)
                                                   : json_object());
    json_t *msgs = g->cont && e->prev.messages ? json_deep_copy(e->prev.messages) : json_array();
    json_array_extend(msgs, json_object_get(in, "messages"));
    if (user) {
        char id[AN_UUID_STR + 8];
        snprintf(id, sizeof id, "user-%s", an_json_str(o, "runId"));
        json_array_append_new(msgs, json_pack("{s:s,s:s,s:o}", "id", id, "role", "user", "content",
                                              an_json_lossy(user, strlen(user))));
    }
    json_object_set_new(o, "messages", msgs);
    static const char *const rest[] = {"tools", "context", "forwardedProps"};
    for (size_t i = 0; i < 3; i++) {
        x = json_object_get(in, rest[i]);
        json_object_set_new(o, rest[i],
                            x       ? json_incref((json_t *)x)
                            : i < 2 ? json_array()
                                    : json_object());
    }
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)in, k, v)
    {
        if (!json_object_get(o, k))
            json_object_set(o, k, v);
    }
    return o;
}

static void unmet_step(struct ag_eng *e, int step, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void unmet_step(struct ag_eng *e, int step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    an_comply_add_unmetv(e->out, "step", step, fmt, ap);
    va_end(ap);
}

static void conv_end_release(struct conv_end *c)
{
    free(c->thread_id);
    json_decref(c->messages);
    json_decref(c->state);
    memset(c, 0, sizeof *c);
}

/* Resolve, send, judge. Returns false when the test must stop. */
static bool step_exchange(struct ag_eng *e, const struct an_jsont_step *st)
{
    const struct an_jsont_agui *g = st->agui;
    bool run = st->kind == AN_JSONT_AGUI_RUN;
    struct an_err err = AN_ERR_INIT;
    json_t *in = NULL, *headers = NULL, *input = NULL, *expect = NULL, *any_of = NULL, *o = NULL;
    char *user = NULL, *accept = NULL, *body = NULL;
    long *matched = NULL;
    bool ok = false;
    fresh_run_id(e);
    const char *what = run ? "run" : "http";
    if ((g->headers && an_jsont_resolve(g->headers, &e->vars, false, &headers, &err)) ||
        (g->accept && an_jsont_resolve_str(g->accept, &e->vars, false, &accept, &err)) ||
        (g->user && an_jsont_resolve_str(g->user, &e->vars, false, &user, &err)) ||
        (g->input && an_jsont_resolve(g->input, &e->vars, false, &in, &err)) ||
        (g->json && an_jsont_resolve(g->json, &e->vars, false, &input, &err)) ||
        (g->body && an_jsont_resolve_str(g->body, &e->vars, false, &body, &err)) ||
        an_jsont_resolve(g->expect, &e->vars, true, &expect, &err) ||
        (g->any_of && an_jsont_resolve(g->any_of, &e->vars, true, &any_of, &err))) {
        unmet_step(e, (int)st->index, "%s: %s", what, err.msg);
        goto done;
    }
    if (run)
        input = build_input(e, g, in, user);
    if (!body)
        body = an_json_compact(input);
    struct request rq = {.body = body,
                         .thread_id = an_json_str(input, "threadId"),
                         .run_id = an_json_str(input, "runId"),
                         .messages = json_object_get(input, "messages"),
                         .state = json_object_get(input, "state"),
                         .headers = headers,
                         .accept = accept,
                         .window_ms = window(e->o, st->ms)};
    struct an_agui_conv conv = {0};
    o = exchange(e->url, &rq, e->log, e->o, &conv);
    if (run) {
        conv_end_release(&e->prev);
        e->prev.thread_id = rq.thread_id ? an_xstrdup(rq.thread_id) : NULL;
        e->prev.messages = json_incref(conv.messages);
        e->prev.state = json_incref(json_object_get(o, "state"));
    }
    an_agui_conv_release(&conv);
    if (g->observe) {
        char *d = comply_agui_describe(o);
        struct an_buf n = AN_BUF_INIT;
        an_buf_printf(&n, "step %zu (%s%s%s): %s", st->index + 1, what, accept ? ", Accept: " : "",
                      accept ? accept : "", d);
        an_comply_add_note(e->out, an_buf_cstr(&n));
        an_buf_release(&n);
        free(d);
    }
    ok = comply_agui_judge(expect, any_of, o, (int)st->index, e->out, &matched);
    if (ok && g->na_unless && !an_jm_match(g->na_unless, o)) {
        /* the answer is right, but shows the test does not apply (the
         * producer did not use the feature it asks for): what the
         * captures would read is not there */
        char *d = comply_agui_describe(o);
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "%s (%s)", g->na_reason, d);
        free(d);
        e->na = an_buf_detach(&b, NULL);
        ok = false;
    }
    if (ok)
        ok = comply_captures(e->out, &e->vars, st, o, matched);
    ok = ok && !an_cancelled();
done:
    if (o)
        json_array_extend(e->seen, json_object_get(o, "events"));
    free(matched);
    json_decref(o);
    json_decref(in);
    json_decref(input);
    json_decref(headers);
    json_decref(expect);
    json_decref(any_of);
    free(user);
    free(accept);
    free(body);
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

void an_comply_agui_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                        const struct an_jsont *t, const struct an_comply_opts *o,
                        struct an_comply_test *out)
{
    (void)a;
    int64_t t0 = an_clock_mono_ms();
    comply_fill_meta(out, t);
    char *na = an_comply_precheck(t, NULL); /* an AG-UI agent advertises nothing */
    if (na) {
        out->status = AN_COMPLY_NA;
        out->na_reason = na;
        return;
    }
    struct ag_eng e = {.t = t,
                       .o = o,
                       .url = spec->command,
                       .out = out,
                       .log = o->log ? o->log : stderr,
                       .seen = json_array()};
    char id[AN_UUID_STR];
    an_uuid4(id);
    an_vars_set(&e.vars, "threadId", id);
    char suite[4096], *slash;
    snprintf(suite, sizeof suite, "%s", t->file);
    slash = strrchr(suite, '/');
    if (slash)
        *slash = '\0';
    char *real = realpath(slash ? suite : ".", NULL);
    an_vars_set(&e.vars, "suiteDir", real ? real : suite);
    free(real);
    if (o->verbose) {
        char *name = an_comply_shown(o->redact, spec->name);
        fprintf(e.log, "-- %s: %s\n", name, t->id);
        free(name);
    }
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        if (an_cancelled()) {
            unmet_step(&e, (int)s, "interrupted (Ctrl-C or SIGTERM)");
            break;
        }
        if (st->kind == AN_JSONT_DELAY) {
            sleep_ms(st->ms);
            continue;
        }
        if (!step_exchange(&e, st))
            break;
    }
    out->status = out->nunmet ? AN_COMPLY_FAIL : e.na ? AN_COMPLY_NA : AN_COMPLY_PASS;
    if (!out->nunmet && e.na) {
        out->na_reason = e.na;
        e.na = NULL;
    }
    free(e.na);
    an_comply_test_redact_seen(out, o->redact, e.seen);
    json_decref(e.seen);
    conv_end_release(&e.prev);
    an_vars_release(&e.vars);
    out->duration_ms = an_clock_mono_ms() - t0;
}

void an_comply_agui_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                          const struct an_comply_opts *o)
{
    char thread[AN_UUID_STR], run[AN_UUID_STR];
    an_uuid4(thread);
    an_uuid4(run);
    json_t *in = json_pack("{s:s,s:s,s:{},s:[{s:s,s:s,s:s}],s:[],s:[],s:{}}", "threadId", thread,
                           "runId", run, "state", "messages", "id", "probe-user-1", "role", "user",
                           "content", "Hello", "tools", "context", "forwardedProps");
    char *body = an_json_compact(in);
    if (o->verbose) {
        char *name = an_comply_shown(o->redact, spec->name);
        fprintf(o->log ? o->log : stderr, "-- %s: probe run\n", name);
        free(name);
    }
    struct request rq = {.body = body,
                         .thread_id = thread,
                         .run_id = run,
                         .messages = json_object_get(in, "messages"),
                         .state = json_object_get(in, "state"),
                         .window_ms = window(o, PROBE_WINDOW_MS)};
    json_t *out = exchange(spec->command, &rq, o->log ? o->log : stderr, o, NULL);
    const char *status = an_json_str(out, "status");
    const json_t *http = json_object_get(out, "http");
    if (!json_integer_value(json_object_get(http, "status"))) {
        a->init_error =
            an_xstrdup(an_json_str(out, "error") ? an_json_str(out, "error") : "no answer");
    } else {
        const json_t *first = json_array_get(json_object_get(out, "events"), 0);
        const char *ft = an_json_str(first, "type");
        json_t *pv = ft && !strcmp(ft, "RUN_STARTED") ? json_object_get(first, "protocolVersion")
                                                      : NULL;
        a->init = json_pack("{s:O,s:O,s:s,s:I,s:O?,s:O}", "httpStatus",
                            json_object_get(http, "status"), "contentType",
                            json_object_get(http, "contentType"), "status", status ? status : "?",
                            "events", (json_int_t)json_array_size(json_object_get(out, "events")),
                            "protocolVersion", pv, "error", json_object_get(out, "error"));
    }
    json_decref(out);
    json_decref(in);
    free(body);
}
