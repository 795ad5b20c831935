/*
 * A target that is a child process ananke starts and talks to on its stdio
 * (acp; mcp with transport stdio): its command line and environment, part
 * of each such type's own keys (load/target_acp.h, load/target_mcp.h).
 * Everything is in the suite's arena.
 */
#ifndef ANANKE_LOAD_TARGET_PROC_H
#define ANANKE_LOAD_TARGET_PROC_H

#include "ananke/model.h"

struct an_target_proc {
    struct an_tmpl command; /* src NULL: none (mcp over HTTP) */
    struct an_tmpl *args;
    size_t nargs;
    struct an_env_var *env; /* added to the minimal set, or to all (inherit_env) */
    size_t nenv;
    /* start from ananke's whole environment instead of the minimal set
     * (core/envmin.h) plus `env` */
    bool inherit_env;
};

#endif
