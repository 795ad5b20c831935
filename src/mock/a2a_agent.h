/*
 * `ananke-mock a2a`: an A2A agent double on the shared mock_http plumbing
 * (127.0.0.1 only, a thread per connection). It speaks one protocol version,
 * chosen at start: 1.0 (SendMessage, SendStreamingMessage, GetTask,
 * CancelTask; the A2A-Version: 1.0 header required, -32009 otherwise) or
 * 0.3 (message/send, message/stream, tasks/get, tasks/cancel; `kind` on
 * results and parts, lowercase states). GET /.well-known/agent-card.json
 * serves a card of that version; JSON-RPC is POSTed to /rpc, and the
 * HTTP+JSON (REST) binding is served under /rest (proto/a2a_rest.h: the
 * same behaviours and faults, REST's paths, shapes and HTTP statuses).
 *
 * What a message does is chosen by its text (see a2a_play.c and
 * docs/mock.md): the well-behaved answers of the SDK test agent (echo,
 * msg:, ask:, fail:, data:, slow:) and the faults (garbage, shape,
 * rpcerror, cut, hang, open, chunks, wrongid, http500). In both versions it
 * also answers what comply checks: blocking: false (1.0:
 * returnImmediately), tasks/resubscribe (SubscribeToTask), the push
 * notification methods (-32003, none offered; --push stores them), the
 * extended card (-32007), unknown media types (-32005), invalid requests
 * and params; in 1.0 ListTasks too.
 *
 * Tasks live in memory under a lock for the life of the process.
 */
#ifndef ANANKE_MOCK_A2A_AGENT_H
#define ANANKE_MOCK_A2A_AGENT_H

#include <stdbool.h>

#include "mock_http.h"

struct a2a_agent;

/* A deviation played on purpose, for `ananke comply --protocol a2a`
 * (docs/mock.md): none, a completed task that goes back to working, a card
 * without its name, -32603 where an unknown task is -32001, (with push)
 * a push config answered but not kept, every REST error answered with
 * HTTP 400 (the right error body; a task not found is not 404), or the REST
 * paths answered as JSON-RPC would be (envelopes, errors with 200). */
enum a2a_fault {
    A2A_FAULT_NONE = 0,
    A2A_FAULT_BAD_TRANSITION,
    A2A_FAULT_CARD_NO_NAME,
    A2A_FAULT_WRONG_ERROR_CODE,
    A2A_FAULT_PUSH_FORGETS,
    A2A_FAULT_REST_STATUS,
    A2A_FAULT_REST_JSONRPC,
    /* 1.0: any A2A-Version taken (no -32009); the card lists one more
     * interface without its protocolVersion; task states spelled the 0.3
     * way (completed, not TASK_STATE_COMPLETED); ListTasks lists nothing */
    A2A_FAULT_VERSION_IGNORED,
    A2A_FAULT_CARD_BAD_INTERFACE,
    A2A_FAULT_V03_STATES,
    A2A_FAULT_LIST_EMPTY,
    /* (with push) a push config delete answered, the config kept; a
     * push config set answered without its taskId (kept whole) */
    A2A_FAULT_PUSH_DELETE_IGNORED,
    A2A_FAULT_PUSH_SET_BARE
};
/* "bad-transition", ... -> the fault; -1 for an unknown name. */
int a2a_fault_parse(const char *name);

/* The bindings its card offers (--binding): JSON-RPC at /rpc, HTTP+JSON
 * (REST) under /rest, or both (the card prefers JSON-RPC). Both are
 * served whatever the card says; the faults apply to both. */
enum a2a_bind { A2A_BIND_JSONRPC = 0, A2A_BIND_REST, A2A_BIND_BOTH };

/* push: the card offers push notifications and the push notification
 * config methods store configs (nothing is ever delivered to them; 1.0:
 * in the 1.0 shapes); without it they are -32003. */
struct a2a_agent *a2a_agent_new(bool v03, enum a2a_fault fault, bool push, enum a2a_bind bindings);
void a2a_agent_free(struct a2a_agent *a); /* NULL-safe */

/* A mock_http_handler; ctx is the struct a2a_agent, borrowed. */
enum MHD_Result a2a_agent_handle(void *ctx, struct mock_http *http, const struct mock_http_req *rq);

#endif
