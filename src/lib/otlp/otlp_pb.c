/* Spans in protobuf, written by hand: the wire format (varints, 64-bit
 * little-endian fixed fields, length-delimited strings and messages) of
 * the few messages of opentelemetry-proto an export needs, by field number:
 *   ExportTraceServiceRequest  1 resource_spans
 *   ResourceSpans   1 resource  2 scope_spans
 *   Resource        1 attributes
 *   ScopeSpans      1 scope     2 spans
 *   InstrumentationScope        1 name
 *   Span   1 trace_id  2 span_id  3 trace_state  4 parent_span_id  5 name
 *          6 kind  7 start_time_unix_nano (fixed64)  8 end_time_unix_nano
 *          9 attributes  11 events  15 status
 *   Event  1 time_unix_nano (fixed64)  2 name  3 attributes
 *   Status 2 message  3 code
 *   KeyValue 1 key  2 value;  AnyValue 1 string  2 bool  3 int  4 double */
#include <string.h>

#include "core/hex.h"
#include "otlp/otlp_int.h"

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2 };

static void varint(struct an_buf *b, uint64_t v)
{
    unsigned char out[10];
    size_t n = 0;
    do {
        out[n] = (unsigned char)(v & 0x7f);
        v >>= 7;
        if (v)
            out[n] |= 0x80;
        n++;
    } while (v);
    an_buf_append(b, out, n);
}

static void tag(struct an_buf *b, unsigned field, unsigned wt)
{
    varint(b, (uint64_t)field << 3 | wt);
}

static void bytes(struct an_buf *b, unsigned field, const void *p, size_t n)
{
    tag(b, field, WT_LEN);
    varint(b, n);
    an_buf_append(b, p, n);
}

static void str(struct an_buf *b, unsigned field, const char *s)
{
    bytes(b, field, s, strlen(s));
}

static void fixed64(struct an_buf *b, unsigned field, uint64_t v)
{
    unsigned char out[8];
    for (int i = 0; i < 8; i++)
        out[i] = (unsigned char)(v >> (8 * i));
    tag(b, field, WT_I64);
    an_buf_append(b, out, 8);
}

/* a message field: its bytes from `sub`, which is emptied */
static void msg(struct an_buf *b, unsigned field, struct an_buf *sub)
{
    bytes(b, field, sub->data ? sub->data : "", sub->len);
    an_buf_reset(sub);
}

static void hex_id(struct an_buf *b, unsigned field, const char *hex)
{
    unsigned char raw[16];
    size_t n = strlen(hex) / 2;
    if (n > sizeof raw)
        n = sizeof raw;
    for (size_t i = 0; i < n; i++)
        raw[i] = (unsigned char)(an_hex_digit(hex[2 * i]) << 4 | an_hex_digit(hex[2 * i + 1]));
    bytes(b, field, raw, n);
}

static uint64_t nanos(int64_t ms)
{
    return ms > 0 ? (uint64_t)ms * 1000000u : 0;
}

static void key_value(struct an_buf *b, unsigned field, const struct otlp_attr *a)
{
    struct an_buf kv = AN_BUF_INIT, v = AN_BUF_INIT;
    str(&kv, 1, a->key);
    switch (a->type) {
    case OTLP_STR:
        str(&v, 1, a->s);
        break;
    case OTLP_BOOL:
        tag(&v, 2, WT_VARINT);
        varint(&v, a->b);
        break;
    case OTLP_INT:
        tag(&v, 3, WT_VARINT);
        varint(&v, (uint64_t)a->i); /* int64: two's complement, 10 bytes when negative */
        break;
    case OTLP_DOUBLE: {
        uint64_t bits;
        memcpy(&bits, &a->d, sizeof bits);
        fixed64(&v, 4, bits);
        break;
    }
    }
    msg(&kv, 2, &v);
    msg(b, field, &kv);
    an_buf_release(&kv);
    an_buf_release(&v);
}

static void attrs(struct an_buf *b, unsigned field, const struct otlp_attrs *as)
{
    for (size_t i = 0; i < as->n; i++)
        key_value(b, field, &as->v[i]);
}

void otlp_pb_span(struct an_buf *b, const struct otlp_span *s, const char *tracestate)
{
    struct an_buf sp = AN_BUF_INIT, sub = AN_BUF_INIT;
    hex_id(&sp, 1, s->trace_id);
    hex_id(&sp, 2, s->span_id);
    if (tracestate && *tracestate)
        str(&sp, 3, tracestate);
    if (s->parent_id[0])
        hex_id(&sp, 4, s->parent_id);
    str(&sp, 5, s->name);
    tag(&sp, 6, WT_VARINT);
    varint(&sp, (uint64_t)s->kind);
    fixed64(&sp, 7, nanos(s->start_ms));
    fixed64(&sp, 8, nanos(s->end_ms));
    attrs(&sp, 9, &s->attrs);
    for (size_t i = 0; i < s->nevents; i++) {
        fixed64(&sub, 1, nanos(s->events[i].t_ms));
        str(&sub, 2, s->events[i].name);
        attrs(&sub, 3, &s->events[i].attrs);
        msg(&sp, 11, &sub);
    }
    if (s->status_msg)
        str(&sub, 2, s->status_msg);
    if (s->status) {
        tag(&sub, 3, WT_VARINT);
        varint(&sub, (uint64_t)s->status);
    }
    msg(&sp, 15, &sub);
    msg(b, 2, &sp); /* ScopeSpans.spans */
    an_buf_release(&sp);
    an_buf_release(&sub);
}

void otlp_pb_request(struct an_buf *b, const char *service, const char *spans, size_t n)
{
    struct an_buf scope = AN_BUF_INIT, ss = AN_BUF_INIT, rs = AN_BUF_INIT, sub = AN_BUF_INIT;
    struct otlp_attr svc = {.key = "service.name", .type = OTLP_STR, .s = service};
    key_value(&sub, 1, &svc);
    msg(&rs, 1, &sub); /* ResourceSpans.resource */
    str(&scope, 1, OTLP_SCOPE_NAME);
    msg(&ss, 1, &scope); /* ScopeSpans.scope */
    an_buf_append(&ss, spans, n);
    msg(&rs, 2, &ss);
    msg(b, 1, &rs);
    an_buf_release(&scope);
    an_buf_release(&ss);
    an_buf_release(&rs);
    an_buf_release(&sub);
}
