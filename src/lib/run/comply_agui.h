/*
 * Private to the AG-UI compliance runner: comply_agui.c (requests, streams,
 * the outcome object) and comply_agui_judge.c (expectations against an
 * outcome, pure). Unit tests call the judge directly.
 *
 * The outcome of one step is a JSON object (docs/comply.md, "The outcome"):
 *   status    completed | run_error | protocol_error | http_error | timeout
 *             | transport_error
 *   rule      the AG-UI rule a protocol_error broke ("thread-id-echo"), or null
 *   error     what went wrong, one line, or null
 *   http      {"status": 200, "contentType": "text/event-stream"}
 *   threadId, runId   what the request sent (null when it sent none)
 *   types     the event types in order, space-separated
 *   events    every event as received (a frame that is not JSON: its text)
 *   runError  {"message", "code"} of a RUN_ERROR, or null
 *   messages  the reconstructed history: what was sent, then the run's
 *   state     the state after the run (snapshots and deltas applied)
 *   warnings  the decoder's non-fatal findings
 *   body      the start of a non-2xx answer's body, or null
 */
#ifndef ANANKE_RUN_COMPLY_AGUI_H
#define ANANKE_RUN_COMPLY_AGUI_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/comply.h"

/*
 * Judge an outcome against a step's resolved expectation (`expect` and
 * `any_of`, as jsont_agui.c keeps them, ${vars} resolved): every unmet
 * part is added to `out` with `step`. Returns true when all of it matched.
 * `matched` (may be NULL) gets, for each entry of expect.events, the index
 * of the event that matched it, or -1 (a malloc'd array the caller frees).
 */
bool comply_agui_judge(const json_t *expect, const json_t *any_of, const json_t *outcome, int step,
                       struct an_comply_test *out, long **matched);

/* One line saying what the server answered, for messages and notes:
 * "HTTP 200 text/event-stream, 4 events, completed" or
 * "HTTP 200 text/event-stream, 1 event, protocol_error: protocol violation ...".
 * Caller frees. */
char *comply_agui_describe(const json_t *outcome);

#endif
