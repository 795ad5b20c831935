/* `target.type: openai` (and helper agents of that type) -> struct an_target. */
#include <string.h>

#include "core/interp.h"
#include "load/config_int.h"
#include "load/target_openai.h"

static void json_release(void *p)
{
    json_decref(p);
}

static json_t *plain_json(struct an_ld *ld, const struct an_ynode *n)
{
    json_t *j = an_yaml_to_json(n, ld->err);
    if (j)
        an_arena_defer(ld->a, json_release, j);
    return j;
}

static int load_tool(struct an_ld *ld, const struct an_ynode *n, struct an_tool_def *tool)
{
    static const char *const keys[] = {"name",    "description", "parameters", "result",
                                       "command", "timeout_ms",  NULL};
    struct an_ynode *v;
    int rc;
    tool->loc = n->loc;
    tool->timeout_ms = 30000;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "a tool")) ||
        (rc = an_ld_keys(ld, n, keys, "a tool")) ||
        (rc = an_ld_require(ld, n, "name", "a tool", &v)) ||
        (rc = an_ld_string(ld, v, "name", &tool->name)))
        return rc;
    if (!tool->name[0])
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "a tool's 'name' must not be empty");
    if ((v = an_yaml_get(n, "description")) &&
        (rc = an_ld_string(ld, v, "description", &tool->description)))
        return rc;
    if ((v = an_yaml_get(n, "parameters"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "parameters")))
            return rc;
        if (!(tool->parameters = plain_json(ld, v)))
            return ld->err->code;
    }
    struct an_ynode *res = an_yaml_get(n, "result"), *cmd = an_yaml_get(n, "command");
    if (res && cmd)
        return an_fail(ld->err, AN_ESCHEMA, &cmd->loc,
                       "a tool is answered by 'result' or by 'command', not both");
    if (res && !(tool->result = plain_json(ld, res)))
        return ld->err->code;
    if (cmd) {
        if ((rc = an_ld_expect(ld, cmd, AN_Y_SEQ, "command")))
            return rc;
        if (!cmd->nitems)
            return an_fail(ld->err, AN_ESCHEMA, &cmd->loc,
                           "'command' must be a non-empty list (argv, run without a shell)");
        tool->argc = cmd->nitems;
        tool->argv = an_arena_alloc(ld->a, cmd->nitems * sizeof *tool->argv);
        for (size_t i = 0; i < cmd->nitems; i++)
            if ((rc = an_cfg_tmpl(ld, cmd->items[i], "command[]", &tool->argv[i])))
                return rc;
    }
    if ((v = an_yaml_get(n, "timeout_ms"))) {
        if ((rc = an_ld_uint(ld, v, "timeout_ms", &tool->timeout_ms)))
            return rc;
        if (tool->timeout_ms == 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'timeout_ms' must be at least 1");
    }
    return 0;
}

int an_target_openai_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {
        "type",       "endpoint", "model",           "api_key",        "headers",
        "system",     "params",   "tools",           "stream",         "max_rounds",
        "timeout_ms", "assert",   "max_event_bytes", "max_turn_bytes", "max_tool_calls",
        "start",      NULL};
    struct an_ynode *v;
    int rc;
    struct an_openai_target *o = an_arena_alloc(ld->a, sizeof *o);
    t->data = o;
    if ((rc = an_ld_keys(ld, n, keys, "an openai target")) ||
        (rc = an_cfg_endpoint(ld, n, "an openai target", &o->endpoint)) ||
        (rc = an_ld_require(ld, n, "model", "an openai target", &v)) ||
        (rc = an_cfg_tmpl(ld, v, "model", &o->model)))
        return rc;
    if ((v = an_yaml_get(n, "api_key")) && (rc = an_cfg_tmpl(ld, v, "api_key", &o->api_key)))
        return rc;
    if ((v = an_yaml_get(n, "system")) && (rc = an_cfg_tmpl(ld, v, "system", &o->system)))
        return rc;
    if ((v = an_yaml_get(n, "headers")) && (rc = an_cfg_headers(ld, v, t)))
        return rc;
    if ((v = an_yaml_get(n, "params"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "params")) ||
            (rc = an_cfg_json_tmpl(ld, v, "params", &o->params)))
            return rc;
        static const char *const owned[] = {"model", "messages", "stream", "tools", NULL};
        for (size_t i = 0; owned[i]; i++) {
            struct an_ynode *k = an_yaml_get(v, owned[i]);
            if (k)
                return an_fail(ld->err, AN_ESCHEMA, &k->loc,
                               "'params' cannot set '%s': ananke writes it (use the target's "
                               "own key)",
                               owned[i]);
        }
    }
    if ((v = an_yaml_get(n, "stream"))) {
        bool b;
        if (!an_yaml_as_bool(v, &b))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'stream' must be true or false");
        o->no_stream = !b;
    }
    if ((v = an_yaml_get(n, "max_rounds"))) {
        int64_t r;
        if ((rc = an_ld_uint(ld, v, "max_rounds", &r)))
            return rc;
        if (r < 1 || r > 1000)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'max_rounds' must be from 1 to 1000, not %lld", (long long)r);
        o->max_rounds = (unsigned)r;
    }
    if ((v = an_yaml_get(n, "tools"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "tools")))
            return rc;
        o->ntools = v->nitems;
        o->tools = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof *o->tools);
        for (size_t i = 0; i < v->nitems; i++) {
            if ((rc = load_tool(ld, v->items[i], &o->tools[i])))
                return rc;
            for (size_t k = 0; k < i; k++)
                if (!strcmp(o->tools[k].name, o->tools[i].name))
                    return an_fail(ld->err, AN_ESCHEMA, &v->items[i]->loc,
                                   "tool '%s' is declared twice (first at line %u)",
                                   o->tools[i].name, o->tools[k].loc.line);
        }
    }
    const struct an_cfg_cap caps[] = {{"max_event_bytes", &o->max_event_bytes},
                                      {"max_turn_bytes", &o->max_turn_bytes},
                                      {"max_tool_calls", &o->max_tool_calls}};
    return an_cfg_caps(ld, n, caps, 3);
}
