/*
 * The ACP agent behind `ananke-mock acp`: one peer speaking ACP v1
 * (JSON-RPC 2.0, one compact JSON object per line) on stdin/stdout.
 *
 * Single-threaded. While a prompt turn runs (waiting for a reply from the
 * client, or sleeping) the agent keeps reading stdin with poll(), so a
 * session/cancel or another request is handled at once. Replies from the
 * client are matched by id, never by order.
 *
 * Fault switches each break exactly one rule of the protocol, so a client or
 * a compliance runner can be shown to notice it.
 */
#ifndef ANANKE_MOCK_ACP_AGENT_H
#define ANANKE_MOCK_ACP_AGENT_H

#include <stdio.h>

#include "acp_scenario.h"

/* X(enum name, --fault name, what it breaks) */
#define ACP_FAULT_MAP(X)                                                                           \
    X(ACP_FAULT_IGNORE_CANCEL, "ignore-cancel",                                                    \
      "ignores session/cancel: the turn runs on and answers end_turn")                             \
    X(ACP_FAULT_FS_NO_CAP, "fs-without-capability",                                                \
      "calls fs/* even when the client did not advertise fs.readTextFile/writeTextFile")           \
    X(ACP_FAULT_TERMINAL_NO_CAP, "terminal-without-capability",                                    \
      "calls terminal/* even when the client did not advertise terminal")                          \
    X(ACP_FAULT_RELATIVE_PATHS, "relative-paths", "sends relative paths to fs/*")                  \
    X(ACP_FAULT_WRONG_UNKNOWN, "wrong-unknown-method",                                             \
      "answers unknown methods with result {} instead of -32601")                                  \
    X(ACP_FAULT_WRONG_PARAMS, "wrong-invalid-params",                                              \
      "accepts a session/prompt whose prompt is not a list of content blocks")                     \
    X(ACP_FAULT_LEAK_TERMINAL, "leak-terminal", "never sends terminal/release")                    \
    X(ACP_FAULT_NO_SESSION_ID, "no-session-id", "answers session/new without sessionId")           \
    X(ACP_FAULT_BAD_VERSION, "bad-protocol-version",                                               \
      "answers initialize with protocolVersion \"1\" (a string)")                                  \
    X(ACP_FAULT_GARBAGE_LINE, "garbage-line",                                                      \
      "writes a line that is not JSON to stdout after the initialize reply")                       \
    X(ACP_FAULT_EXIT_MID_TURN, "exit-mid-turn",                                                    \
      "exits with status 1 after the first update of a prompt turn, without answering it")         \
    X(ACP_FAULT_SLOW_START, "slow-start", "sleeps 500 ms before reading anything")                 \
    X(ACP_FAULT_STDERR_FLOOD, "stderr-flood",                                                      \
      "writes about 1 MiB to stderr at the start of each prompt turn")

enum acp_fault {
#define ACP_X(e, name, desc) e,
    ACP_FAULT_MAP(ACP_X)
#undef ACP_X
        ACP_FAULT_COUNT
};

struct acp_agent_opts {
    unsigned faults; /* bit (1u << enum acp_fault) per switch */
    FILE *log;       /* every frame in and out with a timestamp; NULL = none */
};
/* clang-format off */
#define ACP_AGENT_OPTS_INIT {0}
/* clang-format on */

/* The fault's --fault name, or NULL past the end (for lists and help). */
const char *acp_fault_name(unsigned i);
const char *acp_fault_desc(unsigned i);

/* Serve stdin/stdout until stdin ends. Returns the exit status (0). The
 * scenario is borrowed (its rule counters are updated). */
int acp_agent_run(struct acp_scenario *sc, const struct acp_agent_opts *opts);

#endif
