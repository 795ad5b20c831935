/*
 * A2A session (a2a.h): the card, then one send per turn, answered as JSON or
 * as an SSE stream of events, recorded through a2a_msg.c.
 *
 * A turn is up to three transfers chained by next(): the card GET (the first
 * turn, when the card must be fetched), the send, and a CancelTask when the
 * turn timed out while a task it started was still running (so a slow agent
 * is not left working for nobody). The conversation lives here: the
 * contextId of the first answer is sent with every later message, and a
 * task left input-required (or auth-required) is continued by the next
 * message with its taskId.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/clock.h"
#include "core/json.h"
#include "proto/a2a.h"
#include "proto/a2a_rest.h"
#include "proto/http.h"
#include "proto/sse.h"
#include "proto/uuid.h"

#define DEFAULT_MAX_TURN (64u * 1024u * 1024u)
#define DEFAULT_MAX_EVENT (16u * 1024u * 1024u)
#define CARD_MAX (1024u * 1024u)
#define CANCEL_TIMEOUT_MS 5000
#define CARD_REDIRECTS 5

enum stage { ST_NONE = 0, ST_CARD, ST_SEND, ST_CANCEL };

/* One transfer in flight. */
struct xfer_io {
    struct a2a_session *s;
    struct an_transcript *t;
    enum stage stage;
    struct an_http_req req;
    struct an_http_resp resp;
    struct an_http_xfer xfer;
    char *body;
    char *url;         /* REST: the request's URL (under the interface's); NULL: none */
    struct an_buf raw; /* a JSON answer's body */
    struct an_sse_parser sse;
    bool sse_mode, mode_known;
    bool done; /* a final event arrived: the stream was stopped on purpose */
    bool active;
};

struct a2a_session {
    struct an_session base;
    /* the options, copied */
    char *card_url, *endpoint, *api_key, *bearer;
    json_t *card_json; /* inline card; NULL: none */
    int want_version, stream_opt, want_binding;
    bool blocking;
    char **modes;
    size_t nmodes;
    struct an_kv *user_headers;
    size_t nuser_headers;
    bool trust_card_url;
    /* the card fetch: where it is now (after redirects), how many */
    char *card_at;
    int card_hops;
    int64_t timeout_ms, cancel_timeout_ms;
    size_t max_turn_bytes, max_event_bytes;
    /* what the card (or the options) decided */
    bool ready;
    char *url, *tenant;
    int version;
    bool stream;
    bool rest;             /* the HTTP+JSON (REST) binding, else JSON-RPC */
    struct an_kv *headers; /* every request's: user headers, auth, A2A-Version */
    size_t nheaders;
    struct an_kv *bare; /* the same without credentials: ananke's own headers only,
                           for an origin the config did not name */
    size_t nbare;
    bool url_trusted; /* `url` may receive `headers` */
    /* the conversation */
    char *context_id;
    char *open_task; /* an interrupted task the next message continues */
    json_t *seen;    /* ids of messages and artifacts already recorded */
    long next_id;
    /* the turn */
    char *user;          /* this turn's text; NULL: none */
    const json_t *parts; /* borrowed from the turn record */
    int64_t deadline;    /* mono ms the turn must end by */
    struct an_a2a_turn dec;
    bool dec_on;
    enum stage want; /* what next() starts */
    int64_t retry_after_ms;
    struct xfer_io io;
};

static struct an_turn_rec *cur(struct an_transcript *t)
{
    return &t->turns[t->nturns - 1];
}

static int64_t time_left(const struct a2a_session *s)
{
    int64_t left = s->deadline - an_clock_mono_ms();
    return left > 1 ? left : 1;
}

static void io_release(struct xfer_io *io)
{
    an_http_xfer_release(&io->xfer);
    an_sse_release(&io->sse);
    an_buf_release(&io->raw);
    free(io->body);
    free(io->url);
    memset(io, 0, sizeof *io);
}

/* ---- reading answers ---- */

/* A JSON-RPC answer (one body, or SSE event number `event`, 1-based; 0 for
 * a body) into the turn. Returns 0 to go on, or a code that stops the
 * transfer: the turn records why, except when `io->done` (the stream is
 * over and was stopped on purpose). The answer to a CancelTask, sent after
 * the turn already failed, only adds a warning and the task's state. */
static int take_answer(struct xfer_io *io, const char *data, size_t len, uint64_t event)
{
    struct a2a_session *s = io->s;
    struct an_turn_rec *r = cur(io->t);
    int64_t now = an_clock_unix_ms();
    an_turn_add_frame(r, now, data, len);
    char why[256];
    json_t *j = an_json_parse(data, len, why, sizeof why);
    if (j && s->rest) {
        /* REST: the answer is the result itself (0.3: in the shapes of
         * its protobuf JSON), an error event {code, message}: put it in
         * the JSON-RPC envelope the rest of this reads */
        bool err_ev = event && json_is_integer(json_object_get(j, "code")) &&
                      json_object_get(j, "message");
        json_t *env = json_pack("{s:I}", "id", (json_int_t)s->next_id);
        if (err_ev)
            json_object_set_new(env, "error", an_a2a_rest_error(j, 0));
        else
            json_object_set_new(env, "result",
                                s->version == AN_A2A_V0_3 ? an_a2a_rest_result_in(j)
                                                          : json_incref(j));
        json_decref(j);
        j = env;
    }
    if (!j) {
        if (event)
            an_turn_fail(r, AN_EPROTO, "SSE event #%llu is not JSON: %s", (unsigned long long)event,
                         why);
        else
            an_turn_fail(r, AN_EPROTO, "the answer is not JSON: %s", why);
        return AN_EPROTO;
    }
    int rc = AN_OK;
    const json_t *e = json_object_get(j, "error"), *res = json_object_get(j, "result");
    const json_t *id = json_object_get(j, "id");
    /* JSON-RPC: the answer carries the request's id (null only on an error
     * about a request the server could not read); one under another id
     * answers some other request. The last request sent is this one. */
    bool id_ok = (json_is_integer(id) && json_integer_value(id) == s->next_id) ||
                 (json_is_object(e) && (!id || json_is_null(id)));
    if (!id_ok) {
        char *got = id ? an_json_compact(id) : an_xstrdup("missing");
        if (io->stage == ST_CANCEL) {
            an_turn_warn(r, "the answer to CancelTask has id %.100s, not %ld", got, s->next_id);
        } else {
            if (event)
                an_turn_fail(r, AN_EPROTO, "SSE event #%llu has id %.100s, not the request's %ld",
                             (unsigned long long)event, got, s->next_id);
            else
                an_turn_fail(r, AN_EPROTO, "the answer has id %.100s, not the request's %ld", got,
                             s->next_id);
            rc = AN_EPROTO;
        }
        free(got);
        json_decref(j);
        return rc;
    }
    if (io->stage == ST_CANCEL) {
        struct an_a2a_turn *d = &s->dec;
        const char *st = NULL;
        if (res && !an_a2a_turn_result(d, res, now, why, sizeof why))
            st = d->task ? an_json_str(d->task, "state") : NULL;
        if (json_is_object(e))
            an_turn_warn(r, "CancelTask after the timeout was refused: %lld %.300s",
                         (long long)json_integer_value(json_object_get(e, "code")),
                         an_json_str(e, "message") ? an_json_str(e, "message") : "");
        else
            an_turn_warn(r,
                         "the task was canceled after the turn timed out (CancelTask: "
                         "state %s)",
                         st ? st : "not given");
    } else if (json_is_object(e)) {
        const char *msg = an_json_str(e, "message");
        an_turn_fail(r, AN_ERUN, "the agent answered JSON-RPC error %lld: %.500s",
                     (long long)json_integer_value(json_object_get(e, "code")),
                     msg ? msg : "(no message)");
        rc = AN_ERUN;
    } else if (!res) {
        an_turn_fail(r, AN_EPROTO, "%s has neither 'result' nor 'error'",
                     event ? "an SSE event" : "the answer");
        rc = AN_EPROTO;
    } else if ((rc = an_a2a_turn_result(&s->dec, res, now, why, sizeof why))) {
        an_turn_fail(r, AN_EPROTO, "%s", why);
    } else if (event && s->dec.final) {
        /* the stream may stay open: stop reading it (any non-zero code
         * stops the transfer; `done` tells a2a_end this one is no fault) */
        io->done = true;
        rc = AN_EPROTO;
    }
    json_decref(j);
    return rc;
}

static int on_event(void *ud, const struct an_sse_event *ev)
{
    return take_answer(ud, ev->data, ev->len, ev->index + 1);
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct xfer_io *io = ud;
    if (!io->mode_known) {
        io->mode_known = true;
        io->sse_mode = io->stage == ST_SEND &&
                       !strncasecmp(io->resp.content_type, "text/event-stream", 17);
    }
    if (io->sse_mode) {
        int rc = an_sse_feed(&io->sse, p, n);
        if (rc == AN_ELIMIT && cur(io->t)->status != AN_TURN_ERROR)
            an_turn_fail(cur(io->t), AN_ELIMIT, "SSE event larger than max_event_bytes (%zu bytes)",
                         io->s->max_event_bytes);
        return rc;
    }
    if (an_buf_append(&io->raw, p, n)) {
        if (io->stage == ST_CARD)
            an_turn_fail(cur(io->t), AN_ELIMIT, "the agent card is larger than %zu bytes",
                         io->raw.cap_max);
        else
            an_turn_fail(cur(io->t), AN_ELIMIT,
                         "response body larger than max_turn_bytes (%zu bytes)", io->raw.cap_max);
        return AN_ELIMIT;
    }
    return 0;
}

/* ---- starting transfers ---- */

static int start(struct a2a_session *s, struct an_transcript *t, enum stage stage, char *body,
                 const char *url, const char *accept, int64_t timeout, CURL **easy)
{
    struct xfer_io *io = &s->io;
    struct an_err herr = AN_ERR_INIT;
    if (io->active)
        io_release(io);
    io->s = s;
    io->t = t;
    io->stage = stage;
    io->body = body;
    an_buf_init(&io->raw, stage == ST_CARD ? CARD_MAX : s->max_turn_bytes);
    an_sse_init(&io->sse, s->max_event_bytes, on_event, io);
    struct an_http_req req = AN_HTTP_REQ_INIT;
    req.url = url;
    req.accept = accept;
    /* credentials stay with their origin (a2a.h) */
    bool trusted = stage == ST_CARD ? an_http_same_origin(url, s->card_url) : s->url_trusted;
    req.headers = trusted ? s->headers : s->bare;
    req.nheaders = trusted ? s->nheaders : s->nbare;
    req.body = body;
    req.body_len = body ? strlen(body) : 0;
    req.timeout_ms = timeout;
    req.max_body = stage == ST_CARD ? CARD_MAX : s->max_turn_bytes;
    req.on_data = on_body;
    req.ud = io;
    req.traceparent = cur(t)->traceparent;
    if (stage == ST_CARD)
        req.content_type = NULL; /* a redirect is followed by a2a_end, hop by hop */
    io->req = req;
    io->active = true;
    int rc = an_http_xfer_init(&io->xfer, &io->req, &io->resp, &herr);
    if (!rc && stage == ST_CARD && curl_easy_setopt(io->xfer.easy, CURLOPT_HTTPGET, 1L) != CURLE_OK)
        rc = an_fail(&herr, AN_EINTERNAL, NULL, "libcurl refused a GET");
    if (rc) {
        an_turn_fail(cur(t), rc, "%s", herr.msg);
        io_release(io);
        return rc;
    }
    *easy = io->xfer.easy;
    return AN_OK;
}

static int start_card(struct a2a_session *s, struct an_transcript *t, CURL **easy)
{
    return start(s, t, ST_CARD, NULL, s->card_at, "application/json", time_left(s), easy);
}

/* REST: a JSON-RPC body (taken) as its REST request: *url under the
 * interface URL (the task id in it percent-encoded), the body it returns. */
static char *rest_of(const struct a2a_session *s, char *rpc_body, char **url)
{
    json_t *j = json_loads(rpc_body, 0, NULL);
    struct an_a2a_rest_req rr = {0};
    struct an_buf u = AN_BUF_INIT;
    size_t n = strlen(s->url);
    while (n && s->url[n - 1] == '/')
        n--;
    an_buf_append(&u, s->url, n);
    if (an_a2a_rest_route(an_json_str(j, "method"), json_object_get(j, "params"), s->version, &rr))
        an_buf_puts(&u, rr.path);
    *url = an_buf_detach(&u, NULL);
    char *body = rr.body ? an_json_compact(rr.body) : an_xstrdup("{}");
    an_a2a_rest_req_release(&rr);
    json_decref(j);
    free(rpc_body);
    return body;
}

static int start_send(struct a2a_session *s, struct an_transcript *t, CURL **easy)
{
    struct an_err err = AN_ERR_INIT;
    char mid[AN_UUID_STR];
    an_uuid4(mid);
    struct an_a2a_send m = {
        .version = s->version,
        .stream = s->stream,
        .id = ++s->next_id,
        .message_id = mid,
        .text = s->user,
        .parts = s->parts,
        .context_id = s->context_id,
        .task_id = s->open_task,
        .tenant = s->tenant,
        .blocking = s->blocking,
        .modes = (const char *const *)s->modes,
        .nmodes = s->nmodes,
    };
    char *body = an_a2a_send_body(&m, &err);
    if (!body) {
        an_turn_fail(cur(t), err.code, "%s", err.msg);
        return err.code;
    }
    free(cur(t)->run_id);
    cur(t)->run_id = an_xstrdup(mid);
    char *url = NULL;
    if (s->rest)
        body = rest_of(s, body, &url);
    int rc = start(s, t, ST_SEND, body, url ? url : s->url,
                   s->stream ? "text/event-stream" : "application/json", time_left(s), easy);
    if (s->io.active)
        s->io.url = url; /* freed with the transfer */
    else
        free(url);
    return rc;
}

static int start_cancel(struct a2a_session *s, struct an_transcript *t, CURL **easy)
{
    char *body =
        an_a2a_cancel_body(s->version, ++s->next_id, an_json_str(s->dec.task, "id"), s->tenant);
    char *url = NULL;
    if (s->rest)
        body = rest_of(s, body, &url);
    int rc = start(s, t, ST_CANCEL, body, url ? url : s->url, "application/json",
                   s->cancel_timeout_ms, easy);
    if (s->io.active)
        s->io.url = url;
    else
        free(url);
    return rc;
}

/* Whether the config gave anything that must stay with its origin. */
static bool has_credentials(const struct a2a_session *s)
{
    return s->nuser_headers || s->api_key || s->bearer;
}

/* ananke's headers, less those the target sets itself, then the target's:
 * a header written in the config wins. `bare` gets ananke's own only. */
static void add_headers(struct a2a_session *s, const struct an_kv *ours, size_t n)
{
    an_kv_free(s->bare, s->nbare);
    s->bare = NULL;
    s->nbare = 0;
    for (size_t i = 0; i < n; i++)
        if (!strcasecmp(ours[i].name, "A2A-Version"))
            an_kv_append(&s->bare, &s->nbare, &ours[i], 1);
    for (size_t i = 0; i < n; i++) {
        bool theirs = false;
        for (size_t k = 0; k < s->nuser_headers && !theirs; k++)
            theirs = !strcasecmp(s->user_headers[k].name, ours[i].name);
        if (!theirs)
            an_kv_append(&s->headers, &s->nheaders, &ours[i], 1);
    }
    an_kv_append(&s->headers, &s->nheaders, s->user_headers, s->nuser_headers);
}

/* The card (fetched or inline) or the options decide URL, version,
 * streaming and the headers of every request. */
static int settle(struct a2a_session *s, const json_t *card, struct an_err *err)
{
    struct an_a2a_card c = {0};
    const char *key_header = NULL;
    int rc;
    if (card) {
        if ((rc = an_a2a_card_read_binding(card, s->want_version, s->want_binding, &c, err)))
            return rc;
        s->rest = c.rest;
        s->url = an_xstrdup(s->endpoint ? s->endpoint : c.url);
        /* the config wrote the endpoint, or the card itself; a fetched
         * card's URL is the agent's word */
        s->url_trusted = s->endpoint || card == s->card_json || s->trust_card_url ||
                         (s->card_url && an_http_same_origin(s->url, s->card_url));
        s->tenant = c.tenant ? an_xstrdup(c.tenant) : NULL;
        s->version = c.version;
        s->stream = s->stream_opt < 0 ? c.streaming : s->stream_opt > 0;
        key_header = c.api_key_header;
    } else {
        s->url = an_xstrdup(s->endpoint);
        s->url_trusted = true;
        s->rest = s->want_binding == AN_A2A_BIND_REST;
        s->version = s->want_version;
        s->stream = s->stream_opt > 0;
    }
    if (s->api_key && *s->api_key && !key_header) {
        rc = an_fail(err, AN_EUSAGE, NULL,
                     "api_key is set, but %s declares no apiKey security scheme sent in a "
                     "header: send the key with 'headers:' instead",
                     card ? "the agent card" : "there is no agent card that");
        an_a2a_card_release(&c);
        return rc;
    }
    an_kv_free(s->headers, s->nheaders);
    s->headers = NULL;
    s->nheaders = 0;
    struct an_kv extra[3];
    size_t n = 0;
    struct an_buf auth = AN_BUF_INIT;
    if (s->version == AN_A2A_V1_0)
        extra[n++] = (struct an_kv){"A2A-Version", "1.0"};
    if (key_header)
        extra[n++] = (struct an_kv){key_header, s->api_key};
    if (s->bearer && *s->bearer) {
        an_buf_printf(&auth, "Bearer %s", s->bearer);
        extra[n++] = (struct an_kv){"Authorization", an_buf_cstr(&auth)};
    }
    add_headers(s, extra, n);
    an_buf_release(&auth);
    an_a2a_card_release(&c);
    rc = an_http_headers_check(s->headers, s->nheaders, s->url, err);
    if (!rc)
        s->ready = true;
    return rc;
}

/* Headers for the card GET: the target's, and the version asked for. */
static void card_headers(struct a2a_session *s)
{
    an_kv_free(s->headers, s->nheaders);
    s->headers = NULL;
    s->nheaders = 0;
    struct an_kv v = {"A2A-Version", s->want_version == AN_A2A_V0_3 ? "0.3" : "1.0"};
    add_headers(s, &v, 1);
}

/* ---- the turn ---- */

static void finish_turn(struct a2a_session *s, struct an_transcript *t)
{
    struct an_turn_rec *r = cur(t);
    if (s->dec_on) {
        struct an_a2a_turn *d = &s->dec;
        if (d->context_id && r->status != AN_TURN_ERROR) {
            free(s->context_id);
            s->context_id = an_xstrdup(d->context_id);
        }
        const char *st = d->task ? an_json_str(d->task, "state") : NULL;
        free(s->open_task);
        s->open_task = NULL;
        if (an_a2a_state_interrupted(st) && an_json_str(d->task, "id"))
            s->open_task = an_xstrdup(an_json_str(d->task, "id"));
        an_a2a_turn_finish(d);
        an_a2a_turn_release(d);
        s->dec_on = false;
    }
    r->end_ms = an_clock_unix_ms();
    t->end_ms = r->end_ms;
    if (s->io.active)
        io_release(&s->io);
    s->want = ST_NONE;
}

static int a2a_begin(struct an_session *base, struct an_transcript *t, const char *user, bool retry,
                     CURL **easy)
{
    struct a2a_session *s = (struct a2a_session *)base;
    struct an_turn_rec *r = cur(t);
    (void)retry; /* a failed attempt sent nothing the conversation keeps */
    *easy = NULL;
    if (s->io.active)
        io_release(&s->io);
    if (s->dec_on)
        an_a2a_turn_release(&s->dec);
    free(s->user);
    s->user = user ? an_xstrdup(user) : NULL;
    s->parts = r->input_parts;
    if (user && !r->input)
        r->input = an_xstrdup(user);
    s->retry_after_ms = -1;
    s->deadline = an_clock_mono_ms() + s->timeout_ms;
    r->start_ms = an_clock_unix_ms();
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    an_a2a_turn_init(&s->dec, t, s->seen);
    s->dec.resumed = s->stream ? s->open_task : NULL; /* only a stream opens with a snapshot */
    s->dec_on = true;
    s->want = ST_NONE;
    int rc;
    if (!s->ready && s->card_url) {
        card_headers(s);
        free(s->card_at);
        s->card_at = an_xstrdup(s->card_url);
        s->card_hops = 0;
        rc = start_card(s, t, easy);
    } else {
        rc = start_send(s, t, easy);
    }
    if (rc)
        finish_turn(s, t);
    return rc;
}

static void end_card(struct a2a_session *s, struct an_transcript *t, int rc, const char *msg)
{
    struct an_turn_rec *r = cur(t);
    struct xfer_io *io = &s->io;
    if (rc == AN_EHTTP && io->resp.status >= 300 && io->resp.status < 400 && io->resp.location[0]) {
        const char *to = io->resp.location;
        if (++s->card_hops > CARD_REDIRECTS) {
            an_turn_fail(r, AN_EHTTP, "agent card %s: more than %d redirects", s->card_url,
                         CARD_REDIRECTS);
            return;
        }
        if (strncmp(to, "http://", 7) && strncmp(to, "https://", 8)) {
            an_turn_fail(r, AN_EHTTP, "agent card %s: redirect to '%.200s', not http(s)",
                         s->card_at, to);
            return;
        }
        if (has_credentials(s) && an_http_same_origin(s->card_at, s->card_url) &&
            !an_http_same_origin(to, s->card_url))
            an_turn_warn(r,
                         "the agent card %s redirects to '%.300s', another origin: fetched "
                         "there without the configured headers and keys",
                         s->card_at, to);
        free(s->card_at);
        s->card_at = an_xstrdup(to);
        s->want = ST_CARD;
        return;
    }
    if (rc) { /* the message names the URL */
        an_turn_fail(r, rc, "agent card: %s", msg);
        return;
    }
    char why[256];
    json_t *card = an_json_parse(io->raw.data ? io->raw.data : "", io->raw.len, why, sizeof why);
    struct an_err err = AN_ERR_INIT;
    if (!card) {
        an_turn_fail(r, AN_EPROTO, "agent card %s is not JSON: %s", s->card_url, why);
        return;
    }
    an_turn_add_frame(r, an_clock_unix_ms(), io->raw.data, io->raw.len);
    rc = settle(s, card, &err);
    json_decref(card);
    if (rc) {
        an_turn_fail(r, rc, "agent card %s: %s", s->card_url, err.msg);
        return;
    }
    if (!s->url_trusted && has_credentials(s))
        an_turn_warn(r,
                     "the agent card names '%.300s', another origin than %s: requests go "
                     "there without the configured headers and keys (trust_card_url: true "
                     "sends them)",
                     s->url, s->card_url);
    s->want = ST_SEND;
}

/* REST: an error answer (4xx, 5xx) whose body is an A2A error (its start,
 * as kept for messages, parses) fails the turn naming the status and the
 * error; false when it is not one. */
static bool rest_error(struct a2a_session *s, struct an_turn_rec *r, int rc)
{
    const struct an_http_resp *resp = &s->io.resp;
    if (!s->rest || rc != AN_EHTTP || resp->status < 400 || r->status == AN_TURN_ERROR)
        return false;
    json_t *body = an_json_parse(resp->head, strlen(resp->head), NULL, 0);
    if (!json_is_object(body)) {
        json_decref(body);
        return false;
    }
    json_t *e = an_a2a_rest_error(body, resp->status);
    an_turn_fail(r, AN_EHTTP, "the agent answered HTTP %ld, A2A error %lld: %.500s", resp->status,
                 (long long)json_integer_value(json_object_get(e, "code")),
                 an_json_str(e, "message") ? an_json_str(e, "message") : "");
    json_decref(e);
    json_decref(body);
    return true;
}

static void end_send(struct a2a_session *s, struct an_transcript *t, int rc, const char *msg,
                     CURLcode cc)
{
    struct an_turn_rec *r = cur(t);
    struct xfer_io *io = &s->io;
    struct an_a2a_turn *d = &s->dec;
    if (io->done) {
        rc = AN_OK; /* stopped after the final event */
    } else if (cc == CURLE_ABORTED_BY_CALLBACK) {
        return; /* the caller gave up and said why */
    }
    switch (rc) {
    case AN_OK:
        if (io->sse_mode) {
            int frc = io->done ? AN_OK : an_sse_finish(&io->sse);
            /* not one event: say what came instead (no body, an encoding) */
            char *why = !io->done && frc == AN_OK && !io->sse.nevents && r->status != AN_TURN_ERROR
                            ? an_http_why_not_stream(&io->resp, "text/event-stream")
                            : NULL;
            if (why) {
                an_turn_fail(r, AN_EPROTO, "%s", why);
                free(why);
            } else if (!io->done && frc == AN_OK && !d->final && r->status != AN_TURN_ERROR) {
                const char *st = d->task ? an_json_str(d->task, "state") : NULL;
                an_turn_fail(r, AN_EPROTO,
                             "the stream ended before a final task state (last state: %s)",
                             st ? st : "none");
            }
        } else if (r->status != AN_TURN_ERROR) {
            char *why = NULL;
            if (!io->raw.len || io->resp.content_encoding[0] ||
                (strncasecmp(io->resp.content_type, "application/json", 16) &&
                 !an_json_valid(io->raw.data, io->raw.len))) /* a lenient text/plain is read */
                why = an_http_why_not_stream(&io->resp, s->stream
                                                            ? "text/event-stream, application/json"
                                                            : "application/json");
            if (why)
                an_turn_fail(r, AN_EPROTO, "%s", why);
            else if (!io->raw.len)
                an_turn_fail(r, AN_EPROTO, "the agent answered with an empty body");
            else if (take_answer(io, io->raw.data, io->raw.len, 0) == AN_OK && s->stream)
                an_turn_warn(r,
                             "asked for a stream, the agent answered with one JSON "
                             "document (content-type '%.100s')",
                             io->resp.content_type);
            free(why);
        }
        if (r->status != AN_TURN_ERROR && !d->final && s->blocking && d->task)
            an_turn_warn(r, "a blocking send answered with the task still %s",
                         an_json_str(d->task, "state") ? an_json_str(d->task, "state")
                                                       : "in no state");
        break;
    case AN_ETIMEOUT: {
        const char *st = d->task ? an_json_str(d->task, "state") : NULL;
        an_turn_fail(r, AN_ETIMEOUT, "no final task state within %lld ms (last state: %s)",
                     (long long)s->timeout_ms, st ? st : "none");
        if (d->task && an_json_str(d->task, "id") && !an_a2a_state_terminal(st))
            s->want = ST_CANCEL;
        break;
    }
    case AN_ECONNECT:
        if (io->resp.status >= 200 && io->resp.status < 300 && r->status != AN_TURN_ERROR) {
            const char *st = d->task ? an_json_str(d->task, "state") : NULL;
            an_turn_fail(r, AN_ECONNECT,
                         "the answer was cut before a final task state (last state: %s): %s",
                         st ? st : "none", io->resp.curl_error[0] ? io->resp.curl_error : msg);
            break;
        }
        an_turn_fail(r, rc, "%s", msg);
        break;
    case AN_ELIMIT:
        /* a stream over the body cap (an event over its cap failed the
         * turn first, and the first cause wins) */
        an_turn_fail(r, rc, "response body larger than max_turn_bytes (%zu bytes)",
                     s->max_turn_bytes);
        break;
    default:
        /* AN_EHTTP, or a frame that failed the turn (recorded
         * first: the first cause wins) */
        if (!rest_error(s, r, rc))
            an_turn_fail(r, rc, "%s", msg);
        break;
    }
}

static void a2a_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct a2a_session *s = (struct a2a_session *)base;
    struct xfer_io *io = &s->io;
    struct an_turn_rec *r = cur(t);
    struct an_err herr = AN_ERR_INIT;
    if (!io->active)
        return;
    int rc = an_http_xfer_done(&io->xfer, cc, &herr);
    /* libcurl reports no connect time on a reused connection, which
     * an_http_xfer_done() takes for "never connected": an answer had
     * started, so this was the turn's own timeout */
    if (cc == CURLE_OPERATION_TIMEDOUT && io->resp.status)
        rc = AN_ETIMEOUT;
    if (io->stage != ST_CANCEL) {
        r->http_status = (int)io->resp.status;
        s->retry_after_ms = io->resp.retry_after_ms;
    }
    switch (io->stage) {
    case ST_CARD:
        if (cc != CURLE_ABORTED_BY_CALLBACK)
            end_card(s, t, rc, herr.msg);
        break;
    case ST_SEND:
        end_send(s, t, rc, herr.msg, cc);
        break;
    case ST_CANCEL:
        if (rc == AN_OK && io->raw.len)
            take_answer(io, io->raw.data, io->raw.len, 0);
        else
            an_turn_warn(r, "CancelTask after the timeout failed: %s",
                         rc ? herr.msg : "empty answer");
        break;
    case ST_NONE:
        break;
    }
    if (cc == CURLE_ABORTED_BY_CALLBACK)
        s->want = ST_NONE;
    io_release(io);
    if (s->want == ST_NONE)
        finish_turn(s, t);
}

static bool a2a_next(struct an_session *base, struct an_transcript *t, CURL **easy)
{
    struct a2a_session *s = (struct a2a_session *)base;
    enum stage w = s->want;
    *easy = NULL;
    if (w == ST_NONE)
        return false;
    s->want = ST_NONE;
    int rc = w == ST_SEND   ? start_send(s, t, easy)
             : w == ST_CARD ? start_card(s, t, easy)
                            : start_cancel(s, t, easy);
    if (rc) {
        finish_turn(s, t);
        return false;
    }
    return true;
}

static int64_t a2a_retry_after(const struct an_session *base)
{
    return ((const struct a2a_session *)base)->retry_after_ms;
}

static void a2a_free(struct an_session *base)
{
    struct a2a_session *s = (struct a2a_session *)base;
    if (s->io.active)
        io_release(&s->io);
    if (s->dec_on)
        an_a2a_turn_release(&s->dec);
    free(s->card_url);
    free(s->card_at);
    an_kv_free(s->bare, s->nbare);
    free(s->endpoint);
    free(s->api_key);
    free(s->bearer);
    json_decref(s->card_json);
    for (size_t i = 0; i < s->nmodes; i++)
        free(s->modes[i]);
    free(s->modes);
    an_kv_free(s->user_headers, s->nuser_headers);
    an_kv_free(s->headers, s->nheaders);
    free(s->url);
    free(s->tenant);
    free(s->context_id);
    free(s->open_task);
    json_decref(s->seen);
    free(s->user);
    free(s);
}

static const struct an_session_ops a2a_ops = {
    .name = "a2a",
    .begin = a2a_begin,
    .end = a2a_end,
    .next = a2a_next,
    .retry_after_ms = a2a_retry_after,
    .free = a2a_free,
};

static char *dup_or_null(const char *s)
{
    return s && *s ? an_xstrdup(s) : NULL;
}

int an_a2a_open(struct an_session **out, const struct an_a2a_opts *o, struct an_err *err)
{
    *out = NULL;
    if (!o->card && !(o->card_url && *o->card_url) && !(o->endpoint && *o->endpoint))
        return an_fail(err, AN_EUSAGE, NULL,
                       "a2a target has no agentCardUrl, agentCard or endpoint");
    int rc = an_http_headers_check(o->headers, o->nheaders,
                                   o->endpoint   ? o->endpoint
                                   : o->card_url ? o->card_url
                                                 : "a2a",
                                   err);
    if (rc)
        return rc;
    rc = an_http_global_init("an a2a target", err);
    if (rc)
        return rc;
    struct a2a_session *s = an_xcalloc(1, sizeof *s);
    s->base.ops = &a2a_ops;
    s->card_url = dup_or_null(o->card_url);
    s->endpoint = dup_or_null(o->endpoint);
    s->api_key = dup_or_null(o->api_key);
    s->bearer = dup_or_null(o->bearer);
    s->want_version = o->version;
    s->want_binding = o->binding;
    s->stream_opt = o->stream;
    s->blocking = o->blocking;
    s->trust_card_url = o->trust_card_url;
    s->modes = an_xcalloc(o->nmodes + 1, sizeof *s->modes);
    for (size_t i = 0; i < o->nmodes; i++)
        s->modes[i] = an_xstrdup(o->modes[i]);
    s->nmodes = o->nmodes;
    an_kv_append(&s->user_headers, &s->nuser_headers, o->headers, o->nheaders);
    s->timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : 30000;
    s->cancel_timeout_ms = o->cancel_timeout_ms > 0 ? o->cancel_timeout_ms : CANCEL_TIMEOUT_MS;
    s->max_turn_bytes = o->max_turn_bytes ? o->max_turn_bytes : DEFAULT_MAX_TURN;
    s->max_event_bytes = o->max_event_bytes ? o->max_event_bytes : DEFAULT_MAX_EVENT;
    s->seen = json_object();
    s->retry_after_ms = -1;
    if (!s->card_url && !o->card && o->version == AN_A2A_AUTO)
        s->card_url = an_a2a_card_url_for(s->endpoint); /* the well-known place */
    if (o->card) {
        s->card_json = json_deep_copy(o->card);
        rc = settle(s, s->card_json, err);
    } else if (!s->card_url) {
        rc = settle(s, NULL, err); /* endpoint and version: nothing to discover */
    }
    if (rc) {
        a2a_free(&s->base);
        return rc;
    }
    *out = &s->base;
    return AN_OK;
}
