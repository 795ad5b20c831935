/*
 * `ananke-mock a2a`: an A2A agent double on the shared mock_http plumbing
 * (127.0.0.1 only, a thread per connection). It speaks one protocol version,
 * chosen at start: 1.0 (SendMessage, SendStreamingMessage, GetTask,
 * CancelTask; the A2A-Version: 1.0 header required, -32009 otherwise) or
 * 0.3 (message/send, message/stream, tasks/get, tasks/cancel; `kind` on
 * results and parts, lowercase states). GET /.well-known/agent-card.json
 * serves a card of that version; JSON-RPC is POSTed to /rpc.
 *
 * What a message does is chosen by its text (see a2a_agent.c and
 * docs/mock.md): the well-behaved answers of the SDK test agent (echo,
 * msg:, ask:, fail:, data:, slow:) and the faults (garbage, shape,
 * rpcerror, cut, hang, open, chunks, wrongid, http500).
 *
 * Tasks live in memory under a lock for the life of the process.
 */
#ifndef ANANKE_MOCK_A2A_AGENT_H
#define ANANKE_MOCK_A2A_AGENT_H

#include <stdbool.h>

#include "mock_http.h"

struct a2a_agent;

struct a2a_agent *a2a_agent_new(bool v03);
void a2a_agent_free(struct a2a_agent *a); /* NULL-safe */

/* A mock_http_handler; ctx is the struct a2a_agent, borrowed. */
enum MHD_Result a2a_agent_handle(void *ctx, struct mock_http *http, const struct mock_http_req *rq);

#endif
