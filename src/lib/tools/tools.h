/* The tool proxy's side the run reads (ananke/tools.h for its lifecycle). */
#ifndef ANANKE_TOOLS_TOOLS_H
#define ANANKE_TOOLS_TOOLS_H

#include <jansson.h>
#include <stdint.h>

#include "ananke/tools.h"

/* The tools/call requests the proxy answered between from_ms and to_ms
 * (unix ms, by their start), in order, as results.json writes them:
 * [{"server", "name", "arguments", "result", "is_error", "start_ms",
 * "end_ms", "mocked"}]. A new reference; NULL when no proxy serves. */
json_t *an_tools_calls_between(int64_t from_ms, int64_t to_ms);

/* ACP's session/new mcpServers for the servers the proxy serves:
 * [{"type": "http", "name", "url", "headers": []}]. A new reference; NULL
 * when none serves. */
json_t *an_tools_mcp_servers(void);

#endif
