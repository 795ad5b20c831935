/*
 * Replaying a recording (`ananke replay DIR`, docs/record.md): the tests as
 * they are now, judged on what a recorded run (ananke/record.h) saw, with
 * no agent contacted.
 *
 * Each test of the suite is paired with its recording (by JSONL id, else
 * by name; the same file first) and judged as the runner judges it, turn
 * by turn and then as a whole, on the recorded transcript:
 *   - typed and seed 000 checks: an_check(), as in a run;
 *   - script checks run (they are local programs);
 *   - agent checks (judges) are not asked again: each takes the verdict
 *     recorded for the same check location (file:line:col), the same turn,
 *     the same agent and the same criteria; `negate` applies as written
 *     now. A judge with no such verdict makes the test an ERROR naming it;
 *   - a recorded turn that broke (agent down, timeout) is an ERROR again.
 * A test with no recording, or with turns the recording never reached, is
 * an ERROR (code AN_ENOTFOUND) that says what is missing. Dynamic tests
 * have their checkpoints judged again on the recorded turns, with the same
 * rules as a run (run/dynamic.c); what the simulator decided (the goal is
 * achieved) is taken as recorded, and a conversation that would now need
 * more turns than were recorded is an ERROR as above.
 *
 * Results are plain run results (ananke/result.h): every reporter takes
 * them. Timings are the recorded ones.
 */
#ifndef ANANKE_REPLAY_H
#define ANANKE_REPLAY_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

struct an_recording; /* opaque: a recording directory, read */

/* What run.json says of the recorded run (borrowed from the recording). */
struct an_recording_info {
    const char *dir;
    const char *run_id;      /* may be NULL */
    const char *started_at;  /* ISO 8601; may be NULL */
    const char *target_type; /* "agui" ...; may be NULL */
    const char *endpoint;    /* the template, as configured; may be NULL */
    bool complete;           /* false: the recorded run was interrupted */
    size_t ntests;           /* tests in results.json */
};

/* Read DIR/run.json and DIR/results.json. AN_ENOTFOUND when DIR is
 * missing, AN_ESCHEMA when it is not a recording (no run.json, another
 * format) or an incomplete one without results, AN_EPARSE for broken JSON;
 * err says which and how to make one. */
int an_recording_open(struct an_recording **out, const char *dir, struct an_err *err);
const struct an_recording_info *an_recording_info(const struct an_recording *r);
void an_recording_free(struct an_recording *r); /* NULL-safe */

struct an_replay_opts {
    /* Warn about recorded tests with no test now: those of every file when
     * the whole suite was loaded (no PATH), else of the loaded files only. */
    bool whole_suite;
    struct an_expected *expected; /* --expected-failures; NULL: none */
    /* Redacted in every result, as `ananke run` does (the recording is
     * redacted already; these add the config's credentials as they are
     * now and --redact patterns, an_regex syntax: AN_EREGEX when one does
     * not compile). A test whose name the run redacted is paired with its
     * recording by its name as redacted. */
    const char *const *redact;
    size_t nredact;
    /* Called for each test, in suite order (borrowed). */
    void (*on_test)(const struct an_test_result *t, void *ud);
    /* Called for what is worth a line but is no test result (a recorded
     * test that no longer exists). */
    void (*on_warning)(const char *msg, void *ud);
    void *ud;
};
/* clang-format off */
#define AN_REPLAY_OPTS_INIT {.whole_suite = true}
/* clang-format on */

/* Judge every test of `s` on the recording into `out` (zeroed by the
 * caller). The recording's transcripts move into the results: replay a
 * recording once. Returns AN_OK whatever the verdicts. */
int an_replay_suite(const struct an_suite *s, struct an_recording *rec,
                    const struct an_replay_opts *opts, struct an_run_result *out,
                    struct an_err *err);

#endif
