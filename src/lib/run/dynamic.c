/* Dynamic tests: checkpoints, the loop's end, the simulator (dynamic.h). */
#include "run/dynamic.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "ananke/check_kind.h"
#include "ananke/target_type.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/adapter.h"
#include "run/judge.h"
#include "run/script_check.h"
#include "run/trace.h"

#define EVIDENCE_CUT 200

static const char *const instruction =
    "You are simulating a user talking to an AI agent. The JSON object below gives your "
    "persona and goal, the conversation so far, the turn number, and which checkpoints the "
    "agent has reached and which are pending. Write the user's next message to move toward "
    "the goal. Answer with only a JSON object: {\"message\": \"the user's next message\", "
    "\"goal_achieved\": true or false, \"reasoning\": \"one sentence\"}. Set goal_achieved "
    "to true when the goal is reached (the message may then be empty).\n\n";

void an_dyn_init(struct an_dyn_run *r, const struct an_dynamic *d, int64_t start_mono, int64_t seed)
{
    memset(r, 0, sizeof *r);
    r->d = d;
    r->reached_at = an_xmalloc((d->ncheckpoints ? d->ncheckpoints : 1) * sizeof *r->reached_at);
    for (size_t i = 0; i < d->ncheckpoints; i++)
        r->reached_at[i] = -1;
    r->evidence = an_xcalloc(d->ncheckpoints ? d->ncheckpoints : 1, sizeof *r->evidence);
    r->missed = an_xcalloc(d->ncheckpoints ? d->ncheckpoints : 1, sizeof *r->missed);
    r->deadline_mono = start_mono + d->timeout_ms;
    r->seed = seed;
    r->err_turn = -1;
}

void an_dyn_release(struct an_dyn_run *r)
{
    if (!r->d)
        return;
    free(r->reached_at);
    for (size_t i = 0; i < r->d->ncheckpoints; i++) {
        free(r->evidence[i]);
        free(r->missed[i]);
    }
    free(r->evidence);
    free(r->missed);
    for (size_t i = 0; i < r->nreasoning; i++)
        free(r->reasoning[i]);
    free(r->reasoning);
    free(r->sim_start_ms);
    free(r->sim_end_ms);
    free(r->sim_span_id);
    free(r->next);
    free(r->err_msg);
    an_findings_release(&r->findings);
    an_judgements_release(&r->judgements);
    memset(r, 0, sizeof *r);
}

static void broken(struct an_dyn_run *r, int code, int turn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void broken(struct an_dyn_run *r, int code, int turn, const char *fmt, ...)
{
    struct an_buf b = AN_BUF_INIT;
    va_list ap;
    va_start(ap, fmt);
    an_buf_vprintf(&b, fmt, ap);
    va_end(ap);
    free(r->err_msg);
    r->err_msg = an_buf_detach(&b, NULL);
    r->err_code = code;
    r->err_turn = turn;
    r->end = AN_DYN_BROKEN;
}

/* ---- checkpoints ---- */

bool an_dyn_after_met(const struct an_dyn_run *r, const struct an_checkpoint *cp)
{
    for (size_t a = 0; a < cp->nafter; a++)
        for (size_t k = 0; k < r->d->ncheckpoints; k++)
            if (!strcmp(r->d->checkpoints[k].id, cp->after[a]) && r->reached_at[k] < 0)
                return false;
    return true;
}

bool an_dyn_all_required(const struct an_dyn_run *r)
{
    for (size_t i = 0; i < r->d->ncheckpoints; i++)
        if (r->d->checkpoints[i].required && r->reached_at[i] < 0)
            return false;
    return true;
}

/* What satisfied a checkpoint: the calls its tool checks looked at, the
 * text its text checks looked at, the reason of its judge. */
static char *evidence_of(const struct an_checkpoint *cp, const struct an_scope *s,
                         const struct an_judgements *js, size_t first_judgement)
{
    struct an_buf b = AN_BUF_INIT;
    bool tools = false, text = false;
    for (size_t i = 0; i < cp->blk.nchecks; i++) {
        const struct an_check_kind_def *d = an_check_kind_get(cp->blk.checks[i].kind);
        tools |= d && d->tools;
        text |= d && d->pure && !d->tools;
    }
    if (tools) {
        for (size_t i = 0; i < s->ncalls && i < 5; i++) {
            const struct an_tool_call *c = &s->calls[i];
            an_buf_printf(&b, "%scalled %s(", b.len ? "; " : "", c->name ? c->name : "?");
            const char *a = c->args_text ? c->args_text : "";
            size_t n = strlen(a);
            an_buf_append(&b, a, n > 80 ? 80 : n);
            an_buf_puts(&b, n > 80 ? "…)" : ")");
        }
        if (!s->ncalls)
            an_buf_puts(&b, "no tool call");
    }
    if (text) {
        const char *t = s->text ? s->text : "";
        size_t n = strlen(t);
        char *ex = an_utf8_lossy(t, n > EVIDENCE_CUT ? EVIDENCE_CUT : n);
        an_buf_printf(&b, "%stext: \"%s%s\"", b.len ? "; " : "", ex, n > EVIDENCE_CUT ? "…" : "");
        free(ex);
    }
    for (size_t i = first_judgement; i < js->n; i++)
        an_buf_printf(&b, "%sjudge '%s': %s", b.len ? "; " : "", js->v[i].agent,
                      js->v[i].reason ? js->v[i].reason : "accepted");
    if (!b.len)
        an_buf_puts(&b, "script checks passed");
    char *e = an_buf_detach(&b, NULL);
    return e ? e : an_xstrdup("");
}

/* "turn N: LABEL: ACTUAL" of a checkpoint's first failed check. */
static char *why_missed(const struct an_findings *f, int turn)
{
    if (!f->n)
        return NULL;
    const struct an_finding *x = &f->v[0];
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "turn %d: %s", turn + 1, x->assertion ? x->assertion : x->kind);
    if (x->actual && x->actual[0])
        an_buf_printf(&b, ": %s", x->actual);
    return an_buf_detach(&b, NULL);
}

/* All of the checkpoint's checks on one turn: 1 hold, 0 not (*why: its
 * first failed check and what was found), -1 a judge or script broke (r
 * says why). */
static int judge_checkpoint(struct an_dyn_run *r, const struct an_checkpoint *cp,
                            const struct an_scope *s, const char *input, const struct an_vars *vars,
                            const char *dir, const struct an_target_over *over, char **evidence,
                            char **why)
{
    struct an_findings scratch = {0};
    size_t nf = an_check(&cp->blk, s, &scratch);
    if (nf) {
        *why = why_missed(&scratch, s->turn);
        an_findings_release(&scratch);
        return 0;
    }
    size_t ns = 0, na = 0, before = r->judgements.n;
    struct an_err err = AN_ERR_INIT;
    int rc = an_script_checks(&cp->blk, s, input, dir, &scratch, &ns, &err);
    if (!rc && !ns)
        rc = an_judge_checks(&cp->blk, s, input, vars, dir, over, &scratch, &na, &r->judgements,
                             &err);
    if (!rc && (ns || na))
        *why = why_missed(&scratch, s->turn);
    an_findings_release(&scratch);
    if (rc) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        broken(r, rc, s->turn, "checkpoint '%s': %s", cp->id, an_err_format(&err, buf, sizeof buf));
        return -1;
    }
    if (ns || na)
        return 0;
    *evidence = evidence_of(cp, s, &r->judgements, before);
    return 1;
}

static void judge_turn(struct an_dyn_run *r, const struct an_transcript *tr, int turn,
                       const struct an_vars *vars, const char *dir,
                       const struct an_target_over *over)
{
    struct an_scope s = an_scope_turn(tr, (size_t)turn);
    const char *input = tr->turns[turn].input;
    /* rounds until nothing changes: a checkpoint reached now lets one that
     * comes after it be reached on the same turn */
    for (bool changed = true; changed && r->end == AN_DYN_NONE;) {
        changed = false;
        for (size_t i = 0; i < r->d->ncheckpoints && r->end == AN_DYN_NONE; i++) {
            const struct an_checkpoint *cp = &r->d->checkpoints[i];
            if (r->reached_at[i] >= 0 || !an_dyn_after_met(r, cp))
                continue; /* matching too early does not count */
            char *ev = NULL, *why = NULL;
            int v = judge_checkpoint(r, cp, &s, input, vars, dir, over, &ev, &why);
            if (v == 1) {
                r->reached_at[i] = turn;
                r->evidence[i] = ev;
                free(r->missed[i]);
                r->missed[i] = NULL;
                changed = true;
            } else if (why) { /* the latest turn's reason wins */
                free(r->missed[i]);
                r->missed[i] = why;
            }
        }
    }
}

/* ---- the simulator ---- */

static json_t *simulator_input(const struct an_dyn_run *r, const struct an_transcript *tr,
                               int next_turn)
{
    const struct an_dynamic *d = r->d;
    json_t *in = json_object();
    json_object_set_new(in, "test_mode", json_string("simulator"));
    json_t *md = d->simulator_options ? json_object_get(d->simulator_options, "metadata") : NULL;
    const char *k;
    json_t *v;
    json_object_foreach(md, k, v)
    {
        json_object_set(in, k, v);
    }
    json_t *conv = json_array();
    for (size_t i = 0; i < tr->nturns; i++) {
        const struct an_turn_rec *t = &tr->turns[i];
        if (t->input)
            json_array_append_new(conv, json_pack("{s:s,s:o}", "role", "user", "content",
                                                  an_json_lossy(t->input, strlen(t->input))));
        const char *txt = t->text ? t->text : "";
        json_t *m =
            json_pack("{s:s,s:o}", "role", "assistant", "content", an_json_lossy(txt, strlen(txt)));
        if (t->ncalls) {
            json_t *calls = json_array();
            for (size_t c = t->first_call; c < t->first_call + t->ncalls; c++)
                json_array_append_new(calls,
                                      json_string(tr->calls[c].name ? tr->calls[c].name : ""));
            json_object_set_new(m, "tool_calls", calls);
        }
        json_array_append_new(conv, m);
    }
    json_object_set_new(in, "conversation", conv);
    json_object_set_new(in, "turn_number", json_integer(next_turn + 1));
    json_object_set_new(in, "max_turns", json_integer(d->max_turns));
    json_t *reached = json_array(), *pending = json_array();
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint *cp = &d->checkpoints[i];
        if (r->reached_at[i] >= 0) {
            json_array_append_new(reached, json_string(cp->id));
        } else {
            json_t *p = json_pack("{s:s}", "id", cp->id);
            if (cp->description)
                json_object_set_new(p, "description", json_string(cp->description));
            json_array_append_new(pending, p);
        }
    }
    json_object_set_new(in, "checkpoints_reached", reached);
    json_object_set_new(in, "checkpoints_pending", pending);
    if (r->seed >= 0)
        json_object_set_new(in, "seed", json_integer(r->seed));
    return in;
}

static void add_reasoning(struct an_dyn_run *r, int turn, const char *why)
{
    while (r->nreasoning <= (size_t)turn) {
        r->reasoning = an_xrealloc(r->reasoning, (r->nreasoning + 1) * sizeof *r->reasoning);
        r->reasoning[r->nreasoning++] = NULL;
    }
    free(r->reasoning[turn]);
    r->reasoning[turn] = why ? an_xstrdup(why) : NULL;
}

/* The simulator's answer: JSON {message|input, goal_achieved, reasoning},
 * or plain text taken as the message. */
static void read_answer(struct an_dyn_run *r, const char *text, int next_turn)
{
    const char *t = text ? text : "";
    size_t n = strlen(t);
    while (n && strchr(" \t\r\n", t[n - 1]))
        n--;
    while (n && strchr(" \t\r\n", *t)) {
        t++;
        n--;
    }
    if (n >= 6 && !strncmp(t, "```", 3) && !strncmp(t + n - 3, "```", 3)) {
        const char *nl = memchr(t, '\n', n);
        size_t skip = nl ? (size_t)(nl - t) + 1 : 3;
        t += skip;
        n -= skip + 3;
    }
    json_t *j = n && *t == '{' ? json_loadb(t, n, 0, NULL) : NULL;
    if (!json_is_object(j)) {
        json_decref(j);
        if (!n) {
            broken(r, AN_EPROTO, next_turn, "simulator error: it answered an empty message");
            return;
        }
        r->next = an_utf8_lossy(t, n); /* plain text is the message */
        return;
    }
    json_t *m = json_object_get(j, "message");
    if (!m)
        m = json_object_get(j, "input");
    json_t *goal = json_object_get(j, "goal_achieved");
    const char *why = an_json_str(j, "reasoning");
    add_reasoning(r, next_turn, why);
    if ((m && !json_is_string(m)) || (goal && !json_is_boolean(goal))) {
        char *c = an_json_compact(j);
        broken(r, AN_EPROTO, next_turn,
               "simulator error: 'message' must be a string and 'goal_achieved' true or false: "
               "%.300s",
               c);
        free(c);
        json_decref(j);
        return;
    }
    const char *msg = json_string_value(m);
    bool achieved = json_is_true(goal);
    if (msg && msg[strspn(msg, " \t\r\n")]) {
        r->next = an_xstrdup(msg);
        r->last = achieved;
    } else if (achieved) {
        r->end = AN_DYN_GOAL; /* nothing more to say */
    } else {
        char *c = an_json_compact(j);
        broken(r, AN_EPROTO, next_turn,
               "simulator error: no message and the goal is not achieved: %.300s", c);
        free(c);
    }
    json_decref(j);
}

/* When the simulator was asked for turn `turn`'s message, and in which
 * span (traces). */
static void sim_timed(struct an_dyn_run *r, int turn, int64_t start_ms, const char *span)
{
    if (turn < 0)
        return;
    while (r->nsim <= (size_t)turn) {
        size_t n = r->nsim + 1;
        r->sim_start_ms = an_xrealloc(r->sim_start_ms, n * sizeof *r->sim_start_ms);
        r->sim_end_ms = an_xrealloc(r->sim_end_ms, n * sizeof *r->sim_end_ms);
        r->sim_span_id = an_xrealloc(r->sim_span_id, n * sizeof *r->sim_span_id);
        r->sim_start_ms[r->nsim] = r->sim_end_ms[r->nsim] = 0;
        r->sim_span_id[r->nsim][0] = '\0';
        r->nsim++;
    }
    r->sim_start_ms[turn] = start_ms;
    r->sim_end_ms[turn] = an_clock_unix_ms();
    memcpy(r->sim_span_id[turn], span, 17);
}

static void simulate(struct an_dyn_run *r, const struct an_transcript *tr, int next_turn,
                     const struct an_vars *vars, const char *dir, const struct an_target_over *over)
{
    const struct an_agent *agent = r->d->simulator;
    json_t *in = simulator_input(r, tr, next_turn);
    char *body = json_dumps(in, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(in);
    struct an_buf msg = AN_BUF_INIT;
    if (agent->target.type->bare_model)
        an_buf_puts(&msg, instruction);
    an_buf_puts(&msg, body);
    free(body);

    struct an_target_over o = over ? *over : (struct an_target_over){0};
    int64_t left = r->deadline_mono - an_clock_mono_ms();
    if (left < 1)
        left = 1;
    if (!o.timeout_ms || left < o.timeout_ms)
        o.timeout_ms = left;
    struct an_target_conf *conf = NULL;
    struct an_session *sess = NULL;
    struct an_transcript st;
    an_transcript_init(&st);
    struct an_err err = AN_ERR_INIT;
    if (an_target_open(&agent->target, NULL, vars, NULL, dir, &o, &conf, &sess, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        broken(r, err.code, next_turn, "simulator error: '%s' could not be started: %s",
               agent->name, an_err_format(&err, buf, sizeof buf));
    } else {
        struct an_turn_rec *rec = an_transcript_add_turn(&st, "user");
        rec->input = an_xstrdup(an_buf_cstr(&msg));
        rec->drop_frames = true;
        char span[17];
        an_trace_helper(r->trace_id, span, rec);
        int64_t t0 = an_clock_unix_ms();
        an_session_turn(sess, &st, an_buf_cstr(&msg));
        sim_timed(r, next_turn, t0, span);
        rec = &st.turns[0];
        if (an_clock_mono_ms() >= r->deadline_mono)
            r->end = AN_DYN_TIMEOUT;
        else if (rec->status == AN_TURN_ERROR)
            broken(r, rec->error_code ? rec->error_code : AN_EPROTO, next_turn,
                   "simulator error: %s", rec->error ? rec->error : "the turn failed");
        else
            read_answer(r, rec->text, next_turn);
    }
    an_session_free(sess);
    an_target_conf_free(conf);
    an_transcript_release(&st);
    an_buf_release(&msg);
}

void an_dyn_step(struct an_dyn_run *r, const struct an_transcript *tr, int turn,
                 const struct an_vars *vars, const char *dir, const struct an_target_over *over)
{
    free(r->next);
    r->next = NULL;
    if (turn >= 0) {
        judge_turn(r, tr, turn, vars, dir, over);
        if (r->end != AN_DYN_NONE)
            return;
        if (r->last) { /* the simulator's last message was answered */
            r->end = AN_DYN_GOAL;
            return;
        }
        if (an_dyn_all_required(r)) {
            r->end = AN_DYN_ALL_REACHED;
            return;
        }
        if (turn + 1 >= r->d->max_turns) {
            r->end = AN_DYN_MAX_TURNS;
            return;
        }
        if (an_clock_mono_ms() >= r->deadline_mono) {
            r->end = AN_DYN_TIMEOUT;
            return;
        }
    }
    simulate(r, tr, turn + 1, vars, dir, over);
}

void an_dyn_timed_out(struct an_dyn_run *r, int turn)
{
    (void)turn;
    free(r->next);
    r->next = NULL;
    r->end = AN_DYN_TIMEOUT;
}

/* ---- the result ---- */

static void missing(const struct an_dyn_run *r, struct an_buf *b)
{
    for (size_t i = 0; i < r->d->ncheckpoints; i++)
        if (r->d->checkpoints[i].required && r->reached_at[i] < 0)
            an_buf_printf(b, "%s%s", b->len ? ", " : "", r->d->checkpoints[i].id);
}

static void fail(struct an_dyn_run *r, struct an_test_result *res, const char *kind,
                 const char *label, int turns)
{
    struct an_buf exp = AN_BUF_INIT, act = AN_BUF_INIT, miss = AN_BUF_INIT;
    for (size_t i = 0; i < r->d->ncheckpoints; i++)
        if (r->d->checkpoints[i].required)
            an_buf_printf(&exp, "%s%s",
                          exp.len ? ", " : "every required checkpoint: ", r->d->checkpoints[i].id);
    missing(r, &miss);
    size_t nreached = 0;
    for (size_t i = 0; i < r->d->ncheckpoints; i++)
        nreached += r->reached_at[i] >= 0;
    an_buf_printf(&act, "%zu of %zu reached after %d turn%s; missing: %s", nreached,
                  r->d->ncheckpoints, turns, turns == 1 ? "" : "s", an_buf_cstr(&miss));
    const struct an_loc *l = &r->d->loc;
    an_findings_add(&res->findings, kind, -1, l->file, l->line, l->col, label, an_buf_cstr(&exp),
                    an_buf_cstr(&act), NULL);
    an_buf_release(&exp);
    an_buf_release(&act);
    an_buf_release(&miss);
}

void an_dyn_result(struct an_dyn_run *r, const struct an_transcript *tr, const char *simulator,
                   struct an_test_result *res)
{
    const struct an_dynamic *d = r->d;
    struct an_dynamic_result *out = an_xcalloc(1, sizeof *out);
    out->end = r->end;
    out->simulator = an_xstrdup(simulator ? simulator : "");
    out->seed = r->seed;
    out->ncheckpoints = d->ncheckpoints;
    out->checkpoints = an_xcalloc(d->ncheckpoints ? d->ncheckpoints : 1, sizeof *out->checkpoints);
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        struct an_checkpoint_result *c = &out->checkpoints[i];
        c->id = an_xstrdup(d->checkpoints[i].id);
        c->description = d->checkpoints[i].description ? an_xstrdup(d->checkpoints[i].description)
                                                       : NULL;
        c->required = d->checkpoints[i].required;
        c->reached_at_turn = r->reached_at[i];
        c->evidence = r->evidence[i];
        r->evidence[i] = NULL;
        c->missed = r->reached_at[i] < 0 ? r->missed[i] : NULL;
        if (c->missed)
            r->missed[i] = NULL;
    }
    out->reasoning = r->reasoning;
    out->nreasoning = r->nreasoning;
    r->reasoning = NULL;
    r->nreasoning = 0;
    out->sim_start_ms = r->sim_start_ms;
    out->sim_end_ms = r->sim_end_ms;
    out->sim_span_id = r->sim_span_id;
    out->nsim = r->nsim;
    r->sim_span_id = NULL;
    r->sim_start_ms = r->sim_end_ms = NULL;
    r->nsim = 0;
    an_judgements_move(&res->judgements, &r->judgements);
    int turns = (int)tr->nturns;
    char label[200];
    switch (r->end) {
    case AN_DYN_MAX_TURNS:
        snprintf(label, sizeof label,
                 "Every required checkpoint must be reached within max_turns (%lld)",
                 (long long)d->max_turns);
        fail(r, res, "dynamic.max_turns", label, turns);
        break;
    case AN_DYN_TIMEOUT:
        snprintf(label, sizeof label,
                 "Every required checkpoint must be reached within the timeout (%lld ms)",
                 (long long)d->timeout_ms);
        fail(r, res, "dynamic.timeout", label, turns);
        break;
    case AN_DYN_GOAL:
        if (!an_dyn_all_required(r))
            fail(r, res, "dynamic.goal_achieved",
                 "The simulator said the goal is achieved, but required checkpoints were not "
                 "reached",
                 turns);
        break;
    default:
        break;
    }
    res->dyn = out;
}
