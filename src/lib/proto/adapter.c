/* What every protocol session shares: the blocking form of a turn, and
 * which failures are transport faults worth a retry. */
#include "proto/adapter.h"

#include "proto/http.h"

int an_session_turn(struct an_session *s, struct an_transcript *t, const char *user)
{
    CURL *easy = NULL;
    int rc = s->ops->begin(s, t, user, false, &easy);
    if (rc)
        return AN_OK; /* the turn record says why */
    CURLcode cc = curl_easy_perform(easy);
    s->ops->end(s, t, cc);
    return AN_OK;
}

bool an_turn_retryable(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_ERROR || r->nframes > 0)
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
