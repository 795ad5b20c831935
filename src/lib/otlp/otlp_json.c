/* Spans in OTLP JSON (the protobuf messages' JSON mapping as OTLP/HTTP
 * specifies it: lowerCamelCase names, ids as hex strings, enums as
 * numbers, 64-bit integers as decimal strings). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "otlp/otlp_int.h"

static json_t *nanos(int64_t ms)
{
    char b[32];
    snprintf(b, sizeof b, "%" PRId64 "000000", ms > 0 ? ms : 0);
    return json_string(b);
}

static json_t *any_value(const struct otlp_attr *a)
{
    json_t *v = json_object();
    char b[32];
    switch (a->type) {
    case OTLP_STR:
        json_object_set_new(v, "stringValue", an_json_lossy(a->s, strlen(a->s)));
        break;
    case OTLP_INT:
        snprintf(b, sizeof b, "%" PRId64, a->i);
        json_object_set_new(v, "intValue", json_string(b));
        break;
    case OTLP_BOOL:
        json_object_set_new(v, "boolValue", json_boolean(a->b));
        break;
    case OTLP_DOUBLE:
        json_object_set_new(v, "doubleValue", json_real(a->d));
        break;
    }
    return v;
}

static json_t *attrs_json(const struct otlp_attrs *as)
{
    json_t *arr = json_array();
    for (size_t i = 0; i < as->n; i++)
        json_array_append_new(
            arr, json_pack("{s:s, s:o}", "key", as->v[i].key, "value", any_value(&as->v[i])));
    return arr;
}

void otlp_json_span(struct an_buf *b, const struct otlp_span *s, const char *tracestate)
{
    json_t *o = json_object();
    json_object_set_new(o, "traceId", json_string(s->trace_id));
    json_object_set_new(o, "spanId", json_string(s->span_id));
    if (tracestate && *tracestate)
        json_object_set_new(o, "traceState", json_string(tracestate));
    if (s->parent_id[0])
        json_object_set_new(o, "parentSpanId", json_string(s->parent_id));
    json_object_set_new(o, "name", an_json_lossy(s->name, strlen(s->name)));
    json_object_set_new(o, "kind", json_integer(s->kind));
    json_object_set_new(o, "startTimeUnixNano", nanos(s->start_ms));
    json_object_set_new(o, "endTimeUnixNano", nanos(s->end_ms));
    json_object_set_new(o, "attributes", attrs_json(&s->attrs));
    json_t *evs = json_array();
    for (size_t i = 0; i < s->nevents; i++) {
        const struct otlp_event *e = &s->events[i];
        json_t *ev = json_object();
        json_object_set_new(ev, "timeUnixNano", nanos(e->t_ms));
        json_object_set_new(ev, "name", json_string(e->name));
        json_object_set_new(ev, "attributes", attrs_json(&e->attrs));
        json_array_append_new(evs, ev);
    }
    json_object_set_new(o, "events", evs);
    json_t *st = json_object();
    json_object_set_new(st, "code", json_integer(s->status));
    if (s->status_msg)
        json_object_set_new(st, "message", an_json_lossy(s->status_msg, strlen(s->status_msg)));
    json_object_set_new(o, "status", st);
    char *txt = an_json_compact(o);
    json_decref(o);
    an_buf_puts(b, txt);
    free(txt);
}

void otlp_json_request(struct an_buf *b, const char *service, const char *spans, size_t n)
{
    json_t *svc = an_json_lossy(service, strlen(service));
    char *s = an_json_compact(svc);
    json_decref(svc);
    an_buf_puts(b, "{\"resourceSpans\":[{\"resource\":{\"attributes\":[{\"key\":\"service.name\","
                   "\"value\":{\"stringValue\":");
    an_buf_puts(b, s);
    an_buf_puts(b, "}}]},\"scopeSpans\":[{\"scope\":{\"name\":\"" OTLP_SCOPE_NAME "\"},"
                   "\"spans\":[");
    an_buf_append(b, spans, n);
    an_buf_puts(b, "]}]}]}");
    free(s);
}
