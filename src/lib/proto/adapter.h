/*
 * Protocol adapters: one interface the runner drives (ananke/session.h),
 * one file per protocol; here, what each built-in adapter is opened with.
 */
#ifndef ANANKE_PROTO_ADAPTER_H
#define ANANKE_PROTO_ADAPTER_H

#include <curl/curl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/session.h"
#include "ananke/transcript.h"

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
    size_t max_header_bytes;       /* the answer's header bytes; 0: 64 KiB (proto/h1.h) */
    uint64_t max_state_bytes;      /* the state's weight; 0: 16 MiB (agui_decode.h) */
    int protocol;                  /* enum an_protocol_mode; 0: strict */
};

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
    /* the same servers as stdio entries, sent instead to an agent whose
     * initialize does not say mcpCapabilities.http; NULL: mcp_servers */
    const json_t *mcp_servers_stdio;
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
