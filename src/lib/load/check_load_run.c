/* The loaders of the impure checks, the ones the runner runs: script
 * (run/script_check.c) and agent (run/judge.c); rows of check/check_kinds.c. */
#include <string.h>

#include "load/check_load.h"

/* `cmd: [argv...]`, run without a shell. */
static int load_cmd(struct an_check_ctx *cx, json_t *cmd, struct an_check_item *out)
{
    size_t i;
    json_t *e;
    if (!json_is_array(cmd) || !json_array_size(cmd))
        return an_check_fail(cx, "cmd",
                             "'cmd' must be a non-empty list (argv, run without a shell), e.g. "
                             "[\"python3\", \"checks/total.py\"]");
    out->argc = json_array_size(cmd);
    out->argv = an_arena_alloc(cx->ld->a, (out->argc + 1) * sizeof *out->argv);
    json_array_foreach(cmd, i, e)
    {
        if (!json_is_string(e) || (i == 0 && !json_string_length(e)))
            return an_check_fail(cx, "cmd", "'cmd' must hold strings");
        out->argv[i] = json_string_value(e);
    }
    return 0;
}

int an_ck_load_script(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *use = json_object_get(item, "use"), *cmd = json_object_get(item, "cmd");
    json_t *to = json_object_get(item, "timeout_ms");
    int rc;
    if (use && cmd)
        return an_check_fail(cx, "cmd", "a script check takes 'use' or 'cmd', not both");
    if (use) {
        const char *u = json_string_value(use);
        if (!u || strncmp(u, "scripts:", 8) || !u[8])
            return an_check_fail(
                cx, "use", "'use' must be 'scripts:PATH' (PATH relative to this file)%s",
                u && !strncmp(u, "agents:", 7) ? " (agents: are for agent checks)" : "");
        const char *p = u + 8;
        out->argc = 1;
        out->argv = an_arena_alloc(cx->ld->a, 2 * sizeof *out->argv);
        /* run the file, never a PATH lookup */
        out->argv[0] = strchr(p, '/') ? p : an_arena_printf(cx->ld->a, "./%s", p);
    } else if (cmd) {
        if ((rc = load_cmd(cx, cmd, out)))
            return rc;
    } else {
        return an_check_fail(cx, "type",
                             "a script check needs 'use: scripts:PATH' or 'cmd: [argv...]'");
    }
    out->cwd = cx->src->file_dir ? cx->src->file_dir : ".";
    out->timeout_ms = 30000;
    if (to) {
        if (!json_is_integer(to) || json_integer_value(to) < 1)
            return an_check_fail(cx, "timeout_ms",
                                 "'timeout_ms' must be a whole number, at least 1");
        out->timeout_ms = json_integer_value(to);
    }
    out->options = json_object_get(item, "options");
    out->value = json_object_get(item, "value");
    return 0;
}

/* `use: agents:NAME`; the name is resolved once the config's agents are
 * known (an_checks_resolve_agents). `value` is the criteria. */
int an_ck_load_agent(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *use = json_object_get(item, "use");
    const char *u = json_string_value(use);
    if (!u || strncmp(u, "agents:", 7) || !u[7])
        return an_check_fail(cx, use ? "use" : "type",
                             "an agent check needs 'use: agents:NAME' (an agent of the config's "
                             "'agents:')%s",
                             u && !strncmp(u, "scripts:", 8) ? " (scripts: are for script checks)"
                                                             : "");
    json_t *opts = json_object_get(item, "options");
    if (opts && !json_is_object(opts))
        return an_check_fail(cx, "options",
                             "'options' must be an object such as {\"metadata\": {\"criteria\": "
                             "\"...\"}}");
    json_t *md = opts ? json_object_get(opts, "metadata") : NULL;
    if (md && !json_is_object(md))
        return an_check_fail(cx, "options", "'options.metadata' must be an object");
    json_t *v = json_object_get(item, "value");
    if (!v && !(md && json_object_get(md, "criteria")))
        return an_check_fail(cx, "type",
                             "an agent check needs criteria: 'value' or "
                             "'options.metadata.criteria'");
    out->agent_name = u + 7;
    out->value = v;
    out->options = opts;
    return 0;
}
