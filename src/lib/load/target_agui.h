/*
 * `type: agui` (docs/agui.md): the target's own keys, behind an_target.data.
 * Loaded by load/target_agui.c into the suite's arena; read by
 * run/target_agui.c. --protocol overrides `protocol` (the row's set()).
 */
#ifndef ANANKE_LOAD_TARGET_AGUI_H
#define ANANKE_LOAD_TARGET_AGUI_H

#include "ananke/model.h"

struct an_agui_target {
    struct an_tmpl endpoint;
    struct an_tmpl agent_id;
    struct an_tmpl thread_id; /* src NULL = generate one per test */
    /* agui:connect turns' URL, with ${agentId}/${threadId}; src NULL = endpoint */
    struct an_tmpl connect_endpoint;
    struct an_json_tmpl forwarded_props;
    struct an_json_tmpl state;
    /* what one turn may take (docs/agui.md "Limits"); 0: the defaults,
     * 16 MiB, 64 MiB and 100000 */
    int64_t max_event_bytes, max_turn_bytes, max_tool_calls;
    int64_t max_state_bytes;        /* the state's weight; 0: 16 MiB */
    int64_t max_header_bytes;       /* the answer's header bytes; 0: 64 KiB */
    enum an_protocol_mode protocol; /* stream conformance; default strict */
};

static inline const struct an_agui_target *an_agui_target(const struct an_target *t)
{
    return t->data;
}

#endif
