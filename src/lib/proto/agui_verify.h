/*
 * AG-UI stream conformance: the specification's ordering and typing rules,
 * checked on every event while the decoder (agui_decode.c) builds the
 * transcript. One place for every rule: the decoder only builds, this
 * module only judges.
 *
 * Rules have an id (`first-event`, `run-id-echo` ...) and a level. A MUST
 * violation in strict mode fails the turn (AN_EPROTO) with
 *     protocol violation [rule] at event #N (TYPE): what — start of the event
 * in warn mode the same text is a turn warning; off checks nothing. A
 * SHOULD finding is always a warning ("protocol warning [rule] ..."),
 * except in off mode.
 *
 * The verifier may change the event it is shown: unknown properties (and an
 * unknown outcome, an unknown content part inside MESSAGES_SNAPSHOT) are
 * removed after the warning, so the decoder never sees them.
 *
 * Ownership: the verifier copies the thread id; an_agui_verify_free()
 * releases everything. The turn record passed per event is borrowed.
 */
#ifndef ANANKE_PROTO_AGUI_VERIFY_H
#define ANANKE_PROTO_AGUI_VERIFY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/transcript.h"
#include "core/spec_names.h"

/* The protocol version this client implements (compared with a producer's
 * RUN_STARTED.protocolVersion). */
#define AN_AGUI_PROTOCOL_VERSION "1.1"

/* The rules themselves (an_agui_rules, an_agui_rule_find) are data shared
 * with the loaders: core/spec_names.h. */

struct an_agui_verify;

/* thread_id: the request's threadId every run must carry (NULL: not
 * checked). mode: enum an_protocol_mode. */
void an_agui_verify_new(struct an_agui_verify **out, const char *thread_id, int mode);
void an_agui_verify_free(struct an_agui_verify *v); /* NULL-safe */
/* Change the mode of a verifier that has judged no event yet. */
void an_agui_verify_mode(struct an_agui_verify *v, int mode);

/* Judge event #n (1-based), already parsed into the object `ev` whose
 * string "type" is known to be present; data/len are its raw text (shown in
 * findings). Findings go to `r`. *drop is set when the decoder must not
 * apply the event (an unknown event type). Returns AN_EPROTO when a MUST
 * rule failed in strict mode (the turn has failed, or had already failed
 * and the finding was added as a warning): stop reading. Else 0. */
int an_agui_verify_event(struct an_agui_verify *v, struct an_turn_rec *r, json_t *ev, uint64_t n,
                         const char *data, size_t len, bool *drop);

/* Would a TEXT_MESSAGE_CONTENT (text) or TOOL_CALL_ARGS (!text) of
 * id[0..id_len) (no NUL in it, none needed after it), with no property
 * but type, the id and a string delta, pass without any finding and
 * without changing the verifier's state? Then the decoder may skip
 * an_agui_verify_event() for it (its fast path). */
bool an_agui_verify_quiet_delta(struct an_agui_verify *v, bool text, const char *id, size_t id_len);

/* A count that moves on whenever the verifier judges an event or changes
 * its mode (never 0): while it stays where it was when
 * an_agui_verify_quiet_delta() said yes to a kind and id, it would say yes
 * to them again. */
uint64_t an_agui_verify_changes(const struct an_agui_verify *v);

/* An event of a common type in its plain layout, as the decoder's fast
 * path reads it: a flat object of string members, none but `type` and the
 * ones below, each a NUL-free string (NULL: absent). */
enum an_agui_plain_type {
    AN_PLAIN_RUN_STARTED,  /* thread_id, run_id */
    AN_PLAIN_RUN_FINISHED, /* thread_id, run_id */
    AN_PLAIN_TEXT_START,   /* id; role (one of the four), name optional */
    AN_PLAIN_TEXT_END,     /* id */
    AN_PLAIN_TOOL_START,   /* id, tool_name; parent optional */
    AN_PLAIN_TOOL_END,     /* id */
    AN_PLAIN_TOOL_RESULT,  /* id (messageId), call_id, content; role ("tool") and
                            * error optional */
};
struct an_agui_plain {
    enum an_agui_plain_type type;
    const char *id; /* messageId or toolCallId */
    const char *thread_id, *run_id;
    const char *role, *name, *tool_name, *parent;
    const char *call_id, *content, *error; /* TOOL_CALL_RESULT's */
};

/* Would such an event pass without any finding? Then its effect on the
 * verifier is applied, as an_agui_verify_event() would apply it, and true
 * is returned; else nothing changes and the decoder must judge it with
 * an_agui_verify_event() (its fast path). */
bool an_agui_verify_quiet_event(struct an_agui_verify *v, const struct an_agui_plain *ev);

/* The start of an event's data, printable (control bytes as spaces, at
 * most 80 bytes, "..." when cut), for messages. */
void an_agui_show(char *out, size_t cap, const char *data, size_t len);

#endif
