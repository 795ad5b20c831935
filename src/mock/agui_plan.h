/*
 * AG-UI mock: turn a scripted rule into the exact bytes and pauses of one
 * streamed answer.
 *
 * Rendering is done up front, when the request arrives, into a mock_plan
 * (write these bytes, sleep, cut, stall). The HTTP layer then only walks
 * the list, so everything a test asserts on the wire is decided here, in
 * plain code the unit tests can call without a socket.
 *
 * Ownership: a plan owns its bytes; mock_plan_release() frees them.
 */
#ifndef ANANKE_MOCK_AGUI_PLAN_H
#define ANANKE_MOCK_AGUI_PLAN_H

#include <stddef.h>

#include "agui_scenario.h"
#include "mock_plan.h"

/* What of the request the answer echoes. */
struct agui_plan_input {
    const char *thread_id; /* RUN_STARTED / RUN_FINISHED threadId */
    const char *run_id;    /* RUN_STARTED / RUN_FINISHED runId */
    const char *user_text; /* last user message, for the built-in answer */
    size_t user_text_len;
    unsigned long seq; /* answer number: keeps automatic ids unique per process */
};

/* Render `rule` (a 2xx rule with steps), or the built-in "no rule matched:
 * <text>" answer when rule is NULL, into `p` (which must be empty). */
void agui_plan_build(struct mock_plan *p, const struct agui_rule *rule,
                     const struct agui_plan_input *in);

#endif
