/* The compliance step engine: one .jsont test against one ACP agent. */
#define _XOPEN_SOURCE 700 /* nftw */
#include "run/comply.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/jsonmatch.h"
#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"

#define STEP_WAIT_MS 10000 /* initialize and session/new by the runner */
#define PROBE_LISTEN_MS 300
#define STDERR_TAIL 2000

/* A message the agent sent during the test. */
struct obs {
    enum an_jsont_msg_kind kind;
    json_t *msg;
    bool taken; /* matched by an expect */
    int64_t mono_ms;
};

/* A request the test sent with an id. */
struct sent {
    json_t *id;
    size_t step;
    const char *method;
    int expect_error;
    json_t *response; /* once arrived */
    bool taken;
};

/* A canned reply: armed from the test start. */
struct canned {
    const struct an_jsont_expected *e;
    bool used;
};

struct eng {
    const struct an_jsont *t;
    const struct an_comply_opts *o;
    struct an_comply_test *out;
    struct an_acp_client *c;
    struct an_vars vars;
    struct obs *obs;
    size_t nobs, capobs;
    struct sent *sent;
    size_t nsent, capsent;
    struct canned *canned;
    size_t ncanned;
    int64_t runner_ids[8]; /* our own requests (initialize, session/new): not the
                              test's */
    size_t nrunner;
    bool news; /* something was observed: stop pumping */
    bool closed;
    char close_reason[256];
    int64_t start_mono;
    FILE *log;
};

static void log_frame(void *ud, struct an_acp_client *c, enum an_rpc_dir dir, const char *line,
                      size_t len, int64_t unix_ms)
{
    (void)c;
    (void)unix_ms;
    struct eng *e = ud;
    if (e->o->verbose)
        fprintf(e->log, "  [%s] %.*s\n", dir == AN_RPC_OUT ? "OUT" : "IN ",
                (int)(len > 2000 ? 2000 : len), line);
}

static void observe(struct eng *e, enum an_jsont_msg_kind k, const json_t *msg)
{
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

static void unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
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
    char *shown = an_utf8_lossy(line, len > 300 ? 300 : len);
    unmet_add(e, "framing", -1,
              "agent wrote a line to stdout that is not a JSON-RPC message (%s): %s", what, shown);
    free(shown);
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
    return false;
}

static void unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    an_comply_add_unmet(e->out, kind, step, msg);
}

/* Pump up to ms, returning early when something new arrives. */
static void pump(struct eng *e, int64_t ms)
{
    e->news = false;
    if (e->closed) {
        return;
    }
    if (an_cancelled()) {
        /* Ctrl-C: stop waiting; the test ends and its agent is stopped */
        e->closed = true;
        e->news = true;
        snprintf(e->close_reason, sizeof e->close_reason, "interrupted (Ctrl-C)");
        return;
    }
    an_acp_pump(e->c, ms < AN_CANCEL_POLL_MS ? ms : AN_CANCEL_POLL_MS, &e->news);
}

static void pump_all(struct eng *e, int64_t ms)
{
    int64_t end = an_clock_mono_ms() + ms;
    for (;;) {
        int64_t left = end - an_clock_mono_ms();
        if (left <= 0 || e->closed)
            break;
        pump(e, left);
    }
}

/* ---- steps ----------------------------------------------------------------
 */

static bool step_send(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t *frame = NULL;
    if (an_jsont_resolve(st->frame, &e->vars, false, &frame, &err)) {
        unmet_add(e, "step", (int)st->index, "send: %s", err.msg);
        return false;
    }
    const char *method = an_json_str(frame, "method");
    json_t *params = json_object_get(frame, "params");
    int rc;
    /* A cancel goes through the client so that it also answers the
     * session's pending permission requests "cancelled" (the provider's
     * side of cancellation); the frame on the wire is the same. */
    if (!st->has_id && method && !strcmp(method, "session/cancel") &&
        an_json_str(params, "sessionId") && json_object_size(params) == 1 &&
        json_object_size(frame) <= 3) {
        rc = an_acp_cancel(e->c, an_json_str(params, "sessionId"), &err);
    } else {
        if (st->has_id) {
            if (e->nsent == e->capsent) {
                e->capsent = e->capsent ? e->capsent * 2 : 8;
                e->sent = an_xrealloc(e->sent, e->capsent * sizeof *e->sent);
            }
            e->sent[e->nsent++] = (struct sent){json_deep_copy(json_object_get(frame, "id")),
                                                st->index,
                                                an_json_str(st->frame, "method"),
                                                st->expect_error,
                                                NULL,
                                                false};
        }
        rc = an_rpc_send(an_acp_rpc(e->c), frame, &err);
    }
    json_decref(frame);
    if (rc) {
        unmet_add(e, "send", (int)st->index, "cannot send %s: %s", method ? method : "frame",
                  e->closed ? e->close_reason : err.msg);
        return false;
    }
    return true;
}

struct match_ctx {
    struct eng *e;
    json_t **pats;
    const struct an_jsont_step *st;
    size_t *cand; /* observed indices */
};

static bool cand_ok(size_t ei, size_t oi, void *ud)
{
    struct match_ctx *m = ud;
    const struct obs *ob = &m->e->obs[m->cand[oi]];
    return ob->kind == m->st->msgs[ei].kind && an_jm_match(m->pats[ei], ob->msg);
}

static void apply_captures(struct eng *e, const struct an_jsont_step *st, const long *assign,
                           const size_t *cand)
{
    for (size_t c = 0; c < st->ncaptures; c++) {
        const struct an_jsont_capture *cp = &st->captures[c];
        json_t *v = NULL;
        for (size_t m = 0; m < st->nmsgs && !v; m++) {
            if (cp->from >= 0 && (size_t)cp->from != m)
                continue;
            v = an_jsont_path(e->obs[cand[assign[m]]].msg, cp->path);
        }
        if (!v) {
            unmet_add(e, "step", (int)st->index, "capture '%s': no matched message has '%s'",
                      cp->var, cp->path);
            continue;
        }
        char *s = an_jm_stringify(v);
        an_vars_set(&e->vars, cp->var, s);
        free(s);
    }
}

static void report_unmet(struct eng *e, const struct an_jsont_step *st, json_t **pats,
                         const long *assign, const size_t *cand, size_t ncand, int64_t waited)
{
    for (size_t m = 0; m < st->nmsgs; m++) {
        if (assign[m] >= 0)
            continue;
        const struct an_jsont_expected *x = &st->msgs[m];
        char *exp = an_json_compact(pats[m]);
        /* the closest message of the same kind not taken by another expectation */
        size_t best = SIZE_MAX, best_score = 0;
        for (size_t k = 0; k < ncand; k++) {
            const struct obs *ob = &e->obs[cand[k]];
            if (ob->kind != x->kind)
                continue;
            bool used = false;
            for (size_t j = 0; j < st->nmsgs; j++)
                if (assign[j] == (long)k)
                    used = true;
            if (used)
                continue;
            size_t sc = an_jm_score(pats[m], ob->msg, NULL);
            if (best == SIZE_MAX || sc > best_score) {
                best = k;
                best_score = sc;
            }
        }
        struct an_comply_unmet *u;
        char why[512];
        if (e->closed)
            snprintf(why, sizeof why, "not observed before the agent closed (%s)", e->close_reason);
        else
            snprintf(why, sizeof why, "not observed within %lld ms", (long long)waited);
        u = an_comply_add_unmet(e->out, an_jsont_msg_name(x->kind), (int)st->index, why);
        u->expected = exp;
        if (best != SIZE_MAX) {
            const json_t *msg = e->obs[cand[best]].msg;
            u->closest = an_json_compact(msg);
            an_jm_diff(pats[m], msg, &u->diff, &u->ndiff);
        } else {
            u->diff = an_xmalloc(sizeof *u->diff);
            u->diff[0] = an_xstrdup("no similar message observed");
            u->ndiff = 1;
        }
    }
}

/* A window's length after --timeout-scale (at least 1 ms). */
static int64_t window(const struct eng *e, int64_t ms)
{
    double f = e->o->timeout_scale > 0 ? e->o->timeout_scale : 1.0;
    int64_t w = (int64_t)((double)ms * f + 0.5);
    return w > 0 ? w : 1;
}

static bool step_expect(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t **pats = an_xcalloc(st->nmsgs, sizeof *pats);
    long *assign = an_xcalloc(st->nmsgs, sizeof *assign);
    size_t *cand = NULL;
    bool ok = false;
    int64_t deadline = an_clock_mono_ms() + window(e, st->ms);
    for (;;) {
        /* patterns are resolved each round: a reply may have set a variable */
        bool res_ok = true;
        for (size_t m = 0; m < st->nmsgs; m++) {
            json_decref(pats[m]);
            pats[m] = NULL;
            if (an_jsont_resolve(st->msgs[m].pattern, &e->vars, true, &pats[m], &err)) {
                unmet_add(e, "step", (int)st->index, "expect.messages[%zu]: %s", m, err.msg);
                res_ok = false;
                break;
            }
        }
        if (!res_ok)
            break;
        free(cand);
        cand = an_xcalloc(e->nobs + 1, sizeof *cand);
        size_t ncand = 0;
        for (size_t k = 0; k < e->nobs; k++)
            if (!e->obs[k].taken)
                cand[ncand++] = k;
        struct match_ctx mc = {e, pats, st, cand};
        size_t got = an_jm_assign(st->nmsgs, ncand, cand_ok, &mc, assign);
        if (got == st->nmsgs) {
            for (size_t m = 0; m < st->nmsgs; m++) {
                struct obs *ob = &e->obs[cand[assign[m]]];
                ob->taken = true;
                if (ob->kind == AN_JSONT_RESPONSE)
                    for (size_t s = 0; s < e->nsent; s++)
                        if (e->sent[s].response &&
                            json_equal(json_object_get(ob->msg, "id"), e->sent[s].id))
                            e->sent[s].taken = true;
            }
            apply_captures(e, st, assign, cand);
            ok = true;
            break;
        }
        int64_t left = deadline - an_clock_mono_ms();
        if (left <= 0 || e->closed) {
            /* the window as written, not as measured: reports stay stable */
            report_unmet(e, st, pats, assign, cand, ncand, window(e, st->ms));
            break;
        }
        pump(e, left);
    }
    for (size_t m = 0; m < st->nmsgs; m++)
        json_decref(pats[m]);
    free(pats);
    free(assign);
    free(cand);
    return ok;
}

static bool step_forbid(struct eng *e, const struct an_jsont_step *st)
{
    size_t from = e->nobs;
    pump_all(e, window(e, st->ms));
    bool ok = true;
    for (size_t k = from; k < e->nobs; k++) {
        const struct obs *ob = &e->obs[k];
        const char *method = an_json_str(ob->msg, "method");
        for (size_t m = 0; m < st->nmsgs; m++) {
            json_t *pat = NULL;
            struct an_err err = AN_ERR_INIT;
            if (st->msgs[m].kind != ob->kind ||
                an_jsont_resolve(st->msgs[m].pattern, &e->vars, true, &pat, &err))
                continue;
            if (an_jm_match(pat, ob->msg)) {
                struct an_buf b = AN_BUF_INIT;
                an_buf_printf(&b, "agent sent a forbidden %s%s%s %.1f s into the test",
                              an_jsont_msg_name(ob->kind), method ? " " : "", method ? method : "",
                              (double)(ob->mono_ms - e->start_mono) / 1000.0);
                struct an_comply_unmet *u =
                    an_comply_add_unmet(e->out, "forbid", (int)st->index, an_buf_cstr(&b));
                an_buf_release(&b);
                u->expected = an_json_compact(pat);
                u->closest = an_json_compact(ob->msg);
                u->diff = an_xmalloc(sizeof *u->diff);
                u->diff[0] = an_xstrdup("the message matches a forbidden envelope");
                u->ndiff = 1;
                ok = false;
            }
            json_decref(pat);
        }
        if (ob->kind != AN_JSONT_CLIENT_REQUEST || !method)
            continue;
        for (size_t i = 0; i < st->nmethods; i++) {
            if (strcmp(method, st->methods[i]))
                continue;
            struct an_comply_unmet *u = an_comply_add_unmet(e->out, "forbid", (int)st->index, "");
            free(u->message);
            struct an_buf b = AN_BUF_INIT;
            an_buf_printf(&b, "agent sent forbidden request '%s' %.1f s into a %lld ms window",
                          method, (double)(ob->mono_ms - (e->start_mono)) / 1000.0,
                          (long long)window(e, st->ms));
            u->message = an_buf_detach(&b, NULL);
            u->closest = an_json_compact(ob->msg);
            json_t *fm = json_pack("{s:[s]}", "methods", st->methods[i]);
            u->expected = an_json_compact(fm);
            json_decref(fm);
            ok = false;
        }
    }
    return ok;
}

static bool step_new_session(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t *mcp = NULL, *res = NULL, *er = NULL;
    int64_t id;
    bool ok = false;
    if (an_jsont_resolve(st->mcp_servers, &e->vars, false, &mcp, &err)) {
        unmet_add(e, "step", (int)st->index, "newSession: %s", err.msg);
        return false;
    }
    if (an_acp_new_session(e->c, NULL, mcp, &id, &err)) {
        unmet_add(e, "step", (int)st->index, "newSession: cannot send session/new: %s",
                  e->closed ? e->close_reason : err.msg);
        goto done;
    }
    if (e->nrunner < sizeof e->runner_ids / sizeof *e->runner_ids)
        e->runner_ids[e->nrunner++] = id;
    if (an_acp_wait(e->c, id, STEP_WAIT_MS, &res, &er, &err)) {
        unmet_add(e, "step", (int)st->index, "newSession: no session/new response: %s", err.msg);
        goto done;
    }
    const char *sid = an_json_str(res, "sessionId");
    if (er || !sid || !*sid) {
        struct an_comply_unmet *u = an_comply_add_unmet(
            e->out, "response", (int)st->index,
            er ? "session/new failed" : "session/new returned no sessionId string");
        u->expected = an_xstrdup("{\"result\":{\"sessionId\":\".+\"}}");
        json_t *got = json_pack("{s:O?,s:O?}", "result", res, "error", er);
        u->closest = an_json_compact(got);
        json_t *want = json_pack("{s:{s:s}}", "result", "sessionId", ".+");
        an_jm_diff(want, got, &u->diff, &u->ndiff);
        json_decref(want);
        json_decref(got);
        goto done;
    }
    an_vars_set(&e->vars, st->capture, sid);
    ok = true;
done:
    json_decref(mcp);
    json_decref(res);
    json_decref(er);
    return ok;
}

/* Every request the test sent: an error answer nobody expected fails the
 * test; expectError (true or false) is checked once the response is in. */
static void check_sent(struct eng *e)
{
    for (size_t i = 0; i < e->nsent; i++) {
        struct sent *s = &e->sent[i];
        if (s->taken)
            continue;
        if (!s->response && s->expect_error >= 0) {
            int64_t end = an_clock_mono_ms() + STEP_WAIT_MS;
            while (!s->response && !e->closed && an_clock_mono_ms() < end)
                pump(e, end - an_clock_mono_ms());
            if (!s->response) {
                char *idtxt = an_json_compact(s->id);
                unmet_add(e, "send", (int)s->step, "no response to request id %s (%s)%s%s", idtxt,
                          s->method ? s->method : "?", e->closed ? ": " : " within 10000 ms",
                          e->closed ? e->close_reason : "");
                free(idtxt);
                continue;
            }
        }
        if (!s->response)
            continue;
        bool is_err = json_object_get(s->response, "error") != NULL;
        bool want_err = s->expect_error == 1;
        if (is_err == want_err)
            continue;
        char *id = an_json_compact(s->id);
        struct an_comply_unmet *u = an_comply_add_unmet(e->out, "send", (int)s->step, "");
        free(u->message);
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "request id %s (%s) was answered with %s, expected %s", id,
                      s->method ? s->method : "?", is_err ? "an error" : "a result",
                      want_err ? "an error (expectError)" : "a result");
        u->message = an_buf_detach(&b, NULL);
        u->closest = an_json_compact(s->response);
        free(id);
    }
}

/* ---- sandbox --------------------------------------------------------------
 */

static int rm_one(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    remove(path);
    return 0;
}

static void rm_tree(const char *dir)
{
    nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static int mkdirs(char *path)
{
    for (char *p = path + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        int rc = mkdir(path, 0755);
        *p = '/';
        if (rc && errno != EEXIST)
            return -1;
    }
    return 0;
}

static int make_sandbox(const struct an_jsont *t, char *dir, size_t cap, struct an_err *err)
{
    const char *tmp = getenv("TMPDIR");
    snprintf(dir, cap, "%s/ananke-comply-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(dir))
        return an_fail(err, AN_EIO, NULL, "cannot create a sandbox in %s: %s", dir,
                       strerror(errno));
    for (size_t i = 0; i < t->nfiles; i++) {
        struct an_buf p = AN_BUF_INIT;
        an_buf_printf(&p, "%s/%s", dir, t->files[i].path);
        char *path = an_buf_detach(&p, NULL);
        FILE *fp = NULL;
        int rc = mkdirs(path) ? -1 : 0;
        if (!rc && (fp = fopen(path, "wb")) &&
            fwrite(t->files[i].data, 1, t->files[i].len, fp) == t->files[i].len)
            rc = 0;
        else
            rc = -1;
        if (fp && fclose(fp))
            rc = -1;
        if (rc) {
            an_fail(err, AN_EIO, NULL, "cannot write sandbox file '%s': %s", path, strerror(errno));
            free(path);
            return AN_EIO;
        }
        free(path);
    }
    return AN_OK;
}

/* ---- preconditions --------------------------------------------------------
 */

static bool truthy(const json_t *v)
{
    return v && !json_is_false(v) && !json_is_null(v);
}

char *an_comply_precheck(const struct an_jsont *t, const json_t *agent_caps)
{
    for (size_t i = 0; i < t->npreconds; i++) {
        const struct an_jsont_precond *p = &t->preconds[i];
        const json_t *root = p->agent ? agent_caps : t->client_caps;
        const char *path = p->agent ? p->path : p->path + 7; /* "client." */
        const json_t *v = root ? an_jsont_path(root, path) : NULL;
        bool ok;
        if (json_is_true(p->must_be))
            ok = truthy(v);
        else if (json_is_false(p->must_be))
            ok = !truthy(v);
        else
            ok = v && json_equal((json_t *)v, p->must_be);
        if (ok)
            continue;
        char *want = an_json_compact(p->must_be);
        char *got = v ? an_json_compact(v) : an_xstrdup("absent");
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "precondition not met: %s '%s' must be %s (%s: %s)",
                      p->agent ? "agentCap" : "cap", p->path, want,
                      p->agent ? "agent advertises" : "client has", got);
        free(want);
        free(got);
        return an_buf_detach(&b, NULL);
    }
    return NULL;
}

/* ---- one test --------------------------------------------------------------
 */

static void fill_meta(struct an_comply_test *out, const struct an_jsont *t)
{
    out->id = an_xstrdup(t->id);
    out->title = an_xstrdup(t->title);
    out->description = an_xstrdup(t->description);
    out->area = an_xstrdup(t->area);
    out->required = t->required;
    out->ndocs = t->ndocs;
    out->docs = an_xcalloc(t->ndocs + 1, sizeof *out->docs);
    for (size_t i = 0; i < t->ndocs; i++)
        out->docs[i] = an_xstrdup(t->docs[i]);
}

static bool runner_initialize(struct eng *e)
{
    struct an_err err = AN_ERR_INIT;
    int64_t id;
    json_t *res = NULL, *er = NULL;
    if (an_acp_initialize(e->c, &id, &err) ||
        (e->nrunner < 8 && (e->runner_ids[e->nrunner++] = id, false)) ||
        an_acp_wait(e->c, id, STEP_WAIT_MS, &res, &er, &err)) {
        unmet_add(e, "startup", -1, "initialize by the runner failed: %s",
                  e->closed ? e->close_reason : err.msg);
        return false;
    }
    bool ok = !er && json_is_object(res);
    if (!ok) {
        char *s = an_json_compact(er ? er : res);
        unmet_add(e, "startup", -1, "initialize by the runner was answered with %s", s);
        free(s);
    }
    json_decref(res);
    json_decref(er);
    return ok;
}

void an_comply_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                   const struct an_jsont *t, const struct an_comply_opts *o,
                   struct an_comply_test *out)
{
    int64_t t0 = an_clock_mono_ms();
    fill_meta(out, t);
    char *na =
        an_comply_precheck(t, a->init ? json_object_get(a->init, "agentCapabilities") : NULL);
    if (na) {
        out->status = AN_COMPLY_NA;
        out->na_reason = na;
        return;
    }
    struct eng e = {.t = t, .o = o, .out = out, .log = o->log ? o->log : stderr};
    char sandbox[PATH_MAX];
    struct an_err err = AN_ERR_INIT;
    bool have_sandbox = false;
    if (make_sandbox(t, sandbox, sizeof sandbox, &err)) {
        unmet_add(&e, "startup", -1, "%s", err.msg);
        goto done;
    }
    have_sandbox = true;
    for (size_t s = 0; s < t->nsteps; s++)
        for (size_t m = 0; m < t->steps[s].nmsgs; m++)
            if (t->steps[s].msgs[m].reply) {
                e.canned = an_xrealloc(e.canned, (e.ncanned + 1) * sizeof *e.canned);
                e.canned[e.ncanned++] = (struct canned){&t->steps[s].msgs[m], false};
            }

    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = spec->argv;
    ao.env = spec->env;
    ao.sandbox = sandbox;
    ao.client_capabilities = t->client_caps;
    ao.policy = (enum an_acp_policy)t->policy; /* same order: yolo, none, read, write */
    ao.permission_delay_ms = o->permission_delay_ms;
    struct an_acp_cbs cbs = {.ud = &e,
                             .on_agent_request = on_agent_request,
                             .on_notification = on_notification,
                             .on_response = on_response,
                             .on_frame = log_frame,
                             .on_warning = on_warning,
                             .on_close = on_close};
    if (o->verbose)
        fprintf(e.log, "-- %s: %s\n", spec->name, t->id);
    e.start_mono = an_clock_mono_ms();
    if (an_acp_client_new(&e.c, &ao, &cbs, &err)) {
        unmet_add(&e, "startup", -1, "cannot start the agent: %s", err.msg);
        goto done;
    }
    an_vars_set(&e.vars, "sandbox", an_acp_sandbox(e.c) ? an_acp_sandbox(e.c) : sandbox);
    char pv[16];
    snprintf(pv, sizeof pv, "%d", AN_JSONT_PROTOCOL_VERSION);
    an_vars_set(&e.vars, "protocolVersionDefault", pv);
    char suite[PATH_MAX], *slash;
    snprintf(suite, sizeof suite, "%s", t->file);
    slash = strrchr(suite, '/');
    if (slash)
        *slash = '\0';
    char *real = realpath(slash ? suite : ".", NULL);
    an_vars_set(&e.vars, "suiteDir", real ? real : suite);
    free(real);
    char *caps = an_json_compact(t->client_caps);
    an_vars_set(&e.vars, "clientCapabilitiesDefault", caps);
    free(caps);
    if (!t->self_init && !runner_initialize(&e))
        goto done;
    for (size_t s = 0; s < t->nsteps; s++) {
        const struct an_jsont_step *st = &t->steps[s];
        bool ok = true;
        switch (st->kind) {
        case AN_JSONT_NEW_SESSION:
            ok = step_new_session(&e, st);
            break;
        case AN_JSONT_SEND:
            ok = step_send(&e, st);
            break;
        case AN_JSONT_EXPECT:
            ok = step_expect(&e, st);
            break;
        case AN_JSONT_FORBID:
            ok = step_forbid(&e, st);
            break;
        case AN_JSONT_DELAY:
            pump_all(&e, st->ms);
            break;
        }
        /* a failed expect or forbid is recorded and the test goes on (every
         * unmet expectation is reported); a step that could not run at all
         * (no session, nothing sent) ends the test */
        if (!ok && (st->kind == AN_JSONT_NEW_SESSION || st->kind == AN_JSONT_SEND))
            break;
    }
    check_sent(&e);
done:
    out->status = out->nunmet ? AN_COMPLY_FAIL : AN_COMPLY_PASS;
    if (e.c && out->status == AN_COMPLY_FAIL) {
        size_t len = 0;
        const char *se = an_rpc_stderr(an_acp_rpc(e.c), &len, NULL);
        if (se && len) {
            size_t off = len > STDERR_TAIL ? len - STDERR_TAIL : 0;
            out->stderr_tail = an_utf8_lossy(se + off, len - off);
        }
    }
    an_acp_client_free(e.c);
    if (have_sandbox) {
        if (o->keep_sandbox)
            fprintf(e.log, "comply: kept sandbox of %s / %s: %s\n", spec->name, t->id, sandbox);
        else
            rm_tree(sandbox);
    }
    for (size_t i = 0; i < e.nobs; i++)
        json_decref(e.obs[i].msg);
    free(e.obs);
    for (size_t i = 0; i < e.nsent; i++) {
        json_decref(e.sent[i].id);
        json_decref(e.sent[i].response);
    }
    free(e.sent);
    free(e.canned);
    an_vars_release(&e.vars);
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

void an_comply_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                     const struct an_comply_opts *o)
{
    (void)o;
    char dir[PATH_MAX];
    struct an_err err = AN_ERR_INIT;
    struct an_jsont empty = {0};
    struct probe p = {0};
    struct an_acp_client *c = NULL;
    json_t *res = NULL, *er = NULL;
    int64_t id;
    if (make_sandbox(&empty, dir, sizeof dir, &err)) {
        a->init_error = an_xstrdup(err.msg);
        return;
    }
    struct an_acp_opts ao = AN_ACP_OPTS_INIT;
    ao.argv = spec->argv;
    ao.env = spec->env;
    ao.sandbox = dir;
    struct an_acp_cbs cbs = {.ud = &p, .on_notification = probe_note, .on_close = probe_close};
    if (an_acp_client_new(&c, &ao, &cbs, &err) || an_acp_initialize(c, &id, &err) ||
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
    rm_tree(dir);
}
