/*
 * OpenTelemetry traces (docs/otel.md): each test of a run exported to an
 * OTLP/HTTP collector (Jaeger, Tempo, Phoenix, Langfuse, an OpenTelemetry
 * Collector) as one trace: a span for the test, one per turn under it, one
 * per tool call (the agent's, and the tools/call requests ananke's tool
 * proxy served) and per judge and simulator call, with the GenAI semantic
 * conventions' attributes where they apply.
 *
 * The trace and the test's and turns' span ids come from the run
 * (an_run_opts.trace); the exporter reads results only, so what it sends
 * has been redacted like every report (docs/security.md). Spans collect in
 * a batch sent whenever the next span would push it past max_batch_bytes,
 * and at an_otlp_flush(). An export that fails (collector down, slow, an
 * HTTP error) is a warning, never a failed run; after the first failure the
 * exporter sends nothing more and says at the flush how many spans it
 * dropped.
 *
 * Ownership: the exporter copies what it keeps; results are borrowed for
 * the call only. Not thread-safe: one thread adds and flushes.
 */
#ifndef ANANKE_OTLP_H
#define ANANKE_OTLP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

struct an_otlp;

struct an_otlp_opts {
    /* "http://host:4318" (no path: /v1/traces is added, as OTLP's base
     * endpoint) or a URL with a path, used as is */
    const char *endpoint;
    const char *const *header_names; /* sent with each export (already filled) */
    const char *const *header_values;
    size_t nheaders;
    bool json;                  /* http/json; false: http/protobuf */
    const char *service_name;   /* NULL: "ananke" */
    const char *tracestate;     /* each span's trace_state; NULL: none */
    int64_t timeout_ms;         /* one export; 0: AN_OTLP_TIMEOUT_MS_DEFAULT */
    size_t max_batch_bytes;     /* one request's body; 0: AN_OTLP_MAX_BATCH_BYTES_DEFAULT */
    size_t max_attribute_bytes; /* a string attribute is cut there (at a UTF-8
                                   boundary); 0: AN_OTLP_MAX_ATTRIBUTE_BYTES_DEFAULT */
    /* told each warning ("otlp: ..."); NULL: stderr */
    void (*warn)(const char *msg, void *ud);
    void *ud;
};

/* An exporter from the config's `otlp:` (its header values' ${ENV}
 * references filled now) and `endpoint` (--otlp; NULL: the config's).
 * AN_EUSAGE when neither names an endpoint or a reference does not
 * resolve. */
int an_otlp_new(struct an_otlp **out, const struct an_otlp_config *cfg, const char *endpoint,
                void (*warn)(const char *msg, void *ud), void *ud, struct an_err *err);
/* The same from options (copied). */
int an_otlp_new_opts(struct an_otlp **out, const struct an_otlp_opts *o, struct an_err *err);

/* Add a finished test's spans to the batch (sending full batches). A test
 * without a trace id (not run with an_run_opts.trace, or SKIP) gets one. */
void an_otlp_add(struct an_otlp *x, const struct an_test_result *t);
/* Send what the batch holds; warn about spans dropped since a failure. */
void an_otlp_flush(struct an_otlp *x);
/* Spans the collector accepted so far (a 2xx answer). */
size_t an_otlp_sent(const struct an_otlp *x);
void an_otlp_free(struct an_otlp *x); /* NULL-safe; does not flush */

/* One test as a whole export request body (ExportTraceServiceRequest),
 * OTLP JSON or protobuf as o->json says; the other fields of o as for an
 * exporter (endpoint unused). Caller frees; *len its size. For tests. */
char *an_otlp_encode(const struct an_test_result *t, const struct an_otlp_opts *o, size_t *len);

#endif
