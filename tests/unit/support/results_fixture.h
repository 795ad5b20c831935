/*
 * Hand-made run results for the reporter tests. Every string passed in is
 * copied (NULL stays NULL) and JSON values are stolen: the result owns all
 * of it, and an_run_result_release frees it.
 */
#ifndef ANANKE_TEST_RESULTS_FIXTURE_H
#define ANANKE_TEST_RESULTS_FIXTURE_H

#include <stdbool.h>
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

/* A checkpoint appended to t's dynamic result (made on first use, with
 * seed -1 and no simulator); `turn` is 0-based, -1 = never reached. */
struct an_checkpoint_result *fx_checkpoint(struct an_test_result *t, const char *id,
                                           const char *description, bool required, int turn,
                                           const char *evidence);

/* Two dynamic tests (seed 002), started at Unix ms 1737100000000, in 9s:
 *   [T004] expense coverage  JSONL, FAIL, 6.8s, simulator "user-sim" seed 42,
 *       ended max_turns after 3 turns:
 *         1 "Help me file an expense" -> "What type of expense is it?"
 *         2 "Client dinner, $250"     -> "Anything else?"
 *         3 "No, that's all"          -> create_expense({"amount":250}) -> "Created it."
 *       checkpoints: ask_type (required) reached at turn 1, call_create
 *       (optional) at turn 3, confirm (required) never; the simulator's
 *       reasoning for turns 1 and 3; a dynamic.max_turns finding
 *   greets back  YAML, PASS, 500ms, simulator "user-sim" without a seed,
 *       1 turn "hi" -> "Hello!"; checkpoint greet (no description, no
 *       evidence) reached at turn 1; ended all_reached, the simulator's
 *       reasoning only after the last turn */
struct an_run_result fx_dynamic_run(void);

#endif
