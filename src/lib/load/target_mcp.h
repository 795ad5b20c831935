/*
 * `type: mcp` (docs/mcp.md): the target's own keys, behind an_target.data.
 * A server over stdio (proc) or Streamable HTTP (endpoint, and the target's
 * headers). Loaded by load/target_mcp.c into the suite's arena; read by
 * run/target_mcp.c.
 */
#ifndef ANANKE_LOAD_TARGET_MCP_H
#define ANANKE_LOAD_TARGET_MCP_H

#include "load/target_proc.h"

struct an_mcp_target {
    struct an_target_proc proc; /* stdio */
    bool http;                  /* `transport: http` (Streamable HTTP) */
    struct an_tmpl endpoint;    /* http */
    const char *version;        /* protocolVersion asked for; NULL: "2025-11-25" */
    struct an_tmpl *roots;      /* `roots:` as written; roots_set false: the sandbox */
    size_t nroots;
    bool roots_set;
    bool no_roots; /* `roots: false`: no roots capability */
    /* docs/mcp.md "Limits"; 0: the default */
    int64_t max_frame_bytes;  /* one JSON-RPC message (a line, a body, an SSE event) */
    int64_t max_body_bytes;   /* http: one response body */
    int64_t max_stderr_bytes; /* stdio: stderr kept (the tail) */
    int64_t max_list_pages;   /* pages of one mcp:list */
};

static inline const struct an_mcp_target *an_mcp_target(const struct an_target *t)
{
    return t->data;
}

#endif
