/* text.must_match / text.must_not_match: {text, patterns, expected findings}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"

struct want {
    const char *kind, *assertion, *expected, *actual, *detail;
};

struct text_case {
    const char *title;
    const char *text;
    const char *must[4];
    const char *must_not[4];
    struct want want[3];
};

static const struct text_case cases[] = {
    {"must_match: found", "Hello world", {"world"}, {0}, {{0}}},
    {"must_match: /hello/i ignores case", "Hello world", {"/hello/i"}, {0}, {{0}}},
    {"must_match: case-sensitive by default",
     "Hello world",
     {"hello"},
     {0},
     {{"text.must_match", "Text must match /hello/", "a match", "no match in \"Hello world\"",
       NULL}}},
    {"must_match: every pattern must match; one finding per missing one",
     "Your total is 42 EUR",
     {"total", "/eur/i", "USD", "^Your"},
     {0},
     {{"text.must_match", "Text must match /USD/", "a match",
       "no match in \"Your total is 42 EUR\"", NULL}}},
    {"must_match: two missing",
     "ok",
     {"a", "b"},
     {0},
     {{"text.must_match", "Text must match /a/", "a match", "no match in \"ok\"", NULL},
      {"text.must_match", "Text must match /b/", "a match", "no match in \"ok\"", NULL}}},
    {"must_match: empty text",
     "",
     {"."},
     {0},
     {{"text.must_match", "Text must match /./", "a match", "no match in empty text", NULL}}},
    {"must_match: /^world/m anchors at a line", "hello\nworld", {"/^world/m"}, {0}, {{0}}},
    {"must_match: without m, ^ is the start of the text",
     "hello\nworld",
     {"^world"},
     {0},
     {{"text.must_match", "Text must match /^world/", "a match", "no match in \"hello\\nworld\"",
       NULL}}},
    {"must_match: /a.b/s lets . cross lines", "a\nb", {"/a.b/s"}, {0}, {{0}}},
    {"must_not_match: absent passes", "All good", {0}, {"error|failed"}, {{0}}},
    {"must_not_match: the matched excerpt is shown",
     "Sorry, an error occurred.",
     {0},
     {"error|failed"},
     {{"text.must_not_match", "Text must not match /error|failed/", "no match",
       "matched \"error\" at byte 10", "in \"Sorry, an error occurred.\""}}},
    {"must_not_match: flags are shown",
     "FAILED to book",
     {0},
     {"/failed/i"},
     {{"text.must_not_match", "Text must not match /failed/i", "no match",
       "matched \"FAILED\" at byte 0", "in \"FAILED to book\""}}},
    {"must_not_match: quotes and newlines are escaped",
     "He said \"no\"\nbye",
     {0},
     {"\"no\""},
     {{"text.must_not_match", "Text must not match /\"no\"/", "no match",
       "matched \"\\\"no\\\"\" at byte 8", "in \"He said \\\"no\\\"\\nbye\""}}},
    {"both lists in one block",
     "exception: stack overflow",
     {"done"},
     {"exception", "error"},
     {{"text.must_match", "Text must match /done/", "a match",
       "no match in \"exception: stack overflow\"", NULL},
      {"text.must_not_match", "Text must not match /exception/", "no match",
       "matched \"exception\" at byte 0", "in \"exception: stack overflow\""}}},
};

static void expect_str(const char *title, const char *field, const char *want, const char *got)
{
    if (want == got || (want && got && strcmp(want, got) == 0))
        return;
    fail_msg("%s: %s\n  want: %s\n  got:  %s", title, field, want ? want : "(null)",
             got ? got : "(null)");
}

struct pool {
    struct an_regex *re[8];
    struct an_pattern pat[8];
    size_t n;
};

static struct an_pattern *patterns(struct pool *p, const char *const *src, size_t max, size_t *n)
{
    struct an_pattern *first = &p->pat[p->n];
    *n = 0;
    for (size_t i = 0; i < max && src[i]; i++) {
        struct an_loc loc = {"t.test.yaml", 40 + (unsigned)p->n, 7};
        struct an_err err = AN_ERR_INIT;
        assert_int_equal(an_regex_compile(&p->re[p->n], src[i], &loc, &err), 0);
        p->pat[p->n] = (struct an_pattern){p->re[p->n], AN_LEVEL_TURN, p->re[p->n]->loc};
        p->n++;
        (*n)++;
    }
    return *n ? first : NULL;
}

static void run_case(const struct text_case *tc, int turn)
{
    struct pool p = {0};
    struct an_assert blk = {0};
    blk.must_match = patterns(&p, tc->must, 4, &blk.nmust_match);
    blk.must_not_match = patterns(&p, tc->must_not, 4, &blk.nmust_not_match);
    struct an_scope scope = {
        .calls = NULL, .ncalls = 0, .text = tc->text, .start_ms = 0, .end_ms = 0, .turn = turn};
    struct an_findings f = {0};
    size_t added = an_check(&blk, &scope, &f);
    size_t n = 0;
    while (n < 3 && tc->want[n].kind)
        n++;
    if (f.n != n || added != n) {
        for (size_t i = 0; i < f.n; i++)
            print_message("  [%s] %s | %s | %s\n", f.v[i].kind, f.v[i].assertion, f.v[i].actual,
                          f.v[i].detail ? f.v[i].detail : "-");
        fail_msg("%s: want %zu findings, got %zu", tc->title, n, f.n);
    }
    for (size_t i = 0; i < n; i++) {
        expect_str(tc->title, "kind", tc->want[i].kind, f.v[i].kind);
        expect_str(tc->title, "assertion", tc->want[i].assertion, f.v[i].assertion);
        expect_str(tc->title, "expected", tc->want[i].expected, f.v[i].expected);
        expect_str(tc->title, "actual", tc->want[i].actual, f.v[i].actual);
        expect_str(tc->title, "detail", tc->want[i].detail, f.v[i].detail);
        assert_int_equal(f.v[i].turn, turn);
        assert_string_equal(f.v[i].file, "t.test.yaml");
        assert_true(f.v[i].line >= 40);
    }
    an_findings_release(&f);
    for (size_t i = 0; i < p.n; i++)
        an_regex_free(p.re[i]);
}

static void test_text_table(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++)
        run_case(&cases[k], 1);
}

/* The finding points at the pattern that failed. */
static void test_location(void **state)
{
    (void)state;
    struct text_case tc = {"loc", "abc", {"a", "z"}, {0}, {{0}}};
    struct pool p = {0};
    struct an_assert blk = {0};
    blk.must_match = patterns(&p, tc.must, 4, &blk.nmust_match);
    struct an_scope scope = {
        .calls = NULL, .ncalls = 0, .text = tc.text, .start_ms = 0, .end_ms = 0, .turn = -1};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 1);
    assert_int_equal(f.v[0].line, 41);
    assert_int_equal(f.v[0].col, 7);
    assert_int_equal(f.v[0].turn, -1);
    an_findings_release(&f);
    for (size_t i = 0; i < p.n; i++)
        an_regex_free(p.re[i]);
}

/* Long texts: the quoted text is cut at 120 bytes; the excerpt around a
 * forbidden match keeps 40 bytes each side, "…" where text was left out. */
static void test_long_text(void **state)
{
    (void)state;
    char text[400];
    memset(text, 'a', 100);
    memcpy(text + 100, "ERROR", 5);
    memset(text + 105, 'b', 100);
    text[205] = '\0';

    char want_actual[200] = "no match in \"";
    size_t k = strlen(want_actual);
    memset(want_actual + k, 'a', 100);
    memcpy(want_actual + k + 100, "ERROR", 5);
    memset(want_actual + k + 105, 'b', 15);
    memcpy(want_actual + k + 120, "…\"", sizeof "…\"");

    char want_detail[200] = "in \"…";
    k = strlen(want_detail);
    memset(want_detail + k, 'a', 40);
    memcpy(want_detail + k + 40, "ERROR", 5);
    memset(want_detail + k + 45, 'b', 40);
    memcpy(want_detail + k + 85, "…\"", sizeof "…\"");

    struct text_case tc = {
        "long",
        text,
        {"zzz"},
        {"ERROR"},
        {{"text.must_match", "Text must match /zzz/", "a match", want_actual, NULL},
         {"text.must_not_match", "Text must not match /ERROR/", "no match",
          "matched \"ERROR\" at byte 100", want_detail}}};
    run_case(&tc, 0);
}

/* A NULL text (a turn that produced none) is the empty text. */
static void test_null_text(void **state)
{
    (void)state;
    struct an_regex *re;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_regex_compile(&re, "x", NULL, &err), 0);
    struct an_pattern pat = {re, AN_LEVEL_TEST, re->loc};
    struct an_assert blk = {
        .must_match = &pat, .nmust_match = 1, .must_not_match = &pat, .nmust_not_match = 1};
    struct an_scope scope = {
        .calls = NULL, .ncalls = 0, .text = NULL, .start_ms = 0, .end_ms = 0, .turn = 0};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 1);
    assert_string_equal(f.v[0].actual, "no match in empty text");
    assert_null(f.v[0].file);
    an_findings_release(&f);
    an_regex_free(re);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_table),
        cmocka_unit_test(test_location),
        cmocka_unit_test(test_long_text),
        cmocka_unit_test(test_null_text),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
