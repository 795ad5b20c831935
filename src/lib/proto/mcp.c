/*
 * MCP as a test target: one server connection per test, one request per
 * turn (proto/mcp.h says what each turn records). The turn's input is the
 * request itself, {"method", "params"?}, built by the runner from the test
 * file (run/mcp_turn.c); the handshake rides on the first turn, and the
 * turn's timing starts when its own request goes out.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/fd_session.h"
#include "proto/mcp_int.h"

/* mcp:list follows nextCursor at most this many pages (max_list_pages). */
#define MAX_PAGES 100

struct mcp_session {
    struct an_session base;
    struct mcp_conn *c;
    int64_t timeout_ms;
    bool *allow;
    size_t nallow;
    char *broken_why; /* why the connection was lost, for later turns */
    int broken_code;
    /* the turn in flight */
    struct an_transcript *t;
    json_t *req;        /* {"method", "params"} */
    const char *method; /* borrowed from req */
    bool sent, done;
    int64_t req_id;
    int64_t deadline_mono;
    size_t call;   /* index in t->calls; (size_t)-1: none */
    json_t *items; /* mcp:list: every page's items */
    const char *list_key;
    unsigned pages;
    unsigned max_pages; /* max_list_pages */
    struct an_buf text;
};

static struct an_turn_rec *cur(struct mcp_session *s)
{
    return &s->t->turns[s->t->nturns - 1];
}

static void fail(struct mcp_session *s, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fail(struct mcp_session *s, int code, const char *fmt, ...)
{
    if (!s->t || s->done)
        return;
    char msg[1200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    an_turn_fail(cur(s), code, "%s", msg);
    s->done = true;
}

/* ---- the result of a call (pure) ---- */

char *an_mcp_record_call(struct an_tool_call *c, const json_t *result, const json_t *error,
                         int64_t now_ms)
{
    struct an_buf b = AN_BUF_INIT;
    json_decref(c->result);
    free(c->status);
    if (error) {
        c->result = json_pack("{s:O}", "error", (json_t *)error);
        c->status = an_xstrdup("rpc_error");
        char *t = an_json_compact(c->result);
        an_buf_puts(&b, t);
        free(t);
    } else {
        c->result = json_incref((json_t *)result);
        c->status = an_xstrdup(json_is_true(json_object_get(result, "isError")) ? "error" : "ok");
        size_t i, n = 0;
        json_t *x;
        json_array_foreach(json_object_get(result, "content"), i, x)
        {
            const char *text = an_json_str(x, "text");
            if (!text || !an_json_str(x, "type") || strcmp(an_json_str(x, "type"), "text"))
                continue;
            an_buf_printf(&b, "%s%s", n++ ? "\n" : "", text);
        }
    }
    c->result_ms = c->ts_ms = now_ms;
    return an_buf_detach(&b, NULL);
}

/* ---- sending the turn's request ---- */

static void send_request(struct mcp_session *s, const json_t *params)
{
    struct an_err err = AN_ERR_INIT;
    if (mcp_conn_request(s->c, s->method, params, &s->req_id, &err)) {
        fail(s, err.code ? err.code : AN_EIO, "cannot send %s: %s", s->method, err.msg);
        return;
    }
    s->sent = true;
    int64_t now = an_clock_unix_ms();
    if (s->pages == 0) {
        cur(s)->start_ms = now; /* the handshake is not the turn's time */
        if (s->deadline_mono)
            s->deadline_mono = an_clock_mono_ms() + s->timeout_ms;
    }
    if (strcmp(s->method, "tools/call") || s->call != (size_t)-1)
        return;
    struct an_tool_call *c = an_transcript_add_call(s->t, (unsigned)(s->t->nturns - 1));
    char id[32];
    snprintf(id, sizeof id, "%lld", (long long)s->req_id);
    c->id = an_xstrdup(id);
    const char *name = an_json_str(params, "name");
    c->name = an_xstrdup(name ? name : "");
    json_t *args = json_object_get(params, "arguments");
    c->args = args ? json_incref(args) : json_object();
    c->args_text = an_json_compact(c->args);
    c->args_done = true;
    c->start_ms = c->end_ms = c->ts_ms = now;
    s->call = s->t->ncalls - 1;
}

/* Send the turn's request: everything about it is noted first, since its
 * answer may arrive while it is being sent. */
static void send_and_flush(struct mcp_session *s, const json_t *params)
{
    send_request(s, params);
    mcp_conn_flush(s->c);
}

static void send_turn(struct mcp_session *s)
{
    send_and_flush(s, json_object_get(s->req, "params"));
}

/* ---- what comes back ---- */

static bool allowed(struct mcp_session *s)
{
    size_t i = s->t->nturns - 1;
    return i < s->nallow && s->allow[i];
}

static void list_page(struct mcp_session *s, const json_t *result)
{
    static const char *const keys[] = {"tools", "resources", "prompts", "resourceTemplates", NULL};
    if (!s->list_key)
        for (size_t i = 0; keys[i]; i++)
            if (json_is_array(json_object_get(result, keys[i])))
                s->list_key = keys[i];
    json_t *page = s->list_key ? json_object_get(result, s->list_key) : NULL;
    if (!json_is_array(page)) {
        an_turn_warn(cur(s), "%s result has no list of items", s->method);
    } else {
        if (!s->items)
            s->items = json_array();
        json_array_extend(s->items, page);
    }
    s->pages++;
    const char *cursor = an_json_str(result, "nextCursor");
    if (cursor && *cursor && s->pages < s->max_pages) {
        json_t *params = json_pack("{s:s}", "cursor", cursor);
        send_and_flush(s, params);
        json_decref(params);
        return;
    }
    if (cursor && *cursor) {
        /* a list cut short is not the server's list: the turn says so */
        an_turn_fail(cur(s), AN_ELIMIT,
                     "%s: more than max_list_pages (%u) pages (nextCursor still given)", s->method,
                     s->max_pages);
        s->done = true;
        return;
    }
    if (!s->items)
        s->items = json_array();
    json_t *all = json_pack("{s:O}", s->list_key ? s->list_key : "items", s->items);
    char *t = an_json_compact(all);
    an_buf_puts(&s->text, t);
    free(t);
    json_decref(all);
    s->done = true;
}

static void on_response(void *ud, const struct an_rpc_msg *m)
{
    struct mcp_session *s = ud;
    if (!s->t || s->done || !s->sent || !json_is_integer(m->id) ||
        json_integer_value(m->id) != s->req_id)
        return; /* a late answer of a turn given up on, or an unknown id (warned) */
    int64_t now = an_clock_unix_ms();
    s->sent = false;
    if (m->error || !m->result) {
        const json_t *e = m->error ? m->error : json_null();
        if (s->call != (size_t)-1) {
            char *t = an_mcp_record_call(&s->t->calls[s->call], NULL, e, now);
            free(t);
        }
        json_t *w = json_pack("{s:O}", "error", (json_t *)e);
        char *t = an_json_compact(w);
        an_buf_puts(&s->text, t);
        free(t);
        json_decref(w);
        if (!allowed(s)) {
            json_t *code = json_object_get(e, "code");
            const char *msg = an_json_str(e, "message");
            /* a cut says so ("..."): what it cut may be the start of a
             * secret, which redaction then finds (run/redact.h) */
            fail(s, AN_EPROTO,
                 "%s answered JSON-RPC error %lld: %.300s%s (a protocol error; the turn's "
                 "'allow_error: true' records it instead)",
                 s->method, json_is_integer(code) ? (long long)json_integer_value(code) : 0LL,
                 msg ? msg : "(no message)", msg && strlen(msg) > 300 ? "..." : "");
            return;
        }
        s->done = true;
        return;
    }
    if (s->call != (size_t)-1) {
        if (!json_is_array(json_object_get(m->result, "content")))
            an_turn_warn(cur(s), "the CallToolResult has no 'content' list");
        char *t = an_mcp_record_call(&s->t->calls[s->call], m->result, NULL, now);
        an_buf_puts(&s->text, t);
        free(t);
        s->done = true;
        return;
    }
    if (!strcmp(s->method, "tools/list") || !strcmp(s->method, "resources/list") ||
        !strcmp(s->method, "prompts/list") || !strcmp(s->method, "resources/templates/list")) {
        list_page(s, m->result);
        return;
    }
    char *t = an_json_compact(m->result);
    an_buf_puts(&s->text, t);
    free(t);
    s->done = true;
}

static void on_ready(void *ud)
{
    struct mcp_session *s = ud;
    if (s->t && !s->done && !s->sent)
        send_turn(s);
}

static void on_broken(void *ud, int code, const char *why)
{
    struct mcp_session *s = ud;
    free(s->broken_why);
    s->broken_why = an_xstrdup(why);
    s->broken_code = code;
    fail(s, code, "%s", why);
}

static void on_frame(void *ud, enum an_rpc_dir dir, const char *line, size_t len, int64_t unix_ms)
{
    struct mcp_session *s = ud;
    if (!s->t)
        return;
    an_fd_turn_frame(cur(s), dir, line, len, unix_ms);
}

static void on_warning(void *ud, const char *what)
{
    struct mcp_session *s = ud;
    if (s->t)
        an_turn_warn(cur(s), "%s", what);
}

/* ---- the session ops ---- */

static int mcp_begin(struct an_session *base, struct an_transcript *t, const char *input,
                     bool retry, CURL **easy)
{
    struct mcp_session *s = (struct mcp_session *)base;
    (void)retry;
    *easy = NULL;
    s->t = t;
    s->done = s->sent = false;
    s->call = (size_t)-1;
    s->pages = 0;
    s->list_key = NULL;
    json_decref(s->items);
    s->items = NULL;
    an_buf_reset(&s->text);
    json_decref(s->req);
    s->req = NULL;
    s->deadline_mono = an_fd_turn_start(t, s->timeout_ms);
    char why[200] = "";
    s->req = input ? an_json_parse(input, strlen(input), why, sizeof why) : NULL;
    s->method = an_json_str(s->req, "method");
    if (!s->method) {
        fail(s, AN_EUSAGE,
             "an MCP turn sends a request (mcp:call, mcp:list, mcp:read, "
             "mcp:prompt), not "
             "a chat message");
        return AN_OK;
    }
    struct an_err err = AN_ERR_INIT;
    switch (mcp_conn_state(s->c)) {
    case MCP_NEW:
        if (mcp_conn_start(s->c, &err))
            fail(s, err.code, "cannot send initialize: %s", err.msg);
        mcp_conn_flush(s->c);
        break;
    case MCP_READY:
        send_turn(s);
        break;
    case MCP_BROKEN:
        fail(s, s->broken_code ? s->broken_code : AN_EPROTO,
             "the server is gone (an earlier turn lost it: %s)",
             s->broken_why ? s->broken_why : "unknown");
        break;
    case MCP_INIT:
        break; /* the request follows the handshake */
    }
    return AN_OK;
}

static size_t mcp_fds(struct an_session *base, struct curl_waitfd *out, size_t max)
{
    struct mcp_session *s = (struct mcp_session *)base;
    struct pollfd p[16];
    return an_fd_session_waitfds(out, p, mcp_conn_fds(s->c, p, max < 16 ? max : 16));
}

static void cancel_request(struct mcp_session *s, const char *reason)
{
    if (!s->sent || mcp_conn_state(s->c) != MCP_READY)
        return;
    json_t *p = json_pack("{s:I,s:s}", "requestId", (json_int_t)s->req_id, "reason", reason);
    s->sent = false;
    mcp_conn_notify(s->c, "notifications/cancelled", p, NULL);
    json_decref(p);
    mcp_conn_flush(s->c);
}

static bool mcp_step(struct an_session *base, struct an_transcript *t,
                     const struct curl_waitfd *fds, size_t n)
{
    struct mcp_session *s = (struct mcp_session *)base;
    (void)t;
    if (s->done)
        return true;
    /* the descriptors mcp_fds() listed, with what the poll saw */
    struct pollfd want[16];
    size_t nw = mcp_conn_fds(s->c, want, 16);
    an_fd_session_revents(want, nw, fds, n);
    mcp_conn_handle(s->c, want, nw);
    if (!s->done && s->deadline_mono && an_clock_mono_ms() >= s->deadline_mono) {
        bool init = mcp_conn_state(s->c) == MCP_INIT;
        fail(s, AN_ETIMEOUT, "no answer to %s within %lld ms", init ? "initialize" : s->method,
             (long long)s->timeout_ms);
        cancel_request(s, "ananke: the turn timed out");
    }
    return s->done;
}

static void mcp_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct mcp_session *s = (struct mcp_session *)base;
    if (cc == CURLE_ABORTED_BY_CALLBACK)
        cancel_request(s, "ananke: the test was stopped"); /* the caller gave up on the turn */
    an_fd_turn_end(t, &s->text);
    s->t = NULL;
}

static void mcp_free(struct an_session *base)
{
    struct mcp_session *s = (struct mcp_session *)base;
    mcp_conn_free(s->c); /* ends the server, or the HTTP session */
    json_decref(s->req);
    json_decref(s->items);
    an_buf_release(&s->text);
    free(s->allow);
    free(s->broken_why);
    free(s);
}

static const struct an_session_ops mcp_ops = {
    .name = "mcp",
    .begin = mcp_begin,
    .end = mcp_end,
    .fds = mcp_fds,
    .step = mcp_step,
    .retry_after_ms = an_fd_session_no_retry_after,
    .free = mcp_free,
};

int an_mcp_open(struct an_session **out, const struct an_mcp_opts *o, struct an_err *err)
{
    *out = NULL;
    struct mcp_session *s = an_xcalloc(1, sizeof *s);
    s->base.ops = &mcp_ops;
    s->timeout_ms = o->timeout_ms;
    s->max_pages = o->max_list_pages && o->max_list_pages < UINT_MAX ? (unsigned)o->max_list_pages
                                                                     : MAX_PAGES;
    s->call = (size_t)-1;
    if (o->nallow) {
        s->allow = an_xcalloc(o->nallow, sizeof *s->allow);
        memcpy(s->allow, o->allow_error, o->nallow * sizeof *s->allow);
        s->nallow = o->nallow;
    }
    struct mcp_conn_cbs cbs = {
        .ud = s,
        .on_response = on_response,
        .on_ready = on_ready,
        .on_broken = on_broken,
        .on_frame = on_frame,
        .on_warning = on_warning,
    };
    int rc = mcp_conn_new(&s->c, o, &cbs, err);
    if (rc) {
        free(s->allow);
        free(s);
        return rc;
    }
    *out = &s->base;
    return AN_OK;
}
