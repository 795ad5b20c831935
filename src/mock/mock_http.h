/*
 * The HTTP side every `ananke-mock` server shares: libmicrohttpd on
 * 127.0.0.1 only, one thread per connection, request bodies collected up to
 * a cap, the --requests log, plain answers, and streams played from a
 * mock_plan.
 *
 * A protocol supplies one handler. It is called once per request with the
 * whole body (or with too_big set, possibly before the body is read, when
 * the announced or received body crosses max_body) and answers with the
 * helpers below, returning what they return. A thread per connection lets
 * a scripted delay simply sleep inside the handler or the stream without
 * holding up other clients.
 *
 * Ownership: the server borrows opts->log and opts->ctx; both must outlive
 * mock_http_stop(). Strings in a request are borrowed for the handler call.
 */
#ifndef ANANKE_MOCK_HTTP_H
#define ANANKE_MOCK_HTTP_H

#include <jansson.h>
#include <microhttpd.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "mock_common.h"
#include "mock_plan.h"

#define MOCK_MAX_BODY_DEFAULT (64u * 1024u * 1024u)

struct mock_http;

struct mock_http_req {
    struct MHD_Connection *conn;
    const char *method, *url;
    const char *body; /* the bytes received, NUL-terminated; "" when none or too big */
    size_t body_len;
    bool too_big; /* the body crosses max_body: answer 413 */
};

typedef enum MHD_Result (*mock_http_handler)(void *ctx, struct mock_http *srv,
                                             const struct mock_http_req *rq);

struct mock_http_opts {
    unsigned port;           /* 0 = any free port */
    size_t max_body;         /* request bodies above this are too_big */
    struct mock_reqlog *log; /* NULL = no request log */
    mock_http_handler handle;
    void *ctx; /* handed to `handle` */
};
/* clang-format off */
#define MOCK_HTTP_OPTS_INIT {.port = 0, .max_body = MOCK_MAX_BODY_DEFAULT}
/* clang-format on */

/* Listen on 127.0.0.1:opts->port. AN_EIO when the port cannot be bound. */
int mock_http_start(struct mock_http **out, const struct mock_http_opts *opts, struct an_err *err);
/* The port actually bound (useful with port 0). */
unsigned mock_http_port(const struct mock_http *s);
size_t mock_http_max_body(const struct mock_http *s);
/* 1, 2, 3 …: numbers the answers of this process, for automatic ids. */
unsigned long mock_http_next_seq(struct mock_http *s);
/* Abort streams in progress (sleeps and stalls notice within 100 ms), close
 * the listener, wait for connection threads, free. NULL-safe. */
void mock_http_stop(struct mock_http *s);

/* Append the request to the --requests log (if any): {"method","path",
 * "headers":{lower-cased name: value},"body"}. `body` is the parsed JSON or
 * NULL; then the raw bytes are logged as a string, or null when empty. */
void mock_http_log(struct mock_http *s, const struct mock_http_req *rq, const json_t *body);

/* A POST whose body should be JSON: log the request (see mock_http_log)
 * and return the body parsed (the caller decrefs it), or NULL when it is
 * too big or empty, or when it is not JSON (then `why` holds the parser's
 * message). */
json_t *mock_http_json_body(struct mock_http *s, const struct mock_http_req *rq, char *why,
                            size_t why_size);

/* mock_http_json_body() for a handler that refuses anything else: NULL
 * then sets *status to the answer to give (413 when the body is too big,
 * 400 when it is empty or not JSON) and msg to why ("request body larger
 * than N bytes", "empty body", or the parser's message). */
json_t *mock_http_read_json(struct mock_http *s, const struct mock_http_req *rq, unsigned *status,
                            char *msg, size_t msg_size);

/* Answer status + data[0..len) (copied) with an optional content type and
 * extra headers. */
enum MHD_Result mock_http_send(struct MHD_Connection *c, unsigned status, const char *content_type,
                               const char *data, size_t len, const struct mock_header *headers,
                               size_t nheaders);

/* Answer status with `j` (taken) as compact application/json. */
enum MHD_Result mock_http_send_json(struct MHD_Connection *c, unsigned status, json_t *j,
                                    const struct mock_header *headers, size_t nheaders);

/* Answer status with a stream played from `plan`, whose contents are taken
 * (the caller's plan is left empty). Each write leaves in its own chunk as
 * soon as it is due; sleeps, cuts and stalls happen on the wire. Adds
 * Cache-Control: no-cache after the content type, then `headers`. */
enum MHD_Result mock_http_send_plan(struct mock_http *s, struct MHD_Connection *c, unsigned status,
                                    const char *content_type, const struct mock_header *headers,
                                    size_t nheaders, struct mock_plan *plan);

/* Sleep ms (forever when ms < 0) inside a handler; false as soon as the
 * server is stopping or the client has gone away. */
bool mock_http_wait(struct mock_http *s, struct MHD_Connection *c, int64_t ms);

#endif
