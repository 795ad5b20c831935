/*
 * The portability layer: every call that Linux has and other kernels lack
 * (or spell differently) goes through here, so that a macOS or BSD port is
 * this header's port.c (and confine_none.c) rather than a hunt through the
 * tree. tests/lint.sh refuses those calls anywhere else in src/.
 *
 * What is available is probed when configuring (cmake/port.cmake writes
 * an_config.h with one AN_HAVE_* per probe); port.c then uses the Linux call
 * or a portable fallback. Each function says what its fallback does and
 * what it loses. Features that only Linux has are never imitated: the
 * confinement in namespaces (core/confine.h) reports itself unavailable
 * (confine_none.c), and openat2() gives way to the O_NOFOLLOW component
 * walk of proto/acp_path.c, which gives the same answers.
 *
 * -DANANKE_PORT_FORCE_FALLBACK=ON builds every fallback on Linux;
 * tests/port-fallback.sh runs tests/unit/test_port.c and the suites that use
 * these calls against that build.
 *
 * The functions set errno and return -1 on failure unless they say
 * otherwise; none allocates. Those marked "async-signal-safe" may be called
 * in a forked child of a multi-threaded process.
 */
#ifndef ANANKE_CORE_PORT_H
#define ANANKE_CORE_PORT_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "an_config.h"

/* O_PATH (Linux): an fd that names a file without opening it. There is no
 * fallback: where it is missing (AN_HAVE_O_PATH 0) the ACP sandbox refuses
 * to open (proto/acp_client.c); AN_O_PATH is then 0 so the code compiles. */
#if AN_HAVE_O_PATH
#define AN_O_PATH O_PATH
#else
#define AN_O_PATH 0
#endif

/* A pipe whose two ends are close-on-exec. pipe2(O_CLOEXEC) is atomic; the
 * fallback (pipe() then fcntl) leaves a window in which a fork in another
 * thread inherits the ends until its exec closes them. */
int an_port_pipe_cloexec(int fds[2]);

/* Mark every fd >= low close-on-exec. Async-signal-safe. close_range(2)
 * covers every fd; the fallback marks the fds below the soft RLIMIT_NOFILE,
 * at most the first 65536. Best effort: returns nothing. */
void an_port_cloexec_from(int low);

/* Fill buf with n bytes from the kernel's random source: getrandom(), else
 * /dev/urandom. Returns the number of bytes filled (n, or fewer when the
 * source failed: the caller decides what a short read means). */
size_t an_port_random(void *buf, size_t n);

/* The absolute path of the running program (/proc/self/exe), NUL-ended in
 * buf. The fallback has none: -1 with ENOSYS (callers then look elsewhere:
 * the data directory is not found, "ananke-mock" is looked up in PATH).
 * ENAMETOOLONG when the path might not fit. */
int an_port_self_exe(char *buf, size_t cap);

/* The path the kernel resolved when fd (a directory) was opened
 * (/proc/self/fd/N). The fallback has none: -1 with ENOSYS. */
int an_port_fd_path(int fd, char *buf, size_t cap);

/* Ask for signal sig when the parent exits (prctl PR_SET_PDEATHSIG).
 * Async-signal-safe. The fallback does nothing and returns 0: a started
 * server outlives an ananke killed with SIGKILL (docs/internals.md
 * "Portability"). */
int an_port_parent_death_signal(int sig);

/* An fd that polls readable once child pid exits (pidfd_open), close-on-
 * exec; -1 where there is none (the fallback, old kernels, valgrind):
 * callers then poll with short ticks. */
int an_port_pidfd_open(pid_t pid);

/* socket(domain, type, protocol), close-on-exec and non-blocking. The
 * fallback sets the two flags after the call (the same window as the
 * pipe's). */
int an_port_socket(int domain, int type, int protocol);

/* Is a process of group pgid alive and not a zombie? 1 yes, 0 no, -1 this
 * system cannot tell (the fallback, or /proc unreadable): the caller then
 * trusts kill(-pgid, 0), which counts zombies as alive. */
int an_port_group_alive(pid_t pgid);

/* The CPUs this process may run on (sched_getaffinity), else the online
 * CPUs (sysconf); at least 1. */
long an_port_cpu_count(void);

/* pthread_create(t, NULL or a stack of stack_size bytes, fn, arg), the new
 * thread started on another CPU than the caller's, then free to run on any
 * this process may use (it restores its affinity first thing). Left to the
 * kernel, a new thread often waited on its creator's CPU while another one
 * idled, until the next balance (up to a scheduler tick: 3-4 ms on the
 * 2-core CI machine, where a 3 ms load then took 5; docs/performance.md,
 * session 18). Where the process may use one CPU only, and in the fallback
 * (no sched_getcpu or pthread_attr_setaffinity_np), it is pthread_create.
 * Returns pthread_create's code (0 or an error number). */
int an_port_thread_start(pthread_t *t, size_t stack_size, void *(*fn)(void *), void *arg);
/* For the calling thread, when an_port_thread_start placed it: the CPU its
 * creator was on, and the one it first ran on (never the same); both -1
 * for a thread started plainly (tests/unit/test_port.c). */
void an_port_thread_origin(int *creator_cpu, int *first_cpu);

/* Change events on directories, for watch mode (core/watch.c): inotify.
 * an_port_notify_open() gives a non-blocking, close-on-exec fd that polls
 * readable when something in a watched directory changes; the fallback has
 * none (-1 with ENOSYS) and the caller compares mtimes at intervals.
 * an_port_notify_add() watches one directory (its entries created, deleted,
 * written, renamed in or out, their attributes changed; a symbolic link to
 * a directory is followed, so callers resolve loops themselves): 0, or -1
 * with errno (ENOSPC: the watch limit is reached).
 * an_port_notify_drain() reads every pending event: how many (an overflow
 * of the kernel's queue counts as one), 0 none, -1 on error. */
int an_port_notify_open(void);
int an_port_notify_add(int fd, const char *dir);
int an_port_notify_drain(int fd);

/* What is written to the file system that holds the open fd, on disk:
 * syncfs, the fallback sync() (every file system). 0, or -1 with errno. */
int an_port_sync_fs(int fd);

/* The inotify watch limit that applies to this process: the lower of
 * fs.inotify.max_user_watches and the user namespace's
 * user.max_inotify_watches; -1 unknown (the fallback). */
long an_port_notify_limit(void);

#endif
