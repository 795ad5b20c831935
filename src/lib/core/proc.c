/* pipe2() (atomic CLOEXEC, so a fork in another thread cannot inherit a
 * pipe between pipe() and fcntl()) is a GNU extension in glibc 2.36. */
#define _GNU_SOURCE

#include "core/proc.h"

#include "core/cancel.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

extern char **environ;

#define SCRATCH_SIZE ((size_t)64 << 10)
/* Reads per stream per wake-up, so a flood on one pipe cannot starve the
 * other pipe or the timeout checks. */
#define READS_PER_WAKE 16
#define TICK_MAX_MS 50

/* What the child tells the parent through the error pipe when it cannot
 * exec; the pipe closes silently (CLOEXEC) when exec succeeds. */
enum stage { STAGE_SETUP = 1, STAGE_CHDIR, STAGE_EXEC };
struct child_report {
    int stage;
    int errnum;
};

/* Everything the child needs, prepared before fork: after fork the child
 * may only call async-signal-safe functions, so it must not allocate. */
struct spawn {
    char *const *argv;
    char **envp;
    char **paths; /* candidate files for argv[0], in PATH order */
    size_t npaths;
    char **sh_argv; /* {"/bin/sh", <path>, argv[1..], NULL} for ENOEXEC */
    const char *cwd;
    int in_fd, out_fd, err_fd, report_fd;
};

struct stream {
    int fd;
    struct an_buf *buf;
    size_t max;
    bool *truncated;
};

void an_proc_result_release(struct an_proc_result *r)
{
    if (!r)
        return;
    an_buf_release(&r->stdout_buf);
    an_buf_release(&r->stderr_buf);
    memset(r, 0, sizeof *r);
}

static void result_init(struct an_proc_result *r)
{
    memset(r, 0, sizeof *r);
    r->exit_code = -1;
    an_buf_init(&r->stdout_buf, 0);
    an_buf_init(&r->stderr_buf, 0);
}

const char *an_proc_signame(int sig)
{
    static const struct {
        int sig;
        const char *name;
    } names[] = {
        {SIGHUP, "SIGHUP"},   {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGILL, "SIGILL"},
        {SIGTRAP, "SIGTRAP"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
        {SIGKILL, "SIGKILL"}, {SIGUSR1, "SIGUSR1"}, {SIGSEGV, "SIGSEGV"}, {SIGUSR2, "SIGUSR2"},
        {SIGPIPE, "SIGPIPE"}, {SIGALRM, "SIGALRM"}, {SIGTERM, "SIGTERM"}, {SIGXCPU, "SIGXCPU"},
        {SIGXFSZ, "SIGXFSZ"}, {SIGSYS, "SIGSYS"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].sig == sig)
            return names[i].name;
    return "SIG?";
}

const char *an_proc_status_str(const struct an_proc_result *r, char *buf, size_t cap)
{
    if (r->term_signal)
        snprintf(buf, cap, "was killed by signal %d (%s)", r->term_signal,
                 an_proc_signame(r->term_signal));
    else
        snprintf(buf, cap, "exited with status %d", r->exit_code);
    return buf;
}

/* strerror() may share a static buffer between threads; this does not.
 * With _GNU_SOURCE this is the GNU strerror_r, which returns the text. */
static const char *errstr(int e, char *buf, size_t cap)
{
    return strerror_r(e, buf, cap);
}

static size_t name_len(const char *entry)
{
    const char *eq = strchr(entry, '=');
    return eq ? (size_t)(eq - entry) : strlen(entry);
}

/* Does any entry of list[from..] name the same variable as entry? */
static bool named_in(const char *entry, const char *const *list, size_t from)
{
    size_t n = name_len(entry);
    for (size_t i = from; list && list[i]; i++)
        if (name_len(list[i]) == n && strncmp(list[i], entry, n) == 0)
            return true;
    return false;
}

/* The child's environment: the inherited one with `extra` applied. The
 * array is ours; the strings are borrowed from environ and `extra`. */
static char **build_env(const char *const *extra)
{
    size_t n = 0, m = 0;
    for (char **e = environ; e && *e; e++)
        n++;
    for (size_t i = 0; extra && extra[i]; i++)
        m++;
    char **env = an_xcalloc(n + m + 1, sizeof *env);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (!named_in(environ[i], extra, 0))
            env[k++] = environ[i];
    for (size_t i = 0; i < m; i++)
        if (strchr(extra[i], '=') && !named_in(extra[i], extra, i + 1))
            env[k++] = (char *)extra[i];
    env[k] = NULL;
    return env;
}

/* Candidate files for prog, as execvp would try them, but searched in the
 * child's PATH so that an overridden PATH takes effect. */
static char **find_candidates(const char *prog, char **envp, size_t *count)
{
    if (strchr(prog, '/')) {
        char **one = an_xcalloc(1, sizeof *one);
        one[0] = an_xstrdup(prog);
        *count = 1;
        return one;
    }
    const char *path = "/bin:/usr/bin";
    for (char **e = envp; *e; e++)
        if (strncmp(*e, "PATH=", 5) == 0)
            path = *e + 5;
    size_t dirs = 1;
    for (const char *p = path; *p; p++)
        dirs += *p == ':';
    char **out = an_xcalloc(dirs, sizeof *out);
    size_t k = 0;
    const char *p = path;
    for (;;) {
        const char *colon = strchr(p, ':');
        size_t dlen = colon ? (size_t)(colon - p) : strlen(p);
        struct an_buf b = AN_BUF_INIT;
        /* An empty PATH element means the current directory (POSIX). */
        if (dlen == 0)
            an_buf_puts(&b, ".");
        else
            an_buf_append(&b, p, dlen);
        an_buf_putc(&b, '/');
        an_buf_puts(&b, prog);
        out[k++] = an_buf_detach(&b, NULL);
        if (!colon)
            break;
        p = colon + 1;
    }
    *count = k;
    return out;
}

static _Noreturn void child_fail(int report_fd, int stage, int errnum)
{
    struct child_report rep = {stage, errnum};
    ssize_t w;
    do
        w = write(report_fd, &rep, sizeof rep);
    while (w < 0 && errno == EINTR);
    _exit(127);
}

/* Runs in the forked child: async-signal-safe calls only. */
static _Noreturn void child_main(const struct spawn *s)
{
    sigset_t none;
    struct sigaction dfl;

    setpgid(0, 0);
    /* Ignored signals stay ignored across exec; a host that ignores SIGPIPE
     * must not pass that on (a child writing to a closed pipe should die). */
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGPIPE, &dfl, NULL);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);

    /* Copy the three ends above 2 first, so that installing one of them as
     * 0, 1 or 2 cannot overwrite another that happens to sit there. */
    int in = fcntl(s->in_fd, F_DUPFD_CLOEXEC, 3);
    int out = fcntl(s->out_fd, F_DUPFD_CLOEXEC, 3);
    int errfd = fcntl(s->err_fd, F_DUPFD_CLOEXEC, 3);
    if (in < 0 || out < 0 || errfd < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
        dup2(errfd, 2) < 0)
        child_fail(s->report_fd, STAGE_SETUP, errno);
    /* fds opened elsewhere in the process without CLOEXEC must not leak
     * into the child either; the report pipe stays usable until exec.
     * Old kernels lack this call; then only our own CLOEXEC protects. */
    syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_CLOEXEC);

    if (s->cwd && chdir(s->cwd) != 0)
        child_fail(s->report_fd, STAGE_CHDIR, errno);

    /* The PATH walk of execvp: skip missing entries, remember EACCES,
     * stop at any other error. */
    int last = ENOENT;
    bool denied = false;
    for (size_t i = 0; i < s->npaths; i++) {
        execve(s->paths[i], s->argv, s->envp);
        int e = errno;
        if (e == ENOEXEC) {
            s->sh_argv[1] = s->paths[i];
            execve("/bin/sh", s->sh_argv, s->envp);
            e = errno;
        }
        if (e == EACCES) {
            denied = true;
            continue;
        }
        last = e;
        if (e != ENOENT && e != ENOTDIR && e != ESTALE && e != ENODEV && e != ETIMEDOUT)
            break;
    }
    child_fail(s->report_fd, STAGE_EXEC, denied && (last == ENOENT || last == ENOTDIR) ? EACCES : last);
}

/* write() that turns a SIGPIPE into a plain EPIPE for this thread only:
 * block it, write, and consume the signal the write raised (unless one was
 * already pending before, which is not ours to take). */
static ssize_t write_nosigpipe(int fd, const void *p, size_t n)
{
    sigset_t pipe_set, old, pending;
    sigemptyset(&pipe_set);
    sigaddset(&pipe_set, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_set, &old);
    sigpending(&pending);
    bool was_pending = sigismember(&pending, SIGPIPE) == 1;
    ssize_t w = write(fd, p, n);
    int e = errno;
    if (w < 0 && e == EPIPE && !was_pending) {
        struct timespec zero = {0, 0};
        while (sigtimedwait(&pipe_set, NULL, &zero) < 0 && errno == EINTR)
            ;
    }
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return w;
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static void keep(struct stream *s, const char *p, size_t n)
{
    size_t room = s->max > s->buf->len ? s->max - s->buf->len : 0;
    size_t take = n < room ? n : room;
    if (take && an_buf_append(s->buf, p, take) != 0)
        take = 0; /* cannot happen: the buffer itself is uncapped */
    if (take < n)
        *s->truncated = true;
}

static void drain(struct stream *s, char *scratch)
{
    for (int i = 0; i < READS_PER_WAKE && s->fd >= 0; i++) {
        ssize_t n = read(s->fd, scratch, SCRATCH_SIZE);
        if (n > 0) {
            keep(s, scratch, (size_t)n);
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        } else {
            close_fd(&s->fd); /* EOF, or an error that will not go away */
        }
    }
}

static int set_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static int open_pidfd(pid_t pid)
{
#ifdef SYS_pidfd_open
    /* Lets poll() wake at the child's exit; without it (old kernels,
     * valgrind) the loop falls back to short ticks. */
    int fd = (int)syscall(SYS_pidfd_open, pid, 0);
    if (fd >= 0)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
    return fd;
#else
    (void)pid;
    return -1;
#endif
}

static int64_t min64(int64_t a, int64_t b)
{
    return a < b ? a : b;
}

static pid_t waitpid_retry(pid_t pid, int *status, int flags)
{
    pid_t w;
    do
        w = waitpid(pid, status, flags);
    while (w < 0 && errno == EINTR);
    return w;
}

/* Feed stdin, read both pipes, enforce the deadline and reap the child. */
static void supervise(const struct an_proc_opts *o, pid_t pid, int in_fd, int out_fd, int err_fd,
                      int64_t start, struct an_proc_result *r)
{
    const int64_t never = INT64_MAX;
    int64_t grace = o->grace_ms > 0 ? o->grace_ms : AN_PROC_GRACE_MS;
    int64_t deadline = o->timeout_ms > 0 ? start + o->timeout_ms : never;
    int64_t kill_at = never, give_up_at = never, tick = 1;
    struct stream out = {out_fd, &r->stdout_buf, o->stdout_max, &r->stdout_truncated};
    struct stream err = {err_fd, &r->stderr_buf, o->stderr_max, &r->stderr_truncated};
    size_t in_off = 0;
    bool exited = false, killed = false, group_gone = false;
    int status = 0;
    int pidfd = open_pidfd(pid);
    char *scratch = an_xmalloc(SCRATCH_SIZE);

    for (;;) {
        int64_t now = an_clock_mono_ms();
        if (!exited && waitpid_retry(pid, &status, WNOHANG) == pid) {
            exited = true;
            close_fd(&pidfd);
            close_fd(&in_fd);
            if (!r->timed_out)
                give_up_at = now + grace;
        }
        if (!exited && !r->timed_out && (now >= deadline || an_cancelled())) {
            r->timed_out = true;
            r->cancelled = an_cancelled();
            kill(-pid, SIGTERM);
            kill_at = now + grace;
        }
        /* Once the leader is reaped, its pid lives on as the group id only
         * while a member is alive; stop signalling as soon as none is, so a
         * recycled pid is never hit. */
        if (r->timed_out && !killed && !group_gone && exited && kill(-pid, 0) < 0 &&
            errno == ESRCH)
            group_gone = true;
        if (r->timed_out && !killed && !group_gone && now >= kill_at) {
            kill(-pid, SIGKILL);
            killed = true;
            give_up_at = now + grace; /* only a process stuck in the kernel */
        }

        bool pipes_open = out.fd >= 0 || err.fd >= 0;
        bool group_pending = r->timed_out && !killed && !group_gone;
        if (exited && !pipes_open && !group_pending)
            break;
        if (now >= give_up_at)
            break; /* a leftover process keeps the pipes open; stop reading */

        struct pollfd pfd[4];
        nfds_t n = 0;
        int i_out = -1, i_err = -1, i_in = -1;
        if (out.fd >= 0)
            i_out = (int)n, pfd[n++] = (struct pollfd){.fd = out.fd, .events = POLLIN};
        if (err.fd >= 0)
            i_err = (int)n, pfd[n++] = (struct pollfd){.fd = err.fd, .events = POLLIN};
        if (in_fd >= 0)
            i_in = (int)n, pfd[n++] = (struct pollfd){.fd = in_fd, .events = POLLOUT};
        if (pidfd >= 0)
            pfd[n++] = (struct pollfd){.fd = pidfd, .events = POLLIN};

        int64_t next = give_up_at;
        if (!exited && !r->timed_out)
            next = min64(next, deadline);
        if (group_pending)
            next = min64(next, kill_at);
        /* Without a pidfd nothing wakes us at the exit; nor does anything
         * when the group dies after the leader: look again soon. */
        bool ticking = (!exited && pidfd < 0) || (exited && group_pending);
        if (!exited && !r->timed_out) /* a Ctrl-C wakes nothing here: look */
            next = min64(next, now + AN_CANCEL_POLL_MS);
        if (ticking)
            next = min64(next, now + tick);
        int wait_ms = -1;
        if (next != never)
            wait_ms = next <= now ? 0 : (int)min64(next - now, INT_MAX);

        int got = poll(pfd, n, wait_ms);
        if (got < 0 && errno != EINTR)
            got = 0; /* cannot happen with valid fds; keep the loop's checks */
        if (got <= 0) {
            tick = min64(tick * 2, TICK_MAX_MS);
            continue;
        }
        tick = 1;
        if (i_out >= 0 && pfd[i_out].revents)
            drain(&out, scratch);
        if (i_err >= 0 && pfd[i_err].revents)
            drain(&err, scratch);
        if (i_in >= 0 && pfd[i_in].revents && in_fd >= 0) {
            ssize_t w = write_nosigpipe(in_fd, o->stdin_data + in_off, o->stdin_len - in_off);
            if (w > 0)
                in_off += (size_t)w;
            else if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                close_fd(&in_fd); /* EPIPE: the child stopped reading */
            if (in_off >= o->stdin_len)
                close_fd(&in_fd); /* EOF for the child */
        }
    }

    close_fd(&out.fd);
    close_fd(&err.fd);
    close_fd(&in_fd);
    close_fd(&pidfd);
    if (!exited)
        waitpid_retry(pid, &status, 0); /* SIGKILLed already: it will go */
    if (killed || r->timed_out) {
        /* A caller that is a child subreaper inherits the members we
         * killed; they are in our group, so reaping them is ours to do. */
        while (waitpid(-pid, NULL, WNOHANG) > 0)
            ;
    }
    free(scratch);

    if (WIFEXITED(status)) {
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r->term_signal = WTERMSIG(status);
        r->exit_code = -1;
    }
}

static int start_failure(struct an_err *err, const struct an_proc_opts *o,
                         const struct child_report *rep)
{
    char ebuf[128];
    int code = rep->errnum == ENOENT || rep->errnum == ENOTDIR ? AN_ENOTFOUND : AN_EIO;
    const char *eb = errstr(rep->errnum, ebuf, sizeof ebuf);
    if (rep->stage == STAGE_CHDIR)
        return an_fail(err, code, NULL, "cannot run '%s': cannot change directory to '%s': %s",
                       o->argv[0], o->cwd, eb);
    if (rep->stage == STAGE_SETUP)
        return an_fail(err, AN_EIO, NULL, "cannot run '%s': setting up its stdio: %s",
                       o->argv[0], eb);
    return an_fail(err, code, NULL, "cannot run '%s': %s", o->argv[0], eb);
}

int an_proc_run(const struct an_proc_opts *o, struct an_proc_result *r, struct an_err *err)
{
    int rc = AN_OK;
    int in_pipe[2] = {-1, -1}, out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    int rep_pipe[2] = {-1, -1};
    int child_in = -1;
    struct spawn s = {0};
    char eb[128];

    result_init(r);
    if (!o->argv || !o->argv[0] || !o->argv[0][0])
        return an_fail(err, AN_EUSAGE, NULL, "cannot run an empty command");

    size_t argc = 0;
    while (o->argv[argc])
        argc++;
    s.argv = (char *const *)o->argv;
    s.envp = build_env(o->env);
    s.paths = find_candidates(o->argv[0], s.envp, &s.npaths);
    s.sh_argv = an_xcalloc(argc + 2, sizeof *s.sh_argv);
    s.sh_argv[0] = "/bin/sh";
    for (size_t i = 1; i < argc; i++)
        s.sh_argv[i + 1] = (char *)o->argv[i];
    s.cwd = o->cwd;

    if (pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC) ||
        pipe2(rep_pipe, O_CLOEXEC)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot run '%s': pipe: %s", o->argv[0],
                     errstr(errno, eb, sizeof eb));
        goto done;
    }
    if (o->stdin_data) {
        if (pipe2(in_pipe, O_CLOEXEC)) {
            rc = an_fail(err, AN_EIO, NULL, "cannot run '%s': pipe: %s", o->argv[0],
                         errstr(errno, eb, sizeof eb));
            goto done;
        }
        child_in = in_pipe[0];
        in_pipe[0] = -1;
    } else {
        child_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (child_in < 0) {
            rc = an_fail(err, AN_EIO, NULL, "cannot run '%s': /dev/null: %s", o->argv[0],
                         errstr(errno, eb, sizeof eb));
            goto done;
        }
    }
    /* Only our ends: the child's ends are other open file descriptions and
     * stay blocking, as programs expect. */
    if (set_nonblock(out_pipe[0]) || set_nonblock(err_pipe[0]) ||
        (in_pipe[1] >= 0 && set_nonblock(in_pipe[1]))) {
        rc = an_fail(err, AN_EIO, NULL, "cannot run '%s': fcntl: %s", o->argv[0],
                     errstr(errno, eb, sizeof eb));
        goto done;
    }
    s.in_fd = child_in;
    s.out_fd = out_pipe[1];
    s.err_fd = err_pipe[1];
    s.report_fd = rep_pipe[1];

    int64_t start = an_clock_mono_ms();
    pid_t pid = fork();
    if (pid < 0) {
        rc = an_fail(err, AN_EIO, NULL, "cannot run '%s': fork: %s", o->argv[0],
                     errstr(errno, eb, sizeof eb));
        goto done;
    }
    if (pid == 0)
        child_main(&s);

    /* Also here, so the group exists before we might signal it. */
    setpgid(pid, pid);
    r->pid = pid;
    close_fd(&child_in);
    close_fd(&out_pipe[1]);
    close_fd(&err_pipe[1]);
    close_fd(&rep_pipe[1]);

    struct child_report rep;
    size_t got = 0;
    while (got < sizeof rep) {
        ssize_t n = read(rep_pipe[0], (char *)&rep + got, sizeof rep - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got == sizeof rep) {
        int status;
        waitpid_retry(pid, &status, 0);
        r->exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r->duration_ms = an_clock_mono_ms() - start;
        rc = start_failure(err, o, &rep);
        goto done;
    }

    if (o->stdin_data && o->stdin_len == 0)
        close_fd(&in_pipe[1]);
    supervise(o, pid, in_pipe[1], out_pipe[0], err_pipe[0], start, r);
    /* supervise() closed them */
    in_pipe[1] = out_pipe[0] = err_pipe[0] = -1;
    r->duration_ms = an_clock_mono_ms() - start;

done:
    close_fd(&child_in);
    for (int i = 0; i < 2; i++) {
        close_fd(&in_pipe[i]);
        close_fd(&out_pipe[i]);
        close_fd(&err_pipe[i]);
        close_fd(&rep_pipe[i]);
    }
    for (size_t i = 0; i < s.npaths; i++)
        free(s.paths[i]);
    free(s.paths);
    free(s.sh_argv);
    free(s.envp);
    return rc;
}
