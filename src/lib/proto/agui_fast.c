/* The AG-UI decoder's fast path: the events nearly every stream is made of
 * (TEXT_MESSAGE_CONTENT and TOOL_CALL_ARGS deltas; the starts and ends of
 * runs, text messages and tool calls; tool results with string content),
 * when written plainly, are read
 * straight from their bytes with no jansson tree, and applied when neither
 * the verifier (an_agui_verify_quiet_delta, an_agui_verify_quiet_event)
 * nor the decoder has anything to say about them. Anything unusual (another
 * member, another type of value, a finding to make, a chunk stream open)
 * makes it give up before it has changed anything, and the event takes the
 * general path (agui_decode.c). The deltas are also offered to it straight
 * from the bytes read, before the SSE framer has looked for their end
 * (an_agui_fast_take, the framer's `take`): one pass frames and applies
 * them. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_verify.h"

static struct an_turn_rec *rec(struct an_agui_dec *d)
{
    return &d->t->turns[d->turn];
}

/* an_buf_append without the call while there is room (a delta is small);
 * when there is none, room for four times what it holds, 256 bytes at
 * least (a message's text grows by many small pieces: fewer copies than
 * doubling from 64 bytes; and a first request under glibc's 1 KiB "large"
 * size, which would make malloc consolidate its fast bins each time) */
static inline void put(struct an_buf *b, const char *p, size_t n)
{
    if (b->len + n < b->cap && !b->cap_max) {
        memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return;
    }
    if (!b->cap_max)
        an_buf_reserve(b, (b->len > 64 ? 3 * b->len : 256) + n);
    an_buf_append(b, p, n);
}

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r'))
        s++;
    return s;
}

/* `"key" : "` from *sp, white space allowed around the colon: the key's
 * text (plain ASCII, no escape) in *k and *klen, *sp left on the value's
 * opening quote. false for anything else: the general path decides. */
static bool plain_member(const char **sp, const char *e, const char **k, size_t *klen)
{
    const char *s = skip_ws(*sp, e);
    if (s == e || *s != '"')
        return false;
    *k = ++s;
    while (s < e && *s != '"' && *s != '\\' && (unsigned char)*s >= 0x20 &&
           (unsigned char)*s < 0x80)
        s++;
    if (s == e || *s != '"')
        return false;
    *klen = (size_t)(s - *k);
    s = skip_ws(s + 1, e);
    if (s == e || *s != ':')
        return false;
    s = skip_ws(s + 1, e);
    if (s == e || *s != '"')
        return false;
    *sp = s;
    return true;
}

/* After a member's value (`used` bytes from *sp): 1 and *sp past the ','
 * when another member follows, 0 and *sp on the '}' at the object's end,
 * -1 for anything else. */
static int next_member(const char **sp, const char *e, size_t used)
{
    const char *s = skip_ws(*sp + used, e);
    if (s == e || (*s != '}' && *s != ','))
        return -1;
    *sp = *s == ',' ? s + 1 : s;
    return *s == ',';
}

/* What a delta event says: its kind, its id (into the event's bytes) and
 * its text (into them or, when it had escapes, into the decoder's scratch
 * buffer); `known`: the id is the one of the last delta (d->fast_id). */
struct delta {
    bool text, known;
    const char *id, *delta;
    size_t id_len, delta_len;
};

/* The layout nearly every producer writes (the reference encoder's,
 * JSON.stringify's): {"type":"...","<id key>":"<id>","delta":"<delta>"},
 * from *s, the bytes before e readable (they may run on past the event:
 * an_agui_fast_take): into *f, *s then past the delta's closing quote. */
static bool plain_layout(const char **s, const char *e, const char *known, size_t known_len,
                         struct an_buf *scratch, struct delta *f)
{
    static const char tpre[] = "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"";
    static const char apre[] = "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"";
    static const char dpre[] = "\",\"delta\":\"";
    const char *start = *s, *p = start;
    size_t n = (size_t)(e - p);
    if (n > sizeof tpre && !memcmp(p, tpre, sizeof tpre - 1))
        p += sizeof tpre - 1, f->text = true;
    else if (n > sizeof apre && !memcmp(p, apre, sizeof apre - 1))
        p += sizeof apre - 1, f->text = false;
    else
        return false;
    /* the id of the last delta (already found to be a plain JSON string,
     * so holding no quote), or printable ASCII without escape, looked for
     * no further than an id may go */
    const char *q;
    f->known = (size_t)(e - p) > known_len && p[known_len] == '"' && !memcmp(p, known, known_len);
    if (f->known) {
        q = p + known_len;
    } else {
        size_t room = (size_t)(e - p);
        q = memchr(p, '"', room < AN_AGUI_FAST_ID_MAX ? room : AN_AGUI_FAST_ID_MAX);
        if (!q)
            return false;
        for (const char *c = p; c < q; c++)
            if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x80 || *c == '\\')
                return false;
    }
    if ((size_t)(e - q) < sizeof dpre || memcmp(q, dpre, sizeof dpre - 1))
        return false;
    f->id = p;
    f->id_len = (size_t)(q - p);
    const char *quote = q + sizeof dpre - 2;
    size_t used;
    if (!an_json_scan_string_in(start, quote, (size_t)(e - quote), scratch, &f->delta,
                                &f->delta_len, &used))
        return false;
    *s = quote + used;
    return true;
}

/* Whether data[0..len) is a TEXT_MESSAGE_CONTENT or TOOL_CALL_ARGS
 * written plainly (a flat object of exactly `type`, the id and `delta`, all
 * strings, an id shorter than AN_AGUI_FAST_ID_MAX without escape, in the
 * plain layout printable ASCII or known[0..known_len), an id seen before),
 * into *f. */
static bool delta_scan(const char *data, size_t len, const char *known, size_t known_len,
                       struct an_buf *scratch, struct delta *f)
{
    const char *s = data, *e = data + len;
    const char *type = NULL, *id = NULL, *delta = NULL;
    size_t type_len = 0, id_len = 0, delta_len = 0;
    bool text_key = false; /* the id was `messageId`, not `toolCallId` */
    if (plain_layout(&s, e, known, known_len, scratch, f))
        return s < e && *s == '}' && skip_ws(s + 1, e) == e;
    f->known = false; /* said of the plain layout's id only */
    s = skip_ws(data, e);
    if (s == e || *s != '{')
        return false;
    s++;
    for (;;) {
        const char *k;
        size_t klen;
        if (!plain_member(&s, e, &k, &klen))
            return false;
        const char **val;
        size_t *vlen;
        if (klen == 4 && !memcmp(k, "type", 4))
            val = &type, vlen = &type_len;
        else if (klen == 5 && !memcmp(k, "delta", 5))
            val = &delta, vlen = &delta_len;
        else if ((klen == 9 && !memcmp(k, "messageId", 9)) ||
                 (klen == 10 && !memcmp(k, "toolCallId", 10)))
            val = &id, vlen = &id_len, text_key = klen == 9;
        else
            return false;
        if (*val) /* a key twice: jansson keeps the last */
            return false;
        size_t used;
        if (!an_json_scan_string_in(data, s, (size_t)(e - s), scratch, val, vlen, &used))
            return false;
        /* only the delta may have needed unescaping */
        if (val != &delta && (*val < data || *val >= e))
            return false;
        /* another type of event: given up at once, not after all its
         * members (every event is offered here first) */
        if (val == &type && !(type_len == 20 && !memcmp(type, "TEXT_MESSAGE_CONTENT", 20)) &&
            !(type_len == 14 && !memcmp(type, "TOOL_CALL_ARGS", 14)))
            return false;
        int more = next_member(&s, e, used);
        if (more < 0)
            return false;
        if (!more)
            break;
    }
    if (skip_ws(s + 1, e) != e || !type || !id || !delta || id_len >= AN_AGUI_FAST_ID_MAX)
        return false;
    if (text_key && type_len == 20 && !memcmp(type, "TEXT_MESSAGE_CONTENT", 20))
        f->text = true;
    else if (!text_key && type_len == 14 && !memcmp(type, "TOOL_CALL_ARGS", 14))
        f->text = false;
    else
        return false;
    f->id = id, f->id_len = id_len, f->delta = delta, f->delta_len = delta_len;
    return true;
}

/* The delta f read from data[0..len), applied when the decoder's state
 * lets the fast path apply it; false, nothing changed, when not. */
static bool delta_apply(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms,
                        const struct delta *f)
{
    bool text = f->text, known = f->known;
    const char *id = f->id, *delta = f->delta;
    size_t id_len = f->id_len, delta_len = f->delta_len;
    if (d->run != RUN_ACTIVE || d->chunk != CHUNK_NONE)
        return false;
    /* the verifier is asked again unless it already let this very id and
     * kind through and has judged nothing since */
    uint64_t changes = an_agui_verify_changes(d->verify);
    if (!(known && text == d->fast_text && d->quiet_changes == changes) &&
        !an_agui_verify_quiet_delta(d->verify, text, id, id_len))
        return false;
    d->quiet_changes = changes;

    /* The message or call: the one of the last delta while no id was
     * (re)mapped since, else looked up. A text delta of an unknown message
     * makes one (text_content); an args delta of an unknown call is
     * dropped (tool_args). */
    size_t idx;
    if (d->fast_map_sets == d->map_sets && d->fast_text == text && d->fast_idx != NONE &&
        (known || (d->fast_id_len == id_len && !memcmp(d->fast_id, id, id_len)))) {
        idx = d->fast_idx;
    } else {
        idx = an_agui_idmap_getn(text ? &d->msg_ids : &d->call_ids, id, id_len);
        memcpy(d->fast_id, id, id_len);
        d->fast_id_len = id_len;
        d->fast_text = text;
        d->fast_idx = idx;
        d->fast_map_sets = d->map_sets;
    }
    if (!text && idx != NONE && !d->calls[idx].open)
        return false; /* after its END: the general path reads it (tool_args) */

    /* what the general path does for it, in the same order; the delta
     * holds no NUL (an_json_scan_string leaves \u0000 to jansson), so it is
     * appended as it is */
    struct an_turn_rec *r = rec(d);
    d->nevents++;
    d->now = t_ms;
    an_turn_mark_event(r, t_ms);
    an_turn_add_frame(r, t_ms, data, len);
    if (idx == NONE) {
        if (text) {
            char idz[AN_AGUI_FAST_ID_MAX];
            memcpy(idz, id, id_len);
            idz[id_len] = '\0';
            an_agui_text_content(d, idz, delta, delta_len);
        }
    } else if (text) {
        struct msg *m = &d->msgs[idx];
        m->has_content = true;
        put(&m->content, delta, delta_len);
        if (m->assistant) {
            an_agui_text_add(d, idx, delta, delta_len);
            if (delta_len)
                an_turn_mark_text(r, t_ms);
        }
    } else {
        put(&d->calls[idx].args, delta, delta_len);
        d->calls[idx].last_ms = t_ms;
    }
    return true;
}

static bool fast_delta(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms)
{
    struct delta f;
    return delta_scan(data, len, d->fast_id, d->fast_id_len, &d->fast_delta, &f) &&
           delta_apply(d, data, len, t_ms, &f);
}

size_t an_agui_fast_take(struct an_agui_dec *d, const char *bytes, size_t n, int64_t t_ms)
{
    const char *s = bytes, *e = bytes + n;
    struct delta f;
    if (d->failed || !an_agui_fast_path ||
        !plain_layout(&s, e, d->fast_id, d->fast_id_len, &d->fast_delta, &f))
        return 0;
    /* The layout's fixed text and its id hold no CR or LF, and the string
     * scan stops at any control byte: the event's data ends at the '}'
     * when the blank line follows it at once. */
    if (e - s < 3 || memcmp(s, "}\n\n", 3))
        return 0;
    size_t len = (size_t)(s + 1 - bytes);
    return delta_apply(d, bytes, len, t_ms, &f) ? len : 0;
}

/* ---- the other common events ---- */

#define PLAIN_VALS 1024 /* room for a plain event's values */

enum {
    P_TYPE,
    P_MID,
    P_TCID,
    P_THREAD,
    P_RUN,
    P_ROLE,
    P_NAME,
    P_TNAME,
    P_PARENT,
    P_CONTENT,
    P_ERROR,
    P_NKEYS
};
#define BIT(k) (1u << (k))

static const struct {
    const char *name;
    size_t len;
} plain_keys[P_NKEYS] = {
    {"type", 4}, {"messageId", 9}, {"toolCallId", 10},   {"threadId", 8},         {"runId", 5},
    {"role", 4}, {"name", 4},      {"toolCallName", 12}, {"parentMessageId", 15},
    {"content", 7}, {"error", 5},
};

/* Per type (enum an_agui_plain_type), the members it may have besides
 * `type` and those it must have: a subset of its shape (agui_verify_fields.c)
 * whose checks cannot fail once every member is a string. */
static const struct {
    const char *type;
    unsigned may, must;
} plain_types[] = {
    [AN_PLAIN_RUN_STARTED] = {"RUN_STARTED", BIT(P_THREAD) | BIT(P_RUN),
                              BIT(P_THREAD) | BIT(P_RUN)},
    [AN_PLAIN_RUN_FINISHED] = {"RUN_FINISHED", BIT(P_THREAD) | BIT(P_RUN),
                               BIT(P_THREAD) | BIT(P_RUN)},
    [AN_PLAIN_TEXT_START] = {"TEXT_MESSAGE_START", BIT(P_MID) | BIT(P_ROLE) | BIT(P_NAME),
                             BIT(P_MID)},
    [AN_PLAIN_TEXT_END] = {"TEXT_MESSAGE_END", BIT(P_MID), BIT(P_MID)},
    [AN_PLAIN_TOOL_START] = {"TOOL_CALL_START", BIT(P_TCID) | BIT(P_TNAME) | BIT(P_PARENT),
                             BIT(P_TCID) | BIT(P_TNAME)},
    [AN_PLAIN_TOOL_END] = {"TOOL_CALL_END", BIT(P_TCID), BIT(P_TCID)},
    [AN_PLAIN_TOOL_RESULT] = {"TOOL_CALL_RESULT",
                              BIT(P_MID) | BIT(P_TCID) | BIT(P_CONTENT) | BIT(P_ROLE) | BIT(P_ERROR),
                              BIT(P_MID) | BIT(P_TCID) | BIT(P_CONTENT)},
};

static bool known_role(const char *r)
{
    return !strcmp(r, "assistant") || !strcmp(r, "user") || !strcmp(r, "system") ||
           !strcmp(r, "developer");
}

/* A flat object of string members with plain keys, each key once, of one of
 * the types above with the members that type allows: into *ev, its values
 * copied (NUL-terminated) into `vals`, whose size they must fit. */
static bool plain_scan(const char *data, size_t len, struct an_buf *scratch,
                       char (*vals)[PLAIN_VALS], struct an_agui_plain *ev)
{
    const char *s = data, *e = data + len;
    size_t off[P_NKEYS];
    unsigned seen = 0;
    s = skip_ws(s, e);
    if (s == e || *s != '{')
        return false;
    size_t used_vals = 0;
    s++;
    for (;;) {
        const char *k;
        size_t klen;
        if (!plain_member(&s, e, &k, &klen))
            return false;
        unsigned key = 0;
        while (key < P_NKEYS &&
               (plain_keys[key].len != klen || memcmp(plain_keys[key].name, k, klen)))
            key++;
        if (key == P_NKEYS || (seen & BIT(key))) /* a key twice: jansson keeps the last */
            return false;
        const char *v;
        size_t vlen, used;
        if (!an_json_scan_string_in(data, s, (size_t)(e - s), scratch, &v, &vlen, &used))
            return false;
        if (vlen >= PLAIN_VALS - used_vals) /* rare: left to the general path */
            return false;
        off[key] = used_vals;
        memcpy(*vals + used_vals, v, vlen);
        (*vals)[used_vals + vlen] = '\0';
        used_vals += vlen + 1;
        seen |= BIT(key);
        int more = next_member(&s, e, used);
        if (more < 0)
            return false;
        if (!more)
            break;
    }
    if (skip_ws(s + 1, e) != e || !(seen & BIT(P_TYPE)))
        return false;
    const char *val[P_NKEYS];
    for (unsigned k = 0; k < P_NKEYS; k++)
        val[k] = seen & BIT(k) ? *vals + off[k] : NULL;
    size_t t = 0, nt = sizeof plain_types / sizeof plain_types[0];
    while (t < nt && strcmp(plain_types[t].type, val[P_TYPE]))
        t++;
    if (t == nt)
        return false;
    unsigned rest = seen & ~BIT(P_TYPE);
    if ((rest & ~plain_types[t].may) || (rest & plain_types[t].must) != plain_types[t].must)
        return false;
    /* a result's role is "tool" (F_TROLE), a message's one of four (F_ROLE) */
    if (val[P_ROLE] && (t == AN_PLAIN_TOOL_RESULT ? strcmp(val[P_ROLE], "tool") != 0
                                                  : !known_role(val[P_ROLE])))
        return false;
    ev->type = (enum an_agui_plain_type)t;
    ev->id = val[P_MID] ? val[P_MID] : val[P_TCID];
    ev->call_id = val[P_TCID];
    ev->content = val[P_CONTENT];
    ev->error = val[P_ERROR];
    ev->thread_id = val[P_THREAD];
    ev->run_id = val[P_RUN];
    ev->role = val[P_ROLE];
    ev->name = val[P_NAME];
    ev->tool_name = val[P_TNAME];
    ev->parent = val[P_PARENT];
    return true;
}

static bool fast_event(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms, int *rc)
{
    struct an_agui_plain ev;
    char vals[PLAIN_VALS];
    if (d->chunk != CHUNK_NONE || !plain_scan(data, len, &d->fast_delta, &vals, &ev))
        return false;
    /* after a run's terminal event only a new run is applied (dec_event) */
    if ((d->run == RUN_DONE || d->run == RUN_ERRORED) && ev.type != AN_PLAIN_RUN_STARTED)
        return false;
    if (!an_agui_verify_quiet_event(d->verify, &ev))
        return false;

    /* what the general path does for it, in the same order */
    d->nevents++;
    d->now = t_ms;
    an_turn_mark_event(rec(d), t_ms);
    an_turn_add_frame(rec(d), t_ms, data, len);
    switch (ev.type) {
    case AN_PLAIN_RUN_STARTED: /* h_run_started */
        free(d->run_id);
        d->run_id = an_xstrdup(ev.run_id);
        d->run = RUN_ACTIVE;
        break;
    case AN_PLAIN_RUN_FINISHED: /* h_run_finished, with no usage and no outcome */
        d->run = RUN_DONE;
        break;
    case AN_PLAIN_TEXT_START:
        an_agui_text_start(d, ev.id, ev.role, ev.name);
        break;
    case AN_PLAIN_TEXT_END:
        an_agui_text_end(d, ev.id);
        break;
    case AN_PLAIN_TOOL_START:
        *rc = an_agui_tool_start(d, ev.id, ev.tool_name, ev.parent);
        break;
    case AN_PLAIN_TOOL_END:
        an_agui_tool_end(d, ev.id);
        break;
    case AN_PLAIN_TOOL_RESULT: {
        /* the string jansson would have made: scanned, so valid UTF-8
         * without NUL */
        json_t *content = json_stringn_nocheck(ev.content, strlen(ev.content));
        if (!content)
            an_oom();
        an_agui_tool_result(d, ev.call_id, ev.id, content);
        json_decref(content);
        break;
    }
    }
    return true;
}

bool an_agui_fast_apply(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms, int *rc)
{
    *rc = 0;
    return fast_delta(d, data, len, t_ms) || fast_event(d, data, len, t_ms, rc);
}
