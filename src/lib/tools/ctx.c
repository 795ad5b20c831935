/* Which test a tools/call belongs to (tools/ctx.h). */
#include "tools/ctx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/port.h"
#include "ananke/err.h"
#include "tools/tape.h"

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static struct an_tool_ctx *live;
static unsigned long long serials;

void an_tool_ctx_lock(void)
{
    pthread_mutex_lock(&mu);
}

void an_tool_ctx_unlock(void)
{
    pthread_mutex_unlock(&mu);
}

struct an_tool_ctx *an_tool_ctx_new(const struct an_test *test)
{
    unsigned char raw[AN_TOOL_TOKEN_LEN / 2];
    if (an_port_random(raw, sizeof raw) != sizeof raw)
        return NULL; /* no token that cannot be guessed: no own path */
    struct an_tool_ctx *c = an_xcalloc(1, sizeof *c);
    static const char hex[] = "0123456789abcdef";
    for (size_t i = 0; i < sizeof raw; i++) {
        c->token[2 * i] = hex[raw[i] >> 4];
        c->token[2 * i + 1] = hex[raw[i] & 15];
    }
    an_tape_secret(c->token); /* a recording never shows it (tools/tape.h) */
    c->test = test;
    const char *key = test ? (test->id ? test->id : test->name) : NULL;
    c->key = key ? an_xstrdup(key) : NULL;
    c->refs = 1;
    pthread_mutex_lock(&mu);
    c->serial = ++serials;
    c->next = live;
    live = c;
    pthread_mutex_unlock(&mu);
    return c;
}

static void release(struct an_tool_ctx *c)
{
    free(c->key);
    free(c->refusal);
    free(c->used);
    free(c);
}

void an_tool_ctx_put(struct an_tool_ctx *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&mu);
    bool last = --c->refs == 0;
    pthread_mutex_unlock(&mu);
    if (last)
        release(c);
}

void an_tool_ctx_end(struct an_tool_ctx *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&mu);
    for (struct an_tool_ctx **p = &live; *p; p = &(*p)->next)
        if (*p == c) {
            *p = c->next;
            break;
        }
    c->next = NULL;
    c->in_turn = false;
    pthread_mutex_unlock(&mu);
    an_tool_ctx_put(c);
}

/* Every byte compared, whatever matches: how long a refusal takes says
 * nothing about a token. */
static bool same_token(const char *a, const char *b, size_t len)
{
    unsigned char d = len == AN_TOOL_TOKEN_LEN ? 0 : 1;
    for (size_t i = 0; i < AN_TOOL_TOKEN_LEN; i++)
        d |= (unsigned char)(a[i] ^ (i < len ? b[i] : 0));
    return d == 0;
}

struct an_tool_ctx *an_tool_ctx_by_token(const char *token, size_t len)
{
    struct an_tool_ctx *hit = NULL;
    pthread_mutex_lock(&mu);
    for (struct an_tool_ctx *c = live; c; c = c->next)
        if (same_token(c->token, token, len))
            hit = c;
    if (hit)
        hit->refs++;
    pthread_mutex_unlock(&mu);
    return hit;
}

struct an_tool_ctx *an_tool_ctx_shared(size_t *n)
{
    struct an_tool_ctx *one = NULL;
    *n = 0;
    pthread_mutex_lock(&mu);
    for (struct an_tool_ctx *c = live; c; c = c->next)
        if (c->in_turn) {
            one = c;
            (*n)++;
        }
    if (*n != 1)
        one = NULL;
    if (one)
        one->refs++;
    pthread_mutex_unlock(&mu);
    return one;
}

void an_tool_ctx_each_in_turn(void (*fn)(struct an_tool_ctx *c, void *ud), void *ud)
{
    pthread_mutex_lock(&mu);
    for (struct an_tool_ctx *c = live; c; c = c->next)
        if (c->in_turn)
            fn(c, ud);
    pthread_mutex_unlock(&mu);
}

void an_tool_ctx_refuse(struct an_tool_ctx *c, char *msg)
{
    if (!c) {
        free(msg);
        return;
    }
    pthread_mutex_lock(&mu);
    if (!c->refusal) {
        c->refusal = msg;
        msg = NULL;
    }
    pthread_mutex_unlock(&mu);
    free(msg);
}
