/*
 * One chat-completions answer: the chunks of a stream (or the single body
 * of a non-stream answer) assembled into text, tool calls, finish reason
 * and usage. Tool calls arrive as deltas keyed by `index`: the first delta
 * of an index names the call (id, function.name), the later ones add
 * pieces of function.arguments, and several calls may interleave.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/vec.h"
#include "proto/openai_int.h"

#define SNIPPET 80 /* bytes of bad data shown in an error */

void an_oai_answer_init(struct an_oai_answer *a)
{
    memset(a, 0, sizeof *a);
}

void an_oai_answer_release(struct an_oai_answer *a)
{
    for (size_t i = 0; i < a->ncalls; i++) {
        free(a->calls[i].id);
        free(a->calls[i].name);
        an_buf_release(&a->calls[i].args);
    }
    free(a->calls);
    free(a->id);
    free(a->finish_reason);
    an_buf_release(&a->text);
    json_decref(a->usage);
    free(a->model);
    memset(a, 0, sizeof *a);
}

void an_oai_snippet(char *out, size_t cap, const char *data, size_t len)
{
    size_t n = len < SNIPPET ? len : SNIPPET;
    char *s = an_utf8_lossy(data, n);
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = ' ';
    snprintf(out, cap, "%s%s", s, len > SNIPPET ? "..." : "");
    free(s);
}

static void append_json_string(struct an_buf *b, const json_t *s)
{
    an_buf_append_text(b, json_string_value(s), json_string_length(s));
}

/* ---- tool calls ---- */

static struct an_oai_call *call_by_index(struct an_oai_answer *a, long long index)
{
    for (size_t i = 0; i < a->ncalls; i++)
        if (a->calls[i].index == index)
            return &a->calls[i];
    return NULL;
}

static struct an_oai_call *call_by_id(struct an_oai_answer *a, const char *id)
{
    for (size_t i = 0; i < a->ncalls; i++)
        if (a->calls[i].id && !strcmp(a->calls[i].id, id))
            return &a->calls[i];
    return NULL;
}

static struct an_oai_call *call_new(struct an_oai_answer *a, long long index, int64_t t_ms,
                                    struct an_err *err)
{
    size_t cap = a->max_calls ? a->max_calls : AN_OAI_MAX_CALLS;
    if (a->ncalls >= cap) {
        an_fail(err, AN_ELIMIT, NULL, "more than %zu tool calls in one answer (max_tool_calls)",
                cap);
        return NULL;
    }
    AN_GROW(a->calls, a->ncalls, a->cap_calls);
    struct an_oai_call *c = &a->calls[a->ncalls++];
    memset(c, 0, sizeof *c);
    c->index = index;
    c->start_ms = c->last_ms = t_ms;
    return c;
}

static long long next_index(const struct an_oai_answer *a)
{
    long long max = -1;
    for (size_t i = 0; i < a->ncalls; i++)
        if (a->calls[i].index > max)
            max = a->calls[i].index;
    return max + 1;
}

/* Which call a delta continues. Servers that leave `index` out (a few
 * OpenAI-compatible ones do) are followed by id, then by position: a delta
 * without either continues the last call. */
static struct an_oai_call *call_for(struct an_oai_answer *a, const json_t *d, const char *where,
                                    int64_t t_ms, struct an_err *err)
{
    json_t *ix = json_object_get(d, "index");
    const char *id = an_json_str(d, "id");
    struct an_oai_call *c;
    if (json_is_integer(ix)) {
        long long k = (long long)json_integer_value(ix);
        return (c = call_by_index(a, k)) ? c : call_new(a, k, t_ms, err);
    }
    if (ix && !json_is_null(ix)) {
        an_fail(err, AN_EPROTO, NULL, "%s: 'index' is a %s, not an integer", where,
                an_json_type_name(ix));
        return NULL;
    }
    if (id && *id)
        return (c = call_by_id(a, id)) ? c : call_new(a, next_index(a), t_ms, err);
    if (a->ncalls)
        return &a->calls[a->ncalls - 1];
    return call_new(a, 0, t_ms, err);
}

/* `arguments` is a string in the spec; some servers send the object
 * itself, which is kept as its compact JSON text. */
static int add_args(struct an_oai_call *c, const json_t *args, const char *where,
                    struct an_err *err)
{
    if (!args || json_is_null(args))
        return AN_OK;
    if (json_is_string(args)) {
        append_json_string(&c->args, args);
        return AN_OK;
    }
    if (json_is_object(args) || json_is_array(args)) {
        char *s = an_json_compact(args);
        an_buf_puts(&c->args, s);
        free(s);
        return AN_OK;
    }
    return an_fail(err, AN_EPROTO, NULL, "%s: 'function.arguments' is a %s, not a string", where,
                   an_json_type_name(args));
}

static int call_piece(struct an_oai_answer *a, const json_t *d, const char *where, int64_t t_ms,
                      struct an_err *err)
{
    if (!json_is_object(d))
        return an_fail(err, AN_EPROTO, NULL, "%s is a %s, not an object", where,
                       an_json_type_name(d));
    struct an_oai_call *c = call_for(a, d, where, t_ms, err);
    if (!c)
        return err->code;
    const char *id = an_json_str(d, "id");
    if (!c->id && id && *id)
        c->id = an_xstrdup(id);
    json_t *fn = json_object_get(d, "function");
    if (fn && !json_is_null(fn) && !json_is_object(fn))
        return an_fail(err, AN_EPROTO, NULL, "%s: 'function' is a %s, not an object", where,
                       an_json_type_name(fn));
    const char *name = an_json_str(fn, "name");
    /* The name comes with the first delta; servers that repeat it on every
     * delta repeat the same name, so later ones are ignored. */
    if (!c->name && name && *name)
        c->name = an_xstrdup(name);
    c->last_ms = t_ms;
    return add_args(c, json_object_get(fn, "arguments"), where, err);
}

static int calls_list(struct an_oai_answer *a, const json_t *list, const char *where, int64_t t_ms,
                      struct an_err *err)
{
    char at[96];
    size_t k;
    json_t *d;
    if (!list || json_is_null(list))
        return AN_OK;
    if (!json_is_array(list))
        return an_fail(err, AN_EPROTO, NULL, "%s: 'tool_calls' is a %s, not an array", where,
                       an_json_type_name(list));
    json_array_foreach(list, k, d)
    {
        snprintf(at, sizeof at, "%s: tool_calls[%zu]", where, k);
        int rc = call_piece(a, d, at, t_ms, err);
        if (rc)
            return rc;
    }
    return AN_OK;
}

/* ---- shared members ---- */

static int add_content(struct an_oai_answer *a, const json_t *c, const char *where,
                       struct an_err *err)
{
    if (!c || json_is_null(c))
        return AN_OK;
    if (json_is_string(c)) {
        append_json_string(&a->text, c);
        return AN_OK;
    }
    if (json_is_array(c)) { /* content parts: the text ones are the answer */
        size_t k;
        json_t *p;
        json_array_foreach(c, k, p)
        {
            json_t *t = json_object_get(p, "text");
            if (json_is_string(t))
                append_json_string(&a->text, t);
        }
        return AN_OK;
    }
    return an_fail(err, AN_EPROTO, NULL, "%s: 'content' is a %s, not a string", where,
                   an_json_type_name(c));
}

/* A refusal is what the user reads instead of an answer: it is the text. */
static void add_refusal(struct an_oai_answer *a, const json_t *r)
{
    if (json_is_string(r))
        append_json_string(&a->text, r);
}

static void keep_common(struct an_oai_answer *a, const json_t *o)
{
    const char *id = an_json_str(o, "id");
    if (!a->id && id)
        a->id = an_xstrdup(id);
    const char *model = an_json_str(o, "model");
    if (!a->model && model)
        a->model = an_xstrdup(model);
    json_t *usage = json_object_get(o, "usage");
    if (json_is_object(usage)) {
        json_decref(a->usage);
        a->usage = json_deep_copy(usage);
    }
}

static void keep_finish(struct an_oai_answer *a, const json_t *choice)
{
    const char *fr = an_json_str(choice, "finish_reason");
    if (fr) {
        free(a->finish_reason);
        a->finish_reason = an_xstrdup(fr);
    }
}

/* An error object where a chunk or an answer was expected. */
static int api_error(const json_t *o, const char *where, struct an_err *err)
{
    json_t *e = json_object_get(o, "error");
    const char *msg = json_is_string(e) ? json_string_value(e) : an_json_str(e, "message");
    json_t *code = json_object_get(e, "code");
    const char *type = an_json_str(e, "type");
    char extra[160] = "";
    if (json_is_string(code))
        snprintf(extra, sizeof extra, " (code %.100s)", json_string_value(code));
    else if (json_is_integer(code))
        snprintf(extra, sizeof extra, " (code %lld)", (long long)json_integer_value(code));
    else if (type)
        snprintf(extra, sizeof extra, " (%.100s)", type);
    return an_fail(err, AN_ERUN, NULL, "the API reported an error in %s: %.600s%s", where,
                   msg ? msg : "(no message)", extra);
}

static bool has_error(const json_t *o)
{
    json_t *e = json_object_get(o, "error");
    return e && !json_is_null(e);
}

/* choices[k] with index 0 (or, without an index, the first): the only
 * choice asked for (n is 1 unless params say otherwise). */
static const json_t *first_choice(const json_t *choices)
{
    size_t k;
    json_t *c;
    json_array_foreach(choices, k, c)
    {
        json_t *ix = json_object_get(c, "index");
        if (json_is_integer(ix) ? json_integer_value(ix) == 0 : k == 0)
            return c;
    }
    return NULL;
}

static bool blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!strchr(" \t\r\n", s[i]))
            return false;
    return true;
}

static bool is_done(const char *s, size_t n)
{
    while (n && strchr(" \t\r\n", *s))
        s++, n--;
    while (n && strchr(" \t\r\n", s[n - 1]))
        n--;
    return n == 6 && !memcmp(s, "[DONE]", 6);
}

/* ---- stream ---- */

int an_oai_chunk(struct an_oai_answer *a, const char *data, size_t len, int64_t t_ms,
                 struct an_err *err)
{
    char why[256], show[SNIPPET * 3 + 8], where[64];
    unsigned long long no = (unsigned long long)++a->nchunks;
    if (a->done) {
        a->after_done++;
        return AN_OK;
    }
    if (is_done(data, len)) {
        a->done = true;
        return AN_OK;
    }
    if (blank(data, len))
        return AN_OK; /* keep-alive */
    json_t *o = an_json_parse(data, len, why, sizeof why);
    if (!o) {
        an_oai_snippet(show, sizeof show, data, len);
        return an_fail(err, AN_EPROTO, NULL, "chunk #%llu is not valid JSON (%s): %s", no, why,
                       show);
    }
    int rc = AN_OK;
    snprintf(where, sizeof where, "chunk #%llu", no);
    if (!json_is_object(o)) {
        an_oai_snippet(show, sizeof show, data, len);
        rc = an_fail(err, AN_EPROTO, NULL, "chunk #%llu is a JSON %s, not an object: %s", no,
                     an_json_type_name(o), show);
        goto done;
    }
    if (has_error(o)) {
        rc = api_error(o, where, err);
        goto done;
    }
    keep_common(a, o);
    json_t *choices = json_object_get(o, "choices");
    if (!choices || json_is_null(choices))
        goto done; /* the usage chunk (choices []), or a server's own extra */
    if (!json_is_array(choices)) {
        rc = an_fail(err, AN_EPROTO, NULL, "chunk #%llu: 'choices' is a %s, not an array", no,
                     an_json_type_name(choices));
        goto done;
    }
    const json_t *c = first_choice(choices);
    if (!c)
        goto done;
    a->has_choice = true;
    json_t *delta = json_object_get(c, "delta");
    if (delta && !json_is_null(delta) && !json_is_object(delta)) {
        rc = an_fail(err, AN_EPROTO, NULL, "chunk #%llu: 'delta' is a %s, not an object", no,
                     an_json_type_name(delta));
        goto done;
    }
    if ((rc = add_content(a, json_object_get(delta, "content"), where, err)))
        goto done;
    add_refusal(a, json_object_get(delta, "refusal"));
    if ((rc = calls_list(a, json_object_get(delta, "tool_calls"), where, t_ms, err)))
        goto done;
    keep_finish(a, c);
done:
    json_decref(o);
    return rc;
}

int an_oai_stream_end(const struct an_oai_answer *a, struct an_err *err)
{
    if (!a->nchunks)
        return an_fail(err, AN_EPROTO, NULL, "the stream ended before its first chunk");
    if (!a->done && a->finish_reason)
        return an_fail(err, AN_EPROTO, NULL,
                       "the stream ended after finish_reason '%.60s' but before data: [DONE]",
                       a->finish_reason);
    if (!a->done)
        return an_fail(err, AN_EPROTO, NULL,
                       "the stream was cut after %llu chunks, before finish_reason and [DONE]",
                       (unsigned long long)a->nchunks);
    if (!a->has_choice)
        return an_fail(err, AN_EPROTO, NULL,
                       "empty answer: the stream reached [DONE] without any choice");
    return AN_OK;
}

/* ---- one JSON answer ---- */

int an_oai_parse_body(struct an_oai_answer *a, const char *body, size_t len, int64_t t_ms,
                      struct an_err *err)
{
    char why[256], show[SNIPPET * 3 + 8];
    const char *where = "the answer";
    a->nchunks = 1;
    a->done = true;
    json_t *o = an_json_parse(body, len, why, sizeof why);
    if (!o) {
        an_oai_snippet(show, sizeof show, body, len);
        return an_fail(err, AN_EPROTO, NULL, "the answer is not valid JSON (%s): %s", why,
                       len ? show : "(empty body)");
    }
    int rc = AN_OK;
    if (!json_is_object(o)) {
        an_oai_snippet(show, sizeof show, body, len);
        rc = an_fail(err, AN_EPROTO, NULL, "the answer is a JSON %s, not an object: %s",
                     an_json_type_name(o), show);
        goto done;
    }
    if (has_error(o)) {
        rc = api_error(o, where, err);
        goto done;
    }
    keep_common(a, o);
    json_t *choices = json_object_get(o, "choices");
    const json_t *c = json_is_array(choices) ? first_choice(choices) : NULL;
    if (!c) {
        an_oai_snippet(show, sizeof show, body, len);
        rc = an_fail(err, AN_EPROTO, NULL, "empty answer: no choices in %s", show);
        goto done;
    }
    a->has_choice = true;
    json_t *msg = json_object_get(c, "message");
    if (!json_is_object(msg)) {
        rc = an_fail(err, AN_EPROTO, NULL, "the answer's choices[0] has no 'message' object");
        goto done;
    }
    if ((rc = add_content(a, json_object_get(msg, "content"), where, err)))
        goto done;
    add_refusal(a, json_object_get(msg, "refusal"));
    /* The calls of a whole message are numbered by position: the `index`
     * of a stream delta has no meaning here. */
    json_t *calls = json_object_get(msg, "tool_calls");
    if (calls && !json_is_null(calls) && !json_is_array(calls)) {
        rc = an_fail(err, AN_EPROTO, NULL, "the answer: 'tool_calls' is a %s, not an array",
                     an_json_type_name(calls));
        goto done;
    }
    size_t k;
    json_t *d;
    json_array_foreach(calls, k, d)
    {
        char at[64];
        snprintf(at, sizeof at, "the answer: tool_calls[%zu]", k);
        if (!json_is_object(d)) {
            rc = an_fail(err, AN_EPROTO, NULL, "%s is a %s, not an object", at,
                         an_json_type_name(d));
            goto done;
        }
        struct an_oai_call *call = call_new(a, (long long)k, t_ms, err);
        if (!call) {
            rc = err->code;
            goto done;
        }
        const char *id = an_json_str(d, "id");
        json_t *fn = json_object_get(d, "function");
        const char *name = an_json_str(fn, "name");
        if (id && *id)
            call->id = an_xstrdup(id);
        if (name && *name)
            call->name = an_xstrdup(name);
        if ((rc = add_args(call, json_object_get(fn, "arguments"), at, err)))
            goto done;
    }
    keep_finish(a, c);
done:
    json_decref(o);
    return rc;
}

/* ---- error bodies ---- */

static char *json_message(const json_t *o)
{
    json_t *e = json_object_get(o, "error");
    const char *s = json_is_string(e) ? json_string_value(e) : an_json_str(e, "message");
    if (!s)
        s = an_json_str(o, "message");
    if (!s)
        s = an_json_str(o, "detail");
    if (s && *s)
        return an_utf8_lossy(s, strlen(s));
    json_t *detail = json_object_get(o, "detail"); /* FastAPI's 422: a list */
    if (detail && !json_is_null(detail))
        return an_json_compact(detail);
    return NULL;
}

/* The "message" string of a body cut before its end, read as far as it
 * goes: the usual place of the words an API explains itself with. */
static char *scan_message(const char *body, size_t len)
{
    static const char key[] = "\"message\"";
    const char *p = NULL, *end = body + len;
    for (const char *q = body; !p && (size_t)(end - q) >= sizeof key - 1; q++)
        if (!memcmp(q, key, sizeof key - 1))
            p = q;
    if (!p)
        return NULL;
    p += sizeof key - 1;
    while (p < end && strchr(" \t\r\n", *p))
        p++;
    if (p == end || *p++ != ':')
        return NULL;
    while (p < end && strchr(" \t\r\n", *p))
        p++;
    if (p == end || *p++ != '"')
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    bool closed = false;
    for (; p < end; p++) {
        if (*p == '"') {
            closed = true;
            break;
        }
        if (*p == '\\' && p + 1 < end) {
            p++;
            an_buf_putc(&b, *p == 'n' || *p == 't' || *p == 'r' ? ' ' : *p);
            continue;
        }
        an_buf_putc(&b, *p);
    }
    if (!closed)
        an_buf_puts(&b, "...");
    char *s = b.len ? an_utf8_lossy(an_buf_cstr(&b), b.len) : NULL;
    an_buf_release(&b);
    return s;
}

char *an_oai_error_message(const char *body, size_t len)
{
    if (!body || !len)
        return NULL;
    json_t *o = an_json_parse(body, len, NULL, 0);
    if (o) {
        char *m = json_is_object(o) ? json_message(o) : NULL;
        json_decref(o);
        return m;
    }
    return scan_message(body, len);
}
