/* Replaying the tests on a recording (ananke/replay.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/usage.h"
#include "ananke/check.h"
#include "ananke/run.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/interp.h"
#include "core/usage.h"
#include "run/replay_int.h"
#include "run/redact_result.h"
#include "run/replay_judge.h"
#include "run/secrets.h"

#define SHOWN 80 /* bytes of a message quoted in a line about it */

void an_replay_error(struct an_test_result *out, int code, int turn, const char *fmt, ...)
{
    struct an_buf b = AN_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    an_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    out->status = AN_STATUS_ERROR;
    out->error_code = code;
    out->error_turn = turn;
    free(out->error);
    out->error = an_buf_detach(&b, NULL);
    if (!out->error)
        out->error = an_xstrdup("");
}

void an_replay_error_err(struct an_test_result *out, int turn, const struct an_err *e)
{
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    an_replay_error(out, e->code, turn, "%s", an_err_format(e, buf, sizeof buf));
}

static const char *turn_kind(const struct an_test *t, size_t i)
{
    return i < t->nturns && t->turns[i].type == AN_TURN_AGUI_CONNECT ? "agui:connect" : "user";
}

void an_replay_cut(struct an_transcript *tr, size_t keep, const struct an_test *t, size_t total)
{
    if (keep < tr->nturns) {
        size_t from = 0;
        for (size_t k = 0; k < keep; k++)
            if (tr->turns[k].first_call + tr->turns[k].ncalls > from)
                from = tr->turns[k].first_call + tr->turns[k].ncalls;
        an_transcript_drop_calls(tr, from);
        /* the turns go through a transcript of their own, so whatever a
         * turn record owns is freed by the one function that knows */
        struct an_transcript gone;
        an_transcript_init(&gone);
        for (size_t k = keep; k < tr->nturns; k++)
            *an_transcript_add_turn(&gone, "user") = tr->turns[k];
        tr->nturns = keep;
        an_transcript_release(&gone);
    }
    for (size_t k = tr->nturns; k < total; k++)
        an_transcript_add_turn(tr, turn_kind(t, k))->status = AN_TURN_NOT_RUN;
}

static size_t total_turns(const struct an_replay_test *x, size_t turn)
{
    return x->test->dyn ? turn + 1 : x->test->nturns; /* a dynamic test has no turn to come */
}

bool an_replay_turn_checks(struct an_replay_test *x, size_t turn)
{
    const struct an_test *t = x->test;
    struct an_transcript *tr = &x->out->transcript;
    struct an_assert blk;
    struct an_err err = AN_ERR_INIT;
    /* the recorded tokens, priced by today's `prices:` (the agent's own cost stays) */
    an_usage_price(tr->turns[turn].usage, x->cfg->prices, x->cfg->nprices);
    struct an_assert own_test, own_turn;
    an_assert_expand(t->assert, &own_test);
    an_assert_expand(turn < t->nturns ? t->turns[turn].assert : NULL, &own_turn);
    an_assert_for_turn(&blk, &x->cfg->target.assert, &own_test, &own_turn);
    struct an_scope s = an_scope_turn(tr, turn);
    long n = an_replay_block(&blk, &s, tr->turns[turn].input, x->cfg->dir, &x->rec->judgements,
                             false, &x->out->findings, &x->out->judgements, &err);
    an_assert_release(&blk);
    if (n == 0)
        return true;
    if (n < 0)
        an_replay_error_err(x->out, (int)turn, &err);
    else
        x->out->status = AN_STATUS_FAIL;
    an_replay_cut(tr, turn + 1, t, total_turns(x, turn)); /* no later turn would be sent */
    return false;
}

void an_replay_test_checks(struct an_replay_test *x)
{
    struct an_transcript *tr = &x->out->transcript;
    struct an_assert blk;
    struct an_err err = AN_ERR_INIT;
    char *joined = NULL;
    struct an_assert own;
    an_assert_expand(x->test->assert, &own);
    an_assert_for_test(&blk, &x->cfg->target.assert, &own);
    struct an_scope s = an_scope_test(tr, &joined);
    const char *input = NULL;
    for (size_t i = 0; i < tr->nturns; i++)
        if (tr->turns[i].input)
            input = tr->turns[i].input;
    long n = an_replay_block(&blk, &s, input, x->cfg->dir, &x->rec->judgements, false,
                             &x->out->findings, &x->out->judgements, &err);
    an_assert_release(&blk);
    free(joined);
    if (n < 0)
        an_replay_error_err(x->out, -1, &err);
    else if (n > 0)
        x->out->status = AN_STATUS_FAIL;
}

/* The message of turn i as written in the test, cut for a line. */
static void quote_turn(struct an_buf *b, const struct an_test *t, size_t i)
{
    if (i >= t->nturns || t->turns[i].type == AN_TURN_AGUI_CONNECT) {
        an_buf_puts(b, i < t->nturns ? "agui:connect" : "a simulated message");
        return;
    }
    const char *m = t->turns[i].user.src ? t->turns[i].user.src : "";
    size_t n = strlen(m);
    an_buf_putc(b, '"');
    an_buf_append(b, m, n > SHOWN ? SHOWN : n);
    an_buf_puts(b, n > SHOWN ? "…\"" : "\"");
}

/* Turn i of the test was never recorded: say why. */
static void missing_turn(struct an_replay_test *x, size_t i)
{
    const struct an_test_result *rec = x->rec;
    const struct an_transcript *tr = &x->out->transcript;
    size_t ran = 0;
    while (ran < tr->nturns && tr->turns[ran].status != AN_TURN_NOT_RUN)
        ran++;
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "turn %zu (", i + 1);
    quote_turn(&b, x->test, i);
    an_buf_puts(&b, ") has no recording: ");
    if (ran < tr->nturns && rec->status == AN_STATUS_FAIL)
        an_buf_printf(&b, "the recorded run stopped after turn %zu, which failed an assertion",
                      ran);
    else if (ran < tr->nturns && rec->status == AN_STATUS_ERROR)
        an_buf_printf(&b, "the recorded run stopped after turn %zu (%s)", ran,
                      rec->error ? rec->error : "an error");
    else
        an_buf_printf(&b, "the test has %zu turn%s now, the recording %zu", x->test->nturns,
                      x->test->nturns == 1 ? "" : "s", ran);
    an_buf_puts(&b, "; record the run again");
    /* not "at turn i": the message names it, and that turn has nothing to show */
    an_replay_error(x->out, AN_ENOTFOUND, -1, "%s", an_buf_cstr(&b));
    an_buf_release(&b);
    an_replay_cut(&x->out->transcript, i, x->test, x->test->nturns);
}

/* The recorded turn answered another message than the test sends now: the
 * verdict is about the recorded answer, and the report says so. */
static void compare_turn(struct an_replay_test *x, size_t i)
{
    const struct an_turn *now = &x->test->turns[i];
    struct an_turn_rec *r = &x->out->transcript.turns[i];
    const char *kind = turn_kind(x->test, i);
    if (strcmp(kind, r->kind ? r->kind : "user")) {
        an_turn_warn(r, "replay: this turn is %s now, the recorded one was %s", kind,
                     r->kind ? r->kind : "user");
        return;
    }
    if (now->type != AN_TURN_USER || !now->user.src || an_interp_has_refs(now->user.src))
        return; /* with variables: the recorded values are not known here */
    if (r->input && !strcmp(r->input, now->user.src))
        return;
    struct an_buf b = AN_BUF_INIT;
    quote_turn(&b, x->test, i);
    an_turn_warn(r,
                 "replay: the message is %s now; the verdict is on the answer to the recorded "
                 "one",
                 an_buf_cstr(&b));
    an_buf_release(&b);
}

static void replay_static(struct an_replay_test *x)
{
    const struct an_test *t = x->test;
    struct an_transcript *tr = &x->out->transcript;
    for (size_t i = 0; i < t->nturns; i++) {
        if (i >= tr->nturns || tr->turns[i].status == AN_TURN_NOT_RUN) {
            missing_turn(x, i);
            return;
        }
        compare_turn(x, i);
        struct an_turn_rec *r = &tr->turns[i];
        if (r->status == AN_TURN_ERROR) {
            bool this = x->rec->error_turn == (int)i && x->rec->error_code;
            const char *why = r->error ? r->error : x->rec->error;
            an_replay_error(x->out, this ? x->rec->error_code : AN_EPROTO, (int)i,
                            "%s (as recorded)", why ? why : "the turn failed");
            x->out->timed_out = x->rec->timed_out;
            an_replay_cut(tr, i + 1, t, t->nturns);
            return;
        }
        if (!an_replay_turn_checks(x, i))
            return;
    }
    if (tr->nturns > t->nturns) {
        an_turn_warn(&tr->turns[t->nturns ? t->nturns - 1 : 0],
                     "replay: the recording has %zu more turn%s, which the test no longer has",
                     tr->nturns - t->nturns, tr->nturns - t->nturns == 1 ? "" : "s");
        an_replay_cut(tr, t->nturns, t, t->nturns);
    }
    an_replay_test_checks(x);
}

/* One test on its recording (rec NULL: none). */
static void replay_test(const struct an_suite *s, const struct an_recording *recording,
                        const struct an_test *t, struct an_test_result *rec,
                        struct an_test_result *out)
{
    out->name = t->name ? an_xstrdup(t->name) : NULL;
    out->file = t->file ? an_xstrdup(t->file) : NULL;
    out->file_sum = t->file_sum; /* the test judged: as loaded now */
    out->id = t->id ? an_xstrdup(t->id) : NULL;
    out->nhistory = t->history ? json_array_size(t->history) : 0;
    out->status = AN_STATUS_PASS;
    out->error_turn = -1;
    an_transcript_init(&out->transcript);
    if (t->skip) {
        out->status = AN_STATUS_SKIP;
        return;
    }
    if (!rec || rec->status == AN_STATUS_SKIP) {
        if (rec)
            an_replay_error(out, AN_ENOTFOUND, -1,
                            "the recording has this test as skipped: it never ran; record the "
                            "run again");
        else
            an_replay_error(out, AN_ENOTFOUND, -1,
                            "no recording of this test in '%s' (tests are paired with their "
                            "recordings by JSONL id, else by name); record the run again",
                            recording->info.dir);
        out->start_ms = out->end_ms = an_clock_unix_ms();
        an_replay_cut(&out->transcript, 0, t, t->dyn ? 0 : t->nturns);
        return;
    }
    out->start_ms = rec->start_ms;
    out->end_ms = rec->end_ms;
    out->transcript = rec->transcript; /* moved: the recording is replayed once */
    an_transcript_init(&rec->transcript);
    out->var_names = an_xcalloc(rec->nvar_names + 1, sizeof *out->var_names);
    for (size_t i = 0; i < rec->nvar_names; i++)
        out->var_names[i] = an_xstrdup(rec->var_names[i]);
    out->nvar_names = rec->nvar_names;

    struct an_transcript *tr = &out->transcript;
    if (rec->status == AN_STATUS_ERROR && rec->error_turn < 0 &&
        (tr->nturns == 0 || tr->turns[0].status == AN_TURN_NOT_RUN)) {
        /* broken before any turn (a hook, the session): nothing to judge */
        an_replay_error(out, rec->error_code ? rec->error_code : AN_EINTERNAL, -1,
                        "%s (as recorded)", rec->error ? rec->error : "the test broke");
        out->timed_out = rec->timed_out;
        return;
    }
    struct an_replay_test x = {&s->config, t, rec, out};
    if (t->dyn)
        an_replay_dynamic(&x);
    else
        replay_static(&x);
}

/* The recorded test for t: by id (a JSONL case) or by name (a YAML test),
 * in the same file first (the same path, then one named from elsewhere),
 * then any; never one already taken. */
static struct an_test_result *pair(struct an_recording *r, const struct an_test *t,
                                   const struct an_redactor *red)
{
    /* the run redacted the name it recorded (a --redact match in it) */
    char *red_name = t->name ? an_redact_text(red, t->name, strlen(t->name), NULL, NULL) : NULL;
    char *red_id = t->id ? an_redact_text(red, t->id, strlen(t->id), NULL, NULL) : NULL;
    const char *name = red_name ? red_name : t->name, *id = red_id ? red_id : t->id;
    struct an_test_result *found = NULL;
    for (int want = 2; want >= 0; want--) {
        for (size_t i = 0; i < r->results.ntests; i++) {
            struct an_test_result *c = &r->results.tests[i];
            if (r->used[i])
                continue;
            bool key = id ? c->id && !strcmp(c->id, id)
                          : !c->id && c->name && name && !strcmp(c->name, name);
            if (!key || an_replay_file_match(c->file, t->file) < want)
                continue;
            r->used[i] = true;
            found = c;
            goto done;
        }
    }
done:
    free(red_name);
    free(red_id);
    return found;
}

static bool file_loaded(const struct an_suite *s, const char *file)
{
    for (size_t i = 0; i < s->ntests; i++)
        if (an_replay_same_file(s->tests[i].file, file))
            return true;
    return false;
}

int an_replay_suite(const struct an_suite *s, struct an_recording *rec,
                    const struct an_replay_opts *opts, struct an_run_result *out,
                    struct an_err *err)
{
    struct an_replay_opts defaults = AN_REPLAY_OPTS_INIT;
    const struct an_replay_opts *o = opts ? opts : &defaults;
    /* the secrets as `ananke run` knows them (the recording's hook
     * variables are redacted already: only their names are known) */
    struct an_redactor *red = an_redactor_new();
    for (size_t i = 0; i < o->nredact; i++) {
        int rc = an_redactor_add_regex(red, o->redact[i], err);
        if (rc) {
            an_redactor_free(red);
            return rc;
        }
    }
    struct an_vars none = AN_VARS_INIT;
    an_secrets_gather(red, &s->config, &none, NULL, NULL);
    out->start_ms = an_clock_unix_ms();
    out->config_path = s->config.path ? an_xstrdup(s->config.path) : NULL;
    out->parallel = 1;
    out->repeat = 1;
    out->pass_rate = 1.0;
    for (size_t i = 0; i < s->ntests; i++) {
        const struct an_test *t = &s->tests[i];
        struct an_test_result *r = pair(rec, t, red);
        struct an_test_result *res = an_run_result_add(out);
        replay_test(s, rec, t, r, res);
        an_test_result_redact(res, red);
        an_expected_apply(o->expected, res);
        if (o->on_test)
            o->on_test(res, o->ud);
    }
    for (size_t i = 0; o->on_warning && i < rec->results.ntests; i++) {
        const struct an_test_result *c = &rec->results.tests[i];
        if (rec->used[i] || (!o->whole_suite && !file_loaded(s, c->file)))
            continue;
        char msg[1024];
        snprintf(msg, sizeof msg,
                 "the recording has test '%.300s' (%.300s), which is not in the suite any more",
                 c->name ? c->name : "?", c->file ? c->file : "?");
        o->on_warning(msg, o->ud);
    }
    an_redactor_say_gave_up(red, o->on_warning, o->ud);
    out->end_ms = an_clock_unix_ms();
    an_redactor_free(red);
    return AN_OK;
}
