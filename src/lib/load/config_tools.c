/* `tool_servers:` of the config (docs/tools.md): the MCP servers the agent
 * uses, each served to it through ananke's proxy. */
#include <string.h>

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

static int load_upstream(struct an_ld *ld, const struct an_ynode *n, struct an_tool_server *s)
{
    static const char *const keys[] = {"command", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "upstream")) ||
        (rc = an_ld_keys(ld, n, keys, "upstream")) ||
        (rc = an_ld_require(ld, n, "command", "upstream", &v)))
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

int an_cfg_tool_servers(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    static const char *const keys[] = {"upstream", NULL};
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
    }
    return 0;
}
