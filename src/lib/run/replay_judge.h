/*
 * Checks on a recording (ananke/replay.h): a scope judged as the runner
 * judges it, except that agent checks (judges) take the verdict the
 * recording kept instead of asking the judge again.
 */
#ifndef ANANKE_RUN_REPLAY_JUDGE_H
#define ANANKE_RUN_REPLAY_JUDGE_H

#include <stdbool.h>

#include "ananke/model.h"
#include "ananke/result.h"
#include "ananke/transcript.h"

/* One file named from two working directories: equal without a leading
 * "./", or one ends in "/" + the other. NULL equals only NULL. */
bool an_replay_same_file(const char *a, const char *b);
/* How well: 2 the same path, 1 one ends in "/" + the other, 0 not. */
int an_replay_file_match(const char *a, const char *b);

/* The recorded verdict of judge `it` on `turn` (0-based, -1: the test
 * level): the last judgement in `rec` made at the check's place (same
 * line and col, the same file as an_replay_same_file says), for that turn, by the same agent,
 * shown the same criteria. NULL when there is none; *why (static text)
 * then says what did not match. Pure. */
const struct an_judgement *an_replay_find_judgement(const struct an_judgements *rec,
                                                    const struct an_check_item *it, int turn,
                                                    const char **why);

/* Agent checks of blk on the scope, from the recording: each verdict is
 * copied into js and, when it fails (after `negate`), a finding worded as
 * run/judge.c words it goes into out (*nfailed counts them). AN_ENOTFOUND
 * (err names the judge, its place and turn) when a verdict is missing;
 * AN_EPROTO when the recorded judge gave no usable answer. */
int an_replay_judges(const struct an_assert *blk, const struct an_scope *s,
                     const struct an_judgements *rec, struct an_findings *out, size_t *nfailed,
                     struct an_judgements *js, struct an_err *err);

/* A whole block on a scope: an_check(), the script checks (run in `dir`),
 * then the recorded judges. Returns the failed checks (appended to out), or
 * -1 with err filled when a script broke or a judge has no usable verdict.
 * `checkpoint`: as a dynamic test's checkpoint is judged (scripts and
 * judges only when the pure checks hold, judges only when scripts hold). */
long an_replay_block(const struct an_assert *blk, const struct an_scope *s, const char *input,
                     const char *dir, const struct an_judgements *rec, bool checkpoint,
                     struct an_findings *out, struct an_judgements *js, struct an_err *err);

#endif
