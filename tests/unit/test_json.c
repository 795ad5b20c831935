/* JSON helpers: the text a regex sees for a value, and lossy UTF-8. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/json.h"

static void test_compact_reals(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } rows[] = {
        {"54.99", "54.99"}, /* not 54.990000000000002 (peer test finding) */
        {"{\"amount\":54.99,\"n\":[0.1,2.5e-7]}", "{\"amount\":54.99,\"n\":[0.1,2.5e-7]}"},
        {"0.30000000000000004", "0.30000000000000004"}, /* exact when 15 digits are not */
        {"1e300", "1e300"},
        {"{\"b\":1,\"a\":\"x\"}", "{\"b\":1,\"a\":\"x\"}"}, /* document order kept */
        {"\"text\"", "\"text\""},
        {"null", "null"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *v = json_loads(rows[i].in, JSON_DECODE_ANY, NULL);
        assert_non_null(v);
        char *s = an_json_compact(v);
        if (strcmp(s, rows[i].want))
            fail_msg("row %zu: got %s want %s", i, s, rows[i].want);
        free(s);
        json_decref(v);
    }
    char *s = an_json_compact(NULL);
    assert_string_equal(s, "null");
    free(s);
}

static void test_lossy(void **state)
{
    (void)state;
    char *s = an_utf8_lossy("a\xff" "b\xc3\xa9\0c", 7);
    assert_string_equal(s, "a\xEF\xBF\xBD" "b\xc3\xa9\xEF\xBF\xBD" "c");
    free(s);
    json_t *j = an_json_lossy("\xed\xa0\x80", 3); /* a surrogate is not UTF-8 */
    assert_string_equal(json_string_value(j), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    json_decref(j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_reals),
        cmocka_unit_test(test_lossy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
