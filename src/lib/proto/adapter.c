/* What every protocol session shares: the blocking form of a turn, and
 * which failures are transport faults worth a retry. */
#include "proto/adapter.h"

#include <poll.h>

#include "core/cancel.h"
#include "proto/http.h"

int an_session_turn(struct an_session *s, struct an_transcript *t, const char *user)
{
    CURL *easy = NULL;
    int rc = s->ops->begin(s, t, user, false, &easy);
    if (rc)
        return AN_OK; /* the turn record says why */
    if (easy) {
        for (;;) {
            s->ops->end(s, t, curl_easy_perform(easy));
            easy = NULL;
            if (!s->ops->next || !s->ops->next(s, t, &easy) || !easy)
                return AN_OK;
        }
    }
    /* an fd-driven session: poll its descriptors until the turn is over */
    for (;;) {
        struct curl_waitfd w[8];
        struct pollfd p[8];
        size_t n = s->ops->fds(s, w, 8);
        for (size_t i = 0; i < n; i++)
            p[i] =
                (struct pollfd){.fd = w[i].fd,
                                .events = (short)((w[i].events & CURL_WAIT_POLLIN ? POLLIN : 0) |
                                                  (w[i].events & CURL_WAIT_POLLOUT ? POLLOUT : 0))};
        poll(p, n, AN_CANCEL_POLL_MS);
        for (size_t i = 0; i < n; i++)
            w[i].revents =
                (short)((p[i].revents & (POLLIN | POLLHUP | POLLERR) ? CURL_WAIT_POLLIN : 0) |
                        (p[i].revents & POLLOUT ? CURL_WAIT_POLLOUT : 0));
        if (s->ops->step(s, t, w, n))
            break;
    }
    s->ops->end(s, t, CURLE_OK);
    return AN_OK;
}

bool an_turn_retryable(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_ERROR || r->events > 0)
        return false;
    switch (r->error_code) {
    case AN_ECONNECT:
        return r->http_status == 0;
    case AN_EHTTP:
        return r->http_status == 408 || r->http_status == 429 || r->http_status >= 500;
    case AN_ETIMEOUT:
        return true; /* no frame: nothing arrived before the timeout */
    default:
        return false;
    }
}
