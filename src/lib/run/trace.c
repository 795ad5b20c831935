/* Trace and span ids of a run's tests and turns for --otlp (run/trace.h). */
#include "run/trace.h"

#include <string.h>

#include "core/trace_id.h"

void an_trace_test(struct an_test_result *t)
{
    an_trace_hex_id(t->trace_id, AN_TRACE_ID_BYTES);
    an_trace_hex_id(t->span_id, AN_SPAN_ID_BYTES);
}

void an_trace_turn(const struct an_test_result *t, struct an_turn_rec *r)
{
    if (!t->trace_id[0])
        return;
    char span[2 * AN_SPAN_ID_BYTES + 1];
    an_trace_hex_id(span, AN_SPAN_ID_BYTES);
    /* version 00, flags 01: sampled (ananke exports every test) */
    memcpy(r->traceparent, "00-", 3);
    memcpy(r->traceparent + 3, t->trace_id, 32);
    r->traceparent[35] = '-';
    memcpy(r->traceparent + 36, span, 16);
    memcpy(r->traceparent + 52, "-01", 4);
}
