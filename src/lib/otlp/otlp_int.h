/*
 * The exporter's span model (otlp_span.c builds it from a test result) and
 * its two wire encodings (otlp_json.c: OTLP JSON; otlp_pb.c: protobuf,
 * hand-written for the few messages of opentelemetry/proto/trace/v1 and
 * collector/trace/v1 it needs). Everything lives in one arena per test.
 */
#ifndef ANANKE_OTLP_INT_H
#define ANANKE_OTLP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/otlp.h"
#include "core/arena.h"
#include "core/buf.h"

enum otlp_val { OTLP_STR, OTLP_INT, OTLP_BOOL, OTLP_DOUBLE };

struct otlp_attr {
    const char *key; /* static */
    enum otlp_val type;
    const char *s; /* OTLP_STR (arena) */
    int64_t i;
    bool b;
    double d;
};

struct otlp_attrs {
    struct otlp_attr *v;
    size_t n, cap;
};

struct otlp_event {
    const char *name; /* static */
    int64_t t_ms;
    struct otlp_attrs attrs;
};

/* trace.v1.Span.SpanKind and Status.StatusCode */
enum { OTLP_KIND_INTERNAL = 1, OTLP_KIND_CLIENT = 3 };
enum { OTLP_STATUS_UNSET = 0, OTLP_STATUS_OK = 1, OTLP_STATUS_ERROR = 2 };

struct otlp_span {
    char trace_id[33], span_id[17], parent_id[17]; /* hex; parent "": a root */
    const char *name;
    int kind;
    int64_t start_ms, end_ms;
    int status;
    const char *status_msg; /* NULL: none */
    struct otlp_attrs attrs;
    struct otlp_event *events;
    size_t nevents, cap_events;
};

struct otlp_spans {
    struct otlp_span *v;
    size_t n, cap;
    struct an_arena *a;
    size_t max_attr; /* a string attribute's bytes */
};

/* Every span of test t into *out (out->a and out->max_attr set by the caller). */
void otlp_spans_of(struct otlp_spans *out, const struct an_test_result *t);

/* attribute and event helpers (otlp_span.c) */
void otlp_attr_str(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, const char *s);
void otlp_attr_int(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, int64_t i);
void otlp_attr_bool(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, bool b);
void otlp_attr_double(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, double d);
struct otlp_event *otlp_event_add(struct otlp_spans *sp, struct otlp_span *s, const char *name,
                                  int64_t t_ms);

/* One span, encoded: OTLP JSON (a Span object) or protobuf (a Span
 * message with its ScopeSpans.spans tag and length in front), appended to b. */
void otlp_json_span(struct an_buf *b, const struct otlp_span *s, const char *tracestate);
void otlp_pb_span(struct an_buf *b, const struct otlp_span *s, const char *tracestate);

/* The request around the spans `spans` (as the functions above wrote them,
 * JSON ones separated by commas) into b: ExportTraceServiceRequest with one
 * ResourceSpans (service.name) and one ScopeSpans (scope "ananke"). */
void otlp_json_request(struct an_buf *b, const char *service, const char *spans, size_t n);
void otlp_pb_request(struct an_buf *b, const char *service, const char *spans, size_t n);

#define OTLP_SCOPE_NAME "ananke"
/* a span's name ("test NAME") is cut there, whatever max_attribute_bytes says */
#define OTLP_NAME_MAX 256

#endif
