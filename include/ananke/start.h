/*
 * target.start: the agent ananke starts before the first test and stops
 * after the last (docs/config.md "Starting the agent"), as Playwright's
 * webServer does.
 *
 * - cmd runs directly (core/child: no shell, its own process group), in the
 *   project directory, with ananke's environment plus `env`; a cmd[0] of
 *   exactly "ananke-mock" is the ananke-mock beside the running ananke when
 *   there is one (so `ananke init`'s starter works from a build directory).
 * - Its stdout and stderr go to .ananke/start.log in the project directory
 *   (truncated at each start; a link there is not followed); every error
 *   after the spawn names that file.
 * - Before starting, with ready.url or ready.port, the port is probed: one
 *   that accepts a connection is an error naming it, or with
 *   reuse_existing the server there is used and nothing is started.
 * - Waiting for ready polls an_cancelled(): Ctrl-C stops the wait and the
 *   child.
 *
 * Ownership: an_start_up() hands back a handle (NULL when nothing was
 * started) that an_start_down() stops and frees; `s` and `dir` are
 * borrowed for the call only.
 */
#ifndef ANANKE_START_H
#define ANANKE_START_H

#include "ananke/err.h"
#include "ananke/model.h"

#define AN_START_LOG ".ananke/start.log"

struct an_started;

/* Start s (NULL: nothing to do) and wait until it is ready. 0 with *out set
 * (NULL when an existing server was reused), or an error (AN_EIO: a busy
 * port, cannot start, exited early, never ready; AN_ETIMEOUT: not ready in
 * time; AN_EVAR: a ${...} unset); on error nothing is left running. */
int an_start_up(struct an_started **out, const struct an_target_start *s, const char *dir,
                struct an_err *err);

/* After the run: 0 while the started process runs (or ended with status 0,
 * a launcher whose server lives on); AN_EIO when it ended otherwise (a
 * crash, or a server that could not bind its port while something else
 * answered the ready check), naming how and its log. NULL-safe. */
int an_start_check(struct an_started *st, struct an_err *err);

/* SIGTERM the group, SIGKILL what is left after a grace, reap, free.
 * NULL-safe. */
void an_start_down(struct an_started *st);

#endif
