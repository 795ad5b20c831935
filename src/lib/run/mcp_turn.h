/* The request an MCP turn sends (docs/mcp.md), built from the test file. */
#ifndef ANANKE_RUN_MCP_TURN_H
#define ANANKE_RUN_MCP_TURN_H

#include "ananke/model.h"
#include "core/interp.h"

/* The turn's request as compact JSON text, {"method", "params"?}, with its
 * templates filled: the turn's input, which the MCP session sends.
 * *out is malloc'd (caller frees). */
int an_mcp_turn_input(const struct an_turn *t, const struct an_vars *vars, char **out,
                      struct an_err *err);

#endif
