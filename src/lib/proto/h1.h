/*
 * A small non-blocking HTTP/1.1 client for one kind of request: a POST to a
 * plain http:// URL whose answer is streamed to a callback (the AG-UI turn).
 * It stands in for libcurl (proto/http.h) where libcurl's generality costs
 * more than the turn itself, and behaves as that path does: the same request
 * bytes, the same struct an_http_resp fields, the same an_code and messages
 * (an_http_xfer_done), no redirect followed. Everything else stays with
 * libcurl: https, proxies, host names other than localhost, URLs it would
 * rewrite, and headers that change how a body is framed (an_h1_usable()).
 * ANANKE_HTTP_CLIENT=curl in the environment sends every request through
 * libcurl (docs/performance.md).
 *
 * Two parts:
 *   - the response parser (h1_parse.c): bytes in, in any split; the status,
 *     the headers the client needs, and the body's bytes out, with every
 *     framing (Content-Length, chunked, until the peer closes), 1xx answers
 *     skipped and the header bytes capped;
 *   - the transfer (h1.c): connect without blocking, send the request, feed
 *     the parser, driven by whoever polls its descriptor (the scheduler's
 *     loop through an fd-driven session, or an_session_turn's poll). Idle
 *     connections are kept per thread, by host and port, and reused.
 *
 * Ownership: the parser and the transfer live in the caller's memory and
 * own only their buffers (an_h1_parse_release, an_h1_xfer_release). The
 * request and the response of a transfer are borrowed from its init to its
 * release; the response holds no heap memory. A connection belongs to one
 * transfer at a time, then to its thread's pool (closed by
 * an_h1_thread_cleanup or when the thread exits).
 */
#ifndef ANANKE_PROTO_H1_H
#define ANANKE_PROTO_H1_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/http.h"

/* The header bytes (status lines, header lines, their line ends, those of
 * 1xx answers and of a chunked body's trailer) one answer may hold when the
 * request sets no max_header: the AG-UI target's `max_header_bytes`. */
#define AN_H1_DEFAULT_MAX_HEADER (64u * 1024u)

/* ---- the response parser ---- */

/* What the parser saw of the final answer (the headers a transfer keeps).
 * Values are trimmed; "" when absent. */
struct an_h1_head {
    int status;  /* of the last status line (a 1xx too), 0 before one */
    int minor;   /* HTTP/1.<minor> */
    bool chunked, close;
    int64_t length;          /* Content-Length, -1: none (or ignored) */
    int64_t retry_after_s;   /* Retry-After in seconds from now; 0: none */
    char content_type[256];  /* the last non-empty Content-Type */
    char content_encoding[64]; /* the first Content-Encoding */
    char location[2048];     /* a 3xx answer's first non-empty Location, as sent;
                                "" when none */
    bool location_cut;       /* it was longer than location holds */
};

enum an_h1_rc {
    AN_H1_MORE = 0, /* give it more bytes */
    AN_H1_DONE,     /* the answer is complete */
    AN_H1_FAIL,     /* broken answer: an_h1_parser.why says how */
    AN_H1_STOP,     /* the body callback asked to stop (its code in .stop) */
    AN_H1_CAP,      /* the header bytes crossed max_header */
};

/* Return 0 to go on; any other value stops the parser (AN_H1_STOP). */
typedef int (*an_h1_body_fn)(void *ud, const char *p, size_t n);
/* Called once, when the final answer's headers are complete. */
typedef void (*an_h1_head_fn)(void *ud, const struct an_h1_head *h);

/* Fields private but for `head`, `why`, `stop`, `header_bytes`,
 * `body_bytes` and `bytes`, which callers read. */
struct an_h1_parser {
    struct an_h1_head head;
    const char *why;     /* AN_H1_FAIL: what was wrong, in libcurl's words */
    char msg[96];        /* where `why` points when it holds a number */
    int stop;            /* AN_H1_STOP: what the callback returned */
    size_t header_bytes; /* every header byte so far */
    uint64_t body_bytes; /* body bytes handed to the callback */
    uint64_t bytes;      /* every byte fed */
    size_t max_header;
    int state, lines, rc;
    bool bodyless, saw_te, ignore_cl;
    uint64_t left; /* of a Content-Length body or of the current chunk */
    char hex[17];
    unsigned nhex;
    size_t trailer_len;
    struct an_buf line;
    an_h1_head_fn on_head;
    an_h1_body_fn on_body;
    void *ud;
};

/* Chunks held whole in what one feed gives, written plainly, are taken in
 * one step (h1_parse.c, whole_chunk) instead of byte by byte; on unless a
 * test switches it off to compare it with the state machine alone. */
extern bool an_h1_whole_chunks;

/* max_header 0: AN_H1_DEFAULT_MAX_HEADER. Either callback may be NULL. */
void an_h1_parse_init(struct an_h1_parser *p, size_t max_header, an_h1_head_fn on_head,
                      an_h1_body_fn on_body, void *ud);
/* Feed what a read returned. *used gets how many bytes were taken: all of
 * them unless the answer ended (AN_H1_DONE: the rest is not this answer's)
 * or failed. Once it returned anything but AN_H1_MORE, every later call
 * returns the same. */
enum an_h1_rc an_h1_parse_feed(struct an_h1_parser *p, const char *data, size_t n, size_t *used);
/* The peer closed. AN_H1_DONE when that ends the answer (a body read until
 * the close; libcurl's reading of a head cut after a complete line), else
 * AN_H1_FAIL with `why` ("Empty reply from server", "transfer closed with 5
 * bytes remaining to read", ...). */
enum an_h1_rc an_h1_parse_eof(struct an_h1_parser *p);
/* Whether the answer was read to its end and the connection may carry the
 * next request (no close asked for, its length known, nothing after it). */
bool an_h1_parse_reusable(const struct an_h1_parser *p);
void an_h1_parse_release(struct an_h1_parser *p);

/* ---- the transfer ---- */

/* Whether this request can go through the client: an http:// URL with a
 * numeric IPv4 or IPv6 host (as libcurl would write it) or "localhost", a
 * port in 1..65535 without leading zeros, a path and query of printable
 * ASCII without dot segments (libcurl would rewrite them) and without '#';
 * no user name; no header of the target naming Content-Length,
 * Transfer-Encoding or Expect; no proxy variable set (http_proxy,
 * HTTP_PROXY, all_proxy, ALL_PROXY, whatever no_proxy says); and
 * ANANKE_HTTP_CLIENT is not "curl". */
bool an_h1_usable(const struct an_http_req *req);

/* Fields private. */
struct an_h1_xfer {
    const struct an_http_req *req;
    struct an_http_resp *resp;
    struct an_h1_parser p;
    struct an_buf out; /* the request */
    size_t sent;
    char key[300];  /* "host:port", the pool's key */
    char host[256]; /* as in the URL, brackets off */
    unsigned port;
    int fd;
    int phase;
    int addr; /* localhost: 0 = 127.0.0.1, 1 = ::1 */
    bool reused, retried;
    int fail; /* how it ended when it did not end well (h1.c) */
    int64_t start_ms, deadline_ms, connect_deadline_ms, connected_ms;
    int64_t recv_unix_ms; /* wall clock of the last read that brought bytes:
                           * when what the body callback is handed arrived */
    bool over_cap; /* the body crossed max_body */
    int stop_rc;
};

/* Build the request and start connecting (or take a pooled connection).
 * Fails only like an_http_xfer_init (a header with a line break: AN_EUSAGE);
 * a connection that cannot be made is the transfer's outcome, reported by
 * an_h1_xfer_done. Release the transfer either way. */
int an_h1_xfer_init(struct an_h1_xfer *x, const struct an_http_req *req,
                    struct an_http_resp *resp, struct an_err *err);
/* The descriptor to poll and for what (POLLIN, POLLOUT): 1 entry in *out,
 * or 0 when the transfer is over. */
size_t an_h1_xfer_fds(const struct an_h1_xfer *x, struct pollfd *out);
/* Work without blocking: `revents` of the descriptor an_h1_xfer_fds gave
 * (0 when the poll said nothing: only the clocks are looked at). true once
 * the transfer is over (then call an_h1_xfer_done). Call it at least every
 * AN_CANCEL_POLL_MS: the timeouts are checked here. */
bool an_h1_xfer_step(struct an_h1_xfer *x, short revents);
/* The outcome, mapped as an_http_xfer_done maps libcurl's (the same codes
 * and messages); resp is complete. */
int an_h1_xfer_done(struct an_h1_xfer *x, struct an_err *err);
/* Close or pool the connection, free the buffers. A transfer still in
 * flight is cut (its connection closed). NULL-safe on a zeroed struct. */
void an_h1_xfer_release(struct an_h1_xfer *x);

/* Close this thread's idle connections (also done when the thread exits). */
void an_h1_thread_cleanup(void);
/* Idle connections this thread holds (for tests). */
size_t an_h1_pooled(void);

#endif
