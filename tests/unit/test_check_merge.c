/* Inheritance target -> test -> turn (an_assert_for_turn / an_assert_for_test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"

/* Three levels as seed 000's example writes them, plus one require and one
 * must_match per level so we can see where each one goes. */
struct level_fixture {
    struct an_name forbid[1], allow[1];
    struct an_sequence seq[1];
    const char *seq_names[1];
    struct an_tool_rule require[1], forbid_calls[1];
    struct an_pattern must[1], must_not[1];
    struct an_regex *re[2];
    struct an_assert blk;
};

static void level_init(struct level_fixture *f, const char *tag, enum an_level lv, const char *file)
{
    memset(f, 0, sizeof *f);
    struct an_loc loc = {file, 1, 1};
    struct an_err err = AN_ERR_INIT;
    char src[64];
    snprintf(src, sizeof src, "must_%s", tag);
    assert_int_equal(an_regex_compile(&f->re[0], src, &loc, &err), 0);
    snprintf(src, sizeof src, "never_%s", tag);
    assert_int_equal(an_regex_compile(&f->re[1], src, &loc, &err), 0);
    f->forbid[0] = (struct an_name){tag, loc, lv};
    f->allow[0] = (struct an_name){tag, loc, lv};
    f->seq_names[0] = tag;
    f->seq[0] = (struct an_sequence){f->seq_names, 1, AN_SEQ_IN_ORDER, loc, lv};
    f->require[0] = (struct an_tool_rule){.name = tag, .loc = loc, .level = lv};
    f->forbid_calls[0] = (struct an_tool_rule){.name = tag, .loc = loc, .level = lv};
    f->must[0] = (struct an_pattern){f->re[0], lv, loc};
    f->must_not[0] = (struct an_pattern){f->re[1], lv, loc};
    f->blk = (struct an_assert){.loc = loc,
                                .forbid = f->forbid,
                                .nforbid = 1,
                                .allow = f->allow,
                                .nallow = 1,
                                .sequences = f->seq,
                                .nsequences = 1,
                                .require = f->require,
                                .nrequire = 1,
                                .forbid_calls = f->forbid_calls,
                                .nforbid_calls = 1,
                                .must_match = f->must,
                                .nmust_match = 1,
                                .must_not_match = f->must_not,
                                .nmust_not_match = 1};
}

static void level_release(struct level_fixture *f)
{
    an_regex_free(f->re[0]);
    an_regex_free(f->re[1]);
}

static struct an_limit set(int64_t v, enum an_level lv)
{
    return (struct an_limit){.state = AN_LIMIT_SET, .value = v, .level = lv};
}

static struct an_limit off(enum an_level lv)
{
    return (struct an_limit){.state = AN_LIMIT_DISABLED, .level = lv};
}

/* "a,b,c": the names of an array, in order. */
static void names_of(char *out, size_t cap, const struct an_assert *b, int which)
{
    out[0] = '\0';
    size_t len = 0, n = which == 0   ? b->nforbid
                        : which == 1 ? b->nrequire
                        : which == 2 ? b->nforbid_calls
                        : which == 3 ? b->nmust_match
                        : which == 4 ? b->nmust_not_match
                        : which == 5 ? b->nallow
                                     : b->nsequences;
    for (size_t i = 0; i < n; i++) {
        const char *s = which == 0   ? b->forbid[i].name
                        : which == 1 ? b->require[i].name
                        : which == 2 ? b->forbid_calls[i].name
                        : which == 3 ? b->must_match[i].re->src
                        : which == 4 ? b->must_not_match[i].re->src
                        : which == 5 ? b->allow[i].name
                                     : b->sequences[i].names[0];
        int w = snprintf(out + len, cap - len, "%s%s", i ? "," : "", s);
        assert_true(w > 0 && (size_t)w < cap - len);
        len += (size_t)w;
    }
}

static void test_arrays(void **state)
{
    (void)state;
    struct level_fixture tg, ts, tu;
    level_init(&tg, "target", AN_LEVEL_TARGET, "ananke.config.yaml");
    level_init(&ts, "test", AN_LEVEL_TEST, "t.test.yaml");
    level_init(&tu, "turn", AN_LEVEL_TURN, "t.test.yaml");

    struct an_assert turn, test;
    an_assert_for_turn(&turn, &tg.blk, &ts.blk, &tu.blk);
    an_assert_for_test(&test, &tg.blk, &ts.blk);

    static const struct {
        int which;
        const char *turn, *test;
    } rows[] = {
        {0, "target,test,turn", "target,test"},    /* forbid: accumulates */
        {1, "turn", "target,test"},                /* require: own level */
        {2, "target,test,turn", "target,test"},    /* forbid_calls */
        {3, "must_turn", "must_target,must_test"}, /* must_match: own level */
        {4, "never_target,never_test,never_turn", "never_target,never_test"}, /* must_not_match */
        {5, "target,test,turn", ""}, /* allow: the union, judged turn by turn only */
        {6, "turn", "target,test"},  /* sequence: own level, like require */
    };
    char got[256];
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        names_of(got, sizeof got, &turn, rows[i].which);
        assert_string_equal(got, rows[i].turn);
        names_of(got, sizeof got, &test, rows[i].which);
        assert_string_equal(got, rows[i].test);
    }
    /* Elements are copies that borrow the levels' strings and regexes. */
    assert_ptr_equal(turn.forbid[0].name, tg.forbid[0].name);
    assert_ptr_equal(turn.must_not_match[2].re, tu.re[1]);
    assert_ptr_not_equal(turn.forbid, tu.blk.forbid);
    assert_string_equal(turn.loc.file, "t.test.yaml");

    an_assert_release(&turn);
    an_assert_release(&test);
    assert_null(turn.forbid);
    assert_int_equal(turn.nforbid, 0);
    level_release(&tg);
    level_release(&ts);
    level_release(&tu);
}

/* Limits: the nearest level that sets or disables one wins. 0 = unset,
 * -1 = `false`. */
static void test_limits(void **state)
{
    (void)state;
    static const struct {
        int64_t target, test, turn;
        enum an_limit_state want_turn_state;
        int64_t want_turn;
        enum an_limit_state want_test_state;
        int64_t want_test;
    } rows[] = {
        {60000, 120000, 300000, AN_LIMIT_SET, 300000, AN_LIMIT_SET, 120000},
        {60000, 120000, 0, AN_LIMIT_SET, 120000, AN_LIMIT_SET, 120000},
        {60000, 0, 0, AN_LIMIT_SET, 60000, AN_LIMIT_SET, 60000},
        {0, 0, 5000, AN_LIMIT_SET, 5000, AN_LIMIT_UNSET, 0},
        {0, 0, 0, AN_LIMIT_UNSET, 0, AN_LIMIT_UNSET, 0},
        {60000, 0, -1, AN_LIMIT_DISABLED, 0, AN_LIMIT_SET, 60000},
        {60000, -1, 0, AN_LIMIT_DISABLED, 0, AN_LIMIT_DISABLED, 0},
        {60000, -1, 9000, AN_LIMIT_SET, 9000, AN_LIMIT_DISABLED, 0},
        {-1, 7000, 0, AN_LIMIT_SET, 7000, AN_LIMIT_SET, 7000},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        int64_t in[3] = {rows[i].target, rows[i].test, rows[i].turn};
        struct an_assert lv[3];
        memset(lv, 0, sizeof lv);
        for (int k = 0; k < 3; k++) {
            struct an_limit l = in[k] > 0   ? set(in[k], (enum an_level)k)
                                : in[k] < 0 ? off((enum an_level)k)
                                            : (struct an_limit){0};
            /* The three limits get distinct values to catch a mix-up. */
            lv[k].max_duration_ms = l;
            lv[k].max_idle_ms = l;
            lv[k].max_gap_ms = l;
            if (l.state == AN_LIMIT_SET) {
                lv[k].max_idle_ms.value = l.value + 1;
                lv[k].max_gap_ms.value = l.value + 2;
            }
        }
        struct an_assert turn, test;
        an_assert_for_turn(&turn, &lv[0], &lv[1], &lv[2]);
        an_assert_for_test(&test, &lv[0], &lv[1]);
        const struct an_limit *tl[3] = {&turn.max_duration_ms, &turn.max_idle_ms, &turn.max_gap_ms};
        const struct an_limit *sl[3] = {&test.max_duration_ms, &test.max_idle_ms, &test.max_gap_ms};
        for (int k = 0; k < 3; k++) {
            assert_int_equal(tl[k]->state, rows[i].want_turn_state);
            if (rows[i].want_turn_state == AN_LIMIT_SET)
                assert_int_equal(tl[k]->value, rows[i].want_turn + k);
            assert_int_equal(sl[k]->state, rows[i].want_test_state);
            if (rows[i].want_test_state == AN_LIMIT_SET)
                assert_int_equal(sl[k]->value, rows[i].want_test + k);
        }
        an_assert_release(&turn);
        an_assert_release(&test);
    }
}

/* `max_idle_ms: false` at the turn switches off an idle limit the test set:
 * the turn block yields no finding where the test's limit would. */
static void test_false_disables(void **state)
{
    (void)state;
    struct an_assert target = {.max_duration_ms = set(60000, AN_LEVEL_TARGET)};
    struct an_assert test = {.max_idle_ms = set(1000, AN_LEVEL_TEST)};
    struct an_assert turn = {.max_idle_ms = off(AN_LEVEL_TURN)};
    struct an_scope scope = {
        .calls = NULL, .ncalls = 0, .text = "", .start_ms = 0, .end_ms = 5000, .turn = 0};
    struct an_findings f = {0};

    struct an_assert merged;
    an_assert_for_turn(&merged, &target, &test, &turn);
    assert_int_equal(an_check(&merged, &scope, &f), 0);
    an_assert_release(&merged);

    an_assert_for_turn(&merged, &target, &test, NULL);
    assert_int_equal(an_check(&merged, &scope, &f), 1);
    assert_string_equal(f.v[0].kind, "timing.max_idle_ms");
    an_assert_release(&merged);
    an_findings_release(&f);
}

/* Seed 000: "charge_card must be called exactly once in the whole test",
 * declared at test level, is judged on the aggregate, not turn by turn;
 * a target-level forbid is judged in every turn. */
static void test_levels_judge_the_right_scope(void **state)
{
    (void)state;
    struct an_name forbid = {"delete_order", {"ananke.config.yaml", 6, 9}, AN_LEVEL_TARGET};
    struct an_assert target = {.forbid = &forbid, .nforbid = 1};
    struct an_tool_rule once = {.name = "charge_card",
                                .loc = {"t.test.yaml", 30, 11},
                                .level = AN_LEVEL_TEST,
                                .has_count = true,
                                .count = {.has_exact = true, .exact = 1}};
    struct an_assert test = {.require = &once, .nrequire = 1};
    struct an_assert turn_blk = {0};

    struct an_tool_call calls[3] = {
        {.name = (char *)"charge_card", .turn = 0},
        {.name = (char *)"charge_card", .turn = 1},
        {.name = (char *)"delete_order", .turn = 1},
    };
    struct an_scope turn0 = {
        .calls = calls, .ncalls = 1, .text = "", .start_ms = 0, .end_ms = 10, .turn = 0};
    struct an_scope turn1 = {
        .calls = calls + 1, .ncalls = 2, .text = "", .start_ms = 10, .end_ms = 20, .turn = 1};
    struct an_scope whole = {
        .calls = calls, .ncalls = 3, .text = "", .start_ms = 0, .end_ms = 20, .turn = -1};
    struct an_findings f = {0};

    struct an_assert merged;
    an_assert_for_turn(&merged, &target, &test, &turn_blk);
    assert_int_equal(an_check(&merged, &turn0, &f), 0); /* one charge: no finding per turn */
    assert_int_equal(an_check(&merged, &turn1, &f), 1); /* only the target's forbid */
    assert_string_equal(f.v[0].kind, "tools.forbid");
    assert_string_equal(f.v[0].actual, "1 call (#2)");
    assert_int_equal(f.v[0].turn, 1);
    assert_string_equal(f.v[0].file, "ananke.config.yaml");
    an_assert_release(&merged);

    an_assert_for_test(&merged, &target, &test);
    assert_int_equal(an_check(&merged, &whole, &f), 2);
    assert_string_equal(f.v[1].kind, "tools.forbid");
    assert_string_equal(f.v[1].actual, "1 call (#3)");
    assert_string_equal(f.v[2].kind, "tools.require");
    assert_string_equal(f.v[2].assertion, "Tool \"charge_card\" must be called");
    assert_string_equal(f.v[2].expected, "exactly 1 call");
    assert_string_equal(f.v[2].actual, "2 calls");
    assert_int_equal(f.v[2].turn, -1);
    an_assert_release(&merged);
    an_findings_release(&f);
}

/* Absent levels and empty blocks merge to an empty block that finds nothing. */
/* usage budgets are sums: a turn's own judge the turn; the test's or the
 * target's (nearest wins, false switches off) judge the whole test only */
static void test_usage_scopes(void **state)
{
    (void)state;
    struct an_assert target = {0}, test = {0}, turn = {0}, out;
    target.max_total_tokens = (struct an_limit){.state = AN_LIMIT_SET, .value = 1000};
    target.max_cost = (struct an_limit){.state = AN_LIMIT_SET, .amount = 0.5};
    test.max_cost = (struct an_limit){.state = AN_LIMIT_DISABLED};
    turn.max_output_tokens = (struct an_limit){.state = AN_LIMIT_SET, .value = 10};

    an_assert_for_turn(&out, &target, &test, &turn);
    assert_int_equal(out.max_total_tokens.state, AN_LIMIT_UNSET); /* not each turn's */
    assert_int_equal(out.max_cost.state, AN_LIMIT_UNSET);
    assert_int_equal(out.max_output_tokens.state, AN_LIMIT_SET);
    assert_int_equal(out.max_output_tokens.value, 10);
    an_assert_release(&out);

    an_assert_for_test(&out, &target, &test);
    assert_int_equal(out.max_total_tokens.state, AN_LIMIT_SET);
    assert_int_equal(out.max_total_tokens.value, 1000);
    assert_int_equal(out.max_cost.state, AN_LIMIT_DISABLED); /* the test said false */
    assert_int_equal(out.max_output_tokens.state, AN_LIMIT_UNSET);
    an_assert_release(&out);
}

static void test_empty(void **state)
{
    (void)state;
    struct an_assert empty = {0}, merged;
    struct an_tool_call call = {.name = (char *)"anything", .ts_ms = 99999};
    struct an_scope scope = {
        .calls = &call, .ncalls = 1, .text = "text", .start_ms = 0, .end_ms = 999999, .turn = 0};
    struct an_findings f = {0};

    an_assert_for_turn(&merged, NULL, NULL, NULL);
    assert_null(merged.forbid);
    assert_null(merged.require);
    assert_null(merged.must_match);
    assert_null(merged.loc.file);
    assert_int_equal(merged.max_idle_ms.state, AN_LIMIT_UNSET);
    assert_int_equal(an_check(&merged, &scope, &f), 0);
    an_assert_release(&merged);

    an_assert_for_test(&merged, &empty, &empty);
    assert_int_equal(merged.nforbid + merged.nrequire + merged.nforbid_calls + merged.nmust_match +
                         merged.nmust_not_match,
                     0);
    assert_int_equal(an_check(&merged, &scope, &f), 0);
    an_assert_release(&merged);
    an_assert_release(NULL);
    assert_int_equal(f.n, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_arrays),         cmocka_unit_test(test_limits),
        cmocka_unit_test(test_false_disables), cmocka_unit_test(test_levels_judge_the_right_scope),
        cmocka_unit_test(test_usage_scopes),   cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
