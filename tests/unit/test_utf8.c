/* core/utf8.h: the vector UTF-8 check against the scalar one, and the JSON
 * string scanner that relies on it (an_json_scan_string) against jansson. */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/utf8.h"

/* The bytes where validity changes: ASCII edges, each continuation range's
 * edges, every lead byte class and the never-valid bytes. */
static const unsigned char edges[] = {0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0,
                                      0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1, 0xEC,
                                      0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF};
#define NEDGES (sizeof edges / sizeof edges[0])

/* Under valgrind (tests/valgrind.sh: memory errors, not coverage) the
 * loops below take a sample; the plain and sanitized runs take them whole. */
static bool light(void)
{
    return getenv("ANANKE_UNDER_VALGRIND") != NULL;
}

/* both checks, the vector one with and without readable bytes after the span */
static void agree(const unsigned char *s, size_t n, size_t avail)
{
    bool want = an_utf8_valid_scalar(s, n);
    if (an_utf8_valid(s, n) != want || an_utf8_valid_in(s, n, avail) != want) {
        char hex[3 * 64 + 1] = "";
        for (size_t i = 0; i < n && i < 64; i++)
            snprintf(hex + 3 * i, 4, "%02x ", s[i]);
        fail_msg("vector and scalar disagree (scalar %d) on %zu bytes: %s", want, n, hex);
    }
}

/* Every sequence of four edge bytes, at offsets that put it inside one
 * 16-byte block, across a block boundary and at the span's very end, with
 * ASCII around (which the vector path must not mistake for anything). */
static void test_edges(void **state)
{
    (void)state;
    static const size_t offs[] = {15, 0, 13, 14, 28}; /* across a block boundary first */
    unsigned char buf[64];
    unsigned long valid = 0, total = 0;
    size_t noffs = light() ? 1 : sizeof offs / sizeof offs[0], step = light() ? 7 : 1;
    for (size_t o = 0; o < noffs; o++)
        for (size_t a = 0; a < NEDGES; a++)
            for (size_t b = 0; b < NEDGES; b++)
                for (size_t c = 0; c < NEDGES; c++)
                    for (size_t d = (a + b + c) % step; d < NEDGES; d += step) {
                        memset(buf, 'x', sizeof buf);
                        size_t at = offs[o];
                        buf[at] = edges[a], buf[at + 1] = edges[b];
                        buf[at + 2] = edges[c], buf[at + 3] = edges[d];
                        /* the span ends right after the four bytes, then
                         * 20 bytes later, with more readable either way */
                        agree(buf, at + 4, sizeof buf);
                        agree(buf, at + 4, at + 4);
                        agree(buf, at + 24 <= sizeof buf ? at + 24 : sizeof buf, sizeof buf);
                        valid += an_utf8_valid_scalar(buf, at + 4);
                        total++;
                    }
    /* the set is mixed: a check that said yes (or no) to everything fails */
    assert_true(valid > total / 1000 && valid < total / 2);
}

/* every pair of bytes, each 3-byte sequence starting with a lead byte */
static void test_exhaustive_short(void **state)
{
    (void)state;
    unsigned char buf[40];
    for (unsigned a = 0; a < 256; a++)
        for (unsigned b = 0; b < 256; b++) {
            memset(buf, ' ', sizeof buf);
            buf[14] = (unsigned char)a, buf[15] = (unsigned char)b;
            agree(buf, 16, sizeof buf);
            agree(buf + 14, 2, 2);
            for (unsigned c = 0x70; c < 0x100 && a >= 0xE0; c += light() ? 29 : 3) {
                buf[16] = (unsigned char)c;
                agree(buf, 17, sizeof buf);
            }
        }
}

/* a random code point, biased to the edges of each length */
static uint32_t some_cp(unsigned *seed)
{
    static const uint32_t picks[] = {0x41,   0x7F,   0x80,   0x7FF,   0x800,    0xD7FF,
                                     0xE000, 0xFFFD, 0xFFFF, 0x10000, 0x10FFFF, 0xE9};
    unsigned r = (unsigned)rand_r(seed);
    if (r % 3)
        return picks[r % (sizeof picks / sizeof picks[0])];
    uint32_t cp = (uint32_t)rand_r(seed) % 0x110000;
    return cp >= 0xD800 && cp <= 0xDFFF ? 0x20AC : cp;
}

static size_t put_cp(unsigned char *o, uint32_t cp)
{
    if (cp < 0x80)
        return o[0] = (unsigned char)cp, 1;
    if (cp < 0x800)
        return o[0] = (unsigned char)(0xC0 | cp >> 6), o[1] = (unsigned char)(0x80 | (cp & 0x3F)),
               2;
    if (cp < 0x10000) {
        o[0] = (unsigned char)(0xE0 | cp >> 12), o[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F));
        o[2] = (unsigned char)(0x80 | (cp & 0x3F));
        return 3;
    }
    o[0] = (unsigned char)(0xF0 | cp >> 18), o[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F));
    o[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)), o[3] = (unsigned char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Valid text of every length up to 100 bytes stays valid; then one byte
 * changed, dropped or cut off, the two checks still agree. */
static void test_random_text(void **state)
{
    (void)state;
    unsigned seed = 26;
    unsigned char buf[128];
    int rounds = light() ? 2000 : 20000;
    for (int round = 0; round < rounds; round++) {
        size_t n = 0, want = (size_t)rand_r(&seed) % 100;
        while (n + 4 <= want)
            n += put_cp(buf + n, some_cp(&seed));
        if (!an_utf8_valid(buf, n))
            fail_msg("valid text of %zu bytes (round %d) was refused", n, round);
        agree(buf, n, n);
        if (!n)
            continue;
        size_t at = (size_t)rand_r(&seed) % n;
        agree(buf, at, n); /* cut */
        buf[at] = (unsigned char)rand_r(&seed);
        agree(buf, n, n);
        memmove(buf + at, buf + at + 1, n - at - 1);
        agree(buf, n - 1, n);
    }
}

/* One scan of text[0..n) (the opening quote at text[pre]) from an exact-size
 * copy, so that a read past either end is a sanitizer's error: with the
 * bytes before the quote lent (an_json_scan_string_in) or not. */
static bool scan_copy(const char *text, size_t n, size_t pre, bool lend, struct an_buf *scratch,
                      char *out, size_t *len, size_t *used)
{
    char *copy = malloc(n ? n : 1);
    assert_non_null(copy);
    memcpy(copy, text, n);
    const char *o;
    bool ok = lend ? an_json_scan_string_in(copy, copy + pre, n - pre, scratch, &o, len, used)
                   : an_json_scan_string(copy + pre, n - pre, scratch, &o, len, used);
    if (ok)
        memcpy(out, o, *len);
    free(copy);
    return ok;
}

/* an_json_scan_string on a quoted string against jansson's reading of it:
 * whatever the scanner accepts, jansson accepts with the same bytes; what
 * jansson accepts (\u0000 aside) the scanner does too. The string is also
 * scanned with text before it (lent or not) and after it (`"}`, as in an
 * event), which must change nothing. */
static void scan_vs_jansson(const char *body, size_t n)
{
    char text[256];
    assert_true(n + 2 < sizeof text);
    text[0] = '"';
    memcpy(text + 1, body, n);
    text[n + 1] = '"';
    struct an_buf scratch;
    an_buf_init(&scratch, 0);
    char out[256];
    size_t len, used;
    bool fast = scan_copy(text, n + 2, 0, false, &scratch, out, &len, &used);
    json_error_t err;
    json_t *j = json_loadb(text, n + 2, JSON_DECODE_ANY | JSON_ALLOW_NUL, &err);
    if (fast) {
        assert_non_null(j);
        assert_int_equal(used, n + 2);
        assert_int_equal(len, json_string_length(j));
        assert_memory_equal(out, json_string_value(j), len);
    } else if (j && !memchr(json_string_value(j), '\0', json_string_length(j))) {
        fail_msg("the scanner refused a string jansson reads: %.*s", (int)n, body);
    }
    /* the same string after 0..20 bytes of an event, and before `"}` */
    char framed[300];
    for (size_t pre = 0; pre <= 20; pre += pre < 4 ? 1 : 8) {
        for (int tail = 0; tail < 2; tail++) {
            memset(framed, 'x', pre);
            memcpy(framed + pre, text, n + 2);
            size_t fn = pre + n + 2;
            if (tail) {
                memcpy(framed + fn, "\"}", 2);
                fn += 2;
            }
            for (int lend = 0; lend < 2; lend++) {
                char out2[256];
                size_t len2, used2;
                bool again = scan_copy(framed, fn, pre, lend, &scratch, out2, &len2, &used2);
                assert_int_equal(again, fast);
                if (fast) {
                    assert_int_equal(used2, used);
                    assert_int_equal(len2, len);
                    assert_memory_equal(out2, out, len);
                }
            }
        }
    }
    json_decref(j);
    an_buf_release(&scratch);
}

static void test_scan_string(void **state)
{
    (void)state;
    static const char *const rows[] = {"caf\xc3\xa9",
                                       "na\xc3\xafve \\n \xf0\x9f\x98\x80",
                                       "\xe6\x97\xa5\xe6\x9c\xac",
                                       "\xc3",
                                       "\xc3\\n",
                                       "\\n\xc3",
                                       "\xed\xa0\x80",
                                       "\xf4\x90\x80\x80",
                                       "\xe0\x80\xaf",
                                       "\xc0\xaf",
                                       "abcdefghijklmno\xc3\xa9",
                                       "abcdefghijklmnop\xc3",
                                       "\\u00e9\xc3\xa9\\\"x",
                                       "\xf0\x9f\x98",
                                       "\x80",
                                       "tab\there",
                                       "\\ud83d\\ude00\xe2\x82\xac",
                                       "back\\\\slash \xc3\xbc"};
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++)
        scan_vs_jansson(rows[i], strlen(rows[i]));
    /* and random bodies built from text, escapes and stray bytes */
    static const char *const parts[] = {"a",
                                        " ",
                                        "\\n",
                                        "\\\"",
                                        "\\\\",
                                        "\\u00e9",
                                        "\xc3\xa9",
                                        "\xe2\x82\xac",
                                        "\xf0\x9f\x98\x80",
                                        "\xc3",
                                        "\x80",
                                        "\xed\xa0\x80",
                                        "0123456789abcdef"};
    unsigned seed = 24;
    char body[200];
    int rounds = light() ? 2000 : 20000;
    for (int round = 0; round < rounds; round++) {
        size_t n = 0, k = (size_t)rand_r(&seed) % 12;
        for (size_t p = 0; p < k; p++) {
            const char *part = parts[(unsigned)rand_r(&seed) % (sizeof parts / sizeof parts[0])];
            size_t pl = strlen(part);
            memcpy(body + n, part, pl);
            n += pl;
        }
        scan_vs_jansson(body, n);
    }
}

static void test_vector_used(void **state)
{
    (void)state;
#if defined(__x86_64__) && defined(__GNUC__)
    /* every x86-64 this runs on has SSSE3: the vector path is what ran above */
    if (__builtin_cpu_supports("ssse3"))
        assert_true(an_utf8_vector());
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),       cmocka_unit_test(test_exhaustive_short),
        cmocka_unit_test(test_random_text), cmocka_unit_test(test_scan_string),
        cmocka_unit_test(test_vector_used),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
