/*
 * The requests of `ananke-mock agui`, answered on the shared mock_http
 * plumbing (127.0.0.1 only, a thread per connection; see mock_serve.h).
 *
 * Any POST is a run request: its JSON body is logged, matched against the
 * scenario and answered with the chosen rule (a stream rendered by
 * agui_plan, or a plain status + body). GET /health answers 200 `ok`.
 */
#ifndef ANANKE_MOCK_AGUI_SERVER_H
#define ANANKE_MOCK_AGUI_SERVER_H

#include "mock_http.h"

/* A mock_http_handler; ctx is the struct agui_scenario, borrowed. */
enum MHD_Result agui_server_handle(void *ctx, struct mock_http *http,
                                   const struct mock_http_req *hr);

#endif
