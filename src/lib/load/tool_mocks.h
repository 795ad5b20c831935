/* `tool_mocks:` / `tool_mocks_strict:` of a test or a turn (docs/tools.md). */
#ifndef ANANKE_LOAD_TOOL_MOCKS_H
#define ANANKE_LOAD_TOOL_MOCKS_H

#include "ananke/model.h"
#include "core/yaml.h"
#include "load/loaders.h"

/* Both keys of the map, when present, into *out / *n (arena) and *strict
 * (2: true, 1: false; untouched when absent). */
int an_tool_mocks_load(struct an_ld *ld, const struct an_ynode *map, struct an_tool_mock **out,
                       size_t *n, int *strict);

#endif
