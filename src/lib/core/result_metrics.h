/*
 * What every report shows of a test whatever its assertions: tool calls,
 * turns, time to first token, duration and token usage, so a regression in
 * any of them is visible without writing an assertion (and `ananke compare`
 * can diff them). Computed from the result's transcript; nothing owned.
 * Part of the result's JSON form (result_json.c), so below the reporters;
 * report/metrics.h adds the one-line text form.
 */
#ifndef ANANKE_CORE_RESULT_METRICS_H
#define ANANKE_CORE_RESULT_METRICS_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/result.h"
#include "core/usage.h"

struct an_metrics {
    size_t tool_calls;
    size_t turns; /* turns that ran */
    int64_t duration_ms;
    int64_t ttft_ms;           /* the first turn with text: request sent -> first text; -1: none */
    struct an_usage_sum usage; /* usage.reports == 0: the agent reported none */
};

void an_metrics_of(const struct an_test_result *t, struct an_metrics *m);

/* Turns that ran (not-run turns left out): a dynamic test's total_turns. */
size_t an_result_turns_run(const struct an_transcript *t);

/* {"tool_calls", "turns", "duration_ms", "ttft_ms" (null: none), "usage": null |
 * {"input_tokens", "output_tokens", "total_tokens", "cost"} (each null when
 * not known)}. New reference. */
json_t *an_metrics_json(const struct an_metrics *m);

#endif
