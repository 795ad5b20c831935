/*
 * What the protocols' specifications name, as data: AG-UI's stream rules,
 * A2A's task states and versions, the MCP versions ananke speaks. No I/O:
 * the loaders check names against these at load time (a rule, a state or
 * a version that does not exist is a load error), and the adapters use the
 * same tables at run time.
 */
#ifndef ANANKE_CORE_SPEC_NAMES_H
#define ANANKE_CORE_SPEC_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* ---- AG-UI stream rules (docs/agui.md "Stream conformance") ---- */

enum an_agui_level { AN_AGUI_MUST, AN_AGUI_SHOULD };

struct an_agui_rule {
    const char *id;
    enum an_agui_level level;
    const char *summary; /* one line, for docs and --help */
};

/* Every rule, in the order docs/agui.md lists them. */
extern const struct an_agui_rule an_agui_rules[];
extern const size_t an_agui_nrules;

/* NULL when no rule has that id. */
const struct an_agui_rule *an_agui_rule_find(const char *id);

/* ---- A2A ---- */

enum an_a2a_version { AN_A2A_AUTO = 0, AN_A2A_V1_0, AN_A2A_V0_3 };

/* A task state as A2A 0.3 spells it ("TASK_STATE_INPUT_REQUIRED",
 * "input-required" and "input_required" all give "input-required";
 * "TASK_STATE_UNSPECIFIED" gives "unknown"), or NULL when s is no state.
 * Static strings. */
const char *an_a2a_state(const char *s);
bool an_a2a_state_terminal(const char *state);    /* completed failed canceled rejected */
bool an_a2a_state_interrupted(const char *state); /* input-required auth-required */

/* ---- MCP ---- */

extern const char *const an_mcp_versions[]; /* newest first, NULL-terminated */
/* Is v a protocol version ananke speaks? */
bool an_mcp_version_known(const char *v);

#endif
