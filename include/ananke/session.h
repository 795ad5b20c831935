/*
 * The session interface every protocol adapter implements (public, so a
 * target type from outside the library is one file and one row:
 * ananke/target_type.h, docs/internals.md "Adding a protocol").
 *
 * A session is opened once per test (it owns the conversation: thread id,
 * message history, state) and runs that test's turns in order. A turn
 * appends its tool calls to the transcript and fills the turn record the
 * runner added for it (text, timing, frames, warnings). A broken turn
 * (connection refused, HTTP error, RUN_ERROR, cut stream, timeout) is not a
 * return code: the adapter calls an_turn_fail() on the record, so the
 * runner sees one shape for every protocol. Adapters know no assertion.
 */
#ifndef ANANKE_SESSION_H
#define ANANKE_SESSION_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stdint.h>

#include "ananke/transcript.h"

/* A header or variable: name and value, borrowed. */
struct an_kv {
    const char *name;
    const char *value;
};

struct an_session;

/*
 * A turn is one transfer. The scheduler drives it without blocking:
 *   begin()  prepares the request and hands back a libcurl easy handle, which
 *            the caller adds to its multi handle (or performs itself);
 *   end()    is called once the transfer is over, with libcurl's result, and
 *            completes the turn record (text, calls, timing, failure).
 * While a turn is in flight the session owns the easy handle; end() frees
 * it (the caller has removed it from its multi handle first).
 *
 * A transport fault before the agent said anything (refused, reset, HTTP
 * 408/429/5xx, timeout before the first event) may be retried: begin() with
 * `retry` true sends the same turn again, after the session dropped what the
 * failed attempt added to the conversation.
 */
struct an_session_ops {
    const char *name; /* "agui" */
    /* Start the turn t->turns[t->nturns - 1] (its index and kind are set).
     * `user` is the user message, or NULL for a connect turn. On AN_OK,
     * *easy is the transfer to run. On failure the turn record says why
     * (an_turn_fail) and there is nothing to run. */
    int (*begin)(struct an_session *s, struct an_transcript *t, const char *user, bool retry,
                 CURL **easy);
    /* The transfer ended with `cc` (CURLE_OK, an error, or
     * CURLE_ABORTED_BY_CALLBACK when the caller gave up on it: the caller
     * has recorded why with an_turn_fail first). */
    void (*end)(struct an_session *s, struct an_transcript *t, CURLcode cc);
    /* Turns made of several transfers (the OpenAI tool loop: the model asks
     * for tools, the session answers them and asks the model again): called
     * after every end(); true with *easy set means the turn goes on with that
     * transfer (the caller runs it like the first, then calls end() again).
     * false: the turn is over. NULL for one-transfer sessions. */
    bool (*next)(struct an_session *s, struct an_transcript *t, CURL **easy);
    /* Sessions that speak over file descriptors (ACP on a child's stdio)
     * hand back no transfer: begin() sets *easy to NULL, and the loop polls
     * the descriptors fds() lists (at most `max`), calling step() when any
     * is ready and at least every AN_CANCEL_POLL_MS (the session keeps its
     * own turn timeout). step() returns true once the turn is over; then
     * end() is called with CURLE_OK. NULL for transfer-based sessions. */
    size_t (*fds)(struct an_session *s, struct curl_waitfd *out, size_t max);
    bool (*step)(struct an_session *s, struct an_transcript *t, const struct curl_waitfd *fds,
                 size_t n); /* the fds() entries, with revents filled */
    /* What a retry should wait for: the answer's Retry-After in ms, or -1. */
    int64_t (*retry_after_ms)(const struct an_session *s);
    /* A session with a retry policy of its own (the http target's `retries`
     * and backoff): how many retries it allows (the runner allows the larger
     * of this and --retries), and how long to wait before retry number
     * `retry` (1-based). NULL: --retries and the runner's backoff. */
    unsigned (*retries)(const struct an_session *s);
    int64_t (*backoff_ms)(const struct an_session *s, unsigned retry);
    void (*free)(struct an_session *s);
};

struct an_session {
    const struct an_session_ops *ops;
};

/* One whole turn, blocking (begin, curl_easy_perform, end). */
int an_session_turn(struct an_session *s, struct an_transcript *t, const char *user);

static inline void an_session_free(struct an_session *s)
{
    if (s)
        s->ops->free(s);
}

/* Is this failed turn a transport fault that --retries may retry? Only when
 * the agent said nothing yet: refused or reset connections, HTTP 408, 429 and
 * 5xx, and a timeout before the first event. Never an assertion failure,
 * never a RUN_ERROR, never a stream that had started. */
bool an_turn_retryable(const struct an_turn_rec *r);

#endif
