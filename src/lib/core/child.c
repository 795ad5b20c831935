/* strerror_r() returning the message (errstr) is the GNU one. */
#define _GNU_SOURCE

#include "core/child.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/confine.h"
#include "core/port.h"
#include "core/proc.h"

extern char **environ;

/* What the child tells the parent through the error pipe when it cannot
 * exec; the pipe closes silently (CLOEXEC) when exec succeeds. */
enum stage { STAGE_SETUP = 1, STAGE_CHDIR, STAGE_EXEC, STAGE_CONFINE };
struct child_report {
    int stage;
    int errnum;
    int step; /* STAGE_CONFINE: an_confine_step_name() */
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
    const struct an_confine_plan *plan; /* NULL: not confined */
    int cwd_fd;                         /* >= 0: the directory to run in, opened by the caller */
    char cwd_real[PATH_MAX]; /* confined with cwd_fd: its path, entered after the mounts */
    dev_t cwd_dev;           /* ... and what it must turn out to be (the confinement */
    ino_t cwd_ino;           /* closes cwd_fd before the child gets there) */
    int in_fd, out_fd, err_fd, report_fd;
    int death_sig; /* > 0: PR_SET_PDEATHSIG */
    pid_t parent;  /* the spawner, to see whether it died before the prctl */
};

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
static char **build_env(const char *const *extra, bool clear)
{
    size_t n = 0, m = 0;
    for (char **e = environ; !clear && e && *e; e++)
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

static _Noreturn void child_fail(int report_fd, int stage, int errnum, int step)
{
    struct child_report rep = {stage, errnum, step};
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
    /* the spawner may have died before the prctl: then end here (a handler
     * of the parent's is still installed, so no raise()) */
    if (s->death_sig > 0 &&
        (an_port_parent_death_signal(s->death_sig) != 0 || getppid() != s->parent))
        _exit(127);
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
    if (in < 0 || out < 0 || errfd < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(errfd, 2) < 0)
        child_fail(s->report_fd, STAGE_SETUP, errno, 0);
    /* fds opened elsewhere in the process without CLOEXEC must not leak
     * into the child either; the report pipe stays usable until exec.
     * (core/port.h: close_range, else a loop over the fds) */
    an_port_cloexec_from(3);

    /* Confined: from here on this is the program's process inside the
     * namespaces (the two above it never return), and the cwd is looked
     * up in the new mounts. */
    int step = 0;
    if (s->plan && an_confine_enter(s->plan, s->report_fd, &step) != 0)
        child_fail(s->report_fd, STAGE_CONFINE, errno, step);

    if (s->cwd_fd >= 0 && s->plan) {
        /* The caller's fd names the directory in the mounts outside: an
         * fchdir() there would leave the child below a mount that is
         * writable, and '..' from it would reach what the confinement
         * hides. So the path is entered in the new mounts, and it must be
         * the very directory the caller opened (same device and inode), or
         * a link swapped in since the check would decide where it runs. */
        struct stat got;
        if (chdir(s->cwd_real) != 0 || stat(".", &got) != 0)
            child_fail(s->report_fd, STAGE_CHDIR, errno, 0);
        if (got.st_dev != s->cwd_dev || got.st_ino != s->cwd_ino)
            child_fail(s->report_fd, STAGE_CHDIR, ESTALE, 0);
    } else if (s->cwd_fd >= 0 ? fchdir(s->cwd_fd) != 0 : s->cwd && chdir(s->cwd) != 0) {
        child_fail(s->report_fd, STAGE_CHDIR, errno, 0);
    }

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
    child_fail(s->report_fd, STAGE_EXEC,
               denied && (last == ENOENT || last == ENOTDIR) ? EACCES : last, 0);
}

/* SIGPIPE ignored by us, process-wide, once (see child.h): then a write to
 * a reader that is gone is a plain EPIPE at the cost of the write alone. A
 * disposition the host chose (a handler, or SIG_IGN it may undo later) is
 * left alone, and every write takes the careful path below. */
static pthread_once_t sigpipe_once = PTHREAD_ONCE_INIT;
static bool sigpipe_ours;

static void sigpipe_init(void)
{
    struct sigaction cur, ign;
    if (sigaction(SIGPIPE, NULL, &cur) != 0 || cur.sa_handler != SIG_DFL ||
        (cur.sa_flags & SA_SIGINFO))
        return;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigpipe_ours = sigaction(SIGPIPE, &ign, NULL) == 0;
}

/* The careful path: block SIGPIPE for this thread, write, and consume the
 * signal the write raised (unless one was already pending before, which
 * is not ours to take). */
static ssize_t write_masked(int fd, const void *p, size_t n)
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

ssize_t an_write_nosigpipe(int fd, const void *p, size_t n)
{
    pthread_once(&sigpipe_once, sigpipe_init);
    return sigpipe_ours ? write(fd, p, n) : write_masked(fd, p, n);
}

void an_sigpipe_ignore(void)
{
    pthread_once(&sigpipe_once, sigpipe_init);
}

int an_fd_nonblock(int fd)
{
    int fl = fcntl(fd, F_GETFL);
    return fl < 0 ? -1 : fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void close_fd(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}

static pid_t waitpid_retry(pid_t pid, int *status, int flags)
{
    pid_t w;
    do
        w = waitpid(pid, status, flags);
    while (w < 0 && errno == EINTR);
    return w;
}

static int start_failure(struct an_err *err, const struct an_child_opts *o,
                         const struct child_report *rep)
{
    char ebuf[128];
    int code = rep->errnum == ENOENT || rep->errnum == ENOTDIR ? AN_ENOTFOUND : AN_EIO;
    const char *eb = errstr(rep->errnum, ebuf, sizeof ebuf);
    if (rep->stage == STAGE_CHDIR)
        return an_fail(err, code, NULL, "cannot run '%s': cannot change directory to '%s': %s",
                       o->argv[0], o->cwd ? o->cwd : "(a directory fd)", eb);
    if (rep->stage == STAGE_CONFINE)
        return an_fail(err, AN_EIO, NULL, "cannot run '%s': cannot confine it: %s: %s", o->argv[0],
                       an_confine_step_name(rep->step), eb);
    if (rep->stage == STAGE_SETUP)
        return an_fail(err, AN_EIO, NULL, "cannot run '%s': setting up its stdio: %s", o->argv[0],
                       eb);
    return an_fail(err, code, NULL, "cannot run '%s': %s", o->argv[0], eb);
}

static void child_reset(struct an_child *c)
{
    *c = (struct an_child)AN_CHILD_INIT;
}

static void set_status(struct an_child *c, int status)
{
    c->exited = true;
    if (WIFEXITED(status)) {
        c->exit_code = WEXITSTATUS(status);
        c->term_signal = 0;
    } else if (WIFSIGNALED(status)) {
        c->exit_code = -1;
        c->term_signal = WTERMSIG(status);
    }
}

/* The pipes of one spawn: ours and the child's ends until they are handed
 * over; whatever is still >= 0 at the end is closed. */
struct pipes {
    int in[2], out[2], err[2], rep[2];
    int child_in; /* the child's stdin: in[0], or /dev/null */
};
/* clang-format off */
#define PIPES_INIT {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}, -1}
/* clang-format on */

static void pipes_close(struct pipes *p)
{
    close_fd(&p->child_in);
    for (int i = 0; i < 2; i++) {
        close_fd(&p->in[i]);
        close_fd(&p->out[i]);
        close_fd(&p->err[i]);
        close_fd(&p->rep[i]);
    }
}

static void spawn_release(struct spawn *s)
{
    for (size_t i = 0; i < s->npaths; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->sh_argv);
    free(s->envp);
}

/* Everything the child needs, allocated now (spawn_release frees it). */
static int spawn_prepare(struct spawn *s, const struct an_child_opts *o,
                         const struct an_confine_plan *plan, struct an_err *err)
{
    char eb[128];
    size_t argc = 0;
    while (o->argv[argc])
        argc++;
    s->argv = (char *const *)o->argv;
    s->envp = build_env(o->env, o->env_clear);
    s->paths = find_candidates(o->argv[0], s->envp, &s->npaths);
    s->sh_argv = an_xcalloc(argc + 2, sizeof *s->sh_argv);
    s->sh_argv[0] = "/bin/sh";
    for (size_t i = 1; i < argc; i++)
        s->sh_argv[i + 1] = (char *)o->argv[i];
    s->cwd = o->cwd;
    s->plan = plan;
    s->cwd_fd = o->use_cwd_fd ? o->cwd_fd : -1;
    if (plan && s->cwd_fd >= 0) {
        /* the directory's own path, as the kernel resolved it when the
         * caller opened it; the child enters it after the mounts */
        struct stat st;
        int n = an_port_fd_path(s->cwd_fd, s->cwd_real, sizeof s->cwd_real);
        if (n != 0 || s->cwd_real[0] != '/' || fstat(s->cwd_fd, &st) != 0)
            return an_fail(err, AN_EIO, NULL, "cannot run '%s': cannot name its directory: %s",
                           o->argv[0], n != 0 ? errstr(errno, eb, sizeof eb) : "not a path");
        s->cwd_dev = st.st_dev;
        s->cwd_ino = st.st_ino;
    }
    s->death_sig = o->parent_death_signal;
    s->parent = getpid();
    return AN_OK;
}

/* The pipes (or /dev/null, or the caller's fd) and which end goes where. */
static int spawn_pipes(struct spawn *s, struct pipes *p, const struct an_child_opts *o,
                       struct an_err *err)
{
    char eb[128];
    if ((!o->out_to_fd &&
         (an_port_pipe_cloexec(p->out) || (!o->merge_stderr && an_port_pipe_cloexec(p->err)))) ||
        an_port_pipe_cloexec(p->rep))
        return an_fail(err, AN_EIO, NULL, "cannot run '%s': pipe: %s", o->argv[0],
                       errstr(errno, eb, sizeof eb));
    if (!o->stdin_null) {
        if (an_port_pipe_cloexec(p->in))
            return an_fail(err, AN_EIO, NULL, "cannot run '%s': pipe: %s", o->argv[0],
                           errstr(errno, eb, sizeof eb));
        p->child_in = p->in[0];
        p->in[0] = -1;
    } else {
        p->child_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (p->child_in < 0)
            return an_fail(err, AN_EIO, NULL, "cannot run '%s': /dev/null: %s", o->argv[0],
                           errstr(errno, eb, sizeof eb));
    }
    /* Only our ends: the child's ends are other open file descriptions and
     * stay blocking, as programs expect. */
    if ((p->out[0] >= 0 && an_fd_nonblock(p->out[0])) ||
        (p->err[0] >= 0 && an_fd_nonblock(p->err[0])) ||
        (p->in[1] >= 0 && an_fd_nonblock(p->in[1])))
        return an_fail(err, AN_EIO, NULL, "cannot run '%s': fcntl: %s", o->argv[0],
                       errstr(errno, eb, sizeof eb));
    s->in_fd = p->child_in;
    s->out_fd = o->out_to_fd ? o->out_fd : p->out[1];
    s->err_fd = o->out_to_fd ? o->out_fd : o->merge_stderr ? p->out[1] : p->err[1];
    s->report_fd = p->rep[1];
    return AN_OK;
}

/* After the fork: the child's report when it could not exec (then it is
 * reaped and the failure returned), or AN_OK once the pipe closes at exec. */
static int spawn_await_exec(pid_t pid, int rep_fd, const struct an_child_opts *o,
                            struct an_err *err)
{
    struct child_report rep;
    size_t got = 0;
    while (got < sizeof rep) {
        ssize_t n = read(rep_fd, (char *)&rep + got, sizeof rep - got);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    if (got != sizeof rep)
        return AN_OK;
    int status;
    waitpid_retry(pid, &status, 0);
    return start_failure(err, o, &rep);
}

int an_child_spawn(struct an_child *c, const struct an_child_opts *o, struct an_err *err)
{
    int rc = AN_OK;
    struct pipes p = PIPES_INIT;
    struct spawn s = {0};
    struct an_confine_plan *plan = NULL;
    char eb[128];

    child_reset(c);
    if (!o->argv || !o->argv[0] || !o->argv[0][0])
        return an_fail(err, AN_EUSAGE, NULL, "cannot run an empty command");

    if (o->confine) {
        int prc = an_confine_plan_new(&plan, o->confine, err);
        if (prc != AN_OK)
            return prc;
    }
    if ((rc = spawn_prepare(&s, o, plan, err)) != AN_OK ||
        (rc = spawn_pipes(&s, &p, o, err)) != AN_OK)
        goto done;

    c->start_ms = an_clock_mono_ms();
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
    close_fd(&p.child_in);
    close_fd(&p.out[1]);
    close_fd(&p.err[1]);
    close_fd(&p.rep[1]);
    if ((rc = spawn_await_exec(pid, p.rep[0], o, err)) != AN_OK)
        goto done;

    c->pid = pid;
    c->in_fd = p.in[1];
    c->out_fd = p.out[0];
    c->err_fd = p.err[0];
    p.in[1] = p.out[0] = p.err[0] = -1;
    /* lets poll() wake at the child's exit; without it (old kernels,
     * valgrind, other systems) callers fall back to short ticks */
    c->pid_fd = an_port_pidfd_open(pid);

done:
    pipes_close(&p);
    spawn_release(&s);
    an_confine_plan_free(plan);
    return rc;
}

size_t an_child_fds(const struct an_child *c, bool want_write, struct pollfd *out, size_t max)
{
    size_t n = 0;
    if (c->out_fd >= 0 && n < max)
        out[n++] = (struct pollfd){.fd = c->out_fd, .events = POLLIN};
    if (c->err_fd >= 0 && n < max)
        out[n++] = (struct pollfd){.fd = c->err_fd, .events = POLLIN};
    if (want_write && c->in_fd >= 0 && n < max)
        out[n++] = (struct pollfd){.fd = c->in_fd, .events = POLLOUT};
    if (c->pid_fd >= 0 && !c->exited && n < max)
        out[n++] = (struct pollfd){.fd = c->pid_fd, .events = POLLIN};
    return n;
}

int an_child_kill_group(struct an_child *c, int sig)
{
    if (c->pid <= 0) {
        errno = ESRCH;
        return -1;
    }
    /* While the leader is unreaped (ours, running or a zombie) its pid
     * cannot be reused, so the group id is safe. After the reap, the id
     * lives on only while a member is alive; kill() then fails with ESRCH
     * once none is, and a recycled pid would lead its own new group, which
     * a fresh process only gets by setsid/setpgid: a small window we accept
     * only until close, which stops at the first ESRCH. */
    return kill(-c->pid, sig);
}

bool an_child_reap(struct an_child *c, bool nonblocking)
{
    if (c->pid <= 0 || c->exited)
        return c->exited;
    int status = 0;
    pid_t w = waitpid_retry(c->pid, &status, nonblocking ? WNOHANG : 0);
    if (w == c->pid) {
        set_status(c, status);
        close_fd(&c->pid_fd);
    } else if (w < 0 && errno == ECHILD) {
        /* someone else reaped it: we cannot know how it ended */
        c->exited = true;
        close_fd(&c->pid_fd);
    }
    return c->exited;
}

void an_child_close_stdin(struct an_child *c)
{
    close_fd(&c->in_fd);
}

/* Wait until the leader is reaped or deadline (mono ms) passes. */
static bool wait_exit(struct an_child *c, int64_t deadline)
{
    int64_t tick = 1;
    while (!an_child_reap(c, true)) {
        int64_t now = an_clock_mono_ms();
        if (now >= deadline)
            return false;
        int64_t left = deadline - now;
        if (c->pid_fd >= 0) {
            struct pollfd p = {.fd = c->pid_fd, .events = POLLIN};
            poll(&p, 1, (int)(left < INT_MAX ? left : INT_MAX));
        } else {
            an_sleep_ms(tick < left ? tick : left);
            tick = tick * 2 < 50 ? tick * 2 : 50;
        }
    }
    return true;
}

/* Is a process of the group still running? kill(-pgid, 0) also counts
 * zombies, and an orphaned member's zombie lingers until PID 1 reaps it,
 * which a container's PID 1 may do late or never: those are dead, so look
 * at their state (core/port.h: /proc) before waiting for them. */
static bool group_alive(pid_t pgid)
{
    if (kill(-pgid, 0) != 0 && errno == ESRCH)
        return false;
    return an_port_group_alive(pgid) != 0; /* -1, cannot tell: trust kill() */
}

/* Wait until no member of the group is left, or deadline. */
static bool wait_group_gone(pid_t pgid, int64_t deadline)
{
    int64_t tick = 1;
    for (;;) {
        /* members we inherited (as a subreaper) are ours to reap */
        while (waitpid(-pgid, NULL, WNOHANG) > 0)
            ;
        if (!group_alive(pgid))
            return true;
        int64_t now = an_clock_mono_ms();
        if (now >= deadline)
            return false;
        an_sleep_ms(tick < deadline - now ? tick : deadline - now);
        tick = tick * 2 < 20 ? tick * 2 : 20;
    }
}

void an_child_close(struct an_child *c, int64_t grace_ms)
{
    if (c->pid <= 0) {
        close_fd(&c->in_fd);
        close_fd(&c->out_fd);
        close_fd(&c->err_fd);
        close_fd(&c->pid_fd);
        return;
    }
    pid_t pgid = c->pid;
    close_fd(&c->in_fd);
    /* Our read ends go too: a child blocked writing to a full pipe then
     * gets EPIPE instead of hanging until the SIGKILL. */
    close_fd(&c->out_fd);
    close_fd(&c->err_fd);
    int64_t grace = grace_ms > 0 ? grace_ms : 0;
    if (grace > 0)
        wait_exit(c, an_clock_mono_ms() + grace);
    /* The leader may have left members behind, or still run: the group
     * gets SIGTERM, then SIGKILL, whoever is in it. */
    if (group_alive(pgid)) {
        kill(-pgid, SIGTERM);
        int64_t deadline = an_clock_mono_ms() + (grace > 0 ? grace : AN_CHILD_GRACE_MS);
        wait_exit(c, deadline);
        if (!wait_group_gone(pgid, c->exited ? deadline : an_clock_mono_ms())) {
            kill(-pgid, SIGKILL);
            an_child_reap(c, false);
            /* SIGKILL cannot be ignored: only a process stuck in the
             * kernel outlives this, and then waiting longer won't help */
            wait_group_gone(pgid, an_clock_mono_ms() + 1000);
        }
    }
    an_child_reap(c, false);
    close_fd(&c->pid_fd);
    c->pid = 0;
}

const char *an_child_status_str(const struct an_child *c, char *buf, size_t cap)
{
    if (!c->exited)
        snprintf(buf, cap, "is running");
    else if (c->term_signal)
        snprintf(buf, cap, "was killed by signal %d (%s)", c->term_signal,
                 an_proc_signame(c->term_signal));
    else if (c->exit_code >= 0)
        snprintf(buf, cap, "exited with status %d", c->exit_code);
    else
        snprintf(buf, cap, "exited");
    return buf;
}
