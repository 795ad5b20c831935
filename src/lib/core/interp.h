/*
 * Variables and ${...} interpolation.
 *
 * `${NAME}` reads a variable (hook output); `${ENV.NAME}` reads the
 * environment; `$${` writes a literal `${`. Names are [A-Za-z_][A-Za-z0-9_]*.
 * An unknown variable or unset environment variable is an error naming it
 * (AN_EVAR) — never a silent empty string.
 *
 * Ownership: an_vars owns copies of its names and values.
 */
#ifndef ANANKE_CORE_INTERP_H
#define ANANKE_CORE_INTERP_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

struct an_vars {
    char **names;
    char **values;
    size_t n, cap;
};
/* clang-format off */
#define AN_VARS_INIT {0}
/* clang-format on */

void an_vars_set(struct an_vars *v, const char *name, const char *value); /* copies; replaces */
const char *an_vars_get(const struct an_vars *v, const char *name);       /* NULL if unset */
void an_vars_release(struct an_vars *v);

/* `validate` and `--dry-run` (this thread only): while a watch is set,
 * an_interp_check and an_interp_check_json call fn for every ${ENV.NAME}
 * whose variable is not set now, with the string's location. NULL: no
 * watch. */
typedef void an_env_watch_fn(void *ctx, const char *name, const struct an_loc *loc);
void an_interp_watch_env(an_env_watch_fn *fn, void *ctx);

/* `${TOOL_SERVERS.NAME.url}` and `${TOOL_SERVERS.NAME.command}` read this
 * process-wide table (names with the prefix): set by the tool proxy while
 * it serves (docs/tools.md), NULL otherwise; the same names in the vars
 * given (a test's own paths, tools/tools.h) come first. Borrowed; set before any
 * thread interpolates and cleared after they are done. */
void an_interp_set_tool_vars(const struct an_vars *v);

/* Syntax check only (unterminated ${, bad names); used at load time. */
int an_interp_check(const char *src, const struct an_loc *loc, struct an_err *err);
/* true when src holds at least one ${...} reference. */
bool an_interp_has_refs(const char *src);

/* Interpolate src into a new malloc'd string (*out; caller frees). */
int an_interp(const char *src, const struct an_loc *loc, const struct an_vars *vars, char **out,
              struct an_err *err);
/* Interpolate every string (not keys) inside a JSON value; *out is a new reference. */
int an_interp_json(const json_t *in, const struct an_loc *loc, const struct an_vars *vars,
                   json_t **out, struct an_err *err);
/* Same check for every string of a JSON value. */
int an_interp_check_json(const json_t *in, const struct an_loc *loc, struct an_err *err);

#endif
