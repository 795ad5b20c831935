/* ${VAR} / ${ENV.NAME} interpolation: a table of {template, expected}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/interp.h"

static void test_table(void **state)
{
    (void)state;
    struct an_vars v = AN_VARS_INIT;
    an_vars_set(&v, "CART_ID", "c42");
    an_vars_set(&v, "EMPTY", "");
    an_vars_set(&v, "CART_ID", "c43"); /* later hooks override earlier ones */
    setenv("AN_TEST_TOKEN", "tok", 1);
    static const struct {
        const char *in, *want;
    } rows[] = {
        {"plain", "plain"},
        {"", ""},
        {"${CART_ID}", "c43"},
        {"cart ${CART_ID}!", "cart c43!"},
        {"${CART_ID}${CART_ID}", "c43c43"},
        {"Bearer ${ENV.AN_TEST_TOKEN}", "Bearer tok"},
        {"[${EMPTY}]", "[]"},
        {"$${CART_ID}", "${CART_ID}"},
        {"cost: $5", "cost: $5"},
        {"a $ {b}", "a $ {b}"},
        /* literal runs end at each '$': at its end, doubled, before a ref */
        {"$", "$"},
        {"ends in $", "ends in $"},
        {"$$$${CART_ID}$", "$$${CART_ID}$"},
        {"x$y${CART_ID}z$", "x$yc43z$"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_err err = AN_ERR_INIT;
        char *out = NULL;
        assert_int_equal(an_interp(rows[i].in, NULL, &v, &out, &err), 0);
        assert_string_equal(out, rows[i].want);
        free(out);
    }
    an_vars_release(&v);
}

static void test_errors(void **state)
{
    (void)state;
    struct an_vars v = AN_VARS_INIT;
    struct an_loc loc = {"t.test.yaml", 4, 11};
    unsetenv("AN_TEST_UNSET");
    static const struct {
        const char *in;
        int code;
        const char *msg;
    } rows[] = {
        {"${NOPE}", AN_EVAR, "unknown variable 'NOPE'"},
        {"${ENV.AN_TEST_UNSET}", AN_EVAR, "environment variable 'AN_TEST_UNSET' is not set"},
        {"${unterminated", AN_ESCHEMA, "unterminated '${'"},
        {"${1abc}", AN_ESCHEMA, "invalid variable reference '${1abc}'"},
        {"${}", AN_ESCHEMA, "invalid variable reference"},
        {"${ENV.}", AN_ESCHEMA, "invalid variable reference"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_err err = AN_ERR_INIT;
        char *out = (char *)"untouched";
        assert_int_equal(an_interp(rows[i].in, &loc, &v, &out, &err), rows[i].code);
        assert_null(out);
        assert_non_null(strstr(err.msg, rows[i].msg));
        assert_string_equal(err.file, "t.test.yaml");
        assert_int_equal(err.line, 4);
    }
    /* the load-time check catches syntax, not unknown names */
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_interp_check("${LATER}", &loc, &err), 0);
    assert_int_equal(an_interp_check("${oops", &loc, &err), AN_ESCHEMA);
}

/* ${TOOL_SERVERS.NAME.KEY}: read from the proxy's table, unknown ones
 * named, other dotted names still refused */
static void test_tool_servers(void **state)
{
    (void)state;
    struct an_vars none = AN_VARS_INIT, tools = AN_VARS_INIT;
    an_vars_set(&tools, "TOOL_SERVERS.shop-1.url", "http://127.0.0.1:5/mcp");
    struct an_err err = AN_ERR_INIT;
    char *out = NULL;
    assert_int_equal(an_interp("${TOOL_SERVERS.shop-1.url}", NULL, &none, &out, &err), AN_EVAR);
    assert_non_null(strstr(err.msg, "unknown tool server variable 'TOOL_SERVERS.shop-1.url'"));
    an_interp_set_tool_vars(&tools);
    assert_int_equal(an_interp("u=${TOOL_SERVERS.shop-1.url}", NULL, &none, &out, &err), 0);
    assert_string_equal(out, "u=http://127.0.0.1:5/mcp");
    free(out);
    assert_int_equal(an_interp("${TOOL_SERVERS.shop-1.command}", NULL, &none, &out, &err), AN_EVAR);
    static const char *const bad[] = {"${TOOL_SERVERS.shop}", "${TOOL_SERVERS..url}",
                                      "${TOOL_SERVERS.a.b.c}", "${OTHER.a.url}",
                                      "${TOOL_SERVERS.a.}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
        assert_int_equal(an_interp(bad[i], NULL, &none, &out, &err), AN_ESCHEMA);
    an_interp_set_tool_vars(NULL);
    an_vars_release(&tools);
}

static void test_json(void **state)
{
    (void)state;
    struct an_vars v = AN_VARS_INIT;
    an_vars_set(&v, "U", "ada");
    json_t *in = json_pack("{s:s,s:[s,i],s:{s:s},s:b}", "user", "${U}", "list", "x-${U}", 3,
                           "nested", "${U}", "k", "flag", 1);
    json_t *out = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_interp_json(in, NULL, &v, &out, &err), 0);
    char *s = json_dumps(out, JSON_COMPACT | JSON_SORT_KEYS);
    assert_string_equal(s, "{\"flag\":true,\"list\":[\"x-ada\",3],\"nested\":{\"${U}\":\"k\"},"
                           "\"user\":\"ada\"}");
    free(s);
    json_decref(out);
    json_decref(in);
    an_vars_release(&v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_tool_servers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
