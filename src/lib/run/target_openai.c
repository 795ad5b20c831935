/* `type: openai` (docs/openai.md): its interpolated config, session and row. */
#include <stdlib.h>
#include <string.h>

#include "load/config_int.h"
#include "load/target_openai.h"
#include "run/target_conf_int.h"

struct openai_conf {
    struct an_openai_opts o;
    char *endpoint, *model, *api_key, *system;
    struct an_target_headers h;
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
    an_target_headers_free(&c->h);
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
    const struct an_openai_target *ot = an_openai_target(t);
    int rc;
    if ((rc = an_interp(ot->endpoint.src, &ot->endpoint.loc, vars, &c->endpoint, err)) ||
        (rc = an_interp(ot->model.src, &ot->model.loc, vars, &c->model, err)))
        return rc;
    if (ot->api_key.src &&
        (rc = an_interp(ot->api_key.src, &ot->api_key.loc, vars, &c->api_key, err)))
        return rc;
    if (ot->system.src && (rc = an_interp(ot->system.src, &ot->system.loc, vars, &c->system, err)))
        return rc;
    if ((rc = an_target_headers_build(&c->h, t, vars, err)))
        return rc;
    if (ot->params.value &&
        (rc = an_interp_json(ot->params.value, &ot->params.loc, vars, &c->params, err)))
        return rc;
    c->tools = an_xcalloc(ot->ntools + 1, sizeof *c->tools);
    c->tool_argv = an_xcalloc(ot->ntools + 1, sizeof *c->tool_argv);
    for (size_t i = 0; i < ot->ntools; i++) {
        const struct an_tool_def *d = &ot->tools[i];
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
    c->o.no_stream = ot->no_stream;
    c->o.max_rounds = ot->max_rounds;
    c->o.max_turn_bytes = (size_t)ot->max_turn_bytes;
    c->o.max_event_bytes = (size_t)ot->max_event_bytes;
    c->o.max_tool_calls = (size_t)ot->max_tool_calls;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    return 0;
}

static int openai_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                       struct an_session **out, struct an_err *err)
{
    struct openai_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = openai_conf_build(c, t, x->test, x->vars, x->project_dir, err);
    if (rc)
        return rc;
    an_target_over_timeout(x->over, &c->o.timeout_ms);
    if (x->over && x->over->params) {
        if (!c->params)
            c->params = json_object();
        json_object_update(c->params, (json_t *)x->over->params);
        c->o.params = c->params;
    }
    return an_openai_open(out, &c->o, err);
}

static void openai_free(void *c)
{
    openai_conf_free(c);
}

static const struct an_tmpl *openai_where(const struct an_target *t)
{
    const struct an_openai_target *ot = an_openai_target(t);
    return &ot->endpoint;
}

static const char *openai_model(const struct an_target *t)
{
    const struct an_openai_target *ot = an_openai_target(t);
    return ot->model.src;
}

static int openai_set(struct an_ld *ld, struct an_target *t, const char *key, const char *model,
                      const struct an_loc *at)
{
    if (strcmp(key, "model"))
        return AN_ENOTFOUND;
    /* a copy: the agent -n picked keeps its own model */
    struct an_openai_target *o = an_arena_alloc(ld->a, sizeof *o);
    *o = *an_openai_target(t);
    o->model.src = an_arena_strdup(ld->a, model);
    o->model.loc = *at;
    t->data = o;
    return 0;
}

static void openai_describe(const struct an_target *t, json_t *o, bool brief)
{
    const struct an_openai_target *ot = an_openai_target(t);
    if (ot->endpoint.src)
        an_target_put(o, "endpoint", ot->endpoint.src, brief);
    if (ot->model.src)
        an_target_put(o, "model", ot->model.src, brief);
    if (!brief && ot->api_key.src)
        an_target_put(o, "api_key", ot->api_key.src, brief);
}

static void openai_secrets(const struct an_target *t, an_target_secret_fn fn, void *ud)
{
    const struct an_openai_target *ot = an_openai_target(t);
    if (ot->api_key.src)
        fn(ud, "api_key", NULL, &ot->api_key);
}

const struct an_target_type an_target_openai = {
    .name = "openai",
    .load = an_target_openai_load,
    .turns = AN_TURN_BIT(AN_TURN_USER),
    .open = openai_open,
    .conf_free = openai_free,
    .bare_model = true,
    .where = openai_where,
    .model = openai_model,
    .set = openai_set,
    .describe = openai_describe,
    .secrets = openai_secrets,
};
