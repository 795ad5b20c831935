#include "ananke/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    const char *name;
    int cls;
    const char *desc;
} codes[] = {
#define AN_X(name, cls, desc) {#name, cls, desc},
    AN_ERR_MAP(AN_X)
#undef AN_X
};

int an_failv(struct an_err *err, enum an_code code, const struct an_loc *loc, const char *fmt,
             va_list ap)
{
    if (!err)
        return (int)code;
    err->code = code;
    err->file[0] = '\0';
    err->line = err->col = 0;
    if (loc) {
        if (loc->file)
            snprintf(err->file, sizeof err->file, "%s", loc->file);
        err->line = loc->line;
        err->col = loc->col;
    }
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    return (int)code;
}

int(an_fail)(struct an_err *err, enum an_code code, const struct an_loc *loc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    an_failv(err, code, loc, fmt, ap);
    va_end(ap);
    return (int)code;
}

void an_err_prefix(struct an_err *err, const char *fmt, ...)
{
    char pre[AN_ERR_MSG_MAX], old[AN_ERR_MSG_MAX];
    va_list ap;
    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof old);
    snprintf(err->msg, sizeof err->msg, "%s%s", pre, old);
}

const char *an_err_format(const struct an_err *err, char *buf, size_t cap)
{
    if (err->file[0] && err->line)
        snprintf(buf, cap, "%s:%u:%u: %s", err->file, err->line, err->col ? err->col : 1, err->msg);
    else if (err->file[0])
        snprintf(buf, cap, "%s: %s", err->file, err->msg);
    else
        snprintf(buf, cap, "%s", err->msg);
    return buf;
}

const char *an_code_name(enum an_code code)
{
    return (unsigned)code < AN_CODE_COUNT ? codes[code].name : "AN_E?";
}

const char *an_code_desc(enum an_code code)
{
    return (unsigned)code < AN_CODE_COUNT ? codes[code].desc : "unknown error";
}

int an_code_exit_class(enum an_code code)
{
    return (unsigned)code < AN_CODE_COUNT ? codes[code].cls : 1;
}

void an_oom(void)
{
    fputs("ananke: out of memory\n", stderr);
    abort();
}

void *an_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        an_oom();
    return p;
}

void *an_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        an_oom();
    return p;
}

void *an_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        an_oom();
    return q;
}

char *an_xstrdup(const char *s)
{
    return an_xstrndup(s, strlen(s));
}

char *an_xstrndup(const char *s, size_t n)
{
    char *p = an_xmalloc(n + 1);
    memcpy(p, s, n);
    p[n] = '\0';
    return p;
}
