/* Inside replay (ananke/replay.h): the recording as read, and the parts of
 * judging one test that run/replay.c and run/replay_dyn.c share. */
#ifndef ANANKE_RUN_REPLAY_INT_H
#define ANANKE_RUN_REPLAY_INT_H

#include <jansson.h>

#include "ananke/replay.h"

struct an_recording {
    struct an_recording_info info;
    json_t *run;                  /* run.json; info's strings point into it */
    struct an_run_result results; /* results.json */
    bool *used;                   /* per recorded test: paired with a test now */
};

/* What judging one test on its recording needs. */
struct an_replay_test {
    const struct an_config *cfg;
    const struct an_test *test;
    struct an_test_result *rec; /* the recorded result (its transcript moved to out) */
    struct an_test_result *out;
};

/* out becomes an ERROR with `code` and the message, at `turn` (-1: none). */
void an_replay_error(struct an_test_result *out, int code, int turn, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void an_replay_error_err(struct an_test_result *out, int turn, const struct an_err *e);
/* Keep the first `keep` turns of the transcript (and their tool calls),
 * then list turns keep..total-1 of the test as not run. */
void an_replay_cut(struct an_transcript *tr, size_t keep, const struct an_test *t, size_t total);
/* The test's own checks on the whole (kept) conversation; status set. */
void an_replay_test_checks(struct an_replay_test *x);
/* The turn's checks (target, test and turn levels); false when the test
 * ended there (FAIL or ERROR set, later turns cut). */
bool an_replay_turn_checks(struct an_replay_test *x, size_t turn);

/* A dynamic test: checkpoints judged on the recorded turns (replay_dyn.c). */
void an_replay_dynamic(struct an_replay_test *x);

#endif
