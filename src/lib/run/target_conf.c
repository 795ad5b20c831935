/* Interpolating a target's config and opening its session (target_conf.h). */
#include "run/target_conf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "proto/a2a.h"
#include "proto/mcp.h"
#include "proto/uuid.h"

/* ---- the interpolated target config: ACP ---- */

struct acp_conf {
    char **argv; /* NULL-terminated */
    size_t argc;
    char **env;  /* NULL-terminated NAME=VALUE */
    size_t nenv;
    char **confine_paths; /* NULL-terminated, absolute */
    size_t nconfine;
    json_t *caps;
};

static void acp_conf_free(struct acp_conf *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->argc; i++)
        free(c->argv[i]);
    free(c->argv);
    for (size_t i = 0; i < c->nenv; i++)
        free(c->env[i]);
    free(c->env);
    for (size_t i = 0; i < c->nconfine; i++)
        free(c->confine_paths[i]);
    free(c->confine_paths);
    json_decref(c->caps);
    free(c);
}

static int acp_conf_build(struct acp_conf *c, const struct an_target *t,
                          const struct an_vars *vars, struct an_err *err)
{
    int rc;
    c->argv = an_xcalloc(t->nargs + 2, sizeof *c->argv);
    if ((rc = an_interp(t->command.src, &t->command.loc, vars, &c->argv[0], err)))
        return rc;
    c->argc = 1;
    for (size_t i = 0; i < t->nargs; i++, c->argc++)
        if ((rc = an_interp(t->args[i].src, &t->args[i].loc, vars, &c->argv[c->argc], err)))
            return rc;
    c->env = an_xcalloc(t->nenv + 1, sizeof *c->env);
    for (size_t i = 0; i < t->nenv; i++) {
        char *v = NULL;
        if ((rc = an_interp(t->env[i].value.src, &t->env[i].value.loc, vars, &v, err)))
            return rc;
        size_t n = strlen(t->env[i].name) + strlen(v) + 2;
        c->env[c->nenv] = an_xmalloc(n);
        snprintf(c->env[c->nenv], n, "%s=%s", t->env[i].name, v);
        c->nenv++;
        free(v);
    }
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

/* ---- interpolated headers (AG-UI, OpenAI, HTTP) ---- */

struct headers {
    struct an_kv *kv; /* names borrowed from the target, values owned */
    size_t n;
};

static void headers_free(struct headers *h)
{
    for (size_t i = 0; i < h->n; i++)
        free((char *)h->kv[i].value);
    free(h->kv);
}

static int headers_build(struct headers *h, const struct an_target *t, const struct an_vars *vars,
                         struct an_err *err)
{
    h->kv = an_xcalloc(t->nheaders + 1, sizeof *h->kv);
    for (size_t i = 0; i < t->nheaders; i++) {
        char *v = NULL;
        int rc = an_interp(t->headers[i].value.src, &t->headers[i].value.loc, vars, &v, err);
        if (rc)
            return rc;
        h->kv[i].name = t->headers[i].name;
        h->kv[i].value = v;
        h->n = i + 1;
    }
    return 0;
}

/* ---- the interpolated target config: AG-UI ---- */

struct agui_conf {
    struct an_agui_opts o;
    char *endpoint, *agent_id, *thread_id, *connect_endpoint;
    struct headers h;
    json_t *fwd, *state;
};

static void agui_conf_free(struct agui_conf *c)
{
    if (!c)
        return;
    free(c->endpoint);
    free(c->agent_id);
    free(c->thread_id);
    free(c->connect_endpoint);
    headers_free(&c->h);
    json_decref(c->fwd);
    json_decref(c->state);
    free(c);
}

/* s percent-encoded as one URL path segment (RFC 3986 unreserved kept). */
static char *path_segment(const char *s)
{
    struct an_buf b = AN_BUF_INIT;
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if ((*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
            *p == '-' || *p == '.' || *p == '_' || *p == '~')
            an_buf_putc(&b, (char)*p);
        else
            an_buf_printf(&b, "%%%02X", *p);
    }
    return an_buf_detach(&b, NULL);
}

/* `connect_endpoint`: the test's variables and ${agentId}, ${threadId}
 * (each percent-encoded, a path segment). The thread id is made here when
 * the target gives none, so the URL and the requests name the same one. */
static int connect_url(struct agui_conf *c, const struct an_target *t, const struct an_vars *vars,
                       struct an_err *err)
{
    if (!c->thread_id) {
        char id[AN_UUID_STR];
        an_uuid4(id);
        c->thread_id = an_xstrdup(id);
    }
    struct an_vars v = AN_VARS_INIT;
    for (size_t i = 0; vars && i < vars->n; i++)
        an_vars_set(&v, vars->names[i], vars->values[i]);
    char *a = path_segment(c->agent_id), *th = path_segment(c->thread_id);
    an_vars_set(&v, "agentId", a);
    an_vars_set(&v, "threadId", th);
    free(a);
    free(th);
    int rc = an_interp(t->connect_endpoint.src, &t->connect_endpoint.loc, &v,
                       &c->connect_endpoint, err);
    an_vars_release(&v);
    return rc;
}

static int agui_conf_build(struct agui_conf *c, const struct an_target *t, const struct an_test *test,
                      const struct an_vars *vars, struct an_err *err)
{
    int rc;
    if ((rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)) ||
        (rc = an_interp(t->agent_id.src, &t->agent_id.loc, vars, &c->agent_id, err)))
        return rc;
    if (t->thread_id.src &&
        (rc = an_interp(t->thread_id.src, &t->thread_id.loc, vars, &c->thread_id, err)))
        return rc;
    if ((rc = headers_build(&c->h, t, vars, err)))
        return rc;
    if (t->connect_endpoint.src && (rc = connect_url(c, t, vars, err)))
        return rc;
    if (t->forwarded_props.value &&
        (rc = an_interp_json(t->forwarded_props.value, &t->forwarded_props.loc, vars, &c->fwd,
                             err)))
        return rc;
    if (t->state.value &&
        (rc = an_interp_json(t->state.value, &t->state.loc, vars, &c->state, err)))
        return rc;
    if (test && test->options) {
        /* a JSONL case's `options` (seed 002's context options) go to the
         * agent over forwardedProps, over the target's keys */
        if (!c->fwd)
            c->fwd = json_object();
        json_object_update(c->fwd, test->options);
    }
    c->o.endpoint = c->endpoint;
    c->o.connect_endpoint = c->connect_endpoint;
    c->o.agent_id = c->agent_id;
    c->o.thread_id = c->thread_id;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.forwarded_props = c->fwd;
    c->o.state = c->state;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.history = test ? test->history : NULL;
    c->o.protocol = (int)t->protocol;
    c->o.max_event_bytes = (size_t)t->max_event_bytes;
    c->o.max_turn_bytes = (size_t)t->max_turn_bytes;
    c->o.max_tool_calls = (size_t)t->max_tool_calls;
    c->o.max_state_bytes = (uint64_t)t->max_state_bytes;
    return 0;
}


/* ---- the interpolated target config: OpenAI ---- */

struct openai_conf {
    struct an_openai_opts o;
    char *endpoint, *model, *api_key, *system;
    struct headers h;
    json_t *params;
    struct an_openai_tool *tools;
    char ***tool_argv; /* per tool: NULL-terminated, or NULL */
};

static void openai_conf_free(struct openai_conf *c)
{
    if (!c)
        return;
    free(c->endpoint);
    free(c->model);
    free(c->api_key);
    free(c->system);
    headers_free(&c->h);
    json_decref(c->params);
    for (size_t i = 0; i < c->o.ntools; i++) {
        for (char **a = c->tool_argv[i]; a && *a; a++)
            free(*a);
        free(c->tool_argv[i]);
    }
    free(c->tool_argv);
    free(c->tools);
    free(c);
}

static int openai_conf_build(struct openai_conf *c, const struct an_target *t,
                             const struct an_test *test, const struct an_vars *vars,
                             const char *project_dir, struct an_err *err)
{
    int rc;
    if ((rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)) ||
        (rc = an_interp(t->model.src, &t->model.loc, vars, &c->model, err)))
        return rc;
    if (t->api_key.src && (rc = an_interp(t->api_key.src, &t->api_key.loc, vars, &c->api_key, err)))
        return rc;
    if (t->system.src && (rc = an_interp(t->system.src, &t->system.loc, vars, &c->system, err)))
        return rc;
    if ((rc = headers_build(&c->h, t, vars, err)))
        return rc;
    if (t->params.value &&
        (rc = an_interp_json(t->params.value, &t->params.loc, vars, &c->params, err)))
        return rc;
    c->tools = an_xcalloc(t->ntools + 1, sizeof *c->tools);
    c->tool_argv = an_xcalloc(t->ntools + 1, sizeof *c->tool_argv);
    for (size_t i = 0; i < t->ntools; i++) {
        const struct an_tool_def *d = &t->tools[i];
        struct an_openai_tool *o = &c->tools[i];
        c->o.ntools = i + 1;
        o->name = d->name;
        o->description = d->description;
        o->parameters = d->parameters;
        o->result = d->result;
        o->cwd = project_dir;
        o->timeout_ms = d->timeout_ms;
        if (d->argc) {
            c->tool_argv[i] = an_xcalloc(d->argc + 1, sizeof **c->tool_argv);
            for (size_t k = 0; k < d->argc; k++)
                if ((rc = an_interp(d->argv[k].src, &d->argv[k].loc, vars, &c->tool_argv[i][k],
                                    err)))
                    return rc;
            o->argv = (const char *const *)c->tool_argv[i];
        }
    }
    if (test && test->options) {
        /* seed 002's context options: `connector` names the model; nothing
         * else has a place in a chat completion, and is refused rather than
         * dropped */
        const char *k;
        json_t *v;
        json_object_foreach(test->options, k, v)
        {
            if (!strcmp(k, "connector") && json_is_string(v)) {
                free(c->model);
                c->model = an_xstrdup(json_string_value(v));
                continue;
            }
            return an_fail(err, AN_EUSAGE, &test->loc,
                           "this case's option '%s' has no place in an openai target's request "
                           "(only 'connector', the model, is taken)",
                           k);
        }
    }
    c->o.base_url = c->endpoint;
    c->o.model = c->model;
    c->o.api_key = c->api_key;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.system = c->system;
    c->o.params = c->params;
    c->o.tools = c->tools;
    c->o.history = test ? test->history : NULL;
    c->o.no_stream = t->no_stream;
    c->o.max_rounds = t->max_rounds;
    c->o.max_turn_bytes = (size_t)t->max_turn_bytes;
    c->o.max_event_bytes = (size_t)t->max_event_bytes;
    c->o.max_tool_calls = (size_t)t->max_tool_calls;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    return 0;
}

/* ---- the interpolated target config: HTTP (seed 004's run-case) ---- */

struct http_conf {
    struct an_http_case_opts o;
    char *endpoint, *version;
    struct headers h;
};

static void http_conf_free(struct http_conf *c)
{
    if (!c)
        return;
    free(c->endpoint);
    free(c->version);
    headers_free(&c->h);
    free(c);
}

static int http_conf_build(struct http_conf *c, const struct an_target *t,
                           const struct an_test *test, const struct an_vars *vars,
                           struct an_err *err)
{
    int rc;
    if ((rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)))
        return rc;
    if (t->case_version.src &&
        (rc = an_interp(t->case_version.src, &t->case_version.loc, vars, &c->version, err)))
        return rc;
    if ((rc = headers_build(&c->h, t, vars, err)))
        return rc;
    c->o.base_url = c->endpoint;
    c->o.version = c->version;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    /* a case is named by its id (JSONL, cases.json), a YAML test by its name;
     * a helper agent asked without a test by "agent" */
    c->o.case_id = test ? (test->id ? test->id : test->name) : "agent";
    c->o.context = test && test->options ? json_object_get(test->options, "context") : NULL;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.retries = t->retries;
    c->o.max_body_bytes = (size_t)t->max_body_bytes;
    c->o.body_snippet_bytes = (size_t)t->body_snippet_bytes;
    return 0;
}

/* ---- the interpolated target config: MCP ---- */

struct mcp_conf {
    struct an_mcp_opts o;
    struct acp_conf *stdio; /* command, args, env: built as an ACP agent's */
    char *endpoint;
    struct headers h;
    char **roots; /* NULL-terminated file:// URIs */
    size_t nroots;
    bool *allow;
};

static void mcp_conf_free(struct mcp_conf *c)
{
    if (!c)
        return;
    acp_conf_free(c->stdio);
    free(c->endpoint);
    headers_free(&c->h);
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

static int mcp_conf_build(struct mcp_conf *c, const struct an_target *t,
                          const struct an_test *test, const struct an_vars *vars,
                          const char *sandbox, const char *project_dir, struct an_err *err)
{
    int rc;
    if (test && (test->history || test->options))
        return an_fail(err, AN_EUSAGE, test->nturns ? &test->turns[0].loc : &test->loc,
                       "this case carries earlier messages or 'options', and an mcp target has "
                       "no place for them");
    if (t->mcp_http) {
        if ((rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)) ||
            (rc = headers_build(&c->h, t, vars, err)))
            return rc;
    } else {
        c->stdio = an_xcalloc(1, sizeof *c->stdio);
        if ((rc = acp_conf_build(c->stdio, t, vars, err)))
            return rc;
    }
    c->roots = an_xcalloc(t->nmcp_roots + 2, sizeof *c->roots);
    if (t->mcp_roots_set) {
        for (size_t i = 0; i < t->nmcp_roots; i++) {
            char *v = NULL;
            if ((rc = an_interp(t->mcp_roots[i].src, &t->mcp_roots[i].loc, vars, &v, err)))
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
    c->o.http = t->mcp_http;
    c->o.argv = c->stdio ? (const char *const *)c->stdio->argv : NULL;
    c->o.env = c->stdio ? (const char *const *)c->stdio->env : NULL;
    c->o.clean_env = c->stdio && !t->inherit_env;
    c->o.home = sandbox;
    c->o.cwd = project_dir;
    c->o.endpoint = c->endpoint;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.version = t->mcp_version;
    c->o.roots = (const char *const *)c->roots;
    c->o.no_roots = t->mcp_no_roots;
    c->o.allow_error = c->allow;
    c->o.nallow = nturns;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.max_frame_bytes = (size_t)t->max_frame_bytes;
    c->o.max_body_bytes = (size_t)t->max_body_bytes;
    c->o.max_stderr_bytes = (size_t)t->max_stderr_bytes;
    c->o.max_list_pages = (size_t)t->max_list_pages;
    return 0;
}

/* ---- the interpolated target config: A2A ---- */

struct a2a_conf {
    struct an_a2a_opts o;
    char *card_url, *endpoint, *api_key, *bearer;
    json_t *card;
    struct headers h;
};

static void a2a_conf_free(struct a2a_conf *c)
{
    if (!c)
        return;
    free(c->card_url);
    free(c->endpoint);
    free(c->api_key);
    free(c->bearer);
    json_decref(c->card);
    headers_free(&c->h);
    free(c);
}

static int a2a_conf_build(struct a2a_conf *c, const struct an_target *t,
                          const struct an_test *test, const struct an_vars *vars,
                          struct an_err *err)
{
    int rc;
    if (test && (test->history || test->options))
        return an_fail(err, AN_EUSAGE, test->nturns ? &test->turns[0].loc : &test->loc,
                       "this case carries earlier messages or 'options', and an a2a target has "
                       "no place for them (an A2A conversation starts with its first message)");
    if (t->card_url.src &&
        (rc = an_interp(t->card_url.src, &t->card_url.loc, vars, &c->card_url, err)))
        return rc;
    if (t->endpoint.src &&
        (rc = an_interp(t->endpoint.src, &t->endpoint.loc, vars, &c->endpoint, err)))
        return rc;
    if (t->api_key.src && (rc = an_interp(t->api_key.src, &t->api_key.loc, vars, &c->api_key, err)))
        return rc;
    if (t->bearer.src && (rc = an_interp(t->bearer.src, &t->bearer.loc, vars, &c->bearer, err)))
        return rc;
    if (t->agent_card.value &&
        (rc = an_interp_json(t->agent_card.value, &t->agent_card.loc, vars, &c->card, err)))
        return rc;
    if ((rc = headers_build(&c->h, t, vars, err)))
        return rc;
    c->o.card_url = c->card_url;
    c->o.card = c->card;
    c->o.endpoint = c->endpoint;
    c->o.version = t->a2a_version;
    c->o.blocking = !t->a2a_nonblocking;
    c->o.stream = t->a2a_stream;
    c->o.trust_card_url = t->a2a_trust_card_url;
    c->o.modes = t->output_modes;
    c->o.nmodes = t->noutput_modes;
    c->o.api_key = c->api_key;
    c->o.bearer = c->bearer;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.max_event_bytes = (size_t)t->max_event_bytes;
    c->o.max_turn_bytes = (size_t)t->max_turn_bytes;
    return 0;
}

/* ---- opening ---- */

struct an_target_conf {
    enum an_target_type type;
    void *c;
};

void an_target_conf_free(struct an_target_conf *c)
{
    if (!c)
        return;
    switch (c->type) {
    case AN_TARGET_AGUI:
        agui_conf_free(c->c);
        break;
    case AN_TARGET_ACP:
        acp_conf_free(c->c);
        break;
    case AN_TARGET_OPENAI:
        openai_conf_free(c->c);
        break;
    case AN_TARGET_HTTP:
        http_conf_free(c->c);
        break;
    case AN_TARGET_MCP:
        mcp_conf_free(c->c);
        break;
    case AN_TARGET_A2A:
        a2a_conf_free(c->c);
        break;
    }
    free(c);
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

int an_target_open(const struct an_target *t, const struct an_test *test,
                   const struct an_vars *vars, const char *sandbox, const char *project_dir,
                   const struct an_target_over *over, struct an_target_conf **conf,
                   struct an_session **out, struct an_err *err)
{
    int rc;
    *out = NULL;
    *conf = an_xcalloc(1, sizeof **conf);
    (*conf)->type = t->type;
    switch (t->type) {
    case AN_TARGET_ACP: {
        if (test && (test->history || test->options))
            return acp_refuses(test, err);
        struct acp_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = acp_conf_build(c, t, vars, err)))
            return rc;
        struct an_acp_target_opts o = {
            .argv = (const char *const *)c->argv,
            .env = (const char *const *)c->env,
            .sandbox = sandbox,
            .client_capabilities = c->caps,
            .policy = (int)t->permission_policy,
            .timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms,
            .max_frame_bytes = (size_t)t->max_frame_bytes,
            .confine = (int)t->confine,
            .confine_paths = (const char *const *)c->confine_paths,
            .network = t->network,
            .inherit_env = t->inherit_env,
            .max_turn_bytes = (size_t)t->max_turn_bytes,
            .max_stderr_bytes = (size_t)t->max_stderr_bytes,
            .max_read_bytes = (size_t)t->max_read_bytes,
            .max_terminals = (size_t)t->max_terminals,
            .max_terminal_output_bytes = (size_t)t->max_terminal_output_bytes,
        };
        return an_acp_open(out, &o, err);
    }
    case AN_TARGET_AGUI: {
        struct agui_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = agui_conf_build(c, t, test, vars, err)))
            return rc;
        if (over && over->timeout_ms > 0 && over->timeout_ms < c->o.timeout_ms)
            c->o.timeout_ms = over->timeout_ms;
        return an_agui_open(out, &c->o, err);
    }
    case AN_TARGET_OPENAI: {
        struct openai_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = openai_conf_build(c, t, test, vars, project_dir, err)))
            return rc;
        if (over && over->timeout_ms > 0 && over->timeout_ms < c->o.timeout_ms)
            c->o.timeout_ms = over->timeout_ms;
        if (over && over->params) {
            if (!c->params)
                c->params = json_object();
            json_object_update(c->params, (json_t *)over->params);
            c->o.params = c->params;
        }
        return an_openai_open(out, &c->o, err);
    }
    case AN_TARGET_HTTP: {
        struct http_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = http_conf_build(c, t, test, vars, err)))
            return rc;
        if (over && over->timeout_ms > 0 && over->timeout_ms < c->o.timeout_ms)
            c->o.timeout_ms = over->timeout_ms;
        return an_http_case_open(out, &c->o, err);
    }
    case AN_TARGET_MCP: {
        struct mcp_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = mcp_conf_build(c, t, test, vars, sandbox, project_dir, err)))
            return rc;
        return an_mcp_open(out, &c->o, err);
    }
    case AN_TARGET_A2A: {
        struct a2a_conf *c = an_xcalloc(1, sizeof *c);
        (*conf)->c = c;
        if ((rc = a2a_conf_build(c, t, test, vars, err)))
            return rc;
        if (over && over->timeout_ms > 0 && over->timeout_ms < c->o.timeout_ms)
            c->o.timeout_ms = over->timeout_ms;
        return an_a2a_open(out, &c->o, err);
    }
    }
    return an_fail(err, AN_EINTERNAL, &t->loc, "unknown target type");
}
