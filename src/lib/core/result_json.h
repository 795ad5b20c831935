/*
 * The result model's JSON form, below both the runner (run/record.c keeps
 * results.json, replay reads it back) and the reporters (the json reporter
 * writes it, compare and merge read it).
 *
 *   result_json.c       result -> JSON: the shape, documented at its top
 *   result_json_read.c  JSON report file -> result (an_run_result_load)
 *
 * The whole-document calls are public (ananke/result.h:
 * an_run_result_to_json, an_run_result_load); the two below let a writer
 * stream a run a test at a time, with the bytes of dumping it whole.
 * Every json_t returned is a new reference the caller owns; the results
 * are only read.
 */
#ifndef ANANKE_CORE_RESULT_JSON_H
#define ANANKE_CORE_RESULT_JSON_H

#include <jansson.h>

#include "ananke/result.h"

/* A JSON report read back (merge, replay, compare, comply --merge) is
 * untrusted input: at most this many bytes, and no more tree than the JSON
 * tree cap allows. */
#define AN_RESULTS_MAX_BYTES ((size_t)1 << 30)
/* The results file at path parsed into *doc (the caller's): read never
 * through a link, within that cap and the JSON tree cap. An error (*doc
 * NULL) fills err: AN_EPARSE at the file's line and column when it is not
 * JSON. */
int an_results_json_load(const char *path, json_t **doc, struct an_err *err);

/* The results of a JSON report already parsed (an_results_json_load) added
 * to out, as an_run_result_load adds those of its file: what it keeps of
 * the document's values it shares (references), so a caller that keeps the
 * document too holds them once. path names it in messages. */
int an_run_result_read(struct an_run_result *out, const json_t *doc, const char *path,
                       struct an_err *err);

/* Everything of the run but its "tests" array, in the document's key order. */
json_t *an_result_json_head(const struct an_run_result *r);
/* One element of "tests" (r: the run it is from, for the statistics'
 * options). */
json_t *an_result_json_test(const struct an_run_result *r, const struct an_test_result *t);
/* A repeated test's "stats" object (docs/statistics.md); JSON null for a
 * test that was not repeated. */
json_t *an_result_json_stats(const struct an_run_result *r, const struct an_test_result *t);

#endif
