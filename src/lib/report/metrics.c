#include "report/metrics.h"

#include <string.h>

#include "report/report_util.h"

void an_metrics_of(const struct an_test_result *t, struct an_metrics *m)
{
    memset(m, 0, sizeof *m);
    const struct an_transcript *tr = &t->transcript;
    m->tool_calls = tr->ncalls;
    m->turns = an_rpt_turns_run(tr);
    m->duration_ms = t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0;
    m->ttft_ms = -1;
    for (size_t i = 0; i < tr->nturns && m->ttft_ms < 0; i++)
        if (tr->turns[i].first_text_ms && tr->turns[i].start_ms)
            m->ttft_ms = tr->turns[i].first_text_ms - tr->turns[i].start_ms;
    an_usage_sum(tr->turns, tr->nturns, &m->usage);
}

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

json_t *an_metrics_json(const struct an_metrics *m)
{
    json_t *o = json_pack("{s:I,s:I,s:I}", "tool_calls", (json_int_t)m->tool_calls, "turns",
                          (json_int_t)m->turns, "duration_ms", (json_int_t)m->duration_ms);
    json_object_set_new(o, "ttft_ms", m->ttft_ms >= 0 ? json_integer(m->ttft_ms) : json_null());
    const struct an_usage_sum *u = &m->usage;
    if (!u->reports) {
        json_object_set_new(o, "usage", json_null());
        return o;
    }
    json_t *j = json_object();
    json_object_set_new(j, "input_tokens", u->has_input ? json_integer(u->input) : json_null());
    json_object_set_new(j, "output_tokens", u->has_output ? json_integer(u->output) : json_null());
    json_object_set_new(j, "total_tokens", u->has_total ? json_integer(u->total) : json_null());
    json_object_set_new(j, "cost", u->has_cost ? json_real(u->cost) : json_null());
    json_object_set_new(o, "usage", j);
    return o;
}
