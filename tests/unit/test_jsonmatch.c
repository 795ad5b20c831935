/* The .jsont matcher: tables of {expected, actual, match?}, diffs, assignment.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/jsonmatch.h"

static json_t *J(const char *s)
{
    json_t *v = json_loads(s, JSON_DECODE_ANY, NULL);
    assert_non_null(v);
    return v;
}

static void test_match_table(void **state)
{
    (void)state;
    static const struct {
        const char *exp, *act;
        bool want;
    } rows[] = {
        {"{\"id\":2}", "{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":{}}", true},
        {"{\"id\":2}", "{\"id\":\"2\"}", true},  /* non-string leaves: stringified */
        {"{\"id\":2}", "{\"id\":22}", false},    /* ... and compared whole */
        {"{\"id\":\"2\"}", "{\"id\":22}", true}, /* string leaves: unanchored regex */
        {"{\"id\":\"^2$\"}", "{\"id\":22}", false},
        {"{\"a\":\"^cancelled$\"}", "{\"a\":\"cancelled\"}", true},
        {"{\"a\":\"x\"}", "{}", false}, /* a missing key never matches */
        {"{\"a\":null}", "{\"a\":null}", true},
        {"{\"a\":\"null\"}", "{\"a\":null}", true},
        {"{\"a\":true}", "{\"a\":\"true\"}", true},
        {"{\"a\":{}}", "{\"a\":{\"b\":1}}", true},
        {"{\"a\":{}}", "{\"a\":[]}", false},
        {"{\"a\":[]}", "{\"a\":[1]}", true},
        {"{\"a\":[{\"t\":\"^x$\"}]}", "{\"a\":[{\"t\":\"y\"},{\"t\":\"x\"}]}", true},
        {"{\"a\":[{\"t\":\"x\"},{\"t\":\"x\"}]}", "{\"a\":[{\"t\":\"x\"}]}", false}, /* distinct */
        {"{\"a\":[\"b\",\"a\"]}", "{\"a\":[\"a\",\"b\"]}", true},                    /* any order */
        {"{\"p\":\"^/tmp/\"}", "{\"p\":\"/tmp/x\"}", true},
        {"{\"p\":\"/tmp/\"}", "{\"p\":\"/tmp/x\"}", true}, /* never the /re/flags form */
        {"{\"r\":\"\\\"v\\\":[0-9]+[,}]\"}", "{\"r\":{\"v\":1}}", true}, /* containers: JSON text */
        {"{\"r\":\"\\\"v\\\":[0-9]+[,}]\"}", "{\"r\":{\"v\":\"1\"}}", false},
        /* a pattern is compiled once per call and reused: the same pattern
         * against different values, and two patterns side by side */
        {"[{\"k\":\"^a$\"},{\"k\":\"^b$\"},{\"k\":\"^a$\"}]",
         "[{\"k\":\"b\"},{\"k\":\"a\"},{\"k\":\"c\"},{\"k\":\"a\"}]", true},
        {"[{\"k\":\"^a$\"},{\"k\":\"^a$\"}]", "[{\"k\":\"a\"},{\"k\":\"b\"}]", false},
        {"[\"(\",\"(\"]", "[\"(\",\"(\"]", false}, /* invalid: never matches, twice */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *e = J(rows[i].exp), *a = J(rows[i].act);
        if (an_jm_match(e, a) != rows[i].want)
            fail_msg("row %zu: %s vs %s: want %d", i, rows[i].exp, rows[i].act, rows[i].want);
        json_decref(e);
        json_decref(a);
    }
}

static json_t *nest(unsigned depth, unsigned width)
{
    if (depth == 0)
        return json_string("a");
    json_t *v = json_array();
    for (unsigned i = 0; i < width; i++)
        json_array_append_new(v, nest(depth - 1, width));
    return v;
}

/* Arrays of arrays: every expected leaf meets every actual leaf at its
 * depth (4^4 leaves, 65536 comparisons at the last level). Compiling the pattern
 * for each comparison took seconds; fuzz/regress/jsonmatch/nested-arrays
 * holds that input for the fuzz run's time limit. */
static void test_nested_arrays(void **state)
{
    (void)state;
    json_t *e = nest(4, 4), *a = nest(4, 4);
    assert_true(an_jm_match(e, a));
    size_t total = 0;
    assert_int_equal(an_jm_score(e, a, &total), 256);
    assert_int_equal(total, 256);
    json_decref(e);
    json_decref(a);
}

static void test_diff(void **state)
{
    (void)state;
    static const struct {
        const char *exp, *act, *line0;
    } rows[] = {
        {"{\"result\":{\"stopReason\":\"^cancelled$\"}}",
         "{\"result\":{\"stopReason\":\"end_turn\"}}",
         "result.stopReason: expected /^cancelled$/, got \"end_turn\""},
        {"{\"result\":{\"sessionId\":\".\"}}", "{\"result\":{}}",
         "missing field 'result.sessionId'"},
        {"{\"error\":{\"code\":-32601}}", "{\"error\":{\"code\":-32600}}",
         "error.code: expected -32601, got -32600"},
        {"{\"a\":[{\"t\":\"^img$\"}]}", "{\"a\":[{\"t\":\"txt\"}]}",
         "a[]: no element matches {\"t\":\"^img$\"}"},
        {"{\"a\":{}}", "{\"a\":\"s\"}", "a: expected an object, got \"s\""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *e = J(rows[i].exp), *a = J(rows[i].act);
        char **lines = NULL;
        size_t n = 0;
        an_jm_diff(e, a, &lines, &n);
        assert_true(n >= 1);
        assert_string_equal(lines[0], rows[i].line0);
        for (size_t k = 0; k < n; k++)
            free(lines[k]);
        free(lines);
        json_decref(e);
        json_decref(a);
    }
}

static void test_score(void **state)
{
    (void)state;
    json_t *e = J("{\"id\":2,\"result\":{\"stopReason\":\"^cancelled$\"}}");
    json_t *a = J("{\"id\":2,\"result\":{\"stopReason\":\"end_turn\"}}");
    json_t *b = J("{\"id\":3}");
    size_t total;
    assert_int_equal(an_jm_score(e, a, &total), 1);
    assert_int_equal(total, 2);
    assert_int_equal(an_jm_score(e, b, NULL), 0);
    json_decref(e);
    json_decref(a);
    json_decref(b);
}

/* e0 fits o0 and o1, e1 fits only o0: a greedy choice would starve e1. */
static bool adj(size_t e, size_t o, void *ud)
{
    (void)ud;
    return e == 0 ? o <= 1 : o == 0;
}

static void test_assign(void **state)
{
    (void)state;
    long as[2];
    assert_int_equal(an_jm_assign(2, 2, adj, NULL, as), 2);
    assert_int_equal(as[0], 1);
    assert_int_equal(as[1], 0);
    assert_int_equal(an_jm_assign(2, 0, adj, NULL, as), 0);
    assert_int_equal(as[0], -1);
}

static void test_check(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    json_t *ok = J("{\"a\":[\"^x$\"],\"b\":{\"c\":\"/tmp/\"}}");
    json_t *badre = J("{\"a\":{\"b\":\"(unclosed\"}}");
    assert_int_equal(an_jm_check(ok, NULL, &err), AN_OK);
    assert_int_equal(an_jm_check(badre, NULL, &err), AN_EREGEX);
    assert_non_null(strstr(err.msg, "a.b: "));
    json_decref(ok);
    json_decref(badre);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_match_table), cmocka_unit_test(test_diff),
        cmocka_unit_test(test_score),       cmocka_unit_test(test_assign),
        cmocka_unit_test(test_check),       cmocka_unit_test(test_nested_arrays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
