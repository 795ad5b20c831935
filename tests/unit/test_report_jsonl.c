/*
 * JSONL reporter: seed 002's events, exactly, for a run of every outcome
 * (pass, fail with a finding, timeout, error, skip, a repeated test) and for
 * dynamic tests; every line one JSON object whatever an agent wrote; write
 * errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "core/stats.h"
#include "support/files.h"
#include "support/results_fixture.h"

static char *report(const struct an_run_result *r, const char *name)
{
    char path[128];
    struct an_err err = AN_ERR_INIT;
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    assert_int_equal(an_report_jsonl(r, path, &err), AN_OK);
    return files_slurp(path);
}

/* Every line parses on its own as a JSON object; returns how many. */
static size_t objects(const char *s)
{
    size_t n = 0;
    for (const char *line = s; *line; n++) {
        const char *end = strchr(line, '\n');
        assert_non_null(end);
        json_error_t je;
        json_t *v = json_loadb(line, (size_t)(end - line), 0, &je);
        if (!json_is_object(v))
            fail_msg("line %zu is not a JSON object: %s", n + 1, je.text);
        json_decref(v);
        line = end + 1;
    }
    return n;
}

#define STREAM_HEAD                                                                                \
    "{\"type\":\"start\",\"ananke\":\"" ANANKE_VERSION "\","                                       \
    "\"started_at\":\"2025-01-17T07:46:40.000Z\","                                                 \
    "\"total\":6,\"config\":\"ananke.config.yaml\",\"runs_per_case\":3,"                           \
    "\"parallel\":1}\n"                                                                            \
    "{\"type\":\"result\",\"id\":\"T001\",\"name\":\"greeting\","                                  \
    "\"file\":\"cases.jsonl\",\"status\":\"passed\",\"tags\":[],\"skip_reason\":null,\"duration_"  \
    "ms\":812,"                                                                                    \
    "\"input\":\"Hello\",\"response\":\"Hi there\",\"messages_count\":3,"                          \
    "\"assertions\":[],\"judgements\":[],\"error\":null,\"metrics\":{\"tool_calls\":0,\"turns\":"  \
    "1,\"duration_ms\":812,\"ttft_ms\":null,\"usage\":null}}\n"                                    \
    "{\"type\":\"result\",\"id\":\"T002\",\"name\":\"T002\",\"file\":\"cases.jsonl\","             \
    "\"status\":\"failed\",\"tags\":[],\"skip_reason\":null,\"duration_ms\":40,\"input\":\"Bye | " \
    "now\","                                                                                       \
    "\"response\":\"Later.\",\"messages_count\":1,\"assertions\":[{\"type\":\"contains\","         \
    "\"passed\":false,\"message\":\"Output must contain \\\"ciao\\\"\","                           \
    "\"expected\":\"the text \\\"ciao\\\"\",\"actual\":null,\"detail\":null,\"turn\":null,"        \
    "\"location\":\"cases.jsonl:2:40\"}],\"judgements\":[],\"error\":null,\"metrics\":{\"tool_"    \
    "calls\":0,\"turns\":1,\"duration_ms\":40,\"ttft_ms\":null,\"usage\":null}}\n"                 \
    "{\"type\":\"result\",\"id\":\"slow agent\",\"name\":\"slow agent\","                          \
    "\"file\":\"slow.test.yaml\",\"status\":\"timeout\",\"tags\":[],\"skip_reason\":null,"         \
    "\"duration_ms\":500,"                                                                         \
    "\"input\":\"wait\",\"response\":null,\"messages_count\":1,"                                   \
    "\"assertions\":[],\"judgements\":[],\"error\":\"test timed out after 500 "                    \
    "ms\",\"metrics\":{\"tool_calls\":0,\"turns\":1,\"duration_ms\":500,\"ttft_ms\":null,"         \
    "\"usage\":null}}\n"                                                                           \
    "{\"type\":\"result\",\"id\":\"agent down\",\"name\":\"agent down\","                          \
    "\"file\":\"down.test.yaml\",\"status\":\"error\",\"tags\":[],\"skip_reason\":null,"           \
    "\"duration_ms\":3,"                                                                           \
    "\"input\":\"hi\",\"response\":null,\"messages_count\":1,"                                     \
    "\"assertions\":[],\"judgements\":[],\"error\":\"cannot reach http://127.0.0.1:9/agent: "      \
    "refused\",\"metrics\":{\"tool_calls\":0,\"turns\":1,\"duration_ms\":3,\"ttft_ms\":null,"      \
    "\"usage\":null}}\n"                                                                           \
    "{\"type\":\"result\",\"id\":\"T003\",\"name\":\"later\","                                     \
    "\"file\":\"cases.jsonl\",\"status\":\"skipped\",\"tags\":[],\"skip_reason\":null,\"duration_" \
    "ms\":0,"                                                                                      \
    "\"input\":null,\"response\":null,\"messages_count\":0,\"assertions\":[],"                     \
    "\"judgements\":[],\"error\":null}\n"                                                          \
    "{\"type\":\"result\",\"id\":\"flaky\",\"name\":\"flaky\","                                    \
    "\"file\":\"flaky.test.yaml\",\"status\":\"passed\",\"tags\":[],\"skip_reason\":null,"         \
    "\"duration_ms\":60,"                                                                          \
    "\"input\":\"roll\",\"response\":\"4\",\"messages_count\":1,"                                  \
    "\"assertions\":[],\"judgements\":[],\"error\":null,\"metrics\":{\"tool_calls\":0,\"turns\":"  \
    "1,\"duration_ms\":60,\"ttft_ms\":null,\"usage\":null}}\n"                                     \
    "{\"type\":\"stability\",\"id\":\"flaky\",\"name\":\"flaky\","                                 \
    "\"runs\":3,\"passed\":2,\"failed\":1,\"pass_rate\":0.6667,"                                   \
    "\"stable\":false,\"stability_class\":\"unstable\",\"avg_duration_ms\":20,"
#define STREAM_TAIL                                                                                \
    "}\n"                                                                                          \
    "{\"type\":\"summary\",\"total\":6,\"passed\":2,\"failed\":1,"                                 \
    "\"skipped\":1,\"errors\":1,\"timeouts\":1,\"expected_failures\":0,\"stale\":0,\"not_run\":0," \
    "\"pass_rate\":0.4,\"duration_ms\":1420,\"ended_at\":\"2025-01-17T07:46:41.420Z\","            \
    "\"flaky\":1,\"agent_calls\":7}\n"
static void test_events(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    char *s = report(&r, "run.jsonl");
    /* the flaky test's statistics: the json reporter's object, to 15
     * digits (its interval's digits are test_stats.c's to check) */
    double lo, hi;
    char stats[512], want[8192];
    an_stats_clopper_pearson(3, 2, 0.95, &lo, &hi);
    snprintf(stats, sizeof stats,
             "\"stats\":{\"runs\":3,\"passes\":2,\"pass_rate\":0.666666666666667,\"k\":3,"
             "\"pass_at_k\":1.0,\"pass_hat_k\":0.0,\"ci_low\":%.15g,\"ci_high\":%.15g,"
             "\"ci_method\":\"clopper-pearson\",\"flaky\":true}",
             lo, hi);
    snprintf(want, sizeof want, "%s%s%s", STREAM_HEAD, stats, STREAM_TAIL);
    assert_string_equal(s, want);
    assert_int_equal(objects(s), 9);
    free(s);
    an_run_result_release(&r);
}

static void test_hostile_text_and_empty_run(void **state)
{
    (void)state;
    struct an_run_result r = {0};
    struct an_test_result *t = fx_test(&r, "two\nlines", NULL, AN_STATUS_PASS, 5, 5);
    fx_turn(&t->transcript, "say \"hi\"", "line one\n{\"type\":\"summary\"} \xff\x1b[2J", 5, 5);
    char *s = report(&r, "hostile.jsonl");
    /* the agent's line break and a forged event stay inside one string */
    assert_int_equal(objects(s), 3);
    assert_non_null(strstr(s, "\"name\":\"two\\nlines\""));
    assert_non_null(strstr(s, "\"response\":\"line one\\n{\\\"type\\\":\\\"summary\\\"} "
                              "\xEF\xBF\xBD\\u001B[2J\""));
    assert_non_null(strstr(s, "\"input\":\"say \\\"hi\\\"\""));
    free(s);
    an_run_result_release(&r);

    /* nothing ran: a start and a summary, a rate of 0 */
    struct an_run_result empty = {0};
    s = report(&empty, "empty.jsonl");
    assert_int_equal(objects(s), 2);
    assert_non_null(strstr(s, "\n{\"type\":\"summary\",\"total\":0,\"passed\":0,\"failed\":0,"
                              "\"skipped\":0,\"errors\":0,\"timeouts\":0,\"expected_failures\":0,"
                              "\"stale\":0,\"not_run\":0,"
                              "\"pass_rate\":0.0,\"duration_ms\":0,\"ended_at\":null,"
                              "\"flaky\":0,\"agent_calls\":0}\n"));
    assert_non_null(strstr(s, "\"started_at\":null,"));
    free(s);
}

/* seed 002 "Dynamic Mode Output": turns, checkpoints and total_turns, only
 * on a dynamic test's result (the static ones above have none) */
static void test_dynamic(void **state)
{
    (void)state;
    struct an_run_result r = fx_dynamic_run();
    char *s = report(&r, "dynamic.jsonl");
    const char *first = strchr(s, '\n') + 1;
    assert_string_equal(
        first,
        "{\"type\":\"result\",\"id\":\"T004\",\"name\":\"expense coverage\","
        "\"file\":\"cases.jsonl\",\"status\":\"failed\",\"tags\":[],\"skip_reason\":null,"
        "\"duration_ms\":6800,"
        "\"input\":\"Help me file an expense\",\"response\":\"Created it.\","
        "\"messages_count\":3,\"assertions\":[{\"type\":\"dynamic.max_turns\",\"passed\":false,"
        "\"message\":\"max turns (3) exceeded without reaching all checkpoints\","
        "\"expected\":\"every required checkpoint reached\",\"actual\":\"missing: confirm\","
        "\"detail\":null,\"turn\":null,\"location\":\"cases.jsonl:4:1\"}],\"judgements\":[],"
        "\"error\":null,\"metrics\":{\"tool_calls\":1,\"turns\":3,\"duration_ms\":6800,\"ttft_ms\":"
        "null,\"usage\":null},"
        "\"turns\":[{\"turn\":1,\"input\":\"Help me file an expense\","
        "\"output\":\"What type of expense is it?\"},"
        "{\"turn\":2,\"input\":\"Client dinner, $250\",\"output\":\"Anything else?\"},"
        "{\"turn\":3,\"input\":\"No, that's all\",\"output\":\"Created it.\"}],"
        "\"checkpoints\":[{\"id\":\"ask_type\",\"reached_at_turn\":1,\"passed\":true,"
        "\"required\":true},"
        "{\"id\":\"call_create\",\"reached_at_turn\":3,\"passed\":true,\"required\":false},"
        "{\"id\":\"confirm\",\"reached_at_turn\":null,\"passed\":false,\"required\":true}],"
        "\"total_turns\":3}\n"
        "{\"type\":\"result\",\"id\":\"greets back\",\"name\":\"greets back\","
        "\"file\":\"dyn.test.yaml\",\"status\":\"passed\",\"tags\":[],\"skip_reason\":null,"
        "\"duration_ms\":500,"
        "\"input\":\"hi\",\"response\":\"Hello!\",\"messages_count\":1,\"assertions\":[],"
        "\"judgements\":[],\"error\":null,\"metrics\":{\"tool_calls\":0,\"turns\":1,\"duration_"
        "ms\":500,\"ttft_ms\":null,\"usage\":null},"
        "\"turns\":[{\"turn\":1,\"input\":\"hi\",\"output\":\"Hello!\"}],"
        "\"checkpoints\":[{\"id\":\"greet\",\"reached_at_turn\":1,\"passed\":true,"
        "\"required\":true}],\"total_turns\":1}\n"
        "{\"type\":\"summary\",\"total\":2,\"passed\":1,\"failed\":1,\"skipped\":0,"
        "\"errors\":0,\"timeouts\":0,\"expected_failures\":0,\"stale\":0,\"not_run\":0,\"pass_"
        "rate\":0.5,\"duration_ms\":9000,"
        "\"ended_at\":\"2025-01-17T07:46:49.000Z\",\"flaky\":0,\"agent_calls\":2}\n");
    assert_int_equal(objects(s), 4);
    free(s);

    /* a turn that was not run is not a turn of the conversation */
    fx_turn(&r.tests[1].transcript, "later", NULL, 0, 0)->status = AN_TURN_NOT_RUN;
    s = report(&r, "dynamic2.jsonl");
    assert_non_null(strstr(s, "\"turns\":[{\"turn\":1,\"input\":\"hi\",\"output\":\"Hello!\"}],"));
    assert_non_null(strstr(s, "\"required\":true}],\"total_turns\":1}\n{\"type\":\"summary\""));
    free(s);
    an_run_result_release(&r);
}

static void test_io_error(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fx_mixed_run();
    files_touch("blocker"); /* a file where a report's directory would have to be */
    snprintf(path, sizeof path, "%s/blocker/dir/run.jsonl", files_dir);
    assert_int_equal(an_report_jsonl(&r, path, &err), AN_EIO);
    assert_non_null(strstr(err.msg, path));
    files_assert_none_named(files_dir, ".tmp-");
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_events),
        cmocka_unit_test(test_hostile_text_and_empty_run),
        cmocka_unit_test(test_dynamic),
        cmocka_unit_test(test_io_error),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
