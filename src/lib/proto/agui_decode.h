/*
 * AG-UI decoding, apart from HTTP: the conversation a client owns across
 * runs, the RunAgentInput built from it, and the decoder that turns one
 * run's events (each SSE event's data) into transcript entries.
 *
 * Kept free of I/O and of the clock (times are passed in) so that unit
 * tests and fuzz targets drive it with plain strings.
 *
 * Lifecycle of a turn:
 *     body = an_agui_conv_input(&conv, run_id, user);   send it
 *     an_agui_dec_new(&d, &conv, t, max_tool_calls);    t->turns[last] is the turn
 *     for each SSE event: an_agui_dec_event(d, data, len, now)
 *     an_agui_dec_finish(d, cut);  an_agui_dec_free(d);
 * finish() writes the turn record (text, slice of calls, state), merges the
 * run's messages into conv.messages and its state into conv.state.
 *
 * Each event is first judged by the conformance rules (agui_verify.h).
 * Failures (RUN_ERROR, protocol violations, a run that never finished) are
 * written to the turn record with an_turn_fail(); oddities that do not
 * break the run (unknown event types, bad tool-args JSON, a failing state
 * patch) become turn warnings. What was captured before a failure stays.
 */
#ifndef ANANKE_PROTO_AGUI_DECODE_H
#define ANANKE_PROTO_AGUI_DECODE_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/transcript.h"

/* What the client keeps between runs. Owns every member. */
struct an_agui_conv {
    char *thread_id;
    json_t *messages;        /* history: AG-UI Message objects, in order */
    json_t *state;           /* last state the agent produced (or the initial one) */
    json_t *forwarded_props; /* sent as is with every run */
    /* the next user message's content parts (attachments), borrowed until
     * the body is built; NULL: its text is the content */
    const json_t *user_parts;
};

/* thread_id NULL: a fresh UUID v4. state / forwarded_props NULL: {}.
 * The JSON values are copied, so the caller's stay untouched. */
void an_agui_conv_init(struct an_agui_conv *c, const char *thread_id, const json_t *state,
                       const json_t *forwarded_props);
/* Start the conversation from earlier messages (a JSONL case's history):
 * AG-UI Message objects, copied; the first run sends them before its user
 * message. */
void an_agui_conv_seed(struct an_agui_conv *c, const json_t *messages);
void an_agui_conv_release(struct an_agui_conv *c);

/* Start a run: append the user message (when `user` is not NULL; invalid
 * UTF-8 replaced) to the history, and return the RunAgentInput to POST
 * (new reference, independent of the conversation): threadId, runId,
 * state, messages, tools [], context [], forwardedProps. A connect turn
 * passes user == NULL. */
json_t *an_agui_conv_input(struct an_agui_conv *c, const char *run_id, const char *user);
/* The same, serialised to compact JSON at once (caller frees): what a run
 * sends, without copying the history first. */
char *an_agui_conv_body(struct an_agui_conv *c, const char *run_id, const char *user);

struct an_agui_dec;

#define AN_AGUI_DEFAULT_MAX_CALLS 100000u

/* A decoder for the turn t->turns[t->nturns - 1] (its first_call is where
 * this run's calls start). conv and t are borrowed until an_agui_dec_free().
 * max_tool_calls 0: AN_AGUI_DEFAULT_MAX_CALLS. */
void an_agui_dec_new(struct an_agui_dec **out, struct an_agui_conv *conv, struct an_transcript *t,
                     size_t max_tool_calls);

/* The state's cap (max_state_bytes): a STATE_SNAPSHOT weighing more, or a
 * STATE_DELTA that would make the state weigh more (an_json_weight), fails
 * the turn; the patches of one turn may copy, weigh and shift at most 64
 * times as much. 0: AN_AGUI_DEFAULT_MAX_STATE. Call before the first event. */
#define AN_AGUI_DEFAULT_MAX_STATE (16u * 1024u * 1024u)
void an_agui_dec_max_state(struct an_agui_dec *d, uint64_t max_state_bytes);

/* How conformance findings count (enum an_protocol_mode, ananke/model.h):
 * a new decoder is strict. Call before the first event. */
void an_agui_dec_protocol(struct an_agui_dec *d, int mode);

/* One SSE event's data, arrived at t_ms. The data is kept as a frame of the
 * turn. Returns 0 to go on, or the an_code of the failure that ended the
 * turn (already recorded): the caller should stop reading the stream. */
int an_agui_dec_event(struct an_agui_dec *d, const char *data, size_t len, int64_t t_ms);

/* The stream is over. `cut` NULL: the body ended normally; else
 * why the transport ended it (shown if the run was left unfinished). A run
 * left without RUN_FINISHED fails the turn (AN_EPROTO) unless the turn had
 * already failed. Then the turn record and the conversation are updated.
 * Call exactly once. */
void an_agui_dec_finish(struct an_agui_dec *d, const char *cut);

/* NULL-safe. */
void an_agui_dec_free(struct an_agui_dec *d);

#endif
