/*
 * `ananke-mock mcp --http`: the MCP 2026-07-28 ("modern", stateless) side
 * of the server double, beside the 2025-11-25 one of mcp_cmd.c. A POST is
 * modern when its params._meta names io.modelcontextprotocol/protocolVersion
 * or its MCP-Protocol-Version header is 2026-07-28: no initialize and no
 * session; the _meta, the MCP-Protocol-Version and Mcp-Method / Mcp-Name
 * headers are checked (HTTP 400 with -32602, -32022 or -32020), the removed
 * methods and unknown ones are HTTP 404 with -32601, server/discover answers
 * the versions and capabilities, the kit's input-required fixtures
 * (mcp_mrtr.h) answer input_required until retried with their
 * inputResponses, subscriptions/listen opens a subscription (mcp_listen.h:
 * over HTTP its stream is the POST's answer), and the rest is answered as
 * mcp_server.c does, each result with resultType "complete". The "2026-07-28:" faults of
 * MCP_FAULT_MAP break these rules. Over stdio (mcp_stdio.c) the same
 * answers, the header checks aside.
 */
#ifndef ANANKE_MOCK_MCP_MODERN_H
#define ANANKE_MOCK_MCP_MODERN_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>

#include "core/buf.h"
#include "mcp_server.h"
#include "mock_http.h"

#define MCP_MODERN_VERSION "2026-07-28"
/* mcp_modern_answer() over HTTP: a subscriptions/listen passed the checks;
 * its stream is the answer (mcp_listen_http) */
#define MCP_MODERN_LISTEN 0u

/* Whether a POST of `body` with MCP-Protocol-Version `pv` (or NULL) is
 * spoken in 2026-07-28. */
bool mcp_modern_is(const json_t *body, const char *pv);

/* A request's headers, for the checks only HTTP has: get(ud, name) is a
 * header's value or NULL. */
struct mcp_modern_hdr {
    const char *(*get)(void *ud, const char *name);
    void *ud;
};

/* The answer of one modern request `body`, whatever carries it (HTTP here,
 * stdio in mcp_stdio.c): the messages to send appended to the array out
 * (the notifications, then the answer; none for a notification or a
 * response) and the HTTP status returned. `h` NULL (stdio): no header is
 * checked; MCP_MODERN_LISTEN: see above. */
unsigned mcp_modern_answer(const struct mcp_server_opts *o, const json_t *body,
                           const struct mcp_modern_hdr *h, json_t *out);

/* Answer one modern POST (body taken by the caller: not freed here). */
enum MHD_Result mcp_modern_post(const struct mcp_server_opts *o, struct mock_http *http,
                                struct MHD_Connection *c, const json_t *body);

/* msgs (a JSON array) appended to ev as the events of one SSE stream
 * ("event: message", one compact message per data line) */
void mcp_sse_frames(struct an_buf *ev, const json_t *msgs);

#endif
