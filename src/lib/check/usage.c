/* usage.max_input_tokens, max_output_tokens, max_total_tokens and max_cost:
 * what the agent reported, summed over the scope (core/usage.h). A scope in
 * which the agent reported nothing fails: a budget on usage nobody counted
 * must not pass. */
#include <stdio.h>

#include "check/check_int.h"
#include "core/usage.h"

static bool judged(const struct an_limit *l)
{
    return l->state == AN_LIMIT_SET;
}

/* What is missing, or NULL when the sum can be judged. */
static const char *missing(const struct an_usage_sum *u, const struct an_scope *s, bool known,
                           const char *what, char *buf, size_t cap)
{
    if (!u->reports)
        snprintf(buf, cap, "no usage reported by the agent%s", s->turn >= 0 ? " in this turn" : "");
    else if (u->turn_without >= 0)
        snprintf(buf, cap, "turn %d reported no usage", u->turn_without + 1);
    else if (!known)
        snprintf(buf, cap, "the agent's usage does not say %s", what);
    else
        return NULL;
    return buf;
}

static size_t tokens(const struct an_scope *s, const struct an_limit *l, const char *kind,
                     const char *label, const struct an_usage_sum *u, int64_t sum, bool known,
                     const char *what, struct an_findings *out)
{
    char why[160];
    const char *miss = missing(u, s, known, what, why, sizeof why);
    if (!miss && sum <= l->value)
        return 0;
    struct an_buf lab = AN_BUF_INIT, exp = AN_BUF_INIT, act = AN_BUF_INIT;
    an_buf_printf(&lab, "%s ≤ %lld", label, (long long)l->value);
    an_buf_printf(&exp, "≤ %lld tokens", (long long)l->value);
    if (miss)
        an_buf_puts(&act, miss);
    else
        an_buf_printf(&act, "%lld tokens", (long long)sum);
    chk_add(out, kind, s, &l->loc, &lab, &exp, &act, NULL);
    an_buf_release(&lab);
    an_buf_release(&exp);
    an_buf_release(&act);
    return 1;
}

static size_t cost(const struct an_scope *s, const struct an_limit *l, const struct an_usage_sum *u,
                   struct an_findings *out)
{
    char why[200];
    const char *miss = missing(u, s, true, "", why, sizeof why);
    if (!miss && !u->has_cost) {
        if (*u->unpriced)
            snprintf(why, sizeof why,
                     "no cost: the agent reported none and `prices:` has no price for model "
                     "\"%.80s\" (nor \"*\")",
                     u->unpriced);
        else
            snprintf(why, sizeof why,
                     "no cost: the agent reported none and named no model; give a \"*\" price "
                     "in `prices:`");
        miss = why;
    }
    if (!miss && u->cost <= l->amount)
        return 0;
    struct an_buf lab = AN_BUF_INIT, exp = AN_BUF_INIT, act = AN_BUF_INIT;
    an_buf_printf(&lab, "Cost ≤ %g", l->amount);
    an_buf_printf(&exp, "≤ %g", l->amount);
    if (miss)
        an_buf_puts(&act, miss);
    else
        an_buf_printf(&act, "%.6g", u->cost);
    chk_add(out, "usage.max_cost", s, &l->loc, &lab, &exp, &act, NULL);
    an_buf_release(&lab);
    an_buf_release(&exp);
    an_buf_release(&act);
    return 1;
}

size_t chk_usage(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    if (!judged(&blk->max_input_tokens) && !judged(&blk->max_output_tokens) &&
        !judged(&blk->max_total_tokens) && !judged(&blk->max_cost))
        return 0;
    struct an_usage_sum u;
    an_usage_sum(s->turns, s->nturns, &u);
    size_t added = 0;
    if (judged(&blk->max_input_tokens))
        added += tokens(s, &blk->max_input_tokens, "usage.max_input_tokens", "Input tokens", &u,
                        u.input, u.has_input, "its input tokens", out);
    if (judged(&blk->max_output_tokens))
        added += tokens(s, &blk->max_output_tokens, "usage.max_output_tokens", "Output tokens", &u,
                        u.output, u.has_output, "its output tokens", out);
    if (judged(&blk->max_total_tokens))
        added += tokens(s, &blk->max_total_tokens, "usage.max_total_tokens", "Total tokens", &u,
                        u.total, u.has_total, "its total tokens (nor input and output)", out);
    if (judged(&blk->max_cost))
        added += cost(s, &blk->max_cost, &u, out);
    return added;
}
