/*
 * A streamed answer decided up front: a list of actions (write these bytes,
 * sleep, cut the connection, stall) that the HTTP layer (mock_http) only
 * walks. Every protocol renders its stream into one of these, so what a
 * test asserts on the wire is decided in plain code the unit tests can call
 * without a socket.
 *
 * Ownership: a plan owns the bytes of its writes; mock_plan_release() frees
 * them. Nothing here talks to the network, so unit tests compile it in.
 */
#ifndef ANANKE_MOCK_PLAN_H
#define ANANKE_MOCK_PLAN_H

#include <stddef.h>
#include <stdint.h>

enum mock_act_kind {
    MOCK_ACT_WRITE, /* send data[0..len) as one write */
    MOCK_ACT_SLEEP, /* wait ms before the next action */
    MOCK_ACT_CUT,   /* abort the connection */
    MOCK_ACT_STALL, /* send nothing more, keep the connection open */
    MOCK_ACT_AWAIT  /* poll `await` until it gives the bytes to write (another request's doing) */
};

/* An AWAIT action's poll: the bytes to write next (malloc'd, *len), or
 * NULL while they are not ready. */
typedef char *(*mock_await_fn)(void *ud, size_t *len);

struct mock_act {
    enum mock_act_kind kind;
    char *data;
    size_t len;
    int64_t ms;
    mock_await_fn await; /* MOCK_ACT_AWAIT: the poll, its state, and what frees */
    void *ud;            /* the state (the plan owns it: `drop` runs on release) */
    void (*drop)(void *ud);
};

struct mock_plan {
    struct mock_act *acts;
    size_t n, cap;
};
/* clang-format off */
#define MOCK_PLAN_INIT {0}
/* clang-format on */

/* Append an action of `kind` with no data; the pointer is valid until the
 * next push. */
struct mock_act *mock_plan_push(struct mock_plan *p, enum mock_act_kind kind);
/* Append a write of a copy of data[0..len). */
void mock_plan_write(struct mock_plan *p, const char *data, size_t len);
/* Append a write that takes `data` (malloc'd, len bytes). */
void mock_plan_write_take(struct mock_plan *p, char *data, size_t len);
/* Append a sleep; nothing when ms <= 0. */
void mock_plan_sleep(struct mock_plan *p, int64_t ms);
/* Append an await of fn(ud); the plan owns ud and drops it when released
 * (drop may be NULL). */
void mock_plan_await(struct mock_plan *p, mock_await_fn fn, void *ud, void (*drop)(void *ud));
void mock_plan_release(struct mock_plan *p);

/* Byte offsets that split s[0..n) into `parts` pieces of about equal
 * character count, never inside a UTF-8 sequence (a split code point could
 * not be put in a JSON string). Returns the number of pieces, which is
 * smaller than asked when the text has fewer characters (and 1 for ""). `cuts`
 * receives pieces + 1 offsets; the caller frees it. */
size_t mock_split_utf8(const char *s, size_t n, unsigned parts, size_t **cuts);

#endif
