/* The agents of a compliance plan (include/ananke/comply_run.h): from
 * "NAME=COMMAND" (or NAME=URL) specs, and from a settings file in the
 * editors' shape ({"agent_servers": {NAME: {command, args, env}}}) with
 * an ACP target's confinement keys. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/interp.h"
#include "core/json.h"
#include "core/port.h"
#include "proto/acp_client.h"
#include "run/comply_plan_int.h"
#include "run/secrets.h"

#define MAX_CONFINE_PATHS AN_COMPLY_MAX_CONFINE_PATHS

static struct an_comply_plan_agent *agent_add(struct an_comply_plan *c, const char *name,
                                              size_t nlen)
{
    c->agents = an_xrealloc(c->agents, (c->nagents + 1) * sizeof *c->agents);
    struct an_comply_plan_agent *a = &c->agents[c->nagents++];
    memset(a, 0, sizeof *a);
    a->name = an_xstrndup(name, nlen);
    a->confine = c->confine;
    a->network = c->o.network;
    a->inherit_env = c->o.inherit_env;
    size_t n = 0;
    while (c->confine_paths[n])
        n++;
    a->confine_paths = an_comply_strv_copy((const char *const *)c->confine_paths, n);
    return a;
}

/* An MCP server's Streamable HTTP endpoint: the engine speaks stdio to
 * `ananke mcp-bridge URL` (ananke/mcp_bridge.h), which speaks HTTP to it.
 * Nothing of the server's runs here, so the bridge is not confined (it
 * needs the network). */
static int mcp_http_agent(struct an_comply_plan *c, struct an_comply_plan_agent *a, const char *url)
{
    char self[4096];
    if (an_port_self_exe(self, sizeof self))
        return an_comply_plan_fail(c, AN_EUSAGE,
                                   "--agent %s: MCP over HTTP needs the path of the running "
                                   "ananke, which this system does not give",
                                   a->name);
    a->argv = an_xcalloc(4, sizeof *a->argv);
    a->argv[0] = an_xstrdup(self);
    a->argv[1] = an_xstrdup("mcp-bridge");
    a->argv[2] = an_xstrdup(url);
    a->confine = AN_ACP_CONFINE_NONE;
    a->network = true;
    return 0;
}

static int agent_from_shell(struct an_comply_plan *c, const char *spec)
{
    const char *eq = strchr(spec, '=');
    bool url = c->proto->info.endpoint;
    if (!eq || eq == spec || !eq[1])
        return an_comply_plan_fail(c, AN_EUSAGE, "--agent takes NAME=%s, not '%s'",
                                   url ? "URL" : "COMMAND", spec);
    for (size_t i = 0; i < c->nagents; i++)
        if (strlen(c->agents[i].name) == (size_t)(eq - spec) &&
            !strncmp(c->agents[i].name, spec, (size_t)(eq - spec)))
            return an_comply_plan_fail(c, AN_EUSAGE, "agent '%.*s' given twice", (int)(eq - spec),
                                       spec);
    if (url && strncmp(eq + 1, "http://", 7) && strncmp(eq + 1, "https://", 8))
        return an_comply_plan_fail(c, AN_EUSAGE,
                                   "--agent %.*s: an %s agent is an http:// or https:// URL, not "
                                   "'%s'",
                                   (int)(eq - spec), spec, c->proto->label, eq + 1);
    struct an_comply_plan_agent *a = agent_add(c, spec, (size_t)(eq - spec));
    a->command = an_xstrdup(eq + 1);
    if (url)
        return 0; /* an endpoint: nothing to start */
    if (c->proto->wire == AN_COMPLY_PROTO_MCP &&
        (!strncmp(eq + 1, "http://", 7) || !strncmp(eq + 1, "https://", 8)))
        return mcp_http_agent(c, a, eq + 1);
    a->argv = an_xcalloc(4, sizeof *a->argv);
    a->argv[0] = an_xstrdup("/bin/sh");
    a->argv[1] = an_xstrdup("-c");
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "exec %s", eq + 1);
    a->argv[2] = an_buf_detach(&b, NULL);
    return 0;
}

/* An agent's confine, confine_paths, network and inherit_env keys (as an
 * ACP target's in a config): over the flags' values. */
static int settings_confine(struct an_comply_plan *c, const char *file, const char *name,
                            const json_t *s, struct an_comply_plan_agent *a)
{
    int rc = 0;
    json_t *v;
    if ((v = json_object_get(s, "confine"))) {
        int m = an_comply_confine_parse(json_string_value(v));
        if (m < 0) {
            rc = an_comply_plan_fail(
                c, AN_ESCHEMA,
                "%s: agent_servers.%s.confine must be one of: terminals, agent, "
                "required, none",
                file, name);
            return rc;
        }
        a->confine = m;
    }
    static const char *const flags[] = {"network", "inherit_env"};
    bool *dst[] = {&a->network, &a->inherit_env};
    for (size_t i = 0; i < 2; i++) {
        if (!(v = json_object_get(s, flags[i])))
            continue;
        if (!json_is_boolean(v)) {
            rc = an_comply_plan_fail(c, AN_ESCHEMA, "%s: agent_servers.%s.%s must be true or false",
                                     file, name, flags[i]);
            return rc;
        }
        *dst[i] = json_is_true(v);
    }
    if (!(v = json_object_get(s, "confine_paths")))
        return 0;
    if (!json_is_array(v) || json_array_size(v) > MAX_CONFINE_PATHS) {
        rc =
            an_comply_plan_fail(c, AN_ESCHEMA,
                                "%s: agent_servers.%s.confine_paths must be an array of at most %d "
                                "absolute paths",
                                file, name, MAX_CONFINE_PATHS);
        return rc;
    }
    for (char **p = a->confine_paths; p && *p; p++)
        free(*p);
    free(a->confine_paths);
    a->confine_paths = an_xcalloc(json_array_size(v) + 1, sizeof *a->confine_paths);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const char *src = json_string_value(json_array_get(v, i));
        char *p = NULL;
        struct an_err ie = AN_ERR_INIT;
        struct an_loc loc = {.file = file};
        struct an_vars none = AN_VARS_INIT; /* ${ENV.NAME} only */
        if (src && an_interp(src, &loc, &none, &p, &ie)) {
            rc = an_comply_plan_fail(c, AN_ESCHEMA, "%s: agent_servers.%s.confine_paths[%zu]: %s",
                                     file, name, i, ie.msg);
            free(p);
            return rc;
        }
        if (!p || p[0] != '/') {
            rc = an_comply_plan_fail(
                c, AN_ESCHEMA, "%s: agent_servers.%s.confine_paths[%zu] must be an absolute path",
                file, name, i);
            free(p);
            return rc;
        }
        a->confine_paths[i] = p;
    }
    return 0;
}

/* Agents of the settings file: all of them, or those named in `pick`. */
static int agents_from_settings(struct an_comply_plan *c, const char *file, char **pick,
                                size_t npick)
{
    json_error_t je;
    json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, &je), *servers;
    int rc = 0;
    if (!root) {
        rc = an_comply_plan_fail(c, AN_ESCHEMA, "%s:%d:%d: %s", file, je.line, je.column, je.text);
        return rc;
    }
    servers = json_object_get(root, "agent_servers");
    if (!json_is_object(servers)) {
        rc = an_comply_plan_fail(c, AN_ESCHEMA, "%s: needs an \"agent_servers\" object", file);
        json_decref(root);
        return rc;
    }
    for (size_t i = 0; i < npick && !rc; i++)
        if (!json_object_get(servers, pick[i]))
            rc = an_comply_plan_fail(c, AN_EUSAGE, "agent '%s' is not in %s", pick[i], file);
    const char *name;
    json_t *s;
    json_object_foreach(servers, name, s)
    {
        if (rc)
            break;
        bool want = npick == 0;
        for (size_t i = 0; i < npick; i++)
            want = want || !strcmp(pick[i], name);
        if (!want)
            continue;
        const char *cmd = an_json_str(s, "command");
        json_t *args = json_object_get(s, "args"), *env = json_object_get(s, "env");
        if (!cmd || !*cmd || (args && !json_is_array(args)) || (env && !json_is_object(env))) {
            rc = an_comply_plan_fail(c, AN_ESCHEMA,
                                     "%s: agent_servers.%s needs a \"command\" string, "
                                     "\"args\" an "
                                     "array of strings and \"env\" an object of strings",
                                     file, name);
            break;
        }
        struct an_comply_plan_agent *a = agent_add(c, name, strlen(name));
        size_t na = json_array_size(args);
        a->argv = an_xcalloc(na + 2, sizeof *a->argv);
        a->argv[0] = an_xstrdup(cmd);
        struct an_buf shown = AN_BUF_INIT;
        an_buf_puts(&shown, cmd);
        for (size_t k = 0; k < na; k++) {
            const char *v = json_string_value(json_array_get(args, k));
            if (!v) {
                rc = an_comply_plan_fail(c, AN_ESCHEMA,
                                         "%s: agent_servers.%s.args[%zu] must be a string", file,
                                         name, k);
                break;
            }
            a->argv[k + 1] = an_xstrdup(v);
            an_buf_printf(&shown, " %s", v);
        }
        a->command = an_buf_detach(&shown, NULL);
        a->env = an_xcalloc(json_object_size(env) + 1, sizeof *a->env);
        size_t ne = 0;
        const char *k;
        json_t *v;
        json_object_foreach(env, k, v)
        {
            if (!json_is_string(v)) {
                rc = an_comply_plan_fail(
                    c, AN_ESCHEMA, "%s: agent_servers.%s.env.%s must be a string", file, name, k);
                break;
            }
            /* ${ENV.NAME} passes one of ananke's variables on by name (the
             * agent no longer gets ananke's environment); $${ is a literal ${ */
            char *val = NULL;
            struct an_err ie = AN_ERR_INIT;
            struct an_loc loc = {.file = file};
            struct an_vars none = AN_VARS_INIT;
            if (an_interp(json_string_value(v), &loc, &none, &val, &ie)) {
                rc = an_comply_plan_fail(c, AN_ESCHEMA, "%s: agent_servers.%s.env.%s: %s", file,
                                         name, k, ie.msg);
                free(val);
                break;
            }
            /* a secret, as an ACP target's env of `ananke run` is: named like
             * one, or built from ananke's environment */
            if (an_secret_name(k) || strstr(json_string_value(v), "${ENV.")) {
                char label[300];
                snprintf(label, sizeof label, "env %.100s of agent %.100s", k, name);
                an_secrets_add_template(c->red, label, json_string_value(v),
                                        an_comply_plan_short_secret, c);
            }
            struct an_buf e = AN_BUF_INIT;
            an_buf_printf(&e, "%s=%s", k, val);
            free(val);
            a->env[ne++] = an_buf_detach(&e, NULL);
        }
        if (!rc)
            rc = settings_confine(c, file, name, s, a);
    }
    json_decref(root);
    return rc;
}

int an_comply_plan_agents(struct an_comply_plan *p)
{
    int rc = 0;
    size_t npick = 0;
    while (p->pick[npick])
        npick++;
    for (char **s = p->agent_specs; *s && !rc; s++)
        rc = agent_from_shell(p, *s);
    if (!rc && p->settings)
        rc = agents_from_settings(p, p->settings, p->pick, npick);
    else if (!rc && npick)
        rc = an_comply_plan_fail(
            p, AN_EUSAGE, "--agent '%s' needs --settings (or write NAME=COMMAND)", p->pick[0]);
    if (rc)
        return rc;
    if (p->nagents == 0)
        return an_comply_plan_fail(p, AN_EUSAGE, "%s",
                                   p->proto->info.endpoint
                                       ? "no agent: give --agent NAME=URL"
                                       : "no agent: give --agent NAME=COMMAND or --settings "
                                         "FILE");
    return 0;
}
