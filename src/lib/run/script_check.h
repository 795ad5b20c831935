/*
 * Script checks (seed 002 `script`): the one typed check that runs a
 * program, so it lives in the runner and not in the pure engine.
 *
 * The program (argv, no shell, in the directory of the file the check is
 * written in, under the check's timeout; output capped as for hooks) reads one JSON object on
 * stdin:
 *   {"input": "<the user message>", "output": "<the agent's text>",
 *    "tool_calls": [{"name", "arguments", "result"}], "value": ..., "options": ...}
 * and answers:
 *   - exit status non-zero: the check fails (stdout/stderr start shown);
 *   - exit 0 and nothing on stdout: it passes;
 *   - exit 0 and `true`/`false`, or {"pass": bool, "message": "..."}: that.
 * `negate` turns the answer around. A script that cannot start, times out,
 * is killed by a signal or answers anything else is broken: the test is an
 * ERROR, never a PASS or a FAIL it did not earn.
 */
#ifndef ANANKE_RUN_SCRIPT_CHECK_H
#define ANANKE_RUN_SCRIPT_CHECK_H

#include "ananke/model.h"
#include "ananke/result.h"
#include "ananke/transcript.h"

/* Run the script checks of blk on the scope (cwd: where a check with no
 * directory of its own runs; input:
 * the user message of the scope's last turn). Failed checks are appended to
 * out and *nfailed counts them. Returns AN_OK, or an error (err filled,
 * with the check's location) when a script is broken. */
int an_script_checks(const struct an_assert *blk, const struct an_scope *s, const char *input,
                     const char *cwd, struct an_findings *out, size_t *nfailed, struct an_err *err);

/* What a script or a judge is shown of a scope: {"input", "output",
 * "tool_calls": [{"name", "arguments", "result"}]}. New reference. */
json_t *an_check_subject_json(const struct an_scope *s, const char *input);

#endif
