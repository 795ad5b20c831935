/*
 * `ananke-mock mcp`: what the MCP server double answers, apart from the
 * transport. Both transports (stdio in mcp_stdio.c, Streamable HTTP in
 * mcp_http.c) hand each message from the client to mcp_server_answer() and
 * get back the message to send plus the tool whose behaviour they must play:
 * a plain answer for most, or a fault only a transport can commit (a frame
 * that is not JSON, an exit mid-call, a stream that never ends).
 *
 * Speaks MCP 2025-11-25 and negotiates down to 2024-11-05: initialize,
 * ping, tools/list (two pages), tools/call, resources/list, resources/read,
 * prompts/list, prompts/get; anything else is -32601.
 */
#ifndef ANANKE_MOCK_MCP_SERVER_H
#define ANANKE_MOCK_MCP_SERVER_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* The tools, in tools/list order (the first three are page one). The
 * description is also the --help text. */
#define MCP_TOOL_MAP(X)                                                                            \
    X(MCP_T_ECHO, "echo", "answers 'echo: MESSAGE'")                                               \
    X(MCP_T_ASK, "ask",                                                                            \
      "stdio: pings the client, asks roots/list and sampling, then says "                          \
      "what came back")                                                                            \
    X(MCP_T_RPC_ERROR, "rpc_error", "a JSON-RPC error -32602")                                     \
    X(MCP_T_DIE, "die", "stdio: exits 3 mid-call; HTTP: cuts the stream mid-call")                 \
    X(MCP_T_GARBAGE, "garbage", "a frame that is not JSON, then nothing")                          \
    X(MCP_T_HANG, "hang", "no answer; HTTP: an SSE stream that never answers nor ends")            \
    X(MCP_T_ADD, "add", "answers the sum of a and b")                                              \
    X(MCP_T_IS_ERROR, "is_error", "a tool result with isError true")                               \
    X(MCP_T_WRONG_ID, "wrong_id", "the answer under another id, then nothing")                     \
    X(MCP_T_HUGE, "huge", "an answer over the client's 32 MiB frame cap")                          \
    X(MCP_T_CLOSE_STDOUT, "close_stdout",                                                          \
      "stdio: closes stdout and keeps running; HTTP: cuts the stream")                             \
    X(MCP_T_STDERR_FLOOD, "stderr_flood", "8 MiB on stderr, then the echo answer")                 \
    X(MCP_T_HTTP_500, "http_500", "HTTP: status 500; stdio: a JSON-RPC error -32603")              \
    X(MCP_T_ENDLESS, "endless",                                                                    \
      "HTTP: the answer on an SSE stream that stays open; stdio: "                                 \
      "the echo answer")

enum mcp_tool {
#define MCP_X(e, name, desc) e,
    MCP_TOOL_MAP(MCP_X)
#undef MCP_X
        MCP_T_COUNT,
    MCP_T_NONE = MCP_T_COUNT /* not a tool call: send the reply as it is */
};

struct mcp_server_opts {
    const char *version;  /* answer initialize with this version; NULL = negotiate */
    enum mcp_tool forced; /* every tools/call behaves as this tool; MCP_T_NONE = as named */
    bool http;            /* tools that need stdio say so in an isError result */
};
/* clang-format off */
#define MCP_SERVER_OPTS_INIT                                                                       \
    {                                                                                              \
        .forced = MCP_T_NONE                                                                       \
    }
/* clang-format on */

/* The name of tool i, or NULL past the last; its description. */
const char *mcp_tool_name(unsigned i);
const char *mcp_tool_desc(unsigned i);

/* Answer one message. *reply is the JSON-RPC message to send (the caller
 * decrefs it), or NULL for a notification or a response. Returns the tool
 * whose behaviour the transport plays (MCP_T_NONE: just send *reply); for
 * a fault tool *reply is the answer a well-behaved server would have given. */
enum mcp_tool mcp_server_answer(const struct mcp_server_opts *o, const json_t *msg, json_t **reply);

/* A JSON-RPC success for `id` whose text content is `size` bytes of 'x'
 * (malloc'd, *len its length): a frame over any cap the caller picks. */
char *mcp_huge_frame(const json_t *id, size_t size, size_t *len);
/* The start of an answer for `id`, cut where its result begins: not JSON. */
char *mcp_garbage_frame(const json_t *id);
/* Write `total` bytes of log lines on stderr (the stderr_flood tool, with
 * MCP_FLOOD_BYTES: far more than a pipe holds, so a client that does not
 * drain the server's stderr blocks it). */
#define MCP_FLOOD_BYTES (8u * 1024u * 1024u)
void mcp_stderr_flood(size_t total);

#endif
