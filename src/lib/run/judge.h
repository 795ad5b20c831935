/*
 * Agent checks (seed 002 `agent`): a helper agent from the config's
 * `agents:` judges the agent's answer against criteria.
 *
 * The judge gets one user message, a JSON object:
 *   {"test_mode": "validator", "criteria": <value or options.metadata.criteria>,
 *    "input": "<the user message>", "output": "<the agent's text>",
 *    "tool_calls": [{"name", "arguments", "result"}], ...options.metadata}
 * preceded, for an openai judge, by a short instruction to answer in JSON.
 * It must answer a JSON object with a boolean `passed` and a `reason`
 * (code fences and text around the object are tolerated). `negate` turns
 * the verdict around. An agent that cannot be reached, errs, or answers
 * anything else is broken: the test is an ERROR that says what came back.
 * Every verdict, passed or not, is kept as a judgement (what was shown,
 * what was answered) for the reports.
 *
 * Runs blocking (each judge is one whole turn): call it off the event loop.
 */
#ifndef ANANKE_RUN_JUDGE_H
#define ANANKE_RUN_JUDGE_H

#include "ananke/model.h"
#include "ananke/result.h"
#include "ananke/transcript.h"
#include "core/interp.h"
#include "run/target_conf.h"

/* Run the agent checks of blk on the scope. Failed ones are appended to
 * out (*nfailed counts them), every verdict to js. Returns AN_OK, or an
 * error (err filled, with the check's location) when a judge is broken. */
int an_judge_checks(const struct an_assert *blk, const struct an_scope *s, const char *input,
                    const struct an_vars *vars, const char *project_dir,
                    const struct an_target_over *over, struct an_findings *out, size_t *nfailed,
                    struct an_judgements *js, struct an_err *err);

/* s made safe (valid UTF-8) and cut to its first 300 bytes, marked with
 * "…" when cut: how a finding quotes what a judge was shown. malloc'd. */
char *an_judge_excerpt(const char *s);

/* The verdict in a judge's answer: 1 passed, 0 failed, -1 not a usable
 * answer (*why says what is wrong). *reason is the judge's reason or NULL.
 * Both are malloc'd. Pure; exposed for unit tests. */
int an_judge_parse(const char *text, char **reason, char **why);

#endif
