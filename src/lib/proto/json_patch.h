/*
 * JSON Patch (RFC 6902) over JSON Pointer (RFC 6901), for AG-UI
 * STATE_DELTA and ACTIVITY_DELTA.
 *
 * A patch is applied atomically, in place: every change is logged, and the
 * log is undone when an operation fails, so *doc is as it was. Operations
 * may carry extra members (AG-UI producers add some); they are ignored.
 * `test` compares numbers by value (1 equals 1.0), as the RFC asks.
 *
 * What an agent sends is bounded (struct an_json_patch_cap): the document's
 * weight (an_json_weight: what it holds in memory, about) after every
 * operation, its depth, and the work a patch does (bytes copied, walked and
 * shifted). A `copy` is weighed before it is made, so 22 copies doubling an
 * array stop at the cap instead of taking 668 MB.
 */
#ifndef ANANKE_PROTO_JSON_PATCH_H
#define ANANKE_PROTO_JSON_PATCH_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

/* Deeper than this a document is refused: jansson (and so `ananke replay`
 * reading results.json) reads no deeper than 2048, envelope included. */
#define AN_JSON_PATCH_MAX_DEPTH 2000

/* The weight of v, about the bytes it holds in memory: 48 for every value,
 * plus its string's bytes, plus 16 and the key's bytes for every object
 * member, plus 8 for every array element. *depth (may be NULL) gets its
 * nesting (a scalar 0, [] 1). Recursive: v must have been parsed (jansson
 * nests at most 2048 deep) or built under AN_JSON_PATCH_MAX_DEPTH. */
uint64_t an_json_weight(const json_t *v, size_t *depth);

/* What patches may do to one document. */
struct an_json_patch_cap {
    uint64_t max_bytes; /* the document's weight after any operation; 0: no cap */
    uint64_t bytes;     /* the document's weight, kept up to date by an_json_patch */
    uint64_t max_work;  /* bytes copied, weighed and shifted, all patches; 0: no cap */
    uint64_t work;      /* so far */
};

/* Apply `ops` (a JSON array of operations) to *doc, an owned reference
 * that may be NULL (read as null). *doc is changed in place: the caller
 * holds the only reference to it and to every value in it.
 * On success returns 0 and *doc holds the patched document. On failure
 * *doc is as it was, why[0..why_cap) says why, naming the operation's index
 * and path, and the return is AN_EPROTO (a bad patch) or AN_ELIMIT (a cap
 * of `cap` was reached; `cap` may be NULL: no cap). cap->bytes must hold
 * the weight of *doc on entry. */
int an_json_patch(json_t **doc, const json_t *ops, struct an_json_patch_cap *cap, char *why,
                  size_t why_cap);

/* RFC 6902 equality: numbers by value, objects regardless of key order. */
int an_json_equal_num(const json_t *a, const json_t *b);

#endif
