/*
 * What every report shows of a test whatever its assertions: tool calls,
 * turns, time to first token, duration and token usage, so a regression in
 * any of them is visible without writing an assertion (and `ananke compare`
 * can diff them). Computed from the result's transcript; nothing owned.
 */
#ifndef ANANKE_REPORT_METRICS_H
#define ANANKE_REPORT_METRICS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/result.h"
#include "core/buf.h"
#include "core/usage.h"

struct an_metrics {
    size_t tool_calls;
    size_t turns;          /* turns that ran */
    int64_t duration_ms;
    int64_t ttft_ms;       /* the first turn with text: request sent -> first text; -1: none */
    struct an_usage_sum usage; /* usage.reports == 0: the agent reported none */
};

void an_metrics_of(const struct an_test_result *t, struct an_metrics *m);

/* "2 tool calls · 1 turn · ttft 120ms · 150 tokens (in 120, out 30) · cost 0.0012",
 * leaving out what is not known (the duration is every report's own). */
void an_metrics_line(struct an_buf *b, const struct an_metrics *m);

/* {"tool_calls", "turns", "duration_ms", "ttft_ms" (null: none), "usage": null |
 * {"input_tokens", "output_tokens", "total_tokens", "cost"} (each null when
 * not known)}. New reference. */
json_t *an_metrics_json(const struct an_metrics *m);

#endif
