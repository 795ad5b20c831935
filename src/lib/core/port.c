/* The portability layer (core/port.h): for each call, the Linux one when
 * an_config.h says it is there, else the portable fallback. A port to
 * another kernel adds its own branch here (e.g. _NSGetExecutablePath for
 * an_port_self_exe on macOS, procctl(PROC_PDEATHSIG_CTL) on FreeBSD). */
#define _GNU_SOURCE
#include "core/port.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#if AN_HAVE_CLOSE_RANGE || AN_HAVE_PIDFD_OPEN
#include <sys/syscall.h>
#endif
#if AN_HAVE_GETRANDOM
#include <sys/random.h>
#endif
#if AN_HAVE_PDEATHSIG
#include <sys/prctl.h>
#endif
#if AN_HAVE_INOTIFY
#include <sys/inotify.h>
#endif

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static int set_fd_flag(int fd, int flag)
{
    int f = fcntl(fd, F_GETFD);
    return f < 0 ? -1 : fcntl(fd, F_SETFD, f | flag);
}

int an_port_pipe_cloexec(int fds[2])
{
#if AN_HAVE_PIPE2
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0)
        return -1;
    if (set_fd_flag(fds[0], FD_CLOEXEC) != 0 || set_fd_flag(fds[1], FD_CLOEXEC) != 0) {
        int e = errno;
        close(fds[0]);
        close(fds[1]);
        fds[0] = fds[1] = -1;
        errno = e;
        return -1;
    }
    return 0;
#endif
}

#define CLOEXEC_FALLBACK_MAX 65536

void an_port_cloexec_from(int low)
{
#if AN_HAVE_CLOSE_RANGE
    /* old kernels lack the call (ENOSYS): then the loop below */
    if (syscall(SYS_close_range, (unsigned)low, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
        return;
#endif
    struct rlimit rl;
    long top = CLOEXEC_FALLBACK_MAX;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY &&
        rl.rlim_cur < (rlim_t)top)
        top = (long)rl.rlim_cur;
    for (long fd = low; fd < top; fd++)
        (void)set_fd_flag((int)fd, FD_CLOEXEC); /* EBADF for the closed ones */
}

size_t an_port_random(void *buf, size_t n)
{
    unsigned char *b = buf;
    size_t got = 0;
#if AN_HAVE_GETRANDOM
    while (got < n) {
        ssize_t r = getrandom(b + got, n - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got == n)
        return got;
#endif
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0)
        return got;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    return got;
}

#if AN_HAVE_PROC_LINUX
static int read_link(const char *link, char *buf, size_t cap)
{
    if (cap < 2)
        return errno = ENAMETOOLONG, -1;
    ssize_t n = readlink(link, buf, cap - 1);
    if (n < 0)
        return -1;
    if ((size_t)n >= cap - 1) /* perhaps cut short */
        return errno = ENAMETOOLONG, -1;
    buf[n] = '\0';
    return 0;
}
#endif

int an_port_self_exe(char *buf, size_t cap)
{
#if AN_HAVE_PROC_LINUX
    return read_link("/proc/self/exe", buf, cap);
#else
    (void)buf;
    (void)cap;
    return errno = ENOSYS, -1;
#endif
}

int an_port_fd_path(int fd, char *buf, size_t cap)
{
#if AN_HAVE_PROC_LINUX
    char link[64];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    return read_link(link, buf, cap);
#else
    (void)fd;
    (void)buf;
    (void)cap;
    return errno = ENOSYS, -1;
#endif
}

int an_port_parent_death_signal(int sig)
{
#if AN_HAVE_PDEATHSIG
    return prctl(PR_SET_PDEATHSIG, sig);
#else
    (void)sig;
    return 0;
#endif
}

int an_port_pidfd_open(pid_t pid)
{
#if AN_HAVE_PIDFD_OPEN
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0)
        (void)set_fd_flag(fd, FD_CLOEXEC);
    return fd;
#else
    (void)pid;
    return errno = ENOSYS, -1;
#endif
}

int an_port_socket(int domain, int type, int protocol)
{
#if AN_HAVE_SOCK_CLOEXEC
    return socket(domain, type | SOCK_CLOEXEC | SOCK_NONBLOCK, protocol);
#else
    int fd = socket(domain, type, protocol), fl;
    if (fd >= 0 && (set_fd_flag(fd, FD_CLOEXEC) != 0 || (fl = fcntl(fd, F_GETFL)) < 0 ||
                    fcntl(fd, F_SETFL, fl | O_NONBLOCK) != 0)) {
        int e = errno;
        close(fd);
        errno = e;
        return -1;
    }
    return fd;
#endif
}

#if AN_HAVE_PROC_LINUX
/* /proc/PID/stat: "pid (comm) S ppid pgrp ...", comm may hold spaces and
 * parens. 1 when it is a live (not zombie) member of pgid. */
static bool stat_in_group(const char *pid, pid_t pgid)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%s/stat", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return false;
    buf[n] = '\0';
    char *rp = strrchr(buf, ')');
    if (!rp || rp[1] != ' ')
        return false;
    char state = rp[2];
    char *end = NULL;
    errno = 0;
    (void)strtol(rp + 3, &end, 10); /* ppid */
    long pgrp = strtol(end, NULL, 10);
    return errno == 0 && pgrp == pgid && state != 'Z' && state != 'X';
}
#endif

int an_port_group_alive(pid_t pgid)
{
#if AN_HAVE_PROC_LINUX
    DIR *d = opendir("/proc");
    if (!d)
        return -1;
    int alive = 0;
    struct dirent *e;
    while (!alive && (e = readdir(d)) != NULL)
        if (e->d_name[0] >= '1' && e->d_name[0] <= '9' && stat_in_group(e->d_name, pgid))
            alive = 1;
    closedir(d);
    return alive;
#else
    (void)pgid;
    return -1;
#endif
}

long an_port_cpu_count(void)
{
    long n = 0;
#if AN_HAVE_SCHED_GETAFFINITY
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = CPU_COUNT(&set);
#endif
    if (n <= 0)
        n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? n : 1;
}

/* an_port_thread_origin's answers for this thread */
static _Thread_local int origin_creator = -1, origin_first = -1;

void an_port_thread_origin(int *creator_cpu, int *first_cpu)
{
    *creator_cpu = origin_creator;
    *first_cpu = origin_first;
}

#if AN_HAVE_THREAD_ELSEWHERE
struct thread_start {
    void *(*fn)(void *);
    void *arg;
    int creator;   /* the creating thread's CPU, left out at the start */
    cpu_set_t all; /* the process's CPUs, restored once running */
};

static void *thread_started(void *p)
{
    struct thread_start s = *(struct thread_start *)p;
    free(p);
    origin_creator = s.creator;
    origin_first = sched_getcpu();
    pthread_setaffinity_np(pthread_self(), sizeof s.all, &s.all);
    return s.fn(s.arg);
}
#endif

/* pthread_create with a stack of stack_size bytes (0: the default). */
static int thread_plain(pthread_t *t, size_t stack_size, void *(*fn)(void *), void *arg)
{
    pthread_attr_t attr;
    if (!stack_size || pthread_attr_init(&attr))
        return pthread_create(t, NULL, fn, arg);
    pthread_attr_setstacksize(&attr, stack_size);
    int rc = pthread_create(t, &attr, fn, arg);
    pthread_attr_destroy(&attr);
    return rc;
}

int an_port_thread_start(pthread_t *t, size_t stack_size, void *(*fn)(void *), void *arg)
{
#if AN_HAVE_THREAD_ELSEWHERE
    struct thread_start *s = malloc(sizeof *s);
    int me = sched_getcpu();
    pthread_attr_t attr;
    if (s && me >= 0 && me < CPU_SETSIZE && !sched_getaffinity(0, sizeof s->all, &s->all) &&
        CPU_COUNT(&s->all) > 1 && CPU_ISSET(me, &s->all) && !pthread_attr_init(&attr)) {
        cpu_set_t others = s->all;
        CPU_CLR(me, &others);
        s->fn = fn;
        s->arg = arg;
        s->creator = me;
        if (stack_size)
            pthread_attr_setstacksize(&attr, stack_size);
        /* a refusal (e.g. EINVAL: those CPUs) is as if asked plainly, below */
        int rc = pthread_attr_setaffinity_np(&attr, sizeof others, &others)
                     ? -1
                     : pthread_create(t, &attr, thread_started, s);
        pthread_attr_destroy(&attr);
        if (!rc)
            return 0; /* s is the thread's */
    }
    free(s);
#endif
    return thread_plain(t, stack_size, fn, arg);
}

int an_port_notify_open(void)
{
#if AN_HAVE_INOTIFY
    return inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
#else
    errno = ENOSYS;
    return -1;
#endif
}

int an_port_notify_add(int fd, const char *dir)
{
#if AN_HAVE_INOTIFY
    uint32_t mask = IN_CREATE | IN_DELETE | IN_CLOSE_WRITE | IN_MODIFY | IN_MOVED_FROM |
                    IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;
    return inotify_add_watch(fd, dir, mask) < 0 ? -1 : 0;
#else
    (void)fd;
    (void)dir;
    errno = ENOSYS;
    return -1;
#endif
}

int an_port_notify_drain(int fd)
{
#if AN_HAVE_INOTIFY
    /* aligned as the kernel writes struct inotify_event records */
    char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
    int events = 0;
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return events;
        if (n <= 0)
            return n == 0 ? events : -1;
        for (char *p = buf; p < buf + n;) {
            const struct inotify_event *e = (const struct inotify_event *)(void *)p;
            events++;
            p += sizeof *e + e->len;
        }
    }
#else
    (void)fd;
    errno = ENOSYS;
    return -1;
#endif
}

#if AN_HAVE_INOTIFY && AN_HAVE_PROC_LINUX
static long read_long(const char *path)
{
    FILE *f = fopen(path, "re");
    long v = -1;
    if (!f)
        return -1;
    if (fscanf(f, "%ld", &v) != 1)
        v = -1;
    fclose(f);
    return v;
}
#endif

long an_port_notify_limit(void)
{
#if AN_HAVE_INOTIFY && AN_HAVE_PROC_LINUX
    long a = read_long("/proc/sys/fs/inotify/max_user_watches");
    long b = read_long("/proc/sys/user/max_inotify_watches");
    return a < 0 ? b : b < 0 || a < b ? a : b;
#else
    return -1;
#endif
}

int an_port_sync_fs(int fd)
{
#if AN_HAVE_SYNCFS
    return syncfs(fd);
#else
    (void)fd;
    sync();
    return 0;
#endif
}
