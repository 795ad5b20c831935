/*
 * What the AG-UI mock reads from a run request (a RunAgentInput body):
 * the ids to echo, whether the turn is a user message or a connect, and the
 * text of the last user message for the rules' `match`.
 *
 * The mock is a test double, so it is lenient: a body without threadId,
 * runId or messages still gets an answer (with made-up ids); what the client
 * really sent is in the --requests log for the test to judge.
 */
#ifndef ANANKE_MOCK_AGUI_REQUEST_H
#define ANANKE_MOCK_AGUI_REQUEST_H

#include <jansson.h>

#include "agui_scenario.h"

struct agui_request {
    struct agui_request_view view;
    const char *thread_id; /* borrowed from the body, or "mock-thread" */
    const char *run_id;    /* borrowed from the body, or NULL (caller makes one) */
    char *text_owned;      /* user text joined from content parts; freed by release */
};

/* Read `body` (borrowed for the request's lifetime) posted to `path`.
 * The view is connect when the last message's role is not "user" (or there
 * are no messages). A user message's content is its string, or the `text`
 * of its {"type":"text"} parts joined with "\n". */
void agui_request_read(struct agui_request *rq, const json_t *body, const char *path);
void agui_request_release(struct agui_request *rq);

#endif
