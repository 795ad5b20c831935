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

#endif
