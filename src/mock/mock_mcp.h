/*
 * ananke-mock agents that call MCP tools (docs/mock.md "Calling MCP
 * tools"): a scripted tool call with `server:` is made for real, through
 * ananke's tool proxy (docs/tools.md) or any MCP server on Streamable HTTP
 * that answers with JSON or an event stream and needs no session id.
 *
 * Each call is its own short session: initialize, notifications/
 * initialized, tools/call. Blocking; thread-safe.
 * Ownership: every string and value returned is the caller's.
 */
#ifndef ANANKE_MOCK_MOCK_MCP_H
#define ANANKE_MOCK_MOCK_MCP_H

#include <jansson.h>
#include <stdint.h>

/* The endpoint of tool server `server`: itself when it is an http:// or
 * https:// URL, else the `url` of the entry named so in `servers` (ACP's
 * session/new mcpServers: [{"name", "url"}]; may be NULL), else its entry
 * in $ANANKE_TOOL_SERVERS ({"NAME": URL}, which `ananke run` gives what
 * it starts). NULL when none says. */
char *mock_mcp_url(const char *server, const json_t *servers);

/* Call `tool` with `args` (an object or NULL) on the tool server `server`
 * (mock_mcp_url). Returns its CallToolResult; a failure of any kind (no
 * such server, no answer in timeout_ms, a JSON-RPC error) comes back as a
 * result {"content": [{"type": "text", "text": "tool error: WHY"}],
 * "isError": true}, as an agent would see it. */
json_t *mock_mcp_call(const char *server, const json_t *servers, const char *tool,
                      const json_t *args, int64_t timeout_ms);

/* The result's content as compact JSON text (what the mocks report as a
 * tool result); "[]" without one. malloc'd. */
char *mock_mcp_content_text(const json_t *result);

#endif
