/* JSON helpers: the text a regex sees for a value, lossy UTF-8, and the
 * checker an_json_valid_fast against an_json_parse. */
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

/* an_json_dumps: 15 significant digits when every real reads back as itself
 * from them, else every real with the exact 17 (the text a regex and a
 * person see); the same text reading the whole document back gave. */
static void test_dumps_reals(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } rows[] = {
        {"54.99", "54.99"},
        {"[54.99,0.30000000000000004]", "[54.990000000000002,0.30000000000000004]"},
        {"{\"a\":{\"b\":[0.1]},\"c\":0.30000000000000004}",
         "{\"a\":{\"b\":[0.10000000000000001]},\"c\":0.30000000000000004}"},
        {"{\"pass_rate\":1.0,\"runs\":3}", "{\"pass_rate\":1.0,\"runs\":3}"},
        {"-0.0", "-0.0"},
        {"5e-324", "4.94065645841247e-324"},
        {"1.7976931348623157e308", "1.7976931348623157e308"},
        {"9007199254740993.0", "9007199254740992.0"},
        {"[1e-300,0.1]", "[1e-300,0.1]"},
        {"{\"s\":\"54.99\",\"n\":null}", "{\"s\":\"54.99\",\"n\":null}"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        json_t *v = json_loads(rows[i].in, JSON_DECODE_ANY, NULL);
        assert_non_null(v);
        char *s = an_json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER);
        if (strcmp(s, rows[i].want))
            fail_msg("row %zu: got %s want %s", i, s, rows[i].want);
        json_t *back = json_loads(s, JSON_DECODE_ANY, NULL);
        assert_true(json_equal(back, v)); /* exact either way */
        json_decref(back);
        free(s);
        json_decref(v);
    }
}

static void test_lossy(void **state)
{
    (void)state;
    char *s = an_utf8_lossy("a\xff"
                            "b\xc3\xa9\0c",
                            7);
    assert_string_equal(s, "a\xEF\xBF\xBD"
                           "b\xc3\xa9\xEF\xBF\xBD"
                           "c");
    free(s);
    json_t *j = an_json_lossy("\xed\xa0\x80", 3); /* a surrogate is not UTF-8 */
    assert_string_equal(json_string_value(j), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");
    json_decref(j);
}

/* Text of `n` nested arrays around 1, or (n < 0) -n openings only. */
static char *nested(long n)
{
    size_t k = (size_t)(n < 0 ? -n : n);
    char *s = malloc(2 * k + 2), *p = s;
    memset(p, '[', k);
    p += k;
    if (n > 0) {
        *p++ = '1';
        memset(p, ']', k);
        p += k;
    }
    *p = '\0';
    return s;
}

/* The checker says yes only where an_json_parse surely succeeds, with the
 * tree jansson itself would build; no is "not sure", and its subset is
 * pinned here (text outside it costs a parse at once, not a wrong answer). */
/* Numbers jansson cannot hold do not make a message unreadable: an integer
 * beyond int64 is kept as a real, a real beyond a double's range as its
 * text; the rest of the message is as it was, strings untouched. */
static void test_big_numbers(void **state)
{
    (void)state;
    static const char text[] =
        "{\"a\":123456789012345678901234567890,\"b\":[-99999999999999999999,7],"
        "\"c\":1e999,\"d\":-2.5E+400,\"s\":\"99999999999999999999999 \\\" 1e999\","
        "\"n\":9223372036854775807,\"m\":-9223372036854775808,\"r\":1e-999}";
    char why[200] = "";
    json_t *v = an_json_parse(text, sizeof text - 1, why, sizeof why);
    if (!v)
        fail_msg("not parsed: %s", why);
    assert_true(json_is_real(json_object_get(v, "a")));
    assert_true(json_real_value(json_object_get(v, "a")) > 1.2e29);
    assert_true(json_is_real(json_array_get(json_object_get(v, "b"), 0)));
    assert_true(json_real_value(json_array_get(json_object_get(v, "b"), 0)) < -9e19);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(v, "b"), 1)), 7);
    assert_string_equal(json_string_value(json_object_get(v, "c")), "1e999");
    assert_string_equal(json_string_value(json_object_get(v, "d")), "-2.5E+400");
    assert_string_equal(json_string_value(json_object_get(v, "s")),
                        "99999999999999999999999 \" 1e999");
    assert_true(json_integer_value(json_object_get(v, "n")) == INT64_MAX);
    assert_true(json_integer_value(json_object_get(v, "m")) == INT64_MIN);
    assert_true(json_is_real(json_object_get(v, "r")));
    json_decref(v);
    /* still invalid JSON is still refused, with jansson's reason */
    assert_null(an_json_parse("{\"a\":1e999,}", 12, why, sizeof why));
    assert_non_null(strstr(why, "overflow"));
    /* only a whole number token is rewritten: not one with a stray exponent
     * (found by fuzz_json_validate: it became a string) */
    assert_null(an_json_parse("[3333E3333E]", 12, why, sizeof why));
    assert_null(an_json_parse("[99999999999999999999-1]", 24, why, sizeof why));
}

/* The JSON tree cap: 2 MiB of "[]," would take some 150 MB as a tree and
 * are refused before anything is built; 2 MiB of reals (or of "[]" inside
 * strings) are not. */
static void test_tree_cap(void **state)
{
    (void)state;
    size_t n = 2u << 20, k = 0;
    char *s = malloc(n + 2);
    s[k++] = '[';
    while (k + 3 < n) {
        memcpy(s + k, "[],", 3);
        k += 3;
    }
    memcpy(s + k, "[]]", 3);
    k += 3;
    char why[200] = "";
    assert_false(an_json_valid_fast(s, k)); /* it vouches only for what parses */
    assert_null(an_json_parse(s, k, why, sizeof why));
    if (!strstr(why, "the JSON tree cap"))
        fail_msg("why: %s", why);
    /* the same brackets in a string are text */
    s[0] = '"';
    s[k - 1] = '"';
    json_t *v = an_json_parse(s, k, why, sizeof why);
    assert_true(json_is_string(v));
    json_decref(v);
    k = 0;
    s[k++] = '[';
    while (k + 4 < n) {
        memcpy(s + k, "1.5,", 4);
        k += 4;
    }
    memcpy(s + k, "1]", 2);
    k += 2;
    v = an_json_parse(s, k, why, sizeof why);
    assert_true(json_is_array(v));
    json_decref(v);
    free(s);
}

static void test_valid_fast(void **state)
{
    (void)state;
    static const struct {
        const char *in;
        size_t len; /* 0: strlen(in) */
        bool fast;  /* an_json_valid_fast's answer */
        bool ok;    /* an_json_parse's */
    } rows[] = {
        /* nesting, literals, integers */
        {"{\"a\":[1,{\"b\":[]},{}],\"c\":{\"d\":null}}", 0, true, true},
        {" \t\r\n[ true , false , null ] \n", 0, true, true},
        {"{\"a\":1,\"a\":2}", 0, true, true}, /* a repeated key: the last wins */
        {"\"just a string\"", 0, true, true},
        {"-0", 0, true, true},
        {"123456789012345678", 0, true, true}, /* 18 digits */
        {"-123456789012345678", 0, true, true},
        {"1234567890123456789", 0, false, true},  /* 19: jansson's to judge */
        {"99999999999999999999", 0, false, true}, /* beyond int64: kept as a real */
        {"1.5", 0, false, true},                  /* reals: jansson's */
        {"[1e3]", 0, false, true},
        {"-1E-2", 0, false, true},
        {"1e999", 0, false, true}, /* beyond a double: kept as text */
        {"01", 0, false, false},
        {"-", 0, false, false},
        {"+1", 0, false, false},
        {".5", 0, false, false},
        {"1.", 0, false, false},
        {"[1,]", 0, false, false},
        {"{\"a\":1,}", 0, false, false},
        {"{\"a\" 1}", 0, false, false},
        {"{a:1}", 0, false, false},
        {"{1:1}", 0, false, false},
        {"[1 2]", 0, false, false},
        {"tru", 0, false, false},
        {"truex", 0, false, false},
        {"[true1]", 0, false, false},
        {"nul", 0, false, false},
        {"NaN", 0, false, false},
        {"'a'", 0, false, false},
        /* escapes */
        {"\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", 0, true, true},
        {"\"\\u00e9\\u20AC\\ud83d\\ude00\"", 0, true, true},
        {"{\"k\\u00e9y\":\"v\"}", 0, true, true}, /* an escaped key */
        {"\"\\u0000\"", 0, false, true},          /* NUL: jansson's to judge */
        {"\"\\ud83d\"", 0, false, false},         /* a lone high surrogate */
        {"\"\\ude00\"", 0, false, false},         /* a lone low surrogate */
        {"\"\\ud83d\\u0041\"", 0, false, false},
        {"\"\\x41\"", 0, false, false},
        {"\"\\u12\"", 0, false, false},
        {"\"\\u12G4\"", 0, false, false},
        {"\"\\\"", 0, false, false}, /* the escape eats the quote */
        /* strings and UTF-8 */
        {"\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"", 0, true, true},
        {"\"\x7f\"", 0, true, true},   /* DEL is not a control byte */
        {"\"a\tb\"", 0, false, false}, /* a raw control byte */
        {"\"a\nb\"", 0, false, false},
        {"\"\xff\"", 0, false, false},
        {"\"\xc3\"", 0, false, false},             /* cut short */
        {"\"\xc0\xaf\"", 0, false, false},         /* overlong */
        {"\"\xed\xa0\x80\"", 0, false, false},     /* a surrogate in UTF-8 */
        {"\"\xf4\x90\x80\x80\"", 0, false, false}, /* above U+10FFFF */
        {"\"a\0b\"", 4, false, false},             /* a raw NUL */
        {"\"abc", 0, false, false},                /* unterminated */
        {"\xc3\xa9", 0, false, false},             /* UTF-8 outside a string */
        {"\xef\xbb\xbf{}", 0, false, false},       /* a byte order mark */
        /* trailing garbage, empty, whitespace */
        {"{} x", 0, false, false},
        {"{}}", 0, false, false},
        {"[]]", 0, false, false},
        {"1 2", 0, false, false},
        {"{}\0", 3, false, false},
        {"", 0, false, false},
        {" \n\t\r", 0, false, false}, /* blank is the caller's ({} for tool args) */
        {"\f{}", 0, false, false},    /* form feed is not JSON whitespace */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        size_t n = rows[i].len ? rows[i].len : strlen(rows[i].in);
        bool fast = an_json_valid_fast(rows[i].in, n);
        char why[256] = "";
        json_t *v = an_json_parse(rows[i].in, n, why, sizeof why);
        if (fast != rows[i].fast || !!v != rows[i].ok)
            fail_msg("row %zu (%s): checker %d parse %d, want %d %d (%s)", i, rows[i].in, fast, !!v,
                     rows[i].fast, rows[i].ok, why);
        /* yes means the tree jansson builds, whatever the fast path does */
        if (fast) {
            json_t *j = json_loadb(rows[i].in, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
            assert_non_null(j);
            assert_true(json_equal(v, j));
            json_decref(j);
        }
        json_decref(v);
    }

    /* nesting: jansson's limit (2048) is the checker's; past it, jansson
     * refuses */
    static const struct {
        long depth;
        bool fast, ok;
    } deep[] = {
        {2048, true, true}, {2049, false, false}, {-3000, false, false}, {100000, false, false}};
    for (size_t i = 0; i < sizeof deep / sizeof *deep; i++) {
        char *s = nested(deep[i].depth);
        json_t *v = an_json_parse(s, strlen(s), NULL, 0);
        if (an_json_valid_fast(s, strlen(s)) != deep[i].fast || !!v != deep[i].ok)
            fail_msg("depth %ld: checker/parse disagree with the table", deep[i].depth);
        json_decref(v);
        free(s);
    }
}

/* A NUL an agent sends in any string comes out as the text \u0000, never
 * as a C string cut short ("search\u0000x" must not read as "search"). */
static void test_parse_nul(void **state)
{
    (void)state;
    static const struct {
        const char *in, *out; /* out: the compact JSON of the parse */
    } rows[] = {
        {"{\"name\":\"search\\u0000rm\"}", "{\"name\": \"search\\\\u0000rm\"}"},
        {"[\"\\u0000\", \"a\\u0000b\\u0000\"]", "[\"\\\\u0000\", \"a\\\\u0000b\\\\u0000\"]"},
        {"{\"a\":{\"b\":[1,\"x\\u0000\"]}}", "{\"a\": {\"b\": [1, \"x\\\\u0000\"]}}"},
        /* an escaped backslash then u0000: no NUL, nothing changes */
        {"[\"\\\\u0000\"]", "[\"\\\\u0000\"]"},
        {"[\"plain\"]", "[\"plain\"]"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char why[200];
        json_t *v = an_json_parse(rows[i].in, strlen(rows[i].in), why, sizeof why);
        assert_non_null(v);
        char *got = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
        json_t *w = json_loads(rows[i].out, JSON_DECODE_ANY, NULL);
        assert_non_null(w);
        char *want = json_dumps(w, JSON_COMPACT | JSON_ENCODE_ANY);
        if (strcmp(got, want))
            fail_msg("row %zu: %s, expected %s", i, got, want);
        free(got);
        free(want);
        json_decref(w);
        json_decref(v);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compact_reals), cmocka_unit_test(test_dumps_reals),
        cmocka_unit_test(test_lossy),         cmocka_unit_test(test_valid_fast),
        cmocka_unit_test(test_parse_nul),     cmocka_unit_test(test_big_numbers),
        cmocka_unit_test(test_tree_cap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
