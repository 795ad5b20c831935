/* A2A requests out, answers in: JSON-RPC bodies for both protocol versions,
 * and results (tasks, messages, status and artifact updates) into the
 * transcript (a2a.h). No I/O. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "proto/a2a.h"

/* ---- parts ---- */

/* A part of either version in the 1.0 shape: {text} | {data} | {url} |
 * {raw}, with mediaType, filename and metadata when given. New reference,
 * or NULL when it is none of those. */
static json_t *part_norm(const json_t *p)
{
    if (!json_is_object(p))
        return NULL;
    json_t *o = json_object();
    const char *kind = an_json_str(p, "kind");
    const json_t *v;
    if (kind) {
        if (!strcmp(kind, "text") && json_is_string(v = json_object_get(p, "text"))) {
            json_object_set(o, "text", (json_t *)v);
        } else if (!strcmp(kind, "data") && (v = json_object_get(p, "data"))) {
            json_object_set(o, "data", (json_t *)v);
        } else if (!strcmp(kind, "file") && json_is_object(v = json_object_get(p, "file"))) {
            const json_t *u = json_object_get(v, "uri"), *b = json_object_get(v, "bytes");
            if (json_is_string(u))
                json_object_set(o, "url", (json_t *)u);
            else if (json_is_string(b))
                json_object_set(o, "raw", (json_t *)b);
            else
                goto bad;
            if (an_json_str(v, "mimeType"))
                json_object_set(o, "mediaType", json_object_get(v, "mimeType"));
            if (an_json_str(v, "name"))
                json_object_set(o, "filename", json_object_get(v, "name"));
        } else {
            goto bad;
        }
    } else {
        static const char *const content[] = {"text", "data", "url", "raw", NULL};
        size_t k = 0;
        while (content[k] && !json_object_get(p, content[k]))
            k++;
        if (!content[k])
            goto bad;
        v = json_object_get(p, content[k]);
        if (k != 1 && !json_is_string(v))
            goto bad;
        json_object_set(o, content[k], (json_t *)v);
        if (an_json_str(p, "mediaType") && *an_json_str(p, "mediaType"))
            json_object_set(o, "mediaType", json_object_get(p, "mediaType"));
        if (an_json_str(p, "filename") && *an_json_str(p, "filename"))
            json_object_set(o, "filename", json_object_get(p, "filename"));
    }
    if (json_is_object(json_object_get(p, "metadata")))
        json_object_set(o, "metadata", json_object_get(p, "metadata"));
    return o;
bad:
    json_decref(o);
    return NULL;
}

/* A normalized part as `version` writes it on the wire. New reference. */
static json_t *part_wire(const json_t *n, int version)
{
    if (version != AN_A2A_V0_3)
        return json_deep_copy(n);
    json_t *o = json_object();
    const json_t *v;
    if ((v = json_object_get(n, "text"))) {
        json_object_set_new(o, "kind", json_string("text"));
        json_object_set(o, "text", (json_t *)v);
    } else if ((v = json_object_get(n, "data"))) {
        json_object_set_new(o, "kind", json_string("data"));
        json_object_set(o, "data", (json_t *)v);
    } else {
        json_t *f = json_object();
        if ((v = json_object_get(n, "url")))
            json_object_set(f, "uri", (json_t *)v);
        else
            json_object_set(f, "bytes", json_object_get(n, "raw"));
        if ((v = json_object_get(n, "mediaType")))
            json_object_set(f, "mimeType", (json_t *)v);
        if ((v = json_object_get(n, "filename")))
            json_object_set(f, "name", (json_t *)v);
        json_object_set_new(o, "kind", json_string("file"));
        json_object_set_new(o, "file", f);
    }
    if ((v = json_object_get(n, "metadata")))
        json_object_set(o, "metadata", (json_t *)v);
    return o;
}

/* What a part is worth to an assertion: its text, its data, or for a file
 * {url | raw, mediaType?, filename?}. New reference. */
static json_t *part_value(const json_t *n)
{
    const json_t *v;
    if ((v = json_object_get(n, "text")) || (v = json_object_get(n, "data")))
        return json_incref((json_t *)v);
    json_t *o = json_deep_copy(n);
    json_object_del(o, "metadata");
    return o;
}

/* ---- requests ---- */

char *an_a2a_send_body(const struct an_a2a_send *m, struct an_err *err)
{
    bool v03 = m->version == AN_A2A_V0_3;
    json_t *parts = json_array();
    if (m->text && *m->text) {
        json_t *t = json_pack("{s:s%}", "text", m->text, strlen(m->text));
        if (!t) /* not UTF-8: send it mended */
            t = json_pack("{s:o}", "text", an_json_lossy(m->text, strlen(m->text)));
        json_array_append_new(parts, part_wire(t, m->version));
        json_decref(t);
    }
    size_t i;
    json_t *p;
    json_array_foreach((json_t *)m->parts, i, p)
    {
        json_t *n = part_norm(p);
        if (!n) {
            json_decref(parts);
            an_fail(err, AN_EUSAGE, NULL,
                    "part %zu is not an A2A part ({text}, {data}, {url} or {raw}, or a 0.3 "
                    "part with 'kind')",
                    i + 1);
            return NULL;
        }
        json_array_append_new(parts, part_wire(n, m->version));
        json_decref(n);
    }
    json_t *msg = json_object();
    if (v03)
        json_object_set_new(msg, "kind", json_string("message"));
    json_object_set_new(msg, "messageId", json_string(m->message_id));
    json_object_set_new(msg, "role", json_string(v03 ? "user" : "ROLE_USER"));
    json_object_set_new(msg, "parts", parts);
    if (m->context_id)
        json_object_set_new(msg, "contextId", json_string(m->context_id));
    if (m->task_id)
        json_object_set_new(msg, "taskId", json_string(m->task_id));

    json_t *conf = json_object();
    if (m->nmodes) {
        json_t *modes = json_array();
        for (size_t k = 0; k < m->nmodes; k++)
            json_array_append_new(modes, json_string(m->modes[k]));
        json_object_set_new(conf, "acceptedOutputModes", modes);
    }
    if (v03)
        json_object_set_new(conf, "blocking", json_boolean(m->blocking));
    else if (!m->blocking)
        json_object_set_new(conf, "returnImmediately", json_true());
    json_t *params = json_pack("{s:o}", "message", msg);
    if (json_object_size(conf))
        json_object_set_new(params, "configuration", conf);
    else
        json_decref(conf);
    if (m->tenant && !v03)
        json_object_set_new(params, "tenant", json_string(m->tenant));
    const char *method = v03 ? (m->stream ? "message/stream" : "message/send")
                             : (m->stream ? "SendStreamingMessage" : "SendMessage");
    json_t *req = json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", (json_int_t)m->id,
                            "method", method, "params", params);
    char *s = an_json_compact(req);
    json_decref(req);
    return s;
}

char *an_a2a_cancel_body(int version, long id, const char *task_id, const char *tenant)
{
    json_t *params = json_pack("{s:s}", "id", task_id);
    if (tenant && version != AN_A2A_V0_3)
        json_object_set_new(params, "tenant", json_string(tenant));
    json_t *req = json_pack("{s:s,s:I,s:s,s:o}", "jsonrpc", "2.0", "id", (json_int_t)id, "method",
                            version == AN_A2A_V0_3 ? "tasks/cancel" : "CancelTask", "params",
                            params);
    char *s = an_json_compact(req);
    json_decref(req);
    return s;
}

/* ---- answers ---- */

static struct an_turn_rec *cur(struct an_a2a_turn *d)
{
    return &d->t->turns[d->t->nturns - 1];
}

void an_a2a_turn_init(struct an_a2a_turn *d, struct an_transcript *t, json_t *seen)
{
    memset(d, 0, sizeof *d);
    d->t = t;
    d->seen = seen;
    d->artifacts = json_object();
}

void an_a2a_turn_release(struct an_a2a_turn *d)
{
    an_buf_release(&d->text);
    json_decref(d->task);
    json_decref(d->artifacts);
    free(d->context_id);
    memset(d, 0, sizeof *d);
}

static void piece(struct an_a2a_turn *d, const char *s, size_t n, const char *artifact, bool join)
{
    if (d->text.len && !(join && artifact && d->last_piece && !strcmp(d->last_piece, artifact)))
        an_buf_putc(&d->text, '\n');
    an_buf_append_text(&d->text, s, n);
    d->last_piece = artifact;
}

static void set_context(struct an_a2a_turn *d, const char *ctx)
{
    if (!ctx || !*ctx)
        return;
    free(d->context_id);
    d->context_id = an_xstrdup(ctx);
    if (d->task && !an_json_str(d->task, "contextId"))
        json_object_set_new(d->task, "contextId", json_string(ctx));
}

static void ensure_task(struct an_a2a_turn *d, const char *id, const char *ctx)
{
    if (!d->task)
        d->task = json_pack("{s:o,s:o,s:o,s:o}", "id", json_null(), "contextId", json_null(),
                            "state", json_null(), "states", json_array());
    if (id && *id && !an_json_str(d->task, "id"))
        json_object_set_new(d->task, "id", json_string(id));
    if (ctx && *ctx && !an_json_str(d->task, "contextId"))
        json_object_set_new(d->task, "contextId", json_string(ctx));
    set_context(d, ctx);
    d->message = false;
}

static void set_state(struct an_a2a_turn *d, const json_t *status, int64_t t_ms)
{
    const char *raw = an_json_str(status, "state");
    if (!raw)
        return;
    const char *st = an_a2a_state(raw);
    json_t *sv = st ? json_string(st) : an_json_lossy(raw, strlen(raw));
    if (!st)
        an_turn_warn(cur(d), "unknown task state '%.100s'", raw);
    json_object_set(d->task, "state", sv);
    json_array_append_new(json_object_get(d->task, "states"),
                          json_pack("{s:o,s:I}", "state", sv, "t_ms", (json_int_t)t_ms));
    d->final = an_a2a_state_terminal(st) || an_a2a_state_interrupted(st);
}

/* Non-text parts of a message or artifact: one value, or several as a list. */
static json_t *result_of(json_t *values)
{
    if (json_array_size(values) == 1)
        return json_incref(json_array_get(values, 0));
    return json_incref(values);
}

static size_t add_record(struct an_a2a_turn *d, const char *id, const char *name, json_t *args,
                         int64_t t_ms)
{
    struct an_turn_rec *r = cur(d);
    struct an_tool_call *c = an_transcript_add_call(d->t, r->index);
    c->id = an_xstrdup(id);
    c->name = an_xstrdup(name);
    c->args = args;
    c->args_text = an_json_compact(args);
    c->args_done = true;
    c->start_ms = c->end_ms = c->result_ms = c->ts_ms = t_ms;
    r->ncalls = d->t->ncalls - r->first_call;
    return d->t->ncalls - 1;
}

static void take_message(struct an_a2a_turn *d, const json_t *m, int64_t t_ms)
{
    const char *role = an_json_str(m, "role");
    if (!role || (strcmp(role, "agent") && strcmp(role, "ROLE_AGENT")))
        return;
    const char *id = an_json_str(m, "messageId");
    if (id) {
        char key[600];
        snprintf(key, sizeof key, "m:%.590s", id);
        if (json_object_get(d->seen, key))
            return;
        json_object_set_new(d->seen, key, json_true());
    }
    set_context(d, an_json_str(m, "contextId"));
    json_t *values = json_array();
    size_t i;
    json_t *p;
    json_array_foreach(json_object_get(m, "parts"), i, p)
    {
        json_t *n = part_norm(p);
        if (!n) {
            an_turn_warn(cur(d), "message part %zu is no A2A part", i + 1);
            continue;
        }
        const char *text = an_json_str(n, "text");
        if (text)
            piece(d, text, json_string_length(json_object_get(n, "text")), NULL, false);
        else
            json_array_append_new(values, part_value(n));
        json_decref(n);
    }
    if (json_array_size(values)) {
        size_t k = add_record(d, id ? id : "", "message",
                              json_pack("{s:s}", "messageId", id ? id : ""), t_ms);
        d->t->calls[k].result = result_of(values);
    }
    json_decref(values);
}

static void take_artifact(struct an_a2a_turn *d, const json_t *a, bool append, int64_t t_ms)
{
    if (!json_is_object(a))
        return;
    char gen[32];
    const char *id = an_json_str(a, "artifactId");
    if (!id) {
        snprintf(gen, sizeof gen, "artifact-%zu", json_object_size(d->artifacts) + 1);
        id = gen;
    }
    const char *name = an_json_str(a, "name");
    json_t *slot = json_object_get(d->artifacts, id);
    json_t *values;
    size_t k;
    if (slot && append) {
        k = (size_t)json_integer_value(json_object_get(slot, "call"));
        values = json_object_get(slot, "values");
    } else {
        struct an_buf nm = AN_BUF_INIT;
        an_buf_printf(&nm, "artifact:%s", name && *name ? name : id);
        json_t *args = json_pack("{s:s}", "artifactId", id);
        if (name)
            json_object_set_new(args, "name", json_string(name));
        k = add_record(d, id, an_buf_cstr(&nm), args, t_ms);
        an_buf_release(&nm);
        slot = json_pack("{s:I,s:[]}", "call", (json_int_t)k, "values");
        json_object_set_new(d->artifacts, id, slot);
        values = json_object_get(slot, "values");
    }
    const char *key = json_object_iter_key(json_object_iter_at(d->artifacts, id));
    size_t i;
    json_t *p;
    /* One artifact reads the same streamed or whole: the A2A SDKs' task
     * aggregation turns the chunks of an `append: true` update into more
     * parts of the artifact, so chunks and parts join alike: text that
     * follows text of the same artifact is glued on, with no separator
     * (docs/a2a.md "What is recorded"). */
    bool after_text = append && json_is_string(json_array_get(values, json_array_size(values) - 1));
    json_array_foreach(json_object_get(a, "parts"), i, p)
    {
        json_t *n = part_norm(p);
        if (!n) {
            an_turn_warn(cur(d), "artifact '%.100s' part %zu is no A2A part", id, i + 1);
            continue;
        }
        json_t *v = part_value(n);
        const char *text = an_json_str(n, "text");
        size_t nv = json_array_size(values);
        json_t *last = nv ? json_array_get(values, nv - 1) : NULL;
        if (text) {
            piece(d, text, strlen(text), key, after_text);
            if (after_text && json_is_string(last)) {
                /* a chunk of the text streamed so far */
                struct an_buf b = AN_BUF_INIT;
                an_buf_append(&b, json_string_value(last), json_string_length(last));
                an_buf_append(&b, text, json_string_length(json_object_get(n, "text")));
                json_array_set_new(values, nv - 1, an_json_lossy(b.data ? b.data : "", b.len));
                an_buf_release(&b);
                json_decref(v);
                v = NULL;
            }
        }
        if (v)
            json_array_append_new(values, v);
        after_text = text != NULL;
        json_decref(n);
    }
    struct an_tool_call *c = &d->t->calls[k];
    json_decref(c->result);
    c->result = result_of(values);
    c->end_ms = c->result_ms = c->ts_ms = t_ms;
}

static void take_task(struct an_a2a_turn *d, const json_t *task, int64_t t_ms)
{
    const char *id = an_json_str(task, "id");
    ensure_task(d, id, an_json_str(task, "contextId"));
    size_t i;
    json_t *m;
    json_array_foreach(json_object_get(task, "history"), i, m) take_message(d, m, t_ms);
    const json_t *st = json_object_get(task, "status");
    if (json_is_object(st)) {
        set_state(d, st, t_ms);
        /* a stream continuing an interrupted task opens with the task as it
         * was: still input-required, which is no answer yet */
        if (d->resumed && id && !strcmp(id, d->resumed) &&
            an_a2a_state_interrupted(an_json_str(d->task, "state")) &&
            json_array_size(json_object_get(d->task, "states")) == 1)
            d->final = false;
        take_message(d, json_object_get(st, "message"), t_ms);
    }
    json_array_foreach(json_object_get(task, "artifacts"), i, m)
    {
        /* a snapshot repeats what earlier turns or events of this one took */
        const char *aid = an_json_str(m, "artifactId");
        char key[600];
        snprintf(key, sizeof key, "a:%.590s", aid ? aid : "");
        if (aid && (json_object_get(d->artifacts, aid) || json_object_get(d->seen, key)))
            continue;
        take_artifact(d, m, false, t_ms);
    }
}

static void take_status(struct an_a2a_turn *d, const json_t *ev, int64_t t_ms)
{
    ensure_task(d, an_json_str(ev, "taskId"), an_json_str(ev, "contextId"));
    const json_t *st = json_object_get(ev, "status");
    set_state(d, st, t_ms);
    take_message(d, json_object_get(st, "message"), t_ms);
    if (json_is_true(json_object_get(ev, "final")))
        d->final = true; /* 0.3 marks the last event */
}

static void take_artifact_update(struct an_a2a_turn *d, const json_t *ev, int64_t t_ms)
{
    ensure_task(d, an_json_str(ev, "taskId"), an_json_str(ev, "contextId"));
    take_artifact(d, json_object_get(ev, "artifact"), json_is_true(json_object_get(ev, "append")),
                  t_ms);
}

static void take_direct(struct an_a2a_turn *d, const json_t *m, int64_t t_ms)
{
    take_message(d, m, t_ms);
    set_context(d, an_json_str(m, "contextId"));
    if (!d->task) {
        d->message = true;
        d->final = true;
    }
}

int an_a2a_turn_result(struct an_a2a_turn *d, const json_t *res, int64_t t_ms, char *why,
                       size_t cap)
{
    if (!json_is_object(res)) {
        snprintf(why, cap, "the result is %s, not an object", an_json_type_name(res));
        return AN_EPROTO;
    }
    const char *kind = an_json_str(res, "kind");
    const json_t *v;
    if (kind) { /* 0.3 */
        if (!strcmp(kind, "task"))
            take_task(d, res, t_ms);
        else if (!strcmp(kind, "message"))
            take_direct(d, res, t_ms);
        else if (!strcmp(kind, "status-update"))
            take_status(d, res, t_ms);
        else if (!strcmp(kind, "artifact-update"))
            take_artifact_update(d, res, t_ms);
        else {
            snprintf(why, cap, "a result of unknown kind '%.100s'", kind);
            return AN_EPROTO;
        }
        return AN_OK;
    }
    if (json_is_object(v = json_object_get(res, "task")))
        take_task(d, v, t_ms);
    else if (json_is_object(v = json_object_get(res, "message")))
        take_direct(d, v, t_ms);
    else if (json_is_object(v = json_object_get(res, "statusUpdate")))
        take_status(d, v, t_ms);
    else if (json_is_object(v = json_object_get(res, "artifactUpdate")))
        take_artifact_update(d, v, t_ms);
    else if (json_object_get(res, "status") && an_json_str(res, "id"))
        take_task(d, res, t_ms); /* a bare Task (GetTask, CancelTask) */
    else {
        char *t = an_json_compact(res);
        snprintf(why, cap,
                 "a result that is no task, message, statusUpdate or artifactUpdate: %.200s", t);
        free(t);
        return AN_EPROTO;
    }
    return AN_OK;
}

void an_a2a_turn_finish(struct an_a2a_turn *d)
{
    struct an_turn_rec *r = cur(d);
    free(r->text);
    r->text = an_buf_detach(&d->text, NULL);
    r->ncalls = d->t->ncalls - r->first_call;
    json_decref(r->task);
    r->task = d->task;
    d->task = NULL;
    const char *id;
    json_t *v;
    json_object_foreach(d->artifacts, id, v)
    {
        char key[600];
        snprintf(key, sizeof key, "a:%.590s", id);
        json_object_set_new(d->seen, key, json_true());
    }
}
