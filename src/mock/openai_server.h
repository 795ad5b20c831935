/*
 * OpenAI-compatible mock server, on the shared mock_http plumbing
 * (127.0.0.1 only, a thread per connection).
 *
 * POST /v1/chat/completions (or /chat/completions) is answered from the
 * scenario: a chat.completion object, or a chat.completion.chunk stream
 * when the request says "stream": true. GET /v1/models (or /models) lists
 * the scenario's models; GET /health answers 200 `ok`. Errors have the
 * API's shape, {"error":{"message","type","param","code"}}.
 *
 * Ownership: the server borrows the scenario and the request log; both must
 * outlive oai_server_stop().
 */
#ifndef ANANKE_MOCK_OPENAI_SERVER_H
#define ANANKE_MOCK_OPENAI_SERVER_H

#include <stddef.h>

#include "mock_common.h"
#include "mock_http.h"
#include "openai_scenario.h"

struct oai_server_opts {
    unsigned port;           /* 0 = any free port */
    size_t max_body;         /* request bodies above this get 413 */
    struct mock_reqlog *log; /* NULL = no request log */
};
#define OAI_SERVER_OPTS_INIT {.port = 0, .max_body = MOCK_MAX_BODY_DEFAULT}

struct oai_server;

/* Listen on 127.0.0.1:opts->port. AN_EIO when the port cannot be bound. */
int oai_server_start(struct oai_server **out, struct oai_scenario *sc,
                     const struct oai_server_opts *opts, struct an_err *err);
/* The port actually bound (useful with port 0). */
unsigned oai_server_port(const struct oai_server *s);
/* Abort streams in progress, close the listener, wait for connection
 * threads, free. NULL-safe. */
void oai_server_stop(struct oai_server *s);

#endif
