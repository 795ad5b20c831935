/*
 * Tool coverage's pure parts (docs/tools.md "Tool coverage"): the rows the
 * reporters show (report/rpt_toolcov.c) and the change between two runs
 * that `ananke compare` shows (compare/compare_toolcov.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "report/rpt_toolcov.h"

/* v equals the JSON text want */
static bool equals(const json_t *v, const char *want)
{
    json_t *w = json_loads(want, 0, NULL);
    bool eq = json_equal(v, w);
    json_decref(w);
    return eq;
}

static json_t *cov(const char *text)
{
    json_t *v = json_loads(text, 0, NULL);
    assert_non_null(v);
    return v;
}

/* exposed first in listed order, then the called tools the server did not
 * list; counts and the covered share */
static void test_rows(void **state)
{
    (void)state;
    json_t *c = cov("{\"exposed\": [\"b\", \"a\", \"c\"],"
                    " \"called\": {\"a\": {\"calls\": 3, \"tests\": 2, \"argument_keys\": [\"x\"],"
                    " \"mocked\": 1}, \"z\": {\"calls\": 1, \"tests\": 1, \"argument_keys\": [],"
                    " \"mocked\": 0}}, \"ratio\": 0.3333}");
    struct rpt_cov_server s;
    rpt_cov_read("shop", c, &s);
    assert_int_equal(s.ntools, 4);
    assert_string_equal(s.tools[0].name, "b");
    assert_int_equal(s.tools[0].calls, 0);
    assert_null(s.tools[0].keys);
    assert_string_equal(s.tools[1].name, "a");
    assert_int_equal(s.tools[1].calls, 3);
    assert_int_equal(s.tools[1].tests, 2);
    assert_int_equal(s.tools[1].mocked, 1);
    assert_true(s.tools[1].exposed);
    assert_string_equal(s.tools[3].name, "z");
    assert_false(s.tools[3].exposed);
    assert_int_equal(s.nexposed, 3);
    assert_int_equal(s.ncovered, 1);
    assert_int_equal(s.calls, 4);
    assert_int_equal(s.mocked, 1);
    assert_true(s.has_ratio);
    rpt_cov_release(&s);
    json_decref(c);
}

static void test_compare(void **state)
{
    (void)state;
    struct an_compare c;
    memset(&c, 0, sizeof c);
    c.run[CMP_BASE].doc =
        cov("{\"tool_coverage\": {\"shop\": {\"exposed\": [\"a\", \"b\", \"c\", \"d\"],"
            " \"called\": {\"a\": {}, \"b\": {}}, \"ratio\": 0.5}}}");
    c.run[CMP_NEW].doc = cov("{\"tool_coverage\": {\"shop\": {\"exposed\": [\"a\", \"b\", \"c\", "
                             "\"d\"], \"called\": {\"a\": {}, \"c\": {}, \"d\": {}, \"x\\u001b\": "
                             "{}}, \"ratio\": 0.75}, \"new\": {\"exposed\": [], \"called\": {},"
                             " \"ratio\": null}}}");
    json_t *d = cmp_tool_coverage(&c);
    json_t *shop = json_object_get(d, "shop");
    assert_true(equals(json_object_get(shop, "newly_covered"), "[\"c\", \"d\"]"));
    assert_true(equals(json_object_get(shop, "no_longer_covered"), "[\"b\"]"));
    assert_true(json_number_value(json_object_get(shop, "ratio_delta")) > 0.249);
    json_t *fresh = json_object_get(d, "new");
    assert_true(json_is_null(json_object_get(fresh, "baseline_ratio")));
    assert_true(json_is_null(json_object_get(fresh, "ratio_delta")));
    char *text = an_compare_tool_coverage_text(&c);
    assert_non_null(strstr(text, "tool coverage: shop 50% -> 75% (+25 points); newly covered: c, "
                                 "d; no longer covered: b\n"));
    assert_non_null(strstr(text, "tool coverage: new - -> -\n"));
    free(text);
    json_decref(d);
    json_decref(c.run[CMP_BASE].doc);
    c.run[CMP_BASE].doc = cov("{}");
    json_decref(c.run[CMP_NEW].doc);
    c.run[CMP_NEW].doc = cov("{}");
    assert_null(cmp_tool_coverage(&c)); /* neither run had tool servers */
    assert_null(an_compare_tool_coverage_text(&c));
    json_decref(c.run[CMP_BASE].doc);
    json_decref(c.run[CMP_NEW].doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows),
        cmocka_unit_test(test_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
