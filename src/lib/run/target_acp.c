/* `type: acp` (docs/acp.md): its session and row. */
#include <stdlib.h>

#include "load/config_int.h"
#include "run/target_conf_int.h"


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
    struct an_acp_conf *c = an_xcalloc(1, sizeof *c);
    *conf = c;
    int rc = an_acp_conf_build(c, t, x->vars, err);
    if (rc)
        return rc;
    struct an_acp_target_opts o = {
        .argv = (const char *const *)c->argv,
        .env = (const char *const *)c->env,
        .sandbox = x->sandbox,
        .client_capabilities = c->caps,
        .policy = (int)t->permission_policy,
        .timeout_ms = an_target_turn_ms(t, test),
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

static void acp_free(void *c)
{
    an_acp_conf_free(c);
}

static const struct an_tmpl *acp_where(const struct an_target *t)
{
    return &t->command;
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
    .describe = an_target_describe_command,
    .secrets = an_target_env_secrets,
};
