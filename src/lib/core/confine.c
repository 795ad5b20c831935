/* Linux namespaces around a child (confine.h). The set-up runs in three
 * processes, all after a fork of a possibly multi-threaded ananke, so
 * everything below an_confine_enter() makes system calls only:
 *
 *   supervisor (the pid the caller holds; ananke's side of the PID
 *   namespace): unshare, uid/gid maps, mounts, then fork
 *     init (PID 1 of the new namespace): a fresh /proc, then fork
 *       program: capabilities dropped, returns to exec
 *
 * The mounts are made by the supervisor in the order that lets each one
 * land: clones of what stays visible (open_tree) are taken first, then,
 * ancestors first, each hidden directory gets its tmpfs and each clone is
 * moved back onto its own path (its mount point made inside the tmpfs),
 * then the whole tree is made read-only in one mount_setattr() and the
 * sandbox alone made writable again. */
#define _GNU_SOURCE

#include "core/confine.h"
#include "core/port.h"

/* Where the system has no namespaces, confine_none.c answers instead. */
#if AN_HAVE_CONFINE

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <net/if.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"

#if defined(SYS_open_tree) && defined(SYS_move_mount) && defined(SYS_mount_setattr) &&             \
    defined(MOUNT_ATTR_RDONLY)
#define HAVE_MOUNT_API 1
#else
#define HAVE_MOUNT_API 0
#endif

#ifndef OPEN_TREE_CLOEXEC
#define OPEN_TREE_CLOEXEC O_CLOEXEC
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif
#ifndef PR_CAP_AMBIENT
#define PR_CAP_AMBIENT 47
#define PR_CAP_AMBIENT_CLEAR_ALL 4
#endif
/* linux/securebits.h */
#define SECBIT_NOROOT_ (1 << 0)
#define SECBIT_NOROOT_LOCKED_ (1 << 1)
#define SECBIT_NO_CAP_AMBIENT_RAISE_ (1 << 6)
#define SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED_ (1 << 7)

#define MAX_RO_PATHS 32
#define MAX_HIDE 16

enum step {
    S_NOSYS = 1,
    S_UNSHARE,
    S_SETGROUPS,
    S_UIDMAP,
    S_GIDMAP,
    S_PRIVATE,
    S_CLONE,
    S_HIDE,
    S_DEV,
    S_BIND,
    S_RDONLY,
    S_RW,
    S_LOOPBACK,
    S_FORK,
    S_PROC,
    S_CAPS,
};

const char *an_confine_step_name(int step)
{
    switch ((enum step)step) {
    case S_NOSYS:
        return "mount_setattr (Linux 5.12) is not available";
    case S_UNSHARE:
        return "unshare (user, mount, pid, ipc, network namespaces)";
    case S_SETGROUPS:
        return "write /proc/self/setgroups";
    case S_UIDMAP:
        return "write /proc/self/uid_map";
    case S_GIDMAP:
        return "write /proc/self/gid_map";
    case S_PRIVATE:
        return "make the mounts private";
    case S_CLONE:
        return "clone a path to keep visible (open_tree)";
    case S_HIDE:
        return "mount a tmpfs on a hidden directory";
    case S_DEV:
        return "set up /dev";
    case S_BIND:
        return "bind a kept path (move_mount)";
    case S_RDONLY:
        return "make the file system read-only (mount_setattr)";
    case S_RW:
        return "make the sandbox writable (mount_setattr)";
    case S_LOOPBACK:
        return "bring up loopback";
    case S_FORK:
        return "fork the namespace's init";
    case S_PROC:
        return "mount /proc";
    case S_CAPS:
        return "drop capabilities";
    }
    return "set up";
}

struct keep {
    char *path;
    bool dir;
    bool rw;
};

struct an_confine_plan {
    /* the sandbox, the ro paths, and resolv.conf's target with network */
    struct keep keep[MAX_RO_PATHS + 2]; /* ancestors first */
    size_t nkeep;
    char *hide[MAX_HIDE]; /* ancestors first */
    size_t nhide;
    bool network;
    char uid_map[48], gid_map[48];
};

/* The device nodes a program may use; each is a bind of the host's. */
static const char *const devs[] = {"null", "zero", "full", "random", "urandom"};
#define NDEVS (sizeof devs / sizeof devs[0])

/* ---- the plan, made in the parent ---- */

static int by_length(const void *a, const void *b)
{
    size_t la = strlen(*(char *const *)a), lb = strlen(*(char *const *)b);
    return la < lb ? -1 : la > lb;
}

static int keep_by_length(const void *a, const void *b)
{
    const struct keep *x = a, *y = b;
    size_t la = strlen(x->path), lb = strlen(y->path);
    return la < lb ? -1 : la > lb;
}

static void add_hide(struct an_confine_plan *p, const char *path)
{
    if (!path || path[0] != '/' || p->nhide == MAX_HIDE)
        return;
    char *real = realpath(path, NULL);
    struct stat st;
    if (!real || strcmp(real, "/") == 0 || stat(real, &st) != 0 || !S_ISDIR(st.st_mode)) {
        free(real);
        return;
    }
    for (size_t i = 0; i < p->nhide; i++)
        if (strcmp(p->hide[i], real) == 0) {
            free(real);
            return;
        }
    p->hide[p->nhide++] = real;
}

static int add_keep(struct an_confine_plan *p, const char *path, bool rw, struct an_err *err)
{
    if (!path || path[0] != '/')
        return an_fail(err, AN_EUSAGE, NULL, "confine path '%s' is not absolute", path ? path : "");
    if (p->nkeep > MAX_RO_PATHS)
        return an_fail(err, AN_EUSAGE, NULL, "too many confine paths (at most %d)", MAX_RO_PATHS);
    char *real = realpath(path, NULL);
    struct stat st;
    if (!real || stat(real, &st) != 0) {
        int e = errno;
        free(real);
        return an_fail(err, AN_ENOTFOUND, NULL, "confine path '%s': %s", path, strerror(e));
    }
    if (rw && !S_ISDIR(st.st_mode)) {
        free(real);
        return an_fail(err, AN_ENOTFOUND, NULL, "sandbox '%s' is not a directory", path);
    }
    p->keep[p->nkeep++] = (struct keep){real, S_ISDIR(st.st_mode), rw};
    return AN_OK;
}

int an_confine_plan_new(struct an_confine_plan **out, const struct an_confine *c,
                        struct an_err *err)
{
    *out = NULL;
    struct an_confine_plan *p = an_xcalloc(1, sizeof *p);
    int rc = AN_OK;
    if (c->sandbox && (rc = add_keep(p, c->sandbox, true, err)))
        goto fail;
    for (size_t i = 0; c->ro_paths && c->ro_paths[i]; i++)
        if ((rc = add_keep(p, c->ro_paths[i], false, err)))
            goto fail;
    if (c->network && c->sandbox) {
        /* DNS keeps working when resolv.conf points into a hidden /run
         * (systemd-resolved's stub-resolv.conf) */
        char *rc_real = realpath("/etc/resolv.conf", NULL);
        if (rc_real && strncmp(rc_real, "/etc/", 5) != 0)
            p->keep[p->nkeep++] = (struct keep){rc_real, false, false};
        else
            free(rc_real);
    }
    qsort(p->keep, p->nkeep, sizeof p->keep[0], keep_by_length);
    if (c->sandbox) {
        static const char *const fixed[] = {"/tmp",     "/var/tmp", "/run",
                                            "/var/run", "/home",    "/root"};
        for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
            add_hide(p, fixed[i]);
        add_hide(p, getenv("HOME"));
        add_hide(p, getenv("TMPDIR"));
        /* the other tests' sandboxes sit next to this one */
        char parent[PATH_MAX];
        const char *sb = p->keep[0].path;
        for (size_t i = 0; i < p->nkeep; i++)
            if (p->keep[i].rw)
                sb = p->keep[i].path;
        snprintf(parent, sizeof parent, "%s", sb);
        char *slash = strrchr(parent, '/');
        if (slash && slash != parent) {
            *slash = '\0';
            add_hide(p, parent);
        }
        qsort(p->hide, p->nhide, sizeof p->hide[0], by_length);
    }
    p->network = c->network;
    snprintf(p->uid_map, sizeof p->uid_map, "%u %u 1\n", (unsigned)getuid(), (unsigned)getuid());
    snprintf(p->gid_map, sizeof p->gid_map, "%u %u 1\n", (unsigned)getgid(), (unsigned)getgid());
    *out = p;
    return AN_OK;
fail:
    an_confine_plan_free(p);
    return rc;
}

void an_confine_plan_free(struct an_confine_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nkeep; i++)
        free(p->keep[i].path);
    for (size_t i = 0; i < p->nhide; i++)
        free(p->hide[i]);
    free(p);
}

/* ---- in the child: system calls only ---- */

static int put(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t n = strlen(text);
    ssize_t w = write(fd, text, n);
    int e = errno;
    close(fd);
    errno = e;
    return w == (ssize_t)n ? 0 : -1;
}

/* Make the mount point for a kept path: its missing parents (inside a
 * hidden tmpfs; elsewhere they exist) and itself, a directory or a file. */
static void mount_point(const char *path, bool dir)
{
    char b[PATH_MAX];
    size_t n = strlen(path);
    if (n >= sizeof b)
        return;
    memcpy(b, path, n + 1);
    for (size_t i = 1; i < n; i++)
        if (b[i] == '/') {
            b[i] = '\0';
            (void)mkdir(b, 0755);
            b[i] = '/';
        }
    if (dir) {
        (void)mkdir(b, 0755);
    } else {
        int fd = open(b, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
        if (fd >= 0)
            close(fd);
    }
}

#if HAVE_MOUNT_API
static int open_tree_(const char *path)
{
    return (int)syscall(SYS_open_tree, AT_FDCWD, path,
                        OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE);
}

static int move_mount_(int fd, const char *to)
{
    return (int)syscall(SYS_move_mount, fd, "", AT_FDCWD, to, MOVE_MOUNT_F_EMPTY_PATH);
}

static int setattr_(const char *path, unsigned flags, uint64_t set, uint64_t clr)
{
    struct mount_attr a;
    memset(&a, 0, sizeof a);
    a.attr_set = set;
    a.attr_clr = clr;
    return (int)syscall(SYS_mount_setattr, AT_FDCWD, path, flags, &a, sizeof a);
}
#endif

static void close_all(int *fds, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (fds[i] >= 0) {
            close(fds[i]);
            fds[i] = -1;
        }
}

static int loopback_up(void)
{
    int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (s < 0)
        return -1;
    struct ifreq ifr;
    memset(&ifr, 0, sizeof ifr);
    memcpy(ifr.ifr_name, "lo", 3);
    int rc = ioctl(s, SIOCGIFFLAGS, &ifr);
    if (rc == 0) {
        ifr.ifr_flags |= IFF_UP;
        rc = ioctl(s, SIOCSIFFLAGS, &ifr);
    }
    int e = errno;
    close(s);
    errno = e;
    return rc;
}

/* Everything the mount namespace needs, done by the supervisor. */
static int set_up_mounts(const struct an_confine_plan *p, int *step)
{
#if HAVE_MOUNT_API
    int keep_fd[MAX_RO_PATHS + 2], dev_fd[NDEVS];
    for (size_t i = 0; i < MAX_RO_PATHS + 2; i++)
        keep_fd[i] = -1;
    for (size_t i = 0; i < NDEVS; i++)
        dev_fd[i] = -1;
    int rc = -1;
    char path[64];

    *step = S_PRIVATE;
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        goto done;
    *step = S_CLONE;
    for (size_t i = 0; i < p->nkeep; i++)
        if ((keep_fd[i] = open_tree_(p->keep[i].path)) < 0)
            goto done;
    for (size_t i = 0; i < NDEVS; i++) {
        memcpy(path, "/dev/", 5);
        memcpy(path + 5, devs[i], strlen(devs[i]) + 1);
        dev_fd[i] = open_tree_(path); /* a missing node is left out */
    }
    *step = S_DEV;
    if (mount("tmpfs", "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k") != 0)
        goto done;
    for (size_t i = 0; i < NDEVS; i++) {
        if (dev_fd[i] < 0)
            continue;
        memcpy(path, "/dev/", 5);
        memcpy(path + 5, devs[i], strlen(devs[i]) + 1);
        mount_point(path, false);
        if (move_mount_(dev_fd[i], path) != 0)
            goto done;
    }
    if (symlink("/proc/self/fd", "/dev/fd") || symlink("/proc/self/fd/0", "/dev/stdin") ||
        symlink("/proc/self/fd/1", "/dev/stdout") || symlink("/proc/self/fd/2", "/dev/stderr") ||
        mkdir("/dev/shm", 0755))
        goto done;
    /* hidden and kept paths, ancestors first (a hidden path inside a kept
     * one stays hidden; a kept path inside a hidden one is seen), the kept
     * one last when they are the same */
    for (size_t h = 0, k = 0; h < p->nhide || k < p->nkeep;) {
        if (h < p->nhide && (k == p->nkeep || strlen(p->hide[h]) <= strlen(p->keep[k].path))) {
            *step = S_HIDE;
            if (mount("tmpfs", p->hide[h], "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=64k") !=
                    0 &&
                errno != ENOENT && errno != ENOTDIR)
                goto done; /* ENOENT: under a directory hidden already */
            h++;
            continue;
        }
        *step = S_BIND;
        mount_point(p->keep[k].path, p->keep[k].dir);
        if (move_mount_(keep_fd[k], p->keep[k].path) != 0)
            goto done;
        k++;
    }
    *step = S_RDONLY;
    if (setattr_("/", AT_RECURSIVE, MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, 0))
        goto done;
    *step = S_RW;
    if (setattr_("/dev", AT_RECURSIVE, 0, MOUNT_ATTR_NODEV))
        goto done;
    for (size_t i = 0; i < p->nkeep; i++)
        if (p->keep[i].rw && setattr_(p->keep[i].path, 0, 0, MOUNT_ATTR_RDONLY))
            goto done;
    rc = 0;
done:;
    int e = errno;
    close_all(keep_fd, MAX_RO_PATHS + 2);
    close_all(dev_fd, NDEVS);
    errno = e;
    return rc;
#else
    (void)p;
    *step = S_NOSYS;
    errno = ENOSYS;
    return -1;
#endif
}

static volatile sig_atomic_t forward_to; /* a pid; -1: every process of the namespace */

static void forward(int sig)
{
    int e = errno;
    if (forward_to)
        kill((pid_t)forward_to, sig);
    errno = e;
}

static const int forwarded[] = {SIGTERM, SIGINT, SIGHUP, SIGQUIT};
#define NFORWARDED (sizeof forwarded / sizeof forwarded[0])

static void set_forwarding(bool on)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on ? forward : SIG_DFL;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaction(forwarded[i], &sa, NULL);
}

static void block_forwarded(int how)
{
    sigset_t s;
    sigemptyset(&s);
    for (size_t i = 0; i < NFORWARDED; i++)
        sigaddset(&s, forwarded[i]);
    sigprocmask(how, &s, NULL);
}

/* End as the program ended: its exit code, or its signal. */
static _Noreturn void end_like(int status)
{
    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) {
        int sig = WTERMSIG(status);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = SIG_DFL;
        sigemptyset(&sa.sa_mask);
        sigaction(sig, &sa, NULL);
        struct rlimit none = {0, 0};
        setrlimit(RLIMIT_CORE, &none);
        sigset_t s;
        sigemptyset(&s);
        sigaddset(&s, sig);
        sigprocmask(SIG_UNBLOCK, &s, NULL);
        kill(getpid(), sig);
        _exit(128 + sig);
    }
    _exit(127);
}

static int drop_caps(void)
{
    (void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
    for (unsigned long cap = 0; cap < 64; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0) {
            if (errno == EINVAL)
                break; /* past the last capability this kernel knows */
            return -1;
        }
    if (prctl(PR_SET_SECUREBITS,
              SECBIT_NOROOT_ | SECBIT_NOROOT_LOCKED_ | SECBIT_NO_CAP_AMBIENT_RAISE_ |
                  SECBIT_NO_CAP_AMBIENT_RAISE_LOCKED_,
              0, 0, 0) != 0)
        return -1;
    return prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
}

/* PID 1 of the new namespace. Returns only in the program (0) or on a
 * failure (-1, report_fd still open). */
static int init_main(int report_fd, const int status_pipe[2], int *step)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    /* the supervisor may have died before that: then nobody reads the
     * status pipe any more, and its write end polls POLLERR */
    struct pollfd life = {.fd = status_pipe[1], .events = POLLOUT};
    if (poll(&life, 1, 0) == 1 && (life.revents & POLLERR))
        _exit(1);
    *step = S_PROC;
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) != 0)
        return -1;
    forward_to = -1; /* kill(-1, sig): every process of the namespace but us */
    block_forwarded(SIG_BLOCK);
    set_forwarding(true);
    pid_t prog = fork();
    if (prog < 0) {
        *step = S_FORK;
        return -1;
    }
    if (prog == 0) {
        set_forwarding(false);
        block_forwarded(SIG_UNBLOCK);
        close(status_pipe[0]);
        close(status_pipe[1]);
        *step = S_CAPS;
        return drop_caps();
    }
    close(report_fd);
    close(status_pipe[0]);
    close(0);
    close(1);
    close(2);
    block_forwarded(SIG_UNBLOCK);
    int status = 0;
    for (;;) {
        int st;
        pid_t w = waitpid(-1, &st, 0);
        if (w == prog) {
            status = st;
            break;
        }
        if (w < 0 && errno != EINTR)
            break;
    }
    ssize_t wr = write(status_pipe[1], &status, sizeof status);
    (void)wr;
    /* PID 1 leaving ends every process left in the namespace */
    _exit(0);
}

int an_confine_enter(const struct an_confine_plan *p, int report_fd, int *step)
{
    /* ananke's other fds (other children's pipes, sockets) are CLOEXEC,
     * but the supervisor and the init never exec: they must not keep them */
    if (report_fd > 3)
        syscall(SYS_close_range, 3U, (unsigned)report_fd - 1, 0U);
    syscall(SYS_close_range, (unsigned)report_fd + 1, ~0U, 0U);
    *step = S_UNSHARE;
    (void)setgroups(0, NULL); /* root's supplementary groups; others may not */
    int flags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC;
    if (!p->network)
        flags |= CLONE_NEWNET;
    if (unshare(flags) != 0)
        return -1;
    *step = S_SETGROUPS;
    if (put("/proc/self/setgroups", "deny") != 0 && errno != ENOENT)
        return -1;
    *step = S_UIDMAP;
    if (put("/proc/self/uid_map", p->uid_map) != 0)
        return -1;
    *step = S_GIDMAP;
    if (put("/proc/self/gid_map", p->gid_map) != 0)
        return -1;
    if (set_up_mounts(p, step) != 0)
        return -1;
    *step = S_LOOPBACK;
    if (!p->network && loopback_up() != 0)
        return -1;
    int status_pipe[2];
    *step = S_FORK;
    if (pipe2(status_pipe, O_CLOEXEC) != 0)
        return -1;
    pid_t init = fork();
    if (init < 0)
        return -1;
    if (init == 0)
        return init_main(report_fd, status_pipe, step);

    /* the supervisor: holds nothing of the program's, forwards signals,
     * waits, ends as the program did */
    close(status_pipe[1]);
    close(report_fd);
    close(0);
    close(1);
    close(2);
    forward_to = init;
    set_forwarding(true);
    int st = 0;
    while (waitpid(init, &st, 0) < 0 && errno == EINTR)
        ;
    int prog = 0;
    ssize_t n;
    do
        n = read(status_pipe[0], &prog, sizeof prog);
    while (n < 0 && errno == EINTR);
    end_like(n == (ssize_t)sizeof prog ? prog : st);
}

/* ---- availability, once per process ---- */

static pthread_once_t probe_once = PTHREAD_ONCE_INIT;
static int probe_step, probe_errno;
static bool probe_ok;

static void probe(void)
{
    struct an_confine_plan plan;
    memset(&plan, 0, sizeof plan);
    snprintf(plan.uid_map, sizeof plan.uid_map, "%u %u 1\n", (unsigned)getuid(),
             (unsigned)getuid());
    snprintf(plan.gid_map, sizeof plan.gid_map, "%u %u 1\n", (unsigned)getgid(),
             (unsigned)getgid());
    int rep[2];
    if (pipe2(rep, O_CLOEXEC) != 0) {
        probe_step = S_FORK;
        probe_errno = errno;
        return;
    }
    pid_t pid = fork();
    if (pid < 0) {
        probe_step = S_FORK;
        probe_errno = errno;
        close(rep[0]);
        close(rep[1]);
        return;
    }
    if (pid == 0) {
        close(rep[0]);
        int step = 0;
        if (an_confine_enter(&plan, rep[1], &step) != 0) {
            int r[2] = {step, errno};
            ssize_t w = write(rep[1], r, sizeof r);
            (void)w;
            _exit(1);
        }
        _exit(0);
    }
    close(rep[1]);
    int r[2] = {0, 0};
    size_t got = 0;
    while (got < sizeof r) {
        ssize_t n = read(rep[0], (char *)r + got, sizeof r - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    close(rep[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (got == sizeof r) {
        probe_step = r[0];
        probe_errno = r[1];
    } else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        probe_step = S_FORK;
        probe_errno = ECHILD;
    } else {
        probe_ok = true;
    }
}

int an_confine_available(struct an_err *err)
{
    pthread_once(&probe_once, probe);
    if (probe_ok)
        return AN_OK;
    char eb[128];
    return an_fail(err, AN_EIO, NULL, "cannot confine: %s: %s", an_confine_step_name(probe_step),
                   strerror_r(probe_errno, eb, sizeof eb));
}

#endif /* AN_HAVE_CONFINE */
