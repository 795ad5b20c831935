/*
 * The test runner: hooks -> session -> turns (checked one by one) -> test
 * checks. A failed turn assertion stops the test: no later turn is sent.
 */
#include "ananke/run.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "core/clock.h"
#include "core/interp.h"
#include "proto/adapter.h"
#include "run/hook.h"

static void set_error(struct an_test_result *res, int code, int turn, const char *msg)
{
    res->status = AN_STATUS_ERROR;
    res->error_code = code;
    res->error_turn = turn;
    free(res->error);
    res->error = an_xstrdup(msg);
}

static void set_error_err(struct an_test_result *res, int turn, const struct an_err *e)
{
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    set_error(res, e->code, turn, an_err_format(e, buf, sizeof buf));
}

static int run_hooks(const struct an_config *cfg, const struct an_test *test,
                     struct an_vars *vars, struct an_err *err)
{
    for (size_t i = 0; i < test->nhooks; i++) {
        const struct an_hook *h = &test->hooks[i];
        char **argv = an_xcalloc(h->argc + 1, sizeof *argv);
        int rc = 0;
        for (size_t k = 0; k < h->argc && !rc; k++)
            rc = an_interp(h->argv[k].src, &h->argv[k].loc, vars, &argv[k], err);
        json_t *out = NULL;
        char *failure = NULL;
        if (!rc)
            rc = an_hook_run((const char *const *)argv, h->argc, cfg->dir, h->timeout_ms, &out,
                             &failure, err);
        if (rc) {
            if (failure) {
                an_fail(err, rc, &h->loc, "%s", failure);
            } else if (!err->file[0]) {
                struct an_err copy = *err;
                an_fail(err, rc, &h->loc, "%s", copy.msg);
            }
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(out, k, v)
            {
                an_vars_set(vars, k, json_string_value(v) ? json_string_value(v) : "");
            }
        }
        json_decref(out);
        free(failure);
        for (size_t k = 0; k < h->argc; k++)
            free(argv[k]);
        free(argv);
        if (rc)
            return rc;
    }
    return 0;
}

/* Everything a session needs, interpolated; freed by opts_release. */
struct agui_conf {
    struct an_agui_opts o;
    char *endpoint, *agent_id, *thread_id;
    struct an_kv *headers;
    char **header_values;
    json_t *fwd, *state;
};

static void conf_release(struct agui_conf *c)
{
    free(c->endpoint);
    free(c->agent_id);
    free(c->thread_id);
    for (size_t i = 0; i < c->o.nheaders; i++)
        free(c->header_values[i]);
    free(c->header_values);
    free(c->headers);
    json_decref(c->fwd);
    json_decref(c->state);
}

static int conf_build(struct agui_conf *c, const struct an_target *t, const struct an_vars *vars,
                      struct an_err *err)
{
    int rc;
    memset(c, 0, sizeof *c);
    if ((rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)) ||
        (rc = an_interp(t->agent_id.src, &t->agent_id.loc, vars, &c->agent_id, err)))
        return rc;
    if (t->thread_id.src &&
        (rc = an_interp(t->thread_id.src, &t->thread_id.loc, vars, &c->thread_id, err)))
        return rc;
    c->headers = an_xcalloc(t->nheaders + 1, sizeof *c->headers);
    c->header_values = an_xcalloc(t->nheaders + 1, sizeof *c->header_values);
    for (size_t i = 0; i < t->nheaders; i++) {
        if ((rc = an_interp(t->headers[i].value.src, &t->headers[i].value.loc, vars,
                            &c->header_values[i], err)))
            return rc;
        c->o.nheaders = i + 1;
        c->headers[i].name = t->headers[i].name;
        c->headers[i].value = c->header_values[i];
    }
    if (t->forwarded_props.value &&
        (rc = an_interp_json(t->forwarded_props.value, &t->forwarded_props.loc, vars, &c->fwd,
                             err)))
        return rc;
    if (t->state.value &&
        (rc = an_interp_json(t->state.value, &t->state.loc, vars, &c->state, err)))
        return rc;
    c->o.endpoint = c->endpoint;
    c->o.agent_id = c->agent_id;
    c->o.thread_id = c->thread_id;
    c->o.headers = c->headers;
    c->o.forwarded_props = c->fwd;
    c->o.state = c->state;
    c->o.timeout_ms = t->timeout_ms;
    return 0;
}

static const char *turn_kind(const struct an_turn *t)
{
    return t->type == AN_TURN_AGUI_CONNECT ? "agui:connect" : "user";
}

static void mark_not_run(const struct an_test *test, size_t from, struct an_transcript *tr)
{
    for (size_t i = from; i < test->nturns; i++) {
        struct an_turn_rec *r = an_transcript_add_turn(tr, turn_kind(&test->turns[i]));
        r->status = AN_TURN_NOT_RUN;
    }
}

void an_run_test(const struct an_config *cfg, const struct an_test *test,
                 struct an_test_result *res)
{
    struct an_err err = AN_ERR_INIT;
    struct an_vars vars = AN_VARS_INIT;
    struct an_session *session = NULL;
    struct agui_conf conf = {0};
    struct an_transcript *tr = &res->transcript;
    size_t turn = 0;

    res->name = an_xstrdup(test->name);
    res->file = an_xstrdup(test->file);
    res->start_ms = an_clock_unix_ms();
    res->status = AN_STATUS_PASS;

    if (run_hooks(cfg, test, &vars, &err)) {
        set_error_err(res, -1, &err);
        goto done;
    }
    if (conf_build(&conf, &cfg->target, &vars, &err) ||
        an_agui_open(&session, &conf.o, &err)) {
        set_error_err(res, -1, &err);
        goto done;
    }

    for (turn = 0; turn < test->nturns; turn++) {
        const struct an_turn *t = &test->turns[turn];
        char *msg = NULL;
        struct an_turn_rec *rec = an_transcript_add_turn(tr, turn_kind(t));
        if (t->type == AN_TURN_USER && an_interp(t->user.src, &t->user.loc, &vars, &msg, &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            an_turn_fail(rec, err.code, "%s", an_err_format(&err, buf, sizeof buf));
            set_error_err(res, (int)turn, &err);
            turn++;
            goto done;
        }
        rec->input = msg;
        int rc = an_session_turn(session, tr, msg);
        rec = &tr->turns[turn];
        if (!tr->start_ms)
            tr->start_ms = rec->start_ms;
        tr->end_ms = rec->end_ms;
        if (rc || rec->status == AN_TURN_ERROR) {
            set_error(res, rc ? rc : rec->error_code, (int)turn,
                      rec->error ? rec->error : "the turn failed inside ananke");
            turn++;
            goto done;
        }
        struct an_assert blk;
        an_assert_for_turn(&blk, &cfg->target.assert, &test->assert, &t->assert);
        struct an_scope scope = an_scope_turn(tr, turn);
        size_t nf = an_check(&blk, &scope, &res->findings);
        an_assert_release(&blk);
        if (nf) {
            res->status = AN_STATUS_FAIL;
            turn++;
            goto done;
        }
    }

    {
        struct an_assert blk;
        char *joined = NULL;
        an_assert_for_test(&blk, &cfg->target.assert, &test->assert);
        struct an_scope scope = an_scope_test(tr, &joined);
        if (an_check(&blk, &scope, &res->findings))
            res->status = AN_STATUS_FAIL;
        an_assert_release(&blk);
        free(joined);
    }

done:
    if (turn < test->nturns && tr->nturns < test->nturns)
        mark_not_run(test, tr->nturns, tr);
    res->nvar_names = vars.n;
    res->var_names = an_xcalloc(vars.n + 1, sizeof *res->var_names);
    for (size_t i = 0; i < vars.n; i++)
        res->var_names[i] = an_xstrdup(vars.names[i]);
    an_session_free(session);
    conf_release(&conf);
    an_vars_release(&vars);
    res->end_ms = an_clock_unix_ms();
}

int an_run_suite(const struct an_suite *s, const struct an_run_opts *opts,
                 struct an_run_result *out, struct an_err *err)
{
    (void)err;
    out->start_ms = an_clock_unix_ms();
    out->config_path = an_xstrdup(s->config.path);
    for (size_t i = 0; i < s->ntests; i++) {
        struct an_test_result *res = an_run_result_add(out);
        an_run_test(&s->config, &s->tests[i], res);
        if (opts && opts->on_test)
            opts->on_test(res, opts->ud);
    }
    out->end_ms = an_clock_unix_ms();
    return AN_OK;
}
