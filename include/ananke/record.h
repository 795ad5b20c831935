/*
 * Recording a run (`ananke run --record DIR`; the format is docs/record.md,
 * "ananke-record/1"): the run's results with transcripts, the raw protocol
 * frames with their arrival times and the hook variables, one directory
 * per test, every secret redacted before anything is written.
 *
 * Two steps, so that a run that never gets to the second leaves a
 * directory that says so:
 *   an_record_open()   checks DIR (a new or empty directory; never a
 *                      previous recording), makes it and writes run.json
 *                      with "complete": false;
 *   an_record_write()  writes tests/, results.json and redactions.json,
 *                      then run.json again, last, with "complete": true
 *                      (false when the run was interrupted).
 * Every file goes through a temporary file renamed into place: a file is
 * whole or absent, and a failed write leaves run.json saying "complete":
 * false.
 *
 * The suite given to an_record_open() is borrowed until an_record_free();
 * the run must keep transcripts, frames and hook variable values
 * (an_run_opts keep_transcripts, keep_frames, keep_var_values).
 */
#ifndef ANANKE_RECORD_H
#define ANANKE_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

#define AN_RECORD_FORMAT "ananke-record/1"
#define AN_RECORD_SLUG_MAX 80 /* bytes of a slug before any "-N" suffix */

/* How the run was asked for, as run.json shows it (all borrowed). */
struct an_record_info {
    const char *const *paths; /* the PATH arguments as given */
    size_t npaths;
    const char *filter; /* --filter; NULL: none */
    const char *shard;  /* --shard "I/N"; NULL: none */
    unsigned parallel, repeat, retries;
    int64_t timeout_ms; /* --timeout; 0: none */
    bool has_seed;
    int64_t seed;
    const char *const *redact; /* --redact patterns */
    size_t nredact;
    /* The selected tests, as indexes into the suite (an_run_select()):
     * run.json lists those that never started (--fail-fast, Ctrl-C) as
     * "not_run". Copied by an_record_open(); NULL: the results only. */
    const size_t *selected;
    size_t nselected;
    /* Told about what cannot be redacted (a secret value too short to
     * search for); NULL: nobody is told. */
    void (*warn)(const char *msg, void *ud);
    void *ud;
};

struct an_recorder;

/* Check and make DIR (parents too) and write its first run.json. Returns
 * AN_OK; AN_EREGEX for a --redact pattern that does not compile; AN_EUSAGE
 * when DIR is a previous recording, a non-empty directory or not a
 * directory (refused: nothing is touched); AN_EIO when DIR cannot be made
 * or written. err names DIR and the reason. */
int an_record_open(struct an_recorder **out, const char *dir, const struct an_suite *s,
                   const struct an_record_info *info, struct an_err *err);

/* Write the run's results into the recording; `complete` is false when the
 * run was interrupted (run.json then says "complete": false). AN_OK or
 * AN_EIO naming the file. The secrets are found in the suite's config and
 * in each test's hook variables (an_test_result.var_values); the results
 * come redacted by the run already (each test with its own secrets, what
 * it replaced in an_test_result.redacted, counted in redactions.json), and
 * are redacted again with every test's, directory names included. */
int an_record_write(struct an_recorder *r, const struct an_run_result *res, bool complete,
                    struct an_err *err);

/* What was redacted, over every file written so far. */
size_t an_record_redacted(const struct an_recorder *r);

void an_record_free(struct an_recorder *r); /* NULL-safe */

/* The directory names of n tests, in run order, from their keys (a JSONL
 * id, else the name; NULL counts as ""): every byte outside [A-Za-z0-9._-]
 * becomes '_', a leading '.' too (no ".", ".." or hidden directory), the
 * result is cut to AN_RECORD_SLUG_MAX bytes ("_" when empty), and "-2",
 * "-3" ... are appended when a name is taken already (compared without
 * regard to case, for case-insensitive file systems). out[i] is malloc'd. */
void an_record_slugs(const char *const *keys, size_t n, char **out);

#endif
