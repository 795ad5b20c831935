/*
 * A JSON-RPC 2.0 peer over NDJSON (one message per line), on a child's
 * stdio or on any pair of fds.
 *
 * Invariants:
 * - Both sides issue requests and the two id spaces are separate: an id we
 *   used and the same id used by the peer never meet. A message with
 *   "method" and "id" is a peer request, "method" without "id" a
 *   notification, anything without "method" a response to one of OUR
 *   requests, matched by id (json_equal, so 1 and "1" differ), never by
 *   order.
 * - Nothing is ever sent as a batch; every frame is one compact line.
 * - Framing: CR/LF and surrounding ASCII whitespace trimmed, blank lines
 *   skipped, a last line without '\n' is processed at EOF, a message split
 *   across reads is reassembled. One frame is capped (max_frame); a longer
 *   line closes the peer with AN_RPC_CLOSE_OVERSIZE ("frame over the N-byte
 *   cap"). The peer's stderr (child mode) is kept in a capped log: the last
 *   stderr_max bytes, with a count of what was dropped.
 * - Non-blocking: the owner polls an_rpc_fds() and calls an_rpc_handle();
 *   writes are queued and flushed when the fd allows, so a peer that does
 *   not read never blocks us (the queue is capped: max_queue).
 * - Callbacks run inside an_rpc_handle()/an_rpc_pump() (and on_frame also
 *   inside the send functions). They may send, reply, and call
 *   an_rpc_close_now(), but must not free the rpc. Every json_t and string
 *   they get is borrowed for the call: json_incref() to keep.
 * - Closure is reported once (on_close), after every complete frame that
 *   arrived before it was delivered. After it, sends fail with AN_EIO.
 *
 * Ownership: the rpc owns its child (an_rpc_spawn) and closes it in
 * an_rpc_free(); fds given to an_rpc_new_fds() are borrowed, never closed.
 */
#ifndef ANANKE_PROTO_JSONRPC_H
#define ANANKE_PROTO_JSONRPC_H

#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "core/child.h"

#define AN_RPC_MAX_FRAME ((size_t)32 << 20)  /* as the ACP SDK: 32 MiB */
#define AN_RPC_MAX_QUEUE ((size_t)128 << 20) /* unsent bytes */
#define AN_RPC_STDERR_MAX ((size_t)64 << 10) /* stderr log: the last 64 KiB */

/* JSON-RPC / ACP error codes. */
#define AN_RPC_PARSE_ERROR (-32700)
#define AN_RPC_INVALID_REQUEST (-32600)
#define AN_RPC_METHOD_NOT_FOUND (-32601)
#define AN_RPC_INVALID_PARAMS (-32602)
#define AN_RPC_INTERNAL_ERROR (-32603)
#define AN_RPC_AUTH_REQUIRED (-32000)
#define AN_RPC_RESOURCE_NOT_FOUND (-32002)

struct an_rpc;

enum an_rpc_kind { AN_RPC_REQUEST, AN_RPC_NOTIFICATION, AN_RPC_RESPONSE };

/* One received message, classified. Everything borrowed for the callback. */
struct an_rpc_msg {
    enum an_rpc_kind kind;
    const json_t *json;   /* the whole message object */
    const char *method;   /* requests and notifications; else NULL */
    const json_t *params; /* may be NULL */
    const json_t *id;     /* requests and responses (may be a JSON null); else NULL */
    const json_t *result; /* responses: the result (may be JSON null), or NULL */
    const json_t *error;  /* responses: the error object, or NULL */
    /* responses: the id matched one of our pending requests, which is now
     * settled. An unknown id (also id null, which agents use to report a
     * parse error) is still delivered, with known false, after a warning. */
    bool known;
    int64_t unix_ms; /* when the frame was read */
};

enum an_rpc_dir { AN_RPC_OUT = 0, AN_RPC_IN = 1 }; /* OUT: we sent it */

enum an_rpc_close_kind {
    AN_RPC_OPEN = 0,
    AN_RPC_CLOSE_EOF,      /* the peer closed its output (child: and has not exited yet) */
    AN_RPC_CLOSE_EXITED,   /* child mode: the child exited (status in the reason / child) */
    AN_RPC_CLOSE_OVERSIZE, /* a frame crossed max_frame */
    AN_RPC_CLOSE_IO,       /* a read error, or the outgoing queue crossed max_queue */
    AN_RPC_CLOSE_LOCAL,    /* an_rpc_close_now() */
};

struct an_rpc_cbs {
    void *ud;
    /* A response to a request (ours, or unknown: see known). */
    void (*on_response)(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m);
    /* A peer request. The handler replies with an_rpc_reply*() now or
     * later (keeping a copy of m->id: json_deep_copy/incref). NULL: every
     * peer request is answered -32601. */
    void (*on_request)(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m);
    void (*on_notification)(void *ud, struct an_rpc *rpc, const struct an_rpc_msg *m);
    /* Every frame, both directions, exactly as it went over the wire
     * (without the '\n'; after trimming for inbound). Also invalid ones. */
    void (*on_frame)(void *ud, struct an_rpc *rpc, enum an_rpc_dir dir, const char *line,
                     size_t len, int64_t unix_ms);
    /* A protocol problem that does not close the peer: "invalid JSON:
     * ...", "message is not an object", "response to unknown id 7",
     * "message without method or id". line is the offending frame. */
    void (*on_warning)(void *ud, struct an_rpc *rpc, const char *what, const char *line,
                       size_t len);
    /* Once, when the peer is closed for good, with a sentence such as
     * "agent exited with status 3" or "frame over the 33554432-byte cap". */
    void (*on_close)(void *ud, struct an_rpc *rpc, enum an_rpc_close_kind kind, const char *reason);
};

struct an_rpc_opts {
    size_t max_frame;      /* one inbound frame's bytes; 0: AN_RPC_MAX_FRAME */
    size_t max_queue;      /* unsent outbound bytes; 0: AN_RPC_MAX_QUEUE */
    size_t stderr_max;     /* stderr log kept (the tail); 0: AN_RPC_STDERR_MAX */
    int64_t grace_ms;      /* an_rpc_free(): stdin closed -> SIGTERM -> SIGKILL;
                              0: AN_CHILD_GRACE_MS */
    const char *peer_name; /* in reasons: "agent" (default) */
    /* the config key that sets max_frame, named in the reason when a frame
     * crosses it ("... cap (max_frame_bytes)"); NULL: none */
    const char *max_frame_key;
    /* The callbacks never read m->json: it stays NULL, and only the members
     * a message is classified by are parsed (an_rpc_scan), not the whole
     * envelope. Messages and warnings are otherwise the same. */
    bool no_message;
};
/* clang-format off */
#define AN_RPC_OPTS_INIT {0}
/* clang-format on */

/* Spawn the peer (co->argv etc.; stdin/stdout pipes, stderr to the log) and
 * speak over its stdio. opts may be NULL. On failure *out is NULL. */
int an_rpc_spawn(struct an_rpc **out, const struct an_child_opts *co,
                 const struct an_rpc_opts *opts, const struct an_rpc_cbs *cbs, struct an_err *err);

/* Speak over fds: read frames from rfd, write to wfd (may be the same fd, a
 * socket). Both are set non-blocking; neither is closed by the rpc. */
int an_rpc_new_fds(struct an_rpc **out, int rfd, int wfd, const struct an_rpc_opts *opts,
                   const struct an_rpc_cbs *cbs, struct an_err *err);

/* Close the child (an_child_close with grace) or forget the fds, free
 * everything. Pending requests are dropped silently. NULL-safe. Must not be
 * called from inside a callback of this rpc. */
void an_rpc_free(struct an_rpc *rpc);

/* Send a request with our next id (0, 1, 2, ...); *id_out gets it (may be
 * NULL). params: borrowed, NULL = omitted. */
int an_rpc_request(struct an_rpc *rpc, const char *method, const json_t *params, int64_t *id_out,
                   struct an_err *err);
/* The same with params given as JSON text (one compact value, such as
 * an_json_compact() writes; no newline), sent as they are: for params that
 * do not change from one request to the next, serialized once. */
int an_rpc_request_text(struct an_rpc *rpc, const char *method, const char *params, size_t len,
                        int64_t *id_out, struct an_err *err);
/* Send a notification. params: borrowed, NULL = omitted. */
int an_rpc_notify(struct an_rpc *rpc, const char *method, const json_t *params, struct an_err *err);
/* Send one frame exactly as given (compact), for compliance tests. A JSON
 * array is refused (AN_EUSAGE): we never batch. If it has "method" and
 * "id", the id is registered as a pending request of ours so the response
 * comes back with known true; a later an_rpc_request() never reuses an
 * integer id seen here. */
int an_rpc_send(struct an_rpc *rpc, const json_t *msg, struct an_err *err);
/* Send a raw line as is (a '\n' is added; embedded newlines refused), even
 * if it is not JSON: for compliance tests of the peer's error handling. */
int an_rpc_send_raw(struct an_rpc *rpc, const char *line, size_t len, struct an_err *err);

/* Answer a peer request: the id is echoed verbatim (type preserved).
 * result: borrowed, NULL = {}. */
int an_rpc_reply(struct an_rpc *rpc, const json_t *peer_id, const json_t *result,
                 struct an_err *err);
/* data: borrowed, NULL = omitted. */
int an_rpc_reply_error(struct an_rpc *rpc, const json_t *peer_id, int code, const char *message,
                       const json_t *data, struct an_err *err);

/* The fds to poll right now, as (fd, events) pairs; events use POLLIN and
 * POLLOUT, which have the same values as CURL_WAIT_POLLIN/POLLOUT on Linux.
 * Returns the count written (at most max; 4 is always enough). 0 once closed. */
size_t an_rpc_fds(const struct an_rpc *rpc, struct pollfd *out, size_t max);
/* Do whatever the polled fds allow: read and dispatch frames, flush the
 * queue, notice the child's exit. Entries whose fd is not ours are ignored;
 * n == 0 means "try everything" (no poll result at hand). */
void an_rpc_handle(struct an_rpc *rpc, const struct pollfd *pfds, size_t n);
/* Poll and handle until timeout_ms passed (0: one non-blocking round,
 * < 0: until closed), the peer is closed, or *stop becomes true (stop may
 * be NULL; a callback sets it). Returns true if still open. */
bool an_rpc_pump(struct an_rpc *rpc, int64_t timeout_ms, const bool *stop);

/* Close the connection now, reporting AN_RPC_CLOSE_LOCAL with reason (the
 * child keeps running until an_rpc_free). No-op if already closed. */
void an_rpc_close_now(struct an_rpc *rpc, const char *reason);

bool an_rpc_is_open(const struct an_rpc *rpc);
enum an_rpc_close_kind an_rpc_close_kind(const struct an_rpc *rpc);
const char *an_rpc_close_reason(const struct an_rpc *rpc); /* "" while open */
size_t an_rpc_pending(const struct an_rpc *rpc);           /* our unanswered requests */
size_t an_rpc_queued(const struct an_rpc *rpc);            /* unsent bytes */
/* The child, or NULL in fd mode. Borrowed; use it read-only (status, pid). */
const struct an_child *an_rpc_child(const struct an_rpc *rpc);
/* The stderr log: borrowed, NUL-terminated, valid until the next handle.
 * *dropped (may be NULL) gets how many earlier bytes were discarded. */
const char *an_rpc_stderr(const struct an_rpc *rpc, size_t *len, size_t *dropped);

/* The members a message is classified by, read from its text without
 * building the envelope object: new references, NULL when absent. */
struct an_rpc_members {
    json_t *id, *method, *params, *result, *error;
};
/* True with *out filled when s[0..n) is a JSON object that the whole parse
 * would read to the same members; false (nothing to release) when it may
 * not be (not an object, invalid, a member repeated, nested deeper than 512
 * inside a member): the caller parses the whole text, which gives the
 * message or its error. */
bool an_rpc_scan(const char *s, size_t n, struct an_rpc_members *out);
void an_rpc_members_release(struct an_rpc_members *m); /* and zeroes it */
/* The same members of a parsed message object, borrowed from it. */
void an_rpc_members_of(const json_t *obj, struct an_rpc_members *m);

#endif
