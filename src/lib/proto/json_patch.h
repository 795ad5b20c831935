/*
 * JSON Patch (RFC 6902) over JSON Pointer (RFC 6901), for AG-UI
 * STATE_DELTA and ACTIVITY_DELTA.
 *
 * A patch is applied atomically: to a deep copy of the document, which
 * replaces the original only when every operation succeeded. Operations
 * may carry extra members (AG-UI producers add some); they are ignored.
 * `test` compares numbers by value (1 equals 1.0), as the RFC asks.
 */
#ifndef ANANKE_PROTO_JSON_PATCH_H
#define ANANKE_PROTO_JSON_PATCH_H

#include <jansson.h>
#include <stddef.h>

/* Apply `ops` (a JSON array of operations) to *doc, an owned reference
 * that may be NULL (read as null). On success returns 0 and *doc holds the
 * patched document (the old reference was released). On failure returns
 * AN_EPROTO, leaves *doc untouched and writes why, naming the operation's
 * index and path, into why[0..why_cap). */
int an_json_patch(json_t **doc, const json_t *ops, char *why, size_t why_cap);

/* RFC 6902 equality: numbers by value, objects regardless of key order. */
int an_json_equal_num(const json_t *a, const json_t *b);

#endif
