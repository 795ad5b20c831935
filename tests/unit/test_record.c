/* Recordings: test directory names (slugs) and redaction, tables. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/record.h"
#include "run/redact.h"

static void test_slugs(void **state)
{
    (void)state;
    char long_name[200];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    char long_slug[AN_RECORD_SLUG_MAX + 1];
    memset(long_slug, 'x', AN_RECORD_SLUG_MAX);
    long_slug[AN_RECORD_SLUG_MAX] = '\0';
    char long_slug2[AN_RECORD_SLUG_MAX + 3];
    snprintf(long_slug2, sizeof long_slug2, "%s-2", long_slug);
    static const struct {
        const char *key, *slug;
    } rows[] = {
        {"checkout", "checkout"},
        {"pays once, then stops", "pays_once__then_stops"},
        {"T-001.v2_b", "T-001.v2_b"},
        {"checkout", "checkout-2"},     /* taken: -2 */
        {"Checkout", "Checkout-3"},     /* case-insensitive file systems */
        {"checkout-2", "checkout-2-2"}, /* its own name is taken by a suffixed one */
        {"../../etc/passwd", "_._.._etc_passwd"},
        {"..", "_."},
        {".hidden", "_hidden"},
        {"", "_"},
        {NULL, "_-2"},
        {"caf\xc3\xa9", "caf__"}, /* every byte outside the set */
        {"a/b\\c d", "a_b_c_d"},
    };
    size_t n = sizeof rows / sizeof *rows;
    const char *keys[sizeof rows / sizeof *rows + 2];
    char *out[sizeof rows / sizeof *rows + 2];
    for (size_t i = 0; i < n; i++)
        keys[i] = rows[i].key;
    keys[n] = long_name;
    keys[n + 1] = long_name;
    an_record_slugs(keys, n + 2, out);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(out[i], rows[i].slug))
            fail_msg("row %zu: '%s' -> '%s', expected '%s'", i,
                     rows[i].key ? rows[i].key : "(null)", out[i], rows[i].slug);
    }
    assert_string_equal(out[n], long_slug); /* cut to the limit */
    assert_string_equal(out[n + 1], long_slug2);
    for (size_t i = 0; i < n + 2; i++)
        free(out[i]);
}

/* Redact `in` with the secrets and patterns given, compare, and check the
 * count of each label. */
struct redact_row {
    const char *secrets[4]; /* label i is "s<i>" */
    const char *patterns[2];
    const char *in, *out;
    size_t counts[6]; /* per label, secrets' first then patterns' */
};

static void check_row(size_t row, const struct redact_row *r)
{
    struct an_redactor *rd = an_redactor_new();
    size_t nsec = 0;
    for (size_t i = 0; i < 4 && r->secrets[i]; i++, nsec++) {
        char label[8];
        snprintf(label, sizeof label, "s%zu", i);
        an_redactor_add_secret(rd, label, r->secrets[i]);
    }
    for (size_t i = 0; i < 2 && r->patterns[i]; i++)
        assert_int_equal(an_redactor_add_regex(rd, r->patterns[i], NULL), 0);
    size_t counts[8] = {0}, len = 0;
    char *got = an_redact_text(rd, r->in, strlen(r->in), counts, &len);
    const char *shown = got ? got : r->in;
    if (strcmp(shown, r->out))
        fail_msg("row %zu: '%s' -> '%s', expected '%s'", row, r->in, shown, r->out);
    if (got)
        assert_int_equal(len, strlen(got));
    for (size_t l = 0; l < an_redactor_nlabels(rd); l++)
        if (counts[l] != r->counts[l])
            fail_msg("row %zu: label %s counted %zu, expected %zu", row, an_redactor_label(rd, l),
                     counts[l], r->counts[l]);
    free(got);
    an_redactor_free(rd);
}

static void test_redact_text(void **state)
{
    (void)state;
    static const struct redact_row rows[] = {
        /* nothing to find */
        {{"s3cr3t-value"}, {NULL}, "nothing here", "nothing here", {0}},
        /* multiple occurrences, each counted */
        {{"s3cr3t-value"},
         {NULL},
         "a s3cr3t-value b s3cr3t-value",
         "a [redacted] b [redacted]",
         {2}},
        /* overlapping secrets: one span, no piece left behind */
        {{"abcdef", "defghi"}, {NULL}, "xabcdefghiy", "x[redacted]y", {1, 1}},
        /* a secret inside another (header value and its token) */
        {{"Bearer tok-12345", "tok-12345"},
         {NULL},
         "Authorization: Bearer tok-12345; later tok-12345",
         "Authorization: [redacted]; later [redacted]",
         {1, 2}},
        /* adjacent matches merge */
        {{"aaaa1", "bbbb2"}, {NULL}, "aaaa1bbbb2", "[redacted]", {1, 1}},
        /* inside JSON-escaped text: a frame's data holds the secret escaped */
        {{"pa\"ss/w\\rd"},
         {NULL},
         "{\"delta\":\"pa\\\"ss/w\\\\rd\"}",
         "{\"delta\":\"[redacted]\"}",
         {1}},
        /* escaped twice: tool arguments as a string inside a frame */
        {{"pa\"ss\"word"},
         {NULL},
         "{\"args\":\"{\\\"p\\\":\\\"pa\\\\\\\"ss\\\\\\\"word\\\"}\"}",
         "{\"args\":\"{\\\"p\\\":\\\"[redacted]\\\"}\"}",
         {1}},
        /* \u escapes for non-ASCII (either case), \/ for slashes */
        {{"clé/secrète"},
         {NULL},
         "x=\"cl\\u00e9\\/secr\\u00e8te\" y=\"cl\\u00E9/secr\\u00E8te\"",
         "x=\"[redacted]\" y=\"[redacted]\"",
         {2}},
        /* a pattern; several matches, an empty match never loops */
        {{NULL},
         {"sk-[a-z0-9]+"},
         "keys: sk-abc1 and sk-zz9.",
         "keys: [redacted] and [redacted].",
         {2}},
        {{NULL}, {"x*"}, "abxxc", "ab[redacted]c", {1}},
        /* a pattern overlapping a secret */
        {{"token-777"}, {"/TOKEN-\\d+/i"}, "see token-7778", "see [redacted]", {1, 1}},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
        check_row(i, &rows[i]);
}

static void test_redact_adding(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    assert_int_equal(an_redactor_add_secret(rd, "a", ""), AN_REDACT_EMPTY);
    assert_int_equal(an_redactor_add_secret(rd, "a", "abc"), AN_REDACT_SHORT);
    assert_int_equal(an_redactor_add_secret(rd, "a", "abcd"), AN_REDACT_ADDED);
    assert_int_equal(an_redactor_add_secret(rd, "b", "abcd"), AN_REDACT_KNOWN);
    assert_int_equal(an_redactor_add_secret(rd, "a", "wxyz"), AN_REDACT_ADDED);
    assert_int_equal(an_redactor_nlabels(rd), 1); /* one label, two values */
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_redactor_add_regex(rd, "(", &err), AN_EREGEX);
    assert_non_null(strstr(err.msg, "--redact"));
    size_t counts[2] = {0};
    char *s = an_redact_text(rd, "abcd wxyz", 9, counts, NULL);
    assert_string_equal(s, "[redacted] [redacted]");
    assert_int_equal(counts[0], 2);
    free(s);
    an_redactor_free(rd);
}

static void test_redact_json(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    an_redactor_add_secret(rd, "token", "tok-12345");
    json_t *in = json_pack("{s:s,s:[s,i,n],s:{s:s},s:b}", "text", "use tok-12345", "list",
                           "tok-12345", 7, "tok-12345", "x", "state", "b", 1);
    size_t counts[1] = {0};
    json_t *out = an_redact_json(rd, in, counts);
    char *text = json_dumps(out, JSON_COMPACT | JSON_PRESERVE_ORDER);
    assert_string_equal(text, "{\"text\":\"use [redacted]\",\"list\":[\"[redacted]\",7,null],"
                              "\"[redacted]\":{\"x\":\"state\"},\"b\":true}");
    assert_int_equal(counts[0], 3);
    /* the input is left alone */
    assert_string_equal(json_string_value(json_object_get(in, "text")), "use tok-12345");
    free(text);
    json_decref(in);
    json_decref(out);
    an_redactor_free(rd);
}

/* A secret streamed in pieces: no frame holds it whole. */
static void test_redact_frames(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    an_redactor_add_secret(rd, "token", "tok-e2e-5ecret-4242");
    static const char *const in[] = {
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"my tok\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"-e2e-5ec\"}",
        "{\"type\": \"TOOL_CALL_ARGS\", \"delta\": \"{}\"}", /* another stream, untouched */
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ret-4242 ok\"}",
        "not json: tok-e2e-5ecret-4242",
        "{\"type\":\"RUN_ERROR\",\"message\":\"bad tok-e2e-5ecret-4242\"}",
    };
    static const char *const want[] = {
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"my [redacted]\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}",
        "{\"type\": \"TOOL_CALL_ARGS\", \"delta\": \"{}\"}",
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted] ok\"}",
        "not json: [redacted]",
        "{\"type\":\"RUN_ERROR\",\"message\":\"bad [redacted]\"}",
    };
    size_t n = sizeof in / sizeof *in, counts[1] = {0};
    char **out = an_redact_frames(rd, (const char *const *)in, n, counts);
    for (size_t i = 0; i < n; i++) {
        if (strcmp(out[i], want[i]))
            fail_msg("frame %zu: '%s', expected '%s'", i, out[i], want[i]);
        free(out[i]);
    }
    free(out);
    assert_int_equal(counts[0], 3);
    an_redactor_free(rd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_slugs),         cmocka_unit_test(test_redact_text),
        cmocka_unit_test(test_redact_adding), cmocka_unit_test(test_redact_json),
        cmocka_unit_test(test_redact_frames),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
