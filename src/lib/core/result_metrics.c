/* What every report shows of a test (core/result_metrics.h). */
#include "core/result_metrics.h"

#include <string.h>

size_t an_result_turns_run(const struct an_transcript *t)
{
    size_t n = 0;
    for (size_t i = 0; i < t->nturns; i++)
        n += t->turns[i].status != AN_TURN_NOT_RUN;
    return n;
}

void an_metrics_of(const struct an_test_result *t, struct an_metrics *m)
{
    memset(m, 0, sizeof *m);
    const struct an_transcript *tr = &t->transcript;
    m->tool_calls = tr->ncalls;
    m->turns = an_result_turns_run(tr);
    m->duration_ms = t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0;
    m->ttft_ms = -1;
    for (size_t i = 0; i < tr->nturns && m->ttft_ms < 0; i++)
        if (tr->turns[i].first_text_ms && tr->turns[i].start_ms)
            m->ttft_ms = tr->turns[i].first_text_ms - tr->turns[i].start_ms;
    an_usage_sum(tr->turns, tr->nturns, &m->usage);
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
