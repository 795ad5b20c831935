/*
 * an_rpt_text's fast path (runs of printable ASCII taken whole) against its
 * general path (each character on its own): the same bytes out for texts
 * made of the pieces the rules are about ("::" at a line's start, "##[",
 * blanks before them, controls, C1, bidi overrides, invalid and cut UTF-8),
 * at every cut, with and without an indent for newlines and quotes; and
 * the rules themselves on a few texts written out.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/rpt_text.h"

static const char *const pieces[] = {
    "a",
    "Z",
    "0",
    "~",
    " ",
    "  ",
    ":",
    "::",
    "#",
    "##[",
    "#[",
    "[",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\x1b[31m",
    "\x7f",
    "\\",
    "\"",
    "é",
    "\xc2\x85",
    "\xe2\x80\xae",
    "\xe2\x80\xa8",
    "\xff",
    "\xc3",
    "日本",
    "PASS",
    "ok 1",
    "::add-mask::x",
    "   ::",
    "text with spaces",
};
#define NPIECES (sizeof pieces / sizeof *pieces)

static uint32_t rng = 2463534242u;
static uint32_t next_rand(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 17;
    rng ^= rng << 5;
    return rng;
}

static void same(const char *s, size_t n, size_t cut, const char *indent, unsigned flags)
{
    struct an_buf fast = AN_BUF_INIT, general = AN_BUF_INIT;
    an_rpt_text(&fast, s, n, cut, indent, flags);
    an_rpt_text_general(&general, s, n, cut, indent, flags);
    if (fast.len != general.len || memcmp(an_buf_cstr(&fast), an_buf_cstr(&general), fast.len))
        fail_msg("cut %zu, indent %s, flags %u: fast [%s] general [%s]", cut, indent ? "yes" : "no",
                 flags, an_buf_cstr(&fast), an_buf_cstr(&general));
    an_buf_release(&fast);
    an_buf_release(&general);
}

static void fast_equals_general(void **state)
{
    (void)state;
    char s[512];
    for (int round = 0; round < 4000; round++) {
        size_t n = 0, npieces = 1 + next_rand() % 12;
        for (size_t k = 0; k < npieces; k++) {
            const char *p = pieces[next_rand() % NPIECES];
            size_t len = strlen(p);
            if (n + len >= sizeof s)
                break;
            memcpy(s + n, p, len);
            n += len;
        }
        static const char *const indents[] = {NULL, "    "};
        for (size_t cut = 0; cut <= n + 1; cut++)
            for (unsigned f = 0; f < 2; f++)
                for (unsigned q = 0; q < 2; q++)
                    same(s, n, cut, indents[f], q ? AN_RPT_QUOTE : 0);
    }
}

/* what the two paths write, not only that they agree */
static void check(const char *in, size_t cut, const char *indent, unsigned flags, const char *want)
{
    struct an_buf b = AN_BUF_INIT;
    an_rpt_text(&b, in, strlen(in), cut, indent, flags);
    assert_string_equal(an_buf_cstr(&b), want);
    an_buf_release(&b);
}

static void the_rules(void **state)
{
    (void)state;
    check("plain ASCII, all of it", 0, NULL, 0, "plain ASCII, all of it");
    check("  ::add-mask::secret", 0, NULL, 0, "  \\u003a:add-mask::secret");
    check("x ::not at the start", 0, NULL, 0, "x ::not at the start");
    check("a ##[group] b", 0, NULL, 0, "a #\\u0023[group] b");
    check("\x1b[2J fake PASS", 0, NULL, 0, "\\u001b[2J fake PASS");
    check("line one\n::warning::x", 0, "  ", 0, "line one\n  \\u003a:warning::x");
    check("abcdefgh", 3, NULL, 0, "abc\xE2\x80\xA6 (+5 bytes)");
    check("::quoted", 0, NULL, AN_RPT_QUOTE, "\"::quoted\"");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fast_equals_general),
        cmocka_unit_test(the_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
