/* `type: a2a` (docs/a2a.md): its interpolated config, session and row. */
#include <stdlib.h>

#include "load/config_int.h"
#include "load/target_a2a.h"
#include "proto/a2a.h"
#include "run/target_conf_int.h"

struct a2a_conf {
    struct an_a2a_opts o;
    char *card_url, *endpoint, *api_key, *bearer;
    json_t *card;
    struct an_target_headers h;
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
    an_target_headers_free(&c->h);
    free(c);
}

static int a2a_conf_build(struct a2a_conf *c, const struct an_target *t, const struct an_test *test,
                          const struct an_vars *vars, struct an_err *err)
{
    const struct an_a2a_target *a = an_a2a_target(t);
    int rc;
    if (test && (test->history || test->options))
        return an_fail(err, AN_EUSAGE, test->nturns ? &test->turns[0].loc : &test->loc,
                       "this case carries earlier messages or 'options', and an a2a target has "
                       "no place for them (an A2A conversation starts with its first message)");
    if (a->card_url.src &&
        (rc = an_interp(a->card_url.src, &a->card_url.loc, vars, &c->card_url, err)))
        return rc;
    if (a->endpoint.src &&
        (rc = an_interp(a->endpoint.src, &a->endpoint.loc, vars, &c->endpoint, err)))
        return rc;
    if (a->api_key.src && (rc = an_interp(a->api_key.src, &a->api_key.loc, vars, &c->api_key, err)))
        return rc;
    if (a->bearer.src && (rc = an_interp(a->bearer.src, &a->bearer.loc, vars, &c->bearer, err)))
        return rc;
    if (a->agent_card.value &&
        (rc = an_interp_json(a->agent_card.value, &a->agent_card.loc, vars, &c->card, err)))
        return rc;
    if ((rc = an_target_headers_build(&c->h, t, vars, err)))
        return rc;
    c->o.card_url = c->card_url;
    c->o.card = c->card;
    c->o.endpoint = c->endpoint;
    c->o.version = a->version;
    c->o.binding = a->binding;
    c->o.blocking = !a->nonblocking;
    c->o.stream = a->stream;
    c->o.trust_card_url = a->trust_card_url;
    c->o.modes = a->output_modes;
    c->o.nmodes = a->noutput_modes;
    c->o.api_key = c->api_key;
    c->o.bearer = c->bearer;
    c->o.headers = c->h.kv;
    c->o.nheaders = c->h.n;
    c->o.timeout_ms = test && test->timeout_ms ? test->timeout_ms : t->timeout_ms;
    c->o.max_event_bytes = (size_t)a->max_event_bytes;
    c->o.max_turn_bytes = (size_t)a->max_turn_bytes;
    return 0;
}

static int a2a_open(const struct an_target *t, const struct an_target_open_ctx *x, void **conf,
                    struct an_session **out, struct an_err *err)
{
    struct a2a_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = a2a_conf_build(c, t, x->test, x->vars, err);
    if (rc)
        return rc;
    an_target_over_timeout(x->over, &c->o.timeout_ms);
    return an_a2a_open(out, &c->o, err);
}

static void a2a_free(void *c)
{
    a2a_conf_free(c);
}

/* an a2a agent is named by its interface URL, else by its card's */
static const struct an_tmpl *a2a_where(const struct an_target *t)
{
    const struct an_a2a_target *a = an_a2a_target(t);
    return a->endpoint.src ? &a->endpoint : &a->card_url;
}

static void a2a_describe(const struct an_target *t, json_t *o, bool brief)
{
    const struct an_a2a_target *a = an_a2a_target(t);
    if (a->endpoint.src)
        an_target_put(o, "endpoint", a->endpoint.src, brief);
    if (!brief && a->api_key.src)
        an_target_put(o, "api_key", a->api_key.src, brief);
}

static void a2a_secrets(const struct an_target *t, an_target_secret_fn fn, void *ud)
{
    const struct an_a2a_target *a = an_a2a_target(t);
    if (a->api_key.src)
        fn(ud, "api_key", NULL, &a->api_key);
}

const struct an_target_type an_target_a2a = {
    .name = "a2a",
    .load = an_target_a2a_load,
    .turns = AN_TURN_BIT(AN_TURN_USER) | AN_TURN_BIT(AN_TURN_A2A_SEND),
    .open = a2a_open,
    .conf_free = a2a_free,
    .where = a2a_where,
    .unnamed = "(an inline agent card)",
    .describe = a2a_describe,
    .secrets = a2a_secrets,
};
