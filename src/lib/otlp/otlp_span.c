/* A test result as spans (otlp_int.h; the tree and the attributes are
 * listed in docs/otel.md). */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/json.h"
#include "core/trace_id.h"
#include "core/usage.h"
#include "otlp/otlp_int.h"

/* s cut to at most max bytes, at a UTF-8 character's start, and valid
 * UTF-8 (protobuf strings must be: collectors refuse a request otherwise) */
static const char *cut(struct otlp_spans *sp, const char *s, size_t max)
{
    size_t n = strlen(s);
    if (max && n > max) {
        n = max;
        while (n && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    char *ok = an_utf8_lossy(s, n);
    char *out = an_arena_strdup(sp->a, ok);
    free(ok);
    return out;
}

static const char *capped(struct otlp_spans *sp, const char *s)
{
    return cut(sp, s, sp->max_attr);
}

static struct otlp_attr *attr_add(struct otlp_spans *sp, struct otlp_attrs *a, const char *key,
                                  enum otlp_val type)
{
    if (a->n == a->cap) {
        a->v = an_arena_grow(sp->a, a->v, a->n, a->cap ? a->cap * 2 : 8, sizeof *a->v);
        a->cap = a->cap ? a->cap * 2 : 8;
    }
    struct otlp_attr *at = &a->v[a->n++];
    memset(at, 0, sizeof *at);
    at->key = key;
    at->type = type;
    return at;
}

void otlp_attr_str(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, const char *s)
{
    if (s)
        attr_add(sp, a, key, OTLP_STR)->s = capped(sp, s);
}

void otlp_attr_int(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, int64_t i)
{
    attr_add(sp, a, key, OTLP_INT)->i = i;
}

void otlp_attr_bool(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, bool b)
{
    attr_add(sp, a, key, OTLP_BOOL)->b = b;
}

void otlp_attr_double(struct otlp_spans *sp, struct otlp_attrs *a, const char *key, double d)
{
    attr_add(sp, a, key, OTLP_DOUBLE)->d = d;
}

struct otlp_event *otlp_event_add(struct otlp_spans *sp, struct otlp_span *s, const char *name,
                                  int64_t t_ms)
{
    if (s->nevents == s->cap_events) {
        size_t cap = s->cap_events ? s->cap_events * 2 : 4;
        s->events = an_arena_grow(sp->a, s->events, s->nevents, cap, sizeof *s->events);
        s->cap_events = cap;
    }
    struct otlp_event *e = &s->events[s->nevents++];
    memset(e, 0, sizeof *e);
    e->name = name;
    e->t_ms = t_ms;
    return e;
}

/* A new span in the test's trace (index returned: the array may move). */
static size_t span_add(struct otlp_spans *sp, const char *trace, const char *parent,
                       const char *name, int kind, int64_t start, int64_t end)
{
    if (sp->n == sp->cap) {
        size_t cap = sp->cap ? sp->cap * 2 : 8;
        sp->v = an_arena_grow(sp->a, sp->v, sp->n, cap, sizeof *sp->v);
        sp->cap = cap;
    }
    struct otlp_span *s = &sp->v[sp->n];
    memset(s, 0, sizeof *s);
    memcpy(s->trace_id, trace, 33);
    if (parent)
        memcpy(s->parent_id, parent, 17);
    an_trace_hex_id(s->span_id, AN_SPAN_ID_BYTES);
    s->name = cut(sp, name, OTLP_NAME_MAX);
    s->kind = kind;
    s->start_ms = start;
    s->end_ms = end < start ? start : end;
    return sp->n++;
}

static void finding_event(struct otlp_spans *sp, struct otlp_span *s, const struct an_finding *f,
                          int64_t t_ms)
{
    struct otlp_event *e = otlp_event_add(sp, s, "ananke.finding", t_ms);
    otlp_attr_str(sp, &e->attrs, "ananke.finding.kind", f->kind);
    otlp_attr_str(sp, &e->attrs, "ananke.finding.assertion", f->assertion);
    otlp_attr_str(sp, &e->attrs, "ananke.finding.expected", f->expected);
    otlp_attr_str(sp, &e->attrs, "ananke.finding.actual", f->actual);
    otlp_attr_str(sp, &e->attrs, "ananke.finding.detail", f->detail);
    otlp_attr_int(sp, &e->attrs, "ananke.finding.turn", f->turn);
    if (f->file) {
        otlp_attr_str(sp, &e->attrs, "code.file.path", f->file);
        otlp_attr_int(sp, &e->attrs, "code.line.number", f->line);
        otlp_attr_int(sp, &e->attrs, "code.column.number", f->col);
    }
}

static void usage_attrs(struct otlp_spans *sp, struct otlp_attrs *a, const struct an_turn_rec *r,
                        size_t n)
{
    struct an_usage_sum u;
    an_usage_sum(r, n, &u);
    if (u.reports && u.has_input)
        otlp_attr_int(sp, a, "gen_ai.usage.input_tokens", u.input);
    if (u.reports && u.has_output)
        otlp_attr_int(sp, a, "gen_ai.usage.output_tokens", u.output);
    if (u.reports && u.has_cost)
        otlp_attr_double(sp, a, "ananke.usage.cost", u.cost);
}

static void tool_span(struct otlp_spans *sp, const char *trace, const char *parent,
                      const struct an_tool_call *c)
{
    int64_t end = c->ts_ms ? c->ts_ms : c->end_ms;
    const char *name = an_arena_printf(sp->a, "execute_tool %s", c->name ? c->name : "");
    size_t k = span_add(sp, trace, parent, name, OTLP_KIND_INTERNAL, c->start_ms, end);
    struct otlp_span *s = &sp->v[k];
    otlp_attr_str(sp, &s->attrs, "gen_ai.operation.name", "execute_tool");
    otlp_attr_str(sp, &s->attrs, "gen_ai.tool.name", c->name);
    otlp_attr_str(sp, &s->attrs, "gen_ai.tool.call.id", c->id);
    otlp_attr_str(sp, &s->attrs, "gen_ai.tool.call.arguments", c->args_text);
    if (c->result) {
        char *r = json_is_string(c->result) ? NULL : an_json_compact(c->result);
        otlp_attr_str(sp, &s->attrs, "gen_ai.tool.call.result",
                      r ? r : json_string_value(c->result));
        free(r);
    }
    otlp_attr_str(sp, &s->attrs, "ananke.tool.source", "agent");
    otlp_attr_str(sp, &s->attrs, "ananke.tool.status", c->status);
    if (c->status && (!strcmp(c->status, "error") || !strcmp(c->status, "timeout"))) {
        s->status = OTLP_STATUS_ERROR;
        s->status_msg = an_arena_printf(sp->a, "the tool call ended: %s", c->status);
    }
}

/* A tools/call the tool proxy served (an_turn_rec.server_calls). */
static void server_span(struct otlp_spans *sp, const char *trace, const char *parent,
                        const json_t *c, int64_t fallback)
{
    const char *tool = an_json_str(c, "name");
    json_t *st = json_object_get(c, "start_ms"), *en = json_object_get(c, "end_ms");
    int64_t start = json_is_integer(st) ? json_integer_value(st) : fallback;
    int64_t end = json_is_integer(en) ? json_integer_value(en) : start;
    const char *name = an_arena_printf(sp->a, "execute_tool %s", tool ? tool : "");
    size_t k = span_add(sp, trace, parent, name, OTLP_KIND_INTERNAL, start, end);
    struct otlp_span *s = &sp->v[k];
    otlp_attr_str(sp, &s->attrs, "gen_ai.operation.name", "execute_tool");
    otlp_attr_str(sp, &s->attrs, "gen_ai.tool.name", tool);
    for (int i = 0; i < 2; i++) {
        json_t *v = json_object_get(c, i ? "result" : "arguments");
        if (!v)
            continue;
        char *txt = an_json_compact(v);
        otlp_attr_str(sp, &s->attrs, i ? "gen_ai.tool.call.result" : "gen_ai.tool.call.arguments",
                      txt);
        free(txt);
    }
    otlp_attr_str(sp, &s->attrs, "ananke.tool.source", "proxy");
    otlp_attr_str(sp, &s->attrs, "ananke.tool.server", an_json_str(c, "server"));
    otlp_attr_bool(sp, &s->attrs, "ananke.tool.mocked", json_is_true(json_object_get(c, "mocked")));
    if (json_is_true(json_object_get(c, "is_error"))) {
        s->status = OTLP_STATUS_ERROR;
        s->status_msg = "the tool answered an error";
    }
}

static void turn_attrs(struct otlp_spans *sp, struct otlp_span *s, const struct an_turn_rec *r)
{
    otlp_attr_str(sp, &s->attrs, "gen_ai.operation.name", "invoke_agent");
    size_t i;
    json_t *u;
    json_array_foreach(r->usage, i, u)
    {
        if (an_json_str(u, "model")) {
            otlp_attr_str(sp, &s->attrs, "gen_ai.request.model", an_json_str(u, "model"));
            break;
        }
    }
    usage_attrs(sp, &s->attrs, r, 1);
    otlp_attr_int(sp, &s->attrs, "ananke.turn.index", r->index);
    otlp_attr_str(sp, &s->attrs, "ananke.turn.kind", r->kind);
    otlp_attr_str(sp, &s->attrs, "ananke.turn.input", r->input);
    otlp_attr_str(sp, &s->attrs, "ananke.turn.output", r->text);
    otlp_attr_str(sp, &s->attrs, "ananke.turn.run_id", r->run_id);
    if (r->first_text_ms)
        otlp_attr_int(sp, &s->attrs, "ananke.turn.ttft_ms", r->first_text_ms - r->start_ms);
    if (r->http_status)
        otlp_attr_int(sp, &s->attrs, "http.response.status_code", r->http_status);
    if (r->retries)
        otlp_attr_int(sp, &s->attrs, "ananke.turn.retries", r->retries);
    for (size_t w = 0; w < r->nwarnings; w++) {
        struct otlp_event *e = otlp_event_add(sp, s, "ananke.warning", r->end_ms);
        otlp_attr_str(sp, &e->attrs, "ananke.warning.message", r->warnings[w]);
    }
}

/* The turn's span, its tool calls' and its findings; the index of its span. */
static size_t turn_span(struct otlp_spans *sp, const struct an_test_result *t,
                        const struct an_turn_rec *r, const char *test_span)
{
    const char *trace = t->trace_id;
    const char *name = an_arena_printf(sp->a, "turn %u", r->index + 1);
    size_t k = span_add(sp, trace, test_span, name, OTLP_KIND_CLIENT, r->start_ms, r->end_ms);
    if (r->traceparent[0]) /* the span the agent's requests named as their parent */
        memcpy(sp->v[k].span_id, r->traceparent + 36, 16);
    turn_attrs(sp, &sp->v[k], r);
    if (r->status == AN_TURN_ERROR) {
        sp->v[k].status = OTLP_STATUS_ERROR;
        sp->v[k].status_msg = capped(sp, r->error ? r->error : "the turn failed");
    }
    for (size_t f = 0; f < t->findings.n; f++)
        if (t->findings.v[f].turn == (int)r->index) {
            finding_event(sp, &sp->v[k], &t->findings.v[f], r->end_ms);
            sp->v[k].status = OTLP_STATUS_ERROR;
            sp->v[k].status_msg = capped(sp, t->findings.v[f].assertion);
        }
    char parent[17];
    memcpy(parent, sp->v[k].span_id, 17);
    const struct an_transcript *tr = &t->transcript;
    for (size_t c = r->first_call; c < r->first_call + r->ncalls && c < tr->ncalls; c++)
        tool_span(sp, trace, parent, &tr->calls[c]);
    size_t i;
    json_t *c;
    json_array_foreach(r->server_calls, i, c) server_span(sp, trace, parent, c, r->start_ms);
    return k;
}

static void judge_span(struct otlp_spans *sp, const struct an_test_result *t,
                       const struct an_judgement *j, const char *parent)
{
    int64_t start = j->start_ms ? j->start_ms : t->end_ms - j->duration_ms;
    const char *name = an_arena_printf(sp->a, "judge %s", j->agent ? j->agent : "");
    size_t k =
        span_add(sp, t->trace_id, parent, name, OTLP_KIND_CLIENT, start, start + j->duration_ms);
    struct otlp_span *s = &sp->v[k];
    if (j->span_id[0]) /* the span the judge's requests named as their parent */
        memcpy(s->span_id, j->span_id, 17);
    otlp_attr_str(sp, &s->attrs, "gen_ai.operation.name", "chat");
    otlp_attr_str(sp, &s->attrs, "ananke.judge.agent", j->agent);
    otlp_attr_str(sp, &s->attrs, "ananke.judge.verdict",
                  j->verdict == 1   ? "accepted"
                  : j->verdict == 0 ? "rejected"
                                    : "unusable");
    otlp_attr_str(sp, &s->attrs, "ananke.judge.reason", j->reason);
    otlp_attr_str(sp, &s->attrs, "ananke.judge.input", j->shown);
    otlp_attr_str(sp, &s->attrs, "ananke.judge.output", j->answer);
    if (j->verdict < 0) {
        s->status = OTLP_STATUS_ERROR;
        s->status_msg = capped(sp, j->reason ? j->reason : "the judge gave no usable answer");
    }
}

static void simulator_spans(struct otlp_spans *sp, const struct an_test_result *t,
                            const char *parent)
{
    const struct an_dynamic_result *d = t->dyn;
    for (size_t k = 0; d && k < d->nsim; k++) {
        if (!d->sim_start_ms[k])
            continue;
        const char *name = an_arena_printf(sp->a, "simulator %s", d->simulator ? d->simulator : "");
        size_t i = span_add(sp, t->trace_id, parent, name, OTLP_KIND_CLIENT, d->sim_start_ms[k],
                            d->sim_end_ms[k]);
        struct otlp_span *s = &sp->v[i];
        if (d->sim_span_id && d->sim_span_id[k][0])
            memcpy(s->span_id, d->sim_span_id[k], 17);
        otlp_attr_str(sp, &s->attrs, "gen_ai.operation.name", "chat");
        otlp_attr_str(sp, &s->attrs, "ananke.simulator.agent", d->simulator);
        otlp_attr_int(sp, &s->attrs, "ananke.simulator.turn", (int64_t)k);
        if (k < d->nreasoning)
            otlp_attr_str(sp, &s->attrs, "ananke.simulator.reasoning", d->reasoning[k]);
    }
}

static void test_attrs(struct otlp_spans *sp, struct otlp_span *s, const struct an_test_result *t)
{
    otlp_attr_str(sp, &s->attrs, "ananke.test.name", t->name);
    otlp_attr_str(sp, &s->attrs, "ananke.test.file", t->file);
    otlp_attr_str(sp, &s->attrs, "ananke.test.id", t->id);
    otlp_attr_str(sp, &s->attrs, "ananke.test.status", an_status_name(t->status));
    otlp_attr_str(sp, &s->attrs, "ananke.test.skip_reason", t->skip_reason);
    if (t->ntags) {
        struct an_buf b = AN_BUF_INIT;
        for (size_t i = 0; i < t->ntags; i++)
            an_buf_printf(&b, "%s%s", i ? "," : "", t->tags[i]);
        otlp_attr_str(sp, &s->attrs, "ananke.test.tags", an_buf_cstr(&b));
        an_buf_release(&b);
    }
    if (t->runs) {
        otlp_attr_int(sp, &s->attrs, "ananke.test.runs", t->runs);
        otlp_attr_int(sp, &s->attrs, "ananke.test.passes", t->passes);
    }
    otlp_attr_int(sp, &s->attrs, "ananke.test.turns", (int64_t)t->transcript.nturns);
    otlp_attr_int(sp, &s->attrs, "ananke.test.tool_calls", (int64_t)t->transcript.ncalls);
    usage_attrs(sp, &s->attrs, t->transcript.turns, t->transcript.nturns);
}

/* The verdict: the test span's status, and its error as an exception event. */
static void test_verdict(struct otlp_spans *sp, struct otlp_span *s, const struct an_test_result *t)
{
    if (t->status == AN_STATUS_PASS)
        s->status = OTLP_STATUS_OK;
    else if (t->status != AN_STATUS_SKIP) {
        s->status = OTLP_STATUS_ERROR;
        const char *why = t->error        ? t->error
                          : t->findings.n ? t->findings.v[0].assertion
                                          : an_status_name(t->status);
        s->status_msg = capped(sp, why);
    }
    if (t->error) {
        struct otlp_event *e = otlp_event_add(sp, s, "exception", t->end_ms);
        otlp_attr_str(sp, &e->attrs, "exception.type", an_code_name(t->error_code));
        otlp_attr_str(sp, &e->attrs, "exception.message", t->error);
    }
    for (size_t f = 0; f < t->findings.n; f++)
        if (t->findings.v[f].turn < 0)
            finding_event(sp, s, &t->findings.v[f], t->end_ms);
}

void otlp_spans_of(struct otlp_spans *sp, const struct an_test_result *t0)
{
    struct an_test_result t = *t0; /* a shallow copy: ids filled in when missing */
    if (!t.trace_id[0]) {
        an_trace_hex_id(t.trace_id, AN_TRACE_ID_BYTES);
        an_trace_hex_id(t.span_id, AN_SPAN_ID_BYTES);
    }
    int64_t start = t.start_ms ? t.start_ms : an_clock_unix_ms();
    const char *name = an_arena_printf(sp->a, "test %s", t.name ? t.name : "");
    size_t k = span_add(sp, t.trace_id, NULL, name, OTLP_KIND_INTERNAL, start, t.end_ms);
    memcpy(sp->v[k].span_id, t.span_id, 17);
    test_attrs(sp, &sp->v[k], &t);
    test_verdict(sp, &sp->v[k], &t);

    const struct an_transcript *tr = &t.transcript;
    size_t *turn_span_at = an_arena_alloc(sp->a, (tr->nturns + 1) * sizeof *turn_span_at);
    for (size_t i = 0; i < tr->nturns; i++) {
        turn_span_at[i] = (size_t)-1;
        if (tr->turns[i].status != AN_TURN_NOT_RUN && tr->turns[i].start_ms)
            turn_span_at[i] = turn_span(sp, &t, &tr->turns[i], t.span_id);
    }
    for (size_t i = 0; i < t.judgements.n; i++) {
        const struct an_judgement *j = &t.judgements.v[i];
        bool in_turn = j->turn >= 0 && (size_t)j->turn < tr->nturns &&
                       turn_span_at[j->turn] != (size_t)-1;
        char parent[17];
        memcpy(parent, in_turn ? sp->v[turn_span_at[j->turn]].span_id : t.span_id, 17);
        judge_span(sp, &t, j, parent);
    }
    simulator_spans(sp, &t, t.span_id);
}
