/* The target-type table (ananke/target_type.h): the built-in rows, a row
 * registered from outside, and the loader going through the rows. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/load.h"
#include "ananke/target_type.h"
#include "load/target_agui.h"
#include "load/target_openai.h"
#include "support/files.h"

struct probe {
    const char *colour;
};

static int probe_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type", "colour", "timeout_ms", "assert", NULL};
    struct probe *p = an_target_alloc(ld, sizeof *p);
    struct an_loc at = t->loc;
    int rc;
    t->data = p;
    p->colour = "none";
    if ((rc = an_target_keys(ld, n, keys, "a probe target")) ||
        (rc = an_target_key_string(ld, n, "colour", &p->colour, &at)))
        return rc;
    if (!strcmp(p->colour, "plaid"))
        return an_target_fail(ld, &at, "no plaid, '%s'", p->colour);
    return 0;
}

static int probe_open(const struct an_target *t, const struct an_target_open_ctx *ctx, void **conf,
                      struct an_session **out, struct an_err *err)
{
    (void)t, (void)ctx, (void)conf, (void)out;
    return an_fail(err, AN_EINTERNAL, NULL, "not opened in these tests");
}

static const struct an_target_type probe_row = {
    .name = "probe",
    .load = probe_load,
    .turns = AN_TURN_BIT(AN_TURN_USER),
    .open = probe_open,
    .not_helper = "a probe only listens",
};

static void put(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The config text and one YAML test; the first error's message in *msg
 * (static) or NULL. */
static int load(const char *cfg_text, const char *test_text, const struct an_load_opts *extra,
                struct an_suite **s, const char **msg)
{
    static char first[512];
    char cfg[256], path[256];
    put("ananke.config.yaml", cfg_text);
    put("a.test.yaml", test_text);
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", files_dir);
    snprintf(path, sizeof path, "%s/a.test.yaml", files_dir);
    const char *paths[] = {path};
    struct an_load_opts o = extra ? *extra : (struct an_load_opts)AN_LOAD_OPTS_INIT;
    o.config_path = cfg;
    o.paths = paths;
    o.npaths = 1;
    struct an_errlist errs = {0};
    *s = NULL;
    int rc = an_suite_load(s, &o, &errs);
    *msg = NULL;
    if (errs.n) {
        snprintf(first, sizeof first, "%u:%u: %s", errs.v[0].line, errs.v[0].col, errs.v[0].msg);
        *msg = first;
    }
    an_errlist_release(&errs);
    return rc;
}

static const char *user_test = "version: '1.0'\nname: t\nturns:\n  - user: hi\n";

static void test_builtin_rows(void **state)
{
    (void)state;
    const char *const *names = an_target_type_names();
    const char *want[] = {"agui", "acp", "openai", "http", "mcp", "a2a"};
    for (size_t i = 0; i < 6; i++) {
        assert_string_equal(names[i], want[i]);
        assert_ptr_equal(an_target_type_find(want[i])->name, names[i]);
    }
    assert_null(an_target_type_find("echo"));
    assert_null(an_target_type_find(""));
}

static void test_register(void **state)
{
    (void)state;
    static const struct an_target_type no_load = {.name = "x", .open = probe_open};
    static const struct an_target_type taken = {
        .name = "agui", .load = probe_load, .open = probe_open};
    assert_false(an_target_type_register(NULL));
    assert_false(an_target_type_register(&no_load));
    assert_false(an_target_type_register(&taken));
    assert_ptr_not_equal(an_target_type_find("agui"), &taken);
    assert_true(an_target_type_register(&probe_row));
    assert_false(an_target_type_register(&probe_row)); /* once */
    assert_ptr_equal(an_target_type_find("probe"), &probe_row);
    const char *const *names = an_target_type_names();
    size_t n = 0;
    while (names[n])
        n++;
    assert_string_equal(names[n - 1], "probe");
}

static void test_load_through_the_row(void **state)
{
    (void)state;
    struct an_suite *s;
    const char *msg;
    assert_int_equal(load("version: '1.0'\ntarget: {type: probe, colour: red, timeout_ms: 7}\n",
                          user_test, NULL, &s, &msg),
                     0);
    assert_ptr_equal(s->config.target.type, &probe_row);
    assert_string_equal(((const struct probe *)s->config.target.data)->colour, "red");
    assert_int_equal(s->config.target.timeout_ms, 7); /* the common keys are read for it */
    an_suite_free(s);

    /* its own errors, at their place */
    assert_int_not_equal(load("version: '1.0'\ntarget:\n  type: probe\n  colour: plaid\n",
                              user_test, NULL, &s, &msg),
                         0);
    assert_string_equal(msg, "4:11: no plaid, 'plaid'");
    an_suite_free(s);
    assert_int_not_equal(
        load("version: '1.0'\ntarget:\n  type: probe\n  color: red\n", user_test, NULL, &s, &msg),
        0);
    assert_non_null(strstr(msg, "4:3: unknown key 'color' in a probe target"));
    an_suite_free(s);

    /* the turn types it takes, the helper it cannot be, what the others say */
    assert_int_not_equal(load("version: '1.0'\ntarget: {type: probe}\n",
                              "version: '1.0'\nname: t\nturns:\n  - type: agui:connect\n", NULL, &s,
                              &msg),
                         0);
    assert_string_equal(msg, "4:5: an agui:connect turn needs an agui target (the config's "
                             "target is probe)");
    an_suite_free(s);
    assert_int_not_equal(
        load("version: '1.0'\ntarget: {type: probe}\nagents:\n  p: {type: probe}\n", user_test,
             NULL, &s, &msg),
        0);
    assert_string_equal(msg, "4:6: agent 'p': a helper agent must be of type openai or agui (a "
                             "probe only listens)");
    an_suite_free(s);
    assert_int_not_equal(load("version: '1.0'\ntarget: {type: pro}\n", user_test, NULL, &s, &msg),
                         0);
    assert_non_null(strstr(msg, "unknown target type 'pro'"));
    an_suite_free(s);
    assert_int_not_equal(
        load("version: '1.0'\ntarget: {type: zzzzzzzz}\n", user_test, NULL, &s, &msg), 0);
    assert_non_null(strstr(msg, "(supported: agui, acp, openai, http, mcp, a2a, probe)"));
    an_suite_free(s);
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.model = "m";
    assert_int_not_equal(load("version: '1.0'\ntarget: {type: probe}\n", user_test, &o, &s, &msg),
                         0);
    assert_non_null(strstr(msg, "--connector sets the model of an openai target; the target is "
                                "probe"));
    an_suite_free(s);
}

/* -n NAME --connector MODEL: the target gets the model, the agent keeps its own. */
static void test_connector_copies(void **state)
{
    (void)state;
    struct an_suite *s;
    const char *msg;
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.target_name = "judge";
    o.model = "m9";
    assert_int_equal(load("version: '1.0'\n"
                          "target: {type: agui, endpoint: 'http://127.0.0.1:1/a', agentId: a}\n"
                          "agents:\n"
                          "  judge: {type: openai, endpoint: 'http://127.0.0.1:1/v1', model: j}\n",
                          user_test, &o, &s, &msg),
                     0);
    assert_string_equal(an_openai_target(&s->config.target)->model.src, "m9");
    assert_string_equal(an_openai_target(&s->config.agents[0].target)->model.src, "j");
    an_suite_free(s);
}

/* --protocol: the target's mode changes, the agent it came from keeps its own;
 * a type without the key says so and changes nothing. */
static void test_protocol_override(void **state)
{
    (void)state;
    struct an_suite *s;
    const char *msg;
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.target_name = "ui";
    assert_int_equal(load("version: '1.0'\n"
                          "target: {type: openai, endpoint: 'http://127.0.0.1:1/v1', model: j}\n"
                          "agents:\n"
                          "  ui: {type: agui, endpoint: 'http://127.0.0.1:1/a', agentId: a}\n",
                          user_test, &o, &s, &msg),
                     0);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_suite_target_set(s, "protocol", "warn", &err), 0);
    assert_int_equal(an_agui_target(&s->config.target)->protocol, AN_PROTOCOL_WARN);
    assert_int_equal(an_agui_target(&s->config.agents[0].target)->protocol, AN_PROTOCOL_STRICT);
    assert_int_equal(an_suite_target_set(s, "protocol", "loud", &err), AN_ESCHEMA);
    assert_string_equal(err.msg, "unknown protocol mode 'loud' (one of: strict, warn, off)");
    assert_int_equal(an_suite_target_set(s, "colour", "red", NULL), AN_ENOTFOUND);
    an_suite_free(s);

    assert_int_equal(load("version: '1.0'\n"
                          "target: {type: openai, endpoint: 'http://127.0.0.1:1/v1', model: j}\n",
                          user_test, NULL, &s, &msg),
                     0);
    assert_int_equal(an_suite_target_set(s, "protocol", "off", NULL), AN_ENOTFOUND);
    assert_string_equal(an_openai_target(&s->config.target)->model.src, "j");
    an_suite_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_rows),         cmocka_unit_test(test_register),
        cmocka_unit_test(test_load_through_the_row), cmocka_unit_test(test_connector_copies),
        cmocka_unit_test(test_protocol_override),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
