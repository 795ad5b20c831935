/*
 * The AG-UI verifier's shared parts, for its two halves: agui_verify.c (the
 * run lifecycle and the open/close discipline) and agui_verify_fields.c (the
 * event shapes: required fields, field types, unknown properties). Private
 * to src/lib/proto.
 *
 * The shape table is static data; the verifier state is owned by
 * an_agui_verify_new()/an_agui_verify_free() in agui_verify.c.
 */
#ifndef ANANKE_PROTO_AGUI_VERIFY_INT_H
#define ANANKE_PROTO_AGUI_VERIFY_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "proto/agui_verify.h"

/* ---- event shapes ---- */

enum fkind {
    F_STR,      /* string */
    F_ANY,      /* any JSON value, null included */
    F_OBJ,      /* object */
    F_ARR,      /* array */
    F_BOOL,     /* boolean */
    F_CODE,     /* string or number (RUN_ERROR.code) */
    F_CONTENT,  /* string or array of content parts */
    F_ROLE,     /* developer, system, assistant, user */
    F_RROLE,    /* "reasoning" */
    F_TROLE,    /* "tool" */
    F_OUTCOME,  /* RUN_FINISHED.outcome */
    F_MESSAGES, /* MESSAGES_SNAPSHOT.messages */
    F_PATCH,    /* RFC 6902 operations (open objects) */
};

struct field {
    const char *name;
    enum fkind kind;
    bool required;
};

/* Open sets, by what a START opens. */
enum kind { K_TEXT, K_TOOL, K_RMSG, K_RSPAN, K_STEP, K_SUB, K_N };

enum role_in_seq {
    S_NONE, /* no ordering rule beyond being inside a run */
    S_RUN_STARTED,
    S_RUN_FINISHED,
    S_RUN_ERROR,
    S_OPEN,  /* opens `kind` by `id` */
    S_USE,   /* continues `kind` by `id` */
    S_CLOSE, /* closes `kind` by `id` */
    S_CHUNK, /* a chunk of `kind` */
};

/* struct shape.flags */
enum {
    KEEPS_CHUNK = 1, /* does not close a pending chunk stream (agui.md 4.3) */
    NO_SUBAGENT = 2, /* subagentRunId is not a property of this event */
    LEGACY = 4,      /* THINKING_*: deprecated 0.0.x shapes */
};

#define MAXF 8

struct shape {
    const char *type;
    enum role_in_seq seq;
    enum kind kind;
    const char *id; /* the field naming what is opened/used/closed */
    unsigned flags;
    struct field f[MAXF];
};

/* The shape of a known event type; NULL for an unknown one. */
const struct shape *an_agui_shape_find(const char *type);

/* ---- state ---- */

enum vrun { V_NONE, V_ACTIVE, V_FINISHED, V_ERRORED };

struct an_agui_verify {
    char *thread_id;
    int mode;
    enum vrun run;
    char *run_id;
    json_t *open[K_N]; /* id -> {"sub": opener's subagentRunId, ...opener fields} */
    json_t *used_subs; /* subagent ids seen in this run */
    enum kind chunk;   /* meaningful when chunk_id != NULL */
    char *chunk_id;
    /* the fast path's memory (an_agui_verify_quiet_delta): `quiet_id` of
     * kind `quiet_kind` was open when `removals` was `quiet_removals` */
    uint64_t removals; /* ids removed from open[] so far (any kind) */
    uint64_t changes;  /* an_agui_verify_changes() */
    uint64_t quiet_removals;
    int quiet_kind; /* -1: nothing remembered */
    size_t quiet_len;
    char quiet_id[256];
    /* the event being judged */
    struct an_turn_rec *r;
    uint64_t n;
    const char *type;
    const char *data;
    size_t len;
    int fatal;
};

/* A finding of `rule` on the current event. Returns nonzero when it ends
 * the turn (a MUST rule in strict mode): the caller stops judging. */
int an_agui_finding(struct an_agui_verify *v, const char *rule, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Required fields, types, unknown properties (removed from `ev`). Returns
 * nonzero when a finding ends the turn. */
int an_agui_check_fields(struct an_agui_verify *v, const struct shape *sh, json_t *ev);

#endif
