/* The compliance step engine: one .jsont test against one ACP agent (the
 * engine core, one test, the probe; the step kinds are in comply_steps.c). */
#define _XOPEN_SOURCE 700 /* nftw */
#include "run/comply_int.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ananke/transcript.h"
#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"
#include "run/comply_plan_int.h"
#include "run/comply_redact.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "0"
#endif

#define VFRAME_MAX 2000  /* bytes of a frame -v shows */
#define VFRAMES_MAX 4096 /* frames -v keeps of one test */

void comply_vframe(struct eng *e, bool out, const char *line, size_t len)
{
    if (!e->o->verbose || e->nv == VFRAMES_MAX)
        return;
    e->vframes = an_xrealloc(e->vframes, (e->nv + 1) * sizeof *e->vframes);
    e->vout = an_xrealloc(e->vout, (e->nv + 1) * sizeof *e->vout);
    struct an_buf b = AN_BUF_INIT;
    an_buf_append(&b, line, len > VFRAME_MAX ? VFRAME_MAX : len);
    if (len > VFRAME_MAX)
        an_buf_puts(&b, "..."); /* a cut: the redactor looks at what it left */
    e->vframes[e->nv] = an_buf_detach(&b, NULL);
    e->vout[e->nv++] = out;
}

static void log_frame(void *ud, struct an_acp_client *c, enum an_rpc_dir dir, const char *line,
                      size_t len, int64_t unix_ms)
{
    (void)c;
    (void)unix_ms;
    comply_vframe(ud, dir == AN_RPC_OUT, line, len);
}

/* -v: the test's frames, with the secrets the run knows redacted (the
 * frames searched together: a secret streamed across several, a --redact
 * match in pieces), in one block. */
static void log_flush(struct eng *e, const char *agent)
{
    if (!e->o->verbose)
        return;
    char **shown =
        e->nv && !an_redactor_empty(e->o->redact)
            ? an_redact_frames(e->o->redact, (const char *const *)e->vframes, e->nv, NULL)
            : NULL;
    char *name = an_comply_shown(e->o->redact, agent);
    flockfile(e->log);
    fprintf(e->log, "-- %s: %s\n", name, e->t->id);
    free(name);
    for (size_t i = 0; i < e->nv; i++) {
        const char *f = shown ? shown[i] : e->vframes[i];
        char *q = an_redact_quoted(e->o->redact, f, strlen(f), NULL, NULL);
        fprintf(e->log, "  [%s] %s\n", e->vout[i] ? "OUT" : "IN ", q ? q : f);
        free(q);
        if (shown)
            free(shown[i]);
        free(e->vframes[i]);
    }
    if (e->nv == VFRAMES_MAX)
        fprintf(e->log, "  (-v shows the first %d frames of a test)\n", VFRAMES_MAX);
    funlockfile(e->log);
    free(shown);
    free(e->vframes);
    free(e->vout);
}

/* The agent's confinement and environment, as the spec says (the same
 * keys as an ACP target of `ananke run`). */
void comply_confine_opts(struct an_acp_opts *ao, const struct an_comply_spec *spec)
{
    ao->confine = (enum an_acp_confine)spec->confine;
    ao->confine_paths = spec->confine_paths;
    ao->network = spec->network;
    ao->clean_env = !spec->inherit_env;
}

size_t comply_max_messages(const struct eng *e)
{
    return e->o->max_messages ? e->o->max_messages : AN_COMPLY_MAX_MESSAGES;
}

static void observe(struct eng *e, enum an_jsont_msg_kind k, const json_t *msg)
{
    if (e->over)
        return;
    if (e->nobs >= comply_max_messages(e)) { /* a flood: the test reads no more of it */
        e->over = true;
        e->closed = e->news = true;
        snprintf(e->close_reason, sizeof e->close_reason,
                 "the agent sent more than %zu messages in one test (max_messages)",
                 comply_max_messages(e));
        comply_unmet_add(e, "limit", -1, "%s; the rest were not read", e->close_reason);
        return;
    }
    if (e->nobs == e->capobs) {
        e->capobs = e->capobs ? e->capobs * 2 : 32;
        e->obs = an_xrealloc(e->obs, e->capobs * sizeof *e->obs);
    }
    e->obs[e->nobs++] = (struct obs){k, json_deep_copy(msg), false, an_clock_mono_ms()};
    e->news = true;
}

static bool runner_id(const struct eng *e, const json_t *id)
{
    if (!json_is_integer(id))
        return false;
    for (size_t i = 0; i < e->nrunner; i++)
        if (e->runner_ids[i] == json_integer_value(id))
            return true;
    return false;
}

static void on_response(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m)
{
    (void)c;
    struct eng *e = ud;
    if (m->known && runner_id(e, m->id)) {
        /* unless the test sent the same id meanwhile: then it is the test's */
        bool test_has = false;
        for (size_t i = 0; i < e->nsent; i++)
            if (!e->sent[i].response && json_equal(e->sent[i].id, m->id))
                test_has = true;
        if (!test_has)
            return;
    }
    observe(e, AN_JSONT_RESPONSE, m->json);
    for (size_t i = 0; i < e->nsent; i++) {
        if (!e->sent[i].response && m->id && json_equal(e->sent[i].id, m->id)) {
            e->sent[i].response = json_deep_copy(m->json);
            break;
        }
    }
}

static void on_notification(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m)
{
    (void)c;
    observe(ud, AN_JSONT_NOTIFICATION, m->json);
}

static void on_close(void *ud, struct an_acp_client *c, enum an_rpc_close_kind kind,
                     const char *reason)
{
    (void)c;
    (void)kind;
    struct eng *e = ud;
    e->closed = true;
    e->news = true;
    snprintf(e->close_reason, sizeof e->close_reason, "%s", reason ? reason : "agent closed");
}

void comply_unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The agent broke the framing (a line that is not a JSON-RPC message):
 * the protocol forbids that at any time, so every test checks it. */
static void on_warning(void *ud, struct an_acp_client *c, const char *what, const char *line,
                       size_t len)
{
    (void)c;
    struct eng *e = ud;
    if (strncmp(what, "invalid JSON", 12) && strncmp(what, "message is not an object", 24) &&
        strncmp(what, "message without method or id", 28))
        return; /* e.g. a response to an unknown id: the test's own business */
    /* an agent that writes millions of them gets a hundred and a count,
     * not millions of entries (as a turn's warnings, max_warnings) */
    if (++e->framing > AN_DEFAULT_MAX_WARNINGS) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "and %zu more lines to stdout that are not JSON-RPC messages, not shown",
                 e->framing - AN_DEFAULT_MAX_WARNINGS);
        if (e->framing == AN_DEFAULT_MAX_WARNINGS + 1) {
            e->framing_more = e->out->nunmet;
            comply_unmet_add(e, "framing", -1, "%s", msg);
        } else {
            struct an_comply_unmet *u = &e->out->unmet[e->framing_more];
            free(u->message);
            u->message = an_xstrdup(msg);
        }
        return;
    }
    char *shown = an_utf8_lossy(line, len > 300 ? 300 : len);
    comply_unmet_add(e, "framing", -1,
                     "agent wrote a line to stdout that is not a JSON-RPC message (%s): %s", what,
                     shown);
    free(shown);
}

/* MCP: what a client that declared no capabilities answers a server. */
static void mcp_serve(struct an_acp_client *c, const struct an_rpc_msg *m)
{
    struct an_err err = AN_ERR_INIT;
    if (!strcmp(m->method, "ping")) {
        an_acp_reply(c, m->id, NULL, &err);
    } else if (!strcmp(m->method, "roots/list")) {
        json_t *res = json_pack("{s:[]}", "roots");
        an_acp_reply(c, m->id, res, &err);
        json_decref(res);
    } else {
        json_t *data = json_pack("{s:s}", "method", m->method);
        an_acp_reply_error(c, m->id, -32601, "Method not found", data, &err);
        json_decref(data);
    }
}

static bool on_agent_request(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m,
                             const char *violation)
{
    (void)violation;
    struct eng *e = ud;
    observe(e, AN_JSONT_CLIENT_REQUEST, m->json);
    for (size_t i = 0; i < e->ncanned; i++) {
        struct canned *cn = &e->canned[i];
        if (cn->used)
            continue;
        json_t *pat = NULL;
        struct an_err err = AN_ERR_INIT;
        if (an_jsont_resolve(cn->e->pattern, &e->vars, true, &pat, &err))
            continue; /* a variable not set yet: this reply is not armed */
        bool ok = an_jm_match(pat, m->json);
        json_decref(pat);
        if (!ok)
            continue;
        json_t *reply = NULL;
        if (an_jsont_resolve(cn->e->reply, &e->vars, false, &reply, &err))
            continue;
        cn->used = true;
        json_t *res = json_object_get(reply, "result");
        json_t *er = json_object_get(reply, "error");
        if (res) {
            an_acp_reply(c, m->id, res, &err);
        } else {
            json_t *code = json_object_get(er, "code");
            an_acp_reply_error(c, m->id,
                               json_is_integer(code) ? (int)json_integer_value(code) : -32603,
                               an_json_str(er, "message") ? an_json_str(er, "message") : "error",
                               json_object_get(er, "data"), &err);
        }
        json_decref(reply);
        return true;
    }
    if (e->o->protocol == AN_COMPLY_PROTO_MCP) {
        mcp_serve(c, m);
        return true;
    }
    return false;
}

void comply_unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void comply_unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    an_comply_add_unmetv(e->out, kind, step, fmt, ap);
    va_end(ap);
}

/* Set each capture of step st from the outcome o (or from the event a
 * matcher picked: matched[from] indexes o.events). false when a capture
 * found nothing, said as unmet: the steps after it would use it. */
bool comply_captures(struct an_comply_test *out, struct an_vars *vars,
                     const struct an_jsont_step *st, const json_t *o, const long *matched)
{
    bool ok = true;
    const json_t *events = json_object_get(o, "events");
    for (size_t c = 0; c < st->ncaptures; c++) {
        const struct an_jsont_capture *cp = &st->captures[c];
        const json_t *root = o;
        if (cp->from >= 0)
            root = matched && matched[cp->from] >= 0
                       ? json_array_get(events, (size_t)matched[cp->from])
                       : NULL;
        json_t *v = root ? an_jsont_path(root, cp->path) : NULL;
        if (!v) {
            char msg[512];
            if (cp->from >= 0)
                snprintf(msg, sizeof msg, "capture '%s': events[%d] matched no event with '%s'",
                         cp->var, cp->from, cp->path);
            else
                snprintf(msg, sizeof msg, "capture '%s': the outcome has no '%s'", cp->var,
                         cp->path);
            an_comply_add_unmet(out, "step", (int)st->index, msg);
            ok = false;
            continue;
        }
        char *s = an_jm_stringify(v);
        an_vars_set(vars, cp->var, s);
        free(s);
    }
    return ok;
}

/* Pump up to ms, returning early when something new arrives. */
void comply_pump(struct eng *e, int64_t ms)
{
    e->news = false;
    if (e->closed) {
        return;
    }
    if (an_cancelled()) {
        /* Ctrl-C: stop waiting; the test ends and its agent is stopped */
        e->closed = true;
        e->news = true;
        snprintf(e->close_reason, sizeof e->close_reason, "interrupted (Ctrl-C or SIGTERM)");
        return;
    }
    an_acp_pump(e->c, ms < AN_CANCEL_POLL_MS ? ms : AN_CANCEL_POLL_MS, &e->news);
}

void comply_pump_all(struct eng *e, int64_t ms)
{
    int64_t end = an_clock_mono_ms() + ms;
    for (;;) {
        int64_t left = end - an_clock_mono_ms();
        if (left <= 0 || e->closed)
            break;
        comply_pump(e, left);
    }
}

/* ---- one test --------------------------------------------------------------
 */

/* MCP: initialize {protocolVersion, capabilities: {}, clientInfo}; the
 * notifications/initialized follows once the result is in. */
static int mcp_initialize(struct an_acp_client *c, int64_t *id, struct an_err *err)
{
    json_t *p = json_pack("{s:s,s:{},s:{s:s,s:s}}", "protocolVersion", AN_COMPLY_MCP_VERSION,
                          "capabilities", "clientInfo", "name", "ananke", "version",
                          ANANKE_VERSION);
    int rc = an_rpc_request(an_acp_rpc(c), "initialize", p, id, err);
    json_decref(p);
    return rc;
}

static int mcp_initialized(struct an_acp_client *c, struct an_err *err)
{
    return an_rpc_notify(an_acp_rpc(c), "notifications/initialized", NULL, err);
}

static bool runner_initialize(struct eng *e)
{
    struct an_err err = AN_ERR_INIT;
    int64_t id;
    json_t *res = NULL, *er = NULL;
    bool mcp = e->o->protocol == AN_COMPLY_PROTO_MCP;
    if ((mcp ? mcp_initialize(e->c, &id, &err) : an_acp_initialize(e->c, &id, &err)) ||
        (e->nrunner < 8 && (e->runner_ids[e->nrunner++] = id, false)) ||
        an_acp_wait(e->c, id, STEP_WAIT_MS, &res, &er, &err)) {
        comply_unmet_add(e, "startup", -1, "initialize by the runner failed: %s",
                         e->closed ? e->close_reason : err.msg);
        return false;
    }
    bool ok = !er && json_is_object(res);
    if (!ok) {
        char *s = an_json_compact(er ? er : res);
        comply_unmet_add(e, "startup", -1, "initialize by the runner was answered with %s", s);
        free(s);
    }
    if (ok && mcp && mcp_initialized(e->c, &err)) {
        comply_unmet_add(e, "startup", -1, "notifications/initialized by the runner: %s",
                         e->closed ? e->close_reason : err.msg);
        ok = false;
    }
    json_decref(res);
    json_decref(er);
    return ok;
}

/* The canned replies of the test's steps (answers to the agent's requests). */
static void collect_canned(struct eng *e, const struct an_jsont *t)
{
    for (size_t s = 0; s < t->nsteps; s++)
        for (size_t m = 0; m < t->steps[s].nmsgs; m++)
            if (t->steps[s].msgs[m].reply) {
                e->canned = an_xrealloc(e->canned, (e->ncanned + 1) * sizeof *e->canned);
                e->canned[e->ncanned++] = (struct canned){&t->steps[s].msgs[m], false};
            }
}

/* The variables every test has: sandbox, protocolVersionDefault, suiteDir,
 * clientCapabilitiesDefault. */
static void set_vars(struct eng *e, const struct an_jsont *t, const char *sandbox, bool mcp)
{
    an_vars_set(&e->vars, "sandbox", an_acp_sandbox(e->c) ? an_acp_sandbox(e->c) : sandbox);
    char pv[16];
    snprintf(pv, sizeof pv, "%d", AN_JSONT_PROTOCOL_VERSION);
    an_vars_set(&e->vars, "protocolVersionDefault", mcp ? AN_COMPLY_MCP_VERSION : pv);
    an_vars_set(&e->vars, "copy", "0"); /* an mcpHttp step's copy (`concurrent`) */
    char suite[PATH_MAX], *slash;
    snprintf(suite, sizeof suite, "%s", t->file);
    slash = strrchr(suite, '/');
    if (slash)
        *slash = '\0';
    char *real = realpath(slash ? suite : ".", NULL);
    an_vars_set(&e->vars, "suiteDir", real ? real : suite);
    free(real);
    /* MCP: the client declares nothing (the ACP defaults are fs/terminal) */
    char *caps = mcp ? an_xstrdup("{}") : an_json_compact(t->client_caps);
    an_vars_set(&e->vars, "clientCapabilitiesDefault", caps);
    free(caps);
}

/* Start the agent in the sandbox: false (an unmet "startup") when it
 * cannot be. */
static bool start_agent(struct eng *e, const struct an_comply_spec *spec, const struct an_jsont *t,
                        const char *sandbox)
{
    struct an_err err = AN_ERR_INIT;
    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = spec->argv;
    ao.env = spec->env;
    ao.sandbox = sandbox;
    ao.client_capabilities = t->client_caps;
    ao.policy = (enum an_acp_policy)t->policy; /* same order: yolo, none, read, write */
    ao.permission_delay_ms = e->o->permission_delay_ms;
    comply_confine_opts(&ao, spec);
    struct an_acp_cbs cbs = {.ud = e,
                             .on_agent_request = on_agent_request,
                             .on_notification = on_notification,
                             .on_response = on_response,
                             .on_frame = log_frame,
                             .on_warning = on_warning,
                             .on_close = on_close};
    e->start_mono = an_clock_mono_ms();
    if (an_acp_client_new(&e->c, &ao, &cbs, &err)) {
        comply_unmet_add(e, "startup", -1, "cannot start the agent: %s", err.msg);
        return false;
    }
    set_vars(e, t, sandbox, e->o->protocol == AN_COMPLY_PROTO_MCP);
    return true;
}

/* The steps in order. A failed expect or forbid is recorded and the test
 * goes on (every unmet expectation is reported); a step that could not run
 * at all (no session, nothing sent) ends the test. */
static void run_steps(struct eng *e, const struct an_jsont *t)
{
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        bool ok = true;
        switch (st->kind) {
        case AN_JSONT_NEW_SESSION:
            ok = comply_step_new_session(e, st);
            break;
        case AN_JSONT_SEND:
            ok = comply_step_send(e, st);
            break;
        case AN_JSONT_EXPECT:
            ok = comply_step_expect(e, st);
            break;
        case AN_JSONT_FORBID:
            ok = comply_step_forbid(e, st);
            break;
        case AN_JSONT_DELAY:
            comply_pump_all(e, st->ms);
            break;
        case AN_JSONT_MCP_HTTP:
            ok = comply_step_mcp_http(e, st);
            break;
        case AN_JSONT_AGUI_RUN:
        case AN_JSONT_AGUI_HTTP:
        case AN_JSONT_STEP_KINDS:
            /* AG-UI tests run with an_comply_agui_run(); the loader never
             * mixes the protocols in one test */
            comply_unmet_add(e, "step", (int)s, "an AG-UI step in an ACP run");
            ok = false;
            break;
        }
        /* what follows an mcpHttp step builds on its answer (a session) */
        if (!ok && (st->kind == AN_JSONT_NEW_SESSION || st->kind == AN_JSONT_SEND ||
                    st->kind == AN_JSONT_MCP_HTTP))
            break;
    }
    comply_check_sent(e);
}

/* A failed test quotes the end of what the agent wrote to stderr. */
static void keep_stderr_tail(struct eng *e, struct an_comply_test *out)
{
    size_t len = 0, dropped = 0;
    const char *se = an_rpc_stderr(an_acp_rpc(e->c), &len, &dropped);
    if (!se || !len)
        return;
    size_t off = len > STDERR_TAIL ? len - STDERR_TAIL : 0;
    char *tail = an_utf8_lossy(se + off, len - off);
    if (off || dropped) {
        /* "...tail": the redactor then finds the end of a secret the cut
         * left (run/redact.h "Cuts") */
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "...%s", tail);
        free(tail);
        tail = an_buf_detach(&b, NULL);
    }
    out->stderr_tail = tail;
}

/* What the report will quote, redacted here, where what the agent sent is
 * still known (a --redact match it streamed in pieces); then the engine's
 * memory. */
static void eng_finish(struct eng *e, struct an_comply_test *out)
{
    json_t *seen = json_array();
    for (size_t i = 0; i < e->nobs; i++)
        json_array_append(seen, e->obs[i].msg);
    if (e->http_seen)
        json_array_extend(seen, e->http_seen);
    json_decref(e->http_seen);
    free(e->http_sid);
    an_comply_test_redact_seen(out, e->o->redact, seen);
    json_decref(seen);
    for (size_t i = 0; i < e->nobs; i++)
        json_decref(e->obs[i].msg);
    free(e->obs);
    for (size_t i = 0; i < e->nsent; i++) {
        json_decref(e->sent[i].id);
        json_decref(e->sent[i].response);
    }
    free(e->sent);
    free(e->canned);
    an_vars_release(&e->vars);
}

/* An MCP agent given as an http(s) URL: its endpoint (comply_agents.c
 * runs the bridge to it); NULL for one over stdio. */
static const char *mcp_url(const struct an_comply_spec *spec, bool mcp)
{
    const char *c = spec->command;
    return mcp && c && (!strncmp(c, "http://", 7) || !strncmp(c, "https://", 8)) ? c : NULL;
}

/* A test over a transport its `transports` leave out (by default one with
 * mcpHttp steps over stdio: there is no HTTP to see): NA; one whose
 * `revisions` leave out the revision judged: NA. */
static char *http_precheck(const struct an_jsont *t, const char *url, const char *rev)
{
    if (!an_comply_rev_applies(t, rev)) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "a test of MCP %s", t->revisions[0]);
        for (size_t i = 1; i < t->nrevisions; i++)
            an_buf_printf(&b, "%s%s", i + 1 < t->nrevisions ? ", " : " and ", t->revisions[i]);
        an_buf_printf(&b, " (this run judges revision %s)", rev);
        return an_buf_detach(&b, NULL);
    }
    /* no `transports`: both, but a test with mcpHttp steps Streamable HTTP only */
    bool http = !t->ntransports, stdio = !t->ntransports;
    for (size_t i = 0; i < t->ntransports; i++)
        *(strcmp(t->transports[i], "http") ? &stdio : &http) = true;
    for (size_t s = 0; !t->ntransports && s < t->nsteps; s++)
        if (t->steps[s].kind == AN_JSONT_MCP_HTTP)
            stdio = false;
    if (!url && !stdio)
        return an_xstrdup("a test of the Streamable HTTP transport (HTTP requests, headers, "
                          "status codes or sessions): over stdio there are none");
    if (url && !http)
        return an_xstrdup("a test of the stdio transport: this server is spoken to over "
                          "Streamable HTTP");
    return NULL;
}

void an_comply_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                   const struct an_jsont *t, const struct an_comply_opts *o,
                   struct an_comply_test *out)
{
    int64_t t0 = an_clock_mono_ms();
    comply_fill_meta(out, t);
    bool mcp = o->protocol == AN_COMPLY_PROTO_MCP;
    char *na = an_comply_precheck(
        t, a->init ? json_object_get(a->init, mcp ? "capabilities" : "agentCapabilities") : NULL);
    if (!na)
        na = http_precheck(t, mcp_url(spec, mcp), mcp ? o->spec : NULL);
    if (na) {
        out->status = AN_COMPLY_NA;
        out->na_reason = na;
        return;
    }
    struct eng e = {.t = t,
                    .o = o,
                    .out = out,
                    .log = o->log ? o->log : stderr,
                    .http_url = mcp_url(spec, mcp),
                    .http_seen = json_array()};
    char sandbox[PATH_MAX];
    struct an_err err = AN_ERR_INIT;
    bool have_sandbox = !comply_make_sandbox(t, sandbox, sizeof sandbox, &err);
    if (!have_sandbox)
        comply_unmet_add(&e, "startup", -1, "%s", err.msg);
    else {
        collect_canned(&e, t);
        if (start_agent(&e, spec, t, sandbox) && (t->self_init || runner_initialize(&e)))
            run_steps(&e, t);
    }
    out->status = out->nunmet ? AN_COMPLY_FAIL : AN_COMPLY_PASS;
    if (!out->nunmet && e.na) { /* an mcpHttp step's naUnless */
        out->status = AN_COMPLY_NA;
        out->na_reason = e.na;
        e.na = NULL;
    }
    free(e.na);
    if (!out->nunmet && e.race) { /* nothing failed but what timing decided */
        out->status = AN_COMPLY_NA;
        out->na_reason = e.race;
        e.race = NULL;
    }
    free(e.race);
    if (e.c && out->status == AN_COMPLY_FAIL)
        keep_stderr_tail(&e, out);
    an_acp_client_free(e.c);
    log_flush(&e, spec->name);
    eng_finish(&e, out);
    if (have_sandbox && o->keep_sandbox) {
        char *name = an_comply_shown(o->redact, spec->name);
        fprintf(e.log, "comply: kept sandbox of %s / %s: %s\n", name, t->id, sandbox);
        free(name);
    } else if (have_sandbox) {
        comply_rm_tree(sandbox);
    }
    out->duration_ms = an_clock_mono_ms() - t0;
}

/* ---- probe -----------------------------------------------------------------
 */

struct probe {
    json_t *commands;
    bool closed;
    char reason[256];
};

static void probe_note(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m)
{
    (void)c;
    struct probe *p = ud;
    json_t *up = json_object_get(m->params, "update");
    const char *tag = an_json_str(up, "sessionUpdate");
    if (tag && !strcmp(tag, "available_commands_update")) {
        json_t *cmds = json_object_get(up, "availableCommands");
        if (cmds) {
            json_decref(p->commands);
            p->commands = json_deep_copy(cmds);
        }
    }
}

static void probe_close(void *ud, struct an_acp_client *c, enum an_rpc_close_kind kind,
                        const char *reason)
{
    (void)c;
    (void)kind;
    struct probe *p = ud;
    p->closed = true;
    snprintf(p->reason, sizeof p->reason, "%s", reason ? reason : "agent closed");
}

static bool probe_mcp_request(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m,
                              const char *violation)
{
    (void)ud;
    (void)violation;
    mcp_serve(c, m);
    return true;
}

void an_comply_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                     const struct an_comply_opts *o)
{
    char dir[PATH_MAX];
    struct an_err err = AN_ERR_INIT;
    struct an_jsont empty = {0};
    struct probe p = {0};
    struct an_acp_client *c = NULL;
    json_t *res = NULL, *er = NULL;
    int64_t id;
    if (comply_make_sandbox(&empty, dir, sizeof dir, &err)) {
        a->init_error = an_xstrdup(err.msg);
        return;
    }
    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = spec->argv;
    ao.env = spec->env;
    ao.sandbox = dir;
    comply_confine_opts(&ao, spec);
    bool mcp = o->protocol == AN_COMPLY_PROTO_MCP;
    struct an_acp_cbs cbs = {.ud = &p,
                             .on_notification = probe_note,
                             .on_close = probe_close,
                             .on_agent_request = mcp ? probe_mcp_request : NULL};
    if (an_acp_client_new(&c, &ao, &cbs, &err) ||
        (mcp ? mcp_initialize(c, &id, &err) : an_acp_initialize(c, &id, &err)) ||
        an_acp_wait(c, id, STEP_WAIT_MS, &res, &er, &err)) {
        a->init_error = an_xstrdup(err.msg);
        goto done;
    }
    if (er || !json_is_object(res)) {
        char *s = an_json_compact(er ? er : res);
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "initialize answered %s", s);
        free(s);
        a->init_error = an_buf_detach(&b, NULL);
        goto done;
    }
    a->init = json_incref(res);
    json_decref(res);
    res = NULL;
    if (mcp) {
        if (!mcp_initialized(c, &err))
            an_acp_pump(c, PROBE_LISTEN_MS, NULL);
        goto done;
    }
    if (!an_acp_new_session(c, NULL, NULL, &id, &err) &&
        !an_acp_wait(c, id, STEP_WAIT_MS, &res, &er, &err) && res) {
        json_t *modes = json_object_get(res, "modes");
        if (json_is_object(modes))
            a->modes = json_deep_copy(modes);
        an_acp_pump(c, PROBE_LISTEN_MS, NULL);
    }
done:
    if (p.commands)
        a->commands = p.commands;
    json_decref(res);
    json_decref(er);
    an_acp_client_free(c);
    comply_rm_tree(dir);
}
