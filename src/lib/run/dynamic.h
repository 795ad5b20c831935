/*
 * Dynamic tests (seed 002 "Dynamic Mode"; docs/dynamic.md): between two
 * turns of the agent, the checkpoints are judged on the turn that just
 * ended, the loop decides whether to go on, and the simulator agent writes
 * the next user message.
 *
 * The job (run/job.c) owns one an_dyn_run per dynamic test. an_dyn_step()
 * is blocking (judges and the simulator are whole turns of helper agents)
 * and runs on the job's helper thread; it touches nothing but the run
 * and reads the transcript, which nothing changes meanwhile.
 */
#ifndef ANANKE_RUN_DYNAMIC_H
#define ANANKE_RUN_DYNAMIC_H

#include <stdbool.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/result.h"
#include "core/interp.h"
#include "run/target_conf.h"

struct an_dyn_run {
    const struct an_dynamic *d;
    int *reached_at;  /* per checkpoint: the 0-based turn, -1 = not yet */
    char **evidence;  /* per checkpoint: what satisfied it */
    char **missed;    /* per checkpoint not reached: its check that failed last, and why */
    char **reasoning; /* per turn: the simulator's reasoning (NULL allowed) */
    size_t nreasoning;
    int64_t *sim_start_ms, *sim_end_ms; /* per turn: when the simulator was asked (0: not) */
    char (*sim_span_id)[17];            /* per turn: that call's span (--otlp); "": none */
    size_t nsim;
    char *next;          /* the next user message; NULL when the loop ends */
    bool last;           /* the simulator said the goal is achieved with `next` */
    enum an_dyn_end end; /* AN_DYN_NONE while the loop goes on */
    int err_code;        /* AN_DYN_BROKEN: what broke */
    char *err_msg;
    int err_turn;
    int64_t deadline_mono;           /* the case's timeout */
    int64_t seed;                    /* -1: none */
    struct an_findings findings;     /* checks of the checkpoints never produce findings;
                                        kept for a judge that errs */
    struct an_judgements judgements; /* judges asked for checkpoints */
    /* --otlp: the test's trace (the job's result's, borrowed); NULL: none */
    const char *trace_id;
};

void an_dyn_init(struct an_dyn_run *r, const struct an_dynamic *d, int64_t start_mono,
                 int64_t seed);
void an_dyn_release(struct an_dyn_run *r);

/* The step after turn `turn` (-1: before the first): judge the pending
 * checkpoints on it, decide, and unless the loop ends ask `simulator` for
 * the next message. `input_first` is the case's own first message when it
 * has one (then the simulator is not asked before turn 0). */
void an_dyn_step(struct an_dyn_run *r, const struct an_transcript *tr, int turn,
                 const struct an_vars *vars, const char *dir, const struct an_target_over *over);

/* Has every checkpoint cp must come after been reached? (run/replay_dyn.c
 * decides a replayed loop the same way) */
bool an_dyn_after_met(const struct an_dyn_run *r, const struct an_checkpoint *cp);
/* Is every required checkpoint reached? */
bool an_dyn_all_required(const struct an_dyn_run *r);

/* The loop ended at the case's timeout while a turn was in flight. */
void an_dyn_timed_out(struct an_dyn_run *r, int turn);

/* Into the test's result: checkpoints, end, reasoning; the findings of a
 * failed loop (dynamic.max_turns, dynamic.timeout, dynamic.goal_achieved)
 * and the checkpoint judges' judgements. The status is the caller's. */
void an_dyn_result(struct an_dyn_run *r, const struct an_transcript *tr, const char *simulator,
                   struct an_test_result *res);

#endif
