/*
 * Errors: one code list, one caller-owned error struct.
 *
 * Every fallible function in libananke returns an `int` code (AN_OK == 0)
 * and, on failure, fills a caller-owned `struct an_err` with a location and
 * a message. `an_fail()` fills it and returns the code, so call sites read
 *     return an_fail(err, AN_EPARSE, &loc, "unknown key '%s'", key);
 * The struct holds no heap memory: it can be copied, reused and dropped.
 */
#ifndef ANANKE_ERR_H
#define ANANKE_ERR_H

#include <stdarg.h>
#include <stddef.h>

/* X(name, exit class, short description). The exit class is what the CLI
 * returns when this error stops it: 2 = invalid input, 1 = a run failed. */
#define AN_ERR_MAP(X)                                                                              \
    X(AN_OK, 0, "ok")                                                                              \
    X(AN_EUSAGE, 2, "invalid invocation")                                                          \
    X(AN_EIO, 2, "i/o error")                                                                      \
    X(AN_EPARSE, 2, "parse error")                                                                 \
    X(AN_ESCHEMA, 2, "invalid file")                                                               \
    X(AN_EREGEX, 2, "invalid regular expression")                                                  \
    X(AN_EVAR, 1, "unknown variable")                                                              \
    X(AN_EHOOK, 1, "hook failed")                                                                  \
    X(AN_ECONNECT, 1, "agent unreachable")                                                         \
    X(AN_EHTTP, 1, "agent answered with an http error")                                            \
    X(AN_ETIMEOUT, 1, "timed out")                                                                 \
    X(AN_EPROTO, 1, "protocol error")                                                              \
    X(AN_ERUN, 1, "agent reported a run error")                                                    \
    X(AN_ELIMIT, 1, "size limit exceeded")                                                         \
    X(AN_ENOTFOUND, 2, "not found")                                                                \
    X(AN_EINTERNAL, 1, "internal error")

enum an_code {
#define AN_X(name, cls, desc) name,
    AN_ERR_MAP(AN_X)
#undef AN_X
        AN_CODE_COUNT
};

/* A position in a source file. `file` is borrowed: it points into the
 * suite that loaded it (or a string literal) and lives as long as that. */
struct an_loc {
    const char *file;
    unsigned line; /* 1-based; 0 = unknown */
    unsigned col;  /* 1-based; 0 = unknown */
};

#define AN_ERR_MSG_MAX 1024
#define AN_ERR_FILE_MAX 512

struct an_err {
    enum an_code code;
    char file[AN_ERR_FILE_MAX]; /* copied, so the error outlives the model */
    unsigned line, col;
    char msg[AN_ERR_MSG_MAX];
};
/* clang-format off */
#define AN_ERR_INIT {.code = AN_OK}
/* clang-format on */

/* Fill `err` (may be NULL) and return `code`. `loc` may be NULL. */
int an_fail(struct an_err *err, enum an_code code, const struct an_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int an_failv(struct an_err *err, enum an_code code, const struct an_loc *loc, const char *fmt,
             va_list ap);

#ifdef __clang_analyzer__
/* For `make analyze` only: an_fail() returns the code it is given, and every
 * caller gives an error code, never AN_OK. The analyzer cannot see that
 * across files and follows "rc == 0" paths where an out-parameter was never
 * set; this tells it. Compiled code is unchanged. */
static inline int an_fail_nonzero_(int rc)
{
    if (rc == 0)
        __builtin_unreachable();
    return rc;
}
#define an_fail(...) an_fail_nonzero_((an_fail)(__VA_ARGS__))
#endif

/* Prefix an existing message ("while running hook 1: ..."), keeping code/loc. */
void an_err_prefix(struct an_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* "file:line:col: msg" (or the parts that are known) into buf. */
const char *an_err_format(const struct an_err *err, char *buf, size_t cap);

const char *an_code_name(enum an_code code);
const char *an_code_desc(enum an_code code);
int an_code_exit_class(enum an_code code);

/* Out of memory is not an error value: print and abort (jq, redis). */
_Noreturn void an_oom(void);
/* Never NULL: out of memory aborts. */
void *an_xmalloc(size_t n) __attribute__((returns_nonnull));
void *an_xcalloc(size_t n, size_t size) __attribute__((returns_nonnull));
void *an_xrealloc(void *p, size_t n) __attribute__((returns_nonnull));
char *an_xstrdup(const char *s) __attribute__((returns_nonnull));
char *an_xstrndup(const char *s, size_t n) __attribute__((returns_nonnull));

#endif
