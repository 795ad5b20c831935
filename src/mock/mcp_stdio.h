/*
 * `ananke-mock mcp` on stdio: one JSON-RPC message per line on stdin and
 * stdout, logs on stderr, as an MCP client spawns a server. Answers with
 * mcp_server_answer() and plays each fault tool's stdio behaviour; once a
 * request names protocol version 2026-07-28 in its _meta, every request
 * is answered by mcp_modern_answer() (no initialize, _meta checked).
 */
#ifndef ANANKE_MOCK_MCP_STDIO_H
#define ANANKE_MOCK_MCP_STDIO_H

#include <stdio.h>

#include "mcp_server.h"

/* Serve until stdin ends (0) or the die tool is called (3). `log`, when not
 * NULL, gets every line received, verbatim, flushed per line. */
int mcp_stdio_run(const struct mcp_server_opts *opts, FILE *log);

#endif
