/*
 * Trace context of a run that exports traces (--otlp, docs/otel.md): each
 * test gets a trace and a span of its own, each turn a span under it
 * (core/trace_id.h). The turn's W3C traceparent goes with every request of
 * the turn (proto/http.c adds the header), so the agent's own spans join
 * the test's trace under the turn's span.
 */
#ifndef ANANKE_RUN_TRACE_H
#define ANANKE_RUN_TRACE_H

#include "ananke/result.h"

/* A fresh trace and test span in t->trace_id, t->span_id. */
void an_trace_test(struct an_test_result *t);
/* A fresh span for the turn in r->traceparent, in t's trace; nothing when
 * t has no trace. */
void an_trace_turn(const struct an_test_result *t, struct an_turn_rec *r);

/* A helper agent's call (a judge, the simulator) in the trace of `trace_id`
 * (32 hex digits; NULL or "": none): a fresh span id into span (17 bytes)
 * and its traceparent into r, so the helper's requests carry it. Nothing
 * (span "") when there is no trace. */
void an_trace_helper(const char *trace_id, char *span, struct an_turn_rec *r);
/* The trace a run gave these turns (the first traceparent's), into out (33
 * bytes); "" when none has one. */
void an_trace_of_turns(const struct an_turn_rec *turns, size_t n, char *out);

#endif
