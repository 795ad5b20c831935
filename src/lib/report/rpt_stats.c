/* A repeated test's statistics as text (report/rpt_stats.h). */
#include "report/rpt_stats.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

void an_rpt_pct(struct an_buf *b, double share)
{
    if (!isfinite(share)) {
        an_buf_puts(b, "n/a");
        return;
    }
    if (share >= 1) {
        an_buf_puts(b, "100%");
        return;
    }
    if (share <= 0) {
        an_buf_puts(b, "0%");
        return;
    }
    char t[32];
    double v = share * 100;
    snprintf(t, sizeof t, "%.1f", v);
    if (!strcmp(t, "100.0"))
        snprintf(t, sizeof t, "%.2f", v > 99.99 ? 99.99 : v); /* never reads as certain */
    else if (!strcmp(t, "0.0"))
        snprintf(t, sizeof t, "%.2g", v);
    an_buf_printf(b, "%s%%", t);
}

void an_rpt_ci(struct an_buf *b, const struct an_test_stats *s)
{
    char conf[32];
    snprintf(conf, sizeof conf, "%.4g", s->confidence * 100);
    an_buf_printf(b, "%s%% CI [", conf);
    an_rpt_pct(b, s->ci_low);
    an_buf_puts(b, ", ");
    an_rpt_pct(b, s->ci_high);
    an_buf_printf(b, "] (%s)", s->ci_method);
}

void an_rpt_pass_k(struct an_buf *b, const struct an_test_stats *s)
{
    if (!isfinite(s->pass_hat_k)) {
        an_buf_printf(b, "pass^%u n/a (%u run%s)", s->k, s->runs, s->runs == 1 ? "" : "s");
        return;
    }
    an_buf_printf(b, "pass^%u ", s->k);
    an_rpt_pct(b, s->pass_hat_k);
    an_buf_printf(b, ", pass@%u ", s->k);
    an_rpt_pct(b, s->pass_at_k);
}

void an_rpt_stats_line(struct an_buf *b, const struct an_test_stats *s)
{
    if (s->flaky)
        an_buf_puts(b, "flaky, ");
    an_rpt_pass_k(b, s);
    an_buf_puts(b, ", ");
    an_rpt_ci(b, s);
}
