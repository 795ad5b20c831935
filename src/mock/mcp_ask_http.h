/*
 * `ananke-mock mcp --http`: the kit tools that ask the client
 * (mcp_ask.c) over Streamable HTTP. The call's POST is answered with an
 * SSE stream that carries the server's request, then waits; the client
 * POSTs its answer (a JSON-RPC response, taken with 202); the stream then
 * carries the tool's result and ends.
 *
 * Ownership: the table of requests out is the server's (mcp_asks_new,
 * mcp_asks_free after the HTTP server stopped); each waiting stream holds
 * its own entry and removes it when it ends, answered or not.
 */
#ifndef ANANKE_MOCK_MCP_ASK_HTTP_H
#define ANANKE_MOCK_MCP_ASK_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>

#include "mcp_server.h"
#include "mock_http.h"

struct mcp_asks;

struct mcp_asks *mcp_asks_new(void);
void mcp_asks_free(struct mcp_asks *a);

/* Answer `call` (a tools/call of ask tool t) with the stream above. */
enum MHD_Result mcp_asks_stream(struct mcp_asks *a, const struct mcp_server_opts *o,
                                struct mock_http *http, struct MHD_Connection *c, enum mcp_tool t,
                                const json_t *call);

/* A message from the client: true when it is the answer to one of our
 * requests still waiting (it is then handed to that stream). */
bool mcp_asks_answered(struct mcp_asks *a, const json_t *msg);

#endif
