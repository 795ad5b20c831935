/*
 * JSON reporter: read the written file back with jansson and check that the
 * result model survives (what `ananke merge` will rely on), a dynamic
 * test's checkpoints included.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/report.h"
#include "core/stats.h"
#include "support/files.h"
#include "support/results_fixture.h"

#define T0 1737100000000LL

static struct an_run_result fixture(void)
{
    struct an_run_result r = {0};
    struct an_test_result *t;
    struct an_turn_rec *tr;

    r.start_ms = T0;
    r.end_ms = T0 + 1420;
    r.config_path = strdup("ananke.config.yaml");

    t = fx_test(&r, "pays once", "tests/checkout.test.yaml", AN_STATUS_PASS, T0, T0 + 812);
    fx_vars(t, (const char *const[]){"TOKEN"}, 1);
    tr = fx_turn(&t->transcript, "buy", "bad \xff byte", 0, 0);
    an_turn_add_frame(tr, T0 + 5, "{\"type\":\"RUN_STARTED\"}", 22);
    fx_call(&t->transcript, 0, "search", json_pack("{s:s}", "q", "shoes"), NULL);

    t = fx_test(&r, "refund twice", "tests/refund.test.yaml", AN_STATUS_FAIL, T0 + 900, T0 + 1000);
    an_findings_add(&t->findings, "tools.forbid_calls", 1, "tests/refund.test.yaml", 14, 9,
                    "Tool \"charge_card\" call forbidden", "no call", "1 call", NULL);
    an_findings_add(&t->findings, "timing.max_duration_ms", -1, "tests/refund.test.yaml", 3, 0,
                    "Duration constraint", "\xe2\x89\xa4 50ms", "100ms", "slow");
    an_findings_add(&t->findings, "text.must_match", 0, NULL, 0, 0, "Text must match", NULL, NULL,
                    NULL);

    t = fx_test(&r, "agent down", "tests/refund.test.yaml", AN_STATUS_ERROR, T0 + 1000, T0 + 1400);
    fx_error(t, AN_EHOOK, -1, "hook 1 failed: exit 3");
    return r;
}

static json_t *write_and_read(const struct an_run_result *r, const char *name, char **text)
{
    char path[128];
    struct an_err err = AN_ERR_INIT;
    json_error_t je;
    snprintf(path, sizeof path, "%s/%s", files_dir, name);
    assert_int_equal(an_report_json(r, path, &err), AN_OK);
    json_t *v = json_load_file(path, 0, &je);
    if (!v)
        fail_msg("report is not valid JSON: %s at %d:%d", je.text, je.line, je.column);
    if (text)
        *text = files_slurp(path);
    return v;
}

static void test_fields(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    json_t *v = write_and_read(&r, "result.json", NULL);
    assert_string_equal(json_string_value(json_object_get(v, "ananke")), ANANKE_VERSION);
    assert_int_equal(json_integer_value(json_object_get(v, "started_ms")), T0);
    assert_int_equal(json_integer_value(json_object_get(v, "ended_ms")), T0 + 1420);
    assert_int_equal(json_integer_value(json_object_get(v, "duration_ms")), 1420);
    assert_string_equal(json_string_value(json_object_get(v, "config")), "ananke.config.yaml");
    json_int_t total, passed, failed, errors, skipped, not_run, xfailed, stale, inconclusive, saved,
        flaky, calls;
    assert_int_equal(
        json_unpack(
            json_object_get(v, "summary"), "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I!}",
            "total", &total, "passed", &passed, "failed", &failed, "errors", &errors, "skipped",
            &skipped, "inconclusive", &inconclusive, "expected_failures", &xfailed, "stale", &stale,
            "not_run", &not_run, "runs_saved", &saved, "flaky", &flaky, "agent_calls", &calls),
        0);
    assert_int_equal(inconclusive, 0);
    assert_int_equal(saved, 0);
    assert_int_equal(flaky, 0);
    assert_int_equal(calls, 3); /* one run of each test */
    assert_true(json_is_null(json_object_get(json_array_get(json_object_get(v, "tests"), 0),
                                             "stats"))); /* not repeated */
    assert_int_equal(xfailed, 0);
    assert_int_equal(stale, 0);
    assert_int_equal(skipped, 0);
    assert_int_equal(not_run, 0);
    assert_int_equal(total, 3);
    assert_int_equal(passed, 1);
    assert_int_equal(failed, 1);
    assert_int_equal(errors, 1);

    json_t *tests = json_object_get(v, "tests");
    assert_int_equal(json_array_size(tests), 3);

    json_t *t0 = json_array_get(tests, 0);
    assert_string_equal(json_string_value(json_object_get(t0, "name")), "pays once");
    assert_string_equal(json_string_value(json_object_get(t0, "status")), "pass");
    assert_int_equal(json_integer_value(json_object_get(t0, "start_ms")), T0);
    assert_int_equal(json_integer_value(json_object_get(t0, "duration_ms")), 812);
    assert_true(json_is_null(json_object_get(t0, "error")));
    assert_int_equal(json_array_size(json_object_get(t0, "findings")), 0);
    assert_string_equal(json_string_value(json_array_get(json_object_get(t0, "variables"), 0)),
                        "TOKEN");
    json_t *tr = json_object_get(t0, "transcript");
    json_t *turn = json_array_get(json_object_get(tr, "turns"), 0);
    /* invalid UTF-8 from the agent arrives as U+FFFD, and frames stay out */
    assert_string_equal(json_string_value(json_object_get(turn, "text")), "bad \xEF\xBF\xBD byte");
    assert_null(json_object_get(turn, "frames"));
    json_t *call = json_array_get(json_object_get(tr, "tool_calls"), 0);
    assert_string_equal(json_string_value(json_object_get(call, "name")), "search");
    assert_string_equal(json_string_value(json_object_get(json_object_get(call, "args"), "q")),
                        "shoes");

    json_t *t1 = json_array_get(tests, 1);
    assert_string_equal(json_string_value(json_object_get(t1, "status")), "fail");
    json_t *fs = json_object_get(t1, "findings");
    assert_int_equal(json_array_size(fs), 3);
    json_t *f0 = json_array_get(fs, 0);
    assert_string_equal(json_string_value(json_object_get(f0, "kind")), "tools.forbid_calls");
    assert_int_equal(json_integer_value(json_object_get(f0, "turn")), 2); /* 1-based */
    assert_string_equal(json_string_value(json_object_get(f0, "assertion")),
                        "Tool \"charge_card\" call forbidden");
    assert_string_equal(json_string_value(json_object_get(f0, "expected")), "no call");
    assert_string_equal(json_string_value(json_object_get(f0, "actual")), "1 call");
    assert_true(json_is_null(json_object_get(f0, "detail")));
    assert_string_equal(json_string_value(json_object_get(f0, "location")),
                        "tests/refund.test.yaml:14:9");
    json_t *f1 = json_array_get(fs, 1);
    assert_true(json_is_null(json_object_get(f1, "turn")));
    assert_string_equal(json_string_value(json_object_get(f1, "expected")), "\xe2\x89\xa4 50ms");
    assert_string_equal(json_string_value(json_object_get(f1, "detail")), "slow");
    assert_string_equal(json_string_value(json_object_get(f1, "location")),
                        "tests/refund.test.yaml:3");
    json_t *f2 = json_array_get(fs, 2);
    assert_int_equal(json_integer_value(json_object_get(f2, "turn")), 1);
    assert_true(json_is_null(json_object_get(f2, "location")));
    assert_true(json_is_null(json_object_get(f2, "expected")));

    json_t *t2 = json_array_get(tests, 2);
    assert_string_equal(json_string_value(json_object_get(t2, "status")), "error");
    json_t *e = json_object_get(t2, "error");
    assert_string_equal(json_string_value(json_object_get(e, "code")), "AN_EHOOK");
    assert_string_equal(json_string_value(json_object_get(e, "message")), "hook 1 failed: exit 3");
    assert_true(json_is_null(json_object_get(e, "turn")));
    assert_int_equal(json_integer_value(json_object_get(t2, "duration_ms")), 400);

    json_decref(v);
    an_run_result_release(&r);
}

static void test_layout(void **state)
{
    (void)state;
    struct an_run_result r = fixture();
    char *text = NULL;
    json_t *v = write_and_read(&r, "layout.json", &text);
    /* two-space indent, keys in the documented order, one trailing newline */
    const char *head = "{\n  \"ananke\": \"" ANANKE_VERSION "\",\n  \"started_ms\": ";
    assert_true(!strncmp(text, head, strlen(head)));
    const char *keys[] = {"\"ananke\"",   "\"started_ms\"", "\"ended_ms\"",  "\"duration_ms\"",
                          "\"config\"",   "\"summary\"",    "\"tests\"",     "\"name\"",
                          "\"file\"",     "\"status\"",     "\"start_ms\"",  "\"duration_ms\"",
                          "\"findings\"", "\"error\"",      "\"variables\"", "\"transcript\""};
    const char *p = text;
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *q = strstr(p, keys[i]);
        if (!q)
            fail_msg("key %s missing or out of order", keys[i]);
        p = q + 1;
    }
    size_t n = strlen(text);
    assert_true(n > 2 && text[n - 1] == '\n' && text[n - 2] == '}');
    free(text);
    json_decref(v);

    /* the in-memory model is the same document */
    json_t *m = an_run_result_to_json(&r);
    v = write_and_read(&r, "again.json", NULL);
    assert_true(json_equal(m, v));
    json_decref(m);
    json_decref(v);
    an_run_result_release(&r);
}

static void test_io_error(void **state)
{
    (void)state;
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result r = fixture();
    files_touch("blocker"); /* a file where a report's directory would have to be */
    /* a directory that does not exist yet is made, as html:DIR's is */
    snprintf(path, sizeof path, "%s/made/on/demand/result.json", files_dir);
    assert_int_equal(an_report_json(&r, path, &err), AN_OK);
    assert_int_equal(access(path, R_OK), 0);
    snprintf(path, sizeof path, "%s/blocker/dir/result.json", files_dir);
    assert_int_equal(an_report_json(&r, path, &err), AN_EIO);
    assert_non_null(strstr(err.msg, path));
    assert_non_null(strstr(err.msg, "Not a directory"));
    /* nothing half-written is left behind in the directory that exists */
    files_assert_none_named(files_dir, ".tmp-");
    an_run_result_release(&r);
}

/* --repeat auto: an INCONCLUSIVE test and one decided in a single run
 * keep their status, runs and max_runs through merge's reader, and the
 * run's adaptive options and savings with them. */
static void test_inconclusive_round_trip(void **state)
{
    (void)state;
    struct an_run_result r = {.start_ms = T0,
                              .end_ms = T0 + 10,
                              .adaptive = true,
                              .max_repeats = 20,
                              .confidence = 0.9,
                              .pass_rate = 0.9};
    static const struct {
        const char *name;
        enum an_status st;
        unsigned runs, passes;
    } rows[] = {{"undecided", AN_STATUS_INCONCLUSIVE, 20, 16},
                {"failed at once", AN_STATUS_FAIL, 1, 0}};
    for (size_t i = 0; i < 2; i++) {
        struct an_test_result *t = an_run_result_add(&r);
        t->name = strdup(rows[i].name);
        t->status = rows[i].st;
        t->error_turn = -1;
        an_transcript_init(&t->transcript);
        t->runs = rows[i].runs;
        t->passes = rows[i].passes;
        t->max_runs = 20;
        t->attempts = calloc(t->runs, sizeof *t->attempts);
        for (unsigned k = 0; k < t->runs; k++)
            t->attempts[k].status = k < t->passes ? AN_STATUS_PASS : AN_STATUS_FAIL;
    }
    json_t *v = write_and_read(&r, "adaptive.json", NULL);
    json_t *sum = json_object_get(v, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "inconclusive")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "runs_saved")), 19);
    json_t *t0 = json_array_get(json_object_get(v, "tests"), 0);
    assert_string_equal(json_string_value(json_object_get(t0, "status")), "inconclusive");
    json_decref(v);

    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result back = {0};
    snprintf(path, sizeof path, "%s/adaptive.json", files_dir);
    assert_int_equal(an_run_result_load(&back, path, &err), AN_OK);
    assert_int_equal(back.ntests, 2);
    assert_int_equal(back.tests[0].status, AN_STATUS_INCONCLUSIVE);
    assert_int_equal(back.tests[0].runs, 20);
    assert_int_equal(back.tests[1].runs, 1); /* a single adaptive run is kept too */
    assert_int_equal(back.tests[1].max_runs, 20);
    assert_true(back.adaptive);
    assert_int_equal(back.max_repeats, 20);
    struct an_counts c = an_run_result_counts(&back);
    assert_int_equal(c.inconclusive, 1);
    assert_true(an_counts_failing(&c));
    c.failed = 0;
    assert_true(an_counts_failing(&c)); /* inconclusive alone fails the run */
    c.inconclusive = 0;
    assert_false(an_counts_failing(&c));
    assert_int_equal(an_run_result_runs_saved(&back), 19);
    an_run_result_release(&back);
    an_run_result_release(&r);

    /* --expected-failures lists it: undecided is no verdict, so neither
     * an expected failure nor a stale one */
    char *names[] = {"undecided"}, *reasons[] = {NULL}, *where[] = {"x:1:1"};
    bool used[] = {false};
    struct an_expected list = {
        .names = names, .reasons = reasons, .where = where, .used = used, .n = 1};
    struct an_test_result und = {.name = "undecided", .status = AN_STATUS_INCONCLUSIVE};
    an_expected_apply(&list, &und);
    assert_true(used[0]);
    assert_int_equal(und.expect, AN_EXPECT_NONE);

    /* an untrusted file: a cap below the runs, or out of range, is no cap,
     * so runs_saved never counts what did not happen */
    snprintf(path, sizeof path, "%s/hostile.json", files_dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"ananke\":\"0\",\"tests\":["
          "{\"name\":\"a\",\"status\":\"inconclusive\",\"runs\":3,\"passes\":1,"
          "\"max_runs\":2,\"attempts\":[{\"status\":\"pass\"},{\"status\":\"fail\"},"
          "{\"status\":\"fail\"}]},"
          "{\"name\":\"b\",\"status\":\"fail\",\"runs\":1,\"passes\":0,"
          "\"max_runs\":99999999999,\"attempts\":[{\"status\":\"fail\"}]},"
          "{\"name\":\"c\",\"status\":\"pass\",\"runs\":1,\"passes\":1,"
          "\"max_runs\":-5,\"attempts\":[{\"status\":\"pass\"}]}]}",
          f);
    fclose(f);
    struct an_run_result h = {0};
    assert_int_equal(an_run_result_load(&h, path, &err), AN_OK);
    assert_int_equal(h.tests[0].status, AN_STATUS_INCONCLUSIVE);
    assert_int_equal(h.tests[0].max_runs, 0);
    assert_int_equal(h.tests[1].max_runs, 0);
    assert_int_equal(h.tests[2].max_runs, 0);
    assert_int_equal(an_run_result_runs_saved(&h), 0);
    an_run_result_release(&h);
}

static void test_skip_round_trip(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    json_t *v = write_and_read(&r, "mixed.json", NULL);
    json_t *sum = json_object_get(v, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "skipped")), 1);
    assert_int_equal(json_integer_value(json_object_get(sum, "errors")), 2);
    json_t *skip = json_array_get(json_object_get(v, "tests"), 4);
    assert_string_equal(json_string_value(json_object_get(skip, "status")), "skip");
    assert_string_equal(json_string_value(json_object_get(skip, "id")), "T003");
    assert_int_equal(json_integer_value(json_object_get(skip, "duration_ms")), 0);
    assert_int_equal(json_integer_value(json_object_get(skip, "runs")), 0);
    assert_true(json_is_null(json_object_get(skip, "pass_rate")));
    assert_true(json_is_null(json_object_get(skip, "stability")));
    /* a YAML test has no id */
    json_t *yaml = json_array_get(json_object_get(v, "tests"), 2);
    assert_true(json_is_null(json_object_get(yaml, "id")));
    json_decref(v);

    /* `ananke merge` reads it back as it was */
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result back = {0};
    snprintf(path, sizeof path, "%s/mixed.json", files_dir);
    assert_int_equal(an_run_result_load(&back, path, &err), AN_OK);
    assert_int_equal(back.ntests, 6);
    static const enum an_status want[] = {AN_STATUS_PASS,  AN_STATUS_FAIL, AN_STATUS_ERROR,
                                          AN_STATUS_ERROR, AN_STATUS_SKIP, AN_STATUS_PASS};
    for (size_t i = 0; i < 6; i++)
        assert_int_equal(back.tests[i].status, want[i]);
    assert_string_equal(back.tests[4].id, "T003");
    assert_string_equal(back.tests[0].id, "T001");
    assert_null(back.tests[2].id);
    struct an_counts c = an_run_result_counts(&back);
    assert_int_equal(c.skipped, 1);
    assert_int_equal(c.passed, 2);
    assert_int_equal(c.timeouts, 1);
    /* and writes the same report again */
    json_t *a = an_run_result_to_json(&r), *b = an_run_result_to_json(&back);
    json_t *ta = json_object_get(a, "tests"), *tb = json_object_get(b, "tests");
    for (size_t i = 0; i < 6; i++) {
        json_t *x = json_array_get(ta, i), *y = json_array_get(tb, i);
        const char *keys[] = {"name", "id",     "status",    "duration_ms",
                              "runs", "passes", "pass_rate", "stability"};
        for (size_t k = 0; k < sizeof keys / sizeof *keys; k++)
            if (!json_equal(json_object_get(x, keys[k]), json_object_get(y, keys[k])))
                fail_msg("test %zu: '%s' differs after the round trip", i, keys[k]);
    }
    json_decref(a);
    json_decref(b);
    an_run_result_release(&back);
    an_run_result_release(&r);
}

/* A repeated test's "stats" (docs/statistics.md): exactly these keys, the
 * values of core/stats.c (the fixture's 2 of 3 runs: pass^2 = C(2,2)/C(3,2)
 * = 1/3, pass@2 = 1, Clopper-Pearson at 90 % as in tests/unit/test_stats.c
 * is checked there; here that it is the one written), and `ananke merge`
 * reads the run's options back so the same stats come out again. */
static void test_stats_round_trip(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    r.pass_k = 2;
    r.confidence = 0.9;
    r.fail_on_flaky = true;
    json_t *v = write_and_read(&r, "stats.json", NULL);
    json_t *flaky = json_array_get(json_object_get(v, "tests"), 5);
    json_t *st = json_object_get(flaky, "stats");
    json_int_t runs, passes, k;
    double rate, at, hat, lo, hi;
    const char *method;
    int isflaky;
    assert_int_equal(json_unpack(st, "{s:I,s:I,s:F,s:I,s:F,s:F,s:F,s:F,s:s,s:b!}", "runs", &runs,
                                 "passes", &passes, "pass_rate", &rate, "k", &k, "pass_at_k", &at,
                                 "pass_hat_k", &hat, "ci_low", &lo, "ci_high", &hi, "ci_method",
                                 &method, "flaky", &isflaky),
                     0);
    assert_int_equal(runs, 3);
    assert_int_equal(passes, 2);
    assert_int_equal(k, 2);
    assert_true(fabs(hat - 1.0 / 3) < 1e-15 && at == 1.0);
    assert_string_equal(method, "clopper-pearson");
    double want_lo, want_hi;
    an_stats_clopper_pearson(3, 2, 0.9, &want_lo, &want_hi);
    assert_true(fabs(lo - want_lo) < 1e-14 && fabs(hi - want_hi) < 1e-14);
    assert_true(lo > 0.13 && lo < 0.14); /* 0.1353, by hand: 3p^2(1-p) + p^3 = 0.05 */
    assert_true(isflaky);
    json_t *sum = json_object_get(v, "summary");
    assert_int_equal(json_integer_value(json_object_get(sum, "flaky")), 1);
    /* 5 tests ran, one of them 3 times; the skipped one costs nothing */
    assert_int_equal(json_integer_value(json_object_get(sum, "agent_calls")), 7);
    json_t *opt = json_object_get(v, "options");
    assert_int_equal(json_integer_value(json_object_get(opt, "pass_k")), 2);
    assert_true(json_real_value(json_object_get(opt, "confidence")) == 0.9);
    assert_true(json_is_true(json_object_get(opt, "fail_on_flaky")));
    /* not repeated: null */
    assert_true(
        json_is_null(json_object_get(json_array_get(json_object_get(v, "tests"), 0), "stats")));

    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result back = {0};
    snprintf(path, sizeof path, "%s/stats.json", files_dir);
    assert_int_equal(an_run_result_load(&back, path, &err), AN_OK);
    assert_int_equal(back.pass_k, 2);
    assert_true(back.confidence == 0.9 && back.fail_on_flaky);
    json_t *again = an_run_result_to_json(&back);
    assert_true(json_equal(
        json_object_get(json_array_get(json_object_get(again, "tests"), 5), "stats"), st));
    assert_true(json_equal(json_object_get(again, "summary"), sum));
    json_decref(again);
    json_decref(v);
    an_run_result_release(&back);
    an_run_result_release(&r);
}

/* A finding kind the reader has no static string for (task_state, a
 * registered check kind's) comes back as written; a name that is not a
 * kind's shape comes back as "other". */
static void test_finding_kinds_round_trip(void **state)
{
    (void)state;
    struct an_run_result r = fx_mixed_run();
    static const char *const kinds[] = {"check.task_state", "check.word_count", "Bad Kind!",
                                        "tools.forbid"};
    static const char *const want[] = {"check.task_state", "check.word_count", "other",
                                       "tools.forbid"};
    size_t base = r.tests[1].findings.n;
    for (size_t i = 0; i < 4; i++)
        an_findings_add(&r.tests[1].findings, kinds[i], 0, NULL, 0, 0, "a", NULL, NULL, NULL);
    json_decref(write_and_read(&r, "kinds.json", NULL));
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result back = {0};
    snprintf(path, sizeof path, "%s/kinds.json", files_dir);
    assert_int_equal(an_run_result_load(&back, path, &err), AN_OK);
    assert_int_equal(back.tests[1].findings.n, base + 4);
    for (size_t i = 0; i < 4; i++)
        assert_string_equal(back.tests[1].findings.v[base + i].kind, want[i]);
    an_run_result_release(&back);
    an_run_result_release(&r);
}

static void test_dynamic_round_trip(void **state)
{
    (void)state;
    struct an_run_result r = fx_dynamic_run();
    json_t *v = write_and_read(&r, "dynamic.json", NULL);
    json_t *tests = json_object_get(v, "tests");
    json_t *want = json_loads(
        "{\"simulator\": \"user-sim\", \"end\": \"max_turns\", \"seed\": 42, \"total_turns\": 3,"
        " \"checkpoints\": ["
        "  {\"id\": \"ask_type\", \"description\": \"Agent asks for expense type\","
        "   \"required\": true, \"reached\": true, \"reached_at_turn\": 1,"
        "   \"evidence\": \"text contains \\\"type\\\"\"},"
        "  {\"id\": \"call_create\", \"description\": \"Agent calls create_expense\","
        "   \"required\": false, \"reached\": true, \"reached_at_turn\": 3,"
        "   \"evidence\": \"create_expense({\\\"amount\\\":250})\"},"
        "  {\"id\": \"confirm\", \"description\": \"Agent confirms submission\","
        "   \"required\": true, \"reached\": false, \"reached_at_turn\": null,"
        "   \"evidence\": null}],"
        " \"reasoning\": [\"Start by asking for help\", null,"
        "  \"The agent has not confirmed yet\"]}",
        0, NULL);
    assert_non_null(want);
    if (!json_equal(json_object_get(json_array_get(tests, 0), "dynamic"), want))
        fail_msg("dynamic member differs: %s",
                 json_dumps(json_object_get(json_array_get(tests, 0), "dynamic"), 0));
    json_decref(want);
    want = json_loads("{\"simulator\": \"user-sim\", \"end\": \"all_reached\", \"seed\": null,"
                      " \"total_turns\": 1, \"checkpoints\": [{\"id\": \"greet\","
                      " \"description\": null, \"required\": true, \"reached\": true,"
                      " \"reached_at_turn\": 1, \"evidence\": null}],"
                      " \"reasoning\": [null, \"Greeted back: goal achieved\"]}",
                      0, NULL);
    assert_true(json_equal(json_object_get(json_array_get(tests, 1), "dynamic"), want));
    json_decref(want);
    /* in the documented place: after the attempts, before the transcript */
    char *text = NULL;
    json_decref(write_and_read(&r, "dynamic.json", &text));
    const char *att = strstr(text, "\"attempts\""), *dyn = strstr(text, "\"dynamic\"");
    assert_non_null(att);
    assert_non_null(dyn);
    assert_true(att < dyn && dyn < strstr(text, "\"transcript\""));
    free(text);
    json_decref(v);

    /* `ananke merge` keeps it: read back, the same document again */
    char path[128];
    struct an_err err = AN_ERR_INIT;
    struct an_run_result back = {0};
    snprintf(path, sizeof path, "%s/dynamic.json", files_dir);
    assert_int_equal(an_run_result_load(&back, path, &err), AN_OK);
    assert_int_equal(back.ntests, 2);
    const struct an_dynamic_result *d = back.tests[0].dyn;
    assert_non_null(d);
    assert_int_equal(d->end, AN_DYN_MAX_TURNS);
    assert_string_equal(d->simulator, "user-sim");
    assert_int_equal(d->seed, 42);
    assert_int_equal(d->ncheckpoints, 3);
    assert_string_equal(d->checkpoints[0].id, "ask_type");
    assert_int_equal(d->checkpoints[0].reached_at_turn, 0); /* 0-based again */
    assert_false(d->checkpoints[1].required);
    assert_int_equal(d->checkpoints[1].reached_at_turn, 2);
    assert_int_equal(d->checkpoints[2].reached_at_turn, -1);
    assert_null(d->checkpoints[2].evidence);
    assert_int_equal(d->nreasoning, 3);
    assert_null(d->reasoning[1]);
    assert_string_equal(d->reasoning[2], "The agent has not confirmed yet");
    assert_int_equal(back.tests[1].dyn->seed, -1);
    assert_int_equal(back.tests[1].dyn->end, AN_DYN_ALL_REACHED);
    /* the finding keeps its kind (not "other") */
    assert_string_equal(back.tests[0].findings.v[0].kind, "dynamic.max_turns");
    json_t *a = an_run_result_to_json(&r), *b = an_run_result_to_json(&back);
    for (size_t i = 0; i < 2; i++) {
        json_t *x = json_array_get(json_object_get(a, "tests"), i);
        json_t *y = json_array_get(json_object_get(b, "tests"), i);
        assert_true(json_equal(json_object_get(x, "dynamic"), json_object_get(y, "dynamic")));
        assert_true(json_equal(json_object_get(x, "findings"), json_object_get(y, "findings")));
    }
    json_decref(a);
    json_decref(b);
    an_run_result_release(&back);

    /* a static test: null, and read back as static */
    struct an_run_result st = fixture();
    v = write_and_read(&st, "static.json", NULL);
    assert_true(
        json_is_null(json_object_get(json_array_get(json_object_get(v, "tests"), 0), "dynamic")));
    json_decref(v);
    struct an_run_result st_back = {0};
    snprintf(path, sizeof path, "%s/static.json", files_dir);
    assert_int_equal(an_run_result_load(&st_back, path, &err), AN_OK);
    assert_null(st_back.tests[0].dyn);
    an_run_result_release(&st_back);
    an_run_result_release(&st);
    an_run_result_release(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_layout),
        cmocka_unit_test(test_skip_round_trip),
        cmocka_unit_test(test_inconclusive_round_trip),
        cmocka_unit_test(test_stats_round_trip),
        cmocka_unit_test(test_finding_kinds_round_trip),
        cmocka_unit_test(test_dynamic_round_trip),
        cmocka_unit_test(test_io_error),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
