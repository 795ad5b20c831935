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

#endif
