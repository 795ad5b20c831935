/* Opening a session on a configured target through its row, and what the
 * built-in rows share (target_conf.h, target_conf_int.h). */
#include "run/target_conf_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"

/* ---- a child process's command line and environment (ACP, MCP stdio) ---- */

void an_proc_conf_release(struct an_proc_conf *c)
{
    for (size_t i = 0; i < c->argc; i++)
        free(c->argv[i]);
    free(c->argv);
    for (size_t i = 0; i < c->nenv; i++)
        free(c->env[i]);
    free(c->env);
}

int an_proc_conf_build(struct an_proc_conf *c, const struct an_target_proc *t,
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
    return 0;
}

/* ---- interpolated headers (AG-UI, OpenAI, HTTP, MCP, A2A) ---- */

void an_target_headers_free(struct an_target_headers *h)
{
    for (size_t i = 0; i < h->n; i++)
        free((char *)h->kv[i].value);
    free(h->kv);
}

int an_target_headers_build(struct an_target_headers *h, const struct an_target *t,
                            const struct an_vars *vars, struct an_err *err)
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

/* ---- small pieces of the rows ---- */

int64_t an_target_turn_ms(const struct an_target *t, const struct an_test *test)
{
    return test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
}

void an_target_over_timeout(const struct an_target_over *over, int64_t *timeout_ms)
{
    if (over && over->timeout_ms > 0 && over->timeout_ms < *timeout_ms)
        *timeout_ms = over->timeout_ms;
}

void an_target_put(json_t *o, const char *key, const char *s, bool brief)
{
    if (brief) {
        json_object_set_new(o, key, json_string(s));
        return;
    }
    json_t *v = an_json_lossy(s, strlen(s));
    if (!v || json_object_set_new(o, key, v))
        an_oom();
}

void an_target_describe_proc(const struct an_target_proc *t, json_t *o, bool brief)
{
    if (t->command.src) {
        an_target_put(o, "command", t->command.src, brief);
        if (!brief) {
            json_t *args = json_array();
            for (size_t i = 0; i < t->nargs; i++)
                json_array_append_new(args, an_json_lossy(t->args[i].src, strlen(t->args[i].src)));
            json_object_set_new(o, "args", args);
        }
    }
    if (!brief && t->nenv) {
        json_t *env = json_object();
        for (size_t i = 0; i < t->nenv; i++)
            an_target_put(env, t->env[i].name, t->env[i].value.src, false);
        json_object_set_new(o, "env", env);
    }
}

void an_target_proc_secrets(const struct an_target_proc *t, an_target_secret_fn fn, void *ud)
{
    for (size_t i = 0; i < t->nenv; i++)
        fn(ud, "env", t->env[i].name, &t->env[i].value);
}

/* ---- opening ---- */

struct an_target_conf {
    const struct an_target_type *type;
    void *c;
};

void an_target_conf_free(struct an_target_conf *c)
{
    if (!c)
        return;
    if (c->type->conf_free)
        c->type->conf_free(c->c);
    free(c);
}

int an_target_open(const struct an_target *t, const struct an_test *test,
                   const struct an_vars *vars, const char *sandbox, const char *project_dir,
                   const struct an_target_over *over, struct an_target_conf **conf,
                   struct an_session **out, struct an_err *err)
{
    *out = NULL;
    *conf = an_xcalloc(1, sizeof **conf);
    (*conf)->type = t->type;
    struct an_target_open_ctx ctx = {test, vars, sandbox, project_dir, over};
    return t->type->open(t, &ctx, &(*conf)->c, out, err);
}
