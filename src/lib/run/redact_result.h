/*
 * A test's result redacted in place (docs/security.md "Secrets: what is
 * redacted, and where"): every string it holds (name, error, findings,
 * judgements, checkpoints, attempts, the whole transcript: inputs, texts,
 * tool names, arguments and results, warnings, retry log, state, messages,
 * the raw frames, redacted as streams) has each known secret replaced by
 * "[redacted]". Done once, where a run's result is made, so that no
 * reporter, console line or recording can forget it.
 *
 * Hook variable values (var_values) are left as they are: a recording
 * needs them to know the secrets, and writes them redacted.
 */
#ifndef ANANKE_RUN_REDACT_RESULT_H
#define ANANKE_RUN_REDACT_RESULT_H

#include "ananke/result.h"
#include "run/redact.h"

/* Redact t in place; what was replaced is added to t->redacted. Costs
 * nothing when r is empty or NULL. */
void an_test_result_redact(struct an_test_result *t, const struct an_redactor *r);

/* The same for every test of a run (`ananke merge`, `ananke replay`). */
void an_run_result_redact(struct an_run_result *res, const struct an_redactor *r);

#endif
