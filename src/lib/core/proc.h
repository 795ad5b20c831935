/*
 * Child processes: run a program to completion, feed its stdin, capture its
 * stdout and stderr into capped buffers, enforce a timeout, reap it.
 *
 * Invariants:
 * - argv is executed directly, never through a shell. An argv[0] without a
 *   '/' is looked up in the PATH of the child's environment (after o->env is
 *   applied; "/bin:/usr/bin" when PATH is unset). A file that exists but has
 *   no recognised format (a script without "#!") is run by /bin/sh, as
 *   execvp does.
 * - The child leads its own process group (its pgid is its pid). On timeout
 *   the whole group gets SIGTERM, then SIGKILL after grace_ms, and the child
 *   is reaped. A process that leaves the group (setsid) is beyond reach.
 * - When the child exits on its own, the rest of its group is left alone (a
 *   setup script may start a service on purpose): their output is read for
 *   at most grace_ms after the exit, then the pipes are closed, so a
 *   background process holding stdout cannot hang the caller.
 * - Output is always read, also past a cap (it is then discarded and the
 *   *_truncated flag set), so a chatty child never blocks on a full pipe.
 * - The child gets only fds 0, 1 and 2: every fd made here is CLOEXEC, and
 *   any other fd of the process is closed in the child before exec. It
 *   starts with no blocked signals and SIGPIPE at its default action.
 * - No global state but SIGPIPE: threads may run children concurrently.
 *   Writing to a child that stopped reading its stdin is a plain EPIPE, never
 *   a signal death: SIGPIPE is ignored process-wide once when it is at its
 *   default action (see an_write_nosigpipe in core/child.h), else swallowed
 *   in the calling thread. SIGCHLD is neither used nor changed; the caller
 *   must not reap children it did not start (waitpid(-1, ...)).
 *
 * Ownership: o and everything it points to are borrowed for the call.
 * an_proc_run() always initializes *r, even when it fails; the caller
 * releases it with an_proc_result_release().
 */
#ifndef ANANKE_CORE_PROC_H
#define ANANKE_CORE_PROC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ananke/err.h"
#include "core/buf.h"

#define AN_PROC_GRACE_MS 500
#define AN_PROC_STDOUT_MAX ((size_t)1 << 20)
#define AN_PROC_STDERR_MAX ((size_t)64 << 10)

struct an_proc_opts {
    const char *const *argv; /* NULL-terminated; argv[0] must be non-empty */
    const char *cwd;         /* NULL = the caller's working directory */
    /* NULL-terminated list, or NULL. "NAME=VALUE" adds or overrides NAME in
     * the inherited environment; a bare "NAME" removes it. Later entries win. */
    const char *const *env;
    const char *stdin_data; /* NULL = stdin is /dev/null */
    size_t stdin_len;       /* bytes of stdin_data; then stdin is closed */
    size_t stdout_max;      /* bytes kept; 0 keeps nothing, SIZE_MAX no cap */
    size_t stderr_max;
    int64_t timeout_ms; /* 0 = none */
    int64_t grace_ms;   /* SIGTERM to SIGKILL, and the linger after exit;
                           <= 0 means AN_PROC_GRACE_MS */
};
/* clang-format off */
#define AN_PROC_OPTS_INIT                                                                      \
    {.stdout_max = AN_PROC_STDOUT_MAX, .stderr_max = AN_PROC_STDERR_MAX,                       \
     .grace_ms = AN_PROC_GRACE_MS}
/* clang-format on */

struct an_proc_result {
    pid_t pid;       /* the child's pid and pgid, already reaped; 0 if none */
    int exit_code;   /* its exit status, or -1 when a signal ended it */
    int term_signal; /* the signal that ended it, or 0 */
    bool timed_out;  /* the timeout fired (term_signal is then usually
                        SIGTERM or SIGKILL, but the child may have exited) */
    bool cancelled;  /* ... because the run was cancelled (Ctrl-C), not the timeout */
    bool stdout_truncated, stderr_truncated;
    int64_t duration_ms; /* from start to reap */
    /* NUL-terminated for convenience; may hold NULs, so use .len. */
    struct an_buf stdout_buf, stderr_buf;
};

/* Run o->argv to completion and describe how it ended in *r.
 *
 * Returns AN_OK once the child has been started and reaped, whatever its
 * exit status, signal or timeout: that is data in *r, not an error. Fails
 * only when the child could not be started, with a message such as
 * "cannot run 'foo': No such file or directory":
 *   AN_EUSAGE    argv is missing or argv[0] is empty;
 *   AN_ENOTFOUND the program or the working directory does not exist;
 *   AN_EIO       any other exec, chdir, pipe or fork failure. */
int an_proc_run(const struct an_proc_opts *o, struct an_proc_result *r, struct an_err *err);

/* Free the buffers of r and reset it; r may be reused. NULL-safe. */
void an_proc_result_release(struct an_proc_result *r);

/* "exited with status 3" or "was killed by signal 9 (SIGKILL)" into buf;
 * returns buf. Says nothing about timeouts: check r->timed_out first. */
const char *an_proc_status_str(const struct an_proc_result *r, char *buf, size_t cap);

/* "SIGTERM" for SIGTERM; "SIG?" for signals outside the common set. */
const char *an_proc_signame(int sig);

#endif
