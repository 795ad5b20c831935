/*
 * MCP (Model Context Protocol) servers as test targets (docs/mcp.md).
 *
 * A session is one server connection per test: a child speaking JSON-RPC
 * on its stdio, or a Streamable HTTP endpoint. The first turn also runs the
 * initialize handshake; every turn is one request whose answer becomes the
 * transcript:
 *   mcp:call  tools/call      -> one tool call (args = arguments, result =
 *                                the CallToolResult, status "ok", "error"
 *                                when isError, "rpc_error" for a JSON-RPC
 *                                error); the turn's text is the text of the
 *                                result's text blocks, joined with "\n"
 *   mcp:list  tools/list etc. -> the turn's text is the result as compact
 *                                JSON, every page joined (nextCursor followed)
 *   mcp:read  resources/read  -> the turn's text is the result as compact JSON
 *   mcp:prompt prompts/get    -> the same (the GetPromptResult: description?,
 *                                messages)
 * A JSON-RPC error answer breaks the turn (a protocol error) unless the turn
 * allows it; a tool's own failure (isError) never does.
 *
 * The session is fd-driven (adapter.h's fds/step), on both transports: the
 * HTTP one runs its own curl multi handle, so the server's requests (ping,
 * roots/list, on a tools/call stream or the GET stream) are answered while
 * a request is still open.
 *
 * Ownership: the opts are borrowed for an_mcp_open() only.
 */
#ifndef ANANKE_PROTO_MCP_H
#define ANANKE_PROTO_MCP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/transcript.h"
#include "core/spec_names.h"
#include "proto/adapter.h"

/* The version we ask for unless told otherwise, and every version we speak
 * (what the server answers must be one of these). */
#define AN_MCP_LATEST "2025-11-25"
/* an_mcp_versions and an_mcp_version_known: core/spec_names.h */
/* Check an InitializeResult against the version we asked for. NULL when it
 * is fine, else why not (a static or `why` buffer sentence). */
const char *an_mcp_check_init(const json_t *result, char *why, size_t cap);

/* Everything a session needs, already interpolated. A turn's input (the
 * `user` of begin()) is the request it sends, {"method", "params"?}
 * (run/mcp_turn.h builds it). */
struct an_mcp_opts {
    bool http;
    /* stdio */
    const char *const *argv; /* NULL-terminated */
    const char *const *env;  /* "NAME=VALUE", NULL-terminated, or NULL */
    const char *cwd;         /* the server's working directory; NULL: ours */
    /* true: the server starts from core/envmin (HOME = home, or ananke's
     * HOME when NULL) plus env, not from ananke's environment */
    bool clean_env;
    const char *home;
    /* http */
    const char *endpoint;
    const struct an_kv *headers;
    size_t nheaders;
    /* both */
    const char *version;      /* protocolVersion asked for; NULL: AN_MCP_LATEST */
    const char *const *roots; /* file:// URIs answered to roots/list, NULL-terminated */
    bool no_roots;            /* no roots capability: roots/list is -32601 */
    const bool *allow_error;  /* per turn (by index): an error answer is recorded */
    size_t nallow;
    int64_t timeout_ms;      /* one turn, request sent -> its answer */
    size_t max_frame_bytes;  /* one message from the server (a stdio line, an
                                HTTP body or SSE event); 0: AN_RPC_MAX_FRAME */
    size_t max_body_bytes;   /* http: one response body (a POST's answer, the
                                GET stream); 0: AN_HTTP_DEFAULT_MAX_BODY */
    size_t max_stderr_bytes; /* stdio: the server's stderr kept (the tail);
                                0: AN_RPC_STDERR_MAX */
    size_t max_list_pages;   /* mcp:list pages followed (nextCursor); 0: 100 */
};
int an_mcp_open(struct an_session **out, const struct an_mcp_opts *opts, struct an_err *err);

/* Record a tools/call answer (result or error object, one of them non-NULL)
 * as call `c`: result, status, result time. Returns the turn's text
 * (malloc'd): the result's text blocks joined with "\n", or the compact
 * {"error": ...} for an error. Pure, for unit tests. */
char *an_mcp_record_call(struct an_tool_call *c, const json_t *result, const json_t *error,
                         int64_t now_ms);

#endif
