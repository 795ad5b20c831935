/*
 * The scheduler's inside, shared by its two halves: sched.c (selection,
 * collecting runs into tests, handing tests to the caller in order) and
 * sched_loop.c (the event loops that drive the runs).
 *
 * A run is driven by one event loop: over a libcurl multi handle once a
 * run of the loop has an HTTP transfer (created then: an ACP run on stdio
 * never loads libcurl), over poll() while it has none. With
 * enough parallelism and more than one core the runs are shared between
 * several loops, one thread each (struct loop), each with its own multi
 * handle and its own share of --parallel; they take the next run from the
 * common list and give finished runs back under `mu`. The caller's thread
 * then only waits, and hands finished tests to on_test / on_progress in
 * selection order, so the callbacks never run on a loop's thread.
 *
 * Ownership: a run (struct an_job) belongs to the loop that started it
 * until it is collected; everything else in struct sched is guarded by `mu`
 * while loops run (with one loop and no threads, by nothing).
 */
#ifndef ANANKE_RUN_SCHED_INT_H
#define ANANKE_RUN_SCHED_INT_H

#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/run.h"
#include "run/job.h"
#include "run/sprt.h"

/* What the scheduler knows of each selected test. */
struct slot {
    unsigned started, done;
    int best;      /* run index whose result represents the test; -1: none yet */
    bool complete; /* its verdict is final: no run of it starts again */
    bool emitted;
    bool skip; /* `skip: true`: a SKIP result, no run */
};

struct sched {
    const struct an_suite *suite;
    const struct an_run_opts *o;
    struct an_run_result *out;
    struct an_project_paths *paths; /* the main thread's (core/result_paths.h) */
    size_t *sel, nsel;
    unsigned repeat;
    double pass_rate;
    struct slot *slots;
    /* The runs, in start order: run k is run k % repeat of the selected
     * test plan[k / repeat]. A run's struct an_job (576 bytes) exists only
     * from sched_next() to its collection: 10,000 tests do not carry
     * 10,000 of them (docs/performance.md, issue 26). */
    size_t *plan; /* slot of each test that runs (not skipped), in order */
    size_t njobs, next;
    /* --repeat auto: one job per test that runs (repeat is the most runs a
     * test may take), started in order (next, up to nfresh); when the rule
     * wants another run the collected job is reset as that run and queued
     * in `again`, taken before any new test (the earliest test first) so
     * tests finish in order: runs of one test never overlap. */
    bool adaptive;
    struct an_sprt sprt;
    size_t nfresh;
    struct an_job **again; /* its runs waiting to run again */
    size_t nagain;
    size_t running;   /* runs started and not yet collected */
    size_t collected; /* runs collected so far */
    size_t emit;      /* next slot to hand to on_test (the caller's thread
                         writes it; the loops read it) */
    size_t passed, failed, errors, skipped, inconclusive, finished_tests;
    bool stop; /* fail-fast or interrupted: start nothing new */
    int64_t start_mono;

    struct an_redactor *secrets; /* the run's own (run/secrets.h); read only while loops run */
    pthread_mutex_t warn_mu;     /* one o->warn at a time, from any loop */
    char **warned;               /* labels of too-short secrets said already */
    size_t nwarned;

    bool threaded; /* several loops: take `mu` */
    pthread_mutex_t mu;
    pthread_cond_t news; /* a run was collected, or a loop ended */
    unsigned loops_left; /* loop threads still running */
    /* The caller's thread hands tests on in batches: after a batch it
     * waits until then (a monotonic ms) before a collected run wakes it,
     * so that instant tests cost no thread switch each (sched.c EMIT_MS). */
    int64_t quiet_until;
};

/* One event loop: its multi handle, its share of the parallelism, the runs
 * it has in flight. */
struct loop {
    struct sched *s;
    struct an_job_env env;
    struct an_job_multi multi; /* env.multi; its handle NULL until a transfer */
    struct an_job_checks *spare_checks; /* env.spare_checks: NULL or one to reuse */
    int wake[2];               /* the pipe env.wake_fd writes to; -1: none */
    unsigned parallel;
    struct an_job **act; /* the runs in flight (active of them) */
    size_t active;
    size_t steps;              /* runs this loop finished */
    struct curl_waitfd *extra; /* descriptors of fd-driven sessions, then wake[0] */
    size_t cap_extra;
    struct pollfd *pfds; /* extra as poll() takes them, with no multi handle */
    size_t cap_pfds;
    pthread_t thread;
};

void sched_lock(struct sched *s);
void sched_unlock(struct sched *s);

/* Move a finished run's result into its test's slot (under the lock). */
void sched_collect(struct sched *s, struct an_job *j);
/* The next run to start, or NULL (under the lock). */
struct an_job *sched_next(struct sched *s);
/* No run is left to start, now or later (under the lock). */
bool sched_drained(const struct sched *s);
/* --repeat auto, the run over: tests left undecided (interrupted, fail-fast)
 * become INCONCLUSIVE (the caller's thread, loops ended). */
void sched_adaptive_finish(struct sched *s);
/* Hand complete tests to on_test in selection order (the caller's thread). */
void sched_emit_ready(struct sched *s);
/* on_progress with the counts as they are (the caller's thread). */
void sched_progress(struct sched *s);

/* Drive runs until none is left to start and none is in flight. With one
 * loop (not threaded) it also emits tests and reports progress as it goes. */
void sched_loop_run(struct loop *l);

#endif
