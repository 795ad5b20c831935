/*
 * `.jsont` compliance tests (seed 003): JSON templates read into a model.
 *
 * Reading a file is two passes:
 *
 *  1. Text. The raw file is not JSON: `${protocolVersionDefault}` and
 *     `${clientCapabilitiesDefault}` may stand where a JSON value goes. Every
 *     `${NAME}` *outside* a JSON string literal is replaced by the JSON text
 *     of that variable; only those two (load-time) variables may be used
 *     there. `${NAME}` *inside* a string literal is kept as written and
 *     resolved when the step runs (lazily), because `${sandbox}`,
 *     `${sessionId}` and captured variables only exist then.
 *     `$${` writes a literal `${`.
 *  2. JSON. The text is parsed (a parse error is mapped back to the raw
 *     file's line:col) and validated into struct an_jsont.
 *
 * Every variable name used in a string must be known: a built-in
 * (sandbox, protocolVersionDefault, clientCapabilitiesDefault, sessionId,
 * suiteDir: the absolute directory of the test file, for support programs),
 * a name some step captures (`newSession.capture`, `expect.captures[].var`)
 * or `ENV.NAME`. Anything else is an error at the `${` (file:line:col).
 * AG-UI tests (steps `run` and `http`) have other built-ins: threadId (one
 * per test), runId and messageId (fresh ones per step), suiteDir. A2A tests
 * are written with `http` steps too (their runner, run/comply_a2a.c).
 *
 * A test speaks one protocol: ACP (newSession, send, expect, forbid,
 * delayMs; MCP tests also mcpHttp: one HTTP request to a Streamable HTTP
 * endpoint, judged as an outcome as an AG-UI `http` step is) or AG-UI
 * (run, http, delayMs; no sandbox, init or preconditions). Errors inside a step name its index and
 * carry the line:col of the offending value (of the step when nothing closer exists).
 *
 * `${clientCapabilitiesDefault}` is the runner's default client
 * capabilities (fs read and write, terminal) with the test's
 * `init.clientCapabilities` merged over them (objects merge key by key, any
 * other value replaces), so it always equals what the runner advertises.
 *
 * Unknown top-level keys are ignored (the format is forward-extensible);
 * a step with no known kind, or a known key of the wrong type, is an error
 * naming the step's index.
 *
 * Ownership: everything lives in the an_jsont's arena (JSON values are
 * released with it); an_jsont_free() frees all.
 */
#ifndef ANANKE_LOAD_JSONT_H
#define ANANKE_LOAD_JSONT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "core/arena.h"
#include "core/interp.h"

#define AN_JSONT_PROTOCOL_VERSION 1
#define AN_JSONT_EXPECT_TIMEOUT_MS 10000
#define AN_JSONT_MAX_CONCURRENT 16 /* mcpHttp `concurrent`: copies sent at once */
#define AN_JSONT_MAX_LISTEN_MS 60000 /* mcpHttp `listenMs`: how long a stream is listened to */
#define AN_JSONT_FORBID_TIMEOUT_MS 5000
#define AN_JSONT_MAX_BYTES ((size_t)4 << 20)

enum an_jsont_step_kind {
    AN_JSONT_NEW_SESSION,
    AN_JSONT_SEND,
    AN_JSONT_EXPECT,
    AN_JSONT_FORBID,
    AN_JSONT_DELAY,
    AN_JSONT_AGUI_RUN,  /* AG-UI: POST a RunAgentInput, judge the stream */
    AN_JSONT_AGUI_HTTP, /* AG-UI: POST a body exactly as written */
    AN_JSONT_MCP_HTTP,  /* MCP over Streamable HTTP: one request that sees HTTP itself */
    AN_JSONT_STEP_KINDS
};
const char *an_jsont_step_name(enum an_jsont_step_kind k);

enum an_jsont_msg_kind { AN_JSONT_RESPONSE, AN_JSONT_NOTIFICATION, AN_JSONT_CLIENT_REQUEST };
const char *an_jsont_msg_name(enum an_jsont_msg_kind k); /* "response", ... */

enum an_jsont_policy { AN_POLICY_YOLO = 0, AN_POLICY_NONE, AN_POLICY_READ, AN_POLICY_WRITE };

/* Which protocol a test speaks, from its step kinds (one per test). */
enum an_jsont_protocol { AN_JSONT_ACP = 0, AN_JSONT_AGUI };
const char *an_jsont_protocol_name(enum an_jsont_protocol p); /* "acp", "agui" */

#define AN_JSONT_AGUI_TIMEOUT_MS 30000

/*
 * An AG-UI step (`run` or `http`, see docs/comply.md). Every string may hold
 * ${var}; values are resolved when the step runs.
 *
 * The expectation is an outcome pattern: a partial pattern over the step's
 * outcome object (status, rule, error, http, threadId, runId, types,
 * events, runError, messages, state, warnings, body) matched with the
 * regex-subset rules, except `events` (matched in order) and `noEvents`
 * (none may match); plus `anyOf`, alternative outcome patterns of which one
 * must match too. An outcome pattern without a `status` expects
 * "^completed$" (filled in at load time; with `anyOf`, in each alternative
 * instead).
 */
struct an_jsont_agui {
    /* run */
    json_t *input;    /* RunAgentInput members (object; {} when absent) */
    const char *user; /* a user message appended to the messages, or NULL */
    bool cont;        /* continue the previous `run` step's conversation */
    /* http */
    const char *body;   /* the raw body text, or NULL */
    const char *method; /* A2A: "GET" or "POST" (NULL: POST) */
    const char *path;   /* A2A: a path on the agent's base URL (NULL: its JSON-RPC URL) */
    json_t *json;       /* or a JSON body sent compact; NULL when `body` is used */
    /* both */
    json_t *headers;    /* object: name -> string, or NULL */
    const char *accept; /* the Accept header (default text/event-stream) */
    json_t *expect;     /* outcome pattern (may hold events, noEvents), never NULL */
    json_t *any_of;     /* array of outcome patterns, or NULL */
    bool observe;       /* note what the server answered in the report */
    /* mcpHttp (method GET, POST or DELETE; path unused): */
    bool no_session;     /* `session: false`: the test's Mcp-Session-Id is not sent */
    unsigned concurrent; /* copies sent at once, each on its own connection (1..16) */
    int64_t listen_ms;   /* listenMs: the answer's stream is read this long, whatever
                          * comes (a subscription), not until its answer; 0: not */
    json_t *during;      /* {"json", "headers"}: sent once the listened stream's first
                          * message came; or NULL */
    /* mcpHttp and AG-UI run: */
    json_t *na_unless; /* outcome pattern: unmet, the test is NA (na_reason); or NULL */
    const char *na_reason;
};

struct an_jsont_expected {
    enum an_jsont_msg_kind kind;
    json_t *pattern; /* partial envelope; strings may hold ${var} */
    json_t *reply;   /* clientRequest only: {"result": ...} or {"error": ...}; or
                        NULL */
};

struct an_jsont_capture {
    const char *path; /* dotted path into the matched message: result.sessionId */
    const char *var;
    int from; /* index into messages, or -1: the first matched message having path
               * (AG-UI: index into expect.events: the event that matched it; -1:
               * the path is into the outcome object) */
};

struct an_jsont_step {
    enum an_jsont_step_kind kind;
    size_t index;
    /* send */
    json_t *frame; /* the JSON-RPC frame, `expectError` removed; strings may hold
                      ${var} */
    bool has_id;
    int expect_error; /* -1 unset, 0 false, 1 true */
    /* newSession */
    json_t *mcp_servers; /* array (default []) */
    const char *capture; /* variable for the session id: default "sessionId" */
    /* expect, forbid: timeout; delay: the delay */
    int64_t ms;
    /* expect: `anyOf: true`, one of the messages is enough (alternative
     * answers: an error result or a JSON-RPC error); default: all of them */
    bool any_of;
    struct an_jsont_expected *msgs;
    size_t nmsgs;
    struct an_jsont_capture *captures;
    size_t ncaptures;
    /* forbid */
    const char **methods;
    size_t nmethods;
    /* AG-UI run / http (ms: the step's window; captures as above) */
    struct an_jsont_agui *agui;
};

struct an_jsont_precond {
    bool agent;       /* agentCap (true) or cap (false) */
    const char *path; /* agentCap: into agentCapabilities; cap:
                         "client.fs.readTextFile" */
    json_t *must_be;  /* default true */
};

struct an_jsont_file {
    const char *path;
    const char *text; /* text files */
    const void *data; /* decoded bytes (text or base64) */
    size_t len;
};

struct an_jsont {
    struct an_arena arena;
    const char *file; /* as given */
    const char *id;   /* the file name without .jsont */
    const char *title, *description, *area;
    bool required;
    const char **docs;
    size_t ndocs;
    const char **requirements; /* the spec requirement IDs it checks ("A2A-TASK-012") */
    size_t nrequirements;
    /* A2A: the bindings ("jsonrpc", "rest") the test speaks; none: every
     * one (a step's JSON-RPC request is sent as its REST equivalent) */
    const char **bindings;
    size_t nbindings;
    /* A2A: the protocol revisions ("0.3", "1.0") the test applies to;
     * none: every one (a 0.3 request is sent in the 1.0 shape to an agent
     * spoken to in 1.0) */
    const char **revisions;
    size_t nrevisions;
    /* MCP: the transports ("stdio", "http") the test runs over; none: a
     * test with mcpHttp steps runs over Streamable HTTP only, any other
     * over both (an mcpHttp step over stdio sends its `json` on the pipe
     * and its `http` expectations are left out) */
    const char **transports;
    size_t ntransports;
    struct an_jsont_precond *preconds;
    size_t npreconds;
    struct an_jsont_file *files;
    size_t nfiles;
    json_t *client_caps; /* effective: defaults merged with init.clientCapabilities */
    enum an_jsont_policy policy;
    struct an_jsont_step *steps;
    size_t nsteps;
    bool self_init; /* the first step sends `initialize` itself */
    enum an_jsont_protocol protocol;
};

/* The runner's default client capabilities (new reference). */
json_t *an_jsont_default_caps(void);

/* Read and validate one file. On failure *out is NULL and err says where. */
int an_jsont_load(struct an_jsont **out, const char *file, struct an_err *err);
/* Same from memory (tests); `file` is the name used for the id and errors. */
int an_jsont_load_text(struct an_jsont **out, const char *file, const char *text, size_t len,
                       struct an_err *err);
void an_jsont_free(struct an_jsont *t);

/*
 * Resolve the ${NAME} references of a step value at run time (pass 2 of
 * the interpolation): every string (not keys) is interpolated from `vars`.
 * With `regex` true the values are inserted as literal text into what is a
 * regular expression (\Q...\E), so a sandbox path or id never acts as a
 * pattern. A name not set yet is AN_EVAR naming it. *out: new reference.
 */
int an_jsont_resolve(const json_t *in, const struct an_vars *vars, bool regex, json_t **out,
                     struct an_err *err);
/* The same for one string; *out malloc'd. */
int an_jsont_resolve_str(const char *in, const struct an_vars *vars, bool regex, char **out,
                         struct an_err *err);

/* The value at a dotted path ("result.sessionId", "a.0.b": digits index
 * arrays), borrowed. */
json_t *an_jsont_path(const json_t *root, const char *path);

#endif
