/*
 * OpenAI-compatible chat completions: the model is the agent under test,
 * and ananke plays the client framework around it. Each user turn is a
 * tool loop: POST the conversation to base_url/chat/completions; when the
 * answer asks for tools, answer each call (a canned result or a command),
 * add the assistant message and the tool messages to the conversation and
 * ask again (the session's next() op), until the model answers without
 * tool calls or max_rounds model calls were made.
 *
 * The request body and the answer's assembly are pure (openai_msgs.c,
 * openai_stream.c); this file sends, records and keeps the conversation.
 * Tools run synchronously inside next(), on the scheduler's thread: their
 * timeout is capped by what is left of the turn's.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ananke/err.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/proc.h"
#include "core/usage.h"
#include "proto/adapter.h"
#include "proto/http.h"
#include "proto/openai_int.h"
#include "proto/sse.h"
#include "proto/uuid.h"

#define DEFAULT_MAX_TURN (64u * 1024u * 1024u)
#define DEFAULT_ROUNDS 10u
#define TOOL_TIMEOUT_MS 30000
#define STDERR_SHOWN 300 /* bytes of a failing tool's stderr sent to the model */

/* What the tool message says for a call the test answers with nothing: the
 * API rejects a conversation whose tool call has no tool message, and a
 * later turn still sends this one. */
#define NO_RESULT "no result: the test ended the turn before this tool was run"

struct tool {
    char *name;
    json_t *result; /* NULL: none */
    char **argv;    /* NULL-terminated, or NULL */
    char *cwd;
    int64_t timeout_ms;
};

/* One round's transfer; lives in the session while it is in flight. */
struct round_io {
    struct oai_session *s;
    struct an_transcript *t;
    struct an_sse_parser sse;
    struct an_buf raw; /* a JSON answer's body */
    bool sse_mode;     /* how the body is read, set at its first byte */
    bool mode_known;
    struct an_http_req req;
    struct an_http_resp resp;
    struct an_http_xfer xfer;
    char *body;
    bool active;
};

struct oai_session {
    struct an_session base;
    char *url;
    char *model;
    struct an_kv *headers; /* deep copies, Authorization first when there is a key */
    size_t nheaders;
    json_t *conv;       /* chat-completions messages: system, history, every turn's */
    json_t *tools_json; /* the request's `tools`; an empty array when none */
    json_t *params;     /* NULL: none */
    struct tool *tools;
    size_t ntools;
    bool stream;
    unsigned max_rounds;
    int64_t timeout_ms;
    size_t max_turn_bytes, max_event_bytes, max_tool_calls;

    /* the turn in flight */
    size_t turn_start;        /* conv's length before the turn's user message */
    int64_t deadline;         /* monotonic ms; 0: no timeout */
    unsigned rounds;          /* model calls made in this turn */
    struct an_buf text;       /* the turn's text: each round's, joined by "\n" */
    struct an_oai_answer ans; /* the last round's answer */
    size_t ans_first;         /* its first call in t->calls */
    bool ans_ok;              /* it is complete and next() has not used it yet */
    int64_t retry_after_ms;
    struct round_io io;
};

static struct an_turn_rec *cur(struct an_transcript *t)
{
    return &t->turns[t->nturns - 1];
}

/* Fail the turn; in a tool loop the message says which round failed. */
static void fail_round(struct oai_session *s, struct an_turn_rec *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail_round(struct oai_session *s, struct an_turn_rec *r, int code, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (s->rounds > 1)
        an_turn_fail(r, code, "round %u of the tool loop: %s", s->rounds, msg);
    else
        an_turn_fail(r, code, "%s", msg);
}

static int64_t time_left(const struct oai_session *s)
{
    return s->deadline ? s->deadline - an_clock_mono_ms() : INT64_MAX;
}

/* ---- the body of one answer ---- */

static int on_sse_event(void *ud, const struct an_sse_event *ev)
{
    struct round_io *io = ud;
    struct an_turn_rec *r = cur(io->t);
    struct an_err e = AN_ERR_INIT;
    int64_t now = an_clock_unix_ms();
    an_turn_add_frame(r, now, ev->data, ev->len);
    an_turn_mark_event(r, now);
    size_t had = io->s->ans.text.len;
    int rc = an_oai_chunk(&io->s->ans, ev->data, ev->len, now, &e);
    if (!rc && io->s->ans.text.len > had)
        an_turn_mark_text(r, now);
    if (rc)
        fail_round(io->s, r, rc, "%s", e.msg);
    return rc;
}

/* An AN_ELIMIT from the framer is the event cap unless the chunk parser had
 * already failed the turn. */
static void note_sse_rc(struct round_io *io, int rc)
{
    struct an_turn_rec *r = cur(io->t);
    if (rc == AN_ELIMIT && r->status != AN_TURN_ERROR)
        fail_round(io->s, r, AN_ELIMIT, "SSE event #%llu larger than %s (%zu bytes)",
                   (unsigned long long)io->sse.nevents + 1,
                   io->sse.max_data == io->s->max_event_bytes ? "max_event_bytes"
                                                              : "max_turn_bytes",
                   io->sse.max_data);
}

static bool is_json_type(const char *ct)
{
    return !strncasecmp(ct, "application/json", 16);
}

static bool is_sse_type(const char *ct)
{
    return !strncasecmp(ct, "text/event-stream", 17);
}

/* Read the body as its content type says: some servers ignore "stream"
 * one way or the other, and the answer is still readable. */
static void pick_mode(struct round_io *io)
{
    const char *ct = io->resp.content_type;
    struct an_turn_rec *r = cur(io->t);
    io->mode_known = true;
    io->sse_mode = io->s->stream;
    if (is_sse_type(ct))
        io->sse_mode = true;
    else if (is_json_type(ct))
        io->sse_mode = false;
    else
        an_turn_warn(r, "response content-type is '%.100s', expected %s", ct[0] ? ct : "(none)",
                     io->s->stream ? "text/event-stream" : "application/json");
    if (io->sse_mode != io->s->stream)
        an_turn_warn(r, "asked for %s but the answer is %s: read as such",
                     io->s->stream ? "a stream" : "one JSON answer", ct);
}

static int on_body(void *ud, const char *p, size_t n)
{
    struct round_io *io = ud;
    if (!io->mode_known)
        pick_mode(io);
    if (!io->sse_mode)
        return an_buf_append(&io->raw, p, n); /* AN_ELIMIT: the body cap */
    int rc = an_sse_feed(&io->sse, p, n);
    note_sse_rc(io, rc);
    return rc;
}

/* ---- rounds ---- */

static void io_release(struct round_io *io)
{
    an_http_xfer_release(&io->xfer);
    an_sse_release(&io->sse);
    an_buf_release(&io->raw);
    free(io->body);
    io->body = NULL;
    io->active = false;
}

/* Send the conversation as it stands. On failure the turn record says why
 * and there is nothing to run. */
static int start_round(struct oai_session *s, struct an_transcript *t, CURL **easy)
{
    struct round_io *io = &s->io;
    struct an_turn_rec *r = cur(t);
    struct an_err herr = AN_ERR_INIT;
    int64_t left = time_left(s);

    *easy = NULL;
    if (left <= 0) {
        an_turn_fail(r, AN_ETIMEOUT,
                     "no final answer within timeout_ms (%lld ms): the time ran out after %u "
                     "rounds of the tool loop",
                     (long long)s->timeout_ms, s->rounds);
        r->end_ms = t->end_ms = an_clock_unix_ms();
        return AN_ETIMEOUT;
    }
    s->rounds++;
    an_oai_answer_release(&s->ans);
    an_oai_answer_init(&s->ans);
    s->ans.max_calls = s->max_tool_calls;
    s->ans_ok = false;

    memset(io, 0, sizeof *io);
    io->s = s;
    io->t = t;
    json_t *req = an_oai_request(s->model, s->conv, s->stream, s->tools_json, s->params);
    io->body = an_json_compact(req);
    json_decref(req);
    size_t max_event = s->max_turn_bytes < s->max_event_bytes ? s->max_turn_bytes
                                                              : s->max_event_bytes;
    an_sse_init(&io->sse, max_event, on_sse_event, io);
    an_buf_init(&io->raw, s->max_turn_bytes);

    struct an_http_req hr = AN_HTTP_REQ_INIT;
    hr.url = s->url;
    hr.accept = s->stream ? "text/event-stream" : "application/json";
    hr.headers = s->headers;
    hr.nheaders = s->nheaders;
    hr.body = io->body;
    hr.body_len = strlen(io->body);
    hr.timeout_ms = s->deadline ? left : 0; /* the turn's timeout covers every round */
    hr.max_body = s->max_turn_bytes;
    hr.on_data = on_body;
    hr.ud = io;
    hr.traceparent = cur(t)->traceparent;
    io->req = hr;
    io->active = true;

    int rc = an_http_xfer_init(&io->xfer, &io->req, &io->resp, &herr);
    if (rc) {
        fail_round(s, r, rc, "%s", herr.msg);
        r->end_ms = t->end_ms = an_clock_unix_ms();
        io_release(io);
        return rc;
    }
    *easy = io->xfer.easy;
    return AN_OK;
}

static int oai_begin(struct an_session *base, struct an_transcript *t, const char *user, bool retry,
                     CURL **easy)
{
    struct oai_session *s = (struct oai_session *)base;
    struct an_turn_rec *r = cur(t);

    *easy = NULL;
    if (s->io.active)
        io_release(&s->io);
    if (retry) {
        /* The whole turn again, from its user message: what the failed
         * attempt added (messages, calls) must not be sent or kept twice.
         * A retry only follows a round that got nothing (an_turn_retryable),
         * which in practice is the first. */
        while (json_array_size(s->conv) > s->turn_start)
            json_array_remove(s->conv, json_array_size(s->conv) - 1);
        an_transcript_drop_calls(t, r->first_call);
    }
    s->turn_start = json_array_size(s->conv);
    s->retry_after_ms = -1;
    s->rounds = 0;
    an_buf_reset(&s->text);

    if (user && !r->input)
        r->input = an_xstrdup(user);
    if (user) {
        /* attachments: the message's parts in chat-completions form */
        json_t *content = NULL;
        if (r->input_parts) {
            struct an_err cerr = AN_ERR_INIT;
            content = an_oai_content_from_agui(r->input_parts, "the user message", &cerr);
            if (!content) {
                an_turn_fail(r, cerr.code, "%s", cerr.msg);
                return cerr.code;
            }
        } else {
            content = an_json_lossy(user, strlen(user));
        }
        json_array_append_new(s->conv, json_pack("{s:s,s:o}", "role", "user", "content", content));
    }
    r->start_ms = an_clock_unix_ms();
    r->first_event_ms = r->first_text_ms = 0;
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    s->deadline = s->timeout_ms > 0 ? an_clock_mono_ms() + s->timeout_ms : 0;
    return start_round(s, t, easy);
}

/* ---- recording an answer ---- */

static void parse_args(struct an_turn_rec *r, struct an_tool_call *tc)
{
    char why[256];
    if (!an_tool_call_parse_args(tc, why, sizeof why))
        an_turn_warn(r, "tool call '%.100s' (%.100s): arguments are not valid JSON: %s", tc->id,
                     tc->name, why);
}

/* The round's text and tool calls into the transcript, as the AG-UI
 * decoder records them: the text joins the turn's, each call gets its
 * arguments (parsed when they are JSON) and the times of its deltas. */
static void record(struct oai_session *s, struct an_transcript *t)
{
    struct an_oai_answer *a = &s->ans;
    struct an_turn_rec *r = cur(t);

    if (a->text.len) {
        /* Rounds are separate messages: "\n" keeps their sentences apart. */
        if (s->text.len)
            an_buf_putc(&s->text, '\n');
        an_buf_append(&s->text, an_buf_cstr(&a->text), a->text.len);
    }
    free(r->text);
    r->text = an_xstrndup(an_buf_cstr(&s->text), s->text.len);
    if (a->id) {
        free(r->run_id);
        r->run_id = an_xstrdup(a->id);
    }
    if (a->usage) /* one report per model call: a tool loop's rounds add up */
        an_turn_add_usage(r, a->model ? a->model : s->model,
                          an_usage_count(a->usage, "prompt_tokens"),
                          an_usage_count(a->usage, "completion_tokens"),
                          an_usage_count(a->usage, "total_tokens"), -1);

    s->ans_first = t->ncalls;
    for (size_t i = 0; i < a->ncalls; i++) {
        struct an_oai_call *c = &a->calls[i];
        if (!c->id) {
            char id[AN_UUID_STR + 8];
            char u[AN_UUID_STR];
            an_uuid4(u);
            snprintf(id, sizeof id, "call_%s", u);
            c->id = an_xstrdup(id);
            an_turn_warn(r, "tool call #%zu (%.100s) came without an id; named '%s'", i + 1,
                         c->name ? c->name : "?", id);
        }
        if (!c->name)
            an_turn_warn(r, "tool call '%.100s' came without a function name", c->id);
        struct an_tool_call *tc = an_transcript_add_call(t, r->index);
        tc->id = an_xstrdup(c->id);
        tc->name = an_xstrdup(c->name ? c->name : "");
        tc->args_text = an_xstrndup(an_buf_cstr(&c->args), c->args.len);
        tc->args_done = a->done || a->finish_reason;
        tc->start_ms = c->start_ms;
        tc->end_ms = tc->ts_ms = c->last_ms;
        parse_args(r, tc);
    }
    r->ncalls = t->ncalls - r->first_call;

    if (a->after_done)
        an_turn_warn(r, "%llu chunks after data: [DONE] ignored",
                     (unsigned long long)a->after_done);
    if (a->finish_reason && !strcmp(a->finish_reason, "length"))
        an_turn_warn(r, "the answer was cut short: finish_reason 'length' (max_tokens reached)");
    else if (a->finish_reason && !strcmp(a->finish_reason, "content_filter"))
        an_turn_warn(r, "the answer was filtered: finish_reason 'content_filter'");
    if (r->status == AN_TURN_ERROR)
        return;
    if (!a->finish_reason)
        an_turn_warn(r, "the answer has no finish_reason");
    if (!a->text.len && !a->ncalls)
        an_turn_warn(r, "the model answered with neither text nor tool calls");
    s->ans_ok = true;
}

static void http_error(struct oai_session *s, struct an_turn_rec *r, const struct round_io *io,
                       const struct an_err *herr)
{
    char *m = an_oai_error_message(io->resp.head, io->resp.head_len);
    if (m)
        fail_round(s, r, AN_EHTTP, "HTTP %ld from %s: %s", io->resp.status, s->url, m);
    else
        fail_round(s, r, AN_EHTTP, "%s (POST %s)", herr->msg, s->url);
    free(m);
}

static void oai_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct oai_session *s = (struct oai_session *)base;
    struct round_io *io = &s->io;
    struct an_turn_rec *r = cur(t);
    struct an_err herr = AN_ERR_INIT, e = AN_ERR_INIT;
    const char *cut = NULL;

    if (!io->active)
        return;
    int rc = an_http_xfer_done(&io->xfer, cc, &herr);
    r->http_status = (int)io->resp.status;
    s->retry_after_ms = io->resp.retry_after_ms;
    if (!io->mode_known)
        io->sse_mode = s->stream;

    if (cc == CURLE_ABORTED_BY_CALLBACK) {
        cut = "the transfer was stopped"; /* the caller said why; keep what arrived */
    } else {
        switch (rc) {
        case AN_OK: {
            if (io->sse_mode)
                note_sse_rc(io, an_sse_finish(&io->sse));
            /* nothing to read: say what came instead (no body, an
             * encoding nobody asked for, an HTML page) */
            bool unread = io->sse_mode ? !io->sse.nevents
                                       : !io->raw.len || io->resp.content_encoding[0] ||
                                             (!is_json_type(io->resp.content_type) &&
                                              !an_json_valid(io->raw.data, io->raw.len));
            char *why = unread && r->status != AN_TURN_ERROR
                            ? an_http_why_not_stream(
                                  &io->resp, s->stream ? "text/event-stream, application/json"
                                                       : "application/json, text/event-stream")
                            : NULL;
            if (why)
                fail_round(s, r, AN_EPROTO, "%s (POST %s)", why, s->url);
            free(why);
            break;
        }
        case AN_ETIMEOUT:
            fail_round(s, r, AN_ETIMEOUT, "no complete answer within timeout_ms (%lld ms) from %s",
                       (long long)s->timeout_ms, s->url);
            break;
        case AN_ELIMIT:
            /* an SSE event over its cap was recorded by on_body */
            fail_round(s, r, AN_ELIMIT, "response body larger than max_turn_bytes (%zu bytes)",
                       s->max_turn_bytes);
            break;
        case AN_ECONNECT:
            if (io->resp.status >= 200 && io->resp.status < 300) {
                /* the answer had started: judged below by how far it got */
                cut = io->resp.curl_error[0] ? io->resp.curl_error : herr.msg;
                break;
            }
            fail_round(s, r, AN_ECONNECT, "%s", herr.msg);
            break;
        case AN_EHTTP:
            http_error(s, r, io, &herr);
            break;
        default: /* a chunk stopped the transfer: already recorded */
            fail_round(s, r, rc, "%s", herr.msg);
            break;
        }
    }

    int64_t now = an_clock_unix_ms();
    if (r->status != AN_TURN_ERROR) {
        if (io->sse_mode) {
            if (an_oai_stream_end(&s->ans, &e))
                fail_round(s, r, e.code, "%s%s%s", e.msg, cut ? ": " : "", cut ? cut : "");
        } else if (cut) {
            fail_round(s, r, AN_EPROTO, "the answer was cut after %zu bytes: %s", io->raw.len, cut);
        } else {
            an_turn_add_frame(r, now, an_buf_cstr(&io->raw), io->raw.len);
            /* not streamed: the whole answer is its first event and text */
            an_turn_mark_event(r, now);
            size_t had = s->ans.text.len;
            if (an_oai_parse_body(&s->ans, an_buf_cstr(&io->raw), io->raw.len, now, &e))
                fail_round(s, r, e.code, "%s", e.msg);
            else if (s->ans.text.len > had)
                an_turn_mark_text(r, now);
        }
    }
    record(s, t);
    r->end_ms = t->end_ms = now;
    io_release(io);
}

/* ---- answering tool calls ---- */

static const struct tool *find_tool(const struct oai_session *s, const char *name)
{
    for (size_t i = 0; i < s->ntools; i++)
        if (!strcmp(s->tools[i].name, name))
            return &s->tools[i];
    return NULL;
}

static void trim(const char **p, size_t *n)
{
    while (*n && strchr(" \t\r\n\f\v", **p))
        (*p)++, (*n)--;
    while (*n && strchr(" \t\r\n\f\v", (*p)[*n - 1]))
        (*n)--;
}

/* Run a tool's command with the call's arguments on stdin. *text is what
 * the model is told: the trimmed stdout, or "tool error: ..." when the
 * command failed or timed out. A command that cannot start, or the turn's
 * own time running out, fails the turn instead (returns its code). */
static int run_tool(struct oai_session *s, struct an_turn_rec *r, const struct tool *tool,
                    const struct an_tool_call *tc, char **text)
{
    struct an_proc_opts po = AN_PROC_OPTS_INIT;
    struct an_proc_result pr = {0};
    struct an_err perr = AN_ERR_INIT;
    struct an_buf b = AN_BUF_INIT;
    int64_t timeout = tool->timeout_ms > 0 ? tool->timeout_ms : TOOL_TIMEOUT_MS;
    int64_t left = time_left(s);
    bool by_turn = left < timeout;
    int rc = AN_OK;

    if (left <= 0) {
        an_turn_fail(r, AN_ETIMEOUT,
                     "no final answer within timeout_ms (%lld ms): the time ran out before "
                     "tool '%.100s' could run",
                     (long long)s->timeout_ms, tool->name);
        return AN_ETIMEOUT;
    }
    po.argv = (const char *const *)tool->argv;
    po.cwd = tool->cwd;
    po.stdin_data = tc->args_text;
    po.stdin_len = strlen(tc->args_text);
    po.timeout_ms = by_turn ? left : timeout;
    if ((rc = an_proc_run(&po, &pr, &perr))) {
        an_turn_fail(r, rc, "tool '%.100s': %s", tool->name, perr.msg);
        goto done;
    }
    if (pr.cancelled) {
        rc = AN_ETIMEOUT;
        an_turn_fail(r, rc, "interrupted (Ctrl-C or SIGTERM) while tool '%.100s' ran", tool->name);
        goto done;
    }
    if (pr.timed_out && by_turn) {
        rc = AN_ETIMEOUT;
        an_turn_fail(r, rc,
                     "no final answer within timeout_ms (%lld ms): the time ran out while tool "
                     "'%.100s' ran",
                     (long long)s->timeout_ms, tool->name);
        goto done;
    }
    const char *out = an_buf_cstr(&pr.stdout_buf), *errs = an_buf_cstr(&pr.stderr_buf);
    size_t nout = pr.stdout_buf.len, nerr = pr.stderr_buf.len;
    trim(&out, &nout);
    trim(&errs, &nerr);
    if (pr.timed_out) {
        an_buf_printf(&b, "tool error: '%s' timed out after %lld ms", tool->name,
                      (long long)timeout);
    } else if (pr.exit_code != 0 || pr.term_signal) {
        char st[96];
        an_buf_printf(&b, "tool error: '%s' %s", tool->name,
                      an_proc_status_str(&pr, st, sizeof st));
        if (nerr || nout) { /* the command's own words, stderr first */
            const char *why = nerr ? errs : out;
            size_t n = nerr ? nerr : nout;
            an_buf_puts(&b, ": ");
            an_buf_append(&b, why, n < STDERR_SHOWN ? n : STDERR_SHOWN);
            if (n > STDERR_SHOWN)
                an_buf_puts(&b, "...");
        }
    } else {
        if (pr.stdout_truncated)
            an_turn_warn(r, "tool '%.100s': output cut at %zu bytes", tool->name,
                         (size_t)AN_PROC_STDOUT_MAX);
        an_buf_append(&b, out, nout);
    }
    if (b.len >= 12 && !memcmp(b.data, "tool error: ", 12))
        an_turn_warn(r, "%.900s", an_buf_cstr(&b));
    *text = an_utf8_lossy(an_buf_cstr(&b), b.len);
done:
    an_buf_release(&b);
    an_proc_result_release(&pr);
    return rc;
}

/* Answer call t->calls[ci] with `tool`; *text is what the tool message
 * says, also recorded (parsed when it is JSON) as the call's result. */
static int answer(struct oai_session *s, struct an_transcript *t, size_t ci,
                  const struct tool *tool, char **text)
{
    struct an_turn_rec *r = cur(t);
    struct an_tool_call *tc = &t->calls[ci];
    int rc = AN_OK;
    *text = NULL;
    if (tool->result) {
        *text = json_is_string(tool->result) ? an_xstrdup(json_string_value(tool->result))
                                             : an_json_compact(tool->result);
    } else if (!an_tool_call_args(tc)) {
        /* a command is not run on arguments it cannot read */
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "tool error: the arguments of '%s' are not valid JSON (%s)", tool->name,
                      tc->args_error ? tc->args_error : "?");
        *text = an_buf_detach(&b, NULL);
    } else if ((rc = run_tool(s, r, tool, tc, text))) {
        return rc;
    }
    tc = &t->calls[ci];
    size_t n = strlen(*text);
    tc->result = an_json_parse(*text, n, NULL, 0);
    if (!tc->result)
        tc->result = an_json_lossy(*text, n);
    tc->result_ms = tc->ts_ms = an_clock_unix_ms();
    return AN_OK;
}

static bool oai_next(struct an_session *base, struct an_transcript *t, CURL **easy)
{
    struct oai_session *s = (struct oai_session *)base;
    struct an_turn_rec *r = cur(t);
    bool stop = false;

    *easy = NULL;
    if (!s->ans_ok || r->status == AN_TURN_ERROR)
        return false;
    s->ans_ok = false;
    json_array_append_new(s->conv, an_oai_assistant_msg(&s->ans));
    if (!s->ans.ncalls)
        return false; /* a plain answer: the turn is over */

    for (size_t i = 0; i < s->ans.ncalls; i++) {
        size_t ci = s->ans_first + i;
        const struct tool *tool = find_tool(s, t->calls[ci].name);
        char *text = NULL;
        if (!tool) {
            an_turn_warn(r,
                         "the model called '%.100s', which is not one of the target's tools: "
                         "the turn ends here",
                         t->calls[ci].name);
            stop = true;
        } else if (!tool->result && !tool->argv) {
            stop = true; /* recorded without a result, as the test asked */
        } else if (answer(s, t, ci, tool, &text)) {
            r->end_ms = t->end_ms = an_clock_unix_ms();
            return false;
        }
        json_array_append_new(
            s->conv,
            json_pack("{s:s,s:o,s:o}", "role", "tool", "tool_call_id",
                      an_json_lossy(t->calls[ci].id, strlen(t->calls[ci].id)), "content",
                      an_json_lossy(text ? text : NO_RESULT, strlen(text ? text : NO_RESULT))));
        free(text);
    }
    r->end_ms = t->end_ms = an_clock_unix_ms();
    if (stop)
        return false;
    if (s->rounds >= s->max_rounds) {
        an_turn_fail(r, AN_ELIMIT, "the model still asked for tools after %u rounds (max_rounds)",
                     s->rounds);
        return false;
    }
    return start_round(s, t, easy) == AN_OK;
}

/* ---- the session ---- */

static int64_t oai_retry_after(const struct an_session *base)
{
    return ((const struct oai_session *)base)->retry_after_ms;
}

static void free_argv(char **argv)
{
    for (size_t i = 0; argv && argv[i]; i++)
        free(argv[i]);
    free(argv);
}

static void oai_free(struct an_session *base)
{
    struct oai_session *s = (struct oai_session *)base;
    if (s->io.active)
        io_release(&s->io);
    an_oai_answer_release(&s->ans);
    an_buf_release(&s->text);
    json_decref(s->conv);
    json_decref(s->tools_json);
    json_decref(s->params);
    for (size_t i = 0; i < s->ntools; i++) {
        free(s->tools[i].name);
        json_decref(s->tools[i].result);
        free_argv(s->tools[i].argv);
        free(s->tools[i].cwd);
    }
    free(s->tools);
    an_kv_free(s->headers, s->nheaders);
    free(s->url);
    free(s->model);
    free(s);
}

static const struct an_session_ops openai_ops = {
    .name = "openai",
    .begin = oai_begin,
    .end = oai_end,
    .next = oai_next,
    .retry_after_ms = oai_retry_after,
    .free = oai_free,
};

static int check_opts(const struct an_openai_opts *o, struct an_err *err)
{
    if (!o->base_url || !*o->base_url)
        return an_fail(err, AN_EUSAGE, NULL, "openai target has no base URL (endpoint)");
    if (!o->model || !*o->model)
        return an_fail(err, AN_EUSAGE, NULL, "openai target for %s has no model", o->base_url);
    int rc = an_http_headers_check(o->headers, o->nheaders, o->base_url, err);
    if (rc)
        return rc;
    if (o->api_key && strpbrk(o->api_key, "\r\n"))
        return an_fail(err, AN_EUSAGE, NULL, "the api_key for %s holds a line break", o->base_url);
    if (o->params && !json_is_object(o->params))
        return an_fail(err, AN_EUSAGE, NULL, "openai params must be an object, not a %s",
                       an_json_type_name(o->params));
    static const char *const owned[] = {"model", "messages", "stream", "tools", NULL};
    for (size_t i = 0; owned[i]; i++)
        if (json_object_get(o->params, owned[i]))
            return an_fail(err, AN_EUSAGE, NULL, "openai params cannot set '%s': ananke writes it",
                           owned[i]);
    for (size_t i = 0; i < o->ntools; i++) {
        const struct an_openai_tool *tl = &o->tools[i];
        if (!tl->name || !*tl->name)
            return an_fail(err, AN_EUSAGE, NULL, "openai tool #%zu has no name", i + 1);
        for (size_t k = 0; k < i; k++)
            if (!strcmp(o->tools[k].name, tl->name))
                return an_fail(err, AN_EUSAGE, NULL, "openai tool '%s' is declared twice",
                               tl->name);
        if (tl->argv && (!tl->argv[0] || !tl->argv[0][0]))
            return an_fail(err, AN_EUSAGE, NULL, "openai tool '%s' has an empty command", tl->name);
    }
    return AN_OK;
}

static bool has_header(const struct an_openai_opts *o, const char *name)
{
    for (size_t i = 0; i < o->nheaders; i++)
        if (!strcasecmp(o->headers[i].name, name))
            return true;
    return false;
}

static void copy_headers(struct oai_session *s, const struct an_openai_opts *o)
{
    if (o->api_key && *o->api_key && !has_header(o, "Authorization")) {
        size_t len = strlen(o->api_key) + 8;
        char *v = an_xmalloc(len);
        snprintf(v, len, "Bearer %s", o->api_key);
        struct an_kv auth = {"Authorization", v};
        an_kv_append(&s->headers, &s->nheaders, &auth, 1);
        free(v);
    }
    an_kv_append(&s->headers, &s->nheaders, o->headers, o->nheaders);
}

static void copy_tools(struct oai_session *s, const struct an_openai_opts *o)
{
    if (!o->ntools)
        return;
    s->tools = an_xcalloc(o->ntools, sizeof *s->tools);
    s->ntools = o->ntools;
    for (size_t i = 0; i < o->ntools; i++) {
        const struct an_openai_tool *src = &o->tools[i];
        struct tool *d = &s->tools[i];
        d->name = an_xstrdup(src->name);
        d->result = src->result ? json_deep_copy(src->result) : NULL;
        d->cwd = src->cwd ? an_xstrdup(src->cwd) : NULL;
        d->timeout_ms = src->timeout_ms;
        if (src->argv) {
            size_t n = 0;
            while (src->argv[n])
                n++;
            d->argv = an_xcalloc(n + 1, sizeof *d->argv);
            for (size_t k = 0; k < n; k++)
                d->argv[k] = an_xstrdup(src->argv[k]);
        }
    }
}

int an_openai_open(struct an_session **out, const struct an_openai_opts *opts, struct an_err *err)
{
    *out = NULL;
    int rc = check_opts(opts, err);
    if (rc)
        return rc;
    json_t *history = an_oai_msgs_from_agui(opts->history, err);
    if (!history)
        return err ? err->code : AN_ESCHEMA;
    rc = an_http_global_init("an openai target", err);
    if (rc)
        return rc;

    struct oai_session *s = an_xcalloc(1, sizeof *s);
    s->base.ops = &openai_ops;
    size_t n = strlen(opts->base_url);
    while (n > 0 && opts->base_url[n - 1] == '/')
        n--;
    s->url = an_xmalloc(n + sizeof "/chat/completions");
    memcpy(s->url, opts->base_url, n);
    memcpy(s->url + n, "/chat/completions", sizeof "/chat/completions");
    s->model = an_xstrdup(opts->model);
    copy_headers(s, opts);
    copy_tools(s, opts);
    s->tools_json = an_oai_tools_json(opts->tools, opts->ntools);
    s->params = opts->params ? json_deep_copy(opts->params) : NULL;
    s->stream = !opts->no_stream;
    s->max_rounds = opts->max_rounds ? opts->max_rounds : DEFAULT_ROUNDS;
    s->timeout_ms = opts->timeout_ms;
    s->max_turn_bytes = opts->max_turn_bytes ? opts->max_turn_bytes : DEFAULT_MAX_TURN;
    s->max_event_bytes = opts->max_event_bytes ? opts->max_event_bytes : AN_SSE_DEFAULT_MAX;
    s->max_tool_calls = opts->max_tool_calls;
    s->retry_after_ms = -1;
    an_oai_answer_init(&s->ans);
    s->ans.max_calls = s->max_tool_calls;

    s->conv = json_array();
    if (opts->system)
        json_array_append_new(s->conv,
                              json_pack("{s:s,s:o}", "role", "system", "content",
                                        an_json_lossy(opts->system, strlen(opts->system))));
    json_array_extend(s->conv, history);
    json_decref(history);
    *out = &s->base;
    return AN_OK;
}
