/*
 * ACP as a test target: one agent process and one ACP session per test, a
 * `session/prompt` per user turn. What the agent does becomes the
 * transcript every assertion reads:
 *   - agent_message_chunk text        -> the turn's text
 *   - tool_call / tool_call_update    -> a tool call: name = title, args =
 *     rawInput, result = rawOutput (else the text of its content), with its
 *     kind and status kept in the args_error-free fields below
 *   - the agent's own requests to us (fs/read_text_file, terminal/create,
 *     session/request_permission ...) -> a tool call named by the method,
 *     args = params, result = what we answered, so `forbid:
 *     [fs/write_text_file]` works
 * The session is driven without blocking: the scheduler polls its fds and
 * calls step(); initialize and session/new ride on the first turn.
 * max_turn_bytes bounds what a turn keeps (acp_count): every line the agent
 * sends, the content of our answers (call->kept_bytes), our own lines when
 * frames are kept. Past it the turn is an ERROR naming the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/model.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "core/usage.h"
#include "proto/acp_client.h"
#include "proto/adapter.h"
#include "proto/fd_session.h"

enum phase { PH_NEW, PH_INIT, PH_SESSION, PH_READY, PH_PROMPT, PH_BROKEN };

struct acp_session {
    struct an_session base;
    struct an_acp_client *c;
    int64_t timeout_ms;
    enum phase phase;
    int64_t init_id, session_req_id, prompt_id;
    char *session_id;
    /* the turn in flight */
    struct an_transcript *t;
    char *pending_user;
    bool done;
    int64_t deadline_mono;
    struct an_buf text;
    json_t *call_ix; /* toolCallId -> index in t->calls */
    /* usage_update's cost: the session's running total as last reported
     * (-1: never), and what it was when the turn began */
    double cost_now, cost_at_turn;
    bool cost_in_turn; /* a usage_update with a cost came during the turn */
    /* max_turn_bytes: what the turn accumulated so far (acp_count) */
    size_t max_turn, turn_bytes;
    bool over;           /* the cap was hit: nothing more of this turn is kept */
    json_t *mcp_servers; /* session/new's; NULL: [] */
    json_t *mcp_stdio;   /* for an agent without HTTP MCP; NULL: mcp_servers */
};

static struct an_turn_rec *cur(struct acp_session *s)
{
    return &s->t->turns[s->t->nturns - 1];
}

static void fail(struct acp_session *s, int code, const char *fmt, const char *a, const char *b)
{
    if (!s->t || s->done)
        return;
    an_turn_fail(cur(s), code, fmt, a ? a : "", b ? b : "");
    s->done = true;
}

static void err_text(const json_t *e, char *buf, size_t cap)
{
    json_t *code = json_object_get(e, "code");
    const char *msg = an_json_str(e, "message");
    snprintf(buf, cap, "error %lld: %s",
             json_is_integer(code) ? (long long)json_integer_value(code) : 0LL,
             msg ? msg : "(no message)");
}

static void send_prompt(struct acp_session *s)
{
    struct an_err err = AN_ERR_INIT;
    json_t *blocks = json_pack("[{s:s,s:o}]", "type", "text", "text",
                               an_json_lossy(s->pending_user, strlen(s->pending_user)));
    int rc = an_acp_prompt(s->c, s->session_id, blocks, &s->prompt_id, &err);
    json_decref(blocks);
    if (rc) {
        fail(s, rc, "cannot send session/prompt: %s%s", err.msg, NULL);
        return;
    }
    s->phase = PH_PROMPT;
    s->cost_at_turn = s->cost_now < 0 ? 0 : s->cost_now;
    s->cost_in_turn = false;
}

/* The turn's usage: PromptResponse.usage's tokens, and the growth of the
 * session's cost (usage_update) during the turn. */
static void keep_usage(struct acp_session *s, const json_t *result)
{
    const json_t *u = json_object_get(result, "usage");
    int64_t in = an_usage_count(u, "inputTokens"), out = an_usage_count(u, "outputTokens");
    int64_t total = an_usage_count(u, "totalTokens");
    double cost = s->cost_in_turn ? s->cost_now - s->cost_at_turn : -1;
    if (cost < 0 && s->cost_in_turn)
        cost = 0; /* a total that went down: the agent reset it */
    if (json_is_object(u) || cost >= 0)
        an_turn_add_usage(cur(s), NULL, in, out, total, cost);
}

/* A cap was hit: the turn is an ERROR saying which (msg), the prompt is
 * cancelled and nothing more of the turn is kept. */
static void acp_over(struct acp_session *s, const char *msg)
{
    s->over = true;
    if (!s->done) {
        an_turn_fail(cur(s), AN_ELIMIT, "%s", msg);
        s->done = true;
    }
    if (s->session_id && s->phase == PH_PROMPT)
        an_acp_cancel(s->c, s->session_id, NULL);
}

/* max_turn_bytes: n more bytes kept by the turn. */
static void acp_count(struct acp_session *s, size_t n)
{
    if (!s->t || s->over)
        return;
    s->turn_bytes += n;
    if (s->turn_bytes <= s->max_turn)
        return;
    char msg[96];
    snprintf(msg, sizeof msg, "the turn is larger than max_turn_bytes (%zu bytes)", s->max_turn);
    acp_over(s, msg);
}

/* ---- what the agent sends ---- */

static size_t call_for(struct acp_session *s, const char *id)
{
    json_t *ix = json_object_get(s->call_ix, id);
    return ix ? (size_t)json_integer_value(ix) : (size_t)-1;
}

static void tool_update(struct acp_session *s, const json_t *u, bool create)
{
    const char *id = an_json_str(u, "toolCallId");
    if (!id)
        return;
    size_t ix = call_for(s, id);
    int64_t now = an_clock_unix_ms();
    struct an_tool_call *c;
    if (ix == (size_t)-1) {
        if (!create)
            an_turn_warn(cur(s), "tool_call_update for unknown toolCallId '%.100s'", id);
        c = an_transcript_add_call(s->t, (unsigned)(s->t->nturns - 1));
        c->id = an_xstrdup(id);
        c->start_ms = now;
        json_object_set_new(s->call_ix, id, json_integer((json_int_t)(s->t->ncalls - 1)));
    } else {
        c = &s->t->calls[ix];
    }
    const char *title = an_json_str(u, "title");
    if (title && !c->name)
        c->name = an_xstrdup(title);
    json_t *in = json_object_get(u, "rawInput");
    if (in) {
        json_decref(c->args);
        c->args = json_incref(in);
        free(c->args_text);
        c->args_text = an_json_compact(in);
    }
    json_t *out = json_object_get(u, "rawOutput");
    json_t *content = json_object_get(u, "content");
    if (out) {
        json_decref(c->result);
        c->result = json_incref(out);
        c->result_ms = now;
    } else if (json_is_array(content) && json_array_size(content) && !c->result) {
        /* no rawOutput: the text of its content blocks is the result */
        struct an_buf b = AN_BUF_INIT;
        size_t i;
        json_t *x;
        json_array_foreach(content, i, x)
        {
            const char *txt = an_json_str(json_object_get(x, "content"), "text");
            if (txt)
                an_buf_puts(&b, txt);
        }
        if (b.len) {
            c->result = an_json_lossy(b.data, b.len);
            c->result_ms = now;
        }
        an_buf_release(&b);
    }
    const char *status = an_json_str(u, "status");
    if (status && (!strcmp(status, "completed") || !strcmp(status, "failed"))) {
        c->end_ms = now;
        c->args_done = true;
    }
    if (!c->name)
        c->name = an_xstrdup("(untitled tool call)");
    if (!c->args && !c->args_text)
        c->args = json_object();
    c->ts_ms = c->result_ms ? c->result_ms : (c->end_ms ? c->end_ms : now);
    if (!c->end_ms)
        c->end_ms = now;
}

static void on_notification(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m)
{
    struct acp_session *s = ud;
    (void)c;
    if (!s->t || s->done || !m->method || strcmp(m->method, "session/update"))
        return;
    const json_t *u = json_object_get(m->params, "update");
    const char *kind = an_json_str(u, "sessionUpdate");
    an_turn_mark_event(cur(s), m->unix_ms);
    if (!kind)
        return;
    if (!strcmp(kind, "agent_message_chunk")) {
        const char *txt = an_json_str(json_object_get(u, "content"), "text");
        if (txt)
            an_buf_puts(&s->text, txt);
        if (txt && *txt)
            an_turn_mark_text(cur(s), m->unix_ms);
    } else if (!strcmp(kind, "tool_call")) {
        tool_update(s, u, true);
    } else if (!strcmp(kind, "tool_call_update")) {
        tool_update(s, u, false);
    } else if (!strcmp(kind, "usage_update")) {
        const json_t *amount = json_object_get(json_object_get(u, "cost"), "amount");
        if (json_is_number(amount) && json_number_value(amount) >= 0) {
            s->cost_now = json_number_value(amount);
            s->cost_in_turn = true;
        }
    }
    /* plans, thoughts, modes, commands: in the frames, not asserted yet */
}

static void on_agent_call(void *ud, struct an_acp_client *cl, const struct an_acp_call *call)
{
    struct acp_session *s = ud;
    (void)cl;
    if (!s->t || s->done)
        return;
    an_turn_mark_event(cur(s), call->start_ms); /* the agent asked us something */
    if (call->cap && !s->over) {
        /* a request a cap refused (max_read_bytes, max_terminals): the agent
         * was answered with an error, and the turn ends here naming it */
        const char *why = call->error ? an_json_str(call->error, "message") : NULL;
        char msg[256];
        snprintf(msg, sizeof msg, "%s refused: %s", call->method, why ? why : call->cap);
        acp_over(s, msg);
    }
    acp_count(s, call->kept_bytes);
    if (s->over)
        return;
    struct an_tool_call *c = an_transcript_add_call(s->t, (unsigned)(s->t->nturns - 1));
    c->name = an_xstrdup(call->method);
    /* references, not copies: the client's record never changes them, and
     * a terminal output read N times is then one string, not N */
    c->args = call->params ? json_incref((json_t *)call->params) : json_object();
    c->args_text = an_json_compact(c->args);
    c->args_done = true;
    c->result = call->result ? json_incref((json_t *)call->result)
                             : json_pack("{s:O}", "error", call->error ? call->error : json_null());
    c->start_ms = call->start_ms;
    c->end_ms = c->result_ms = c->ts_ms = call->end_ms;
    if (call->violation)
        an_turn_warn(cur(s), "violation: %s", call->violation);
}

static void on_response(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m)
{
    struct acp_session *s = ud;
    char why[512];
    (void)c;
    if (!m->known || !json_is_integer(m->id))
        return;
    int64_t id = (int64_t)json_integer_value(m->id);
    if (m->error)
        err_text(m->error, why, sizeof why);
    if (s->phase == PH_INIT && id == s->init_id) {
        if (m->error) {
            s->phase = PH_BROKEN;
            fail(s, AN_EPROTO, "initialize failed: %s%s", why, NULL);
            return;
        }
        struct an_err err = AN_ERR_INIT;
        /* HTTP MCP servers are optional for an agent; stdio ones are not */
        const json_t *mc = json_object_get(
            json_object_get(json_object_get(m->result, "agentCapabilities"), "mcpCapabilities"),
            "http");
        const json_t *servers = s->mcp_stdio && !json_is_true(mc) ? s->mcp_stdio : s->mcp_servers;
        if (an_acp_new_session(s->c, NULL, servers, &s->session_req_id, &err)) {
            s->phase = PH_BROKEN;
            fail(s, AN_EPROTO, "cannot send session/new: %s%s", err.msg, NULL);
            return;
        }
        s->phase = PH_SESSION;
    } else if (s->phase == PH_SESSION && id == s->session_req_id) {
        const char *sid = an_json_str(m->result, "sessionId");
        if (m->error || !sid) {
            s->phase = PH_BROKEN;
            fail(s, AN_EPROTO, "session/new failed: %s%s", m->error ? why : "no sessionId", NULL);
            return;
        }
        s->session_id = an_xstrdup(sid);
        s->phase = PH_READY;
        if (s->t && !s->done)
            send_prompt(s);
    } else if (s->phase == PH_PROMPT && id == s->prompt_id) {
        s->phase = PH_READY;
        if (m->error) {
            fail(s, AN_ERUN, "session/prompt answered %s%s", why, NULL);
            return;
        }
        const char *stop = an_json_str(m->result, "stopReason");
        if (!stop)
            an_turn_warn(cur(s), "session/prompt result has no stopReason");
        else if (strcmp(stop, "end_turn"))
            an_turn_warn(cur(s), "stopReason: %.60s", stop);
        keep_usage(s, m->result);
        s->done = true;
    }
}

static void on_frame(void *ud, struct an_acp_client *c, enum an_rpc_dir dir, const char *line,
                     size_t len, int64_t unix_ms)
{
    struct acp_session *s = ud;
    (void)c;
    if (!s->t || s->over)
        return;
    /* every line the agent sends is kept in some form (text, a tool call,
     * a frame); our own lines only when frames are kept, their content is
     * counted as the agent call they answer (kept_bytes) */
    if (dir != AN_RPC_OUT || !cur(s)->drop_frames)
        acp_count(s, len);
    if (s->over)
        return;
    an_fd_turn_frame(cur(s), dir, line, len, unix_ms);
}

static void on_warning(void *ud, struct an_acp_client *c, const char *what, const char *line,
                       size_t len)
{
    struct acp_session *s = ud;
    (void)c;
    if (s->t)
        an_turn_warn(cur(s), "%s: %.*s", what, (int)(len < 200 ? len : 200), line);
}

static void on_close(void *ud, struct an_acp_client *c, enum an_rpc_close_kind kind,
                     const char *reason)
{
    struct acp_session *s = ud;
    (void)kind;
    s->phase = PH_BROKEN;
    size_t n = 0, dropped = 0;
    const char *log = an_rpc_stderr(an_acp_rpc(c), &n, &dropped);
    char tail[300] = "";
    if (n) /* the end of its stderr usually says why */
        snprintf(tail, sizeof tail, "; its stderr ends: %s%.200s", n > 200 ? "..." : "",
                 n > 200 ? log + n - 200 : log); /* a cut says so: see run/redact.h */
    fail(s, AN_EPROTO, "the agent connection closed: %s%s", reason, tail);
}

/* ---- the session ops ---- */

static int acp_begin(struct an_session *base, struct an_transcript *t, const char *user, bool retry,
                     CURL **easy)
{
    struct acp_session *s = (struct acp_session *)base;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    (void)retry;
    *easy = NULL;
    s->t = t;
    s->done = false;
    s->over = false;
    s->turn_bytes = 0;
    an_buf_reset(&s->text);
    json_object_clear(s->call_ix);
    free(s->pending_user);
    s->pending_user = an_xstrdup(user ? user : "");
    if (user && !r->input)
        r->input = an_xstrdup(user);
    s->deadline_mono = an_fd_turn_start(t, s->timeout_ms);
    struct an_err err = AN_ERR_INIT;
    switch (s->phase) {
    case PH_NEW:
        if (an_acp_initialize(s->c, &s->init_id, &err)) {
            fail(s, err.code, "cannot send initialize: %s%s", err.msg, NULL);
            break;
        }
        s->phase = PH_INIT;
        break;
    case PH_READY:
        send_prompt(s);
        break;
    case PH_BROKEN:
        fail(s, AN_EPROTO, "the agent is gone (an earlier turn lost it)%s%s", NULL, NULL);
        break;
    default:
        break; /* initialize / session/new in flight: the prompt follows */
    }
    return AN_OK;
}

static size_t acp_fds(struct an_session *base, struct curl_waitfd *out, size_t max)
{
    struct acp_session *s = (struct acp_session *)base;
    struct pollfd p[16];
    return an_fd_session_waitfds(out, p, an_acp_fds(s->c, p, max < 16 ? max : 16));
}

static bool acp_step(struct an_session *base, struct an_transcript *t,
                     const struct curl_waitfd *fds, size_t n)
{
    struct acp_session *s = (struct acp_session *)base;
    (void)t;
    if (s->done)
        return true;
    /* the same descriptors acp_fds() listed, with what the poll saw */
    struct pollfd want[16];
    size_t nw = an_acp_fds(s->c, want, 16);
    an_fd_session_revents(want, nw, fds, n);
    an_acp_handle(s->c, want, nw);
    if (!s->done && s->deadline_mono && an_clock_mono_ms() >= s->deadline_mono) {
        char ms[32];
        snprintf(ms, sizeof ms, "%lld", (long long)s->timeout_ms);
        fail(s, AN_ETIMEOUT, "no answer to session/prompt within %s ms%s", ms, NULL);
        if (s->session_id)
            an_acp_cancel(s->c, s->session_id, NULL);
    }
    return s->done;
}

static void acp_end(struct an_session *base, struct an_transcript *t, CURLcode cc)
{
    struct acp_session *s = (struct acp_session *)base;
    if (cc == CURLE_ABORTED_BY_CALLBACK && s->phase == PH_PROMPT && s->session_id)
        an_acp_cancel(s->c, s->session_id, NULL); /* the caller gave up on the turn */
    an_fd_turn_end(t, &s->text);
    s->t = NULL;
}

static void acp_free(struct an_session *base)
{
    struct acp_session *s = (struct acp_session *)base;
    an_acp_client_free(s->c); /* ends the agent and its terminals */
    free(s->session_id);
    free(s->pending_user);
    an_buf_release(&s->text);
    json_decref(s->call_ix);
    json_decref(s->mcp_servers);
    json_decref(s->mcp_stdio);
    free(s);
}

static const struct an_session_ops acp_ops = {
    .name = "acp",
    .begin = acp_begin,
    .end = acp_end,
    .fds = acp_fds,
    .step = acp_step,
    .retry_after_ms = an_fd_session_no_retry_after,
    .free = acp_free,
};

int an_acp_open(struct an_session **out, const struct an_acp_target_opts *o, struct an_err *err)
{
    static const enum an_acp_policy policies[] = {
        [AN_PERM_YOLO] = AN_ACP_POLICY_YOLO,
        [AN_PERM_NONE] = AN_ACP_POLICY_NONE,
        [AN_PERM_READ] = AN_ACP_POLICY_READ,
        [AN_PERM_WRITE] = AN_ACP_POLICY_WRITE,
    };
    *out = NULL;
    struct acp_session *s = an_xcalloc(1, sizeof *s);
    s->base.ops = &acp_ops;
    s->timeout_ms = o->timeout_ms;
    s->max_turn = o->max_turn_bytes ? o->max_turn_bytes : AN_ACP_MAX_TURN;
    s->call_ix = json_object();
    s->cost_now = -1;
    s->mcp_servers = o->mcp_servers ? json_deep_copy(o->mcp_servers) : NULL;
    s->mcp_stdio = o->mcp_servers_stdio ? json_deep_copy(o->mcp_servers_stdio) : NULL;
    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = o->argv;
    ao.env = o->env;
    ao.sandbox = o->sandbox;
    ao.client_capabilities = o->client_capabilities;
    ao.rpc.max_frame = o->max_frame_bytes;
    ao.rpc.max_frame_key = "max_frame_bytes";
    ao.rpc.stderr_max = o->max_stderr_bytes;
    ao.rpc.no_message = true; /* nothing here reads a message whole */
    ao.read_max = o->max_read_bytes;
    ao.max_terminals = o->max_terminals;
    ao.output_limit_max = o->max_terminal_output_bytes;
    ao.policy = o->policy >= 0 && o->policy <= AN_PERM_WRITE ? policies[o->policy]
                                                             : AN_ACP_POLICY_YOLO;
    static const enum an_acp_confine confines[] = {
        [AN_CONFINE_TERMINALS] = AN_ACP_CONFINE_TERMINALS,
        [AN_CONFINE_AGENT] = AN_ACP_CONFINE_AGENT,
        [AN_CONFINE_REQUIRED] = AN_ACP_CONFINE_REQUIRED,
        [AN_CONFINE_NONE] = AN_ACP_CONFINE_NONE,
    };
    ao.confine = o->confine >= 0 && o->confine <= AN_CONFINE_NONE ? confines[o->confine]
                                                                  : AN_ACP_CONFINE_TERMINALS;
    ao.confine_paths = o->confine_paths;
    ao.network = o->network;
    ao.clean_env = !o->inherit_env;
    struct an_acp_cbs cbs = {
        .ud = s,
        .on_agent_call = on_agent_call,
        .on_notification = on_notification,
        .on_response = on_response,
        .on_frame = on_frame,
        .on_warning = on_warning,
        .on_close = on_close,
    };
    int rc = an_acp_client_new(&s->c, &ao, &cbs, err);
    if (rc) {
        json_decref(s->call_ix);
        json_decref(s->mcp_servers);
        json_decref(s->mcp_stdio);
        free(s);
        return rc;
    }
    *out = &s->base;
    return AN_OK;
}
