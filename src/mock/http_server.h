/*
 * The requests of `ananke-mock http` (seed 004's demo agent), answered on
 * the shared mock_http plumbing (127.0.0.1 only, a thread per connection).
 *
 * POST /run-case {case_id, version, input{user, context?}} is answered from
 * the scenario (http_scenario.h); a body that is not such a request gets
 * 400, a case no rule takes 404 (unless the scenario has a default), both
 * with a JSON body {error, message}. GET /health answers 200 {"ok":true}.
 * Other paths are 404, other methods on /run-case 405.
 */
#ifndef ANANKE_MOCK_HTTP_SERVER_H
#define ANANKE_MOCK_HTTP_SERVER_H

#include "mock_http.h"

/* A mock_http_handler; ctx is the struct http_scenario, borrowed. */
enum MHD_Result http_server_handle(void *ctx, struct mock_http *http,
                                   const struct mock_http_req *hr);

#endif
