/*
 * `type: acp` (docs/acp.md): the target's own keys, behind an_target.data.
 * The agent is a child process speaking ACP on its stdio. Loaded by
 * load/target_acp.c into the suite's arena; read by run/target_acp.c.
 */
#ifndef ANANKE_LOAD_TARGET_ACP_H
#define ANANKE_LOAD_TARGET_ACP_H

#include "load/target_proc.h"

struct an_acp_target {
    struct an_target_proc proc;
    struct an_json_tmpl client_capabilities; /* NULL value: fs read/write and terminal on */
    enum an_perm_policy permission_policy;
    enum an_confine_mode confine;
    struct an_tmpl *confine_paths; /* bound read-only in the confinement */
    size_t nconfine_paths;
    bool network; /* confined children keep the host's network */
    /* docs/acp.md "Limits" and docs/security.md "Size caps"; 0: the default */
    int64_t max_frame_bytes;           /* one JSON-RPC line */
    int64_t max_turn_bytes;            /* what one turn accumulates */
    int64_t max_stderr_bytes;          /* stderr kept (the tail) */
    int64_t max_read_bytes;            /* a file served to fs/read_text_file */
    int64_t max_terminals;             /* terminals at once */
    int64_t max_terminal_output_bytes; /* a terminal's output kept */
};

static inline const struct an_acp_target *an_acp_target(const struct an_target *t)
{
    return t->data;
}

#endif
