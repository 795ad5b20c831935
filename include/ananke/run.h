/*
 * Running a loaded suite: hooks, one protocol session per test, turns in
 * order, assertions after each turn and after the test.
 *
 * The runner turns a suite (borrowed, ananke/model.h) into results (owned
 * by the caller, ananke/result.h). It reports each test as it finishes
 * through `on_test`, so the console can stream while reporters that need
 * the whole run wait for the end.
 */
#ifndef ANANKE_RUN_H
#define ANANKE_RUN_H

#include <stdbool.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

struct an_run_opts {
    /* Called after each test with its finished result (borrowed). */
    void (*on_test)(const struct an_test_result *t, void *ud);
    void *ud;
};
#define AN_RUN_OPTS_INIT {0}

/* Run every test of `s` in order into `out` (initialised by the caller,
 * zeroed). Returns AN_OK when the run happened, whatever the verdicts;
 * a verdict is in each test result. */
int an_run_suite(const struct an_suite *s, const struct an_run_opts *opts,
                 struct an_run_result *out, struct an_err *err);

/* Run one test into `res` (added by the caller with an_run_result_add). */
void an_run_test(const struct an_config *cfg, const struct an_test *test,
                 struct an_test_result *res);

#endif
