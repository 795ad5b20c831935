/* `type: agui` (docs/agui.md): its interpolated config, session and row. */
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "load/config_int.h"
#include "load/target_agui.h"
#include "proto/uuid.h"
#include "run/target_conf_int.h"

struct agui_conf {
    struct an_agui_opts o;
    char *endpoint, *agent_id, *thread_id, *connect_endpoint;
    struct an_target_headers h;
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
    an_target_headers_free(&c->h);
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
    const struct an_tmpl *url = &an_agui_target(t)->connect_endpoint;
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
    int rc = an_interp(url->src, &url->loc, &v, &c->connect_endpoint, err);
    an_vars_release(&v);
    return rc;
}

static int agui_conf_build(struct agui_conf *c, const struct an_target *t,
                           const struct an_test *test, const struct an_vars *vars,
                           struct an_err *err)
{
    const struct an_agui_target *a = an_agui_target(t);
    int rc;
    if ((rc = an_interp(a->endpoint.src, &a->endpoint.loc, vars, &c->endpoint, err)) ||
        (rc = an_interp(a->agent_id.src, &a->agent_id.loc, vars, &c->agent_id, err)))
        return rc;
    if (a->thread_id.src &&
        (rc = an_interp(a->thread_id.src, &a->thread_id.loc, vars, &c->thread_id, err)))
        return rc;
    if ((rc = an_target_headers_build(&c->h, t, vars, err)))
        return rc;
    if (a->connect_endpoint.src && (rc = connect_url(c, t, vars, err)))
        return rc;
    if (a->forwarded_props.value &&
        (rc =
             an_interp_json(a->forwarded_props.value, &a->forwarded_props.loc, vars, &c->fwd, err)))
        return rc;
    if (a->state.value &&
        (rc = an_interp_json(a->state.value, &a->state.loc, vars, &c->state, err)))
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
    c->o.protocol = (int)a->protocol;
    c->o.max_event_bytes = (size_t)a->max_event_bytes;
    c->o.max_turn_bytes = (size_t)a->max_turn_bytes;
    c->o.max_tool_calls = (size_t)a->max_tool_calls;
    c->o.max_header_bytes = (size_t)a->max_header_bytes;
    c->o.max_state_bytes = (uint64_t)a->max_state_bytes;
    return 0;
}

static int agui_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                     struct an_session **out, struct an_err *err)
{
    struct agui_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = agui_conf_build(c, t, x->test, x->vars, err);
    if (rc)
        return rc;
    an_target_over_timeout(x->over, &c->o.timeout_ms);
    return an_agui_open(out, &c->o, err);
}

static void agui_free(void *c)
{
    agui_conf_free(c);
}

static const struct an_tmpl *agui_where(const struct an_target *t)
{
    const struct an_agui_target *a = an_agui_target(t);
    return &a->endpoint;
}

static int agui_set(struct an_ld *ld, struct an_target *t, const char *key, const char *value,
                    const struct an_loc *at)
{
    static const char *const modes[] = {"strict", "warn", "off", NULL}; /* an_protocol_mode */
    if (strcmp(key, "protocol"))
        return AN_ENOTFOUND;
    size_t k = 0;
    while (modes[k] && strcmp(modes[k], value))
        k++;
    if (!modes[k])
        return an_target_fail(ld, at, "unknown protocol mode '%s' (one of: strict, warn, off)",
                              value);
    /* a copy: the agent -n picked keeps its own mode */
    struct an_agui_target *a = an_target_alloc(ld, sizeof *a);
    *a = *an_agui_target(t);
    a->protocol = (enum an_protocol_mode)k;
    t->data = a;
    return 0;
}

static void agui_describe(const struct an_target *t, json_t *o, bool brief)
{
    const struct an_agui_target *a = an_agui_target(t);
    if (a->endpoint.src)
        an_target_put(o, "endpoint", a->endpoint.src, brief);
    if (a->agent_id.src)
        an_target_put(o, "agentId", a->agent_id.src, brief);
    if (!brief && a->thread_id.src)
        an_target_put(o, "threadId", a->thread_id.src, brief);
}

const struct an_target_type an_target_agui = {
    .name = "agui",
    .load = an_target_agui_load,
    .turns = AN_TURN_BIT(AN_TURN_USER) | AN_TURN_BIT(AN_TURN_AGUI_CONNECT),
    .open = agui_open,
    .conf_free = agui_free,
    .where = agui_where,
    .set = agui_set,
    .describe = agui_describe,
};
