/*
 * The requests of `ananke-mock openai`, answered on the shared mock_http
 * plumbing (127.0.0.1 only, a thread per connection; see mock_serve.h).
 *
 * POST /v1/chat/completions (or /chat/completions) is answered from the
 * scenario: a chat.completion object, or a chat.completion.chunk stream
 * when the request says "stream": true. GET /v1/models (or /models) lists
 * the scenario's models; GET /health answers 200 `ok`. Errors have the
 * API's shape, {"error":{"message","type","param","code"}}.
 */
#ifndef ANANKE_MOCK_OPENAI_SERVER_H
#define ANANKE_MOCK_OPENAI_SERVER_H

#include "mock_http.h"

/* A mock_http_handler; ctx is the struct oai_scenario, borrowed. */
enum MHD_Result oai_server_handle(void *ctx, struct mock_http *http,
                                  const struct mock_http_req *hr);

#endif
