/*
 * `ananke-mock mcp` in MCP 2026-07-28: the official kit's fixtures of
 * multi round-trip requests (SEP-2322, its input-required-result-*
 * scenarios). A fixture asks the client for input with a result whose
 * resultType is "input_required" and whose inputRequests name what it
 * wants (elicitation/create, sampling/createMessage, roots/list); the
 * client retries the same request with inputResponses (and the
 * requestState it was given, when it was given one) until the answer is
 * complete:
 *  - tools test_input_required_result_elicitation (user_name), _sampling
 *    (capital_question), _list_roots (client_roots): one round, no state;
 *  - _request_state (confirm), _multiple_inputs (user_name, greeting,
 *    client_roots at once), _multi_round (step1, then step2), _tampered_state
 *    (confirm): a requestState the mock signs and checks (a state that fails
 *    the check is -32602);
 *  - _capabilities: asks only what the request's clientCapabilities declare;
 *  - prompt test_input_required_result_prompt (prompts/get, user_context).
 * A retry missing an asked input is asked again (input_required); one whose
 * inputResponses (or an asked response) is not an object is -32602; keys
 * nobody asked are ignored. The MRTR faults of MCP_FAULT_MAP break one rule
 * each.
 */
#ifndef ANANKE_MOCK_MCP_MRTR_H
#define ANANKE_MOCK_MCP_MRTR_H

#include <jansson.h>

#include "mcp_server.h"

/* The answer (a whole JSON-RPC message: a result or an error; the caller
 * owns it) of request `body` of method `method` when it asks one of the
 * fixtures above, else NULL. */
json_t *mcp_mrtr_answer(const struct mcp_server_opts *o, const json_t *body, const char *method);

#endif
