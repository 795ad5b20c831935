/* Regexes: /pattern/flags parsing and matching, a table. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/regex.h"

static void test_table(void **state)
{
    (void)state;
    static const struct {
        const char *re, *subject;
        bool match;
        const char *pattern, *flags;
    } rows[] = {
        {"hello", "say hello", true, "hello", ""},
        {"hello", "HELLO", false, "hello", ""},
        {"/hello/i", "HELLO", true, "hello", "i"},
        {"/hello.*world/i", "Hello big World", true, "hello.*world", "i"},
        {"/^b$/m", "a\nb\nc", true, "^b$", "m"},
        {"^b$", "a\nb\nc", false, "^b$", ""},
        {"/a.b/s", "a\nb", true, "a.b", "s"},
        {"a.b", "a\nb", false, "a.b", ""},
        {"/\\w+/u", "\xc3\xa9t\xc3\xa9", true, "\\w+", "u"},
        {"/x/gy", "x", true, "x", "gy"},                      /* g and y accepted, no effect */
        {"/path/to.x", "/path/to.x", true, "/path/to.x", ""}, /* not letters: plain */
        {"\\/path/to", "/path/to", true, "\\/path/to", ""},   /* an escaped slash: plain */
        {"//", "//", true, "//", ""},                         /* empty body: plain */
        {"/", "/", true, "/", ""},
        {"a/b/", "a/b/", true, "a/b/", ""},
        {"error|failed", "it failed", true, "error|failed", ""},
        {"\\d{3}", "ab123", true, "\\d{3}", ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_regex *re = NULL;
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_regex_compile(&re, rows[i].re, NULL, &err), 0);
        assert_string_equal(re->pattern, rows[i].pattern);
        assert_string_equal(re->flags, rows[i].flags);
        assert_string_equal(re->src, rows[i].re);
        if (an_regex_search(re, rows[i].subject, strlen(rows[i].subject)) != rows[i].match)
            fail_msg("row %zu: /%s/ on '%s'", i, rows[i].re, rows[i].subject);
        an_regex_free(re);
    }
}

static void test_invalid_utf8_subject(void **state)
{
    (void)state;
    struct an_regex *re = NULL;
    assert_int_equal(an_regex_compile(&re, "/ok/u", NULL, NULL), 0);
    const char bad[] = "\xff\xfe ok";
    assert_true(an_regex_search(re, bad, sizeof bad - 1));
    an_regex_free(re);
}

static void test_errors(void **state)
{
    (void)state;
    struct an_loc loc = {"t.yaml", 3, 7};
    const char *bad[] = {"(unclosed", "/[a-/i", "*x", "a{2,1}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct an_regex *re = NULL;
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_regex_compile(&re, bad[i], &loc, &err), AN_EREGEX);
        assert_null(re);
        assert_non_null(strstr(err.msg, "invalid regex"));
        assert_int_equal(err.line, 3);
    }
    an_regex_free(NULL);
}

/* /BODY/LETTERS with a letter that is no flag is an error, never a plain
 * pattern that silently means something else (issue 19). */
static void test_unknown_flag(void **state)
{
    (void)state;
    struct an_loc loc = {"t.yaml", 4, 9};
    const char *bad[] = {"/ok/x", "/path/to", "/hello/iX"};
    const char flag[] = {'x', 't', 'X'};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct an_regex *re = NULL;
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_regex_compile(&re, bad[i], &loc, &err), AN_EREGEX);
        assert_null(re);
        char want[64];
        snprintf(want, sizeof want, "unknown regex flag '%c' in '%s'", flag[i], bad[i]);
        assert_non_null(strstr(err.msg, want));
        assert_int_equal(err.line, 4);
        assert_int_equal(err.col, 9);
    }
}

/* A pattern that backtracks catastrophically gives up at the limits and
 * says so (-1), never "no match"; a deep but linear match that overflows
 * the JIT's stack is retried by the interpreter and found. */
static void test_limits(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    struct an_regex *bad, *deep;
    assert_int_equal(an_regex_compile(&bad, "^(a+)+$", NULL, &err), 0);
    assert_int_equal(an_regex_compile(&deep, "(a|aa)+!", NULL, &err), 0);
    char s[5002];
    memset(s, 'a', 5000);
    s[5000] = '!';
    s[5001] = '\0';
    size_t so = 9, eo = 9;
    assert_int_equal(an_regex_find(bad, s, 5001, &so, &eo), -1);
    assert_false(an_regex_search(bad, s, 5001));
    assert_int_equal(an_regex_find(deep, s, 5001, &so, &eo), 1);
    assert_int_equal(so, 0);
    assert_int_equal(eo, 5001);
    assert_int_equal(an_regex_find(bad, "aaa", 3, NULL, NULL), 1);
    assert_int_equal(an_regex_find(deep, "bbb", 3, NULL, NULL), 0);
    an_regex_free(bad);
    an_regex_free(deep);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),  cmocka_unit_test(test_invalid_utf8_subject),
        cmocka_unit_test(test_errors), cmocka_unit_test(test_unknown_flag),
        cmocka_unit_test(test_limits),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
