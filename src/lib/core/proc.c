/* Synchronous child processes, supervised by one poll loop; spawning is
 * core/child's. */
#include "core/proc.h"

#include "core/cancel.h"
#include "core/child.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"

#define SCRATCH_SIZE ((size_t)64 << 10)
/* Reads per stream per wake-up, so a flood on one pipe cannot starve the
 * other pipe or the timeout checks. */
#define READS_PER_WAKE 16
#define TICK_MAX_MS 50

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
                      int pidfd, int64_t start, struct an_proc_result *r)
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
        if (r->timed_out && !killed && !group_gone && exited && kill(-pid, 0) < 0 && errno == ESRCH)
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
            ssize_t w = an_write_nosigpipe(in_fd, o->stdin_data + in_off, o->stdin_len - in_off);
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

int an_proc_run(const struct an_proc_opts *o, struct an_proc_result *r, struct an_err *err)
{
    struct an_child c = AN_CHILD_INIT;
    struct an_child_opts co = {
        .argv = o->argv, .cwd = o->cwd, .env = o->env, .stdin_null = !o->stdin_data};

    result_init(r);
    int rc = an_child_spawn(&c, &co, err);
    if (rc != AN_OK) {
        r->exit_code = 127;
        return rc;
    }
    r->pid = c.pid;
    if (o->stdin_data && o->stdin_len == 0)
        an_child_close_stdin(&c);
    /* supervise() takes the fds over and reaps the child */
    supervise(o, c.pid, c.in_fd, c.out_fd, c.err_fd, c.pid_fd, c.start_ms, r);
    r->duration_ms = an_clock_mono_ms() - c.start_ms;
    return AN_OK;
}
