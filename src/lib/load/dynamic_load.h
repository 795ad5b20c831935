/*
 * Loading a dynamic test (seed 002 "Dynamic Mode"): the simulator, the
 * checkpoints, max_turns and timeout, from a JSONL case or a YAML test's
 * `simulate:` block (converted to JSON first), so both read alike.
 */
#ifndef ANANKE_LOAD_DYNAMIC_LOAD_H
#define ANANKE_LOAD_DYNAMIC_LOAD_H

#include <jansson.h>

#include "ananke/model.h"
#include "load/check_load.h"

#define AN_DYN_DEFAULT_MAX_TURNS 20
#define AN_DYN_DEFAULT_TIMEOUT_MS (5 * 60 * 1000)

/* `obj` holds simulator, checkpoints, max_turns and timeout (other keys
 * are the caller's). `src` says where obj was written. Values are borrowed
 * from obj (keep it alive with the suite). */
int an_dynamic_load(struct an_ld *ld, json_t *obj, const struct an_ck_src *src,
                    struct an_dynamic **out);

/* Point the simulator and the checkpoints' agent checks at the config's
 * agents; `fallback` is --simulator (NULL: none). */
int an_dynamic_resolve(const struct an_config *cfg, struct an_dynamic *d, const char *fallback,
                       struct an_err *err);

#endif
