/*
 * What the YAML scenario readers (acp_scenario.c, agui_scenario.c) share:
 * key lists, "did you mean" suggestions for unknown keys, and the type
 * checks that fail with a schema error at the node's location.
 *
 * Every function that fails returns the an_fail() code and fills `err`.
 * What they allocate (scn_get_json, scn_get_text_or_json, scn_load_headers)
 * lives in the caller's arena.
 */
#ifndef ANANKE_MOCK_SCENARIO_UTIL_H
#define ANANKE_MOCK_SCENARIO_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "core/arena.h"
#include "core/yaml.h"
#include "mock_common.h"

/* Is s one of the NULL-terminated list? */
bool scn_in_list(const char *const *list, const char *s);

/* Edit distance of two short keys, for "did you mean" (99 when either is
 * 39 bytes or longer). */
size_t scn_edit_distance(const char *a, const char *b);

/* AN_ESCHEMA "unknown key 'K' in WHERE", suggesting the closest key (edit
 * distance below 3) of the NULL-terminated array of NULL-terminated key
 * lists. */
int scn_unknown_key(const struct an_ynode *key, const char *where,
                    const char *const *const *lists, struct an_err *err);

/* AN_ESCHEMA "WHAT must be a map, not KIND" unless n is a map. */
int scn_want_map(const struct an_ynode *n, const char *what, struct an_err *err);

/* The integer at n, in [min, max]; AN_ESCHEMA naming `key` otherwise. */
int scn_get_int(const struct an_ynode *n, const char *key, long long min, long long max,
                long long *out, struct an_err *err);

/* The text of a scalar (`text: 42` is the string "42"), borrowed from the
 * tree; lists, maps and null are AN_ESCHEMA naming `key`. `len` may be NULL
 * (the text may hold a NUL from a YAML "\0" escape; `len` counts it). */
int scn_get_str(const struct an_ynode *n, const char *key, const char **out, size_t *len,
                struct an_err *err);

/* A plain true/false; AN_ESCHEMA naming `key` otherwise. */
int scn_get_bool(const struct an_ynode *n, const char *key, bool *out, struct an_err *err);

/* Compact JSON text of any node, in `a`. */
int scn_get_json(struct an_arena *a, const struct an_ynode *n, const char **out,
                 struct an_err *err);

/* A string node as is (borrowed from the tree); anything else as compact
 * JSON text in `a` (a tool call's args, a result, a body). */
int scn_get_text_or_json(struct an_arena *a, const struct an_ynode *n, const char **out,
                         size_t *len, struct an_err *err);

/* A `headers: {Name: value}` map into an array in `a`. Names must be HTTP
 * tokens; values must not hold line breaks or NUL; Content-Length and
 * Transfer-Encoding (libmicrohttpd writes those) are refused, and so is
 * Content-Type, with `content_type_msg` as the message (the protocol says
 * where the content type is set instead). */
int scn_load_headers(struct an_arena *a, const struct an_ynode *n, const char *content_type_msg,
                     struct mock_header **out, size_t *nout, struct an_err *err);

#endif
