/* `target.type: acp` (docs/acp.md) -> struct an_target. */
#include <string.h>

#include "load/config_int.h"
#include "load/target_acp.h"

/* confine, confine_paths, network (docs/acp.md "Confinement") */
static int load_confine(struct an_ld *ld, const struct an_ynode *n, struct an_acp_target *t)
{
    /* in enum an_confine_mode's order */
    static const char *const modes[] = {"terminals", "agent", "required", "none", NULL};
    struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(n, "confine"))) {
        const char *m;
        if ((rc = an_ld_string(ld, v, "confine", &m)))
            return rc;
        size_t k = 0;
        while (modes[k] && strcmp(modes[k], m))
            k++;
        if (!modes[k]) {
            const char *near = an_closest(m, modes);
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown confine '%s' (%s%s%s)", m,
                           near ? "did you mean '" : "one of: terminals, agent, required, none",
                           near ? near : "", near ? "'?" : "");
        }
        t->confine = (enum an_confine_mode)k;
    }
    if ((v = an_yaml_get(n, "confine_paths"))) {
        if ((rc = an_cfg_tmpl_list(ld, v, "confine_paths", "confine_paths[]", &t->confine_paths,
                                   &t->nconfine_paths)))
            return rc;
        for (size_t i = 0; i < v->nitems; i++) {
            const char *p = t->confine_paths[i].src;
            /* a variable may still make it absolute: checked when interpolated */
            if (p && p[0] != '/' && p[0] != '$')
                return an_fail(ld->err, AN_ESCHEMA, &v->items[i]->loc,
                               "confine_paths entry '%s' is not an absolute path", p);
        }
        if (v->nitems > 32)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "too many confine_paths (%zu; at most 32)",
                           v->nitems);
    }
    if ((v = an_yaml_get(n, "network")) && !an_yaml_as_bool(v, &t->network))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' must be true or false", "network");
    return 0;
}

int an_target_acp_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type",
                                       "timeout_ms",
                                       "assert",
                                       "command",
                                       "args",
                                       "env",
                                       "clientCapabilities",
                                       "permissionPolicy",
                                       "max_frame_bytes",
                                       "max_turn_bytes",
                                       "confine",
                                       "confine_paths",
                                       "network",
                                       "inherit_env",
                                       "max_stderr_bytes",
                                       "max_read_bytes",
                                       "max_terminals",
                                       "max_terminal_output_bytes",
                                       "start",
                                       NULL};
    static const char *const policies[] = {"yolo", "none", "read", "write", NULL};
    struct an_ynode *v;
    int rc;
    struct an_acp_target *a = an_arena_alloc(ld->a, sizeof *a);
    t->data = a;
    if ((rc = an_ld_keys(ld, n, keys, "an acp target")) ||
        (rc = an_cfg_command(ld, n, "an acp target", "args", &a->proc)))
        return rc;
    if ((v = an_yaml_get(n, "clientCapabilities"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "clientCapabilities")) ||
            (rc = an_cfg_json_tmpl(ld, v, "clientCapabilities", &a->client_capabilities)))
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
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown permissionPolicy '%s' (%s%s%s)",
                           p, near ? "did you mean '" : "one of: none, read, write, yolo",
                           near ? near : "", near ? "'?" : "");
        }
        a->permission_policy = (enum an_perm_policy)k;
    }
    if ((rc = load_confine(ld, n, a)) || (rc = an_cfg_inherit_env(ld, n, &a->proc)))
        return rc;
    if ((v = an_yaml_get(n, "max_turn_bytes"))) {
        if ((rc = an_ld_uint(ld, v, "max_turn_bytes", &a->max_turn_bytes)))
            return rc;
        if (a->max_turn_bytes < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'max_turn_bytes' must be at least 1");
    }
    const struct an_cfg_cap caps[] = {{"max_stderr_bytes", &a->max_stderr_bytes},
                                      {"max_read_bytes", &a->max_read_bytes},
                                      {"max_terminals", &a->max_terminals},
                                      {"max_terminal_output_bytes", &a->max_terminal_output_bytes}};
    if ((rc = an_cfg_caps(ld, n, caps, 4)))
        return rc;
    return an_cfg_max_frame(ld, n, &a->max_frame_bytes);
}
