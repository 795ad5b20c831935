/*
 * ACP mock scenarios: the YAML script that says how `ananke-mock acp`
 * answers (see docs/mock.md, "ananke-mock acp").
 *
 * A scenario gives the agent's capabilities, optional session modes and
 * slash commands, and a list of prompt rules (first match wins; a prompt no
 * rule matches gets the built-in default behaviour). Everything is checked
 * at load time, so a broken script is a `file:line:col` message before the
 * first frame is read.
 *
 * Ownership: the model (strings, compiled regexes, JSON templates) lives in
 * the scenario's arena and goes with acp_scenario_free(). JSON values are
 * templates: the agent copies them before filling in runtime parts (ids,
 * absolute paths). The mock is single-threaded, so nothing here is locked.
 */
#ifndef ANANKE_MOCK_ACP_SCENARIO_H
#define ANANKE_MOCK_ACP_SCENARIO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "ananke/regex.h"
#include "core/arena.h"

enum acp_step_kind {
    ACP_STEP_TEXT,        /* agent_message_chunk x chunks */
    ACP_STEP_THOUGHT,     /* agent_thought_chunk x chunks */
    ACP_STEP_TOOL_CALL,   /* tool_call */
    ACP_STEP_TOOL_UPDATE, /* tool_call_update */
    ACP_STEP_PLAN,        /* plan */
    ACP_STEP_UPDATE,      /* any session update object, verbatim */
    ACP_STEP_READ_FILE,   /* fs/read_text_file, reported as a read tool call */
    ACP_STEP_WRITE_FILE,  /* fs/write_text_file, reported as an edit tool call */
    ACP_STEP_TERMINAL,    /* terminal/create, wait_for_exit, output, release */
    ACP_STEP_PERMISSION,  /* session/request_permission */
    ACP_STEP_DELAY,       /* cancellable sleep */
    ACP_STEP_RAW,         /* one line to stdout, verbatim */
    ACP_STEP_STOP,        /* end the turn with a stop reason */
    ACP_STEP_USAGE,       /* PromptResponse.usage of the turn */
    ACP_STEP_ERROR,       /* answer the prompt with a JSON-RPC error */
    ACP_STEP_EXIT,        /* exit the process mid-turn */
    ACP_STEP_MCP_CALL     /* a tools/call on a tool server, reported as a tool call */
};

struct acp_step {
    enum acp_step_kind kind;
    struct an_loc loc;
    /* text, thought, raw: the text; read_file: the path; stop: the reason;
     * error: the message */
    const char *str;
    const char *id;  /* text/thought: messageId; read/write/terminal: toolCallId */
    unsigned chunks; /* text, thought: number of chunks (>= 1) */
    long long num;   /* delay: ms; error: code; exit: status; read_file: line (0 = none) */
    long long limit; /* read_file: limit (0 = none) */
    /* text, thought: the text repeated (cut on a character) to this many
     * bytes, 0 = as written; the step done `repeat` times (>= 1). For
     * flood tests: the script stays small, the agent builds the text. */
    long long bytes, repeat;
    /* tool_call, tool_update, update: the update object (toolCallId may be
     * missing: filled at runtime); plan: the entries array; write_file,
     * terminal, permission, mcp_call: the validated map; usage: the usage object.
     * Owned by the arena. */
    json_t *json;
};

struct acp_rule {
    struct an_loc loc;
    struct an_regex *match; /* NULL = any prompt */
    long long times;        /* 0 = unlimited */
    long long used;
    struct acp_step *steps;
    size_t nsteps;
};

struct acp_scenario {
    struct an_arena arena;
    json_t *capabilities; /* agentCapabilities, defaults merged with the file's */
    json_t *modes;        /* SessionModeState or NULL */
    json_t *commands;     /* availableCommands array or NULL */
    struct acp_rule *rules;
    size_t nrules;
};

/* The scenario used without --scenario: default capabilities, no modes, no
 * commands, no rules. Never fails. */
struct acp_scenario *acp_scenario_default(void);
/* Load and check a file; on failure fills err with the node's location. */
int acp_scenario_load(struct acp_scenario **out, const char *path, struct an_err *err);
/* Same from memory; `name` is used in locations. */
int acp_scenario_load_mem(struct acp_scenario **out, const char *name, const char *data, size_t len,
                          struct an_err *err);
void acp_scenario_free(struct acp_scenario *s); /* NULL-safe */

/* The first rule whose regex matches `text` and has `times` left (counted
 * as used), or NULL for the built-in behaviour. */
struct acp_rule *acp_scenario_pick(struct acp_scenario *s, const char *text, size_t len);

/* Enum checks shared with the agent. */
bool acp_is_stop_reason(const char *s);

#endif
