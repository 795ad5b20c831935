/*
 * A2A (Agent2Agent) client: agent-card discovery, A2A 1.0 and 0.3 over
 * JSON-RPC or HTTP+JSON (REST: the same requests translated by
 * proto/a2a_rest.h), blocking or streamed (SSE) answers, tasks
 * (docs/a2a.md).
 *
 * The session (a2a.c) is transfer-based like the AG-UI one: a turn is the
 * card GET (first turn only, when the card must be fetched), the send, and,
 * when the turn timed out with a task still running, a CancelTask. The pure
 * parts live apart so unit tests reach them: reading a card and choosing
 * the interface and version (a2a_card.c), writing requests and turning
 * answers and streamed events into the transcript (a2a_msg.c).
 *
 * What a turn records (an_turn_rec): the agent's text parts as its text
 * (one piece per message or artifact, joined with "\n"); every artifact as
 * a tool-call-like record named "artifact:<name>" whose result is its
 * content (docs/a2a.md "What is recorded"); non-text parts of the agent's
 * messages as a record named "message"; the task in `task`:
 * {id, contextId, state, states: [{state, t_ms}]}, state spelled as A2A
 * 0.3 does ("completed", "input-required") whatever the version.
 *
 * Ownership: options are borrowed for an_a2a_open() only. Everything an
 * an_a2a_card or an_a2a_turn holds is released by its _release().
 */
#ifndef ANANKE_PROTO_A2A_H
#define ANANKE_PROTO_A2A_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/transcript.h"
#include "core/buf.h"
#include "core/spec_names.h"
#include "proto/adapter.h"

/* "1.0" / "0.3" */
const char *an_a2a_version_name(int v);

/* ---- the agent card ---- */

/* The binding spoken (a target's `binding`): the card's first one ananke
 * speaks, JSON-RPC, or HTTP+JSON (REST, proto/a2a_rest.h). */
enum an_a2a_binding { AN_A2A_BIND_AUTO = 0, AN_A2A_BIND_JSONRPC, AN_A2A_BIND_REST };

/* What ananke takes from a card. */
struct an_a2a_card {
    char *name;
    char *url;            /* the interface chosen */
    bool rest;            /* it is an HTTP+JSON (REST) one */
    char *tenant;         /* 1.0: that interface's tenant; NULL: none */
    int version;          /* AN_A2A_V1_0 or AN_A2A_V0_3 */
    bool streaming;       /* capabilities.streaming */
    char *api_key_header; /* the first apiKey scheme sent in a header; NULL: none */
};

/* Read a card (1.0 `supportedInterfaces`, or 0.3 `url` / `preferredTransport`
 * / `additionalInterfaces` / `protocolVersion`) and choose the first JSON-RPC
 * interface of version `want` (AN_A2A_AUTO: the first one ananke speaks).
 * AN_EPROTO with the reason when the card is not an object, has no name,
 * or offers no such interface. */
int an_a2a_card_read(const json_t *card, int want, struct an_a2a_card *out, struct an_err *err);
/* The same for the interfaces of binding `bind` (enum an_a2a_binding; AUTO:
 * JSON-RPC or HTTP+JSON, whichever the card lists first). */
int an_a2a_card_read_binding(const json_t *card, int want, int bind, struct an_a2a_card *out,
                             struct an_err *err);
void an_a2a_card_release(struct an_a2a_card *c);
/* "<scheme>://<host[:port]>/.well-known/agent-card.json" for a URL. Caller frees. */
char *an_a2a_card_url_for(const char *endpoint);

/* ---- task states: core/spec_names.h (an_a2a_state ...) ---- */

/* ---- requests ---- */

struct an_a2a_send {
    int version;
    bool stream;
    long id; /* JSON-RPC id */
    const char *message_id;
    const char *text;       /* NULL or "": no text part */
    const json_t *parts;    /* more parts (1.0 or 0.3 shape); NULL: none */
    const char *context_id; /* NULL: none (the agent starts a context) */
    const char *task_id;    /* an interrupted task this message continues; NULL: none */
    const char *tenant;     /* NULL: none */
    bool blocking;
    const char *const *modes; /* acceptedOutputModes */
    size_t nmodes;
};
/* SendMessage / SendStreamingMessage (1.0) or message/send / message/stream
 * (0.3) as JSON text. Caller frees. AN_EUSAGE (NULL, message in err) when a
 * part is neither text, data, url/raw nor a 0.3 part. */
char *an_a2a_send_body(const struct an_a2a_send *m, struct an_err *err);
/* CancelTask / tasks/cancel. Caller frees. */
char *an_a2a_cancel_body(int version, long id, const char *task_id, const char *tenant);

/* ---- answers into the transcript ---- */

/* What one turn's answers build, fed one JSON-RPC `result` at a time (the
 * blocking answer, or each streamed event). */
struct an_a2a_turn {
    struct an_transcript *t; /* the turn is t->turns[t->nturns - 1] */
    json_t *seen;            /* borrowed: message and artifact ids of earlier turns */
    struct an_buf text;
    json_t *task;           /* {id, contextId, state, states}; NULL: no task yet */
    json_t *artifacts;      /* artifactId -> index into t->calls */
    char *context_id;       /* from the task or the message */
    const char *last_piece; /* artifact id the text ends with (append chunks join it) */
    const char *resumed;    /* the interrupted task this turn continues (borrowed); its
                               snapshot's old state does not end the turn; NULL: none */
    bool message;           /* the answer was a Message (no task) */
    bool final;             /* a message, or a terminal or interrupted state */
};
void an_a2a_turn_init(struct an_a2a_turn *d, struct an_transcript *t, json_t *seen);
/* One result: a Task, a Message, a status or an artifact update, in the 1.0
 * (`{task: ...}`, `{statusUpdate: ...}`) or the 0.3 shape (`kind`). AN_OK,
 * or AN_EPROTO with why (a result of no known shape). */
int an_a2a_turn_result(struct an_a2a_turn *d, const json_t *result, int64_t t_ms, char *why,
                       size_t cap);
/* Move the text and the task into the turn record (the task's reference is
 * given away), remember what was seen. */
void an_a2a_turn_finish(struct an_a2a_turn *d);
void an_a2a_turn_release(struct an_a2a_turn *d);

/* ---- the session ---- */

struct an_a2a_opts {
    const char *card_url; /* fetch the card here; NULL: see endpoint */
    const json_t *card;   /* an inline card; NULL: none */
    int binding;          /* enum an_a2a_binding: AUTO, the card's first */
    const char *endpoint; /* the interface URL, over the card's; with neither
                             card nor card_url and version AUTO the card is
                             fetched from an_a2a_card_url_for(endpoint) */
    int version;          /* AN_A2A_AUTO: the card's */
    bool blocking;
    int stream;               /* 1 on, 0 off, -1 auto: when the card says streaming */
    const char *const *modes; /* acceptedOutputModes; nmodes 0: none sent */
    size_t nmodes;
    const char *api_key; /* sent in the card's apiKey header; NULL or "": none */
    const char *bearer;  /* Authorization: Bearer; NULL or "": none */
    const struct an_kv *headers;
    size_t nheaders;
    /* Credentials (headers, api_key, bearer) go only to the origins the
     * config names: endpoint's, agentCardUrl's, an inline card's URL. A
     * fetched card's interface URL on another origin, and a card
     * redirected to another origin, are spoken to without them, unless
     * trust_card_url (then the fetched card's URL gets them too; a
     * redirect never does). */
    bool trust_card_url;
    int64_t timeout_ms;        /* one turn: card, send and stream */
    int64_t cancel_timeout_ms; /* the CancelTask after a timeout; 0: 5000 */
    size_t max_turn_bytes;     /* one answer's body; 0: 64 MiB */
    size_t max_event_bytes;    /* one SSE event; 0: 16 MiB */
};
int an_a2a_open(struct an_session **out, const struct an_a2a_opts *opts, struct an_err *err);

#endif
