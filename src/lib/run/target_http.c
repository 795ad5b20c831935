/* `type: http` (seed 004's run-case, docs/http.md): its interpolated
 * config, session and row. */
#include <stdlib.h>
#include <string.h>

#include "load/config_int.h"
#include "load/target_http.h"
#include "run/target_conf_int.h"

struct http_conf {
    struct an_http_case_opts o;
    char *endpoint, *version;
    struct an_target_headers h;
};

static void http_conf_free(struct http_conf *c)
{
    if (!c)
        return;
    free(c->endpoint);
    free(c->version);
    an_target_headers_free(&c->h);
    free(c);
}

static int http_conf_build(struct http_conf *c, const struct an_target *t,
                           const struct an_test *test, const struct an_vars *vars,
                           struct an_err *err)
{
    const struct an_http_target *h = an_http_target(t);
    int rc;
    if ((rc = an_interp(h->endpoint.src, &h->endpoint.loc, vars, &c->endpoint, err)))
        return rc;
    if (h->case_version.src &&
        (rc = an_interp(h->case_version.src, &h->case_version.loc, vars, &c->version, err)))
        return rc;
    if ((rc = an_target_headers_build(&c->h, t, vars, err)))
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
    c->o.retries = h->retries;
    c->o.max_body_bytes = (size_t)h->max_body_bytes;
    c->o.body_snippet_bytes = (size_t)h->body_snippet_bytes;
    return 0;
}

/* Seed 004's run-case contract is one request per case: {case_id, version,
 * input{user, context?}}. What a test would need beyond that is refused
 * here, at load time, rather than dropped. */
static int http_check_test(const struct an_target *t, const struct an_test *test,
                           struct an_err *err)
{
    (void)t;
    if (test->dyn)
        return an_fail(err, AN_ESCHEMA, &test->loc,
                       "a dynamic test needs an agent that holds a conversation; an http "
                       "target answers one request per case (POST /run-case, docs/http.md)");
    if (test->nturns > 1)
        return an_fail(err, AN_ESCHEMA, &test->turns[1].loc,
                       "an http target takes one request per case (POST /run-case, docs/http.md)"
                       ": this test has %zu turns; give it one, or split it into "
                       "tests",
                       test->nturns);
    size_t nh = test->history ? json_array_size(test->history) : 0;
    const struct an_loc *loc = test->nturns ? &test->turns[0].loc : &test->loc;
    if (nh)
        return an_fail(err, AN_ESCHEMA, loc,
                       "this case carries %zu earlier message%s, and an http target cannot "
                       "send them: a run-case request holds one user message (input.user)",
                       nh, nh == 1 ? "" : "s");
    if (test->nturns && test->turns[0].parts)
        return an_fail(err, AN_ESCHEMA, loc,
                       "a run-case request holds the user's text only: attachments have no "
                       "place in it");
    const char *k;
    json_t *v;
    json_object_foreach(test->options, k, v)
    {
        if (strcmp(k, "context"))
            return an_fail(err, AN_ESCHEMA, &test->loc,
                           "this case's option '%s' has no place in a run-case request (only "
                           "'context' is sent, as input.context)",
                           k);
    }
    return 0;
}

static int http_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                     struct an_session **out, struct an_err *err)
{
    struct http_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = http_conf_build(c, t, x->test, x->vars, err);
    if (rc)
        return rc;
    an_target_over_timeout(x->over, &c->o.timeout_ms);
    return an_http_case_open(out, &c->o, err);
}

static void http_free(void *c)
{
    http_conf_free(c);
}

static const struct an_tmpl *http_where(const struct an_target *t)
{
    const struct an_http_target *h = an_http_target(t);
    return &h->endpoint;
}

static void http_describe(const struct an_target *t, json_t *o, bool brief)
{
    const struct an_http_target *h = an_http_target(t);
    if (h->endpoint.src)
        an_target_put(o, "endpoint", h->endpoint.src, brief);
}

const struct an_target_type an_target_http = {
    .name = "http",
    .load = an_target_http_load,
    .finish = an_target_http_always,
    .turns = AN_TURN_BIT(AN_TURN_USER),
    .check_test = http_check_test,
    .open = http_open,
    .conf_free = http_free,
    .where = http_where,
    .describe = http_describe,
};
