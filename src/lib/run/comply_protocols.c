/* The protocols `ananke comply` speaks: one row each. A row names its
 * runner (a probe once per agent, a run per test; src/lib/run/comply.h),
 * the step kinds its tests have, and what the CLI derives from it (the
 * --protocol values, the default suite, endpoint or command agents). */
#include <string.h>

#include "run/comply_plan_int.h"

static const struct an_comply_protocol protocols[] = {
    {.info = {.name = "acp", .suite = "compliance/acp"},
     .label = "ACP",
     .steps = AN_JSONT_ACP,
     .wire = AN_COMPLY_PROTO_ACP,
     .sessions = true,
     .probe = an_comply_probe,
     .run = an_comply_run,
     .probe_what = "initialize"},
    {.info = {.name = "agui", .suite = "compliance/agui", .endpoint = true},
     .label = "AG-UI",
     .steps = AN_JSONT_AGUI,
     .probe = an_comply_agui_probe,
     .run = an_comply_agui_run,
     .probe_what = "the probe run"},
    {.info = {.name = "mcp", .suite = "compliance/mcp"},
     .label = "MCP",
     .steps = AN_JSONT_ACP, /* the same JSON-RPC steps, without sessions */
     .wire = AN_COMPLY_PROTO_MCP,
     .http_steps = true,
     .probe = an_comply_mcp_probe,
     .run = an_comply_run,
     .probe_what = "initialize"},
    {.info = {.name = "a2a", .suite = "compliance/a2a", .endpoint = true},
     .label = "A2A",
     .steps = AN_JSONT_AGUI, /* `http` steps, judged as A2A outcomes */
     .probe = an_comply_a2a_probe,
     .run = an_comply_a2a_run,
     .probe_what = "the agent card",
     .bindings = an_comply_a2a_bindings},
};
#define NPROTOCOLS (sizeof protocols / sizeof *protocols)

size_t an_comply_protocol_count(void)
{
    return NPROTOCOLS;
}

const struct an_comply_protocol_info *an_comply_protocol_at(size_t i)
{
    return i < NPROTOCOLS ? &protocols[i].info : NULL;
}

const struct an_comply_protocol *an_comply_protocol_row(const char *name)
{
    for (size_t i = 0; name && i < NPROTOCOLS; i++)
        if (!strcmp(protocols[i].info.name, name))
            return &protocols[i];
    return NULL;
}

const struct an_comply_protocol_info *an_comply_protocol_find(const char *name)
{
    const struct an_comply_protocol *row = an_comply_protocol_row(name);
    return row ? &row->info : NULL;
}
