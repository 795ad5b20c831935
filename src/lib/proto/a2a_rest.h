/*
 * The A2A HTTP+JSON (REST) binding as a translation of the JSON-RPC one
 * (docs/a2a.md "Bindings", docs/comply.md "A2A over REST"). No I/O.
 *
 * A JSON-RPC method and its params map onto an HTTP verb, a path under the
 * interface URL and a body; the answer's body maps back onto the JSON-RPC
 * `result` (or `error`). Paths: A2A 0.3 puts the operations under `/v1`
 * (`POST /v1/message:send`, `GET /v1/tasks/{id}`, `POST
 * /v1/tasks/{id}:cancel`, `GET /v1/tasks/{id}:subscribe`, `POST|GET
 * /v1/tasks/{id}/pushNotificationConfigs[/{configId}]`), 1.0 at the root
 * (`POST /message:send`, ...; and ListTasks, 1.0 only: `GET /tasks` with
 * each of its params a query parameter, `?contextId=c&pageSize=2`, an
 * array's elements its key repeated, objects left out). Every id put in a
 * path, and every key and value put in a query, is percent-encoded
 * (everything but A-Z a-z 0-9 - . _ ~), so it cannot add a segment, a
 * query parameter, a fragment or a `:verb`.
 *
 * Bodies: 1.0 REST bodies are the JSON-RPC params and results themselves.
 * 0.3 REST bodies are the protobuf JSON of the 0.3 a2a.proto, as the SDKs
 * speak it (a message's parts under `content`, parts `{text}` |
 * `{file: {fileWithUri | fileWithBytes, mimeType}}` | `{data: {data}}`,
 * states `TASK_STATE_*`, roles `ROLE_*`, answers `{task}` | `{message}`,
 * stream events `{statusUpdate}` | `{artifactUpdate}` | ...): the 0.3
 * functions below turn the JSON-RPC shapes (`kind`, lowercase states)
 * into those and back.
 *
 * Errors: an HTTP status and a body, `{code, message, data?}` (0.3) or
 * `{error: {code: <http status>, status, message, details: [{reason}]}}`
 * (1.0, google.rpc.Status); an_a2a_rest_error() reads either back into a
 * JSON-RPC error object.
 *
 * Ownership: every json_t * returned is a new reference; every char *
 * is the caller's to free.
 */
#ifndef ANANKE_PROTO_A2A_REST_H
#define ANANKE_PROTO_A2A_REST_H

#include <jansson.h>
#include <stdbool.h>

/* One REST request. */
struct an_a2a_rest_req {
    const char *verb; /* "GET", "POST" or "DELETE" (static) */
    char *path;       /* from the interface URL on: "/v1/tasks/t%2F1:cancel" */
    json_t *body;     /* NULL: none (a GET) */
    bool stream;      /* the answer is an SSE stream */
};
/* The REST request of JSON-RPC `method` with `params` (of `version`:
 * AN_A2A_V0_3 or AN_A2A_V1_0, core/spec_names.h). False when the method
 * has no REST route (then *out is untouched). */
bool an_a2a_rest_route(const char *method, const json_t *params, int version,
                       struct an_a2a_rest_req *out);
void an_a2a_rest_req_release(struct an_a2a_rest_req *r);

/* The other way, for a server (ananke-mock): the JSON-RPC method and params
 * of a REST request (`path` without the query; `query` the text after '?'
 * or NULL: ListTasks' params, GetTask's historyLength; percent-decoded,
 * '+' a space, pageSize and historyLength of digits integers,
 * includeArtifacts true|false a boolean, the rest strings). NULL when no
 * route matches or the query does not decode (malformed, or a NUL); else
 * the method name (static) and *params (the 0.3 shapes for AN_A2A_V0_3). */
const char *an_a2a_rest_method(const char *verb, const char *path, const char *query,
                               const json_t *body, int version, json_t **params);

/* 0.3: a JSON-RPC result (Task, Message, an update event, a push config
 * or a list of them) as the REST answer of `method`, and back. */
json_t *an_a2a_rest_result_out(const char *method, const json_t *result);
json_t *an_a2a_rest_result_in(const json_t *body);

/* The HTTP status of JSON-RPC error `code` over REST: 404 task not found,
 * 500 internal and invalid agent response, 501 method not found, 400 the
 * rest. */
unsigned an_a2a_rest_status_of(long code);
/* The REST error body of `code` for `version`. */
json_t *an_a2a_rest_error_body(long code, const char *message, unsigned status, int version);
/* A REST error answer (its HTTP status and JSON body, or NULL) read back
 * as a JSON-RPC error object {code, message, data?}: the body's `code`
 * when it is a JSON-RPC one, else the code of its ErrorInfo `reason`
 * (TASK_NOT_FOUND ...), else -32603. */
json_t *an_a2a_rest_error(const json_t *body, long status);

/* `s` percent-encoded but for A-Z a-z 0-9 - . _ ~. */
char *an_a2a_rest_escape(const char *s);

#endif
