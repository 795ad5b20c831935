/*
 * A dynamic test on its recording (ananke/replay.h): the checkpoints are
 * judged again on each recorded turn with run/dynamic.c's rules (a
 * checkpoint counts only once every checkpoint it comes `after` is
 * reached, on an earlier or the same turn; rounds on one turn until
 * nothing changes; the loop ends when every required one is reached or at
 * max_turns). What only the simulator knew is taken as recorded: that the
 * goal was achieved after the last recorded turn, and the case's timeout.
 * A conversation that would now go on past the recorded turns cannot be
 * replayed: that is an ERROR saying so.
 */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "run/dynamic.h"
#include "run/replay_int.h"
#include "run/replay_judge.h"

/* The recorded evidence when the run reached the checkpoint on the same
 * turn (the same checks held on the same data), else a plain note. */
static char *evidence(const struct an_dynamic_result *rd, const char *id, int turn)
{
    for (size_t i = 0; i < rd->ncheckpoints; i++)
        if (rd->checkpoints[i].id && !strcmp(rd->checkpoints[i].id, id) &&
            rd->checkpoints[i].reached_at_turn == turn && rd->checkpoints[i].evidence)
            return an_xstrdup(rd->checkpoints[i].evidence);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "replayed: its checks hold on turn %d", turn + 1);
    return an_buf_detach(&b, NULL);
}

/* Checkpoints on turn t; false when one of them broke (the test errs). */
static bool judge_turn(struct an_replay_test *x, struct an_dyn_run *r, int t)
{
    struct an_transcript *tr = &x->out->transcript;
    struct an_scope s = an_scope_turn(tr, (size_t)t);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < r->d->ncheckpoints; i++) {
            const struct an_checkpoint *cp = &r->d->checkpoints[i];
            if (r->reached_at[i] >= 0 || !an_dyn_after_met(r, cp))
                continue;
            struct an_findings scratch = {0};
            struct an_err err = AN_ERR_INIT;
            long v = an_replay_block(&cp->blk, &s, tr->turns[t].input, x->cfg->dir,
                                     &x->rec->judgements, true, &scratch, &r->judgements, &err);
            an_findings_release(&scratch);
            if (v < 0) {
                char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
                an_replay_error(x->out, err.code, t, "checkpoint '%s': %s", cp->id,
                                an_err_format(&err, buf, sizeof buf));
                return false;
            }
            if (v == 0) {
                r->reached_at[i] = t;
                r->evidence[i] = evidence(x->rec->dyn, cp->id, t);
                changed = true;
            }
        }
    }
    return true;
}

/* The loop ran out of recorded turns before it ended. */
static void beyond(struct an_replay_test *x, const struct an_dyn_run *r, size_t k)
{
    const struct an_dynamic_result *rd = x->rec->dyn;
    struct an_buf b = AN_BUF_INIT, miss = AN_BUF_INIT;
    for (size_t i = 0; i < r->d->ncheckpoints; i++)
        if (r->d->checkpoints[i].required && r->reached_at[i] < 0)
            an_buf_printf(&miss, "%s%s", miss.len ? ", " : "", r->d->checkpoints[i].id);
    an_buf_printf(&b, "the recorded conversation ended after %zu turn%s (%s)", k, k == 1 ? "" : "s",
                  an_dyn_end_name(rd->end));
    if (rd->end == AN_DYN_MAX_TURNS || !miss.len)
        an_buf_printf(&b, "; the test allows %lld turns now", (long long)r->d->max_turns);
    else
        an_buf_printf(&b, "; now %s %s not reached by then", an_buf_cstr(&miss),
                      strchr(an_buf_cstr(&miss), ',') ? "are" : "is");
    an_buf_puts(&b, ", and replay cannot ask the simulator for more turns; record the run again");
    an_replay_error(x->out, AN_ENOTFOUND, (int)k - 1, "%s", an_buf_cstr(&b));
    an_buf_release(&b);
    an_buf_release(&miss);
}

void an_replay_dynamic(struct an_replay_test *x)
{
    const struct an_dynamic *d = x->test->dyn;
    const struct an_dynamic_result *rd = x->rec->dyn;
    struct an_test_result *out = x->out;
    struct an_transcript *tr = &out->transcript;
    if (!rd) {
        an_replay_error(out, AN_ENOTFOUND, -1,
                        "the recording is of a static test, and this one is dynamic now; record "
                        "the run again");
        return;
    }
    struct an_dyn_run r;
    an_dyn_init(&r, d, 0, rd->seed);
    r.reasoning = an_xcalloc(rd->nreasoning + 1, sizeof *r.reasoning);
    for (size_t i = 0; i < rd->nreasoning; i++)
        r.reasoning[i] = rd->reasoning[i] ? an_xstrdup(rd->reasoning[i]) : NULL;
    r.nreasoning = rd->nreasoning;
    size_t k = 0; /* turns the recorded run sent */
    while (k < tr->nturns && tr->turns[k].status != AN_TURN_NOT_RUN)
        k++;
    an_replay_cut(tr, k, x->test, k);

    for (size_t t = 0; t < k && r.end == AN_DYN_NONE; t++) {
        struct an_turn_rec *turn = &tr->turns[t];
        if (turn->status == AN_TURN_ERROR && t + 1 == k && rd->end == AN_DYN_TIMEOUT) {
            r.end = AN_DYN_TIMEOUT; /* the case's timeout cut this turn */
            break;
        }
        if (turn->status == AN_TURN_ERROR) {
            bool this = x->rec->error_turn == (int)t && x->rec->error_code;
            an_replay_error(out, this ? x->rec->error_code : AN_EPROTO, (int)t, "%s (as recorded)",
                            turn->error ? turn->error : "the turn failed");
            out->timed_out = x->rec->timed_out;
            an_replay_cut(tr, t + 1, x->test, t + 1);
            break;
        }
        if (!an_replay_turn_checks(x, t))
            break;
        if (!judge_turn(x, &r, (int)t)) {
            an_replay_cut(tr, t + 1, x->test, t + 1);
            break;
        }
        if (t + 1 == k && rd->end == AN_DYN_GOAL)
            r.end = AN_DYN_GOAL; /* the simulator's word, as recorded */
        else if (an_dyn_all_required(&r))
            r.end = AN_DYN_ALL_REACHED;
        else if ((int64_t)t + 1 >= d->max_turns)
            r.end = AN_DYN_MAX_TURNS;
        if (r.end != AN_DYN_NONE && t + 1 < k) {
            an_turn_warn(turn,
                         "replay: the loop ends here now; the recording has %zu more "
                         "turn%s",
                         k - t - 1, k - t - 1 == 1 ? "" : "s");
            an_replay_cut(tr, t + 1, x->test, t + 1);
        }
    }
    if (r.end == AN_DYN_NONE && out->status == AN_STATUS_PASS) {
        if (rd->end == AN_DYN_GOAL || rd->end == AN_DYN_TIMEOUT)
            r.end = rd->end; /* no turn to judge after it (GOAL before any turn) */
        else if (rd->end == AN_DYN_BROKEN)
            an_replay_error(out, x->rec->error_code ? x->rec->error_code : AN_EPROTO,
                            x->rec->error_turn, "%s (as recorded)",
                            x->rec->error ? x->rec->error : "the dynamic test broke");
        else
            beyond(x, &r, k);
    }
    if (r.end == AN_DYN_NONE)
        r.end = AN_DYN_BROKEN; /* as run/job.c's finish() says of a loop cut short */
    const char *sim = d->simulator ? d->simulator->name : rd->simulator;
    an_dyn_result(&r, tr, sim, out);
    an_dyn_release(&r);
    if (out->status != AN_STATUS_PASS)
        return;
    if (out->findings.n) {
        out->status = AN_STATUS_FAIL;
        return;
    }
    an_replay_test_checks(x);
}
