/*
 * Asynchronous child processes: start a program in its own process group
 * with pipes to its stdio, let the caller poll them, end the whole group.
 *
 * This is the spawning half of core/proc (an_proc_run() is built on it):
 * - argv is executed directly, never through a shell; argv[0] without a '/'
 *   is looked up in the PATH of the child's environment (after `env` is
 *   applied); a file without a recognised format is run by /bin/sh, as
 *   execvp does.
 * - The child leads its own process group (pgid == pid), starts with no
 *   blocked signals and SIGPIPE at its default action, and gets only fds 0,
 *   1 and 2 (everything made here is CLOEXEC; other fds of the process are
 *   closed in the child before exec).
 * - An exec, chdir or confinement failure is reported through a CLOEXEC error pipe, so
 *   an_child_spawn() fails with "cannot run 'foo': No such file or
 *   directory" instead of handing back a child that exits 127.
 * - Our ends of the pipes are non-blocking and CLOEXEC; the child's ends
 *   stay blocking, as programs expect.
 * - No global state, no SIGCHLD: the caller must not reap children it did
 *   not start (waitpid(-1, ...)).
 *
 * Lifetime: an_child_spawn() fills a caller-owned struct an_child (zeroed
 * or not); an_child_close() ends and reaps it and closes every fd. A child
 * that was spawned must be closed exactly once; closing a child that never
 * started (pid 0) is a no-op, so `struct an_child c = AN_CHILD_INIT;` then
 * an_child_close(&c, 0) on every path is safe.
 */
#ifndef ANANKE_CORE_CHILD_H
#define ANANKE_CORE_CHILD_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "ananke/err.h"

#define AN_CHILD_GRACE_MS 500

struct an_child_opts {
    const char *const *argv; /* NULL-terminated; argv[0] must be non-empty */
    const char *cwd;         /* NULL = the caller's working directory */
    /* With use_cwd_fd: the child fchdir()s to this open directory instead
     * (cwd, if set, only names it in messages), so the directory a caller
     * checked is the one the child runs in. The fd is the caller's. */
    int cwd_fd;
    bool use_cwd_fd;
    /* NULL-terminated list, or NULL. "NAME=VALUE" adds or overrides NAME in
     * the inherited environment; a bare "NAME" removes it. Later entries win. */
    const char *const *env;
    /* true: `env` is the whole environment (bare "NAME" entries mean
     * nothing); ananke's own is not inherited */
    bool env_clear;
    bool stdin_null;   /* stdin is /dev/null (no in_fd) instead of a pipe */
    bool merge_stderr; /* stderr goes to the stdout pipe (no err_fd) */
    /* With out_to_fd: stdout and stderr both go to out_fd (a log file; the
     * caller's fd, still open after the call) instead of pipes, so
     * c->out_fd and c->err_fd stay -1 and nothing needs draining. */
    bool out_to_fd;
    int out_fd;
    /* > 0: the child (the group's leader only) gets this signal when the
     * thread that spawned it ends, ananke killed by SIGKILL included
     * (PR_SET_PDEATHSIG); spawn from a thread that lives as long as the
     * child should. 0: none. */
    int parent_death_signal;
    /* Run in Linux namespaces (core/confine.h); NULL: not confined. The
     * pid held in struct an_child is then the confinement's supervisor,
     * which ends as the program ends; cwd is entered after the mounts. The
     * caller checks an_confine_available() first: a failure here (a
     * confine path missing, a mount refused) fails the spawn. */
    const struct an_confine *confine;
};
/* clang-format off */
#define AN_CHILD_OPTS_INIT {0}
/* clang-format on */

struct an_child {
    pid_t pid;        /* also the pgid; 0 = not started or already closed */
    int in_fd;        /* write end of the child's stdin, or -1 */
    int out_fd;       /* read end of its stdout, or -1 (closed at EOF by the caller) */
    int err_fd;       /* read end of its stderr, or -1 */
    int pid_fd;       /* pidfd, readable once the child exits; -1 if the kernel has none */
    bool exited;      /* reaped: exit_code / term_signal are valid */
    int exit_code;    /* exit status, or -1 when a signal ended it */
    int term_signal;  /* the signal that ended it, or 0 */
    int64_t start_ms; /* an_clock_mono_ms() just before fork */
};
/* clang-format off */
#define AN_CHILD_INIT {.in_fd = -1, .out_fd = -1, .err_fd = -1, .pid_fd = -1, .exit_code = -1}
/* clang-format on */

/* Start o->argv. On failure *c is left closed (pid 0, fds -1) and err says
 * why: AN_EUSAGE (empty argv), AN_ENOTFOUND (program or cwd missing),
 * AN_EIO (anything else). */
int an_child_spawn(struct an_child *c, const struct an_child_opts *o, struct an_err *err);

/* The fds worth polling: stdout and stderr for POLLIN, stdin for POLLOUT
 * when want_write, the pidfd for POLLIN. Returns how many were written to
 * out (at most max). */
size_t an_child_fds(const struct an_child *c, bool want_write, struct pollfd *out, size_t max);

/* Send sig to the child's whole group, but never after the group is known
 * to be gone (its pid could be recycled). 0, or -1 with errno. */
int an_child_kill_group(struct an_child *c, int sig);

/* Reap the child if it has exited (nonblocking) or once it does. Returns
 * true when c->exited. Closes the pidfd on exit. */
bool an_child_reap(struct an_child *c, bool nonblocking);

/* Close the child's stdin (EOF for a well-behaved agent). */
void an_child_close_stdin(struct an_child *c);

/* End the child and its group and release everything: close stdin, wait up
 * to grace_ms for the leader to exit on its own (<= 0: don't wait), SIGTERM
 * the group, wait up to grace again, SIGKILL the group, reap the leader and
 * any member we inherited. Nothing of the group is left running, no zombie
 * of ours is left behind. Output still in the pipes is discarded.
 * Idempotent; a child that never started is a no-op. */
void an_child_close(struct an_child *c, int64_t grace_ms);

/* "exited with status 3" / "was killed by signal 9 (SIGKILL)" / "is running". */
const char *an_child_status_str(const struct an_child *c, char *buf, size_t cap);

/* write() that never dies of SIGPIPE: a reader that is gone is EPIPE.
 * The first call (or an_sigpipe_ignore()) sets SIGPIPE to SIG_IGN for the
 * whole process when it is at its default action, so that each write costs
 * one syscall (blocking and unblocking the signal around each write cost
 * three more); children still start with SIGPIPE at its default. A host
 * that installed a handler or ignores SIGPIPE itself keeps its choice: the
 * signal is then blocked around each write and the one the write raised is
 * consumed, in the calling thread only. A host that sets SIGPIPE back to
 * SIG_DFL after libananke ignored it must not write to children through
 * libananke any more. */
ssize_t an_write_nosigpipe(int fd, const void *p, size_t n);
/* Do the once-per-process SIGPIPE set-up of an_write_nosigpipe() now. */
void an_sigpipe_ignore(void);

/* O_NONBLOCK on fd; 0 or -1. */
int an_fd_nonblock(int fd);

#endif
