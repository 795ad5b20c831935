/*
 * Growable byte buffer (git's strbuf, curl's dynbuf), always NUL-terminated.
 *
 * `cap_max` (0 = unlimited) bounds growth: appending past it fails with
 * AN_ELIMIT instead of growing, so every buffer filled from outside input
 * (HTTP bodies, SSE events, subprocess output) has a cap.
 * an_buf_release() frees the contents; an_buf_detach() hands them over.
 */
#ifndef ANANKE_CORE_BUF_H
#define ANANKE_CORE_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

struct an_buf {
    char *data; /* NULL until the first append; an_buf_cstr() never is */
    size_t len, cap;
    size_t cap_max;
};
/* clang-format off */
#define AN_BUF_INIT {0}
/* clang-format on */

void an_buf_init(struct an_buf *b, size_t cap_max);
void an_buf_release(struct an_buf *b);
/* Caller owns the returned string (malloc); the buffer is left empty. */
char *an_buf_detach(struct an_buf *b, size_t *len)
    __attribute__((returns_nonnull)); /* "" when empty */
/* Empty the buffer, keeping its memory. */
static inline void an_buf_reset(struct an_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

/* 0 on success, AN_ELIMIT when cap_max would be crossed (nothing appended). */
int an_buf_append(struct an_buf *b, const void *p, size_t n);
/* Make room for `extra` more bytes (and the NUL) at once: 0, or AN_ELIMIT
 * when cap_max would be crossed (nothing changed). */
int an_buf_reserve(struct an_buf *b, size_t extra);
/* an_buf_append, without the call while the bytes fit (short appends in a
 * hot loop) */
static inline int an_buf_add(struct an_buf *b, const void *p, size_t n)
{
    if (b->len + n < b->cap && (!b->cap_max || b->len + n <= b->cap_max)) {
        __builtin_memcpy(b->data + b->len, p, n);
        b->len += n;
        b->data[b->len] = '\0';
        return 0;
    }
    return an_buf_append(b, p, n);
}
int an_buf_puts(struct an_buf *b, const char *s);
/* Append text for use as a C string: each NUL byte (a JSON "\u0000")
 * becomes U+FFFD, so the text cannot end early. */
int an_buf_append_text(struct an_buf *b, const char *s, size_t n);
int an_buf_putc(struct an_buf *b, char c);
int an_buf_printf(struct an_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
int an_buf_vprintf(struct an_buf *b, const char *fmt, va_list ap);
/* Drop the first n bytes. */
void an_buf_consume(struct an_buf *b, size_t n);
static inline const char *an_buf_cstr(const struct an_buf *b)
{
    return b->data ? b->data : "";
}

#endif
