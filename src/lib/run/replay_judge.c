/* Checks on a recording: recorded verdicts for judges (replay_judge.h). */
#include "run/replay_judge.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "core/buf.h"
#include "core/json.h"
#include "run/judge.h"
#include "run/script_check.h"

static const char *strip_dot(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    return p;
}

int an_replay_file_match(const char *a, const char *b)
{
    if (!a || !b)
        return a == b ? 2 : 0;
    a = strip_dot(a);
    b = strip_dot(b);
    size_t na = strlen(a), nb = strlen(b);
    if (na == nb)
        return strcmp(a, b) ? 0 : 2;
    const char *longer = na > nb ? a : b, *shorter = na > nb ? b : a;
    size_t nl = na > nb ? na : nb, ns = na > nb ? nb : na;
    return longer[nl - ns - 1] == '/' && !strcmp(longer + nl - ns, shorter) ? 1 : 0;
}

bool an_replay_same_file(const char *a, const char *b)
{
    return an_replay_file_match(a, b) > 0;
}

/* What the judge is shown of the check now: its `value`, else
 * options.metadata.criteria (run/judge.c). Borrowed; NULL: none. */
static json_t *criteria_of(const struct an_check_item *it)
{
    json_t *md = it->options ? json_object_get(it->options, "metadata") : NULL;
    return it->value ? it->value : (md ? json_object_get(md, "criteria") : NULL);
}

/* The criteria the recorded judge was shown: run/judge.c sends a JSON
 * object (after an instruction for openai judges) whose first member is
 * "test_mode". NULL when it cannot be read back (then not compared). */
static json_t *shown_criteria(const char *shown)
{
    const char *p = shown ? strstr(shown, "{\n  \"test_mode\"") : NULL;
    json_t *o = p ? json_loads(p, 0, NULL) : NULL;
    json_t *c = json_object_get(o, "criteria");
    if (c)
        json_incref(c);
    json_decref(o);
    return c;
}

const struct an_judgement *an_replay_find_judgement(const struct an_judgements *rec,
                                                    const struct an_check_item *it, int turn,
                                                    const char **why)
{
    const struct an_judgement *g = NULL;
    *why = "no verdict was recorded for this check on this turn";
    for (size_t i = rec ? rec->n : 0; i-- > 0 && !g;) {
        const struct an_judgement *c = &rec->v[i];
        if (c->turn == turn && c->line == it->loc.line && c->col == it->loc.col &&
            an_replay_same_file(c->file, it->loc.file))
            g = c;
    }
    if (!g)
        return NULL;
    const char *name = it->agent ? it->agent->name : it->agent_name;
    if (!g->agent || !name || strcmp(g->agent, name)) {
        *why = "the recorded verdict there is another agent's";
        return NULL;
    }
    json_t *then = shown_criteria(g->shown), *now = criteria_of(it);
    bool same = !then || json_equal(then, now ? now : json_null());
    json_decref(then);
    if (!same) {
        *why = "its criteria changed since the recording";
        return NULL;
    }
    return g;
}

static char *dup_or_null(const char *s)
{
    return s ? an_xstrdup(s) : NULL;
}

/* The finding of a rejected output, worded as run/judge.c words it. */
static void rejected(const struct an_check_item *it, const struct an_scope *s,
                     const struct an_judgement *g, struct an_findings *out)
{
    struct an_buf subject = AN_BUF_INIT, exp = AN_BUF_INIT, act = AN_BUF_INIT;
    an_buf_printf(&subject, "Judge '%s'", g->agent);
    json_t *criteria = criteria_of(it);
    char *c = json_is_string(criteria) ? an_xstrdup(json_string_value(criteria))
                                       : an_json_compact(criteria);
    char *cex = an_judge_excerpt(c);
    an_buf_printf(&exp, "%s: %s", it->negate ? "rejects" : "accepts", cex);
    an_buf_printf(&act, "%s%s%s", g->verdict ? "accepted" : "rejected", g->reason ? ": " : "",
                  g->reason ? g->reason : "");
    an_check_item_finding(out, it, s, an_buf_cstr(&subject), "accept the output", it->negate,
                          an_buf_cstr(&exp), an_buf_cstr(&act), "verdict taken from the recording");
    free(cex);
    free(c);
    an_buf_release(&subject);
    an_buf_release(&exp);
    an_buf_release(&act);
}

int an_replay_judges(const struct an_assert *blk, const struct an_scope *s,
                     const struct an_judgements *rec, struct an_findings *out, size_t *nfailed,
                     struct an_judgements *js, struct an_err *err)
{
    *nfailed = 0;
    for (size_t k = 0; k < blk->nchecks; k++) {
        const struct an_check_item *it = &blk->checks[k];
        if (it->kind != AN_CHECK_AGENT || !it->agent)
            continue;
        const char *why;
        const struct an_judgement *g = an_replay_find_judgement(rec, it, s->turn, &why);
        char where[32];
        if (s->turn >= 0)
            snprintf(where, sizeof where, "turn %d", s->turn + 1);
        else
            snprintf(where, sizeof where, "the test level");
        if (!g)
            return an_fail(err, AN_ENOTFOUND, &it->loc,
                           "judge '%s' (%s) has no recorded verdict: %s; replay never asks a "
                           "judge, record the run again",
                           it->agent->name, where, why);
        struct an_judgement *c = an_judgements_add(js);
        c->agent = an_xstrdup(g->agent);
        c->turn = s->turn;
        c->file = dup_or_null(it->loc.file);
        c->line = it->loc.line;
        c->col = it->loc.col;
        c->shown = dup_or_null(g->shown);
        c->answer = dup_or_null(g->answer);
        c->verdict = g->verdict;
        c->reason = dup_or_null(g->reason);
        c->duration_ms = g->duration_ms;
        if (g->verdict < 0)
            return an_fail(err, AN_EPROTO, &it->loc, "judge '%s' (%s): %s (as recorded)", g->agent,
                           where, g->reason ? g->reason : "no usable answer");
        if ((g->verdict == 1) == it->negate) {
            rejected(it, s, g, out);
            (*nfailed)++;
        }
    }
    return AN_OK;
}

static bool has_kind(const struct an_assert *blk, enum an_check_kind kind)
{
    for (size_t i = 0; i < blk->nchecks; i++)
        if (blk->checks[i].kind == kind)
            return true;
    return false;
}

long an_replay_block(const struct an_assert *blk, const struct an_scope *s, const char *input,
                     const char *dir, const struct an_judgements *rec, bool checkpoint,
                     struct an_findings *out, struct an_judgements *js, struct an_err *err)
{
    size_t nf = an_check(blk, s, out), ns = 0, na = 0;
    if (checkpoint && nf)
        return (long)nf;
    if (has_kind(blk, AN_CHECK_SCRIPT) && an_script_checks(blk, s, input, dir, out, &ns, err))
        return -1;
    if (checkpoint && ns)
        return (long)ns;
    if (an_replay_judges(blk, s, rec, out, &na, js, err))
        return -1;
    return (long)(nf + ns + na);
}
