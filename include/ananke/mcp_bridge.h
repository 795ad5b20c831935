/*
 * The MCP stdio <-> Streamable HTTP bridge (`ananke mcp-bridge URL`, used
 * by `ananke comply --protocol mcp --agent NAME=URL`; docs/comply.md "MCP
 * over Streamable HTTP"). Each line read from `in` is one JSON-RPC message,
 * POSTed as written to the MCP endpoint `url` (proto/mcp_http.c: Accept
 * both JSON and SSE, the Mcp-Session-Id the server minted and the
 * MCP-Protocol-Version of the initialize answer on every later POST); each
 * message the server sends (a JSON body, an SSE event of a POST's answer
 * or of the GET stream opened after notifications/initialized) is written
 * to `out` as one compact line. A POST that fails (an HTTP error status,
 * a connection error, a cap) is one line on `log` naming it. At EOF on
 * `in` the session is ended (DELETE) and the call returns 0; an error
 * (the URL refused, `out` closed) returns its code with err filled.
 */
#ifndef ANANKE_MCP_BRIDGE_H
#define ANANKE_MCP_BRIDGE_H

#include <stdio.h>

#include "ananke/err.h"

int an_mcp_bridge(const char *url, int in, int out, FILE *log, struct an_err *err);

#endif
