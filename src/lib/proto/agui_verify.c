/*
 * The AG-UI verifier: its rules, its lifecycle, how a finding is reported,
 * and the ordering rules (the run lifecycle, the open/close discipline of
 * messages, tool calls, reasoning, steps and subagents, chunk streams).
 * Field presence and types are judged in agui_verify_fields.c.
 */
#include "proto/agui_verify_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "core/json.h"

#define SHOW 80 /* bytes of an event shown in a finding */

static const char *const kind_name[K_N] = {"text message",   "tool call", "reasoning message",
                                           "reasoning span", "step",      "subagent"};

void an_agui_verify_new(struct an_agui_verify **out, const char *thread_id, int mode)
{
    struct an_agui_verify *v = an_xcalloc(1, sizeof *v);
    v->thread_id = thread_id ? an_xstrdup(thread_id) : NULL;
    v->mode = mode;
    /* the open sets and used_subs are made when first added to (jansson's
     * lookups, deletions and clears take NULL for an empty object) */
    v->quiet_kind = -1;
    v->changes = 1;
    *out = v;
}

void an_agui_verify_mode(struct an_agui_verify *v, int mode)
{
    v->mode = mode;
    v->changes++;
}

uint64_t an_agui_verify_changes(const struct an_agui_verify *v)
{
    return v->changes;
}

void an_agui_verify_free(struct an_agui_verify *v)
{
    if (!v)
        return;
    free(v->thread_id);
    free(v->run_id);
    free(v->chunk_id);
    for (int k = 0; k < K_N; k++)
        json_decref(v->open[k]);
    json_decref(v->used_subs);
    free(v);
}

void an_agui_show(char *out, size_t cap, const char *data, size_t len)
{
    size_t n = len < SHOW ? len : SHOW;
    char *s = an_utf8_lossy(data, n);
    for (char *p = s; *p; p++)
        if ((unsigned char)*p < 0x20)
            *p = ' ';
    snprintf(out, cap, "%s%s", s, len > SHOW ? "..." : "");
    free(s);
}

/* A finding of `rule` on the current event. Returns nonzero when it ends
 * the turn (a MUST rule in strict mode): the caller stops judging. */
int an_agui_finding(struct an_agui_verify *v, const char *rule, const char *fmt, ...)
{
    char what[600], head[SHOW * 3 + 8];
    const struct an_agui_rule *ru = an_agui_rule_find(rule);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    an_agui_show(head, sizeof head, v->data, v->len);
    bool must = !ru || ru->level == AN_AGUI_MUST;
    const char *label = must ? "violation" : "warning";
    bool fatal = must && v->mode == AN_PROTOCOL_STRICT;
#define FINDING_FMT "protocol %s [%s] at event #%llu (%s): %s \xE2\x80\x94 %s"
    /* an earlier cause (RUN_ERROR) keeps the error: the finding is a warning */
    if (fatal && v->r->status != AN_TURN_ERROR)
        an_turn_fail(v->r, AN_EPROTO, FINDING_FMT, label, rule, (unsigned long long)v->n, v->type,
                     what, head);
    else
        an_turn_warn(v->r, FINDING_FMT, label, rule, (unsigned long long)v->n, v->type, what, head);
#undef FINDING_FMT
    if (fatal) {
        v->fatal = AN_EPROTO;
        return 1;
    }
    return 0;
}

/* ---- ordering ---- */

static void clear_run(struct an_agui_verify *v)
{
    for (int k = 0; k < K_N; k++)
        json_object_clear(v->open[k]);
    v->removals++;
    json_object_clear(v->used_subs);
    free(v->chunk_id);
    v->chunk_id = NULL;
}

static const char *str_or(const json_t *ev, const char *key, const char *dflt)
{
    const char *s = an_json_str(ev, key);
    return s ? s : dflt;
}

/* The open set of kind k, made when first needed. */
static json_t *open_set(struct an_agui_verify *v, enum kind k)
{
    if (!v->open[k] && !(v->open[k] = json_object()))
        an_oom();
    return v->open[k];
}

/* An opener's attributes, compared with its continuations. */
static void open_item(struct an_agui_verify *v, enum kind k, const char *id, const json_t *ev)
{
    json_t *o = json_object();
    static const char *const keep[] = {"subagentRunId",   "role", "name", "toolCallName",
                                       "parentMessageId", NULL};
    for (size_t i = 0; keep[i]; i++) {
        const char *s = an_json_str(ev, keep[i]);
        if (s)
            json_object_set_new(o, keep[i], json_string(s));
    }
    json_object_set_new(open_set(v, k), id, o);
}

/* The continuation's subagentRunId, when it has one, is its opener's. */
static int check_attribution(struct an_agui_verify *v, enum kind k, const char *id,
                             const json_t *ev)
{
    const char *sub = an_json_str(ev, "subagentRunId");
    const char *was = str_or(json_object_get(v->open[k], id), "subagentRunId", NULL);
    if (!sub || (was && !strcmp(sub, was)))
        return 0;
    return an_agui_finding(v, "subagent-attribution",
                           "subagentRunId '%.100s' does not match the %s '%.100s' "
                           "opener's %s%.100s%s",
                           sub, kind_name[k], id, was ? "'" : "(none)", was ? was : "",
                           was ? "'" : "");
}

static void chunk_close(struct an_agui_verify *v)
{
    if (!v->chunk_id)
        return;
    json_object_del(v->open[v->chunk], v->chunk_id);
    v->removals++;
    free(v->chunk_id);
    v->chunk_id = NULL;
}

static int check_chunk(struct an_agui_verify *v, const struct shape *sh, const json_t *ev)
{
    const char *id = an_json_str(ev, sh->id);
    if (v->chunk_id && v->chunk == sh->kind && (!id || !strcmp(id, v->chunk_id))) {
        /* a continuation */
        json_t *op = json_object_get(v->open[sh->kind], v->chunk_id);
        static const char *const attrs[] = {"role", "name", "toolCallName", "parentMessageId",
                                            NULL};
        for (size_t i = 0; attrs[i]; i++) {
            const char *now = an_json_str(ev, attrs[i]);
            const char *was = an_json_str(op, attrs[i]);
            if (!was && !strcmp(attrs[i], "role") && sh->kind == K_TEXT)
                was = "assistant";
            if (now && was && strcmp(now, was) &&
                an_agui_finding(v, "chunk-conflict",
                                "%s '%.100s' does not match the open stream's %s '%.100s' "
                                "(%.100s)",
                                attrs[i], now, attrs[i], was, v->chunk_id))
                return 1;
        }
        return check_attribution(v, sh->kind, v->chunk_id, ev);
    }
    chunk_close(v);
    const char *name = an_json_str(ev, "toolCallName");
    if (!id)
        return an_agui_finding(v, "chunk-first-needs-id", "first %s must have a %s", sh->type,
                               sh->id);
    if (sh->kind == K_TOOL && !name)
        return an_agui_finding(v, "chunk-first-needs-id", "first %s must have a toolCallName",
                               sh->type);
    if (json_object_get(v->open[sh->kind], id) &&
        an_agui_finding(v, "already-open", "%s '%.100s' is already open", kind_name[sh->kind], id))
        return 1;
    open_item(v, sh->kind, id, ev);
    v->chunk = sh->kind;
    v->chunk_id = an_xstrdup(id);
    return 0;
}

/* The names still open, for a RUN_FINISHED finding. */
static int check_all_closed(struct an_agui_verify *v)
{
    for (int k = 0; k < K_N; k++) {
        if (!json_object_size(v->open[k]))
            continue;
        const char *id;
        json_t *x;
        json_object_foreach(v->open[k], id, x)
        {
            if (an_agui_finding(v, "closed-before-finish", "%s '%.100s' is still open",
                                kind_name[k], id))
                return 1;
            break; /* one finding per kind is enough to read */
        }
    }
    return 0;
}

static bool version_newer(const char *pv, bool *readable)
{
    unsigned long maj, min, mymaj = 1, mymin = 1;
    char *end;
    *readable = false;
    if (!pv[0] || pv[0] < '0' || pv[0] > '9')
        return false;
    maj = strtoul(pv, &end, 10);
    if (*end != '.' || end[1] < '0' || end[1] > '9')
        return false;
    min = strtoul(end + 1, &end, 10);
    if (*end && *end != '.')
        return false;
    *readable = true;
    return maj > mymaj || (maj == mymaj && min > mymin);
}

/* RUN_STARTED and RUN_FINISHED carry the request's threadId. */
static int check_thread_id(struct an_agui_verify *v, const json_t *ev)
{
    const char *tid = an_json_str(ev, "threadId");
    if (!v->thread_id || !tid || !strcmp(tid, v->thread_id))
        return 0;
    return an_agui_finding(v, "thread-id-echo", "threadId '%.100s' is not the request's '%.100s'",
                           tid, v->thread_id);
}

static int check_run_started(struct an_agui_verify *v, const json_t *ev)
{
    if (v->run == V_ACTIVE &&
        an_agui_finding(v, "nested-run-started", "RUN_STARTED while run '%.100s' is still active",
                        v->run_id ? v->run_id : ""))
        return 1;
    clear_run(v);
    free(v->run_id);
    v->run_id = an_xstrdup(str_or(ev, "runId", ""));
    v->run = V_ACTIVE;
    if (check_thread_id(v, ev))
        return 1;
    const char *pv = an_json_str(ev, "protocolVersion");
    bool readable;
    if (pv && version_newer(pv, &readable))
        return an_agui_finding(v, "protocol-version",
                               "producer declares protocol version '%.40s', newer than "
                               "the " AN_AGUI_PROTOCOL_VERSION
                               " this client implements; served anyway",
                               pv);
    if (pv && !readable)
        return an_agui_finding(v, "protocol-version",
                               "cannot interpret protocolVersion '%.40s' (not "
                               "MAJOR.MINOR); served anyway",
                               pv);
    return 0;
}

static int check_run_finished(struct an_agui_verify *v, const json_t *ev)
{
    const char *rid = an_json_str(ev, "runId");
    if (rid && v->run_id && strcmp(rid, v->run_id) &&
        an_agui_finding(v, "run-id-echo", "runId '%.100s' is not its RUN_STARTED's '%.100s'", rid,
                        v->run_id))
        return 1;
    if (check_thread_id(v, ev))
        return 1;
    if (check_all_closed(v))
        return 1;
    clear_run(v);
    v->run = V_FINISHED;
    return 0;
}

static int check_sequence(struct an_agui_verify *v, const struct shape *sh, const json_t *ev)
{
    /* where the event may stand at all */
    if (v->run == V_NONE && sh->seq != S_RUN_STARTED && sh->seq != S_RUN_ERROR) {
        if (an_agui_finding(v, "first-event",
                            "first event must be RUN_STARTED or RUN_ERROR, not %s", sh->type))
            return 1;
        v->run = V_ACTIVE; /* judged as if a run had started */
    } else if (v->run == V_FINISHED && sh->seq != S_RUN_STARTED && sh->seq != S_RUN_ERROR) {
        return an_agui_finding(
            v, "after-run-finished",
            "the run has already finished with RUN_FINISHED; only RUN_STARTED or "
            "RUN_ERROR may follow");
    } else if (v->run == V_ERRORED && sh->seq != S_RUN_STARTED) {
        return an_agui_finding(v, "nothing-after-run-error",
                               "the run has already errored with RUN_ERROR; only "
                               "RUN_STARTED may follow");
    }

    if (!(sh->flags & KEEPS_CHUNK) || (sh->seq == S_CHUNK && v->chunk_id && v->chunk != sh->kind))
        chunk_close(v);

    const char *id = sh->id ? an_json_str(ev, sh->id) : NULL;
    switch (sh->seq) {
    case S_RUN_STARTED:
        return check_run_started(v, ev);
    case S_RUN_FINISHED:
        return check_run_finished(v, ev);
    case S_RUN_ERROR:
        clear_run(v);
        v->run = V_ERRORED;
        return 0;
    case S_CHUNK:
        return check_chunk(v, sh, ev);
    case S_OPEN:
        if (!id)
            return 0;
        if (json_object_get(v->open[sh->kind], id))
            return an_agui_finding(v, "already-open", "%s '%.100s' is already open",
                                   kind_name[sh->kind], id);
        if (sh->kind == K_SUB && json_object_get(v->used_subs, id))
            return an_agui_finding(v, "already-open",
                                   "subagent '%.100s' was already used in this run", id);
        if (sh->kind == K_SUB) {
            if (!v->used_subs && !(v->used_subs = json_object()))
                an_oom();
            json_object_set_new(v->used_subs, id, json_true());
        }
        open_item(v, sh->kind, id, ev);
        return 0;
    case S_USE:
    case S_CLOSE:
        if (!id)
            return 0;
        if (!json_object_get(v->open[sh->kind], id))
            return an_agui_finding(
                v, "open-before-use",
                "no active %s found with ID '%.100s' (%s that was not started or is "
                "already closed)",
                kind_name[sh->kind], id, sh->type);
        if (sh->kind != K_SUB && check_attribution(v, sh->kind, id, ev))
            return 1;
        if (sh->seq == S_CLOSE) {
            if (v->chunk_id && v->chunk == sh->kind && !strcmp(v->chunk_id, id)) {
                free(v->chunk_id);
                v->chunk_id = NULL;
            }
            json_object_del(v->open[sh->kind], id);
            v->removals++;
        }
        return 0;
    case S_NONE:
        return 0;
    }
    return 0;
}

bool an_agui_verify_quiet_delta(struct an_agui_verify *v, bool text, const char *id, size_t id_len)
{
    if (v->mode == AN_PROTOCOL_OFF)
        return true;
    /* check_sequence for an S_USE without subagentRunId: inside a run, no
     * chunk stream to close, the message or call open */
    if (v->run != V_ACTIVE || v->chunk_id)
        return false;
    int k = text ? K_TEXT : K_TOOL;
    /* the deltas of one message come in a row: remember the last id found
     * open until anything is removed from the open sets */
    if (v->quiet_kind == k && v->quiet_removals == v->removals && v->quiet_len == id_len &&
        !memcmp(v->quiet_id, id, id_len))
        return true;
    if (!json_object_getn(v->open[k], id, id_len))
        return false;
    if (id_len < sizeof v->quiet_id) {
        memcpy(v->quiet_id, id, id_len);
        v->quiet_len = id_len;
        v->quiet_kind = k;
        v->quiet_removals = v->removals;
    }
    return true;
}

/* open_item for a plain event. Its attributes are not kept: an entry made
 * by a START is only ever read for its subagentRunId (check_attribution),
 * which a plain event does not have; the attributes check_chunk compares
 * are those of an entry a chunk made (a chunk naming an open START's id
 * replaces the entry, or ends the turn). */
static void open_plain(struct an_agui_verify *v, enum kind k, const struct an_agui_plain *ev)
{
    json_object_set_new(open_set(v, k), ev->id, json_null());
}

bool an_agui_verify_quiet_event(struct an_agui_verify *v, const struct an_agui_plain *ev)
{
    v->changes++;
    if (v->mode == AN_PROTOCOL_OFF)
        return true;
    /* the fields are all there and well typed (the decoder made sure); what
     * is left is check_sequence without a finding. Closing a pending chunk
     * stream is left to the general path. */
    if (v->chunk_id)
        return false;
    enum kind k = ev->type == AN_PLAIN_TEXT_START || ev->type == AN_PLAIN_TEXT_END ? K_TEXT
                                                                                   : K_TOOL;
    switch (ev->type) {
    case AN_PLAIN_RUN_STARTED:
        if (v->run == V_ACTIVE || (v->thread_id && strcmp(ev->thread_id, v->thread_id)))
            return false;
        clear_run(v);
        free(v->run_id);
        v->run_id = an_xstrdup(ev->run_id);
        v->run = V_ACTIVE;
        return true;
    case AN_PLAIN_RUN_FINISHED:
        if (v->run != V_ACTIVE || (v->run_id && strcmp(ev->run_id, v->run_id)) ||
            (v->thread_id && strcmp(ev->thread_id, v->thread_id)))
            return false;
        for (int i = 0; i < K_N; i++)
            if (json_object_size(v->open[i]))
                return false;
        clear_run(v);
        v->run = V_FINISHED;
        return true;
    case AN_PLAIN_TEXT_START:
    case AN_PLAIN_TOOL_START:
        if (v->run != V_ACTIVE || json_object_get(v->open[k], ev->id))
            return false;
        open_plain(v, k, ev);
        return true;
    case AN_PLAIN_TEXT_END:
    case AN_PLAIN_TOOL_END:
        if (v->run != V_ACTIVE || !json_object_get(v->open[k], ev->id))
            return false;
        json_object_del(v->open[k], ev->id);
        v->removals++;
        return true;
    case AN_PLAIN_TOOL_RESULT: /* S_NONE: only where it stands */
        return v->run == V_ACTIVE;
    }
    return false;
}

int an_agui_verify_event(struct an_agui_verify *v, struct an_turn_rec *r, json_t *ev, uint64_t n,
                         const char *data, size_t len, bool *drop)
{
    v->changes++;
    const char *type = an_json_str(ev, "type");
    const struct shape *sh = type ? an_agui_shape_find(type) : NULL;
    *drop = !sh;
    if (v->mode == AN_PROTOCOL_OFF)
        return 0;
    v->r = r;
    v->n = n;
    v->type = type ? type : "?";
    v->data = data;
    v->len = len;
    v->fatal = 0;
    if (!sh) {
        /* Judged against nothing: a newer producer's event is not a fault. */
        an_agui_finding(v, "unknown-event", "unknown event type '%.100s' dropped", v->type);
        return v->fatal;
    }
    if ((sh->flags & LEGACY) &&
        an_agui_finding(v, "deprecated-event",
                        "%s is a deprecated 0.0.x event (REASONING_* replaces it)", type))
        return v->fatal;
    if (an_agui_check_fields(v, sh, ev) || check_sequence(v, sh, ev))
        return v->fatal;
    return 0;
}
