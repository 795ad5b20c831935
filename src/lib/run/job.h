/*
 * One run of one test, as a state machine the scheduler (run/sched.c)
 * drives from its event loop:
 *
 *   PENDING -> HOOKS (helper thread) -> TURN (transfer in the multi handle)
 *           -> [WAIT (retry backoff) -> TURN] -> [CHECKS (helper thread)] ...
 *           -> [CHECKS] -> DONE
 *
 * Every step that can wait (a hook, a transfer, a backoff, a script or
 * judge check) returns to the loop; the loop calls back here when it is
 * over. Only the helper thread runs outside the loop's thread: for hooks it
 * touches nothing but the job's hook fields and vars, for checks nothing
 * but the ck_* fields (and reads the transcript, which nothing changes
 * meanwhile), until it sets `thread_done`.
 */
#ifndef ANANKE_RUN_JOB_H
#define ANANKE_RUN_JOB_H

#include <curl/curl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/result.h"
#include "core/interp.h"
#include "proto/adapter.h"
#include "run/dynamic.h"
#include "run/redact.h"
#include "run/target_conf.h"

#define AN_JOB_MAX_FDS 8 /* descriptors one fd-driven session may ask to poll */

enum an_job_state {
    AN_JOB_PENDING = 0,
    AN_JOB_HOOKS,
    AN_JOB_TURN,
    AN_JOB_WAIT,
    AN_JOB_CHECKS, /* script and agent checks of a turn or the test, on the helper thread */
    AN_JOB_SIM,    /* dynamic test: checkpoints and the simulator, on the helper thread */
    AN_JOB_DONE
};

/* What the checks thread works on (AN_JOB_CHECKS only). */
struct an_job_checks {
    struct an_assert blk; /* merged block (an_assert_release) */
    struct an_scope scope;
    char *joined; /* the test scope's text */
    const char *input;
    bool test_level;
    size_t failed; /* findings so far (the pure ones) + the thread's */
    struct an_findings findings;
    struct an_judgements judgements;
    int rc;
    struct an_err err; /* last: judge() zeroes what comes before it */
};

/* The loop's libcurl multi handle, created by the loop's first transfer
 * (an_job_multi()): a run with no HTTP (ACP on stdio, replay) never creates
 * it, nor loads libcurl (core/lazy.h). Only the loop's thread touches it. */
struct an_job_multi {
    CURLM *handle;    /* NULL until a transfer needs it */
    long maxconnects; /* CURLMOPT_MAXCONNECTS it is given */
};

struct an_job_env {
    struct an_job_multi *multi; /* transfers are added to its handle */
    /* A helper thread that finished writes a byte here to wake the loop
     * (the write end of a non-blocking pipe the loop polls); -1: none. */
    int wake_fd;
    unsigned retries;      /* --retries */
    int64_t timeout_ms;    /* --timeout per test; 0: none */
    bool keep_frames;      /* keep raw protocol frames (a report shows them) */
    bool keep_transcripts; /* the results keep every transcript (a report reads them) */
    bool drop_messages;    /* ... but no report reads a turn's messages */
    bool keep_var_values;  /* results keep hook variable values (a recording) */
    bool trace;            /* --otlp: trace ids for tests and turns (run/trace.h) */
    json_t *helper_params; /* --seed: {"seed": N, "temperature": 0} for openai helpers; NULL */
    int64_t seed;          /* --seed, or -1 */
    /* The run's secrets (the config's own and --redact), read only: each
     * result is redacted with them and its test's own before it leaves the
     * job (run/redact_result.c). NULL: none. */
    const struct an_redactor *secrets;
    /* Told the label of a secret too short to redact; called from the
     * loop's thread, so it must be thread-safe. NULL: nobody is told. */
    void (*short_secret)(const char *label, void *ud);
    void *short_ud;
    /* The project's paths, the loop's own (core/result_paths.h): each
     * result's paths made relative with it. NULL: resolved per result. */
    struct an_project_paths *paths;
    /* The loop's one spare checks record (only the loop's thread touches
     * it): a scope's judging takes it rather than malloc its KiBs (a size
     * that makes glibc consolidate its fast bins each time), and gives it
     * back. NULL: each scope allocates its own. */
    struct an_job_checks **spare_checks;
};

struct an_job {
    const struct an_config *cfg;
    const struct an_test *test;
    const struct an_job_env *env;
    size_t slot;  /* which selected test */
    unsigned run; /* which repeat */
    enum an_job_state state;
    struct an_test_result res;

    struct an_vars vars;
    struct an_session *session;
    struct an_target_conf *conf; /* interpolated target config (run/target_conf.h) */
    char *sandbox;               /* ACP: the per-test directory, removed at the end */
    size_t turn;
    CURL *easy;            /* the turn's transfer; NULL for an fd-driven session */
    unsigned tries;        /* retries of the current turn */
    int64_t wake_mono;     /* AN_JOB_WAIT: when to send again */
    int64_t deadline_mono; /* --timeout; 0: none */

    long nfds_at; /* where its descriptors sit in the loop's poll array; -1: none */
    size_t nfds;

    pthread_t thread;
    bool thread_started;
    atomic_bool thread_done;
    int hooks_rc;
    bool hooks_hit_deadline;
    struct an_redactor *red;   /* the test's secrets: env->secrets and its own (finish()) */
    struct an_err *hooks_err;  /* only while hooks run: an error is 1.5 KiB, a job
                                  list of 10000 tests should not carry 10000 */
    struct an_job_checks *ck;  /* only in AN_JOB_CHECKS */
    struct an_dyn_run *dyn;    /* a dynamic test's loop; NULL for a static test */
    struct an_tool_ctx *tools; /* its own share of the tool proxies; NULL: none */
    int dyn_turn;              /* AN_JOB_SIM: the turn the step judges (-1: none yet) */
};

/* The multi handle, created (with its MAXCONNECTS) on the first call; NULL
 * when libcurl cannot create one. */
CURLM *an_job_multi(struct an_job_multi *m);
/* Wake the loop of env (from any thread). */
void an_job_env_wake(const struct an_job_env *env);

/* Start the job (PENDING -> HOOKS, TURN or DONE). */
void an_job_start(struct an_job *j, const struct an_job_env *env);
/* HOOKS or CHECKS: call when thread_done is set. */
void an_job_thread_finished(struct an_job *j);
/* TURN: the job's transfer ended (already removed from the multi handle). */
void an_job_transfer_done(struct an_job *j, CURLcode cc);
/* TURN with an fd-driven session (easy == NULL): list its descriptors into
 * out (at most max), and after the poll let it work (true: the turn ended
 * and the job moved on, as after an_job_transfer_done). */
size_t an_job_fds(struct an_job *j, struct curl_waitfd *out, size_t max);
bool an_job_fd_step(struct an_job *j, const struct curl_waitfd *fds, size_t n);
/* WAIT: the backoff is over; send the turn again. */
void an_job_wake(struct an_job *j);
/* Give up on the job now (test timeout or interruption): `code` and `why`
 * become its error. A job in HOOKS cannot be stopped from outside: its
 * hooks end by their own deadline (or the cancel flag), then it finishes. */
void an_job_abort(struct an_job *j, int code, const char *why);

#endif
