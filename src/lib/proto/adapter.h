/*
 * Protocol adapters: one interface the runner drives, one file per protocol.
 *
 * A session is opened once per test (it owns the conversation: thread id,
 * message history, state) and runs that test's turns in order. A turn
 * appends its tool calls to the transcript and fills the turn record the
 * runner added for it (text, timing, frames, warnings). A broken turn
 * (connection refused, HTTP error, RUN_ERROR, cut stream, timeout) is not a
 * return code: the adapter calls an_turn_fail() on the record, so the
 * runner sees one shape for every protocol. Adapters know no assertion.
 */
#ifndef ANANKE_PROTO_ADAPTER_H
#define ANANKE_PROTO_ADAPTER_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/transcript.h"

struct an_kv {
    const char *name;
    const char *value;
};

/* Everything an AG-UI session needs, already interpolated. Borrowed for
 * the duration of an_agui_open() only: the session copies what it keeps. */
struct an_agui_opts {
    const char *endpoint;
    const char *agent_id;
    const char *thread_id; /* NULL: generate a UUID v4 once for the session */
    const struct an_kv *headers;
    size_t nheaders;
    const json_t *forwarded_props; /* NULL: {} */
    const json_t *state;           /* NULL: {} */
    int64_t timeout_ms;            /* whole turn, request sent -> stream finished */
    size_t max_event_bytes;        /* one SSE event's data; 0: 16 MiB */
    size_t max_turn_bytes;         /* whole response body; 0: 256 MiB */
    size_t max_tool_calls;         /* per turn; 0: 100000 */
};

struct an_session;

struct an_session_ops {
    const char *name; /* "agui" */
    /* Run one turn. `user` is the user message, or NULL for a connect turn
     * (`kind` tells which: "user", "agui:connect"). The turn record is
     * t->turns[t->nturns - 1]; its index and kind are set. Returns AN_OK
     * unless something inside ananke broke (not the agent). */
    int (*turn)(struct an_session *s, struct an_transcript *t, const char *user);
    void (*free)(struct an_session *s);
};

struct an_session {
    const struct an_session_ops *ops;
};

int an_agui_open(struct an_session **out, const struct an_agui_opts *opts, struct an_err *err);

static inline int an_session_turn(struct an_session *s, struct an_transcript *t, const char *user)
{
    return s->ops->turn(s, t, user);
}

static inline void an_session_free(struct an_session *s)
{
    if (s)
        s->ops->free(s);
}

#endif
