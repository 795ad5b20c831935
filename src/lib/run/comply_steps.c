/* The compliance step kinds: send, expect, forbid, newSession, and the
 * check of every request sent once the steps have run. */
#include "run/comply_int.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"

/* ---- steps ----------------------------------------------------------------
 */

bool comply_step_send(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t *frame = NULL;
    if (an_jsont_resolve(st->frame, &e->vars, false, &frame, &err)) {
        comply_unmet_add(e, "step", (int)st->index, "send: %s", err.msg);
        return false;
    }
    const char *method = an_json_str(frame, "method");
    json_t *params = json_object_get(frame, "params");
    int rc;
    if (!st->has_id && method &&
        (!strcmp(method, "session/cancel") || !strcmp(method, "notifications/cancelled"))) {
        /* what has arrived already counts as before the cancel */
        comply_pump(e, 0);
        e->cancel_mono = an_clock_mono_ms();
        snprintf(e->cancel_method, sizeof e->cancel_method, "%s", method);
    }
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
        comply_unmet_add(e, "send", (int)st->index, "cannot send %s: %s", method ? method : "frame",
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
            if ((cp->from >= 0 && (size_t)cp->from != m) || assign[m] < 0)
                continue;
            v = an_jsont_path(e->obs[cand[assign[m]]].msg, cp->path);
        }
        if (!v) {
            comply_unmet_add(e, "step", (int)st->index, "capture '%s': no matched message has '%s'",
                             cp->var, cp->path);
            continue;
        }
        char *s = an_jm_stringify(v);
        an_vars_set(&e->vars, cp->var, s);
        free(s);
    }
}

/* The observed message is the response to the request the pattern asks
 * about (its id): there is one reply per request, so an unmet expectation
 * is a wrong answer, not a missing one. (A notification or request of the
 * same method is not: another one may still come.) */
static bool same_reply(const json_t *pat, const json_t *msg)
{
    json_t *p = json_object_get(pat, "id");
    if (!p || !json_object_get(msg, "id") || json_object_get(msg, "method"))
        return false;
    json_t *only = json_pack("{s:O}", "id", p);
    bool same = an_jm_match(only, msg);
    json_decref(only);
    return same;
}

/* A request or notification of the method the pattern names: it came,
 * with other content. */
static bool same_method(const json_t *pat, const json_t *msg)
{
    json_t *p = json_object_get(pat, "method");
    if (!p || !json_is_string(json_object_get(msg, "method")))
        return false;
    json_t *only = json_pack("{s:O}", "method", p);
    bool same = an_jm_match(only, msg);
    json_decref(only);
    return same;
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
        const json_t *msg = best != SIZE_MAX ? e->obs[cand[best]].msg : NULL;
        char **diff = NULL;
        size_t ndiff = 0;
        if (msg)
            an_jm_diff(pats[m], msg, &diff, &ndiff);
        bool reply = msg && ndiff && x->kind == AN_JSONT_RESPONSE && same_reply(pats[m], msg);
        if (reply && e->cancel_mono && e->obs[cand[best]].mono_ms < e->cancel_mono) {
            /* answered before the cancel left: the cancel could not act */
            if (!e->race) {
                struct an_buf b = AN_BUF_INIT;
                an_buf_printf(&b,
                              "timing the agent controls: it answered before %s was sent (%s), "
                              "so what the cancel does could not be observed; a longer task "
                              "may let it",
                              e->cancel_method, diff[0]);
                e->race = an_buf_detach(&b, NULL);
            }
            for (size_t d = 0; d < ndiff; d++)
                free(diff[d]);
            free(diff);
            free(exp);
            continue;
        }
        bool asked = msg && ndiff && x->kind != AN_JSONT_RESPONSE && same_method(pats[m], msg);
        if (reply)
            /* it did come, with other content: say what differs */
            snprintf(why, sizeof why, "%s%s", diff[0],
                     ndiff > 1 ? " (and more differences below)" : "");
        else if (asked) /* a request or notification of that method came, not as expected */
            snprintf(why, sizeof why, "%.200s came, not as expected: %s%s",
                     an_json_str(msg, "method"), diff[0],
                     ndiff > 1 ? " (and more differences below)" : "");
        else if (e->closed)
            snprintf(why, sizeof why, "not observed before the agent closed (%s)", e->close_reason);
        else
            snprintf(why, sizeof why, "not observed within %lld ms", (long long)waited);
        u = an_comply_add_unmet(e->out, an_jsont_msg_name(x->kind), (int)st->index, why);
        u->expected = exp;
        if (msg) {
            u->closest = an_json_compact(msg);
            u->diff = diff;
            u->ndiff = ndiff;
        } else {
            u->diff = an_xmalloc(sizeof *u->diff);
            u->diff[0] = an_xstrdup("no similar message observed");
            u->ndiff = 1;
        }
    }
}

/* A window's length after --timeout-scale (at least 1 ms). */
int64_t comply_window(const struct eng *e, int64_t ms)
{
    double f = e->o->timeout_scale > 0 ? e->o->timeout_scale : 1.0;
    int64_t w = (int64_t)((double)ms * f + 0.5);
    return w > 0 ? w : 1;
}

bool comply_step_expect(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t **pats = an_xcalloc(st->nmsgs, sizeof *pats);
    long *assign = an_xcalloc(st->nmsgs, sizeof *assign);
    size_t *cand = NULL;
    bool ok = false;
    int64_t deadline = an_clock_mono_ms() + comply_window(e, st->ms);
    for (;;) {
        /* patterns are resolved each round: a reply may have set a variable */
        bool res_ok = true;
        for (size_t m = 0; m < st->nmsgs; m++) {
            json_decref(pats[m]);
            pats[m] = NULL;
            if (an_jsont_resolve(st->msgs[m].pattern, &e->vars, true, &pats[m], &err)) {
                comply_unmet_add(e, "step", (int)st->index, "expect.messages[%zu]: %s", m, err.msg);
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
        if (got == st->nmsgs || (st->any_of && got > 0)) {
            for (size_t m = 0; m < st->nmsgs; m++) {
                if (assign[m] < 0)
                    continue; /* anyOf: an alternative that did not happen */
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
            report_unmet(e, st, pats, assign, cand, ncand, comply_window(e, st->ms));
            break;
        }
        comply_pump(e, left);
    }
    for (size_t m = 0; m < st->nmsgs; m++)
        json_decref(pats[m]);
    free(pats);
    free(assign);
    free(cand);
    return ok;
}

bool comply_step_forbid(struct eng *e, const struct an_jsont_step *st)
{
    size_t from = e->nobs;
    comply_pump_all(e, comply_window(e, st->ms));
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
                          (long long)comply_window(e, st->ms));
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

bool comply_step_new_session(struct eng *e, const struct an_jsont_step *st)
{
    struct an_err err = AN_ERR_INIT;
    json_t *mcp = NULL, *res = NULL, *er = NULL;
    int64_t id;
    bool ok = false;
    if (an_jsont_resolve(st->mcp_servers, &e->vars, false, &mcp, &err)) {
        comply_unmet_add(e, "step", (int)st->index, "newSession: %s", err.msg);
        return false;
    }
    if (an_acp_new_session(e->c, NULL, mcp, &id, &err)) {
        comply_unmet_add(e, "step", (int)st->index, "newSession: cannot send session/new: %s",
                         e->closed ? e->close_reason : err.msg);
        goto done;
    }
    if (e->nrunner < sizeof e->runner_ids / sizeof *e->runner_ids)
        e->runner_ids[e->nrunner++] = id;
    if (an_acp_wait(e->c, id, STEP_WAIT_MS, &res, &er, &err)) {
        comply_unmet_add(e, "step", (int)st->index, "newSession: no session/new response: %s",
                         err.msg);
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
void comply_check_sent(struct eng *e)
{
    for (size_t i = 0; i < e->nsent; i++) {
        struct sent *s = &e->sent[i];
        if (s->taken)
            continue;
        if (!s->response && s->expect_error >= 0) {
            int64_t end = an_clock_mono_ms() + STEP_WAIT_MS;
            while (!s->response && !e->closed && an_clock_mono_ms() < end)
                comply_pump(e, end - an_clock_mono_ms());
            if (!s->response) {
                char *idtxt = an_json_compact(s->id);
                comply_unmet_add(e, "send", (int)s->step, "no response to request id %s (%s)%s%s",
                                 idtxt, s->method ? s->method : "?",
                                 e->closed ? ": " : " within 10000 ms",
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
