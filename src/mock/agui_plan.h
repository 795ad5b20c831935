/*
 * AG-UI mock: turn a scripted rule into the exact bytes and pauses of one
 * streamed answer.
 *
 * Rendering is done up front, when the request arrives, into a list of
 * actions (write these bytes, sleep, cut, stall). The HTTP layer then only
 * walks the list, so everything a test asserts on the wire is decided here,
 * in plain code the unit tests can call without a socket.
 *
 * Ownership: a plan owns its bytes; agui_plan_release() frees them.
 */
#ifndef ANANKE_MOCK_AGUI_PLAN_H
#define ANANKE_MOCK_AGUI_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "agui_scenario.h"

enum agui_act_kind {
    AGUI_ACT_WRITE, /* send data[0..len) as one write */
    AGUI_ACT_SLEEP, /* wait ms before the next action */
    AGUI_ACT_CUT,   /* abort the connection */
    AGUI_ACT_STALL  /* send nothing more, keep the connection open */
};

struct agui_act {
    enum agui_act_kind kind;
    char *data;
    size_t len;
    int64_t ms;
};

struct agui_plan {
    struct agui_act *acts;
    size_t n, cap;
};
#define AGUI_PLAN_INIT {0}

/* What of the request the answer echoes. */
struct agui_plan_input {
    const char *thread_id; /* RUN_STARTED / RUN_FINISHED threadId */
    const char *run_id;    /* RUN_STARTED / RUN_FINISHED runId */
    const char *user_text; /* last user message, for the built-in answer */
    size_t user_text_len;
    unsigned long seq;     /* answer number: keeps automatic ids unique per process */
};

/* Render `rule` (a 2xx rule with steps), or the built-in "no rule matched:
 * <text>" answer when rule is NULL, into `p` (which must be empty). */
void agui_plan_build(struct agui_plan *p, const struct agui_rule *rule,
                     const struct agui_plan_input *in);
void agui_plan_release(struct agui_plan *p);

#endif
