#include "mock_plan.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

struct mock_act *mock_plan_push(struct mock_plan *p, enum mock_act_kind kind)
{
    if (p->n == p->cap) {
        p->cap = p->cap ? p->cap * 2 : 16;
        p->acts = an_xrealloc(p->acts, p->cap * sizeof *p->acts);
    }
    struct mock_act *a = &p->acts[p->n++];
    memset(a, 0, sizeof *a);
    a->kind = kind;
    return a;
}

void mock_plan_write(struct mock_plan *p, const char *data, size_t len)
{
    mock_plan_write_take(p, an_xstrndup(data, len), len);
}

void mock_plan_write_take(struct mock_plan *p, char *data, size_t len)
{
    struct mock_act *a = mock_plan_push(p, MOCK_ACT_WRITE);
    a->data = data;
    a->len = len;
}

void mock_plan_sleep(struct mock_plan *p, int64_t ms)
{
    if (ms > 0)
        mock_plan_push(p, MOCK_ACT_SLEEP)->ms = ms;
}

void mock_plan_await(struct mock_plan *p, mock_await_fn fn, void *ud, void (*drop)(void *ud))
{
    struct mock_act *a = mock_plan_push(p, MOCK_ACT_AWAIT);
    a->await = fn;
    a->ud = ud;
    a->drop = drop;
}

void mock_plan_release(struct mock_plan *p)
{
    for (size_t i = 0; i < p->n; i++) {
        free(p->acts[i].data);
        if (p->acts[i].drop)
            p->acts[i].drop(p->acts[i].ud);
    }
    free(p->acts);
    p->acts = NULL;
    p->n = p->cap = 0;
}

size_t mock_split_utf8(const char *s, size_t n, unsigned parts, size_t **cuts)
{
    size_t nchars = 0;
    for (size_t i = 0; i < n; i++)
        if (((unsigned char)s[i] & 0xC0) != 0x80)
            nchars++;
    size_t k = parts;
    if (k > nchars)
        k = nchars ? nchars : 1;
    size_t *c = an_xcalloc(k + 1, sizeof *c);
    size_t ch = 0, piece = 1;
    for (size_t i = 0; i < n && piece < k; i++) {
        if (((unsigned char)s[i] & 0xC0) == 0x80)
            continue;
        if (ch == piece * nchars / k)
            c[piece++] = i;
        ch++;
    }
    c[k] = n;
    *cuts = c;
    return k;
}
