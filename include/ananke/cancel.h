/*
 * Cancellation: one process-wide flag that a signal handler may set.
 *
 * Ctrl-C (SIGINT) or SIGTERM must end a run cleanly: no hook, agent or
 * terminal left running, the results so far reported. The CLI's handler
 * calls an_cancel_request() (async-signal-safe); loops that wait (the
 * scheduler, child-process supervision) poll an_cancelled() at least every
 * AN_CANCEL_POLL_MS and wind down.
 */
#ifndef ANANKE_CANCEL_H
#define ANANKE_CANCEL_H

#include <stdbool.h>

#define AN_CANCEL_POLL_MS 100

void an_cancel_request(void); /* async-signal-safe */
bool an_cancelled(void);
void an_cancel_reset(void); /* tests */

/* Writes to a reader that went away (`ananke run | head`) fail with EPIPE
 * instead of killing the process: SIGPIPE ignored, once per process. */
void an_sigpipe_ignore(void);

#endif
