/*
 * Confinement: run a child in Linux namespaces so that the sandbox
 * directory is the only place it can write, ananke's secrets are hidden,
 * there is no network, and nothing it starts outlives it.
 *
 * What a confined program sees (docs/security.md "Confinement"):
 * - its own user namespace, with only its own uid and gid mapped (the same
 *   numbers as outside, setgroups denied, supplementary groups dropped when
 *   we may) and no capability: before exec the bounding set is emptied,
 *   ambient capabilities cleared, SECBIT_NOROOT locked and no_new_privs set;
 * - its own mount namespace: the whole tree read-only, nosuid and nodev,
 *   except the sandbox (read-write); /tmp, /var/tmp, /run, /home, /root,
 *   ananke's $HOME and $TMPDIR and the directory holding the sandbox each
 *   hidden behind an empty read-only tmpfs; paths the config lists
 *   (ro_paths, at most 32) bound read-only even where hidden (a hidden
 *   directory inside one stays hidden), and with network the file
 *   /etc/resolv.conf points to; a fresh /dev holding only
 *   null, zero, full, random, urandom (and fd, stdin, stdout, stderr
 *   links); a fresh read-only /proc of its own PID namespace;
 * - its own PID namespace, whose PID 1 is a small init of ours that reaps
 *   orphans and, when the program exits, exits with the same status
 *   (killing everything left in the namespace); the process the caller
 *   holds is a supervisor outside that forwards SIGTERM/SIGINT/SIGHUP/
 *   SIGQUIT into it and ends as the program ended (a signal death is
 *   reproduced, a core dump is not). Killing the supervisor kills the init
 *   (parent-death signal), which kills the namespace;
 * - its own network namespace with only loopback up (unless network), and
 *   its own IPC namespace.
 *
 * Requirements: unprivileged user namespaces (or root), mount_setattr()
 * (Linux 5.12), and a /proc that is fully visible (not the masked /proc of
 * an unprivileged container). an_confine_available() tries all of it once.
 *
 * Ownership: an_confine_plan_new() copies everything it is given; the plan
 * is freed with an_confine_plan_free(). an_confine_enter() runs in a
 * freshly forked child of a possibly multi-threaded process: it only makes
 * system calls and touches the plan, never allocates.
 */
#ifndef ANANKE_CORE_CONFINE_H
#define ANANKE_CORE_CONFINE_H

#include <stdbool.h>

#include "ananke/err.h"

/* What to confine a child to. Borrowed by an_confine_plan_new(). */
struct an_confine {
    const char *sandbox;         /* absolute, existing directory: the only writable place */
    const char *const *ro_paths; /* NULL-terminated, absolute, existing; may be NULL */
    bool network;                /* keep the host's network namespace */
};

struct an_confine_plan;

/* Resolve and check everything the child will need (realpaths, the list of
 * hidden directories, the uid/gid maps). AN_ENOTFOUND when the sandbox or
 * an ro_path does not exist, AN_EUSAGE when one is not absolute. */
int an_confine_plan_new(struct an_confine_plan **out, const struct an_confine *c,
                        struct an_err *err);
void an_confine_plan_free(struct an_confine_plan *p); /* NULL-safe */

/* In a forked, single-threaded child: enter the namespaces, set up the
 * mounts and the init. Returns 0 in the process that must go on to exec
 * (with every capability gone), after closing report_fd in the two
 * processes above it (which never return). Returns -1 with *step (see
 * an_confine_step_name) and errno set when something failed; the caller
 * then reports and _exits. */
int an_confine_enter(const struct an_confine_plan *p, int report_fd, int *step);

/* "unshare", "mount a tmpfs on a hidden directory", ... */
const char *an_confine_step_name(int step);

/* Can children be confined here? Tried once per process (a child does the
 * whole set-up and exits); later calls return the same answer. AN_OK, or
 * AN_EIO with err saying what failed ("cannot confine: unshare: No space
 * left on device"). */
int an_confine_available(struct an_err *err);

/* Print `msg` to stderr as "ananke: warning: ..." the first time it is
 * called in this process, and nothing after: the fallback to unconfined
 * children is said once per run. */
void an_confine_warn_once(const char *msg);

#endif
