/*
 * What the YAML scenario readers (acp_scenario.c, agui_scenario.c,
 * http_scenario.c, openai_scenario.c) share: key lists, "did you mean"
 * suggestions for unknown keys, and the type checks that fail with a schema
 * error at the node's location.
 *
 * Every function that fails returns the an_fail() code and fills `err`.
 * What they allocate (scn_get_json, scn_get_text_or_json, scn_load_headers,
 * scn_compile_regex) lives in the caller's arena.
 */
#ifndef ANANKE_MOCK_SCENARIO_UTIL_H
#define ANANKE_MOCK_SCENARIO_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/regex.h"
#include "core/arena.h"
#include "core/yaml.h"
#include "mock_common.h"

/* Upper bounds that catch typos (a delay of 10^9 ms) without limiting any
 * sensible script. */
#define SCN_MAX_DELAY_MS 3600000LL
#define SCN_MAX_CHUNKS 1000000LL
#define SCN_MAX_TIMES 1000000000LL /* a rule's `times` */

/* Is s one of the NULL-terminated list? */
bool scn_in_list(const char *const *list, const char *s);

/* For a rule allowed `times` answers (0 = any number) that has given
 * *used: false when it has none left; else counts one more and is true.
 * The caller serialises calls for one rule. */
bool scn_use(long long times, long long *used);

/* Edit distance of two short keys, for "did you mean" (99 when either is
 * 39 bytes or longer). */
size_t scn_edit_distance(const char *a, const char *b);

/* AN_ESCHEMA "unknown key 'K' in WHERE", suggesting the closest key (edit
 * distance below 3) of the NULL-terminated array of NULL-terminated key
 * lists. */
int scn_unknown_key(const struct an_ynode *key, const char *where, const char *const *const *lists,
                    struct an_err *err);

/* Every key of map `n` is in the NULL-terminated `keys`; else the
 * scn_unknown_key() error for the first one that is not, in `where`. */
int scn_check_keys(const struct an_ynode *n, const char *const *keys, const char *where,
                   struct an_err *err);

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

/* A non-empty string without NUL (names, ids, models), as scn_get_str. */
int scn_get_name(const struct an_ynode *n, const char *key, const char **out, struct an_err *err);

/* The key node of `key` in map n (for errors about the key itself), or n
 * when the map has no such key. */
const struct an_ynode *scn_key_node(const struct an_ynode *n, const char *key);

/* The integers of the HTTP mocks' scripts, each checked with scn_get_int:
 * an HTTP status in [200, 599], a number of chunks in [1, SCN_MAX_CHUNKS],
 * a delay in [0, SCN_MAX_DELAY_MS] milliseconds. */
int scn_get_status(const struct an_ynode *n, const char *key, int *out, struct an_err *err);
int scn_get_chunks(const struct an_ynode *n, const char *key, unsigned *out, struct an_err *err);
int scn_get_delay(const struct an_ynode *n, const char *key, int64_t *out, struct an_err *err);

/* A plain true/false; AN_ESCHEMA naming `key` otherwise. */
int scn_get_bool(const struct an_ynode *n, const char *key, bool *out, struct an_err *err);

/* Compact JSON text of any node, in `a`. */
int scn_get_json(struct an_arena *a, const struct an_ynode *n, const char **out,
                 struct an_err *err);

/* A string node as is (borrowed from the tree); anything else as compact
 * JSON text in `a` (a tool call's args, a result, a body). */
int scn_get_text_or_json(struct an_arena *a, const struct an_ynode *n, const char **out,
                         size_t *len, struct an_err *err);

/* Compile `pattern` (the text of node n, which locates errors) into *out;
 * the regex is freed with the arena `a`. */
int scn_compile_regex(struct an_arena *a, const struct an_ynode *n, const char *pattern,
                      struct an_regex **out, struct an_err *err);
/* The same for the string at n (see scn_get_str). */
int scn_get_regex(struct an_arena *a, const struct an_ynode *n, const char *key,
                  struct an_regex **out, struct an_err *err);

/* A `headers: {Name: value}` map into an array in `a`. Names must be HTTP
 * tokens; values must not hold line breaks or NUL; Content-Length and
 * Transfer-Encoding (libmicrohttpd writes those) are refused, and so is
 * Content-Type, with `content_type_msg` as the message (the protocol says
 * where the content type is set instead). */
int scn_load_headers(struct an_arena *a, const struct an_ynode *n, const char *content_type_msg,
                     struct mock_header **out, size_t *nout, struct an_err *err);

#endif
