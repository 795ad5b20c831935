/*
 * Private to the run-case session (http_case.c): what one attempt came to,
 * judged without I/O so the unit tests can feed it every answer and every
 * failure (http_case_record.c).
 */
#ifndef ANANKE_PROTO_HTTP_CASE_INT_H
#define ANANKE_PROTO_HTTP_CASE_INT_H

#include <curl/curl.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/transcript.h"

/* One finished attempt, as the transport left it. */
struct an_hc_attempt {
    const char *url;
    CURLcode cc;      /* the transfer's result */
    int rc;           /* an_http_xfer_done()'s code for it */
    const char *why;  /* its message ("cannot reach ...: Connection refused") */
    long status;      /* HTTP status; 0: no answer */
    const char *body; /* the bytes of the answer that arrived (any status) */
    size_t body_len;
    int64_t retry_after_ms;
    int64_t timeout_ms;   /* of an attempt; 0: none */
    int64_t latency_ms;   /* request sent -> transfer over */
    unsigned attempt;     /* 1-based */
    size_t snippet_bytes; /* of a failed answer kept in `failure` */
    size_t max_body_bytes;
};

/* Record the attempt into the last turn of t: the answer's calls, text,
 * actions and retrievals (an_turn_set_response), with trace-integrity
 * warnings; or a turn failure whose message starts with its class
 * (http_error, timeout, network_error, invalid_json) and whose record is
 * kept in turn->failure. `now` stamps the calls (an agent's own `ts` is on
 * another clock; it stays in the kept answer). */
void an_hc_finish(struct an_transcript *t, const struct an_hc_attempt *a, int64_t now);

/* seed 004's network_error kind for a libcurl failure: "dns", "conn_refused",
 * "conn_reset", "socket_hang_up", "tls", "proxy" or "unknown". */
const char *an_hc_net_kind(CURLcode cc);

#endif
