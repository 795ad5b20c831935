/*
 * Hand-made run results for the reporter tests. Every string passed in is
 * copied (NULL stays NULL) and JSON values are stolen: the result owns all
 * of it, and an_run_result_release frees it.
 */
#ifndef ANANKE_TEST_RESULTS_FIXTURE_H
#define ANANKE_TEST_RESULTS_FIXTURE_H

#include <stddef.h>
#include <stdint.h>

#include "ananke/report.h"

/* A test appended to r. */
struct an_test_result *fx_test(struct an_run_result *r, const char *name, const char *file,
                               enum an_status status, int64_t start_ms, int64_t end_ms);
/* What broke t: message, code and 0-based turn (-1: outside any turn).
 * The status is left to fx_test. */
void fx_error(struct an_test_result *t, enum an_code code, int turn, const char *msg);
/* The names of t's hook variables. */
void fx_vars(struct an_test_result *t, const char *const *names, size_t n);
/* A "user" turn appended to tr. */
struct an_turn_rec *fx_turn(struct an_transcript *tr, const char *input, const char *text,
                            int64_t start_ms, int64_t end_ms);
/* A tool call made in turn `turn` (counted in that turn's ncalls); its
 * times are left to the caller. */
struct an_tool_call *fx_call(struct an_transcript *tr, unsigned turn, const char *name,
                             json_t *args, json_t *result);

/* A run of every kind of outcome, started at Unix ms 1737100000000
 * (2025-01-17T07:46:40Z), in this order:
 *   [T001] greeting   JSONL, PASS, 812ms, 2 history messages, "Hello" -> "Hi there"
 *   [T002]            JSONL without a name, FAIL, 40ms, a check.contains finding
 *   slow agent        YAML, ERROR cut by --timeout, 500ms
 *   agent down        YAML, ERROR AN_ECONNECT in turn 1, turn 2 not run, 3ms
 *   [T003] later      JSONL, SKIP
 *   flaky             YAML, PASS with 2 of 3 runs (10, 20, 30ms), 60ms
 * in 1.42s with ananke.config.yaml and --repeat 3. */
struct an_run_result fx_mixed_run(void);

#endif
