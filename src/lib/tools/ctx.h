/*
 * Which test a tools/call belongs to (docs/tools.md "Parallel runs").
 *
 * Each test in flight has a context: a random token (AN_TOOL_TOKEN_LEN hex
 * characters from the kernel's random source) that names its own path on
 * every proxy, http://127.0.0.1:PORT/t/TOKEN/mcp, and the state its calls
 * read and write (the turn's tool_mocks, the `results` sequences, the
 * refusal that ends the test, replay's used recorded calls). A call on a
 * test's path belongs to that test only. A call on the shared path
 * (/mcp) belongs to the one test whose turn runs; with none, to no test;
 * with more than one, it cannot be attributed (an_tool_ctx_shared()).
 *
 * Process-wide registry, thread-safe. Contexts are reference-counted: the
 * job holds one from an_tools_test_begin() to an_tools_test_end(); a proxy
 * thread holds one while it answers a call (an_tool_ctx_put() drops it).
 * The fields below are the registry lock's (an_tool_ctx_lock()).
 */
#ifndef ANANKE_TOOLS_CTX_H
#define ANANKE_TOOLS_CTX_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/model.h"

#define AN_TOOL_TOKEN_LEN 32 /* 128 bits, hex */
#define AN_TOOL_COUNTED 256  /* rules with `results` counted per test */

struct an_tool_ctx {
    struct an_tool_ctx *next;
    unsigned refs;
    unsigned long long serial; /* which test a logged call is of; never 0 */
    char token[AN_TOOL_TOKEN_LEN + 1];
    const struct an_test *test; /* borrowed from the suite */
    char *key;                  /* its JSONL id, else its name */
    const struct an_turn *turn; /* the turn in flight; NULL: none or dynamic */
    size_t turn_no;             /* 1-based; 0: before the first */
    bool in_turn;               /* a turn runs (shared-path attribution) */
    struct {
        const struct an_tool_mock *rule;
        size_t n;
    } counted[AN_TOOL_COUNTED];
    size_t ncounted;
    char *refusal;       /* the first refused call, ends the test as an ERROR */
    unsigned char *used; /* replay: the recorded calls this test has had */
    size_t nused;
};

void an_tool_ctx_lock(void);
void an_tool_ctx_unlock(void);

/* A new context for test, registered; NULL only when no random bytes can
 * be had (then the test has no own path). */
struct an_tool_ctx *an_tool_ctx_new(const struct an_test *test);
/* Unregister it (no call finds it after this) and drop the job's
 * reference. NULL-safe. */
void an_tool_ctx_end(struct an_tool_ctx *c);
/* A new reference to the context whose token is the len bytes at token,
 * or NULL: unknown or ended. */
struct an_tool_ctx *an_tool_ctx_by_token(const char *token, size_t len);
/* The shared path's owner: *n is how many tests have a turn running; with
 * exactly one, a new reference to it, else NULL. */
struct an_tool_ctx *an_tool_ctx_shared(size_t *n);
/* Each test whose turn runs, with the lock held: fn(c, ud). */
void an_tool_ctx_each_in_turn(void (*fn)(struct an_tool_ctx *c, void *ud), void *ud);
void an_tool_ctx_put(struct an_tool_ctx *c); /* NULL-safe */
/* Note a refusal on c (msg taken); the first one wins. Lock not held. */
void an_tool_ctx_refuse(struct an_tool_ctx *c, char *msg);

#endif
