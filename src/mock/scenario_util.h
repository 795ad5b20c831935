/*
 * What the YAML scenario readers (acp_scenario.c, agui_scenario.c) share:
 * key lists, "did you mean" suggestions for unknown keys, and the type
 * checks that fail with a schema error at the node's location.
 *
 * Every function that fails returns the an_fail() code and fills `err`;
 * nothing here allocates.
 */
#ifndef ANANKE_MOCK_SCENARIO_UTIL_H
#define ANANKE_MOCK_SCENARIO_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "core/yaml.h"

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

#endif
