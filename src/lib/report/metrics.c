/* The metrics as one line of text (report/metrics.h). */
#include "report/metrics.h"

#include "report/report_util.h"

void an_metrics_line(struct an_buf *b, const struct an_metrics *m)
{
    char ms[32];
    an_buf_printf(b, "%zu tool call%s · %zu turn%s", m->tool_calls, m->tool_calls == 1 ? "" : "s",
                  m->turns, m->turns == 1 ? "" : "s");
    if (m->ttft_ms >= 0)
        an_buf_printf(b, " · ttft %s", an_rpt_ms(ms, sizeof ms, m->ttft_ms));
    const struct an_usage_sum *u = &m->usage;
    if (!u->reports)
        return;
    if (u->has_total)
        an_buf_printf(b, " · %lld tokens", (long long)u->total);
    else
        an_buf_puts(b, " · tokens");
    if (u->has_input || u->has_output) {
        an_buf_puts(b, " (");
        if (u->has_input)
            an_buf_printf(b, "in %lld", (long long)u->input);
        if (u->has_output)
            an_buf_printf(b, "%sout %lld", u->has_input ? ", " : "", (long long)u->output);
        an_buf_putc(b, ')');
    }
    if (u->has_cost)
        an_buf_printf(b, " · cost %.6g", u->cost);
}
