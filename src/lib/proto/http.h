/*
 * HTTP POST with a streamed response body, over libcurl.
 *
 * One request, its body bytes handed to a callback as they arrive (SSE,
 * NDJSON), the outcome mapped to an an_code. Protocol adapters (AG-UI now,
 * A2A and MCP Streamable HTTP later) share it.
 *
 * The transfer is split into init / (perform) / done so that a later
 * curl-multi scheduler can add `x->easy` to a multi handle and call
 * an_http_xfer_done() on CURLMSG_DONE, reusing the same callback path;
 * an_http_post_stream() is that sequence with curl_easy_perform().
 *
 * Bodies of 2xx answers go to `on_data`; of any other answer only the first
 * AN_HTTP_HEAD_MAX bytes are kept (for the error message), the rest is
 * read and dropped, unless the request asks for `every_body`. Every
 * response is capped by `max_body`.
 *
 * Ownership: the request is borrowed until an_http_xfer_release(); the
 * response struct is the caller's and holds no heap memory.
 */
#ifndef ANANKE_PROTO_HTTP_H
#define ANANKE_PROTO_HTTP_H

#include <curl/curl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "proto/adapter.h"

/* Return 0 to go on; any other an_code stops the transfer, and that code
 * is what an_http_xfer_done() / an_http_post_stream() return. */
typedef int (*an_http_data_fn)(void *ud, const char *p, size_t n);

struct an_http_req {
    const char *url;
    const char *content_type;    /* of the request body; NULL: none sent */
    const char *accept;          /* NULL: none sent */
    const struct an_kv *headers; /* sent after the two above; a header
                                  * with the same name replaces them */
    size_t nheaders;
    const char *body;
    size_t body_len;
    int64_t timeout_ms;         /* whole transfer; <= 0: no limit */
    int64_t connect_timeout_ms; /* <= 0: min(timeout_ms, 30 s) */
    size_t max_body;            /* response body cap; 0: 256 MiB */
    /* Cap on the answer's header bytes (status lines, header lines and
     * their line ends, of 1xx answers and trailers too): crossing it is
     * AN_ELIMIT. 0: libcurl's own limit (300 KiB) only; proto/h1.c then
     * uses AN_H1_DEFAULT_MAX_HEADER. */
    size_t max_header;
    /* No redirect is ever followed here: a 3xx is an HTTP error naming its
     * Location, so configured headers never reach another origin through
     * one. A caller that wants to follow (the A2A card) reads
     * resp.location and starts a new request with the headers fit for the
     * new origin (an_http_same_origin). */
    bool every_body; /* non-2xx bodies go to on_data too (and to `head`) */
    /* W3C trace context of the turn (an_turn_rec.traceparent): sent as the
     * `traceparent` header, with `tracestate` when the run set one
     * (an_http_set_tracestate), unless `headers` name them; NULL or "":
     * neither is sent */
    const char *traceparent;
    an_http_data_fn on_data;
    void *ud;
};
/* clang-format off */
#define AN_HTTP_REQ_INIT {.content_type = "application/json"}
/* clang-format on */

#define AN_HTTP_HEAD_MAX 512
#define AN_HTTP_FIRST_MAX 120
#define AN_HTTP_DEFAULT_MAX_BODY (256u * 1024u * 1024u)

struct an_http_resp {
    long status;                     /* 0 until a response arrived */
    char content_type[256];          /* "" when the server sent none */
    char head[AN_HTTP_HEAD_MAX + 1]; /* start of a non-2xx body, NUL-terminated */
    size_t head_len;
    size_t body_bytes;                /* every body byte received */
    char curl_error[CURL_ERROR_SIZE]; /* libcurl's own words, "" when none */
    int64_t retry_after_ms;           /* the answer's Retry-After (seconds or a date); -1: none */
    char location[2048];           /* a 3xx answer's Location, absolute; "" when none (or longer) */
    char content_encoding[64];     /* the answer's Content-Encoding; "" when none */
    char first[AN_HTTP_FIRST_MAX]; /* the first bytes of any body (not NUL-terminated) */
    size_t first_len;
    size_t header_bytes; /* header bytes received, counted as max_header counts them */
};

struct an_http_xfer {
    CURL *easy;
    struct curl_slist *hdrs;
    const struct an_http_req *req;
    struct an_http_resp *resp;
    int stop_rc;          /* an_code on_data returned to stop the transfer */
    bool over_cap;        /* the body crossed max_body */
    bool over_header_cap; /* the header bytes crossed max_header */
};

/* Call before any other function here; thread-safe (pthread_once). Loads
 * libcurl (core/lazy.h) and initialises it once; AN_OK, or an error naming
 * libcurl and `what` needed it (err may be NULL) when it cannot be loaded. */
int an_http_global_init(const char *what, struct an_err *err);
/* A CURLOPT_XFERINFOFUNCTION that ends the transfer once the run is
 * cancelled (core/cancel: Ctrl-C, SIGTERM), so a request in flight to a
 * silent server does not hold the run; set CURLOPT_NOPROGRESS to 0 too. */
int an_http_cancel_progress(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un);
/* The `tracestate` header sent with every traceparent (docs/otel.md);
 * NULL: none. Borrowed until set again: set it before a run starts its
 * threads and to NULL after. */
void an_http_set_tracestate(const char *tracestate);
/* The tracestate set last (NULL: none), for the other client (proto/h1.c). */
const char *an_http_tracestate(void);
/* Free this thread's pool of reusable easy handles and its idle
 * connections of proto/h1.h (at the end of a run). */
void an_http_thread_cleanup(void);

/* The origin of an http(s) URL, "scheme://host:port" (lower case, the port
 * written even when it is the scheme's default), or NULL when the URL does
 * not parse. Caller frees. */
char *an_http_origin(const char *url);
/* Whether two URLs share an origin (scheme, host and port). A URL that does
 * not parse shares none. Credentials configured for one URL go only to
 * URLs of its origin (docs/security.md "Credentials stay with their
 * origin"). */
bool an_http_same_origin(const char *a, const char *b);

/* Why a 2xx answer meant to be of a media type in `want` (a list such as
 * "application/json, text/event-stream") held nothing to read, said for people: no body
 * ("status 204 No Content: no body"), an encoding nobody asked for ("the
 * response is gzip-encoded though no encoding was requested"), another
 * type ("the response was text/html (status 200), not an event stream:
 * <first bytes, escaped>"). NULL when none of these is the case. Caller
 * frees. */
char *an_http_why_not_stream(const struct an_http_resp *r, const char *want);

/* Request headers a target gives: a name needs text without ':' and neither
 * may hold a line break. AN_EUSAGE naming the header and `url` otherwise. */
int an_http_headers_check(const struct an_kv *h, size_t n, const char *url, struct an_err *err);
/* Deep copies of n headers appended to *to (*nto grows); free with an_kv_free. */
void an_kv_append(struct an_kv **to, size_t *nto, const struct an_kv *h, size_t n);
void an_kv_free(struct an_kv *h, size_t n);

/* Build the easy handle for `req` (nothing is sent yet). Fails with
 * AN_EUSAGE for a header holding CR or LF, AN_EINTERNAL if libcurl refuses
 * an option. On failure nothing needs releasing. */
int an_http_xfer_init(struct an_http_xfer *x, const struct an_http_req *req,
                      struct an_http_resp *resp, struct an_err *err);

/* Map a finished transfer (`cc` from curl_easy_perform or CURLMsg) to a
 * code and a message in err:
 *   AN_OK        2xx, body complete
 *   AN_EHTTP     "HTTP <status>: <start of the body>"; for a 3xx "HTTP <status>:
 *                redirect to '<Location>' not followed"
 *   AN_ECONNECT  DNS, refused, TLS, connect timeout, or the connection broke
 *                (resp->status tells whether a response had started)
 *   AN_ETIMEOUT  timeout_ms passed after connecting
 *   AN_ELIMIT    the body crossed max_body
 *   other        the code on_data returned to stop the transfer */
int an_http_xfer_done(struct an_http_xfer *x, CURLcode cc, struct an_err *err);

/* What both clients share (proto/h1.c is the other one). */
/* Take n body bytes into resp as the transfer's write callback does: the
 * max_body cap (false, *over_cap set), resp->first, resp->head of a non-2xx
 * answer, req->on_data (false, *stop_rc set, when it says stop). true: go
 * on. The status must be known. */
bool an_http_take_body(const struct an_http_req *req, struct an_http_resp *resp, const char *p,
                       size_t n, bool *over_cap, int *stop_rc);
/* A complete answer's code and message: AN_OK for a 2xx, AN_EHTTP for a
 * redirect (named, not followed) or any other status (the body's start). */
int an_http_answer_rc(const struct an_http_req *req, const struct an_http_resp *resp,
                      struct an_err *err);
/* A Location resolved against the request's URL as libcurl's
 * CURLINFO_REDIRECT_URL does, into out (cap bytes); "" when it is longer. */
void an_http_resolve_location(const char *url, const char *location, char *out, size_t cap);

/* Free the handle and header list. NULL-safe on a zeroed struct. */
void an_http_xfer_release(struct an_http_xfer *x);

/* Blocking POST: init, curl_easy_perform, done, release. Same returns as
 * an_http_xfer_done() plus those of an_http_xfer_init(). */
int an_http_post_stream(const struct an_http_req *req, struct an_http_resp *resp,
                        struct an_err *err);

#endif
