/*
 * `input: strict` in an AG-UI scenario: the mock checks that a run request
 * is a RunAgentInput before it answers, as an AG-UI server built on the
 * SDKs' schemas does, and answers 422 when it is not. Without it the mock
 * stays lenient (agui_request.h): a test double that answers anything.
 *
 * What is checked: threadId and runId are strings; messages is an array of
 * objects with string `id` and `role`; tools and context, when present,
 * are arrays. Nothing else (unknown members are accepted, as the spec
 * wants).
 */
#ifndef ANANKE_MOCK_AGUI_INPUT_H
#define ANANKE_MOCK_AGUI_INPUT_H

#include <jansson.h>
#include <stddef.h>

/* NULL when `body` (a JSON object) is a RunAgentInput; else why not, written
 * into buf ("missing threadId", "messages[2] has no role"). */
const char *agui_input_problem(const json_t *body, char *buf, size_t cap);

#endif
