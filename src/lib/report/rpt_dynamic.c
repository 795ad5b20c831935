/* A dynamic test as text (report/rpt_dynamic.h). */
#include "report/rpt_dynamic.h"

#include <string.h>

#include "core/result_metrics.h"
#include "report/rpt_evidence.h"
#include "report/rpt_text.h"

size_t an_rpt_dyn_reached(const struct an_dynamic_result *d)
{
    size_t n = 0;
    for (size_t i = 0; d && i < d->ncheckpoints; i++)
        n += d->checkpoints[i].reached_at_turn >= 0;
    return n;
}

const char *an_rpt_dyn_end(enum an_dyn_end e)
{
    switch (e) {
    case AN_DYN_ALL_REACHED:
        return "all reached";
    case AN_DYN_GOAL:
        return "goal achieved";
    case AN_DYN_MAX_TURNS:
        return "max turns";
    case AN_DYN_TIMEOUT:
        return "timeout";
    case AN_DYN_BROKEN:
        return "error";
    case AN_DYN_NONE:
        break;
    }
    return "not ended";
}

/* "ID (DESCRIPTION)", or "ID" alone. */
static void checkpoint_name(struct an_buf *b, const struct an_checkpoint_result *c, size_t cut)
{
    an_rpt_str(b, c->id ? c->id : "?", cut, NULL, 0);
    if (c->description && c->description[0]) {
        an_buf_puts(b, " (");
        an_rpt_str(b, c->description, cut, NULL, 0);
        an_buf_putc(b, ')');
    }
}

/* "; LABEL: a, b" for the unreached checkpoints whose `required` is `req`. */
static void unreached(struct an_buf *b, const struct an_dynamic_result *d, bool req,
                      const char *label, size_t cut)
{
    bool first = true;
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        if (c->reached_at_turn >= 0 || c->required != req)
            continue;
        an_buf_puts(b, first ? "; " : ", ");
        if (first)
            an_buf_printf(b, "%s: ", label);
        first = false;
        an_rpt_str(b, c->id ? c->id : "?", cut, NULL, 0);
        if (req && c->missed && c->missed[0]) { /* the check that failed, and why */
            an_buf_puts(b, " (");
            an_rpt_str(b, c->missed, cut, NULL, 0);
            an_buf_putc(b, ')');
        }
    }
}

void an_rpt_dyn_outcome(struct an_buf *b, const struct an_test_result *t, size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    size_t turns = an_result_turns_run(&t->transcript);
    an_buf_printf(b, "%zu turn%s, %zu/%zu checkpoint%s (%s)", turns, turns == 1 ? "" : "s",
                  an_rpt_dyn_reached(d), d->ncheckpoints, d->ncheckpoints == 1 ? "" : "s",
                  an_rpt_dyn_end(d->end));
    unreached(b, d, true, "missing", cut);
    unreached(b, d, false, "optional, not reached", cut);
}

void an_rpt_dyn_simulator(struct an_buf *b, const struct an_test_result *t, const char *indent,
                          size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    an_buf_printf(b, "%ssimulator: ", indent);
    an_rpt_str(b, d->simulator ? d->simulator : "(unknown)", cut, NULL, 0);
    if (d->seed >= 0)
        an_buf_printf(b, " (seed %lld)", (long long)d->seed);
    an_buf_putc(b, '\n');
}

static void evidence(struct an_buf *b, const struct an_checkpoint_result *c, const char *indent,
                     size_t cut)
{
    if (!c->evidence || !c->evidence[0])
        return;
    an_buf_printf(b, "%s  evidence: ", indent);
    an_rpt_str(b, c->evidence, cut, NULL, 0);
    an_buf_putc(b, '\n');
}

void an_rpt_dyn_turn(struct an_buf *b, const struct an_test_result *t, size_t turn,
                     const char *indent, size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        if (c->reached_at_turn < 0 || (size_t)c->reached_at_turn != turn)
            continue;
        an_buf_printf(b, "%sreached: ", indent);
        checkpoint_name(b, c, cut);
        an_buf_putc(b, '\n');
        evidence(b, c, indent, cut);
    }
    if (turn < d->nreasoning && d->reasoning[turn]) {
        an_buf_printf(b, "%ssimulator reasoning: ", indent);
        an_rpt_str(b, d->reasoning[turn], cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    }
}

void an_rpt_dyn_after(struct an_buf *b, const struct an_test_result *t, const char *indent,
                      size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    size_t n = t->transcript.nturns;
    for (size_t i = n; d && i < d->nreasoning; i++) {
        if (!d->reasoning[i])
            continue;
        an_buf_printf(b, "%ssimulator after turn %zu: ", indent, n);
        an_rpt_str(b, d->reasoning[i], cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    }
}

void an_rpt_dyn_checkpoints(struct an_buf *b, const struct an_test_result *t, const char *indent,
                            size_t cut)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return;
    an_buf_printf(b, "%scheckpoints:%s\n", indent, d->ncheckpoints ? "" : " none");
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(&sub, "%s  ", indent);
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        an_buf_printf(b, "%s  ", indent);
        checkpoint_name(b, c, cut);
        if (c->reached_at_turn >= 0)
            an_buf_printf(b, ": reached at turn %d%s\n", c->reached_at_turn + 1,
                          c->required ? "" : " (optional)");
        else
            an_buf_puts(b, c->required ? ": missing\n" : ": not reached (optional)\n");
        evidence(b, c, an_buf_cstr(&sub), cut);
        if (c->reached_at_turn < 0 && c->missed && c->missed[0]) {
            an_buf_printf(b, "%s    failed: ", indent);
            an_rpt_str(b, c->missed, cut, NULL, 0);
            an_buf_putc(b, '\n');
        }
    }
    an_buf_release(&sub);
}

void an_rpt_dyn_text(struct an_buf *b, const struct an_test_result *t, const char *indent,
                     size_t cut)
{
    if (!t->dyn)
        return;
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(&sub, "%s  ", indent);
    an_rpt_dyn_simulator(b, t, indent, cut);
    an_buf_puts(b, indent);
    an_rpt_dyn_outcome(b, t, cut);
    an_buf_putc(b, '\n');
    for (size_t i = 0; i < t->transcript.nturns; i++) {
        an_rpt_turn_block(b, &t->transcript, i, indent, cut);
        an_rpt_dyn_turn(b, t, i, an_buf_cstr(&sub), cut);
    }
    an_rpt_dyn_after(b, t, indent, cut);
    an_rpt_dyn_checkpoints(b, t, indent, cut);
    an_buf_release(&sub);
}
