/* mcp:call / mcp:list / mcp:read / mcp:prompt -> the JSON-RPC request they send. */
#include "run/mcp_turn.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"

static const char *list_method(const char *what)
{
    if (!strcmp(what, "resources"))
        return "resources/list";
    if (!strcmp(what, "prompts"))
        return "prompts/list";
    if (!strcmp(what, "templates"))
        return "resources/templates/list";
    return "tools/list";
}

int an_mcp_turn_input(const struct an_turn *t, const struct an_vars *vars, char **out,
                      struct an_err *err)
{
    const struct an_mcp_turn *m = t->mcp;
    json_t *req = NULL;
    char *s = NULL;
    int rc = AN_OK;
    *out = NULL;
    if (!m)
        return an_fail(err, AN_EINTERNAL, &t->loc, "not an MCP turn");
    switch (t->type) {
    case AN_TURN_MCP_CALL: {
        json_t *args = NULL;
        if ((rc = an_interp(m->tool.src, &m->tool.loc, vars, &s, err)))
            goto done;
        if (m->arguments.value &&
            (rc = an_interp_json(m->arguments.value, &m->arguments.loc, vars, &args, err)))
            goto done;
        req = json_pack("{s:s,s:{s:s}}", "method", "tools/call", "params", "name", s);
        if (args)
            json_object_set_new(json_object_get(req, "params"), "arguments", args);
        break;
    }
    case AN_TURN_MCP_LIST:
        req = json_pack("{s:s}", "method", list_method(m->what));
        break;
    case AN_TURN_MCP_READ:
        if ((rc = an_interp(m->uri.src, &m->uri.loc, vars, &s, err)))
            goto done;
        req = json_pack("{s:s,s:{s:s}}", "method", "resources/read", "params", "uri", s);
        break;
    case AN_TURN_MCP_PROMPT: {
        json_t *args = NULL;
        if ((rc = an_interp(m->prompt.src, &m->prompt.loc, vars, &s, err)))
            goto done;
        if (m->arguments.value &&
            (rc = an_interp_json(m->arguments.value, &m->arguments.loc, vars, &args, err)))
            goto done;
        req = json_pack("{s:s,s:{s:s}}", "method", "prompts/get", "params", "name", s);
        if (req && args)
            json_object_set_new(json_object_get(req, "params"), "arguments", args);
        else
            json_decref(args);
        break;
    }
    default:
        rc = an_fail(err, AN_EINTERNAL, &t->loc, "not an MCP turn");
        goto done;
    }
    if (!req) {
        rc = an_fail(err, AN_EUSAGE, &t->loc, "the turn's request is not valid UTF-8");
        goto done;
    }
    *out = an_json_compact(req);
done:
    json_decref(req);
    free(s);
    return rc;
}
