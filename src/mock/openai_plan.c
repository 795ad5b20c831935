#include "openai_plan.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "mock_mcp.h"
#include "openai_request.h"

/* A JSON string of s[0..n). Scenario text is valid UTF-8 (libyaml checks),
 * but request text may not be, so fall back to the lossy form. */
static json_t *jstr(const char *s, size_t n)
{
    json_t *j = json_stringn(s, n);
    return j ? j : an_json_lossy(s, n);
}

static char *take_compact(json_t *j, size_t *len)
{
    char *s = an_json_compact(j);
    json_decref(j);
    if (len)
        *len = strlen(s);
    return s;
}

/* The reply a rule gives; for the built-in answer (rule NULL), a reply made
 * in `tmp` whose text lives in `text` (both released by the caller). */
static const struct oai_rule *resolve(const struct oai_rule *rule, const struct oai_answer *in,
                                      struct oai_rule *tmp, struct an_buf *text)
{
    if (rule) {
        /* tool calls with `server` are made before the answer proposes them */
        for (size_t i = 0; i < rule->reply.ncalls; i++) {
            const struct oai_call *c = &rule->reply.calls[i];
            if (!c->server)
                continue;
            json_t *args = json_loadb(c->args, c->args_len, 0, NULL);
            json_decref(mock_mcp_call(c->server, NULL, c->name, args, 0));
            json_decref(args);
        }
        return rule;
    }
    /* A well-formed answer that says what went unmatched, so a missing rule
     * shows up in the test's transcript, not as a hang. */
    an_buf_puts(text, "no rule matched: ");
    an_buf_append(text, in->user_text, in->user_text_len);
    memset(tmp, 0, sizeof *tmp);
    tmp->status = 200;
    tmp->has_reply = true;
    tmp->chunks = 1;
    tmp->reply.text = an_buf_cstr(text);
    tmp->reply.text_len = text->len;
    tmp->reply.prompt_tokens = tmp->reply.completion_tokens = tmp->reply.total_tokens = -1;
    return tmp;
}

static const char *call_id(const struct oai_call *c, const struct oai_answer *in, size_t i,
                           char *buf, size_t cap)
{
    if (c->id)
        return c->id;
    snprintf(buf, cap, "call_%lu_%zu", in->seq, i + 1);
    return buf;
}

static const char *finish_reason(const struct oai_reply *rp)
{
    if (rp->finish_reason)
        return rp->finish_reason;
    return rp->ncalls ? "tool_calls" : "stop";
}

static json_t *usage_json(const struct oai_reply *rp, const struct oai_answer *in)
{
    long long prompt = rp->prompt_tokens, completion = rp->completion_tokens;
    if (prompt < 0)
        prompt = (long long)in->prompt_words;
    if (completion < 0) {
        size_t words = rp->text ? oai_count_words(rp->text, rp->text_len) : 0;
        for (size_t i = 0; i < rp->ncalls; i++)
            words += oai_count_words(rp->calls[i].args, rp->calls[i].args_len);
        completion = (long long)words;
    }
    long long total = rp->total_tokens >= 0 ? rp->total_tokens : prompt + completion;
    return json_pack("{s:I,s:I,s:I}", "prompt_tokens", (json_int_t)prompt, "completion_tokens",
                     (json_int_t)completion, "total_tokens", (json_int_t)total);
}

/* The members every completion and chunk starts with. */
static json_t *envelope(const struct oai_answer *in, const char *object)
{
    char id[64];
    snprintf(id, sizeof id, "chatcmpl-mock-%lu", in->seq);
    json_t *o = json_object();
    if (!o)
        an_oom();
    json_object_set_new(o, "id", json_string(id));
    json_object_set_new(o, "object", json_string(object));
    json_object_set_new(o, "created", json_integer((json_int_t)in->created));
    json_object_set_new(o, "model", jstr(in->model, strlen(in->model)));
    return o;
}

/* ---- non-stream ------------------------------------------------------------- */

char *oai_render_completion(const struct oai_rule *rule, const struct oai_answer *in, size_t *len)
{
    struct oai_rule tmp;
    struct an_buf text = AN_BUF_INIT;
    const struct oai_reply *rp = &resolve(rule, in, &tmp, &text)->reply;
    json_t *msg = json_object();
    json_object_set_new(msg, "role", json_string("assistant"));
    if (rp->text)
        json_object_set_new(msg, "content", jstr(rp->text, rp->text_len));
    else /* the API sends null content beside tool calls */
        json_object_set_new(msg, "content", rp->ncalls ? json_null() : json_string(""));
    if (rp->ncalls) {
        json_t *calls = json_array();
        for (size_t i = 0; i < rp->ncalls; i++) {
            const struct oai_call *c = &rp->calls[i];
            char idbuf[64];
            json_t *fn = json_object();
            json_object_set_new(fn, "name", json_string(c->name));
            json_object_set_new(fn, "arguments", jstr(c->args, c->args_len));
            json_t *call = json_object();
            json_object_set_new(call, "id", json_string(call_id(c, in, i, idbuf, sizeof idbuf)));
            json_object_set_new(call, "type", json_string("function"));
            json_object_set_new(call, "function", fn);
            json_array_append_new(calls, call);
        }
        json_object_set_new(msg, "tool_calls", calls);
    }
    json_t *choice = json_object();
    json_object_set_new(choice, "index", json_integer(0));
    json_object_set_new(choice, "message", msg);
    json_object_set_new(choice, "logprobs", json_null());
    json_object_set_new(choice, "finish_reason", json_string(finish_reason(rp)));
    json_t *o = envelope(in, "chat.completion");
    json_object_set_new(o, "choices", json_pack("[o]", choice));
    json_object_set_new(o, "usage", usage_json(rp, in));
    an_buf_release(&text);
    return take_compact(o, len);
}

/* ---- stream ------------------------------------------------------------------ */

struct chunks {
    char **items;
    size_t n, cap;
};

/* One chat.completion.chunk as an SSE event; steals `choices` and `usage`
 * (NULL usage = "usage": null when include_usage, else absent). */
static void add_chunk(struct chunks *cs, const struct oai_answer *in, json_t *choices,
                      json_t *usage)
{
    json_t *o = envelope(in, "chat.completion.chunk");
    json_object_set_new(o, "choices", choices);
    if (usage)
        json_object_set_new(o, "usage", usage);
    else if (in->include_usage)
        json_object_set_new(o, "usage", json_null());
    char *js = take_compact(o, NULL);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "data: %s\n\n", js);
    free(js);
    if (cs->n == cs->cap) {
        cs->cap = cs->cap ? cs->cap * 2 : 16;
        cs->items = an_xrealloc(cs->items, cs->cap * sizeof *cs->items);
    }
    cs->items[cs->n++] = an_buf_detach(&b, NULL);
}

/* A chunk with one choice carrying `delta` (stolen) and finish_reason. */
static void add_delta(struct chunks *cs, const struct oai_answer *in, json_t *delta,
                      const char *finish)
{
    json_t *choice = json_object();
    json_object_set_new(choice, "index", json_integer(0));
    json_object_set_new(choice, "delta", delta);
    json_object_set_new(choice, "logprobs", json_null());
    json_object_set_new(choice, "finish_reason", finish ? json_string(finish) : json_null());
    add_chunk(cs, in, json_pack("[o]", choice), NULL);
}

/* {"tool_calls":[{"index":i, ...}]} around one call delta (stolen). */
static json_t *call_delta(size_t i, json_t *fields)
{
    json_t *call = json_pack("{s:I}", "index", (json_int_t)i);
    json_object_update(call, fields);
    json_decref(fields);
    return json_pack("{s:[o]}", "tool_calls", call);
}

static void render_chunks(struct chunks *cs, const struct oai_rule *r, const struct oai_answer *in)
{
    const struct oai_reply *rp = &r->reply;
    size_t *cuts;
    size_t k;
    /* The API opens with the role; content is "" before text, null before
     * tool calls. */
    json_t *first = json_pack("{s:s}", "role", "assistant");
    json_object_set_new(first, "content", rp->text || !rp->ncalls ? json_string("") : json_null());
    add_delta(cs, in, first, NULL);
    if (rp->text && rp->text_len) {
        k = mock_split_utf8(rp->text, rp->text_len, r->chunks, &cuts);
        for (size_t i = 0; i < k; i++)
            add_delta(
                cs, in,
                json_pack("{s:o}", "content", jstr(rp->text + cuts[i], cuts[i + 1] - cuts[i])),
                NULL);
        free(cuts);
    }
    for (size_t c = 0; c < rp->ncalls; c++) {
        const struct oai_call *call = &rp->calls[c];
        char idbuf[64];
        json_t *head = json_pack("{s:s,s:s,s:{s:s,s:s}}", "id",
                                 call_id(call, in, c, idbuf, sizeof idbuf), "type", "function",
                                 "function", "name", call->name, "arguments", "");
        add_delta(cs, in, call_delta(c, head), NULL);
        if (!call->args_len)
            continue;
        k = mock_split_utf8(call->args, call->args_len, r->chunks, &cuts);
        for (size_t i = 0; i < k; i++) {
            json_t *piece = json_pack("{s:{s:o}}", "function", "arguments",
                                      jstr(call->args + cuts[i], cuts[i + 1] - cuts[i]));
            add_delta(cs, in, call_delta(c, piece), NULL);
        }
        free(cuts);
    }
    add_delta(cs, in, json_object(), finish_reason(rp));
    if (in->include_usage)
        add_chunk(cs, in, json_array(), usage_json(rp, in));
}

/* A scripted cut or stall after `n` chunks (or after raw bytes); false when
 * the rule has neither. */
static bool push_break(struct mock_plan *p, const struct oai_rule *r)
{
    if (r->cut)
        mock_plan_push(p, MOCK_ACT_CUT);
    else if (r->stall)
        mock_plan_push(p, MOCK_ACT_STALL);
    return r->cut || r->stall;
}

void oai_render_stream(struct mock_plan *p, const struct oai_rule *rule,
                       const struct oai_answer *in)
{
    struct oai_rule tmp;
    struct an_buf text = AN_BUF_INIT;
    const struct oai_rule *r = resolve(rule, in, &tmp, &text);
    if (r->raw) {
        mock_plan_write(p, r->raw, r->raw_len);
        push_break(p, r);
        an_buf_release(&text);
        return;
    }
    struct chunks cs = {0};
    render_chunks(&cs, r, in);
    unsigned brk = r->cut ? r->cut : r->stall; /* chunks sent before the break */
    bool broke = false;
    for (size_t i = 0; i < cs.n; i++) {
        if (broke) {
            free(cs.items[i]);
            continue;
        }
        if (i > 0)
            mock_plan_sleep(p, r->chunk_delay_ms);
        mock_plan_write_take(p, cs.items[i], strlen(cs.items[i]));
        if (brk && i + 1 == brk)
            broke = push_break(p, r);
    }
    free(cs.items);
    /* a break after more chunks than there are: before [DONE] */
    if (!broke && !push_break(p, r))
        mock_plan_write(p, "data: [DONE]\n\n", 14);
    an_buf_release(&text);
}

/* ---- other bodies ---------------------------------------------------------- */

char *oai_render_models(const struct oai_scenario *s, size_t *len)
{
    json_t *data = json_array();
    for (size_t i = 0; i < s->nmodels; i++)
        json_array_append_new(data, json_pack("{s:s,s:s,s:i,s:s}", "id", s->models[i], "object",
                                              "model", "created", 0, "owned_by", "ananke-mock"));
    return take_compact(json_pack("{s:s,s:o}", "object", "list", "data", data), len);
}

char *oai_render_error(const char *message, const char *type, const char *param, const char *code,
                       size_t *len)
{
    json_t *e = json_object();
    json_object_set_new(e, "message", jstr(message, strlen(message)));
    json_object_set_new(e, "type", json_string(type));
    json_object_set_new(e, "param", param ? json_string(param) : json_null());
    json_object_set_new(e, "code", code ? json_string(code) : json_null());
    return take_compact(json_pack("{s:o}", "error", e), len);
}
