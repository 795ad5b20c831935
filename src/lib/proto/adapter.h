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

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>
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
    const char *connect_endpoint; /* agui:connect turns' URL; NULL: endpoint */
    const char *agent_id;
    const char *thread_id; /* NULL: generate a UUID v4 once for the session */
    const struct an_kv *headers;
    size_t nheaders;
    const json_t *forwarded_props; /* NULL: {} */
    const json_t *state;           /* NULL: {} */
    const json_t *history;         /* messages before the first turn; NULL: none */
    int64_t timeout_ms;            /* whole turn, request sent -> stream finished */
    size_t max_event_bytes;        /* one SSE event's data; 0: 16 MiB */
    size_t max_turn_bytes;         /* whole response body; 0: 64 MiB */
    size_t max_tool_calls;         /* per turn; 0: 100000 */
    uint64_t max_state_bytes;      /* the state's weight; 0: 16 MiB (agui_decode.h) */
    int protocol;                  /* enum an_protocol_mode; 0: strict */
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

int an_agui_open(struct an_session **out, const struct an_agui_opts *opts, struct an_err *err);

/* An ACP agent (a child speaking ACP on its stdio), already interpolated.
 * Borrowed for an_acp_open() only. The session's first turn also runs
 * initialize and session/new; each user turn is one session/prompt. */
struct an_acp_target_opts {
    const char *const *argv;           /* command and args, NULL-terminated */
    const char *const *env;            /* "NAME=VALUE", NULL-terminated, or NULL */
    const char *sandbox;               /* absolute, existing: the agent's cwd and the
                                          only place the fs methods and terminals may touch */
    const json_t *client_capabilities; /* NULL: fs read/write and terminal */
    int policy;                        /* enum an_perm_policy (ananke/model.h) */
    int64_t timeout_ms;                /* one turn, prompt sent -> its response */
    size_t max_frame_bytes;            /* one JSON-RPC line from the agent; 0: 32 MiB */
    int confine;                       /* enum an_confine_mode (ananke/model.h) */
    const char *const *confine_paths;  /* NULL-terminated, absolute; may be NULL */
    bool network;                      /* confined children keep the host's network */
    bool inherit_env;                  /* false: core/envmin plus env only */
    size_t max_turn_bytes;             /* what one turn accumulates (acp.c); 0: 64 MiB */
    /* docs/acp.md "Limits"; 0: the default of each */
    size_t max_stderr_bytes;          /* the agent's stderr kept (the tail); 64 KiB */
    size_t max_read_bytes;            /* a file served to fs/read_text_file; 16 MiB */
    size_t max_terminals;             /* terminals at once; 256 */
    size_t max_terminal_output_bytes; /* a terminal's output kept; 64 MiB */
    /* session/new's mcpServers (ananke's tool proxy, docs/tools.md);
     * borrowed, the session keeps a copy; NULL: [] */
    const json_t *mcp_servers;
};
int an_acp_open(struct an_session **out, const struct an_acp_target_opts *opts, struct an_err *err);

/* An OpenAI-compatible chat-completions model with its tools, already
 * interpolated. Borrowed for an_openai_open() only: the session copies what
 * it keeps. Each user turn is a tool loop: the conversation so far goes to
 * POST base_url + "/chat/completions"; when the model asks for tools, each
 * call is answered (canned result or command) and the model asked again,
 * until it answers without tool calls or max_rounds is reached. */
struct an_openai_tool {
    const char *name;
    const char *description;  /* NULL: none */
    const json_t *parameters; /* a JSON Schema; NULL: {"type":"object"} */
    /* How a call is answered: `result` (a string is sent as is, anything else
     * as compact JSON), or `argv` (run without a shell in `cwd`; the call's
     * arguments as JSON on stdin; its stdout, trimmed, is the result; a
     * non-zero exit is a tool error whose text goes back to the model), or
     * neither: the call is recorded without a result and ends the turn. */
    const json_t *result;
    const char *const *argv; /* NULL-terminated, or NULL */
    const char *cwd;
    int64_t timeout_ms; /* argv: 0 = 30000 */
};
struct an_openai_opts {
    const char *base_url; /* "http://127.0.0.1:11434/v1" (a trailing / is fine) */
    const char *model;
    const char *api_key; /* NULL or "": no Authorization header */
    const struct an_kv *headers;
    size_t nheaders;
    const char *system;   /* NULL: no system message */
    const json_t *params; /* extra request members (temperature, max_tokens, ...); NULL */
    const struct an_openai_tool *tools;
    size_t ntools;
    /* messages before the first turn, in the shape the AG-UI history uses:
     * {id, role, content (string or parts), toolCalls?, toolCallId?};
     * converted to chat-completions messages. NULL: none */
    const json_t *history;
    bool no_stream;         /* true: "stream": false and one JSON answer */
    unsigned max_rounds;    /* model calls per turn; 0: 10 */
    int64_t timeout_ms;     /* whole turn, every round */
    size_t max_turn_bytes;  /* one response body; 0: 64 MiB */
    size_t max_event_bytes; /* one SSE event's data; 0: 16 MiB */
    size_t max_tool_calls;  /* tool calls in one answer; 0: 10000 */
};
int an_openai_open(struct an_session **out, const struct an_openai_opts *opts, struct an_err *err);

/* Seed 004's run-case contract, already interpolated (docs/http.md). Borrowed
 * for an_http_case_open() only. The session's one turn is one POST of
 * {case_id, version, input{user, context?}} to base_url + "/run-case"; the
 * answer {proposed_actions, events, final_output} becomes the transcript.
 * A failed attempt is a turn error whose message starts with its class
 * (http_error, timeout, network_error, invalid_json), kept on the turn
 * record (an_turn_rec.failure). Timeouts, network errors and HTTP 408, 429
 * and 5xx are retried `retries` times, 250 ms x 2^(n-1) apart (at most
 * 16 s, plus up to 20 % jitter) or as the answer's Retry-After says. */
struct an_http_case_opts {
    const char *base_url; /* "http://127.0.0.1:8787" (a trailing / is fine) */
    const char *case_id;
    const char *version;   /* NULL: "new" */
    const json_t *context; /* input.context; NULL: not sent */
    const struct an_kv *headers;
    size_t nheaders;
    int64_t timeout_ms; /* one attempt; <= 0: none */
    unsigned retries;
    size_t max_body_bytes;     /* 0: 2000000 */
    size_t body_snippet_bytes; /* of a failed answer kept in `failure`; 0: none */
};
int an_http_case_open(struct an_session **out, const struct an_http_case_opts *opts,
                      struct an_err *err);

#endif
