/* Token usage: summing the reports of a scope (absent is not zero), pricing
 * them from `prices:`, and the usage.* findings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "core/usage.h"

static void add_turns(struct an_transcript *t, size_t n)
{
    for (size_t i = 0; i < n; i++)
        an_transcript_add_turn(t, "user");
}

static void sums_what_was_said(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    add_turns(&t, 2);
    an_turn_add_usage(&t.turns[0], "m", 100, 20, -1, -1); /* total: in + out */
    an_turn_add_usage(&t.turns[1], "m", 50, -1, 70, -1);  /* output not said */
    struct an_usage_sum u;
    an_usage_sum(t.turns, 2, &u);
    assert_int_equal(u.reports, 2);
    assert_int_equal(u.turn_without, -1);
    assert_true(u.has_input);
    assert_int_equal(u.input, 150);
    assert_false(u.has_output);
    assert_true(u.has_total);
    assert_int_equal(u.total, 190);
    assert_false(u.has_cost);
    assert_string_equal(u.unpriced, "m");
    an_transcript_release(&t);
}

static void a_turn_without_reports_is_named(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    add_turns(&t, 3);
    an_turn_add_usage(&t.turns[0], NULL, 1, 1, 2, -1);
    t.turns[2].status = AN_TURN_NOT_RUN; /* never sent: not counted as silent */
    struct an_usage_sum u;
    an_usage_sum(t.turns, 3, &u);
    assert_int_equal(u.turn_without, 1);
    an_usage_sum(t.turns + 2, 1, &u);
    assert_int_equal(u.reports, 0);
    assert_int_equal(u.turn_without, -1);
    assert_false(u.has_total);
    an_transcript_release(&t);
}

static void prices_by_model_then_star_and_keeps_the_agents_cost(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    add_turns(&t, 1);
    an_turn_add_usage(&t.turns[0], "small", 1000000, 500000, -1, -1);
    an_turn_add_usage(&t.turns[0], "other", 1000000, 0, -1, -1);
    an_turn_add_usage(&t.turns[0], "small", 10, 10, -1, 0.25); /* the agent's own */
    an_turn_add_usage(&t.turns[0], "small", 10, -1, -1, -1);   /* cannot be priced */
    const struct an_price prices[] = {{"small", 1.0, 4.0, {0}}, {"*", 3.0, 3.0, {0}}};
    an_usage_price(t.turns[0].usage, prices, 2);
    json_t *u = t.turns[0].usage;
    assert_float_equal(json_real_value(json_object_get(json_array_get(u, 0), "cost")), 3.0, 1e-9);
    assert_float_equal(json_real_value(json_object_get(json_array_get(u, 1), "cost")), 3.0, 1e-9);
    assert_string_equal(json_string_value(json_object_get(json_array_get(u, 1), "cost_source")),
                        "prices");
    assert_float_equal(json_real_value(json_object_get(json_array_get(u, 2), "cost")), 0.25, 1e-9);
    assert_null(json_object_get(json_array_get(u, 3), "cost"));
    /* priced again with other prices (a replay): recomputed, the agent's stays */
    const struct an_price cheaper[] = {{"*", 0.0, 0.0, {0}}};
    an_usage_price(u, cheaper, 1);
    assert_float_equal(json_real_value(json_object_get(json_array_get(u, 0), "cost")), 0.0, 1e-9);
    assert_float_equal(json_real_value(json_object_get(json_array_get(u, 2), "cost")), 0.25, 1e-9);
    an_transcript_release(&t);
}

static void budget(struct an_limit *l, int64_t v)
{
    l->state = AN_LIMIT_SET;
    l->value = v;
    l->amount = (double)v;
}

static void findings_say_what_is_missing(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    add_turns(&t, 1);
    struct an_assert blk = {0};
    budget(&blk.max_total_tokens, 100);
    struct an_findings f = {0};
    struct an_scope s = an_scope_turn(&t, 0);
    assert_int_equal(an_check(&blk, &s, &f), 1);
    assert_string_equal(f.v[0].kind, "usage.max_total_tokens");
    assert_string_equal(f.v[0].actual, "no usage reported by the agent in this turn");
    an_turn_add_usage(&t.turns[0], "m", 80, 20, -1, -1);
    s = an_scope_turn(&t, 0);
    assert_int_equal(an_check(&blk, &s, &f), 0); /* 100 <= 100 */
    budget(&blk.max_output_tokens, 19);
    budget(&blk.max_cost, 1);
    assert_int_equal(an_check(&blk, &s, &f), 2);
    assert_string_equal(f.v[1].assertion, "Output tokens ≤ 19");
    assert_string_equal(f.v[1].actual, "20 tokens");
    assert_string_equal(f.v[2].kind, "usage.max_cost");
    assert_non_null(strstr(f.v[2].actual, "no price for model \"m\""));
    blk.max_output_tokens.state = AN_LIMIT_DISABLED;
    blk.max_cost.state = AN_LIMIT_UNSET;
    assert_int_equal(an_check(&blk, &s, &f), 0);
    an_findings_release(&f);
    an_transcript_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sums_what_was_said),
        cmocka_unit_test(a_turn_without_reports_is_named),
        cmocka_unit_test(prices_by_model_then_star_and_keeps_the_agents_cost),
        cmocka_unit_test(findings_say_what_is_missing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
