/*
 * ${ENV.NAME} in a string of a config, as the loaders and the runner
 * expand it (docs/config.md "Variables"); $${ is a literal ${. Hook
 * variables are per test: a program that shows a config value before any
 * test (the run's first line) has only the environment.
 */
#ifndef ANANKE_INTERP_H
#define ANANKE_INTERP_H

#include "ananke/err.h"

/* src with every ${ENV.NAME} replaced: 0 and *out (malloc'd, the
 * caller's), or AN_EVAR (err at loc) for an unset or unknown variable;
 * *out may then hold a partial string the caller frees. */
int an_interp_env(const char *src, const struct an_loc *loc, char **out, struct an_err *err);

#endif
