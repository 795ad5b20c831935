/* `target.type: acp` (docs/acp.md) -> struct an_target. */
#include <string.h>

#include "load/config_int.h"

int an_target_acp_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type",    "timeout_ms",         "assert",
                                       "command", "args",               "env",
                                       "clientCapabilities", "permissionPolicy",
                                       "max_frame_bytes", "max_turn_bytes", "confine",
                                       "confine_paths", "network", "inherit_env",
                                       "max_stderr_bytes", "max_read_bytes", "max_terminals",
                                       "max_terminal_output_bytes", "start", NULL};
    static const char *const policies[] = {"yolo", "none", "read", "write", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_keys(ld, n, keys, "an acp target")) ||
        (rc = an_cfg_command(ld, n, "an acp target", "args", t)))
        return rc;
    if ((v = an_yaml_get(n, "clientCapabilities"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "clientCapabilities")) ||
            (rc = an_cfg_json_tmpl(ld, v, "clientCapabilities", &t->client_capabilities)))
            return rc;
    }
    if ((v = an_yaml_get(n, "permissionPolicy"))) {
        const char *p;
        if ((rc = an_ld_string(ld, v, "permissionPolicy", &p)))
            return rc;
        size_t k = 0;
        while (policies[k] && strcmp(policies[k], p))
            k++;
        if (!policies[k]) {
            const char *near = an_closest(p, policies);
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown permissionPolicy '%s' (%s%s%s)", p,
                           near ? "did you mean '" : "one of: none, read, write, yolo",
                           near ? near : "", near ? "'?" : "");
        }
        t->permission_policy = (enum an_perm_policy)k;
    }
    if ((rc = an_cfg_confine(ld, n, t)) || (rc = an_cfg_inherit_env(ld, n, t)))
        return rc;
    if ((v = an_yaml_get(n, "max_turn_bytes"))) {
        if ((rc = an_ld_uint(ld, v, "max_turn_bytes", &t->max_turn_bytes)))
            return rc;
        if (t->max_turn_bytes < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'max_turn_bytes' must be at least 1");
    }
    const struct an_cfg_cap caps[] = {{"max_stderr_bytes", &t->max_stderr_bytes},
                                      {"max_read_bytes", &t->max_read_bytes},
                                      {"max_terminals", &t->max_terminals},
                                      {"max_terminal_output_bytes", &t->max_terminal_output_bytes}};
    if ((rc = an_cfg_caps(ld, n, caps, 4)))
        return rc;
    return an_cfg_max_frame(ld, n, t);
}
