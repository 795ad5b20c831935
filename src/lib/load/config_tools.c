/* `tool_servers:` of the config (docs/tools.md): the MCP servers the agent
 * uses, each served to it through ananke's proxy. */
#include <string.h>

#include "ananke/check.h"
#include "core/interp.h"
#include "load/config_int.h"
#include "load/schema.h"

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return false;
    return true;
}

static int load_endpoint(struct an_ld *ld, const struct an_ynode *ep, const struct an_ynode *hd,
                         struct an_tool_server *s)
{
    int rc;
    if ((rc = an_ld_string(ld, ep, "endpoint", &s->endpoint)) ||
        (rc = an_interp_check(s->endpoint, &ep->loc, ld->err)))
        return rc;
    if (!an_interp_has_refs(s->endpoint) && strncmp(s->endpoint, "http://", 7) != 0 &&
        strncmp(s->endpoint, "https://", 8) != 0)
        return an_fail(ld->err, AN_ESCHEMA, &ep->loc, "'endpoint' must be an http(s) URL");
    if (!hd)
        return 0;
    if ((rc = an_ld_expect(ld, hd, AN_Y_MAP, "headers")))
        return rc;
    s->nheaders = hd->npairs;
    s->header_names = an_arena_alloc(ld->a, (hd->npairs ? hd->npairs : 1) * sizeof(char *));
    s->header_values = an_arena_alloc(ld->a, (hd->npairs ? hd->npairs : 1) * sizeof(char *));
    for (size_t i = 0; i < hd->npairs; i++) {
        const char *k = hd->pairs[i].key->str;
        if (!*k || strpbrk(k, ": \t\r\n"))
            return an_fail(ld->err, AN_ESCHEMA, &hd->pairs[i].key->loc, "invalid header name '%s'",
                           k);
        s->header_names[i] = k;
        if ((rc = an_ld_string(ld, hd->pairs[i].value, k, &s->header_values[i])) ||
            (rc = an_interp_check(s->header_values[i], &hd->pairs[i].value->loc, ld->err)))
            return rc;
        if (strpbrk(s->header_values[i], "\r\n"))
            return an_fail(ld->err, AN_ESCHEMA, &hd->pairs[i].value->loc,
                           "header '%s' holds a line break", k);
    }
    return 0;
}

static int load_upstream(struct an_ld *ld, const struct an_ynode *n, struct an_tool_server *s)
{
    static const char *const keys[] = {"command", "endpoint", "headers", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "upstream")) ||
        (rc = an_ld_keys(ld, n, keys, "upstream")))
        return rc;
    struct an_ynode *ep = an_yaml_get(n, "endpoint"), *hd = an_yaml_get(n, "headers");
    if (ep && an_yaml_get(n, "command"))
        return an_fail(ld->err, AN_ESCHEMA, &ep->loc,
                       "an upstream has 'command' (stdio) or 'endpoint' (HTTP), not both");
    if (hd && !ep)
        return an_fail(ld->err, AN_ESCHEMA, &hd->loc, "'headers' goes with an 'endpoint'");
    if (ep)
        return load_endpoint(ld, ep, hd, s);
    if ((rc = an_ld_require(ld, n, "command", "upstream", &v)))
        return rc;
    if (v->kind != AN_Y_SEQ || !v->nitems)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'command' must be a non-empty list (program and its arguments)");
    s->ncommand = v->nitems;
    s->command = an_arena_alloc(ld->a, (v->nitems + 1) * sizeof *s->command);
    for (size_t i = 0; i < v->nitems; i++) {
        if ((rc = an_ld_expect(ld, v->items[i], AN_Y_SCALAR, "command[]")))
            return rc;
        s->command[i] = v->items[i]->str;
    }
    s->command[v->nitems] = NULL;
    if (!s->command[0][0])
        return an_fail(ld->err, AN_ESCHEMA, &v->items[0]->loc, "'command' names no program");
    return 0;
}

/* ignore_args: {TOOL: [path, ...]} (docs/tools.md "Record and replay") */
static int load_ignore(struct an_ld *ld, const struct an_ynode *n, struct an_tool_server *s)
{
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "ignore_args")))
        return rc;
    s->nignore_args = n->npairs;
    s->ignore_args = an_arena_alloc(ld->a, (n->npairs ? n->npairs : 1) * sizeof *s->ignore_args);
    for (size_t i = 0; i < n->npairs; i++) {
        struct an_tool_ignore *g = &s->ignore_args[i];
        const struct an_ynode *v = n->pairs[i].value;
        g->tool = n->pairs[i].key->str;
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "ignore_args's list of argument paths")))
            return rc;
        g->npaths = v->nitems;
        g->paths = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof *g->paths);
        for (size_t k = 0; k < v->nitems; k++) {
            json_t *none = NULL;
            if ((rc = an_ld_string(ld, v->items[k], "an argument path", &g->paths[k])))
                return rc;
            if (!*g->paths[k] || an_json_path_get(NULL, g->paths[k], &none) != 0)
                return an_fail(ld->err, AN_ESCHEMA, &v->items[k]->loc,
                               "'%s' is not an argument path (keys separated by dots, array "
                               "indexes as numbers, '*' for any)",
                               g->paths[k]);
        }
    }
    return 0;
}

int an_cfg_tool_servers(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    static const char *const keys[] = {"upstream",    "timeout_ms",       "max_body_bytes",
                                       "ignore_args", "replay_max_bytes", NULL};
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "tool_servers")))
        return rc;
    c->ntool_servers = n->npairs;
    c->tool_servers = an_arena_alloc(ld->a, (n->npairs ? n->npairs : 1) * sizeof *c->tool_servers);
    for (size_t i = 0; i < n->npairs; i++) {
        struct an_tool_server *s = &c->tool_servers[i];
        const struct an_ynode *m = n->pairs[i].value;
        memset(s, 0, sizeof *s);
        s->name = n->pairs[i].key->str;
        s->loc = n->pairs[i].key->loc;
        if (!name_ok(s->name))
            return an_fail(ld->err, AN_ESCHEMA, &s->loc,
                           "tool server name '%s' must be letters, digits, '_' or '-'", s->name);
        if ((rc = an_ld_expect(ld, m, AN_Y_MAP, "a tool server")) ||
            (rc = an_ld_keys(ld, m, keys, "a tool server")))
            return rc;
        struct an_ynode *up = an_yaml_get(m, "upstream");
        if (!up)
            return an_fail(ld->err, AN_ESCHEMA, &m->loc,
                           "tool server '%s' needs an 'upstream' (servers without one, all "
                           "mocked, are not supported yet)",
                           s->name);
        if ((rc = load_upstream(ld, up, s)))
            return rc;
        const struct an_cfg_cap caps[] = {{"timeout_ms", &s->timeout_ms},
                                          {"max_body_bytes", &s->max_body_bytes},
                                          {"replay_max_bytes", &s->replay_max_bytes}};
        if ((rc = an_cfg_caps(ld, m, caps, 3)))
            return rc;
        const struct an_ynode *ig = an_yaml_get(m, "ignore_args");
        if (ig && (rc = load_ignore(ld, ig, s)))
            return rc;
    }
    return 0;
}
