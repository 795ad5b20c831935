/*
 * One run of one test: hooks -> session -> turns (checked one by one) ->
 * test checks. A failed turn assertion stops the test: no later turn is
 * sent. See job.h for the states.
 */
#include "run/job.h"

#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "ananke/check.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/tmpdir.h"
#include "core/usage.h"
#include "proto/http.h"
#include "run/hook.h"
#include "run/judge.h"
#include "run/mcp_turn.h"
#include "run/redact_result.h"
#include "core/result_paths.h"
#include "run/script_check.h"
#include "run/secrets.h"
#include "run/target_conf.h"
#include "run/trace.h"
#include "tools/tools.h"

/* ---- verdicts ---- */

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

static const char *turn_kind(const struct an_turn *t)
{
    switch (t->type) {
    case AN_TURN_AGUI_CONNECT:
        return "agui:connect";
    case AN_TURN_MCP_CALL:
        return "mcp:call";
    case AN_TURN_MCP_LIST:
        return "mcp:list";
    case AN_TURN_MCP_READ:
        return "mcp:read";
    case AN_TURN_MCP_PROMPT:
        return "mcp:prompt";
    case AN_TURN_A2A_SEND:
        return "a2a:send";
    case AN_TURN_USER:
        break;
    }
    return "user";
}

/* ---- finishing ---- */

static void finish(struct an_job *j)
{
    struct an_transcript *tr = &j->res.transcript;
    /* turns never sent are listed, so reports can say so */
    for (size_t i = tr->nturns; i < j->test->nturns; i++) {
        struct an_turn_rec *r = an_transcript_add_turn(tr, turn_kind(&j->test->turns[i]));
        r->status = AN_TURN_NOT_RUN;
    }
    /* the test's own tool server paths are the run's, not its variables */
    an_tools_test_end(j->tools);
    j->tools = NULL;
    size_t nv = 0;
    j->res.var_names = an_xcalloc(j->vars.n + 1, sizeof *j->res.var_names);
    if (j->env->keep_var_values)
        j->res.var_values = an_xcalloc(j->vars.n + 1, sizeof *j->res.var_values);
    for (size_t i = 0; i < j->vars.n; i++) {
        if (!strncmp(j->vars.names[i], "TOOL_SERVERS.", 13))
            continue;
        j->res.var_names[nv] = an_xstrdup(j->vars.names[i]);
        if (j->env->keep_var_values)
            j->res.var_values[nv] = an_xstrdup(j->vars.values[i]);
        nv++;
    }
    j->res.nvar_names = nv;
    an_session_free(j->session); /* an ACP agent and its terminals end here */
    j->session = NULL;
    an_target_conf_free(j->conf);
    j->conf = NULL;
    if (j->sandbox) {
        an_tmpdir_remove(j->sandbox);
        free(j->sandbox);
        j->sandbox = NULL;
    }
    /* before the vars go: they name the test's own secrets */
    if (!j->red)
        j->red = j->env->secrets ? an_redactor_clone(j->env->secrets) : an_redactor_new();
    an_secrets_gather(j->red, j->cfg, &j->vars, j->env->short_secret, j->env->short_ud);
    an_vars_release(&j->vars);
    if (j->dyn && !j->res.dyn) {
        /* the agent broke the loop: keep what it reached so far */
        if (j->dyn->end == AN_DYN_NONE)
            j->dyn->end = AN_DYN_BROKEN;
        const struct an_agent *sim = j->test->dyn->simulator;
        an_dyn_result(j->dyn, tr, sim ? sim->name : NULL, &j->res);
    }
    if (j->dyn) {
        an_dyn_release(j->dyn);
        free(j->dyn);
        j->dyn = NULL;
    }
    j->res.end_ms = an_clock_unix_ms();
    /* nothing that leaves the job holds a known secret: every reporter,
     * the console and the recording read this redacted result */
    an_test_result_redact(&j->res, j->red);
    if (j->env->paths)
        an_test_result_relative_in(&j->res, j->env->paths);
    else
        an_test_result_relative(&j->res, j->cfg->dir);
    an_redactor_free(j->red);
    j->red = NULL;
    j->state = AN_JOB_DONE;
}

/* ---- checks ---- */

static bool has_impure(const struct an_assert *blk)
{
    for (size_t i = 0; i < blk->nchecks; i++)
        if (blk->checks[i].kind == AN_CHECK_SCRIPT || blk->checks[i].kind == AN_CHECK_AGENT)
            return true;
    return false;
}

static void after_turn_checks(struct an_job *j, long nf);
static void dyn_step(struct an_job *j, int turn);
static void next_turn(struct an_job *j);
static void test_checks(struct an_job *j);

/* Runs on the helper thread: script checks, then judges. */
static void *checks_thread(void *arg)
{
    struct an_job *j = arg;
    struct an_job_checks *c = j->ck;
    size_t ns = 0, na = 0;
    c->rc = an_script_checks(&c->blk, &c->scope, c->input, j->cfg->dir, &c->findings, &ns, &c->err);
    struct an_target_over over = {j->env->helper_params, 0};
    if (!c->rc)
        c->rc = an_judge_checks(&c->blk, &c->scope, c->input, &j->vars, j->cfg->dir, &over,
                                &c->findings, &na, &c->judgements, &c->err);
    c->failed += ns + na;
    an_http_thread_cleanup(); /* the judges' pooled connections live on this thread */
    atomic_store(&j->thread_done, true);
    an_job_env_wake(j->env);
    return NULL;
}

static bool start_thread(struct an_job *j, void *(*fn)(void *))
{
    atomic_store(&j->thread_done, false);
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, 512 * 1024); /* hooks, scripts and judges need little */
    bool ok = pthread_create(&j->thread, &attr, fn, j) == 0;
    pthread_attr_destroy(&attr);
    j->thread_started = ok;
    return ok;
}

static void checks_done(struct an_job *j)
{
    struct an_job_checks *c = j->ck;
    j->ck = NULL;
    for (size_t i = 0; i < c->findings.n; i++) {
        const struct an_finding *f = &c->findings.v[i];
        struct an_finding *g = an_findings_add(&j->res.findings, f->kind, f->turn, f->file, f->line,
                                               f->col, f->assertion, f->expected, f->actual,
                                               f->detail);
        (void)g;
    }
    an_findings_release(&c->findings);
    an_judgements_move(&j->res.judgements, &c->judgements);
    long nf = (long)c->failed;
    if (c->rc) {
        set_error_err(&j->res, c->scope.turn, &c->err);
        nf = -1;
    }
    bool test_level = c->test_level;
    an_assert_release(&c->blk);
    free(c->joined);
    struct an_job_checks **spare = j->env->spare_checks;
    if (spare && !*spare)
        *spare = c;
    else
        free(c);
    if (test_level) {
        if (nf > 0)
            j->res.status = AN_STATUS_FAIL;
        finish(j);
        return;
    }
    after_turn_checks(j, nf);
}

/* Judge a scope with `blk` (merged; taken over): the pure checks now, then,
 * when there are script or agent checks, those on the helper thread (the
 * job waits in CHECKS and goes on in checks_done); else at once. */
static void judge(struct an_job *j, struct an_assert *blk, struct an_scope scope, char *joined,
                  const char *input, bool test_level)
{
    /* zeroed but for the error's text buffers (KiBs, written by an_fail
     * before anything reads them): this runs for every scope */
    struct an_job_checks **spare = j->env->spare_checks, *c;
    if (spare && *spare) {
        c = *spare;
        *spare = NULL;
    } else {
        c = an_xmalloc(sizeof *c);
    }
    memset(c, 0, offsetof(struct an_job_checks, err));
    c->err.code = AN_OK;
    c->err.line = c->err.col = 0;
    c->err.file[0] = c->err.msg[0] = '\0';
    c->blk = *blk;
    c->scope = scope;
    c->joined = joined;
    c->input = input;
    c->test_level = test_level;
    c->failed = an_check(&c->blk, &c->scope, &j->res.findings);
    j->ck = c;
    if (has_impure(&c->blk)) {
        j->state = AN_JOB_CHECKS;
        if (start_thread(j, checks_thread))
            return;
        checks_thread(j); /* no thread to be had: run them here */
    }
    checks_done(j);
}

static void test_checks(struct an_job *j)
{
    struct an_assert blk;
    char *joined = NULL;
    const struct an_transcript *tr = &j->res.transcript;
    struct an_assert own;
    an_assert_expand(j->test->assert, &own);
    an_assert_for_test(&blk, &j->cfg->target.assert, &own);
    struct an_scope scope = an_scope_test(tr, &joined);
    const char *input = NULL;
    for (size_t i = 0; i < tr->nturns; i++)
        if (tr->turns[i].input)
            input = tr->turns[i].input;
    judge(j, &blk, scope, joined, input, true);
}

/* ---- turns ---- */

CURLM *an_job_multi(struct an_job_multi *m)
{
    if (!m->handle && (m->handle = curl_multi_init()))
        curl_multi_setopt(m->handle, CURLMOPT_MAXCONNECTS, m->maxconnects);
    return m->handle;
}

void an_job_env_wake(const struct an_job_env *env)
{
    char c = 1;
    /* a full pipe already wakes the loop: nothing is lost */
    if (env->wake_fd >= 0 && write(env->wake_fd, &c, 1) < 0)
        return;
}

/* The turn's transfer (j->easy) goes into the loop's multi handle; without
 * one to be had it ends at once, as a transfer libcurl could not start. */
static void add_transfer(struct an_job *j, CURL *easy)
{
    CURLM *m = an_job_multi(j->env->multi);
    curl_easy_setopt(easy, CURLOPT_PRIVATE, (void *)j);
    if (!m || curl_multi_add_handle(m, easy) != CURLM_OK)
        an_job_transfer_done(j, CURLE_FAILED_INIT);
}

static void begin_turn(struct an_job *j, bool retry)
{
    struct an_transcript *tr = &j->res.transcript;
    const struct an_turn *t = j->turn < j->test->nturns ? &j->test->turns[j->turn] : NULL;
    struct an_turn_rec *rec = &tr->turns[j->turn];
    CURL *easy = NULL;
    /* the turn's tool_mocks, then the test's, answer its tool calls */
    an_tools_turn_begins(j->tools, t, j->turn + 1);
    if (j->session->ops->begin(j->session, tr, rec->input, retry, &easy)) {
        rec = &tr->turns[j->turn];
        set_error(&j->res, rec->error_code, (int)j->turn,
                  rec->error ? rec->error : "the turn could not start");
        finish(j);
        return;
    }
    (void)t;
    j->state = AN_JOB_TURN;
    j->easy = easy;
    if (!easy)
        return; /* an fd-driven session: the loop polls an_job_fds() */
    add_transfer(j, easy);
}

static bool checks_read_messages(const struct an_check_item *c, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (c[i].of == AN_OF_MESSAGES)
            return true;
    return false;
}

/* Whether the conversation after turn k is read by no one: k is the test's
 * last turn, no report keeps the transcript, and no check of the target,
 * the test or that turn looks at `of: messages` (the turns before it are
 * judged on their own records, and scripts and judges get the text and
 * the tool calls). The AG-UI decoder then does not build it: for a one-turn
 * test that is a third of the jansson allocations of the whole test. */
static bool messages_unread(const struct an_job *j, size_t k)
{
    const struct an_test *t = j->test;
    const struct an_assert_kept *own = t->assert, *turn = t->turns[k].assert;
    return !j->dyn && k + 1 == t->nturns && (!j->env->keep_transcripts || j->env->drop_messages) &&
           !checks_read_messages(j->cfg->target.assert.checks, j->cfg->target.assert.nchecks) &&
           !(own && checks_read_messages(own->checks, own->nchecks)) &&
           !(turn && checks_read_messages(turn->checks, turn->nchecks));
}

/* Send the next turn, or judge the test when every turn has passed. */
static void next_turn(struct an_job *j)
{
    struct an_transcript *tr = &j->res.transcript;
    struct an_err err = AN_ERR_INIT;
    if (j->dyn && j->turn >= j->test->nturns) {
        /* the simulator wrote this one */
        struct an_turn_rec *rec = an_transcript_add_turn(tr, "user");
        rec->drop_frames = !j->env->keep_frames;
        rec->max_warnings = (size_t)j->cfg->max_warnings;
        rec->input = j->dyn->next;
        j->dyn->next = NULL;
        an_trace_turn(&j->res, rec);
        j->tries = 0;
        begin_turn(j, false);
        return;
    }
    if (j->turn == j->test->nturns) {
        test_checks(j); /* finishes the job, now or once its checks thread is done */
        return;
    }
    const struct an_turn *t = &j->test->turns[j->turn];
    struct an_turn_rec *rec = an_transcript_add_turn(tr, turn_kind(t));
    rec->drop_frames = !j->env->keep_frames;
    rec->drop_messages = messages_unread(j, j->turn);
    rec->max_warnings = (size_t)j->cfg->max_warnings;
    an_trace_turn(&j->res, rec);
    j->tries = 0;
    /* an MCP turn's input is the request it sends (run/mcp_turn.h) */
    if (((t->type == AN_TURN_USER || (t->type == AN_TURN_A2A_SEND && t->user.src)) &&
         an_interp(t->user.src, &t->user.loc, &j->vars, &rec->input, &err)) ||
        (t->mcp && an_mcp_turn_input(t, &j->vars, &rec->input, &err))) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        an_turn_fail(rec, err.code, "%s", an_err_format(&err, buf, sizeof buf));
        set_error_err(&j->res, (int)j->turn, &err);
        finish(j);
        return;
    }
    if (t->parts)
        rec->input_parts = json_incref(t->parts);
    begin_turn(j, false);
}

/* Exponential backoff with jitter: 200 ms, 400 ms, 800 ms ... capped at 10 s,
 * each between half and the whole of that, unless the agent said when. */
/* A call that started in the millisecond one turn of the test ended and
 * the next began is the earlier turn's (the same record, shared). */
static void drop_earlier_calls(json_t *calls, const json_t *earlier)
{
    for (size_t i = json_array_size(calls); i-- > 0;) {
        const json_t *c = json_array_get(calls, i);
        for (size_t k = 0; k < json_array_size(earlier); k++)
            if (json_array_get(earlier, k) == c) {
                json_array_remove(calls, i);
                break;
            }
    }
}

static int64_t backoff_ms(unsigned attempt, int64_t retry_after)
{
    if (retry_after >= 0)
        return retry_after < 60000 ? retry_after : 60000;
    int64_t base = 200;
    for (unsigned i = 0; i < attempt && base < 10000; i++)
        base *= 2;
    if (base > 10000)
        base = 10000;
    return base / 2 + (int64_t)(random() % (base / 2 + 1));
}

void an_job_transfer_done(struct an_job *j, CURLcode cc)
{
    struct an_transcript *tr = &j->res.transcript;
    j->session->ops->end(j->session, tr, cc);
    j->easy = NULL;
    CURL *more = NULL;
    if (j->session->ops->next && j->session->ops->next(j->session, tr, &more) && more) {
        /* the same turn goes on (a tool loop): run its next transfer */
        j->easy = more;
        add_transfer(j, more);
        return;
    }
    struct an_turn_rec *rec = &tr->turns[j->turn];
    an_tools_turn_ends(j->tools); /* a call on the shared path is no longer this test's */

    /* a session with its own policy (an http target's `retries`) gets the
     * larger of its count and --retries, and waits as it says */
    const struct an_session_ops *ops = j->session->ops;
    unsigned budget = j->env->retries;
    if (ops->retries && ops->retries(j->session) > budget)
        budget = ops->retries(j->session);
    if (rec->status == AN_TURN_ERROR && an_turn_retryable(rec) && j->tries < budget &&
        !an_cancelled()) {
        int64_t wait = ops->backoff_ms ? ops->backoff_ms(j->session, j->tries + 1)
                                       : backoff_ms(j->tries, ops->retry_after_ms(j->session));
        an_turn_retry(rec, "attempt %u: %s; retried after %lld ms", j->tries + 1, rec->error,
                      (long long)wait);
        j->tries++;
        an_turn_reset(rec);
        j->wake_mono = an_clock_mono_ms() + wait;
        j->state = AN_JOB_WAIT;
        return;
    }
    if (rec->status == AN_TURN_ERROR) {
        set_error(&j->res, rec->error_code, (int)j->turn,
                  rec->error ? rec->error : "the turn failed");
        finish(j);
        return;
    }
    an_usage_price(rec->usage, j->cfg->prices, j->cfg->nprices);
    json_decref(rec->server_calls);
    rec->server_calls = an_tools_calls_of(j->tools, rec->start_ms, an_clock_unix_ms());
    if (j->turn > 0)
        drop_earlier_calls(rec->server_calls, tr->turns[j->turn - 1].server_calls);
    char *miss = an_tools_take_strict_miss(j->tools);
    if (miss) {
        set_error(&j->res, AN_EPROTO, (int)j->turn, miss);
        free(miss);
        finish(j);
        return;
    }
    struct an_assert blk;
    struct an_assert own_test, own_turn;
    an_assert_expand(j->test->assert, &own_test);
    an_assert_expand(j->turn < j->test->nturns ? j->test->turns[j->turn].assert : NULL, &own_turn);
    an_assert_for_turn(&blk, &j->cfg->target.assert, &own_test, &own_turn);
    judge(j, &blk, an_scope_turn(tr, j->turn), NULL, rec->input, false);
}

/* A turn was judged: nf findings, or -1 when a check was broken. */
static void after_turn_checks(struct an_job *j, long nf)
{
    if (nf) {
        if (nf > 0)
            j->res.status = AN_STATUS_FAIL;
        finish(j);
        return;
    }
    if (j->dyn) {
        dyn_step(j, (int)j->turn);
        return;
    }
    j->turn++;
    next_turn(j);
}

/* ---- dynamic tests ---- */

/* Runs on the helper thread: checkpoints of the turn, then the simulator. */
static void *sim_thread(void *arg)
{
    struct an_job *j = arg;
    struct an_target_over over = {j->env->helper_params, 0};
    an_dyn_step(j->dyn, &j->res.transcript, j->dyn_turn, &j->vars, j->cfg->dir, &over);
    an_http_thread_cleanup();
    atomic_store(&j->thread_done, true);
    an_job_env_wake(j->env);
    return NULL;
}

/* The loop ended: its result; then the test's own checks when it passed. */
static void dyn_end(struct an_job *j)
{
    struct an_dyn_run *r = j->dyn;
    const struct an_agent *sim = j->test->dyn->simulator;
    an_dyn_result(r, &j->res.transcript, sim ? sim->name : NULL, &j->res);
    if (r->end == AN_DYN_BROKEN) {
        set_error(&j->res, r->err_code ? r->err_code : AN_EPROTO, r->err_turn,
                  r->err_msg ? r->err_msg : "the dynamic test broke");
        finish(j);
        return;
    }
    if (j->res.findings.n) {
        j->res.status = AN_STATUS_FAIL;
        finish(j);
        return;
    }
    test_checks(j); /* the case's own assertions, on the whole conversation */
}

static void sim_done(struct an_job *j)
{
    if (j->dyn->end != AN_DYN_NONE) {
        dyn_end(j);
        return;
    }
    j->turn = (size_t)(j->dyn_turn + 1);
    next_turn(j);
}

/* After turn `turn` (-1: before the first): judge, decide, simulate. */
static void dyn_step(struct an_job *j, int turn)
{
    if (turn < 0 && j->test->nturns > 0) {
        next_turn(j); /* the case's own first message */
        return;
    }
    j->dyn_turn = turn;
    j->state = AN_JOB_SIM;
    if (start_thread(j, sim_thread))
        return;
    sim_thread(j); /* no thread to be had: run it here */
    j->thread_started = false;
    sim_done(j);
}

size_t an_job_fds(struct an_job *j, struct curl_waitfd *out, size_t max)
{
    if (j->state != AN_JOB_TURN || j->easy || !j->session->ops->fds)
        return 0;
    return j->session->ops->fds(j->session, out, max);
}

bool an_job_fd_step(struct an_job *j, const struct curl_waitfd *fds, size_t n)
{
    if (j->state != AN_JOB_TURN || j->easy || !j->session->ops->step)
        return false;
    if (!j->session->ops->step(j->session, &j->res.transcript, fds, n))
        return false;
    an_job_transfer_done(j, CURLE_OK);
    return true;
}

void an_job_wake(struct an_job *j)
{
    begin_turn(j, true);
}

/* ---- hooks and the session ---- */

static void open_session(struct an_job *j)
{
    struct an_err err = AN_ERR_INIT;
    const struct an_target *t = &j->cfg->target;
    int rc;
    rc = an_target_open(t, j->test, &j->vars, j->sandbox, j->cfg->dir, NULL, &j->conf, &j->session,
                        &err);
    if (rc) {
        set_error_err(&j->res, -1, &err);
        finish(j);
        return;
    }
    if (j->test->dyn) {
        j->dyn = an_xcalloc(1, sizeof *j->dyn);
        an_dyn_init(j->dyn, j->test->dyn, an_clock_mono_ms(), j->env->seed);
        j->dyn->trace_id = j->res.trace_id[0] ? j->res.trace_id : NULL;
        if (!j->deadline_mono || j->dyn->deadline_mono < j->deadline_mono)
            j->deadline_mono = j->dyn->deadline_mono;
        dyn_step(j, -1);
        return;
    }
    next_turn(j);
}

/* The test's own tool server paths, in its vars before its hooks read
 * them; their token is a secret: no report shows it. true: it failed. */
static bool start_tools(struct an_job *j)
{
    struct an_err err = AN_ERR_INIT;
    const char *token = NULL;
    if (an_tools_test_begin(&j->tools, j->test, &j->vars, &token, &err)) {
        set_error_err(&j->res, -1, &err);
        finish(j);
        return true;
    }
    if (token) {
        if (!j->red)
            j->red = j->env->secrets ? an_redactor_clone(j->env->secrets) : an_redactor_new();
        an_redactor_add_secret(j->red, "tool server path", token);
    }
    return false;
}

/* Runs on the hook thread: only the job's hook fields and vars are touched. */
static void *hooks_thread(void *arg)
{
    struct an_job *j = arg;
    const struct an_test *test = j->test;
    int rc = 0;
    for (size_t i = 0; i < test->nhooks && !rc; i++) {
        const struct an_hook *h = &test->hooks[i];
        char **argv = an_xcalloc(h->argc + 1, sizeof *argv);
        for (size_t k = 0; k < h->argc && !rc; k++)
            rc = an_interp(h->argv[k].src, &h->argv[k].loc, &j->vars, &argv[k], j->hooks_err);
        int64_t timeout = h->timeout_ms;
        bool capped = false;
        if (j->deadline_mono) {
            int64_t left = j->deadline_mono - an_clock_mono_ms();
            if (left < 1)
                left = 1;
            if (left < timeout) {
                timeout = left;
                capped = true;
            }
        }
        json_t *out = NULL;
        char *failure = NULL;
        if (!rc) {
            struct an_hook_opts ho = AN_HOOK_OPTS_INIT;
            ho.argv = (const char *const *)argv;
            ho.argc = h->argc;
            ho.cwd = j->cfg->dir;
            ho.timeout_ms = timeout;
            ho.learn = j->red; /* what a failing hook printed is secret too */
            ho.stdout_max = (size_t)h->max_stdout_bytes;
            ho.stderr_max = (size_t)h->max_stderr_bytes;
            rc = an_hook_run_opts(&ho, &out, &failure, j->hooks_err);
        }
        if (rc) {
            struct an_err copy = *j->hooks_err;
            an_fail(j->hooks_err, rc, &h->loc, "%s", failure ? failure : copy.msg);
            j->hooks_hit_deadline = capped && an_clock_mono_ms() >= j->deadline_mono;
        } else {
            const char *k;
            json_t *v;
            json_object_foreach(out, k, v)
            {
                an_vars_set(&j->vars, k, json_string_value(v) ? json_string_value(v) : "");
            }
        }
        json_decref(out);
        free(failure);
        for (size_t k = 0; k < h->argc; k++)
            free(argv[k]);
        free(argv);
    }
    j->hooks_rc = rc;
    atomic_store(&j->thread_done, true);
    an_job_env_wake(j->env);
    return NULL;
}

void an_job_start(struct an_job *j, const struct an_job_env *env)
{
    j->env = env;
    j->res.name = an_xstrdup(j->test->name);
    j->res.file = an_xstrdup(j->test->file);
    j->res.file_sum = j->test->file_sum;
    j->res.start_ms = an_clock_unix_ms();
    j->res.status = AN_STATUS_PASS;
    j->res.error_turn = -1;
    if (env->trace)
        an_trace_test(&j->res);
    an_transcript_init(&j->res.transcript);
    if (env->timeout_ms > 0)
        j->deadline_mono = an_clock_mono_ms() + env->timeout_ms;
    if (start_tools(j))
        return;
    if (j->cfg->target.type->sandbox) {
        /* a sandbox per test: the agent's cwd, the only place its fs and
         * terminal requests may touch; ${SANDBOX} for hooks and messages
         * (MCP: the root a server is given, docs/mcp.md) */
        struct an_err err = AN_ERR_INIT;
        if (an_tmpdir_make("ananke-sandbox-", &j->sandbox, &err)) {
            set_error_err(&j->res, -1, &err);
            finish(j);
            return;
        }
        an_vars_set(&j->vars, "SANDBOX", j->sandbox);
    }
    if (j->test->nhooks == 0) {
        open_session(j);
        return;
    }
    j->state = AN_JOB_HOOKS;
    j->hooks_err = an_xcalloc(1, sizeof *j->hooks_err);
    if (!j->red)
        j->red = j->env->secrets ? an_redactor_clone(j->env->secrets) : an_redactor_new();
    if (!start_thread(j, hooks_thread)) {
        hooks_thread(j); /* no thread to be had: run them here */
        an_job_thread_finished(j);
    }
}

void an_job_thread_finished(struct an_job *j)
{
    if (j->thread_started) {
        pthread_join(j->thread, NULL);
        j->thread_started = false;
    }
    if (j->state == AN_JOB_CHECKS) {
        checks_done(j);
        return;
    }
    if (j->state == AN_JOB_SIM) {
        sim_done(j);
        return;
    }
    if (j->hooks_rc) {
        if (j->hooks_hit_deadline) {
            char msg[256];
            snprintf(msg, sizeof msg, "test timed out after %lld ms (in its hooks)",
                     (long long)j->env->timeout_ms);
            set_error(&j->res, AN_ETIMEOUT, -1, msg);
            j->res.timed_out = true;
        } else {
            set_error_err(&j->res, -1, j->hooks_err);
        }
        free(j->hooks_err);
        j->hooks_err = NULL;
        finish(j);
        return;
    }
    free(j->hooks_err);
    j->hooks_err = NULL;
    open_session(j);
}

void an_job_abort(struct an_job *j, int code, const char *why)
{
    struct an_transcript *tr = &j->res.transcript;
    switch (j->state) {
    case AN_JOB_TURN: {
        struct an_turn_rec *rec = &tr->turns[j->turn];
        an_turn_fail(rec, code, "%s", why); /* before end(): the first cause wins */
        if (j->easy)
            curl_multi_remove_handle(j->env->multi->handle, j->easy);
        j->session->ops->end(j->session, tr, CURLE_ABORTED_BY_CALLBACK);
        j->easy = NULL;
        set_error(&j->res, code, (int)j->turn, why);
        break;
    }
    case AN_JOB_WAIT:
        an_turn_fail(&tr->turns[j->turn], code, "%s", why);
        set_error(&j->res, code, (int)j->turn, why);
        break;
    default:
        return; /* PENDING/DONE: nothing to stop; HOOKS: see job.h */
    }
    if (j->dyn && code == AN_ETIMEOUT && !an_cancelled() &&
        an_clock_mono_ms() >= j->dyn->deadline_mono) {
        /* the case's own timeout ends the loop: a failure naming what is
         * missing, not a broken run (the turn in flight was cut) */
        j->res.status = AN_STATUS_PASS;
        free(j->res.error);
        j->res.error = NULL;
        j->res.error_code = 0;
        j->res.error_turn = -1;
        an_dyn_timed_out(j->dyn, (int)j->turn);
        dyn_end(j);
        return;
    }
    if (code == AN_ETIMEOUT)
        j->res.timed_out = true;
    finish(j);
}
