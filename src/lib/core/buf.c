#include "core/buf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

void an_buf_init(struct an_buf *b, size_t cap_max)
{
    b->data = NULL;
    b->len = b->cap = 0;
    b->cap_max = cap_max;
}

void an_buf_release(struct an_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

char *an_buf_detach(struct an_buf *b, size_t *len)
{
    char *p = b->data ? b->data : an_xstrdup("");
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

static int grow(struct an_buf *b, size_t extra)
{
    if (b->cap_max && (extra > b->cap_max || b->len > b->cap_max - extra))
        return AN_ELIMIT;
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap * 2 > cap ? cap * 2 : need;
    b->data = an_xrealloc(b->data, cap);
    b->cap = cap;
    return 0;
}

int an_buf_reserve(struct an_buf *b, size_t extra)
{
    return grow(b, extra);
}

int an_buf_append(struct an_buf *b, const void *p, size_t n)
{
    if (grow(b, n))
        return AN_ELIMIT;
    if (n)
        memcpy(b->data + b->len, p, n);
    b->len += n;
    b->data[b->len] = '\0';
    return 0;
}

int an_buf_puts(struct an_buf *b, const char *s)
{
    return an_buf_append(b, s, strlen(s));
}

int an_buf_putc(struct an_buf *b, char c)
{
    return an_buf_append(b, &c, 1);
}

int an_buf_vprintf(struct an_buf *b, const char *fmt, va_list ap)
{
    va_list cp;
    va_copy(cp, ap);
    int n = vsnprintf(NULL, 0, fmt, cp);
    va_end(cp);
    if (n < 0)
        return 0;
    if (grow(b, (size_t)n))
        return AN_ELIMIT;
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
    return 0;
}

int an_buf_printf(struct an_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int rc = an_buf_vprintf(b, fmt, ap);
    va_end(ap);
    return rc;
}

void an_buf_consume(struct an_buf *b, size_t n)
{
    if (n >= b->len) {
        an_buf_reset(b);
        return;
    }
    memmove(b->data, b->data + n, b->len - n);
    b->len -= n;
    b->data[b->len] = '\0';
}

int an_buf_append_text(struct an_buf *b, const char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        const char *z = memchr(s + i, '\0', n - i);
        size_t k = z ? (size_t)(z - (s + i)) : n - i;
        if (an_buf_append(b, s + i, k))
            return -1;
        i += k;
        if (z) {
            if (an_buf_append(b, "\xEF\xBF\xBD", 3))
                return -1;
            i++;
        }
    }
    return 0;
}
