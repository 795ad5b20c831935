/* `target.type: agui` (docs/agui.md) -> struct an_target. */
#include <string.h>

#include "load/config_int.h"
#include "load/target_agui.h"

int an_target_agui_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type",
                                       "headers",
                                       "timeout_ms",
                                       "assert",
                                       "endpoint",
                                       "agentId",
                                       "threadId",
                                       "forwardedProps",
                                       "state",
                                       "protocol",
                                       "max_event_bytes",
                                       "max_turn_bytes",
                                       "max_tool_calls",
                                       "max_state_bytes",
                                       "max_header_bytes",
                                       "connect_endpoint",
                                       "start",
                                       NULL};
    static const char *const modes[] = {"strict", "warn", "off", NULL}; /* an_protocol_mode */
    struct an_ynode *v;
    int rc;
    struct an_agui_target *a = an_arena_alloc(ld->a, sizeof *a);
    t->data = a;
    if ((rc = an_ld_keys(ld, n, keys, "an agui target")))
        return rc;
    if ((rc = an_cfg_endpoint(ld, n, "an agui target", &a->endpoint)))
        return rc;
    if ((rc = an_ld_require(ld, n, "agentId", "an agui target", &v)) ||
        (rc = an_cfg_tmpl(ld, v, "agentId", &a->agent_id)))
        return rc;
    if ((v = an_yaml_get(n, "threadId")) && (rc = an_cfg_tmpl(ld, v, "threadId", &a->thread_id)))
        return rc;
    if ((v = an_yaml_get(n, "connect_endpoint"))) {
        const char *u;
        if ((rc = an_cfg_tmpl(ld, v, "connect_endpoint", &a->connect_endpoint)))
            return rc;
        u = a->connect_endpoint.src;
        if (strncmp(u, "http://", 7) && strncmp(u, "https://", 8) && strncmp(u, "${", 2))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'connect_endpoint' must be an http:// or https:// URL, not '%s'", u);
    }
    if ((v = an_yaml_get(n, "headers")) && (rc = an_cfg_headers(ld, v, t)))
        return rc;
    if ((v = an_yaml_get(n, "forwardedProps")) &&
        (rc = an_cfg_json_tmpl(ld, v, "forwardedProps", &a->forwarded_props)))
        return rc;
    if ((v = an_yaml_get(n, "state")) && (rc = an_cfg_json_tmpl(ld, v, "state", &a->state)))
        return rc;
    if ((v = an_yaml_get(n, "protocol"))) {
        const char *p;
        size_t k = 0;
        if ((rc = an_ld_string(ld, v, "protocol", &p)))
            return rc;
        while (modes[k] && strcmp(modes[k], p))
            k++;
        if (!modes[k])
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown protocol mode '%s' (one of: strict, warn, off)", p);
        a->protocol = (enum an_protocol_mode)k;
    }
    static const char *const caps[] = {"max_event_bytes", "max_turn_bytes", "max_tool_calls",
                                       "max_state_bytes", "max_header_bytes"};
    int64_t *capv[] = {&a->max_event_bytes, &a->max_turn_bytes, &a->max_tool_calls,
                       &a->max_state_bytes, &a->max_header_bytes};
    for (size_t k = 0; k < 5; k++) {
        if (!(v = an_yaml_get(n, caps[k])))
            continue;
        if ((rc = an_ld_uint(ld, v, caps[k], capv[k])))
            return rc;
        if (*capv[k] < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' must be at least 1", caps[k]);
    }
    return 0;
}
