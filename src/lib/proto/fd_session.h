/*
 * What the sessions that speak over file descriptors (acp.c: an agent on a
 * child's stdio; mcp.c: a server on its stdio or over HTTP) share: turning
 * their poll descriptors into the scheduler's curl_waitfd entries and back,
 * a turn's clock and its closing, and the frames they record.
 *
 * Nothing here owns anything: every pointer is borrowed for the call.
 */
#ifndef ANANKE_PROTO_FD_SESSION_H
#define ANANKE_PROTO_FD_SESSION_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"
#include "proto/adapter.h"
#include "proto/jsonrpc.h"

/* fds(): p[0..n) as out[0..n), POLLIN/POLLOUT as CURL_WAIT_POLLIN/POLLOUT,
 * revents cleared. Returns n. */
size_t an_fd_session_waitfds(struct curl_waitfd *out, const struct pollfd *p, size_t n);
/* step(): the descriptors fds() listed, want[0..nw), get the revents the
 * poll saw in fds[0..n): readable as POLLIN (POLLHUP on a descriptor only
 * polled for writing), writable as POLLOUT. Entries of fds that are not in
 * want are ignored. */
void an_fd_session_revents(struct pollfd *want, size_t nw, const struct curl_waitfd *fds, size_t n);

/* begin(): the turn t->turns[t->nturns - 1] starts now (and the transcript
 * with it, if it is the first). Returns the turn's deadline on the
 * monotonic clock, or 0 when timeout_ms <= 0 (none). */
int64_t an_fd_turn_start(struct an_transcript *t, int64_t timeout_ms);
/* end(): the last turn's text is what `text` holds (taken: text is left
 * empty), its calls are those added since it began, and it ends now. */
void an_fd_turn_end(struct an_transcript *t, struct an_buf *text);
/* Add one JSON-RPC frame to the turn record r, led by its direction:
 * "> " we sent it, "< " the peer did. */
void an_fd_turn_frame(struct an_turn_rec *r, enum an_rpc_dir dir, const char *line, size_t len,
                      int64_t unix_ms);
/* retry_after_ms(): an fd-driven session never has a Retry-After (-1). */
int64_t an_fd_session_no_retry_after(const struct an_session *s);

#endif
