/* The statistics of a repeated case (compare_stats.c) on the pack's
 * pages: a line in report.html's change column, a block of the case page.
 * Only numbers and fixed words: nothing here comes from the agent. */
#include "compare/compare_int.h"

static void rate(struct an_buf *b, const struct cmp_rate *r, double conf)
{
    an_buf_printf(b, "%u/%u (%.1f%%, %g%% interval %.1f&#8211;%.1f%%)", r->passes, r->runs,
                  100 * r->rate, conf, 100 * r->ci_low, 100 * r->ci_high);
}

static void verdict(struct an_buf *b, const struct cmp_rstats *rs)
{
    an_buf_printf(b, "p = %.3g%s: %s at alpha %g", rs->p_value,
                  rs->drop ? " (one-sided, worse)" : "",
                  rs->significant ? "significant" : "not significant", rs->alpha);
}

void cmp_page_stats_line(struct cmp_page *pg, const struct cmp_item *it)
{
    if (!it->repeated)
        return;
    const struct cmp_rstats *rs = &it->rs;
    an_buf_printf(&pg->b, "<div class=\"stats tags\">%u/%u &#8594; %u/%u runs passed, ",
                  rs->side[CMP_BASE].passes, rs->side[CMP_BASE].runs, rs->side[CMP_NEW].passes,
                  rs->side[CMP_NEW].runs);
    verdict(&pg->b, rs);
    an_buf_puts(&pg->b, "</div>");
}

static void shift(struct an_buf *b, const char *what, const char *unit, const struct cmp_shift *s,
                  double conf)
{
    if (!s->known)
        return;
    an_buf_printf(b, "<dt>median %s</dt><dd>%g%s &#8594; %g%s, shift %+g%s", what, s->base_median,
                  unit, s->new_median, unit, s->shift, unit);
    if (s->has_ci)
        an_buf_printf(b, " (%g%% interval %+g&#8230;%+g%s)", conf, s->ci_low, s->ci_high, unit);
    else
        an_buf_puts(b, " (too few runs for an interval)");
    if (s->flagged)
        an_buf_puts(b, " <span class=\"badge fail\">beyond --max-slowdown</span>");
    an_buf_puts(b, "</dd>");
}

void cmp_page_stats(struct cmp_page *pg, const struct cmp_item *it)
{
    if (!it->repeated)
        return;
    const struct cmp_rstats *rs = &it->rs;
    double conf = 100 * (1 - rs->alpha);
    an_buf_puts(&pg->b, "<dt>pass rate</dt><dd class=\"stats\">baseline ");
    rate(&pg->b, &rs->side[CMP_BASE], conf);
    an_buf_puts(&pg->b, " &#8594; new ");
    rate(&pg->b, &rs->side[CMP_NEW], conf);
    an_buf_printf(&pg->b,
                  "</dd><dt>Fisher's exact test</dt><dd>%s at alpha %g: one-sided (worse) p = "
                  "%.3g, two-sided p = %.3g%s</dd>",
                  rs->significant ? "significant" : "not significant", rs->alpha, rs->p_worse,
                  rs->p_two, rs->drop ? "" : " (the rate did not drop: the two-sided p decides)");
    shift(&pg->b, "duration", " ms", &rs->duration, conf);
    shift(&pg->b, "token usage", " tokens", &rs->tokens, conf);
    if (rs->max_slowdown >= 0)
        an_buf_printf(&pg->b, "<dt>--max-slowdown</dt><dd>%g%%</dd>", 100 * rs->max_slowdown);
}
