/*
 * The client side of ACP (Agent Client Protocol, v1) over jsonrpc.h: spawn
 * the agent, serve its requests inside a per-test sandbox, keep a record.
 *
 * What it serves on its own (agent -> client requests):
 * - fs/read_text_file {sessionId, path, line?, limit?} -> {content}
 *   fs/write_text_file {sessionId, path, content} -> {} (parents created)
 *   A path must be absolute, name the sandbox first, and is then opened
 *   beneath the sandbox's directory fd (acp_path.c: openat2 RESOLVE_BENEATH
 *   or an O_NOFOLLOW walk), so ".." and symlinks never lead out. Refused
 *   with -32602, data {path, reason} and a violation: relative_path,
 *   outside_sandbox, unresolvable, nul_byte, not_regular_file (a FIFO,
 *   socket or device: opened O_NONBLOCK, never waited on), hard_link;
 *   without a violation: directory. A missing file -> -32002 with data
 *   {uri}. A file is truncated only once it is known to be regular. A
 *   file over opts.read_max is refused (-32603 naming max_read_bytes) and
 *   its call carries cap = "max_read_bytes".
 * - terminal/create|output|wait_for_exit|kill|release: real children
 *   (core/child, own process group, stdout+stderr merged, stdin /dev/null)
 *   in the sandbox, or in an absolute cwd inside it (opened as above; the
 *   child changes to that directory, checked to be the same one);
 *   confined (opts.confine) and with the agent's environment
 *   (opts.clean_env, opts.env, then the request's env). An unchanged output
 *   is handed out as the same string each time (kept once). Output keeps the last
 *   outputByteLimit bytes (default opts.output_byte_limit; clamped to
 *   opts.output_limit_max), cut on a UTF-8 boundary, with truncated: true.
 *   More than opts.max_terminals at once: create is refused (-32603 naming
 *   max_terminals) and its call carries cap = "max_terminals". wait_for_exit is answered when the
 *   process exits, without blocking anything else. release kills a running
 *   process and frees the id.
 * - session/request_permission: decided by the policy, or, once
 *   an_acp_cancel() was called for the session (until its next prompt),
 *   answered {outcome: {outcome: "cancelled"}}, also for every request
 *   still pending at the cancel.
 * - A method of a capability we did not advertise (fs/read_text_file when
 *   fs.readTextFile is false, ... terminal/... when terminal is false) -> -32601
 *   and a violation. Any other unknown method -> -32601 (no violation).
 * Every agent request is recorded as an agent call (method, params, result
 * or error, times) once answered, whoever answered it.
 *
 * Before serving, the on_agent_request hook (if any) sees every request and
 * may claim it (return true): the caller then answers with an_acp_reply*()
 * now or later. A claimed request is still recorded (call + violation).
 *
 * Pumping: an_acp_fds()/an_acp_handle()/an_acp_next_wake_ms() for an event
 * loop (rpc + terminals), or the blocking an_acp_pump()/an_acp_wait().
 *
 * Ownership: opts and all it points to are copied at an_acp_client_new().
 * Callback arguments are borrowed for the call. an_acp_client_free() ends
 * the agent (stdin closed, grace, SIGTERM, SIGKILL of its group) and every
 * terminal's group, and reaps them: no zombie, no orphan.
 */
#ifndef ANANKE_PROTO_ACP_CLIENT_H
#define ANANKE_PROTO_ACP_CLIENT_H

#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "proto/jsonrpc.h"

#define AN_ACP_PROTOCOL_VERSION 1
#define AN_ACP_OUTPUT_LIMIT ((size_t)1 << 20)      /* terminal output kept by default */
#define AN_ACP_OUTPUT_LIMIT_MAX ((size_t)64 << 20) /* an agent's outputByteLimit is clamped */
#define AN_ACP_READ_MAX ((size_t)16 << 20)         /* fs/read_text_file: biggest file served */
#define AN_ACP_MAX_TERMINALS 256
#define AN_ACP_MAX_TURN ((size_t)64 << 20) /* max_turn_bytes' default (acp.c) */

enum an_acp_policy {
    AN_ACP_POLICY_YOLO = 0,
    AN_ACP_POLICY_NONE,
    AN_ACP_POLICY_READ,
    AN_ACP_POLICY_WRITE
};
/* "none" | "read" | "write" | "yolo" -> 0, or -1 when unknown. */
int an_acp_policy_parse(const char *s, enum an_acp_policy *out);
const char *an_acp_policy_name(enum an_acp_policy p);

/* What runs in Linux namespaces (core/confine.h): nothing, the terminals,
 * or the agent too; REQUIRED is AGENT where a failure to confine is an
 * error instead of a warning and a fallback. */
enum an_acp_confine {
    AN_ACP_CONFINE_NONE = 0,
    AN_ACP_CONFINE_TERMINALS,
    AN_ACP_CONFINE_AGENT,
    AN_ACP_CONFINE_REQUIRED
};

struct an_acp_client;

/* One agent request, answered. Borrowed for the callback. */
struct an_acp_call {
    const char *method;
    const json_t *id;      /* the agent's id */
    const json_t *params;  /* may be NULL */
    const json_t *result;  /* NULL when answered with an error */
    const json_t *error;   /* {code, message, data?} or NULL */
    const char *violation; /* why this call broke the rules, or NULL */
    bool by_caller;        /* answered through an_acp_reply* (hook), not served */
    /* Bytes of content the answer carries (a file read, a terminal's
     * output); what a caller keeping answers adds up. An unchanged terminal
     * output is the same string as the last time (shared, not copied), yet
     * counts each time: whoever shows the calls shows it each time. */
    size_t kept_bytes;
    /* The cap key that refused the request ("max_read_bytes",
     * "max_terminals"), or NULL: a caller ends the turn as an ERROR naming
     * it (the answer's message names it too). */
    const char *cap;
    int64_t start_ms, end_ms; /* Unix ms: request read, answer sent */
};

struct an_acp_cbs {
    void *ud;
    /* Every agent request before it is served. Return true to claim it:
     * then answer it with an_acp_reply()/an_acp_reply_error() (now or
     * later). `violation` is non-NULL when serving it would break the rules
     * (capability not advertised): it is recorded either way. */
    bool (*on_agent_request)(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m,
                             const char *violation);
    /* An agent request was answered (served or claimed). */
    void (*on_agent_call)(void *ud, struct an_acp_client *c, const struct an_acp_call *call);
    /* Notifications (session/update ...) and responses to our requests,
     * passed through from jsonrpc. */
    void (*on_notification)(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m);
    void (*on_response)(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m);
    void (*on_frame)(void *ud, struct an_acp_client *c, enum an_rpc_dir dir, const char *line,
                     size_t len, int64_t unix_ms);
    void (*on_warning)(void *ud, struct an_acp_client *c, const char *what, const char *line,
                       size_t len);
    void (*on_close)(void *ud, struct an_acp_client *c, enum an_rpc_close_kind kind,
                     const char *reason);
};

struct an_acp_opts {
    const char *const *argv; /* the agent command; argv[0] non-empty */
    const char *cwd;         /* the agent's working directory; NULL: the sandbox */
    const char *const *env;  /* "NAME=VALUE" / "NAME" as in core/child; may be NULL */
    const char *sandbox;     /* absolute, existing directory (required) */
    /* {fs:{readTextFile,writeTextFile}, terminal, ...} sent in initialize
     * and enforced. NULL: everything on (fs read/write, terminal). */
    const json_t *client_capabilities;
    enum an_acp_policy policy;
    /* Hold a permission request this long before deciding by policy, so a
     * session/cancel arriving meanwhile answers it "cancelled" (the 800 ms
     * of the reference runner); 0 decides at once. */
    int64_t permission_delay_ms;
    size_t output_byte_limit;   /* terminal default; 0: AN_ACP_OUTPUT_LIMIT (at most the max) */
    size_t output_limit_max;    /* outputByteLimit clamped to it; 0: AN_ACP_OUTPUT_LIMIT_MAX */
    size_t read_max;            /* fs/read_text_file's biggest file; 0: AN_ACP_READ_MAX */
    size_t max_terminals;       /* terminals at once; 0: AN_ACP_MAX_TERMINALS */
    struct an_rpc_opts rpc;     /* frame cap, stderr log, grace */
    const char *client_version; /* clientInfo.version; NULL: ANANKE_VERSION */
    /* Confinement. Where namespaces are not available (an_confine_available)
     * TERMINALS and AGENT warn once per process and run unconfined;
     * REQUIRED makes an_acp_client_new() fail. */
    enum an_acp_confine confine;
    const char *const *confine_paths; /* bound read-only even where hidden; may be NULL */
    bool network;                     /* confined children keep the host's network */
    /* true: the agent and its terminals start from core/envmin (HOME = the
     * sandbox) plus env, not from ananke's environment */
    bool clean_env;
};
/* clang-format off */
#define AN_ACP_OPTS_INIT {.policy = AN_ACP_POLICY_YOLO}
/* clang-format on */

/* Spawn the agent. Nothing is sent yet. On failure *out is NULL and err
 * says why (sandbox not absolute/missing, agent not found, ...). */
int an_acp_client_new(struct an_acp_client **out, const struct an_acp_opts *opts,
                      const struct an_acp_cbs *cbs, struct an_err *err);
/* End the agent and every terminal (group kill, reap), free all. NULL-safe.
 * Not from inside a callback. */
void an_acp_client_free(struct an_acp_client *c);

/* The connection, for sending arbitrary frames (an_rpc_send ...). The
 * client owns it; responses still reach on_response. */
struct an_rpc *an_acp_rpc(struct an_acp_client *c);

/* Send initialize {protocolVersion: 1, clientCapabilities, clientInfo:
 * {name: "ananke", version}}; *id gets our request id. When its response
 * arrives, agentCapabilities / protocolVersion are kept (an_acp_agent_caps). */
int an_acp_initialize(struct an_acp_client *c, int64_t *id, struct an_err *err);
/* session/new {cwd: cwd or the sandbox, mcpServers: mcp_servers or []}. */
int an_acp_new_session(struct an_acp_client *c, const char *cwd, const json_t *mcp_servers,
                       int64_t *id, struct an_err *err);
/* session/prompt {sessionId, prompt: blocks (an array, borrowed)}. Ends the
 * "cancelled" state of that session. */
int an_acp_prompt(struct an_acp_client *c, const char *session_id, const json_t *blocks,
                  int64_t *id, struct an_err *err);
/* session/cancel notification, then every pending permission request of
 * that session is answered "cancelled" (as are later ones, until the next
 * an_acp_prompt for it). */
int an_acp_cancel(struct an_acp_client *c, const char *session_id, struct an_err *err);

/* Answer an agent request claimed by the hook. result NULL = {}. */
int an_acp_reply(struct an_acp_client *c, const json_t *peer_id, const json_t *result,
                 struct an_err *err);
int an_acp_reply_error(struct an_acp_client *c, const json_t *peer_id, int code,
                       const char *message, const json_t *data, struct an_err *err);

/* The initialize result's agentCapabilities (borrowed; NULL before the
 * response or when absent) and protocolVersion (-1 before). */
const json_t *an_acp_agent_caps(const struct an_acp_client *c);
int an_acp_protocol_version(const struct an_acp_client *c);
/* The sandbox as resolved (realpath). */
const char *an_acp_sandbox(const struct an_acp_client *c);

/* Event-loop integration: the agent's fds and every live terminal's. */
size_t an_acp_fds(const struct an_acp_client *c, struct pollfd *out, size_t max);
size_t an_acp_nfds_max(const struct an_acp_client *c); /* enough room for an_acp_fds */
void an_acp_handle(struct an_acp_client *c, const struct pollfd *pfds, size_t n);
/* Milliseconds until the client needs an_acp_handle() without any fd
 * event (a delayed permission, a terminal without pidfd), or -1. */
int64_t an_acp_next_wake_ms(const struct an_acp_client *c);

/* Blocking: handle events until timeout_ms (< 0: until closed), closure or
 * *stop (may be NULL). Returns true while the agent is connected. */
bool an_acp_pump(struct an_acp_client *c, int64_t timeout_ms, const bool *stop);
/* Blocking: pump until the response to our request `id` arrives. Returns
 * AN_OK with *result (new reference, or NULL) or *error (new reference, or
 * NULL) set; AN_ETIMEOUT; AN_EPROTO when the agent closed first (err says
 * why: "agent exited with status 3"). Callbacks still run meanwhile. */
int an_acp_wait(struct an_acp_client *c, int64_t id, int64_t timeout_ms, json_t **result,
                json_t **error, struct an_err *err);

/* The record: answered agent calls and violations, in order. Borrowed
 * until the client is freed. */
size_t an_acp_ncalls(const struct an_acp_client *c);
const struct an_acp_call *an_acp_call_at(const struct an_acp_client *c, size_t i);
size_t an_acp_nviolations(const struct an_acp_client *c);
const char *an_acp_violation_at(const struct an_acp_client *c, size_t i);
/* Terminals created and not yet released. */
size_t an_acp_nterminals(const struct an_acp_client *c);

#endif
