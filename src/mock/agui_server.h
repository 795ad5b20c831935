/*
 * AG-UI mock server, on the shared mock_http plumbing (127.0.0.1 only, a
 * thread per connection).
 *
 * Any POST is a run request: its JSON body is logged, matched against the
 * scenario and answered with the chosen rule (a stream rendered by
 * agui_plan, or a plain status + body). GET /health answers 200 `ok`.
 *
 * Ownership: the server borrows the scenario and the request log; both must
 * outlive agui_server_stop().
 */
#ifndef ANANKE_MOCK_AGUI_SERVER_H
#define ANANKE_MOCK_AGUI_SERVER_H

#include <stddef.h>

#include "agui_scenario.h"
#include "mock_common.h"
#include "mock_http.h"

#define AGUI_MAX_BODY_DEFAULT MOCK_MAX_BODY_DEFAULT

struct agui_server_opts {
    unsigned port;       /* 0 = any free port */
    size_t max_body;     /* request bodies above this get 413 */
    struct mock_reqlog *log; /* NULL = no request log */
};
#define AGUI_SERVER_OPTS_INIT {.port = 0, .max_body = AGUI_MAX_BODY_DEFAULT}

struct agui_server;

/* Listen on 127.0.0.1:opts->port. AN_EIO when the port cannot be bound. */
int agui_server_start(struct agui_server **out, struct agui_scenario *sc,
                      const struct agui_server_opts *opts, struct an_err *err);
/* The port actually bound (useful with port 0). */
unsigned agui_server_port(const struct agui_server *s);
/* Abort streams in progress (delays and stalls notice within 100 ms), close
 * the listener, wait for connection threads, free. NULL-safe. */
void agui_server_stop(struct agui_server *s);

#endif
