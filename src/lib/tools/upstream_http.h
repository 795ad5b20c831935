/* A tool server's Streamable HTTP upstream (tools/upstream_http.c). */
#ifndef ANANKE_TOOLS_UPSTREAM_HTTP_H
#define ANANKE_TOOLS_UPSTREAM_HTTP_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

struct an_http_upstream;

/* headers: "Name: value" strings and the array, both malloc'd, taken. */
struct an_http_upstream *an_http_upstream_new(const char *endpoint, char **headers,
                                              size_t nheaders);
void an_http_upstream_free(struct an_http_upstream *u); /* NULL-safe */
/* POST msg. A request (id non-NULL) returns its answer (a new reference),
 * or NULL with why filled; a notification returns NULL. */
json_t *an_http_upstream_send(struct an_http_upstream *u, const json_t *msg, const json_t *id,
                              int64_t timeout_ms, size_t max_body, char *why, size_t cap);

#endif
