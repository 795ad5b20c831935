/*
 * Which test a tool call belongs to (tools/ctx.c, docs/tools.md "Parallel
 * runs"): a token finds its own test only, whole and exact; an ended
 * test's token finds nothing; the shared path belongs to the one test
 * whose turn runs, to none with none, and cannot be attributed with more.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tools/ctx.h"
#include "tools/tools.h"

static void tokens(void **state)
{
    (void)state;
    struct an_test ta = {.name = "a"}, tb = {.name = "b"};
    struct an_tool_ctx *a = an_tool_ctx_new(&ta), *b = an_tool_ctx_new(&tb);
    assert_non_null(a);
    assert_non_null(b);
    assert_int_equal(strlen(a->token), AN_TOOL_TOKEN_LEN);
    assert_int_equal(strspn(a->token, "0123456789abcdef"), AN_TOOL_TOKEN_LEN);
    assert_string_not_equal(a->token, b->token);
    assert_int_not_equal(a->serial, b->serial);

    struct an_tool_ctx *hit = an_tool_ctx_by_token(a->token, AN_TOOL_TOKEN_LEN);
    assert_ptr_equal(hit, a);
    an_tool_ctx_put(hit);
    hit = an_tool_ctx_by_token(b->token, AN_TOOL_TOKEN_LEN);
    assert_ptr_equal(hit, b);
    an_tool_ctx_put(hit);

    /* a prefix, one character off, or longer: nobody's */
    char t[AN_TOOL_TOKEN_LEN + 2];
    memcpy(t, a->token, AN_TOOL_TOKEN_LEN + 1);
    assert_null(an_tool_ctx_by_token(t, AN_TOOL_TOKEN_LEN - 1));
    assert_null(an_tool_ctx_by_token(t, 0));
    t[AN_TOOL_TOKEN_LEN - 1] = t[AN_TOOL_TOKEN_LEN - 1] == '0' ? '1' : '0';
    assert_null(an_tool_ctx_by_token(t, AN_TOOL_TOKEN_LEN));
    memcpy(t, a->token, AN_TOOL_TOKEN_LEN);
    t[AN_TOOL_TOKEN_LEN] = '0';
    assert_null(an_tool_ctx_by_token(t, AN_TOOL_TOKEN_LEN + 1));

    /* a reference held by a call outlives the test's end; the token is
     * then nobody's */
    char old[AN_TOOL_TOKEN_LEN + 1];
    memcpy(old, a->token, sizeof old);
    hit = an_tool_ctx_by_token(old, AN_TOOL_TOKEN_LEN);
    an_tool_ctx_end(a);
    assert_null(an_tool_ctx_by_token(old, AN_TOOL_TOKEN_LEN));
    assert_string_equal(hit->key, "a");
    an_tool_ctx_put(hit);
    an_tool_ctx_end(b);
}

static void shared_path(void **state)
{
    (void)state;
    struct an_test ta = {.name = "a"}, tb = {.name = "b"};
    struct an_tool_ctx *a = an_tool_ctx_new(&ta), *b = an_tool_ctx_new(&tb);
    size_t n = 99;
    assert_null(an_tool_ctx_shared(&n)); /* no turn runs: no test's */
    assert_int_equal(n, 0);
    an_tools_turn_begins(a, NULL, 1);
    struct an_tool_ctx *one = an_tool_ctx_shared(&n);
    assert_ptr_equal(one, a);
    assert_int_equal(n, 1);
    an_tool_ctx_put(one);
    an_tools_turn_begins(b, NULL, 1);
    assert_null(an_tool_ctx_shared(&n)); /* two at once: cannot be attributed */
    assert_int_equal(n, 2);
    an_tools_turn_ends(a);
    one = an_tool_ctx_shared(&n);
    assert_ptr_equal(one, b);
    an_tool_ctx_put(one);
    an_tool_ctx_end(b); /* an ended test is in flight no more */
    assert_null(an_tool_ctx_shared(&n));
    assert_int_equal(n, 0);

    /* a refusal is the test's own, the first one wins, a turn clears it */
    an_tool_ctx_refuse(a, strdup("first"));
    an_tool_ctx_refuse(a, strdup("second"));
    char *m = an_tools_take_strict_miss(a);
    assert_string_equal(m, "first");
    free(m);
    assert_null(an_tools_take_strict_miss(a));
    an_tool_ctx_end(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(tokens),
        cmocka_unit_test(shared_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
