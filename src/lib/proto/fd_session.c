/* Plumbing shared by the fd-driven sessions (proto/fd_session.h). */
#include "proto/fd_session.h"

#include <stdlib.h>

#include "core/clock.h"

size_t an_fd_session_waitfds(struct curl_waitfd *out, const struct pollfd *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        out[i].fd = p[i].fd;
        out[i].events = (short)((p[i].events & POLLIN ? CURL_WAIT_POLLIN : 0) |
                                (p[i].events & POLLOUT ? CURL_WAIT_POLLOUT : 0));
        out[i].revents = 0;
    }
    return n;
}

void an_fd_session_revents(struct pollfd *want, size_t nw, const struct curl_waitfd *fds, size_t n)
{
    for (size_t i = 0; i < nw; i++) {
        want[i].revents = 0;
        for (size_t j = 0; j < n; j++) {
            if (fds[j].fd != want[i].fd)
                continue;
            if (fds[j].revents & CURL_WAIT_POLLIN)
                want[i].revents |= (short)(want[i].events & POLLIN ? POLLIN : POLLHUP);
            if (fds[j].revents & CURL_WAIT_POLLOUT)
                want[i].revents |= POLLOUT;
        }
    }
}

int64_t an_fd_turn_start(struct an_transcript *t, int64_t timeout_ms)
{
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    r->start_ms = an_clock_unix_ms();
    r->first_event_ms = r->first_text_ms = 0;
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    return timeout_ms > 0 ? an_clock_mono_ms() + timeout_ms : 0;
}

void an_fd_turn_end(struct an_transcript *t, struct an_buf *text)
{
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    free(r->text);
    r->text = an_buf_detach(text, NULL);
    r->ncalls = t->ncalls - r->first_call;
    r->end_ms = an_clock_unix_ms();
    t->end_ms = r->end_ms;
}

void an_fd_turn_frame(struct an_turn_rec *r, enum an_rpc_dir dir, const char *line, size_t len,
                      int64_t unix_ms)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, dir == AN_RPC_OUT ? "> " : "< ");
    an_buf_append(&b, line, len);
    an_turn_add_frame(r, unix_ms, b.data, b.len);
    an_buf_release(&b);
}

int64_t an_fd_session_no_retry_after(const struct an_session *s)
{
    (void)s;
    return -1;
}
