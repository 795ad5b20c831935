/* timing.max_duration_ms / max_idle_ms / max_gap_ms: {timeline, limits, findings}. */
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

/* A call of the timeline: its name and completion time (ts_ms). */
struct tc_call {
    const char *name;
    int64_t ts;
};

/* A limit as a case writes it: 0 = unset, -1 = `false`, else the value. */
struct timing_case {
    const char *title;
    int64_t start, end;
    struct tc_call calls[6];
    int64_t duration, idle, gap;
    struct want want[3];
};

#define OFF (-1)

static const struct timing_case cases[] = {
    /* max_duration_ms */
    {"duration under the limit", 1000, 2480, {{0}}, 1500, 0, 0, {{0}}},
    {"duration equal to the limit passes", 1000, 2480, {{0}}, 1480, 0, 0, {{0}}},
    {"duration over the limit",
     1000,
     2480,
     {{0}},
     1000,
     0,
     0,
     {{"timing.max_duration_ms", "Duration ≤ 1000ms", "≤ 1000ms", "1480ms", NULL}}},
    {"duration disabled by false is not checked", 1000, 999999, {{0}}, OFF, 0, 0, {{0}}},

    /* max_idle_ms */
    {"idle: no call, the whole scope is one gap",
     0,
     5000,
     {{0}},
     0,
     4000,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 4000ms", "≤ 4000ms", "5000ms between \"start\" and \"end\"",
       NULL}}},
    {"idle: no call, equal to the limit passes", 0, 5000, {{0}}, 0, 5000, 0, {{0}}},
    {"idle: start to the first tool",
     0,
     1300,
     {{"validate_cart", 1200}},
     0,
     1000,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 1000ms", "≤ 1000ms",
       "1200ms between \"start\" and \"validate_cart\"", NULL}}},
    {"idle: between tools",
     0,
     3000,
     {{"validate_cart", 500}, {"get_shipping_options", 2000}, {"charge_card", 2500}},
     0,
     1000,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 1000ms", "≤ 1000ms",
       "1500ms between \"validate_cart\" and \"get_shipping_options\"", NULL}}},
    {"idle: last tool to the end",
     0,
     3000,
     {{"search", 500}},
     0,
     2000,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 2000ms", "≤ 2000ms", "2500ms between \"search\" and \"end\"",
       NULL}}},
    {"idle: completion order, not call order",
     0,
     1000,
     {{"slow", 900}, {"fast", 100}},
     0,
     700,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 700ms", "≤ 700ms", "800ms between \"fast\" and \"slow\"",
       NULL}}},
    {"idle: the longest of several gaps is named",
     0,
     5000,
     {{"a", 1500}, {"b", 2000}, {"c", 4000}},
     0,
     1000,
     0,
     {{"timing.max_idle_ms", "Idle ≤ 1000ms", "≤ 1000ms", "2000ms between \"b\" and \"c\"",
       "longest of 2 gaps over the limit"}}},
    {"idle: every gap equal to the limit passes",
     0,
     3000,
     {{"a", 1000}, {"b", 2000}},
     0,
     1000,
     0,
     {{0}}},
    {"idle: disabled by false", 0, 90000, {{0}}, 0, OFF, 0, {{0}}},

    /* max_gap_ms (seed 001) */
    {"gap: no call passes", 0, 90000, {{0}}, 0, 0, 10, {{0}}},
    {"gap: one call passes whatever the edges", 0, 90000, {{"a", 80000}}, 0, 0, 10, {{0}}},
    {"gap: between two calls",
     0,
     9000,
     {{"validate_cart", 1000}, {"charge_card", 2500}},
     0,
     0,
     1000,
     {{"timing.max_gap_ms", "Gap between tool calls ≤ 1000ms", "≤ 1000ms",
       "1500ms between \"validate_cart\" and \"charge_card\"", NULL}}},
    {"gap: equal to the limit passes", 0, 9000, {{"a", 1000}, {"b", 2000}}, 0, 0, 1000, {{0}}},
    {"gap: calls of different tools are not numbered",
     0,
     9000,
     {{"search", 1000}, {"other", 1100}, {"search", 2600}},
     0,
     0,
     1000,
     {{"timing.max_gap_ms", "Gap between tool calls ≤ 1000ms", "≤ 1000ms",
       "1500ms between \"other\" and \"search\"", NULL}}},
    {"gap: same name on both sides",
     0,
     9000,
     {{"search", 1000}, {"search", 2600}},
     0,
     0,
     1000,
     {{"timing.max_gap_ms", "Gap between tool calls ≤ 1000ms", "≤ 1000ms",
       "1600ms between \"search\" #1 and \"search\" #2", NULL}}},
    {"gap: disabled by false", 0, 9000, {{"a", 0}, {"b", 9000}}, 0, 0, OFF, {{0}}},

    /* all three */
    {"all three limits fail in order",
     0,
     10000,
     {{"a", 1000}, {"b", 8000}},
     5000,
     3000,
     4000,
     {{"timing.max_duration_ms", "Duration ≤ 5000ms", "≤ 5000ms", "10000ms", NULL},
      {"timing.max_idle_ms", "Idle ≤ 3000ms", "≤ 3000ms", "7000ms between \"a\" and \"b\"", NULL},
      {"timing.max_gap_ms", "Gap between tool calls ≤ 4000ms", "≤ 4000ms",
       "7000ms between \"a\" and \"b\"", NULL}}},
};

static void expect_str(const char *title, const char *field, const char *want, const char *got)
{
    if (want == got || (want && got && strcmp(want, got) == 0))
        return;
    fail_msg("%s: %s\n  want: %s\n  got:  %s", title, field, want ? want : "(null)",
             got ? got : "(null)");
}

static struct an_limit limit(int64_t v, unsigned line)
{
    struct an_limit l = {.loc = {"t.test.yaml", line, 22}, .level = AN_LEVEL_TEST};
    if (v == OFF) {
        l.state = AN_LIMIT_DISABLED;
        l.value = 1; /* a value left over from parsing must not be used */
    } else if (v > 0) {
        l.state = AN_LIMIT_SET;
        l.value = v;
    }
    return l;
}

static void test_timing_table(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct timing_case *tc = &cases[k];
        struct an_tool_call calls[6];
        memset(calls, 0, sizeof calls);
        size_t n = 0;
        for (; n < 6 && tc->calls[n].name; n++) {
            calls[n].name = (char *)tc->calls[n].name; /* read only by an_check */
            calls[n].ts_ms = tc->calls[n].ts;
        }
        struct an_assert blk = {0};
        blk.max_duration_ms = limit(tc->duration, 50);
        blk.max_idle_ms = limit(tc->idle, 51);
        blk.max_gap_ms = limit(tc->gap, 52);
        struct an_scope scope = {.calls = calls,
                                 .ncalls = n,
                                 .text = "",
                                 .start_ms = tc->start,
                                 .end_ms = tc->end,
                                 .turn = 3};
        struct an_findings f = {0};
        size_t added = an_check(&blk, &scope, &f);
        size_t nw = 0;
        while (nw < 3 && tc->want[nw].kind)
            nw++;
        if (f.n != nw || added != nw) {
            for (size_t i = 0; i < f.n; i++)
                print_message("  [%s] %s | %s | %s\n", f.v[i].kind, f.v[i].assertion, f.v[i].actual,
                              f.v[i].detail ? f.v[i].detail : "-");
            fail_msg("%s: want %zu findings, got %zu", tc->title, nw, f.n);
        }
        for (size_t i = 0; i < nw; i++) {
            expect_str(tc->title, "kind", tc->want[i].kind, f.v[i].kind);
            expect_str(tc->title, "assertion", tc->want[i].assertion, f.v[i].assertion);
            expect_str(tc->title, "expected", tc->want[i].expected, f.v[i].expected);
            expect_str(tc->title, "actual", tc->want[i].actual, f.v[i].actual);
            expect_str(tc->title, "detail", tc->want[i].detail, f.v[i].detail);
            assert_int_equal(f.v[i].turn, 3);
            assert_string_equal(f.v[i].file, "t.test.yaml");
            assert_int_equal(f.v[i].col, 22);
        }
        an_findings_release(&f);
    }
}

/* Each limit's finding points at the limit that was broken. */
static void test_locations(void **state)
{
    (void)state;
    struct an_assert blk = {0};
    blk.max_duration_ms = limit(10, 50);
    blk.max_idle_ms = limit(10, 51);
    blk.max_gap_ms = limit(10, 52);
    struct an_tool_call calls[2] = {{.name = (char *)"a", .ts_ms = 0},
                                    {.name = (char *)"b", .ts_ms = 100}};
    struct an_scope scope = {
        .calls = calls, .ncalls = 2, .text = "", .start_ms = 0, .end_ms = 100, .turn = -1};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 3);
    for (unsigned i = 0; i < 3; i++) {
        assert_int_equal(f.v[i].line, 50 + i);
        assert_int_equal(f.v[i].turn, -1);
    }
    an_findings_release(&f);
}

/* max_ttft_ms / max_first_event_ms: first_* 0 = none came; turn -1 = the
 * whole test. */
static void test_first_table(void **state)
{
    (void)state;
    static const struct {
        const char *title;
        int64_t first_event, first_text;
        int turn;
        int64_t ttft, first_ev;
        struct want want[2];
    } rows[] = {
        {"ttft under the limit", 1050, 1200, 3, 500, 0, {{0}}},
        {"ttft equal to the limit passes", 1050, 1500, 3, 500, 0, {{0}}},
        {"ttft over the limit",
         1050,
         1800,
         3,
         500,
         0,
         {{"timing.max_ttft_ms", "Time to first text ≤ 500ms", "≤ 500ms", "800ms", NULL}}},
        {"ttft: a turn with no text fails saying so",
         1050,
         0,
         3,
         500,
         0,
         {{"timing.max_ttft_ms", "Time to first text ≤ 500ms", "≤ 500ms",
           "no assistant text in the turn", NULL}}},
        {"ttft disabled by false is not checked", 1050, 0, 3, OFF, 0, {{0}}},
        {"ttft is not judged on the whole test", 1050, 0, -1, 500, 0, {{0}}},
        {"first event under the limit", 1050, 0, 3, 0, 100, {{0}}},
        {"first event over the limit",
         1250,
         1300,
         3,
         0,
         100,
         {{"timing.max_first_event_ms", "Time to first event ≤ 100ms", "≤ 100ms", "250ms", NULL}}},
        {"first event: none came",
         0,
         0,
         3,
         0,
         100,
         {{"timing.max_first_event_ms", "Time to first event ≤ 100ms", "≤ 100ms",
           "no protocol event in the turn", NULL}}},
        {"both over: ttft first",
         1250,
         1900,
         3,
         500,
         100,
         {{"timing.max_ttft_ms", "Time to first text ≤ 500ms", "≤ 500ms", "900ms", NULL},
          {"timing.max_first_event_ms", "Time to first event ≤ 100ms", "≤ 100ms", "250ms", NULL}}},
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        struct an_assert blk = {0};
        blk.max_ttft_ms = limit(rows[k].ttft, 53);
        blk.max_first_event_ms = limit(rows[k].first_ev, 54);
        struct an_scope scope = {.text = "",
                                 .start_ms = 1000,
                                 .end_ms = 3000,
                                 .first_event_ms = rows[k].first_event,
                                 .first_text_ms = rows[k].first_text,
                                 .turn = rows[k].turn};
        struct an_findings f = {0};
        size_t added = an_check(&blk, &scope, &f);
        size_t nw = 0;
        while (nw < 2 && rows[k].want[nw].kind)
            nw++;
        if (f.n != nw || added != nw)
            fail_msg("%s: want %zu findings, got %zu", rows[k].title, nw, f.n);
        for (size_t i = 0; i < nw; i++) {
            expect_str(rows[k].title, "kind", rows[k].want[i].kind, f.v[i].kind);
            expect_str(rows[k].title, "assertion", rows[k].want[i].assertion, f.v[i].assertion);
            expect_str(rows[k].title, "expected", rows[k].want[i].expected, f.v[i].expected);
            expect_str(rows[k].title, "actual", rows[k].want[i].actual, f.v[i].actual);
            /* each finding points at its own limit */
            assert_int_equal(f.v[i].line, strstr(f.v[i].kind, "first_event") ? 54 : 53);
        }
        an_findings_release(&f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timing_table),
        cmocka_unit_test(test_locations),
        cmocka_unit_test(test_first_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
