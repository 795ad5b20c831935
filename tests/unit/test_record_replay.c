/* Replay: which recorded verdict a judge takes, and what it makes of it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "run/replay_judge.h"

/* What run/judge.c shows an openai judge: an instruction, then the object. */
#define SHOWN(criteria)                                                                            \
    "You are a strict test validator. Answer {\"passed\": true}.\n\n{\n  \"test_mode\": "          \
    "\"validator\",\n  \"criteria\": " criteria ",\n  \"input\": \"hi\"\n}"

struct rec_row {
    const char *agent, *file;
    unsigned line, col;
    int turn, verdict;
    const char *shown;
};

static void fill(struct an_judgements *js, const struct rec_row *rows, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        struct an_judgement *g = an_judgements_add(js);
        g->agent = strdup(rows[i].agent);
        g->file = strdup(rows[i].file);
        g->line = rows[i].line;
        g->col = rows[i].col;
        g->turn = rows[i].turn;
        g->verdict = rows[i].verdict;
        g->shown = rows[i].shown ? strdup(rows[i].shown) : NULL;
        g->reason = strdup(rows[i].verdict > 0 ? "fine" : "not fine");
    }
}

static void test_find(void **state)
{
    (void)state;
    struct an_agent judge = {.name = "judge"};
    json_t *polite = json_string("be polite");
    struct an_check_item it = {
        .kind = AN_CHECK_AGENT,
        .value = polite,
        .loc = {"tests/cases.jsonl", 2, 5},
        .agent_name = "judge",
        .agent = &judge,
    };
    static const struct {
        struct rec_row rec;
        int turn;
        bool found;
        const char *why;
    } rows[] = {
        {{"judge", "tests/cases.jsonl", 2, 5, 0, 1, SHOWN("\"be polite\"")}, 0, true, NULL},
        /* another turn, line or column: not this check */
        {{"judge", "tests/cases.jsonl", 2, 5, 1, 1, NULL}, 0, false, "no verdict"},
        {{"judge", "tests/cases.jsonl", 2, 5, -1, 1, NULL}, 0, false, "no verdict"},
        {{"judge", "tests/cases.jsonl", 3, 5, 0, 1, NULL}, 0, false, "no verdict"},
        {{"judge", "tests/cases.jsonl", 2, 6, 0, 1, NULL}, 0, false, "no verdict"},
        /* the test level */
        {{"judge", "tests/cases.jsonl", 2, 5, -1, 0, NULL}, -1, true, NULL},
        /* one file named from another working directory */
        {{"judge", "./tests/cases.jsonl", 2, 5, 0, 1, NULL}, 0, true, NULL},
        {{"judge", "/home/ci/proj/tests/cases.jsonl", 2, 5, 0, 1, NULL}, 0, true, NULL},
        {{"judge", "cases.jsonl", 2, 5, 0, 1, NULL}, 0, true, NULL},
        {{"judge", "other-tests/cases.jsonl", 2, 5, 0, 1, NULL}, 0, false, "no verdict"},
        {{"judge", "tests/xcases.jsonl", 2, 5, 0, 1, NULL}, 0, false, "no verdict"},
        /* the same place, another judge or other criteria */
        {{"strict-judge", "tests/cases.jsonl", 2, 5, 0, 1, NULL}, 0, false, "another agent"},
        {{"judge", "tests/cases.jsonl", 2, 5, 0, 1, SHOWN("\"be rude\"")}, 0, false, "criteria"},
        {{"judge", "tests/cases.jsonl", 2, 5, 0, 1, SHOWN("{\"a\": 1}")}, 0, false, "criteria"},
        /* what it was shown cannot be read back: not compared */
        {{"judge", "tests/cases.jsonl", 2, 5, 0, 1, "[redacted]"}, 0, true, NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_judgements js = {0};
        fill(&js, &rows[i].rec, 1);
        const char *why = NULL;
        const struct an_judgement *g = an_replay_find_judgement(&js, &it, rows[i].turn, &why);
        if (rows[i].found != (g != NULL))
            fail_msg("row %zu: %s, expected %s (%s)", i, g ? "found" : "not found",
                     rows[i].found ? "found" : "not found", why ? why : "");
        if (!g && !strstr(why, rows[i].why))
            fail_msg("row %zu: why '%s', expected '%s'", i, why, rows[i].why);
        an_judgements_release(&js);
    }
    json_decref(polite);
}

static void test_last_verdict_wins(void **state)
{
    (void)state;
    struct an_agent judge = {.name = "judge"};
    struct an_check_item it = {
        .kind = AN_CHECK_AGENT, .loc = {"a.jsonl", 1, 1}, .agent_name = "judge", .agent = &judge};
    /* a checkpoint judged again in a later round of the same turn */
    static const struct rec_row recs[] = {
        {"judge", "a.jsonl", 1, 1, 0, 0, NULL},
        {"judge", "b.jsonl", 1, 1, 0, 0, NULL},
        {"judge", "a.jsonl", 1, 1, 0, 1, NULL},
        {"judge", "a.jsonl", 1, 1, 1, 0, NULL},
    };
    struct an_judgements js = {0};
    fill(&js, recs, sizeof recs / sizeof *recs);
    const char *why;
    const struct an_judgement *g = an_replay_find_judgement(&js, &it, 0, &why);
    assert_non_null(g);
    assert_int_equal(g->verdict, 1);
    assert_ptr_equal(g, &js.v[2]);
    an_judgements_release(&js);
}

/* A verdict as recorded, `negate` as written now: pass, fail, missing, broken. */
static void test_judges(void **state)
{
    (void)state;
    struct an_agent judge = {.name = "judge"};
    struct an_check_item items[] = {
        {.kind = AN_CHECK_AGENT, .loc = {"a.jsonl", 1, 10}, .agent_name = "judge", .agent = &judge},
        {.kind = AN_CHECK_AGENT,
         .loc = {"a.jsonl", 1, 20},
         .agent_name = "judge",
         .agent = &judge,
         .negate = true},
    };
    struct an_assert blk = {.checks = items, .nchecks = 2};
    struct an_scope s = {.text = "hello", .turn = 0};
    static const struct {
        int v1, v2; /* recorded verdicts (2: none recorded) */
        int rc;
        size_t failed;
    } rows[] = {
        {1, 0, AN_OK, 0},        /* accepted; rejected and negated: both pass */
        {0, 1, AN_OK, 2},        /* both fail */
        {1, 2, AN_ENOTFOUND, 0}, /* the second judge has no verdict */
        {-1, 1, AN_EPROTO, 0},   /* the judge gave no usable answer then */
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_judgements rec = {0}, js = {0};
        struct rec_row r1 = {"judge", "a.jsonl", 1, 10, 0, rows[i].v1, NULL};
        struct rec_row r2 = {"judge", "a.jsonl", 1, 20, 0, rows[i].v2, NULL};
        fill(&rec, &r1, 1);
        if (rows[i].v2 != 2)
            fill(&rec, &r2, 1);
        struct an_findings out = {0};
        struct an_err err = AN_ERR_INIT;
        size_t nf = 0;
        int rc = an_replay_judges(&blk, &s, &rec, &out, &nf, &js, &err);
        if (rc != rows[i].rc || nf != rows[i].failed || out.n != rows[i].failed)
            fail_msg("row %zu: rc %d failed %zu, expected rc %d failed %zu (%s)", i, rc, nf,
                     rows[i].rc, rows[i].failed, err.msg);
        if (rc == AN_ENOTFOUND) {
            assert_non_null(strstr(err.msg, "judge 'judge' (turn 1) has no recorded verdict"));
            assert_int_equal(err.line, 1);
            assert_int_equal(err.col, 20);
        }
        if (rows[i].failed) {
            assert_string_equal(out.v[0].kind, "check.agent");
            assert_non_null(strstr(out.v[0].assertion, "Judge 'judge' must accept the output"));
            assert_non_null(strstr(out.v[1].assertion, "must not accept"));
        }
        if (rc == AN_OK)
            assert_int_equal(js.n, 2); /* the verdicts go into the replay's result */
        an_findings_release(&out);
        an_judgements_release(&rec);
        an_judgements_release(&js);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_find),
        cmocka_unit_test(test_last_verdict_wins),
        cmocka_unit_test(test_judges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
