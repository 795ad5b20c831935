/* The JSON helpers the checks read values with: a dotted (or $.a[1])
 * path into a value, and a value as the text a pattern is matched
 * against. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "support/json_assert.h"
#include "support/tool_calls.h"

static void test_dot_path(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        const char *want; /* compact JSON of the value, NULL = absent */
    } rows[] = {
        {"user.name", "\"John\""},
        {"user.address.city", "\"Paris\""},
        {"user", "{\"name\":\"John\",\"address\":{\"city\":\"Paris\"}}"},
        {"items.0.sku", "\"A1\""},
        {"items.1", "{\"sku\":\"B2\",\"qty\":2}"},
        {"items.1.qty", "2"},
        {"items.2", NULL},
        {"items.-1", NULL},
        {"items.x", NULL},
        {"items.01", "{\"sku\":\"B2\",\"qty\":2}"},
        {"user.name.first", NULL},
        {"nope", NULL},
        {"a.b", "\"dotted key\""},
        {"", NULL},
        {"user.", NULL},
        {"flag", "false"},
        {"none", "null"},
        /* the spellings state: and the json_path check take, the same here */
        {"items[0].sku", "\"A1\""},
        {"$.items[1].qty", "2"},
        {"$.items.1.qty", "2"},
        {"items[1]", "{\"sku\":\"B2\",\"qty\":2}"},
        {"items[2].sku", NULL},
        {"user[0]", NULL},
        {"$.a.b", "\"dotted key\""},
        {"items[x]", NULL},
        {"$ref", "\"#/defs/a\""},
        {"$ref.x", NULL},
    };
    json_t *root =
        ut_json_parse("{\"user\":{\"name\":\"John\",\"address\":{\"city\":\"Paris\"}},"
                      "\"items\":[{\"sku\":\"A1\"},{\"sku\":\"B2\",\"qty\":2}],"
                      "\"a.b\":\"dotted key\",\"flag\":false,\"none\":null,\"$ref\":\"#/defs/a\"}");
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_t *v = an_json_dot_path(root, rows[i].path);
        if (!rows[i].want) {
            if (v)
                fail_msg("path %s: want absent", rows[i].path);
            continue;
        }
        if (!v)
            fail_msg("path %s: want %s, got absent", rows[i].path, rows[i].want);
        char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        ut_expect_str(rows[i].path, "value", rows[i].want, t);
        free(t);
    }
    assert_null(an_json_dot_path(NULL, "a"));
    json_decref(root);
}

static void test_match_text(void **state)
{
    (void)state;
    static const struct {
        const char *json, *want;
    } rows[] = {
        {"\"plain text\"", "plain text"},
        {"42", "42"},
        {"-1.5", "-1.5"},
        {"true", "true"},
        {"false", "false"},
        {"null", "null"},
        {"{\"b\": 1, \"a\": [1, \"x\"]}", "{\"b\":1,\"a\":[1,\"x\"]}"},
        {"[]", "[]"},
        {"\"\"", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        json_t *v = ut_json_parse(rows[i].json);
        char *t = an_json_match_text(v);
        ut_expect_str(rows[i].json, "text", rows[i].want, t);
        free(t);
        json_decref(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dot_path),
        cmocka_unit_test(test_match_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
