/*
 * otlp/: one test result as an export request (an_otlp_encode), read back
 * here: the protobuf with a small wire-format reader (field numbers of
 * opentelemetry-proto's trace.proto and trace_service.proto), the JSON with
 * jansson. The span tree, ids, times, status, events, the attribute cap at
 * a UTF-8 boundary, invalid UTF-8, and a result without a trace id.
 * (tests/otlp/run.sh decodes real exports with the official definitions.)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/otlp.h"
#include "ananke/result.h"
#include "core/json.h"

#define TRACE "0af7651916cd43dd8448eb211c80319c"
#define TEST_SPAN "b7ad6b7169203331"
#define TURN_SPAN "00f067aa0ba902b7"

/* A failed test: one turn (its traceparent set as a run sets it), one tool
 * call, a finding in the turn, an error-free judge. */
static void make_result(struct an_test_result *t, const char *text)
{
    memset(t, 0, sizeof *t);
    t->name = strdup("refund");
    t->file = strdup("refund.test.yaml");
    t->status = AN_STATUS_FAIL;
    t->start_ms = 1700000000000;
    t->end_ms = 1700000000500;
    t->error_turn = -1;
    memcpy(t->trace_id, TRACE, 33);
    memcpy(t->span_id, TEST_SPAN, 17);
    an_transcript_init(&t->transcript);
    struct an_turn_rec *r = an_transcript_add_turn(&t->transcript, "user");
    r->input = strdup("refund please");
    r->text = strdup(text);
    r->start_ms = 1700000000010;
    r->end_ms = 1700000000400;
    memcpy(r->traceparent, "00-" TRACE "-" TURN_SPAN "-01", 56);
    an_turn_add_usage(r, "m-1", 12, 3, 15, -1);
    struct an_tool_call *c = an_transcript_add_call(&t->transcript, 0);
    c->id = strdup("call-1");
    c->name = strdup("search");
    c->args_text = strdup("{\"q\":1}");
    c->start_ms = 1700000000100;
    c->end_ms = c->ts_ms = 1700000000200;
    r->ncalls = 1;
    an_findings_add(&t->findings, "text.must_match", 0, "refund.test.yaml", 7, 21,
                    "Text must match /ok/", "a match", "no match", NULL);
}

/* ---- a protobuf reader: enough to walk the messages ---- */

struct field {
    unsigned num, wt;
    uint64_t v;       /* varint, fixed64 */
    const uint8_t *p; /* length-delimited */
    size_t n;
};

static uint64_t varint(const uint8_t **p, const uint8_t *end)
{
    uint64_t v = 0;
    for (unsigned shift = 0; *p < end; shift += 7) {
        uint8_t b = *(*p)++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80))
            return v;
    }
    fail_msg("a varint runs past the end");
    return 0;
}

/* The next field of [*p, end): false at the end. */
static bool next(const uint8_t **p, const uint8_t *end, struct field *f)
{
    if (*p >= end)
        return false;
    uint64_t key = varint(p, end);
    f->num = (unsigned)(key >> 3);
    f->wt = (unsigned)(key & 7);
    if (f->wt == 0) {
        f->v = varint(p, end);
    } else if (f->wt == 1) {
        assert_true(end - *p >= 8);
        f->v = 0;
        for (int i = 0; i < 8; i++)
            f->v |= (uint64_t)(*p)[i] << (8 * i);
        *p += 8;
    } else if (f->wt == 2) {
        f->n = (size_t)varint(p, end);
        assert_true((size_t)(end - *p) >= f->n);
        f->p = *p;
        *p += f->n;
    } else {
        fail_msg("wire type %u", f->wt);
    }
    return true;
}

/* The only field `num` of a message (length-delimited), or fail. */
static struct field only(const uint8_t *p, size_t n, unsigned num)
{
    const uint8_t *end = p + n;
    struct field f, got = {0};
    int seen = 0;
    while (next(&p, end, &f))
        if (f.num == num) {
            got = f;
            seen++;
        }
    assert_int_equal(seen, 1);
    return got;
}

static void hex(const uint8_t *p, size_t n, char *out)
{
    for (size_t i = 0; i < n; i++)
        snprintf(out + 2 * i, 3, "%02x", p[i]);
}

struct pb_span {
    char trace[33], id[17], parent[17], name[64];
    uint64_t start, end;
    int kind, status;
    size_t nattrs, nevents;
};

static void read_span(const uint8_t *p, size_t n, struct pb_span *s)
{
    memset(s, 0, sizeof *s);
    const uint8_t *end = p + n;
    struct field f;
    while (next(&p, end, &f)) {
        switch (f.num) {
        case 1:
            assert_int_equal(f.n, 16);
            hex(f.p, 16, s->trace);
            break;
        case 2:
            assert_int_equal(f.n, 8);
            hex(f.p, 8, s->id);
            break;
        case 4:
            assert_int_equal(f.n, 8);
            hex(f.p, 8, s->parent);
            break;
        case 5:
            snprintf(s->name, sizeof s->name, "%.*s", (int)f.n, (const char *)f.p);
            break;
        case 6:
            s->kind = (int)f.v;
            break;
        case 7:
            assert_int_equal(f.wt, 1);
            s->start = f.v;
            break;
        case 8:
            assert_int_equal(f.wt, 1);
            s->end = f.v;
            break;
        case 9:
            s->nattrs++;
            break;
        case 11:
            s->nevents++;
            break;
        case 15: {
            const uint8_t *q = f.p, *qe = f.p + f.n;
            struct field g;
            while (next(&q, qe, &g))
                if (g.num == 3)
                    s->status = (int)g.v;
            break;
        }
        default:
            break;
        }
    }
}

static void protobuf_tree(void **state)
{
    (void)state;
    struct an_test_result t;
    make_result(&t, "no");
    struct an_otlp_opts o = {.json = false, .service_name = "svc"};
    size_t len;
    char *body = an_otlp_encode(&t, &o, &len);
    const uint8_t *p = (const uint8_t *)body;
    struct field rs = only(p, len, 1);       /* resource_spans */
    struct field ss = only(rs.p, rs.n, 2);   /* scope_spans */
    struct field res = only(rs.p, rs.n, 1);  /* resource */
    struct field kv = only(res.p, res.n, 1); /* service.name */
    struct field val = only(kv.p, kv.n, 2);
    struct field sv = only(val.p, val.n, 1);
    assert_int_equal(sv.n, 3);
    assert_memory_equal(sv.p, "svc", 3);
    struct field scope = only(ss.p, ss.n, 1);
    struct field sname = only(scope.p, scope.n, 1);
    assert_memory_equal(sname.p, "ananke", 6);

    struct pb_span sp[8];
    size_t n = 0;
    const uint8_t *q = ss.p, *qe = ss.p + ss.n;
    struct field f;
    while (next(&q, qe, &f))
        if (f.num == 2) {
            assert_true(n < 8);
            read_span(f.p, f.n, &sp[n++]);
        }
    assert_int_equal(n, 3); /* test, turn, tool call */
    assert_string_equal(sp[0].name, "test refund");
    assert_string_equal(sp[0].trace, TRACE);
    assert_string_equal(sp[0].id, TEST_SPAN);
    assert_string_equal(sp[0].parent, "");
    assert_int_equal(sp[0].status, 2); /* ERROR */
    assert_int_equal(sp[0].start, 1700000000000ull * 1000000);
    assert_int_equal(sp[0].end, 1700000000500ull * 1000000);
    assert_string_equal(sp[1].name, "turn 1");
    assert_string_equal(sp[1].id, TURN_SPAN); /* the traceparent's span */
    assert_string_equal(sp[1].parent, TEST_SPAN);
    assert_int_equal(sp[1].kind, 3);    /* CLIENT */
    assert_int_equal(sp[1].nevents, 1); /* the finding */
    assert_int_equal(sp[1].status, 2);
    assert_string_equal(sp[2].name, "execute_tool search");
    assert_string_equal(sp[2].parent, TURN_SPAN);
    assert_string_equal(sp[2].trace, TRACE);
    assert_int_equal(sp[2].start, 1700000000100ull * 1000000);
    assert_string_not_equal(sp[2].id, TURN_SPAN);
    free(body);
    an_test_result_release(&t);
}

/* the JSON request: the spans, and attrs[key] of span i */
static json_t *json_spans(const struct an_test_result *t, size_t max_attr)
{
    struct an_otlp_opts o = {.json = true, .max_attribute_bytes = max_attr};
    size_t len;
    char *body = an_otlp_encode(t, &o, &len);
    json_error_t e;
    json_t *j = json_loadb(body, len, 0, &e);
    free(body);
    assert_non_null(j);
    json_t *spans = json_object_get(
        json_array_get(
            json_object_get(json_array_get(json_object_get(j, "resourceSpans"), 0), "scopeSpans"),
            0),
        "spans");
    json_incref(spans);
    json_decref(j);
    return spans;
}

static json_t *attr(json_t *span, const char *key)
{
    size_t i;
    json_t *kv;
    json_array_foreach(json_object_get(span, "attributes"), i, kv)
    {
        if (!strcmp(json_string_value(json_object_get(kv, "key")), key))
            return json_object_get(kv, "value");
    }
    return NULL;
}

static void json_shape(void **state)
{
    (void)state;
    struct an_test_result t;
    make_result(&t, "no");
    json_t *spans = json_spans(&t, 0);
    assert_int_equal(json_array_size(spans), 3);
    json_t *turn = json_array_get(spans, 1);
    assert_string_equal(an_json_str(turn, "traceId"), TRACE);
    assert_string_equal(an_json_str(turn, "spanId"), TURN_SPAN);
    assert_string_equal(an_json_str(turn, "parentSpanId"), TEST_SPAN);
    assert_string_equal(an_json_str(turn, "startTimeUnixNano"), "1700000000010000000");
    assert_int_equal(json_integer_value(json_object_get(turn, "kind")), 3);
    /* 64-bit integers are strings in OTLP JSON */
    assert_string_equal(an_json_str(attr(turn, "gen_ai.usage.input_tokens"), "intValue"), "12");
    assert_string_equal(an_json_str(attr(turn, "gen_ai.request.model"), "stringValue"), "m-1");
    assert_string_equal(an_json_str(attr(turn, "gen_ai.operation.name"), "stringValue"),
                        "invoke_agent");
    json_t *ev = json_array_get(json_object_get(turn, "events"), 0);
    assert_string_equal(an_json_str(ev, "name"), "ananke.finding");
    json_t *st = json_object_get(turn, "status");
    assert_int_equal(json_integer_value(json_object_get(st, "code")), 2);
    assert_string_equal(an_json_str(st, "message"), "Text must match /ok/");
    json_t *tool = json_array_get(spans, 2);
    assert_string_equal(an_json_str(attr(tool, "gen_ai.tool.call.id"), "stringValue"), "call-1");
    assert_string_equal(an_json_str(attr(tool, "gen_ai.tool.name"), "stringValue"), "search");
    json_decref(spans);
    an_test_result_release(&t);
}

/* max_attribute_bytes cuts at a character's start; invalid UTF-8 becomes
 * U+FFFD (protobuf strings must be valid) */
static void attribute_cap(void **state)
{
    (void)state;
    static const struct {
        size_t cap;
        const char *text, *want;
    } cases[] = {
        {5, "h\xc3\xa9llo w\xc3\xb6rld", "h\xc3\xa9ll"},
        {3, "h\xc3\xa9llo", "h\xc3\xa9"},
        {2, "h\xc3\xa9llo", "h"},
        {0, "ok \xff end", "ok \xef\xbf\xbd end"},
        {100, "short", "short"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct an_test_result t;
        make_result(&t, cases[i].text);
        json_t *spans = json_spans(&t, cases[i].cap);
        json_t *out = attr(json_array_get(spans, 1), "ananke.turn.output");
        assert_string_equal(an_json_str(out, "stringValue"), cases[i].want);
        json_decref(spans);
        an_test_result_release(&t);
    }
}

/* a result the run did not trace still gets valid ids, one trace for all */
static void ids_when_untraced(void **state)
{
    (void)state;
    struct an_test_result t;
    make_result(&t, "x");
    t.trace_id[0] = t.span_id[0] = '\0';
    t.transcript.turns[0].traceparent[0] = '\0';
    json_t *spans = json_spans(&t, 0);
    const char *trace = an_json_str(json_array_get(spans, 0), "traceId");
    assert_int_equal(strlen(trace), 32);
    assert_int_not_equal(strspn(trace, "0"), 32);
    for (size_t i = 0; i < json_array_size(spans); i++) {
        json_t *s = json_array_get(spans, i);
        assert_string_equal(an_json_str(s, "traceId"), trace);
        assert_int_equal(strlen(an_json_str(s, "spanId")), 16);
    }
    assert_string_equal(an_json_str(json_array_get(spans, 1), "parentSpanId"),
                        an_json_str(json_array_get(spans, 0), "spanId"));
    json_decref(spans);
    an_test_result_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(protobuf_tree),
        cmocka_unit_test(json_shape),
        cmocka_unit_test(attribute_cap),
        cmocka_unit_test(ids_when_untraced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
