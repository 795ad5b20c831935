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
void an_agui_verify_new(struct an_agui_verify **out, const char *thread_id,
                        int mode);
void an_agui_verify_free(struct an_agui_verify *v); /* NULL-safe */
/* Change the mode of a verifier that has judged no event yet. */
void an_agui_verify_mode(struct an_agui_verify *v, int mode);

/* Judge event #n (1-based), already parsed into the object `ev` whose
 * string "type" is known to be present; data/len are its raw text (shown in
 * findings). Findings go to `r`. *drop is set when the decoder must not
 * apply the event (an unknown event type). Returns AN_EPROTO when a MUST
 * rule failed in strict mode (the turn has failed, or had already failed
 * and the finding was added as a warning): stop reading. Else 0. */
int an_agui_verify_event(struct an_agui_verify *v, struct an_turn_rec *r,
                         json_t *ev, uint64_t n, const char *data, size_t len,
                         bool *drop);

/* Would a TEXT_MESSAGE_CONTENT (text) or TOOL_CALL_ARGS (!text) of `id`,
 * with no property but type, the id and a string delta, pass without any
 * finding and without changing the verifier's state? Then the decoder may
 * skip an_agui_verify_event() for it (its fast path). */
bool an_agui_verify_quiet_delta(struct an_agui_verify *v, bool text, const char *id,
                                size_t id_len);

/* The start of an event's data, printable (control bytes as spaces, at
 * most 80 bytes, "..." when cut), for messages. */
void an_agui_show(char *out, size_t cap, const char *data, size_t len);

#endif
