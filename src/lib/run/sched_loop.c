/*
 * One event loop of the scheduler (run/sched_int.h): keeps up to its share
 * of --parallel runs going over its libcurl multi handle (created by the
 * first transfer; poll() alone until then), lets fd-driven
 * sessions (ACP) work when their descriptors are ready, wakes runs from
 * their retry backoff, collects runs whose helper thread finished, and cuts
 * runs at their --timeout or on interruption.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "core/cancel.h"
#include "core/clock.h"
#include "run/sched_int.h"

/* With one loop it also reports; with several the caller's thread does. */
static void progress(struct loop *l)
{
    if (!l->s->threaded)
        sched_progress(l->s);
}

/* A run that reached DONE leaves the active list and joins its test. */
static void after_step(struct loop *l, struct an_job *j)
{
    if (j->state != AN_JOB_DONE)
        return;
    l->steps++;
    for (size_t i = 0; i < l->active; i++) {
        if (l->act[i] == j) {
            l->act[i] = l->act[--l->active];
            break;
        }
    }
    struct sched *s = l->s;
    sched_lock(s);
    sched_collect(s, j);
    s->running--;
    s->collected++;
    /* the caller's thread waits for the test it hands on next: wake it
     * when that one is complete, not for every run (a thread switch each) */
    if (s->threaded && (s->emit == s->nsel || s->slots[s->emit].complete || s->stop) &&
        (s->stop || an_clock_mono_ms() >= s->quiet_until))
        pthread_cond_signal(&s->news);
    sched_unlock(s);
}

/* The next run to start, or NULL when there is none (or the run stops). */
static struct an_job *take(struct loop *l)
{
    struct sched *s = l->s;
    struct an_job *j = NULL;
    sched_lock(s);
    if (an_cancelled() && !s->stop)
        s->stop = true;
    if (!s->stop && l->active < l->parallel && (j = sched_next(s))) {
        s->slots[j->slot].started++;
        s->running++;
    }
    sched_unlock(s);
    return j;
}

/* Nothing in flight here and nothing left to start. */
static bool over(struct loop *l)
{
    if (l->active)
        return false;
    sched_lock(l->s);
    bool done = l->s->stop || sched_drained(l->s);
    sched_unlock(l->s);
    return done;
}

static void transfers(struct loop *l)
{
    CURLM *multi = l->multi.handle;
    int running = 0;
    if (multi)
        curl_multi_perform(multi, &running);
    CURLMsg *m;
    int left;
    while (multi && (m = curl_multi_info_read(multi, &left))) {
        if (m->msg != CURLMSG_DONE)
            continue;
        struct an_job *j = NULL;
        CURL *easy = m->easy_handle;
        CURLcode cc = m->data.result;
        curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&j);
        curl_multi_remove_handle(multi, easy);
        an_job_transfer_done(j, cc);
        after_step(l, j);
        progress(l);
    }

    /* fd-driven sessions (ACP): let those whose descriptors are ready work */
    for (size_t i = l->active; i-- > 0;) {
        struct an_job *j = l->act[i];
        if (j->state == AN_JOB_TURN && !j->easy && j->nfds_at >= 0) {
            if (an_job_fd_step(j, l->extra ? l->extra + j->nfds_at : NULL, j->nfds)) {
                after_step(l, j);
                progress(l);
            }
        }
    }
}

/* Helper threads, backoffs, deadlines, interruption: returns when the loop
 * must look again at the latest, and whether a helper thread still runs. */
static int64_t timers(struct loop *l, bool *helpers_running)
{
    int64_t now = an_clock_mono_ms();
    int64_t next_wake = now + 1000;
    int64_t timeout_ms = l->s->o->test_timeout_ms;
    *helpers_running = false;
    /* backwards: after_step() moves the last entry into a finished one's place */
    for (size_t i = l->active; i-- > 0;) {
        struct an_job *j = l->act[i];
        if (j->state == AN_JOB_HOOKS || j->state == AN_JOB_CHECKS || j->state == AN_JOB_SIM) {
            if (atomic_load(&j->thread_done)) {
                an_job_thread_finished(j);
                after_step(l, j);
                progress(l);
            } else {
                *helpers_running = true;
            }
            continue;
        }
        if (an_cancelled()) {
            an_job_abort(j, AN_ETIMEOUT, "interrupted (Ctrl-C or SIGTERM): the run was stopped");
            after_step(l, j);
            continue;
        }
        if (j->deadline_mono && now >= j->deadline_mono) {
            char msg[128];
            snprintf(msg, sizeof msg, "test timed out after %lld ms", (long long)timeout_ms);
            an_job_abort(j, AN_ETIMEOUT, msg);
            after_step(l, j);
            progress(l);
            continue;
        }
        if (j->state == AN_JOB_WAIT) {
            if (now >= j->wake_mono) {
                an_job_wake(j);
                after_step(l, j);
                continue;
            }
            if (j->wake_mono < next_wake)
                next_wake = j->wake_mono;
        }
        if (j->deadline_mono && j->deadline_mono < next_wake)
            next_wake = j->deadline_mono;
    }
    return next_wake;
}

/* The descriptors of fd-driven sessions, for the poll; whether there are any. */
static size_t session_fds(struct loop *l, bool *fd_sessions)
{
    size_t nextra = 0;
    *fd_sessions = false;
    if (!l->cap_extra) { /* room for the wake-up pipe at least */
        l->cap_extra = AN_JOB_MAX_FDS + 1;
        l->extra = an_xrealloc(l->extra, l->cap_extra * sizeof *l->extra);
    }
    for (size_t i = 0; i < l->active; i++) {
        struct an_job *j = l->act[i];
        j->nfds_at = -1;
        if (j->state != AN_JOB_TURN || j->easy)
            continue;
        *fd_sessions = true;
        if (nextra + AN_JOB_MAX_FDS + 1 > l->cap_extra) {
            l->cap_extra = (l->cap_extra + AN_JOB_MAX_FDS) * 2;
            l->extra = an_xrealloc(l->extra, l->cap_extra * sizeof *l->extra);
        }
        j->nfds = an_job_fds(j, l->extra + nextra, AN_JOB_MAX_FDS);
        j->nfds_at = (long)nextra;
        nextra += j->nfds;
    }
    return nextra;
}

/* Wait for the descriptors, the wake-up pipe (the last of extra) or the
 * timeout: through the multi handle when the loop has one (its transfers
 * too), else with poll(), mapping the events as an_session_turn() does. */
static void wait_events(struct loop *l, size_t nextra, int wait)
{
    size_t n = nextra;
    if (l->wake[0] >= 0)
        l->extra[n++] = (struct curl_waitfd){.fd = l->wake[0], .events = CURL_WAIT_POLLIN};
    for (size_t i = 0; i < n; i++)
        l->extra[i].revents = 0;
    if (l->multi.handle) {
        curl_multi_poll(l->multi.handle, n ? l->extra : NULL, (unsigned)n, wait, NULL);
    } else {
        if (n > l->cap_pfds) {
            l->cap_pfds = l->cap_extra;
            l->pfds = an_xrealloc(l->pfds, l->cap_pfds * sizeof *l->pfds);
        }
        for (size_t i = 0; i < n; i++) {
            short e = l->extra[i].events;
            l->pfds[i] = (struct pollfd){.fd = l->extra[i].fd,
                                         .events = (short)((e & CURL_WAIT_POLLIN ? POLLIN : 0) |
                                                           (e & CURL_WAIT_POLLPRI ? POLLPRI : 0) |
                                                           (e & CURL_WAIT_POLLOUT ? POLLOUT : 0))};
        }
        if (poll(l->pfds, (nfds_t)n, wait) > 0) {
            for (size_t i = 0; i < n; i++) {
                short r = l->pfds[i].revents;
                l->extra[i].revents =
                    (short)((r & (POLLIN | POLLHUP | POLLERR) ? CURL_WAIT_POLLIN : 0) |
                            (r & POLLPRI ? CURL_WAIT_POLLPRI : 0) |
                            (r & POLLOUT ? CURL_WAIT_POLLOUT : 0));
            }
        }
    }
    if (n > nextra && l->extra[nextra].revents) {
        char buf[64];
        while (read(l->wake[0], buf, sizeof buf) > 0)
            ;
    }
}

void sched_loop_run(struct loop *l)
{
    for (;;) {
        size_t steps_before = l->steps;
        struct an_job *j;
        while ((j = take(l))) {
            l->act[l->active++] = j;
            an_job_start(j, &l->env);
            after_step(l, j);
            progress(l);
        }
        if (over(l))
            break;

        transfers(l);
        bool helpers_running;
        int64_t next_wake = timers(l, &helpers_running);
        if (!l->s->threaded)
            sched_emit_ready(l->s);
        if (over(l))
            break;

        bool fd_sessions;
        size_t nextra = session_fds(l, &fd_sessions);
        int64_t wait = next_wake - an_clock_mono_ms();
        if (fd_sessions && wait > AN_CANCEL_POLL_MS)
            wait = AN_CANCEL_POLL_MS; /* they keep their own turn timeouts */
        /* a run finished: go round at once, its place may take the next
         * test (waiting here would leave the place idle) */
        if (l->steps != steps_before)
            wait = 0;
        if (helpers_running || wait > AN_CANCEL_POLL_MS)
            wait = wait > AN_CANCEL_POLL_MS ? AN_CANCEL_POLL_MS : wait;
        if (wait < 0)
            wait = 0;
        wait_events(l, nextra, (int)wait);
    }
}
