/* `type: acp` (docs/acp.md): its interpolated config, session and row. */
#include <stdlib.h>

#include "load/config_int.h"
#include "load/target_acp.h"
#include "run/target_conf_int.h"
#include "tools/tools.h"

struct acp_conf {
    struct an_proc_conf proc;
    char **confine_paths; /* NULL-terminated, absolute */
    size_t nconfine;
    json_t *caps;
};

static void acp_conf_free(struct acp_conf *c)
{
    if (!c)
        return;
    an_proc_conf_release(&c->proc);
    for (size_t i = 0; i < c->nconfine; i++)
        free(c->confine_paths[i]);
    free(c->confine_paths);
    json_decref(c->caps);
    free(c);
}

static int acp_conf_build(struct acp_conf *c, const struct an_acp_target *t,
                          const struct an_vars *vars, struct an_err *err)
{
    int rc;
    if ((rc = an_proc_conf_build(&c->proc, &t->proc, vars, err)))
        return rc;
    c->confine_paths = an_xcalloc(t->nconfine_paths + 1, sizeof *c->confine_paths);
    for (size_t i = 0; i < t->nconfine_paths; i++) {
        const struct an_tmpl *p = &t->confine_paths[i];
        if ((rc = an_interp(p->src, &p->loc, vars, &c->confine_paths[c->nconfine], err)))
            return rc;
        if (c->confine_paths[c->nconfine++][0] != '/')
            return an_fail(err, AN_EUSAGE, &p->loc,
                           "confine_paths entry '%s' is not an absolute path",
                           c->confine_paths[c->nconfine - 1]);
    }
    if (t->client_capabilities.value &&
        (rc = an_interp_json(t->client_capabilities.value, &t->client_capabilities.loc, vars,
                             &c->caps, err)))
        return rc;
    return 0;
}

/* An ACP session starts empty: never drop what a case says silently, the
 * agent would answer a different conversation than the one written. */
static int acp_refuses(const struct an_test *test, struct an_err *err)
{
    const struct an_loc *loc = test->nturns ? &test->turns[0].loc : &test->loc;
    size_t nh = test->history ? json_array_size(test->history) : 0;
    if (nh)
        return an_fail(err, AN_EUSAGE, loc,
                       "this case carries %zu earlier message%s, and an ACP target cannot take "
                       "them: ACP sessions start empty (give only the last user message, or use "
                       "an agui or openai target)",
                       nh, nh == 1 ? "" : "s");
    return an_fail(err, AN_EUSAGE, loc,
                   "this case has 'options', and an ACP target has no place for them");
}

static int acp_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                    struct an_session **out, struct an_err *err)
{
    const struct an_test *test = x->test;
    if (test && (test->history || test->options))
        return acp_refuses(test, err);
    const struct an_acp_target *a = an_acp_target(t);
    struct acp_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = acp_conf_build(c, a, x->vars, err);
    if (rc)
        return rc;
    struct an_acp_target_opts o = {
        .argv = (const char *const *)c->proc.argv,
        .env = (const char *const *)c->proc.env,
        .sandbox = x->sandbox,
        .client_capabilities = c->caps,
        .policy = (int)a->permission_policy,
        .timeout_ms = an_target_turn_ms(t, test),
        .max_frame_bytes = (size_t)a->max_frame_bytes,
        .confine = (int)a->confine,
        .confine_paths = (const char *const *)c->confine_paths,
        .network = a->network,
        .inherit_env = a->proc.inherit_env,
        .max_turn_bytes = (size_t)a->max_turn_bytes,
        .max_stderr_bytes = (size_t)a->max_stderr_bytes,
        .max_read_bytes = (size_t)a->max_read_bytes,
        .max_terminals = (size_t)a->max_terminals,
        .max_terminal_output_bytes = (size_t)a->max_terminal_output_bytes,
    };
    /* the tool servers, so the agent reaches its tools through the proxy */
    json_t *mcp = an_tools_mcp_servers(x->vars); /* the test's own paths */
    json_t *mcp_stdio = an_tools_mcp_servers_stdio(x->vars);
    o.mcp_servers = mcp;
    o.mcp_servers_stdio = mcp_stdio;
    rc = an_acp_open(out, &o, err);
    json_decref(mcp);
    json_decref(mcp_stdio);
    return rc;
}

static void acp_free(void *c)
{
    acp_conf_free(c);
}

static const struct an_tmpl *acp_where(const struct an_target *t)
{
    return &an_acp_target(t)->proc.command;
}

static void acp_describe(const struct an_target *t, json_t *o, bool brief)
{
    an_target_describe_proc(&an_acp_target(t)->proc, o, brief);
}

static void acp_secrets(const struct an_target *t, an_target_secret_fn fn, void *ud)
{
    an_target_proc_secrets(&an_acp_target(t)->proc, fn, ud);
}

const struct an_target_type an_target_acp = {
    .name = "acp",
    .load = an_target_acp_load,
    .turns = AN_TURN_BIT(AN_TURN_USER),
    .open = acp_open,
    .conf_free = acp_free,
    .sandbox = true,
    .not_helper = "an ACP agent needs a sandbox per test",
    .where = acp_where,
    .describe = acp_describe,
    .secrets = acp_secrets,
};
