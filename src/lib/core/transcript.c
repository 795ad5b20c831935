#include "ananke/transcript.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/vec.h"
#include "core/json.h"

/* The kinds of warning a turn had, each with how many came: a kind is a
 * message without its numbers and its quoted parts ("unknown event type
 * 'X'" is one kind whatever X is). */
struct warn_kind {
    uint64_t hash;
    size_t count;
    size_t summary; /* index of its "and K more" line in warnings; 0: none yet */
    bool has_summary;
};
struct an_warn_kinds {
    struct warn_kind *v;
    size_t n, cap;
    size_t *slots; /* open addressing: index in v + 1, 0 empty */
    size_t nslots; /* a power of two, over twice n; 0: none yet */
    size_t kept;   /* warnings kept, summaries apart */
};

#define WARN_SUMMARY_CAP 320
#define WARN_OTHER_HASH 1 /* the kind of what comes past the cap in all */

static uint64_t warn_kind_hash(const char *m)
{
    uint64_t h = 14695981039346656037u;
    for (const char *p = m; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c >= '0' && c <= '9')
            continue;
        if (c == '\'' || c == '"') {
            const char *end = strchr(p + 1, *p);
            if (end) {
                p = end;
                c = '\'';
            }
        }
        h = (h ^ c) * 1099511628211u;
    }
    return h < 2 ? h + 2 : h;
}

static struct warn_kind *warn_kind_find(const struct an_warn_kinds *k, uint64_t hash)
{
    for (size_t i = k->nslots ? hash & (k->nslots - 1) : 0; k->nslots && k->slots[i];
         i = (i + 1) & (k->nslots - 1))
        if (k->v[k->slots[i] - 1].hash == hash)
            return &k->v[k->slots[i] - 1];
    return NULL;
}

static struct warn_kind *warn_kind_of(struct an_warn_kinds *k, uint64_t hash)
{
    struct warn_kind *w = warn_kind_find(k, hash);
    if (w)
        return w;
    if (2 * (k->n + 1) > k->nslots) {
        free(k->slots);
        k->nslots = k->nslots ? 2 * k->nslots : 64;
        k->slots = an_xcalloc(k->nslots, sizeof *k->slots);
        for (size_t j = 0; j < k->n; j++) {
            size_t i = k->v[j].hash & (k->nslots - 1);
            while (k->slots[i])
                i = (i + 1) & (k->nslots - 1);
            k->slots[i] = j + 1;
        }
    }
    AN_GROW(k->v, k->n, k->cap);
    w = &k->v[k->n++];
    memset(w, 0, sizeof *w);
    w->hash = hash;
    size_t i = hash & (k->nslots - 1);
    while (k->slots[i])
        i = (i + 1) & (k->nslots - 1);
    k->slots[i] = k->n;
    return w;
}

/* Keep msg as a warning of r, or count it in its kind's summary line. */
static void warn_add(struct an_turn_rec *r, const char *msg)
{
    size_t max = r->max_warnings ? r->max_warnings : AN_DEFAULT_MAX_WARNINGS;
    if (max > SIZE_MAX / 10)
        max = SIZE_MAX / 10;
    if (!r->warn_kinds)
        r->warn_kinds = an_xcalloc(1, sizeof *r->warn_kinds);
    struct an_warn_kinds *k = r->warn_kinds;
    uint64_t hash = warn_kind_hash(msg);
    struct warn_kind *w = warn_kind_find(k, hash);
    if (k->kept < 10 * max && (!w || w->count < max)) {
        if (!w)
            w = warn_kind_of(k, hash);
        w->count++;
        k->kept++;
        AN_GROW(r->warnings, r->nwarnings, r->cap_warnings);
        r->warnings[r->nwarnings++] = an_xstrdup(msg);
        return;
    }
    /* past the cap in all, what its kind would still have kept counts
     * with the kinds never seen: "of other kinds" */
    if (!w || w->count < max)
        w = warn_kind_of(k, WARN_OTHER_HASH);
    w->count++;
    r->warnings_dropped++;
    if (!w->has_summary) {
        AN_GROW(r->warnings, r->nwarnings, r->cap_warnings);
        w->summary = r->nwarnings;
        w->has_summary = true;
        r->warnings[r->nwarnings++] = an_xmalloc(WARN_SUMMARY_CAP);
    }
    if (w->hash == WARN_OTHER_HASH)
        snprintf(r->warnings[w->summary], WARN_SUMMARY_CAP,
                 "and %zu more warnings of other kinds, not kept (max_warnings: %zu in all)",
                 w->count, 10 * max);
    else {
        size_t cut = strlen(msg) < 200 ? strlen(msg) : 200;
        while (cut > 0 && ((unsigned char)msg[cut] & 0xC0) == 0x80)
            cut--; /* not inside a UTF-8 sequence */
        snprintf(r->warnings[w->summary], WARN_SUMMARY_CAP,
                 "and %zu more warnings like '%.*s', not kept (max_warnings: %zu of a kind)",
                 w->count - max, (int)cut, msg, max);
    }
}

void an_turn_warn_dropped(struct an_turn_rec *r, size_t n)
{
    r->warnings_dropped = n > SIZE_MAX - r->warnings_dropped ? SIZE_MAX : r->warnings_dropped + n;
}

void an_transcript_init(struct an_transcript *t)
{
    memset(t, 0, sizeof *t);
}

static void free_strs(char **v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(v[i]);
    free(v);
}

/* What one attempt at a turn produced; a retry starts without it. */
static void attempt_release(struct an_turn_rec *r)
{
    free(r->run_id);
    free(r->text);
    free(r->error);
    json_decref(r->state);
    json_decref(r->messages);
    json_decref(r->response);
    json_decref(r->actions);
    json_decref(r->retrievals);
    json_decref(r->failure);
    json_decref(r->task);
    json_decref(r->usage);
    json_decref(r->server_calls);
    for (size_t i = 0; i < r->nframes; i++)
        free(r->frames[i].data);
    free(r->frames);
    free_strs(r->warnings, r->nwarnings);
    if (r->warn_kinds) {
        free(r->warn_kinds->v);
        free(r->warn_kinds->slots);
    }
    free(r->warn_kinds);
}

static void turn_release(struct an_turn_rec *r)
{
    free(r->input);
    json_decref(r->input_parts);
    attempt_release(r);
    free_strs(r->retry_log, r->retries);
}

void an_transcript_drop_calls(struct an_transcript *t, size_t from)
{
    while (t->ncalls > from) {
        struct an_tool_call *c = &t->calls[--t->ncalls];
        free(c->id);
        free(c->name);
        free(c->args_text);
        free(c->args_error);
        json_decref(c->args);
        json_decref(c->result);
        free(c->status);
    }
}

void an_transcript_release(struct an_transcript *t)
{
    an_transcript_drop_calls(t, 0);
    free(t->calls);
    for (size_t i = 0; i < t->nturns; i++)
        turn_release(&t->turns[i]);
    free(t->turns);
    memset(t, 0, sizeof *t);
}

/* v, an array of *cap items of `size` bytes holding n, cut to n */
static void *fit_array(void *v, size_t n, size_t *cap, size_t size)
{
    if (*cap <= n)
        return v;
    *cap = n;
    if (n)
        return an_xrealloc(v, n * size);
    free(v);
    return NULL;
}

void an_transcript_fit(struct an_transcript *t)
{
    t->calls = fit_array(t->calls, t->ncalls, &t->cap_calls, sizeof *t->calls);
    t->turns = fit_array(t->turns, t->nturns, &t->cap_turns, sizeof *t->turns);
}

struct an_turn_rec *an_transcript_add_turn(struct an_transcript *t, const char *kind)
{
    if (t->nturns == t->cap_turns) {
        /* most transcripts hold a turn or a few: start at two records, not
         * AN_GROW's eight (2 KiB, past malloc's cheapest sizes) */
        t->cap_turns = t->cap_turns ? t->cap_turns * 2 : 2;
        t->turns = an_xrealloc(t->turns, t->cap_turns * sizeof *t->turns);
    }
    struct an_turn_rec *r = &t->turns[t->nturns];
    memset(r, 0, sizeof *r);
    r->index = (unsigned)t->nturns;
    r->kind = kind;
    r->first_call = t->ncalls;
    t->nturns++;
    return r;
}

const json_t *an_tool_call_args(const struct an_tool_call *tc)
{
    if (tc->args_lazy) {
        /* the cache: the header's contract lets a reader fill it */
        struct an_tool_call *w = (struct an_tool_call *)tc;
        const char *s = w->args_text;
        size_t n = strlen(s);
        w->args = strspn(s, " \t\r\n") == n ? json_object() : an_json_parse(s, n, NULL, 0);
        if (!w->args) /* an_tool_call_parse_args vouched for the text */
            an_oom();
        w->args_lazy = false;
    }
    return tc->args;
}

bool an_tool_call_parse_args(struct an_tool_call *tc, char *why, size_t why_cap)
{
    const char *s = tc->args_text;
    size_t n = strlen(s);
    json_decref(tc->args);
    free(tc->args_error);
    tc->args = NULL;
    tc->args_error = NULL;
    tc->args_lazy = false;
    /* Tools without parameters often stream no argument text at all; the
     * AG-UI reference client reads that as {} too. Most arguments are never
     * read (no check looks at them, the report does not show them): only
     * make sure they are JSON, and build the tree when someone asks. */
    if (strspn(s, " \t\r\n") == n || an_json_valid_fast(s, n)) {
        tc->args_lazy = true;
        return true;
    }
    tc->args = an_json_parse(s, n, why, why_cap);
    if (tc->args)
        return true;
    tc->args_error = an_xstrdup(why);
    return false;
}

struct an_tool_call *an_transcript_add_call(struct an_transcript *t, unsigned turn)
{
    AN_GROW(t->calls, t->ncalls, t->cap_calls);
    struct an_tool_call *c = &t->calls[t->ncalls++];
    memset(c, 0, sizeof *c);
    c->turn = turn;
    return c;
}

void an_turn_mark_event(struct an_turn_rec *r, int64_t t_ms)
{
    if (!r->first_event_ms)
        r->first_event_ms = t_ms;
}

void an_turn_mark_text(struct an_turn_rec *r, int64_t t_ms)
{
    if (!r->first_text_ms)
        r->first_text_ms = t_ms;
}

void an_turn_add_frame(struct an_turn_rec *r, int64_t t_ms, const char *data, size_t len)
{
    r->events++;
    if (r->drop_frames)
        return;
    AN_GROW(r->frames, r->nframes, r->cap_frames);
    r->frames[r->nframes].t_ms = t_ms;
    r->frames[r->nframes].data = an_xstrndup(data, len);
    r->nframes++;
}

void an_turn_warn(struct an_turn_rec *r, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    warn_add(r, msg);
}

void an_turn_reset(struct an_turn_rec *r)
{
    struct an_turn_rec keep = *r;
    /* what belongs to the failed attempt goes; the turn itself stays */
    attempt_release(r);
    memset(r, 0, sizeof *r);
    r->index = keep.index;
    r->kind = keep.kind;
    r->input = keep.input;
    r->input_parts = keep.input_parts;
    r->first_call = keep.first_call;
    r->retries = keep.retries;
    r->retry_log = keep.retry_log;
    r->drop_frames = keep.drop_frames;
    r->drop_messages = keep.drop_messages;
    r->max_warnings = keep.max_warnings;
    memcpy(r->traceparent, keep.traceparent, sizeof r->traceparent);
}

void an_turn_set_response(struct an_turn_rec *r, json_t *response)
{
    json_decref(r->response);
    json_decref(r->actions);
    json_decref(r->retrievals);
    r->response = response;
    json_t *acts = json_object_get(response, "proposed_actions");
    r->actions = json_is_array(acts) ? json_incref(acts) : json_array();
    r->retrievals = json_array();
    size_t i;
    json_t *ev;
    json_array_foreach(json_object_get(response, "events"), i, ev)
    {
        const char *type = an_json_str(ev, "type");
        if (type && !strcmp(type, "retrieval"))
            json_array_append(r->retrievals, ev);
    }
}

void an_turn_add_usage(struct an_turn_rec *r, const char *model, int64_t input, int64_t output,
                       int64_t total, double cost)
{
    json_t *u = json_object();
    if (model && *model)
        json_object_set_new(u, "model", json_string(model));
    if (input >= 0)
        json_object_set_new(u, "input_tokens", json_integer(input));
    if (output >= 0)
        json_object_set_new(u, "output_tokens", json_integer(output));
    if (total >= 0)
        json_object_set_new(u, "total_tokens", json_integer(total));
    if (cost >= 0) {
        json_object_set_new(u, "cost", json_real(cost));
        json_object_set_new(u, "cost_source", json_string("agent"));
    }
    if (!r->usage)
        r->usage = json_array();
    json_array_append_new(r->usage, u);
}

void an_turn_retry(struct an_turn_rec *r, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->retry_log = an_xrealloc(r->retry_log, (r->retries + 1) * sizeof *r->retry_log);
    r->retry_log[r->retries++] = an_xstrdup(msg);
}

void an_turn_fail(struct an_turn_rec *r, int code, const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    if (r->status == AN_TURN_ERROR)
        return; /* the first cause wins */
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->status = AN_TURN_ERROR;
    r->error_code = code;
    free(r->error);
    r->error = an_xstrdup(msg);
}

static void scope_answer(struct an_scope *s, const struct an_turn_rec *r)
{
    s->actions = r->actions;
    s->retrievals = r->retrievals;
    s->output = json_object_get(json_object_get(r->response, "final_output"), "content");
}

struct an_scope an_scope_turn(const struct an_transcript *t, size_t turn)
{
    const struct an_turn_rec *r = &t->turns[turn];
    struct an_scope s = {
        .calls = t->calls ? t->calls + r->first_call : NULL, /* NULL + 0 is undefined */
        .ncalls = r->ncalls,
        .text = r->text ? r->text : "",
        .start_ms = r->start_ms,
        .end_ms = r->end_ms,
        .first_event_ms = r->first_event_ms,
        .first_text_ms = r->first_text_ms,
        .turn = (int)turn,
        .turns = r,
        .nturns = 1,
    };
    scope_answer(&s, r);
    s.task = r->task;
    s.state = r->state;
    s.messages = r->messages;
    return s;
}

struct an_scope an_scope_test(const struct an_transcript *t, char **joined)
{
    size_t ran = 0;
    for (size_t i = 0; i < t->nturns; i++)
        ran += t->turns[i].status != AN_TURN_NOT_RUN;
    const char *text;
    if (t->nturns && ran == 1 && t->turns[0].status != AN_TURN_NOT_RUN) {
        /* the first turn alone: its text, lent (a long answer is not copied) */
        *joined = NULL;
        text = t->turns[0].text ? t->turns[0].text : "";
    } else {
        struct an_buf b = AN_BUF_INIT;
        for (size_t i = 0; i < t->nturns; i++) {
            if (t->turns[i].status == AN_TURN_NOT_RUN)
                continue;
            if (b.len || i)
                an_buf_putc(&b, '\n');
            an_buf_puts(&b, t->turns[i].text ? t->turns[i].text : "");
        }
        *joined = an_buf_detach(&b, NULL);
        text = *joined;
    }
    struct an_scope s = {
        .calls = t->calls,
        .ncalls = t->ncalls,
        .text = text,
        .start_ms = t->start_ms,
        .end_ms = t->end_ms,
        .turn = -1,
        .turns = t->turns,
        .nturns = t->nturns,
    };
    for (size_t i = t->nturns; i-- > 0 && !s.task;)
        if (t->turns[i].status != AN_TURN_NOT_RUN)
            s.task = t->turns[i].task;
    for (size_t i = t->nturns; i-- > 0;)
        if (t->turns[i].status != AN_TURN_NOT_RUN) {
            s.state = t->turns[i].state;
            s.messages = t->turns[i].messages;
            break;
        }
    for (size_t i = t->nturns; i-- > 0;)
        if (t->turns[i].response) {
            scope_answer(&s, &t->turns[i]);
            break;
        }
    return s;
}

static json_t *str_or_null(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

json_t *an_transcript_to_json(const struct an_transcript *t, bool with_frames)
{
    json_t *calls = json_array();
    for (size_t i = 0; i < t->ncalls; i++) {
        const struct an_tool_call *c = &t->calls[i];
        json_t *o = json_pack("{s:o,s:o,s:I,s:I,s:I}", "id", str_or_null(c->id), "name",
                              str_or_null(c->name), "turn", (json_int_t)c->turn, "start_ms",
                              (json_int_t)c->start_ms, "timestamp", (json_int_t)c->ts_ms);
        /* shared, not changed (jansson counts references through non-const
         * pointers) */
        const json_t *args = an_tool_call_args(c);
        json_object_set_new(o, "args", args ? json_incref((json_t *)args) : json_null());
        json_object_set_new(o, "args_text", str_or_null(c->args_text));
        if (c->args_error)
            json_object_set_new(o, "args_error", str_or_null(c->args_error));
        if (c->result)
            json_object_set_new(o, "result", json_incref(c->result));
        if (c->result_ms)
            json_object_set_new(o, "result_ms", json_integer(c->result_ms));
        if (c->status)
            json_object_set_new(o, "status", str_or_null(c->status));
        json_array_append_new(calls, o);
    }
    json_t *turns = json_array();
    for (size_t i = 0; i < t->nturns; i++) {
        const struct an_turn_rec *r = &t->turns[i];
        static const char *st[] = {"ok", "error", "not_run"};
        json_t *o = json_pack("{s:I,s:s,s:s,s:I,s:I}", "index", (json_int_t)r->index, "kind",
                              r->kind ? r->kind : "user", "status", st[r->status], "start_ms",
                              (json_int_t)r->start_ms, "end_ms", (json_int_t)r->end_ms);
        if (r->input)
            json_object_set_new(o, "input", str_or_null(r->input));
        if (r->run_id)
            json_object_set_new(o, "run_id", str_or_null(r->run_id));
        json_object_set_new(o, "text", str_or_null(r->text ? r->text : ""));
        if (r->first_event_ms)
            json_object_set_new(o, "first_event_ms", json_integer(r->first_event_ms));
        if (r->first_text_ms)
            json_object_set_new(o, "first_text_ms", json_integer(r->first_text_ms));
        json_object_set_new(o, "first_call", json_integer((json_int_t)r->first_call));
        json_object_set_new(o, "ncalls", json_integer((json_int_t)r->ncalls));
        if (r->http_status)
            json_object_set_new(o, "http_status", json_integer(r->http_status));
        if (r->state)
            json_object_set_new(o, "state", json_incref(r->state));
        if (r->messages)
            json_object_set_new(o, "messages", json_incref(r->messages));
        if (r->error)
            json_object_set_new(o, "error", str_or_null(r->error));
        if (r->retries) {
            json_t *rl = json_array();
            for (size_t k = 0; k < r->retries; k++)
                json_array_append_new(rl, str_or_null(r->retry_log[k]));
            json_object_set_new(o, "retries", rl);
        }
        if (r->response)
            json_object_set_new(o, "response", json_incref(r->response));
        if (r->failure)
            json_object_set_new(o, "failure", json_incref(r->failure));
        if (r->task)
            json_object_set_new(o, "task", json_incref(r->task));
        if (r->usage)
            json_object_set_new(o, "usage", json_incref(r->usage));
        if (r->server_calls)
            json_object_set_new(o, "server_calls", json_incref(r->server_calls));
        if (r->nwarnings) {
            json_t *w = json_array();
            for (size_t k = 0; k < r->nwarnings; k++)
                json_array_append_new(w, str_or_null(r->warnings[k]));
            json_object_set_new(o, "warnings", w);
        }
        if (r->warnings_dropped)
            json_object_set_new(o, "warnings_dropped",
                                json_integer(r->warnings_dropped > INT64_MAX
                                                 ? INT64_MAX
                                                 : (json_int_t)r->warnings_dropped));
        if (with_frames) {
            json_t *f = json_array();
            for (size_t k = 0; k < r->nframes; k++)
                json_array_append_new(
                    f, json_pack("{s:I,s:o}", "t_ms", (json_int_t)r->frames[k].t_ms, "data",
                                 an_json_lossy(r->frames[k].data, strlen(r->frames[k].data))));
            json_object_set_new(o, "frames", f);
        }
        json_array_append_new(turns, o);
    }
    return json_pack("{s:I,s:I,s:o,s:o}", "start_ms", (json_int_t)t->start_ms, "end_ms",
                     (json_int_t)t->end_ms, "turns", turns, "tool_calls", calls);
}
