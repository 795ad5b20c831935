/*
 * One attempt of a run-case request, judged (http_case_int.h): the answer
 * into the transcript, or the failure with seed 004's class.
 *
 * The answer's `events` become tool calls: each tool_call event is a call
 * (in `ts` order, events without a numeric ts after those with one, ties in
 * event order, as the original evaluator orders them); each tool_result
 * event answers the first call of its call_id without a result. What does
 * not pair up is kept and said in a warning (trace integrity): a duplicate
 * call id, a call without a result, a result without a call (kept as a call
 * of the result's own `tool`, or of no name, so its status still counts).
 */
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/http_case_int.h"

#define LINE_SHOWN 200 /* bytes of a body quoted in a message */

const char *an_hc_net_kind(CURLcode cc)
{
    switch (cc) {
    case CURLE_COULDNT_RESOLVE_HOST:
        return "dns";
    case CURLE_COULDNT_RESOLVE_PROXY:
        return "proxy";
    case CURLE_COULDNT_CONNECT:
        return "conn_refused";
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
        return "conn_reset";
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
        return "socket_hang_up";
    case CURLE_SSL_CONNECT_ERROR:
    case CURLE_PEER_FAILED_VERIFICATION:
    case CURLE_SSL_CERTPROBLEM:
    case CURLE_SSL_CIPHER:
    case CURLE_SSL_CACERT_BADFILE:
    case CURLE_SSL_ENGINE_NOTFOUND:
    case CURLE_SSL_ENGINE_SETFAILED:
    case CURLE_SSL_ENGINE_INITFAILED:
    case CURLE_SSL_CRL_BADFILE:
    case CURLE_SSL_ISSUER_ERROR:
    case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
    case CURLE_SSL_INVALIDCERTSTATUS:
    case CURLE_SSL_SHUTDOWN_FAILED:
    case CURLE_USE_SSL_FAILED:
        return "tls";
    default:
        return "unknown";
    }
}

/* The first n bytes of s, cut before a split character, invalid UTF-8
 * replaced. Caller frees. */
static char *cut_utf8(const char *s, size_t len, size_t n, bool *cut)
{
    *cut = len > n;
    if (len > n) {
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
        len = n;
    }
    return an_utf8_lossy(s, len);
}

/* The start of a body as one line for a message: control characters as
 * spaces, "..." when cut, "(empty body)" when there is none. */
static void body_line(struct an_buf *b, const char *s, size_t len)
{
    bool cut;
    char *t = cut_utf8(s, len, LINE_SHOWN, &cut);
    size_t start = b->len;
    an_buf_puts(b, t);
    for (size_t i = start; i < b->len; i++)
        if ((unsigned char)b->data[i] < 0x20 || b->data[i] == 0x7F)
            b->data[i] = ' ';
    if (cut)
        an_buf_puts(b, "...");
    if (b->len == start)
        an_buf_puts(b, "(empty body)");
    free(t);
}

static json_t *failure(const char *cls, const struct an_hc_attempt *a)
{
    json_t *f = json_pack("{s:s,s:s,s:I,s:I,s:I}", "class", cls, "url", a->url, "attempt",
                          (json_int_t)a->attempt, "timeout_ms", (json_int_t)a->timeout_ms,
                          "latency_ms", (json_int_t)a->latency_ms);
    if (a->status)
        json_object_set_new(f, "status", json_integer(a->status));
    if (a->body_len && a->snippet_bytes) {
        bool cut;
        char *s = cut_utf8(a->body, a->body_len, a->snippet_bytes, &cut);
        json_object_set_new(f, "body_snippet", json_string(s));
        json_object_set_new(f, "body_bytes", json_integer((json_int_t)a->body_len));
        free(s);
    }
    return f;
}

static void fail(struct an_turn_rec *r, int code, json_t *f, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void fail(struct an_turn_rec *r, int code, json_t *f, const char *fmt, ...)
{
    char msg[1536];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    an_turn_fail(r, code, "%s", msg);
    json_decref(r->failure);
    r->failure = f;
}

/* ---- the answer ---- */

struct ev_call {
    size_t idx; /* in events */
    double ts;
    bool has_ts;
};

static int by_ts(const void *pa, const void *pb)
{
    const struct ev_call *a = pa, *b = pb;
    if (a->has_ts != b->has_ts)
        return a->has_ts ? -1 : 1;
    if (a->has_ts && a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

static const char *type_of(const json_t *ev)
{
    const char *t = an_json_str(ev, "type");
    return t ? t : "";
}

static void add_calls(struct an_transcript *t, struct an_turn_rec *r, const json_t *events,
                      int64_t now)
{
    size_t n = json_array_size(events), ncalls = 0;
    struct ev_call *order = an_xcalloc(n + 1, sizeof *order);
    for (size_t i = 0; i < n; i++) {
        const json_t *ev = json_array_get(events, i);
        if (strcmp(type_of(ev), "tool_call"))
            continue;
        const json_t *ts = json_object_get(ev, "ts");
        order[ncalls].idx = i;
        order[ncalls].has_ts = json_is_number(ts) && isfinite(json_number_value(ts));
        order[ncalls].ts = order[ncalls].has_ts ? json_number_value(ts) : 0;
        ncalls++;
    }
    qsort(order, ncalls, sizeof *order, by_ts);
    for (size_t k = 0; k < ncalls; k++) {
        const json_t *ev = json_array_get(events, order[k].idx);
        const char *id = an_json_str(ev, "call_id"), *name = an_json_str(ev, "tool");
        char gen[32];
        if (!id) {
            snprintf(gen, sizeof gen, "event-%zu", order[k].idx + 1);
            an_turn_warn(r, "tool_call event #%zu has no call_id: called '%s'", order[k].idx + 1,
                         gen);
            id = gen;
        }
        for (size_t j = r->first_call; j < t->ncalls; j++)
            if (!strcmp(t->calls[j].id, id)) {
                an_turn_warn(r, "trace: duplicate call id '%.100s' (two tool_call events)", id);
                break;
            }
        if (!name)
            an_turn_warn(r, "tool_call '%.100s' has no tool name", id);
        struct an_tool_call *c = an_transcript_add_call(t, r->index);
        c->id = an_xstrdup(id);
        c->name = an_xstrdup(name ? name : "");
        const json_t *args = json_object_get(ev, "args");
        c->args = args ? json_incref((json_t *)args) : json_object();
        c->args_text = an_json_compact(c->args);
        c->args_done = true;
        c->start_ms = c->end_ms = c->ts_ms = now;
    }
    free(order);
}

static void add_results(struct an_transcript *t, struct an_turn_rec *r, const json_t *events,
                        int64_t now)
{
    size_t n = json_array_size(events);
    size_t first = r->first_call;
    for (size_t i = 0; i < n; i++) {
        const json_t *ev = json_array_get(events, i);
        if (strcmp(type_of(ev), "tool_result"))
            continue;
        const char *id = an_json_str(ev, "call_id");
        size_t at = t->ncalls;
        bool seen = false;
        for (size_t j = first; id && j < t->ncalls && at == t->ncalls; j++)
            if (!strcmp(t->calls[j].id, id)) {
                seen = true;
                if (!t->calls[j].result)
                    at = j;
            }
        if (at == t->ncalls) {
            if (seen)
                an_turn_warn(r, "trace: duplicate call id '%.100s' (a second tool_result)", id);
            else
                an_turn_warn(r, "trace: tool_result%s%.100s%s has no tool_call", id ? " for '" : "",
                             id ? id : " without call_id", id ? "'" : "");
            const char *tool = an_json_str(ev, "tool");
            struct an_tool_call *c = an_transcript_add_call(t, r->index);
            c->id = an_xstrdup(id ? id : "");
            c->name = an_xstrdup(tool ? tool : "");
            c->args_text = an_xstrdup("");
            c->args_done = true;
            c->start_ms = c->end_ms = now;
        }
        struct an_tool_call *c = &t->calls[at];
        const json_t *res = json_object_get(ev, "payload_summary");
        if (!res)
            res = json_object_get(ev, "payload");
        c->result = res ? json_incref((json_t *)res) : json_null();
        c->result_ms = c->ts_ms = now;
        const char *st = an_json_str(ev, "status");
        if (st)
            c->status = an_xstrdup(st);
        else
            an_turn_warn(r, "tool_result '%.100s' (%.100s) has no status", c->id, c->name);
    }
    for (size_t j = first; j < t->ncalls; j++)
        if (!t->calls[j].result)
            an_turn_warn(r, "trace: tool_call '%.100s' (%.100s) has no tool_result", t->calls[j].id,
                         t->calls[j].name);
}

/* A member the contract requires as a list: absent or not a list reads as
 * none, with a warning. */
static const json_t *list_member(struct an_turn_rec *r, const json_t *doc, const char *key)
{
    const json_t *v = json_object_get(doc, key);
    if (json_is_array(v))
        return v;
    if (!v)
        an_turn_warn(r, "the answer has no '%s' (the contract requires a list): read as none", key);
    else
        an_turn_warn(r, "the answer's '%s' is %s, not a list: read as none", key,
                     an_json_type_name(v));
    return NULL;
}

static void record(struct an_transcript *t, const struct an_hc_attempt *a, int64_t now)
{
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    char why[256];
    struct an_buf line = AN_BUF_INIT;
    an_turn_add_frame(r, now, a->body, a->body_len);
    json_t *doc = an_json_parse(a->body, a->body_len, why, sizeof why);
    if (!doc) {
        body_line(&line, a->body, a->body_len);
        fail(r, AN_EPROTO, failure("invalid_json", a),
             "invalid_json: the answer from %s is not JSON (%s): %s", a->url, why,
             an_buf_cstr(&line));
        an_buf_release(&line);
        return;
    }
    const json_t *fo = json_object_get(doc, "final_output");
    const char *bad = !json_is_object(doc)  ? "it is not a JSON object"
                      : !fo                 ? "it has no 'final_output'"
                      : !json_is_object(fo) ? "its 'final_output' is not an object"
                                            : NULL;
    if (bad) {
        body_line(&line, a->body, a->body_len);
        fail(r, AN_EPROTO, failure("invalid_json", a),
             "invalid_json: the answer from %s is not a run-case answer (%s): %s", a->url, bad,
             an_buf_cstr(&line));
        an_buf_release(&line);
        json_decref(doc);
        return;
    }
    an_buf_release(&line);
    const json_t *content = json_object_get(fo, "content");
    free(r->text);
    if (json_is_string(content))
        r->text = an_utf8_lossy(json_string_value(content), json_string_length(content));
    else if (!content || json_is_null(content))
        r->text = an_xstrdup("");
    else
        r->text = an_json_compact(content);
    if (!content)
        an_turn_warn(r, "final_output has no 'content'");
    const char *wf = an_json_str(doc, "workflow_id");
    if (wf) {
        free(r->run_id);
        r->run_id = an_xstrdup(wf);
    }
    list_member(r, doc, "proposed_actions");
    const json_t *events = list_member(r, doc, "events");
    add_calls(t, r, events, now);
    add_results(t, r, events, now);
    r->ncalls = t->ncalls - r->first_call;
    an_turn_set_response(r, doc);
}

void an_hc_finish(struct an_transcript *t, const struct an_hc_attempt *a, int64_t now)
{
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    struct an_buf line = AN_BUF_INIT;
    if (a->cc == CURLE_OPERATION_TIMEDOUT) {
        /* the original runner aborts each attempt after its timeout,
         * connecting or not: one class for both */
        fail(r, AN_ETIMEOUT, failure("timeout", a),
             "timeout: no answer within timeout_ms (%lld ms) from %s", (long long)a->timeout_ms,
             a->url);
    } else if (a->rc == AN_ELIMIT) {
        fail(r, AN_ELIMIT, failure("invalid_json", a),
             "invalid_json: the answer from %s is larger than max_body_bytes (%zu bytes)", a->url,
             a->max_body_bytes);
    } else if (a->cc != CURLE_OK) {
        const char *kind = an_hc_net_kind(a->cc);
        json_t *f = failure("network_error", a);
        json_object_set_new(f, "kind", json_string(kind));
        fail(r, AN_ECONNECT, f, "network_error (%s): %s", kind, a->why ? a->why : "?");
    } else if (a->status >= 300 && a->status < 400 && a->why) {
        r->http_status = (int)a->status; /* a redirect: http.c says where to, not followed */
        fail(r, AN_EHTTP, failure("http_error", a), "http_error: %s (POST %s)", a->why, a->url);
    } else if (a->status < 200 || a->status > 299) {
        body_line(&line, a->body, a->body_len);
        r->http_status = (int)a->status; /* 408, 429 and 5xx are retried */
        fail(r, AN_EHTTP, failure("http_error", a), "http_error: HTTP %ld from %s: %s", a->status,
             a->url, an_buf_cstr(&line));
    } else {
        r->http_status = (int)a->status;
        record(t, a, now);
    }
    an_buf_release(&line);
}
