/*
 * AG-UI adapter: one HTTP POST of a RunAgentInput per turn, the SSE answer
 * decoded into the transcript (agui_decode.c), the conversation (history,
 * state, thread id) kept in the session between turns.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ananke/err.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/adapter.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"
#include "proto/fd_session.h"
#include "proto/h1.h"
#include "proto/http.h"
#include "proto/sse.h"
#include "proto/uuid.h"

#define DEFAULT_MAX_EVENT (16u * 1024u * 1024u)
/* A turn's text is held about three times over at its end (the deltas, the
 * turn's text, the history): 64 MiB keeps an endless stream near 200 MB. */
#define DEFAULT_MAX_TURN (64u * 1024u * 1024u)

/* What one turn's callbacks share; lives in the session while the turn is
 * in flight (a session runs one turn at a time). */
struct turn_io {
    struct agui_session *s;
    struct an_transcript *t;
    struct an_sse_parser sse;
    struct an_agui_dec *dec;
    struct an_http_req req;
    struct an_http_resp resp;
    struct an_http_xfer xfer;
    struct an_h1_xfer h1; /* instead of xfer when h1_on (proto/h1.h) */
    bool h1_on;
    char *body;
    bool active;
    /* when the bytes being framed arrived: the read that brought them
     * (proto/h1.c), or the piece of the body libcurl handed over; not read
     * again for each event, since the events of one read all came at that
     * moment (a clock read is about 20 ns: 18 ms over a 100 MB stream's 1.1
     * million events, a quarter of their decoding) */
    int64_t arrived_ms;
};

struct agui_session {
    struct an_session base;
    struct an_agui_conv conv;
    char *endpoint;
    char *connect_endpoint; /* NULL: endpoint */
    struct an_kv *headers;  /* deep copies */
    size_t nheaders;
    int64_t timeout_ms;
    size_t max_event_bytes, max_turn_bytes, max_tool_calls, max_header_bytes;
    uint64_t max_state_bytes;
    int protocol;          /* enum an_protocol_mode */
    size_t history_before; /* conv.messages before this turn's user message */
    int64_t retry_after_ms;
    struct turn_io io;
};

static struct an_turn_rec *cur(struct turn_io *io)
{
    return &io->t->turns[io->t->nturns - 1];
}

static int on_sse_event(void *ud, const struct an_sse_event *ev)
{
    struct turn_io *io = ud;
    return an_agui_dec_event(io->dec, ev->data, ev->len, io->arrived_ms);
}

/* the commonest events, framed and applied in one pass (sse.h `take`) */
static size_t take_sse_event(void *ud, const char *bytes, size_t n)
{
    struct turn_io *io = ud;
    return an_agui_fast_take(io->dec, bytes, n, io->arrived_ms);
}

/* An AN_ELIMIT from the framer is the event cap unless the decoder had
 * already failed the turn (its own limit, max_tool_calls). */
static void note_sse_rc(struct turn_io *io, int rc)
{
    if (rc == AN_ELIMIT && cur(io)->status != AN_TURN_ERROR)
        an_turn_fail(cur(io), AN_ELIMIT, "SSE event #%llu larger than max_event_bytes (%zu bytes)",
                     (unsigned long long)io->sse.nevents + 1, io->s->max_event_bytes);
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct turn_io *io = ud;
    io->arrived_ms = io->h1_on ? io->h1.recv_unix_ms : an_clock_unix_ms();
    int rc = an_sse_feed(&io->sse, p, n);
    note_sse_rc(io, rc);
    return rc;
}

static bool is_2xx(long status)
{
    return status >= 200 && status < 300;
}

static void io_release(struct turn_io *io)
{
    if (io->h1_on)
        an_h1_xfer_release(&io->h1);
    else
        an_http_xfer_release(&io->xfer);
    an_agui_dec_free(io->dec);
    io->dec = NULL;
    an_sse_release(&io->sse);
    free(io->body);
    io->body = NULL;
    io->active = false;
}

static int agui_begin(struct an_session *base, struct an_transcript *t, const char *user,
                      bool retry, CURL **easy)
{
    struct agui_session *s = (struct agui_session *)base;
    struct turn_io *io = &s->io;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    struct an_err herr = AN_ERR_INIT;
    char run_id[AN_UUID_STR];

    *easy = NULL;
    if (io->active)
        io_release(io);
    if (retry) /* the failed attempt's user message must not be sent twice */
        while (json_array_size(s->conv.messages) > s->history_before)
            json_array_remove(s->conv.messages, json_array_size(s->conv.messages) - 1);
    s->history_before = json_array_size(s->conv.messages);
    s->retry_after_ms = -1;

    an_uuid4(run_id);
    free(r->run_id);
    r->run_id = an_xstrdup(run_id);
    if (user && !r->input)
        r->input = an_xstrdup(user);

    memset(io, 0, sizeof *io);
    io->s = s;
    io->t = t;
    s->conv.user_parts = user ? r->input_parts : NULL;
    io->body = an_agui_conv_body(&s->conv, run_id, user);

    an_agui_dec_new(&io->dec, &s->conv, t, s->max_tool_calls);
    an_agui_dec_protocol(io->dec, s->protocol);
    an_agui_dec_max_state(io->dec, s->max_state_bytes);
    an_sse_init(&io->sse, s->max_event_bytes, on_sse_event, io);
    io->sse.lend = true; /* an_agui_dec_event reads data by its length */
    io->sse.take = take_sse_event;

    struct an_http_req req = AN_HTTP_REQ_INIT;
    req.url = !user && s->connect_endpoint ? s->connect_endpoint : s->endpoint;
    req.accept = "text/event-stream";
    req.headers = s->headers;
    req.nheaders = s->nheaders;
    req.body = io->body;
    req.body_len = strlen(io->body);
    req.timeout_ms = s->timeout_ms;
    req.max_body = s->max_turn_bytes;
    req.max_header = s->max_header_bytes;
    req.on_data = on_body;
    req.ud = io;
    req.traceparent = r->traceparent;
    io->req = req;
    io->active = true;

    r->start_ms = an_clock_unix_ms();
    r->first_event_ms = r->first_text_ms = 0;
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    /* a plain http:// turn goes through proto/h1.c, driven by the loop's
     * poll (agui_fds, agui_step); anything else through libcurl */
    io->h1_on = an_h1_usable(&io->req);
    int rc = io->h1_on ? an_h1_xfer_init(&io->h1, &io->req, &io->resp, &herr)
                       : an_http_xfer_init(&io->xfer, &io->req, &io->resp, &herr);
    if (rc) {
        an_turn_fail(r, rc, "%s", herr.msg);
        an_agui_dec_finish(io->dec, NULL);
        r->end_ms = an_clock_unix_ms();
        io_release(io);
        return rc;
    }
    *easy = io->h1_on ? NULL : io->xfer.easy;
    return AN_OK;
}

static size_t agui_fds(struct an_session *base, struct curl_waitfd *out, size_t max)
{
    struct turn_io *io = &((struct agui_session *)base)->io;
    struct pollfd p;
    if (!io->active || !io->h1_on || !max)
        return 0;
    return an_fd_session_waitfds(out, &p, an_h1_xfer_fds(&io->h1, &p));
}

static bool agui_step(struct an_session *base, struct an_transcript *t,
                      const struct curl_waitfd *fds, size_t n)
{
    struct turn_io *io = &((struct agui_session *)base)->io;
    struct pollfd p;
    (void)t;
    if (!io->active || !io->h1_on)
        return true;
    size_t np = an_h1_xfer_fds(&io->h1, &p);
    an_fd_session_revents(&p, np, fds, n);
    return an_h1_xfer_step(&io->h1, np ? p.revents : 0);
}

static void agui_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct agui_session *s = (struct agui_session *)base;
    struct turn_io *io = &s->io;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    struct an_err herr = AN_ERR_INIT;
    const char *cut = NULL;

    if (!io->active)
        return;
    int rc = io->h1_on ? an_h1_xfer_done(&io->h1, &herr)
                       : an_http_xfer_done(&io->xfer, cc, &herr);
    r->http_status = (int)io->resp.status;
    s->retry_after_ms = io->resp.retry_after_ms;

    if (cc == CURLE_ABORTED_BY_CALLBACK) {
        /* the caller gave up on the turn and said why; keep what arrived */
        cut = "the transfer was stopped";
    } else {
        switch (rc) {
        case AN_OK:
            io->arrived_ms = an_clock_unix_ms(); /* the stream's end */
            note_sse_rc(io, an_sse_finish(&io->sse));
            if (!io->sse.nevents && r->status != AN_TURN_ERROR) {
                /* not one event: say what came instead of a stream */
                char *why = an_http_why_not_stream(&io->resp, "text/event-stream");
                if (why)
                    an_turn_fail(r, AN_EPROTO, "%s", why);
                free(why);
            }
            break;
        case AN_ETIMEOUT:
            an_turn_fail(r, AN_ETIMEOUT, "no RUN_FINISHED within %lld ms (%s)",
                         (long long)s->timeout_ms, s->endpoint);
            break;
        case AN_ELIMIT:
            /* The event cap was recorded by on_body; this is the body cap,
             * or the header cap. */
            if (io->resp.header_bytes > s->max_header_bytes)
                an_turn_fail(r, AN_ELIMIT,
                             "response headers larger than max_header_bytes (%zu bytes)",
                             s->max_header_bytes);
            else
                an_turn_fail(r, AN_ELIMIT,
                             "response body larger than max_turn_bytes (%zu bytes)",
                             s->max_turn_bytes);
            break;
        case AN_ECONNECT:
            if (is_2xx(io->resp.status)) {
                /* The answer had started: a stream cut short, judged by
                 * whether the run had finished. A half-received last event
                 * is not dispatched: "cut" says more than "invalid JSON". */
                cut = io->resp.curl_error[0] ? io->resp.curl_error : herr.msg;
                break;
            }
            an_turn_fail(r, AN_ECONNECT, "%s", herr.msg);
            break;
        default:
            /* AN_EHTTP, or the decoder stopping the transfer (already
             * recorded: the first cause wins). A 404, 405 or 501 means
             * nothing took the POST: most likely not an AG-UI endpoint. */
            if (rc == AN_EHTTP &&
                (io->resp.status == 404 || io->resp.status == 405 || io->resp.status == 501))
                an_turn_fail(r, rc,
                             "HTTP %ld from %s: this does not look like an AG-UI endpoint (an "
                             "AG-UI endpoint answers a POST of RunAgentInput with 200 and a "
                             "text/event-stream of events); check the target's endpoint (%s)",
                             io->resp.status, s->endpoint, herr.msg);
            else
                an_turn_fail(r, rc, "%s", herr.msg);
            break;
        }
    }
    if (is_2xx(io->resp.status) && io->sse.nevents &&
        strncasecmp(io->resp.content_type, "text/event-stream", 17))
        an_turn_warn(r, "response content-type is '%.100s', expected text/event-stream",
                     io->resp.content_type[0] ? io->resp.content_type : "(none)");

    an_agui_dec_finish(io->dec, cut);
    r->end_ms = an_clock_unix_ms();
    t->end_ms = r->end_ms;
    io_release(io);
}

static int64_t agui_retry_after(const struct an_session *base)
{
    return ((const struct agui_session *)base)->retry_after_ms;
}

static void agui_free(struct an_session *base)
{
    struct agui_session *s = (struct agui_session *)base;
    if (s->io.active)
        io_release(&s->io);
    an_agui_conv_release(&s->conv);
    free(s->endpoint);
    free(s->connect_endpoint);
    an_kv_free(s->headers, s->nheaders);
    an_agui_spare_put(s, sizeof *s);
}

static const struct an_session_ops agui_ops = {
    .name = "agui",
    .begin = agui_begin,
    .end = agui_end,
    .fds = agui_fds,
    .step = agui_step,
    .retry_after_ms = agui_retry_after,
    .free = agui_free,
};

int an_agui_open(struct an_session **out, const struct an_agui_opts *opts, struct an_err *err)
{
    *out = NULL;
    if (!opts->endpoint || !*opts->endpoint)
        return an_fail(err, AN_EUSAGE, NULL, "agui target has no endpoint");
    int rc = an_http_headers_check(opts->headers, opts->nheaders, opts->endpoint, err);
    if (rc)
        return rc;
    /* no an_http_global_init here: a turn over proto/h1.c needs no libcurl,
     * and an_http_xfer_init initialises it for one that does */

    struct agui_session *s = an_agui_spare_take(sizeof *s);
    s->base.ops = &agui_ops;
    s->endpoint = an_xstrdup(opts->endpoint);
    s->connect_endpoint = opts->connect_endpoint ? an_xstrdup(opts->connect_endpoint) : NULL;
    s->timeout_ms = opts->timeout_ms;
    s->max_event_bytes = opts->max_event_bytes ? opts->max_event_bytes : DEFAULT_MAX_EVENT;
    s->max_turn_bytes = opts->max_turn_bytes ? opts->max_turn_bytes : DEFAULT_MAX_TURN;
    s->max_tool_calls = opts->max_tool_calls ? opts->max_tool_calls : AN_AGUI_DEFAULT_MAX_CALLS;
    s->max_header_bytes = opts->max_header_bytes ? opts->max_header_bytes : AN_H1_DEFAULT_MAX_HEADER;
    s->max_state_bytes = opts->max_state_bytes;
    s->protocol = opts->protocol;
    an_kv_append(&s->headers, &s->nheaders, opts->headers, opts->nheaders);
    an_agui_conv_init(&s->conv, opts->thread_id, opts->state, opts->forwarded_props);
    an_agui_conv_seed(&s->conv, opts->history);
    *out = &s->base;
    return AN_OK;
}
