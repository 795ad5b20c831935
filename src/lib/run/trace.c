/* Trace and span ids of a run's tests and turns for --otlp (run/trace.h). */
#include "run/trace.h"

#include <string.h>

#include "core/trace_id.h"

void an_trace_test(struct an_test_result *t)
{
    an_trace_hex_id(t->trace_id, AN_TRACE_ID_BYTES);
    an_trace_hex_id(t->span_id, AN_SPAN_ID_BYTES);
}

static void traceparent(struct an_turn_rec *r, const char *trace, const char *span)
{
    /* version 00, flags 01: sampled (ananke exports every test) */
    memcpy(r->traceparent, "00-", 3);
    memcpy(r->traceparent + 3, trace, 32);
    r->traceparent[35] = '-';
    memcpy(r->traceparent + 36, span, 16);
    memcpy(r->traceparent + 52, "-01", 4);
}

void an_trace_helper(const char *trace_id, char *span, struct an_turn_rec *r)
{
    span[0] = '\0';
    if (!trace_id || strlen(trace_id) != 32)
        return;
    an_trace_hex_id(span, AN_SPAN_ID_BYTES);
    traceparent(r, trace_id, span);
}

void an_trace_of_turns(const struct an_turn_rec *turns, size_t n, char *out)
{
    out[0] = '\0';
    for (size_t i = 0; i < n; i++)
        if (turns[i].traceparent[0]) {
            memcpy(out, turns[i].traceparent + 3, 32);
            out[32] = '\0';
            return;
        }
}

void an_trace_turn(const struct an_test_result *t, struct an_turn_rec *r)
{
    if (!t->trace_id[0])
        return;
    char span[2 * AN_SPAN_ID_BYTES + 1];
    an_trace_hex_id(span, AN_SPAN_ID_BYTES);
    traceparent(r, t->trace_id, span);
}
