/* `target.type: mcp` (docs/mcp.md) -> struct an_target. */
#include <string.h>

#include "load/config_int.h"
#include "load/target_mcp.h"
#include "core/spec_names.h"

static int load_stdio(struct an_ld *ld, const struct an_ynode *n, struct an_mcp_target *t)
{
    struct an_ynode *v;
    int rc;
    static const char *const http_only[] = {"endpoint", "headers", "max_body_bytes", NULL};
    for (size_t i = 0; http_only[i]; i++)
        if ((v = an_yaml_get(n, http_only[i])))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'%s' belongs to an http transport; a stdio server is started with "
                           "'command'",
                           http_only[i]);
    /* "args[]" names the list itself here, as it always has */
    if ((rc = an_cfg_command(ld, n, "an mcp target with transport stdio", "args[]", &t->proc)))
        return rc;
    const struct an_cfg_cap caps[] = {{"max_stderr_bytes", &t->max_stderr_bytes}};
    if ((rc = an_cfg_inherit_env(ld, n, &t->proc)))
        return rc;
    return an_cfg_caps(ld, n, caps, 1);
}

static int load_http(struct an_ld *ld, const struct an_ynode *n, struct an_target *t,
                     struct an_mcp_target *m)
{
    static const char *const stdio_only[] = {"command",          "args", "env", "inherit_env",
                                             "max_stderr_bytes", NULL};
    struct an_ynode *v;
    int rc;
    for (size_t i = 0; stdio_only[i]; i++)
        if ((v = an_yaml_get(n, stdio_only[i])))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'%s' belongs to a stdio transport; an http server is reached at "
                           "'endpoint'",
                           stdio_only[i]);
    m->http = true;
    if ((rc = an_cfg_endpoint(ld, n, "an mcp target with transport http", &m->endpoint)))
        return rc;
    if ((v = an_yaml_get(n, "headers")) && (rc = an_cfg_headers(ld, v, t)))
        return rc;
    const struct an_cfg_cap caps[] = {{"max_body_bytes", &m->max_body_bytes}};
    return an_cfg_caps(ld, n, caps, 1);
}

int an_target_mcp_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type",
                                       "transport",
                                       "command",
                                       "args",
                                       "env",
                                       "endpoint",
                                       "headers",
                                       "timeout_ms",
                                       "assert",
                                       "roots",
                                       "protocol_version",
                                       "max_frame_bytes",
                                       "inherit_env",
                                       "max_stderr_bytes",
                                       "max_body_bytes",
                                       "max_list_pages",
                                       "start",
                                       NULL};
    static const char *const transports[] = {"stdio", "http", NULL};
    struct an_ynode *v;
    int rc;
    struct an_mcp_target *m = an_arena_alloc(ld->a, sizeof *m);
    t->data = m;
    if ((rc = an_ld_keys(ld, n, keys, "an mcp target")))
        return rc;
    const char *transport = NULL;
    if ((v = an_yaml_get(n, "transport"))) {
        if ((rc = an_ld_string(ld, v, "transport", &transport)))
            return rc;
        if (strcmp(transport, "stdio") && strcmp(transport, "http")) {
            const char *near = an_closest(transport, transports);
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown transport '%s' (%s%s%s)",
                           transport, near ? "did you mean '" : "one of: stdio, http",
                           near ? near : "", near ? "'?" : "");
        }
    } else if (an_yaml_get(n, "endpoint") && !an_yaml_get(n, "command")) {
        transport = "http"; /* what else could an endpoint be */
    } else {
        transport = "stdio";
    }
    if ((rc = !strcmp(transport, "http") ? load_http(ld, n, t, m) : load_stdio(ld, n, m)))
        return rc;
    if ((v = an_yaml_get(n, "protocol_version"))) {
        const char *pv;
        if ((rc = an_ld_string(ld, v, "protocol_version", &pv)))
            return rc;
        if (!an_mcp_version_known(pv))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown MCP protocol version '%s' (one of: 2025-11-25, 2025-06-18, "
                           "2025-03-26, 2024-11-05)",
                           pv);
        if (m->http && !strcmp(pv, "2024-11-05"))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "protocol version 2024-11-05 uses the old HTTP+SSE transport, which "
                           "ananke does not speak (Streamable HTTP needs 2025-03-26 or later)");
        m->version = pv;
    }
    if ((v = an_yaml_get(n, "roots"))) {
        bool b;
        if (v->kind == AN_Y_SCALAR && an_yaml_as_bool(v, &b)) {
            if (b)
                return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                               "'roots' is a list of directories, or false for none");
            m->no_roots = true;
        } else {
            if ((rc = an_cfg_tmpl_list(ld, v, "roots[]", "roots[]", &m->roots, &m->nroots)))
                return rc;
            m->roots_set = true;
        }
    }
    const struct an_cfg_cap caps[] = {{"max_list_pages", &m->max_list_pages}};
    if ((rc = an_cfg_caps(ld, n, caps, 1)))
        return rc;
    return an_cfg_max_frame(ld, n, &m->max_frame_bytes);
}
