/* `type: mcp` (docs/mcp.md): its interpolated config, session and row. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "load/config_int.h"
#include "load/target_mcp.h"
#include "proto/mcp.h"
#include "run/target_conf_int.h"

struct mcp_conf {
    struct an_mcp_opts o;
    struct an_proc_conf *stdio; /* command, args, env; NULL over HTTP */
    char *endpoint;
    struct an_target_headers h;
    char **roots; /* NULL-terminated file:// URIs */
    size_t nroots;
    bool *allow;
};

static void mcp_conf_free(struct mcp_conf *c)
{
    if (!c)
        return;
    if (c->stdio)
        an_proc_conf_release(c->stdio);
    free(c->stdio);
    free(c->endpoint);
    an_target_headers_free(&c->h);
    for (size_t i = 0; i < c->nroots; i++)
        free(c->roots[i]);
    free(c->roots);
    free(c->allow);
    free(c);
}

/* A root as a file:// URI: an absolute path gets the scheme, a URI stays. */
static char *root_uri(const char *r)
{
    if (r[0] != '/')
        return an_xstrdup(r);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "file://%s", r);
    return an_buf_detach(&b, NULL);
}

static int mcp_conf_build(struct mcp_conf *c, const struct an_target *t, const struct an_test *test,
                          const struct an_vars *vars, const char *sandbox, const char *project_dir,
                          struct an_err *err)
{
    const struct an_mcp_target *m = an_mcp_target(t);
    int rc;
    if (test && (test->history || test->options))
        return an_fail(err, AN_EUSAGE, test->nturns ? &test->turns[0].loc : &test->loc,
                       "this case carries earlier messages or 'options', and an mcp target has "
                       "no place for them");
    if (m->http) {
        if ((rc = an_interp(m->endpoint.src, &m->endpoint.loc, vars, &c->endpoint, err)) ||
            (rc = an_target_headers_build(&c->h, t, vars, err)))
            return rc;
    } else {
        c->stdio = an_xcalloc(1, sizeof *c->stdio);
        if ((rc = an_proc_conf_build(c->stdio, &m->proc, vars, err)))
            return rc;
    }
    c->roots = an_xcalloc(m->nroots + 2, sizeof *c->roots);
    if (m->roots_set) {
        for (size_t i = 0; i < m->nroots; i++) {
            char *v = NULL;
            if ((rc = an_interp(m->roots[i].src, &m->roots[i].loc, vars, &v, err)))
                return rc;
            c->roots[c->nroots++] = root_uri(v);
            free(v);
        }
    } else if (sandbox) {
        c->roots[c->nroots++] = root_uri(sandbox);
    }
    size_t nturns = test ? test->nturns : 0;
    c->allow = an_xcalloc(nturns + 1, sizeof *c->allow);
    for (size_t i = 0; i < nturns; i++)
        c->allow[i] = test->turns[i].mcp && test->turns[i].mcp->allow_error;
    c->o.http = m->http;
    c->o.argv = c->stdio ? (const char *const *)c->stdio->argv : NULL;
    c->o.env = c->stdio ? (const char *const *)c->stdio->env : NULL;
    c->o.clean_env = c->stdio && !m->proc.inherit_env;
    c->o.home = sandbox;
    c->o.cwd = project_dir;
    c->o.endpoint = c->endpoint;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.version = m->version;
    c->o.roots = (const char *const *)c->roots;
    c->o.no_roots = m->no_roots;
    c->o.allow_error = c->allow;
    c->o.nallow = nturns;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.max_frame_bytes = (size_t)m->max_frame_bytes;
    c->o.max_body_bytes = (size_t)m->max_body_bytes;
    c->o.max_stderr_bytes = (size_t)m->max_stderr_bytes;
    c->o.max_list_pages = (size_t)m->max_list_pages;
    return 0;
}

static int mcp_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                    struct an_session **out, struct an_err *err)
{
    struct mcp_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = mcp_conf_build(c, t, x->test, x->vars, x->sandbox, x->project_dir, err);
    if (rc)
        return rc;
    return an_mcp_open(out, &c->o, err);
}

static void mcp_free(void *c)
{
    mcp_conf_free(c);
}

static int mcp_check_test(const struct an_target *t, const struct an_test *test, struct an_err *err)
{
    (void)t;
    if (test->dyn)
        return an_fail(err, AN_ESCHEMA, &test->dyn->loc,
                       "a simulated user cannot talk to an mcp target: an MCP server takes "
                       "requests, not chat messages (write mcp:call, mcp:list, mcp:read or "
                       "mcp:prompt turns)");
    return 0;
}

/* a child process is named by its command, a server over HTTP by its URL */
static const struct an_tmpl *mcp_where(const struct an_target *t)
{
    const struct an_mcp_target *m = an_mcp_target(t);
    return m->http ? &m->endpoint : &m->proc.command;
}

static void mcp_describe(const struct an_target *t, json_t *o, bool brief)
{
    const struct an_mcp_target *m = an_mcp_target(t);
    if (m->endpoint.src)
        an_target_put(o, "endpoint", m->endpoint.src, brief);
    an_target_describe_proc(&m->proc, o, brief);
}

static void mcp_secrets(const struct an_target *t, an_target_secret_fn fn, void *ud)
{
    an_target_proc_secrets(&an_mcp_target(t)->proc, fn, ud);
}

const struct an_target_type an_target_mcp = {
    .name = "mcp",
    .load = an_target_mcp_load,
    .turns = AN_TURN_BIT(AN_TURN_MCP_CALL) | AN_TURN_BIT(AN_TURN_MCP_LIST) |
             AN_TURN_BIT(AN_TURN_MCP_READ) | AN_TURN_BIT(AN_TURN_MCP_PROMPT),
    .user_refused = "a user turn cannot run on an mcp target: an MCP server takes requests, not "
                    "chat messages (write type: mcp:call, mcp:list, mcp:read or mcp:prompt)",
    .check_test = mcp_check_test,
    .open = mcp_open,
    .conf_free = mcp_free,
    .sandbox = true,
    .not_helper = "an MCP server serves tools, it does not chat",
    .where = mcp_where,
    .describe = mcp_describe,
    .secrets = mcp_secrets,
};
