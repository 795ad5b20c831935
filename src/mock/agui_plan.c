#include "agui_plan.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "mock_mcp.h"

struct render {
    struct mock_plan *p;
    const struct agui_rule *r;
    const struct agui_plan_input *in;
    const char *eol;
    unsigned next_id; /* automatic ids within this answer */
    bool finished;    /* a run_finished step sent RUN_FINISHED */
};

/* A JSON string of s[0..n). Scenario text is valid UTF-8 (libyaml checks),
 * but request text may not be, so fall back to the lossy form. */
static json_t *jstr(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    return j ? j : an_json_lossy(s, n);
}

/* Parse JSON text this module wrote itself (from the scenario), so it
 * cannot fail unless memory runs out. */
static json_t *jparse(const char *text)
{
    json_t *j = json_loads(text, JSON_DECODE_ANY, NULL);
    if (!j)
        an_oom();
    return j;
}

/* One SSE event: prefix + compact JSON + a blank line, in the rule's framing.
 * Steals `ev`. `ts` is the step's timestamp JSON or NULL. */
static void emit(struct render *rd, json_t *ev, const char *ts)
{
    if (ts)
        json_object_set_new(ev, "timestamp", jparse(ts));
    char *js = an_json_compact(ev);
    json_decref(ev);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, rd->r->data_prefix);
    an_buf_puts(&b, js);
    an_buf_puts(&b, rd->eol);
    an_buf_puts(&b, rd->eol);
    free(js);
    size_t len = 0;
    char *data = an_buf_detach(&b, &len);
    mock_plan_write_take(rd->p, data, len);
}

static json_t *event_new(const char *type)
{
    json_t *ev = json_object();
    if (!ev)
        an_oom();
    json_object_set_new(ev, "type", json_string(type));
    return ev;
}

static const char *auto_id(struct render *rd, const char *given, const char *kind, char *buf,
                           size_t cap)
{
    if (given)
        return given;
    snprintf(buf, cap, "%s_%lu_%u", kind, rd->in->seq, ++rd->next_id);
    return buf;
}

/* The streamed part of a text message or tool call: s[0..n) as `type`
 * events in st->chunks pieces, st->ms apart, each naming the owner by
 * `id_key` = id. */
static void emit_deltas(struct render *rd, const struct agui_step *st, const char *type,
                        const char *id_key, const char *id, const char *s, size_t n)
{
    size_t *cuts;
    size_t k = mock_split_utf8(s, n, st->chunks, &cuts);
    for (size_t i = 0; i < k; i++) {
        if (i > 0)
            mock_plan_sleep(rd->p, st->ms);
        json_t *ev = event_new(type);
        json_object_set_new(ev, id_key, json_string(id));
        json_object_set_new(ev, "delta", jstr(s + cuts[i], cuts[i + 1] - cuts[i]));
        emit(rd, ev, st->timestamp);
    }
    free(cuts);
}

static void render_text(struct render *rd, const struct agui_step *st)
{
    char idbuf[64];
    const char *id = auto_id(rd, st->id, "msg", idbuf, sizeof idbuf);
    json_t *ev = event_new("TEXT_MESSAGE_START");
    json_object_set_new(ev, "messageId", json_string(id));
    json_object_set_new(ev, "role", json_string(st->role ? st->role : "assistant"));
    emit(rd, ev, st->timestamp);
    emit_deltas(rd, st, "TEXT_MESSAGE_CONTENT", "messageId", id, st->str, st->str_len);
    ev = event_new("TEXT_MESSAGE_END");
    json_object_set_new(ev, "messageId", json_string(id));
    emit(rd, ev, st->timestamp);
}

/* A tool step with `server`: the call made for real; its result's content
 * (malloc'd) unless the step scripts its own result. */
static char *call_server(const struct agui_step *st)
{
    json_t *args = jparse(st->args);
    json_t *res = mock_mcp_call(st->server, NULL, st->str, args, 0);
    char *text = mock_mcp_content_text(res);
    json_decref(args);
    json_decref(res);
    return text;
}

static void render_tool(struct render *rd, const struct agui_step *st)
{
    char *called = st->server ? call_server(st) : NULL;
    if (st->unreported) {
        free(called);
        return;
    }
    char idbuf[64], ridbuf[64];
    const char *id = auto_id(rd, st->id, "call", idbuf, sizeof idbuf);
    json_t *ev = event_new("TOOL_CALL_START");
    json_object_set_new(ev, "toolCallId", json_string(id));
    json_object_set_new(ev, "toolCallName", jstr(st->str, st->str_len));
    if (st->parent)
        json_object_set_new(ev, "parentMessageId", json_string(st->parent));
    emit(rd, ev, st->timestamp);
    emit_deltas(rd, st, "TOOL_CALL_ARGS", "toolCallId", id, st->args, st->args_len);
    ev = event_new("TOOL_CALL_END");
    json_object_set_new(ev, "toolCallId", json_string(id));
    emit(rd, ev, st->timestamp);
    if (!st->result && !called)
        return;
    const char *rid = auto_id(rd, st->result_id, "msg", ridbuf, sizeof ridbuf);
    ev = event_new("TOOL_CALL_RESULT");
    json_object_set_new(ev, "messageId", json_string(rid));
    json_object_set_new(ev, "toolCallId", json_string(id));
    json_object_set_new(ev, "content",
                        st->result ? jstr(st->result, st->result_len) : json_string(called));
    free(called);
    json_object_set_new(ev, "role", json_string("tool"));
    emit(rd, ev, st->timestamp);
}

/* RUN_STARTED or RUN_FINISHED with the request's ids, and the rule's
 * `start` or `finish` members, which may also override threadId/runId, to
 * script a wrong echo. */
static void emit_run(struct render *rd, const char *type)
{
    json_t *ev = event_new(type);
    json_object_set_new(ev, "threadId", jstr(rd->in->thread_id, strlen(rd->in->thread_id)));
    json_object_set_new(ev, "runId", jstr(rd->in->run_id, strlen(rd->in->run_id)));
    const char *more = !strcmp(type, "RUN_STARTED") ? rd->r->start : rd->r->finish;
    if (more) {
        json_t *extra = jparse(more);
        json_object_update(ev, extra);
        json_decref(extra);
    }
    emit(rd, ev, NULL);
}

static void render_step(struct render *rd, const struct agui_step *st)
{
    struct an_buf b = AN_BUF_INIT;
    json_t *ev;
    switch (st->kind) {
    case AGUI_STEP_TEXT:
        render_text(rd, st);
        break;
    case AGUI_STEP_TOOL:
        render_tool(rd, st);
        break;
    case AGUI_STEP_DELAY:
        mock_plan_sleep(rd->p, st->ms);
        break;
    case AGUI_STEP_EVENT:
        an_buf_puts(&b, rd->r->data_prefix);
        an_buf_puts(&b, st->event);
        an_buf_puts(&b, rd->eol);
        an_buf_puts(&b, rd->eol);
        mock_plan_write(rd->p, an_buf_cstr(&b), b.len);
        break;
    case AGUI_STEP_COMMENT:
        an_buf_putc(&b, ':');
        if (st->str_len) {
            an_buf_putc(&b, ' ');
            an_buf_append(&b, st->str, st->str_len);
        }
        an_buf_puts(&b, rd->eol);
        an_buf_puts(&b, rd->eol);
        mock_plan_write(rd->p, an_buf_cstr(&b), b.len);
        break;
    case AGUI_STEP_RAW:
        mock_plan_write(rd->p, st->str, st->str_len);
        break;
    case AGUI_STEP_RUN_ERROR:
        ev = event_new("RUN_ERROR");
        json_object_set_new(ev, "message", jstr(st->str, st->str_len));
        if (st->code)
            json_object_set_new(ev, "code", json_string(st->code));
        emit(rd, ev, st->timestamp);
        break;
    case AGUI_STEP_CUT:
        mock_plan_push(rd->p, MOCK_ACT_CUT);
        break;
    case AGUI_STEP_STALL:
        mock_plan_push(rd->p, MOCK_ACT_STALL);
        break;
    case AGUI_STEP_RUN_STARTED:
        emit_run(rd, "RUN_STARTED");
        break;
    case AGUI_STEP_RUN_FINISHED:
        emit_run(rd, "RUN_FINISHED");
        rd->finished = true;
        break;
    }
    an_buf_release(&b);
}

static void render_rule(struct render *rd)
{
    const struct agui_rule *r = rd->r;
    if (r->run_auto)
        emit_run(rd, "RUN_STARTED");
    for (size_t i = 0; i < r->nsteps; i++)
        render_step(rd, &r->steps[i]);
    /* The scenario loader rejects steps after these, so only the last
     * step can end the stream. */
    bool ended = r->nsteps > 0 && (r->steps[r->nsteps - 1].kind == AGUI_STEP_RUN_ERROR ||
                                   r->steps[r->nsteps - 1].kind == AGUI_STEP_CUT ||
                                   r->steps[r->nsteps - 1].kind == AGUI_STEP_STALL);
    if (r->run_auto && !ended && !rd->finished)
        emit_run(rd, "RUN_FINISHED");
}

void agui_plan_build(struct mock_plan *p, const struct agui_rule *rule,
                     const struct agui_plan_input *in)
{
    struct render rd = {.p = p, .r = rule, .in = in};
    if (rule) {
        rd.eol = agui_framing_eol(rule->framing);
        render_rule(&rd);
        return;
    }
    /* The built-in answer: a well-formed run that says what went unmatched,
     * so a missing rule shows up in the test's transcript, not as a hang. */
    struct an_buf text = AN_BUF_INIT;
    an_buf_puts(&text, "no rule matched: ");
    an_buf_append(&text, in->user_text, in->user_text_len);
    struct agui_step st = {.kind = AGUI_STEP_TEXT, .chunks = 1};
    st.str = an_buf_cstr(&text);
    st.str_len = text.len;
    struct agui_rule builtin = {.status = 200,
                                .framing = AGUI_FRAMING_LF,
                                .data_prefix = "data: ",
                                .run_auto = true,
                                .steps = &st,
                                .nsteps = 1};
    rd.r = &builtin;
    rd.eol = "\n";
    render_rule(&rd);
    an_buf_release(&text);
}
