#include "results_fixture.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

struct an_test_result *fx_test(struct an_run_result *r, const char *name, const char *file,
                               enum an_status status, int64_t start_ms, int64_t end_ms)
{
    struct an_test_result *t = an_run_result_add(r);
    t->name = dup_or_null(name);
    t->file = dup_or_null(file);
    t->status = status;
    t->start_ms = start_ms;
    t->end_ms = end_ms;
    return t;
}

void fx_error(struct an_test_result *t, enum an_code code, int turn, const char *msg)
{
    t->error = dup_or_null(msg);
    t->error_code = code;
    t->error_turn = turn;
}

void fx_vars(struct an_test_result *t, const char *const *names, size_t n)
{
    t->var_names = calloc(n, sizeof *t->var_names);
    for (size_t i = 0; i < n; i++)
        t->var_names[i] = strdup(names[i]);
    t->nvar_names = n;
}

struct an_turn_rec *fx_turn(struct an_transcript *tr, const char *input, const char *text,
                            int64_t start_ms, int64_t end_ms)
{
    struct an_turn_rec *r = an_transcript_add_turn(tr, "user");
    r->input = dup_or_null(input);
    r->text = dup_or_null(text);
    r->start_ms = start_ms;
    r->end_ms = end_ms;
    return r;
}

struct an_tool_call *fx_call(struct an_transcript *tr, unsigned turn, const char *name,
                             json_t *args, json_t *result)
{
    struct an_tool_call *c = an_transcript_add_call(tr, turn);
    tr->turns[turn].ncalls++;
    c->name = dup_or_null(name);
    c->args = args;
    c->result = result;
    return c;
}

struct an_run_result fx_mixed_run(void)
{
    const int64_t t0 = 1737100000000LL;
    struct an_run_result r = {0};
    struct an_test_result *t;
    struct an_turn_rec *tr;

    r.start_ms = t0;
    r.end_ms = t0 + 1420;
    r.config_path = strdup("ananke.config.yaml");
    r.repeat = 3;

    t = fx_test(&r, "T001 \xE2\x80\x94 greeting", "cases.jsonl", AN_STATUS_PASS, t0, t0 + 812);
    t->id = strdup("T001");
    t->nhistory = 2;
    fx_turn(&t->transcript, "Hello", "Hi there", t0, t0 + 800);

    t = fx_test(&r, "T002", "cases.jsonl", AN_STATUS_FAIL, t0 + 900, t0 + 940);
    t->id = strdup("T002");
    fx_turn(&t->transcript, "Bye | now", "Later.", t0 + 900, t0 + 930);
    an_findings_add(&t->findings, "check.contains", -1, "cases.jsonl", 2, 40,
                    "Output must contain \"ciao\"", "the text \"ciao\"", NULL, NULL);

    t = fx_test(&r, "slow agent", "slow.test.yaml", AN_STATUS_ERROR, t0 + 1000, t0 + 1500);
    fx_error(t, AN_ETIMEOUT, 0, "test timed out after 500 ms");
    t->timed_out = true;
    tr = fx_turn(&t->transcript, "wait", NULL, t0 + 1000, t0 + 1500);
    an_turn_fail(tr, AN_ETIMEOUT, "test timed out after 500 ms");

    t = fx_test(&r, "agent down", "down.test.yaml", AN_STATUS_ERROR, t0 + 1500, t0 + 1503);
    fx_error(t, AN_ECONNECT, 0, "cannot reach http://127.0.0.1:9/agent: refused");
    tr = fx_turn(&t->transcript, "hi", NULL, 0, 0);
    an_turn_fail(tr, AN_ECONNECT, "refused");
    fx_turn(&t->transcript, "again", NULL, 0, 0)->status = AN_TURN_NOT_RUN;

    t = fx_test(&r, "T003 \xE2\x80\x94 later", "cases.jsonl", AN_STATUS_SKIP, t0, t0);
    t->id = strdup("T003");

    t = fx_test(&r, "flaky", "flaky.test.yaml", AN_STATUS_PASS, t0 + 1300, t0 + 1360);
    fx_turn(&t->transcript, "roll", "4", t0 + 1330, t0 + 1360);
    t->runs = 3;
    t->passes = 2;
    t->attempts = calloc(3, sizeof *t->attempts);
    for (unsigned i = 0; i < 3; i++) {
        t->attempts[i].status = i == 1 ? AN_STATUS_FAIL : AN_STATUS_PASS;
        t->attempts[i].duration_ms = 10 * (i + 1);
    }
    t->attempts[1].summary = strdup("Text must match /4/");
    return r;
}

struct an_checkpoint_result *fx_checkpoint(struct an_test_result *t, const char *id,
                                           const char *description, bool required, int turn,
                                           const char *evidence)
{
    struct an_dynamic_result *d = t->dyn;
    if (!d) {
        d = t->dyn = calloc(1, sizeof *d);
        d->seed = -1;
    }
    d->checkpoints = realloc(d->checkpoints, (d->ncheckpoints + 1) * sizeof *d->checkpoints);
    struct an_checkpoint_result *c = &d->checkpoints[d->ncheckpoints++];
    memset(c, 0, sizeof *c);
    c->id = dup_or_null(id);
    c->description = dup_or_null(description);
    c->required = required;
    c->reached_at_turn = turn;
    c->evidence = dup_or_null(evidence);
    return c;
}

/* The simulator's reasoning per turn; NULL entries allowed. */
static void fx_reasoning(struct an_dynamic_result *d, const char *const *why, size_t n)
{
    d->reasoning = calloc(n, sizeof *d->reasoning);
    for (size_t i = 0; i < n; i++)
        d->reasoning[i] = dup_or_null(why[i]);
    d->nreasoning = n;
}

struct an_run_result fx_dynamic_run(void)
{
    const int64_t t0 = 1737100000000LL;
    struct an_run_result r = {0};
    struct an_test_result *t;

    r.start_ms = t0;
    r.end_ms = t0 + 9000;

    t = fx_test(&r, "T004 \xE2\x80\x94 expense coverage", "cases.jsonl", AN_STATUS_FAIL, t0,
                t0 + 6800);
    t->id = strdup("T004");
    fx_turn(&t->transcript, "Help me file an expense", "What type of expense is it?", t0 + 100,
            t0 + 1300);
    fx_turn(&t->transcript, "Client dinner, $250", "Anything else?", t0 + 1300, t0 + 3000);
    fx_turn(&t->transcript, "No, that's all", "Created it.", t0 + 3000, t0 + 6700);
    fx_call(&t->transcript, 2, "create_expense", json_pack("{s:i}", "amount", 250),
            json_pack("{s:s}", "id", "E-1"));
    fx_checkpoint(t, "ask_type", "Agent asks for expense type", true, 0, "text contains \"type\"");
    fx_checkpoint(t, "call_create", "Agent calls create_expense", false, 2,
                  "create_expense({\"amount\":250})");
    fx_checkpoint(t, "confirm", "Agent confirms submission", true, -1, NULL);
    t->dyn->end = AN_DYN_MAX_TURNS;
    t->dyn->simulator = strdup("user-sim");
    t->dyn->seed = 42;
    fx_reasoning(
        t->dyn,
        (const char *const[]){"Start by asking for help", NULL, "The agent has not confirmed yet"},
        3);
    an_findings_add(&t->findings, "dynamic.max_turns", -1, "cases.jsonl", 4, 1,
                    "max turns (3) exceeded without reaching all checkpoints",
                    "every required checkpoint reached", "missing: confirm", NULL);

    t = fx_test(&r, "greets back", "dyn.test.yaml", AN_STATUS_PASS, t0 + 7000, t0 + 7500);
    fx_turn(&t->transcript, "hi", "Hello!", t0 + 7000, t0 + 7400);
    fx_checkpoint(t, "greet", NULL, true, 0, NULL);
    t->dyn->end = AN_DYN_ALL_REACHED;
    t->dyn->simulator = strdup("user-sim");
    fx_reasoning(t->dyn, (const char *const[]){NULL, "Greeted back: goal achieved"}, 2);
    return r;
}
