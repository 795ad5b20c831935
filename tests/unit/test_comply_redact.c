/* A compliance result redacted (run/comply_redact.c) and the secrets of
 * comply's settings and tests (run/secrets.c an_secrets_add_template,
 * an_secrets_add_env_refs). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/comply.h"
#include "run/comply_redact.h"
#include "run/redact.h"
#include "run/secrets.h"

/* A message of a stream, as the agent sent it (compact JSON). */
static char *chunk(const char *text)
{
    json_t *m = json_pack("{s:s,s:s,s:{s:s,s:{s:s,s:{s:s,s:s}}}}", "jsonrpc", "2.0", "method",
                          "session/update", "params", "sessionId", "s1", "update", "sessionUpdate",
                          "agent_message_chunk", "content", "type", "text", "text", text);
    char *s = json_dumps(m, JSON_COMPACT);
    json_decref(m);
    return s;
}

static struct an_comply_test *quoting(struct an_comply_result *res, const char *closest,
                                      const char *diff)
{
    struct an_comply_agent *a = an_comply_add_agent(res, "agent", "cmd");
    struct an_comply_test *t = an_comply_add_test(a);
    t->id = strdup("t");
    struct an_comply_unmet *u = an_comply_add_unmet(t, "forbid", 2, "forbidden");
    u->closest = strdup(closest);
    u->diff = calloc(1, sizeof *u->diff);
    u->diff[0] = strdup(diff);
    u->ndiff = 1;
    return t;
}

/* A literal secret streamed in pieces: each piece the report quotes (one
 * message, a diff line) is redacted. */
static void test_literal_pieces(void **state)
{
    (void)state;
    struct an_redactor *r = an_redactor_new();
    assert_int_equal(an_redactor_add_secret(r, "env K", "Kq7vW2pXz9LmR4tYb8Nc"), AN_REDACT_ADDED);
    struct an_comply_result res = {0};
    char *c = chunk("told Kq7vW2pX");
    struct an_comply_test *t = quoting(&res, c, "text: expected /^x$/, got \"z9LmR4tYb8Nc.\"");
    an_comply_test_redact(t, r);
    assert_null(strstr(t->unmet[0].closest, "Kq7vW2"));
    assert_non_null(strstr(t->unmet[0].closest, "told [redacted]"));
    assert_null(strstr(t->unmet[0].diff[0], "z9LmR4"));
    free(c);
    an_comply_result_release(&res);
    an_redactor_free(r);
}

/* A --redact match streamed in pieces: no piece matches the pattern, yet
 * what the agent sent, joined as a stream, does; each piece is redacted. */
static void test_pattern_pieces(void **state)
{
    (void)state;
    struct an_redactor *r = an_redactor_new();
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_redactor_add_regex(r, "rx-[A-Za-z0-9]{20}", &err), 0);
    const char *pieces[] = {"I was told rx-Gm7Lk2", "Jh9Fd4Sa6", "Qw1Ez and more"};
    json_t *seen = json_array();
    char *texts[3];
    for (int i = 0; i < 3; i++) {
        texts[i] = chunk(pieces[i]);
        json_array_append_new(seen, json_loads(texts[i], 0, NULL));
    }
    struct an_comply_result res = {0};
    struct an_comply_test *t = quoting(&res, texts[1], "x");
    /* the result alone knows nothing of the pattern's pieces */
    an_comply_test_redact(t, r);
    assert_non_null(strstr(t->unmet[0].closest, "Jh9Fd4Sa6"));
    an_comply_test_redact_seen(t, r, seen);
    assert_null(strstr(t->unmet[0].closest, "Jh9Fd4"));
    assert_non_null(strstr(t->unmet[0].closest, "\"text\":\"[redacted]\""));
    for (int i = 0; i < 3; i++)
        free(texts[i]);
    json_decref(seen);
    an_comply_result_release(&res);
    an_redactor_free(r);
}

/* The agent's fields: name, command, what it answered to initialize. */
static void test_agent(void **state)
{
    (void)state;
    struct an_redactor *r = an_redactor_new();
    an_redactor_add_secret(r, "s", "Hj3kP9wQx2Vn6Bz8Rm4T");
    struct an_comply_result res = {0};
    struct an_comply_agent *a =
        an_comply_add_agent(&res, "a-Hj3kP9wQx2Vn6Bz8Rm4T", "agent --key Hj3kP9wQx2Vn6Bz8Rm4T");
    a->init = json_pack("{s:{s:s}}", "agentInfo", "name", "Hj3kP9wQx2Vn6Bz8Rm4T");
    a->init_error = strdup("died: Hj3kP9wQx2Vn6Bz8Rm4T");
    an_comply_agent_redact(a, r);
    assert_string_equal(a->name, "a-[redacted]");
    assert_string_equal(a->command, "agent --key [redacted]");
    json_t *info = json_object_get(a->init, "agentInfo");
    assert_string_equal(json_string_value(json_object_get(info, "name")), "[redacted]");
    assert_string_equal(a->init_error, "died: [redacted]");
    an_comply_result_release(&res);
    an_redactor_free(r);
}

/* The settings' env templates and the tests' ${ENV...}: the whole value and
 * each variable; an empty redactor costs nothing and changes nothing. */
static void test_settings_secrets(void **state)
{
    (void)state;
    setenv("CR_TOKEN", "Zt5rY8uW1qE3oP6aS9dF", 1);
    setenv("CR_HEADER", "Vb4Nm7Xc2Zl9Kj5Hg8Fd", 1);
    struct an_redactor *r = an_redactor_new();
    an_comply_test_redact(NULL, r);
    an_secrets_add_template(r, "env K of agent a", "pre-${ENV.CR_TOKEN}", NULL, NULL);
    an_secrets_add_env_refs(
        r, "{\"Authorization\": \"Bearer ${ENV.CR_HEADER}\", \"x\": \"$${ENV.CR_NOPE}\"}", NULL,
        NULL);
    const char *text = "a pre-Zt5rY8uW1qE3oP6aS9dF b Zt5rY8uW1qE3oP6aS9dF c Vb4Nm7Xc2Zl9Kj5Hg8Fd";
    char *out = an_redact_text(r, text, strlen(text), NULL, NULL);
    assert_non_null(out);
    assert_string_equal(out, "a [redacted] b [redacted] c [redacted]");
    free(out);
    assert_int_equal(an_redactor_nlabels(r), 3);
    an_redactor_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_literal_pieces),
        cmocka_unit_test(test_pattern_pieces),
        cmocka_unit_test(test_agent),
        cmocka_unit_test(test_settings_secrets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
