#define PCRE2_CODE_UNIT_WIDTH 8
#include "ananke/regex.h"

#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool split_slash_form(const char *src, size_t *body_off, size_t *body_len,
                             const char **flags)
{
    size_t n = strlen(src);
    if (n < 3 || src[0] != '/')
        return false;
    const char *last = strrchr(src, '/');
    if (last == src || last == src + 1)
        return false;
    for (const char *f = last + 1; *f; f++)
        if (!((*f >= 'a' && *f <= 'z') || (*f >= 'A' && *f <= 'Z')))
            return false; /* "/a/b.c": a pattern, not /BODY/FLAGS */
    *body_off = 1;
    *body_len = (size_t)(last - src) - 1;
    *flags = last + 1;
    return true;
}

int an_regex_compile(struct an_regex **out, const char *src, const struct an_loc *loc,
                     struct an_err *err)
{
    size_t off = 0, len = strlen(src);
    const char *flags = "";
    uint32_t opts = 0;
    *out = NULL;
    if (split_slash_form(src, &off, &len, &flags)) {
        for (const char *f = flags; *f; f++) {
            if (!strchr("gimsuy", *f))
                return an_fail(err, AN_EREGEX, loc,
                               "unknown regex flag '%c' in '%s' (flags are i, m, s, u, g and "
                               "y; to match a '/' that is not a delimiter, write '\\/')",
                               *f, src);
            if (*f == 'i')
                opts |= PCRE2_CASELESS;
            else if (*f == 'm')
                opts |= PCRE2_MULTILINE;
            else if (*f == 's')
                opts |= PCRE2_DOTALL;
            else if (*f == 'u')
                opts |= PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF;
        }
    }
    int ec;
    PCRE2_SIZE eoff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)src + off, len, opts, &ec, &eoff, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(ec, msg, sizeof msg);
        return an_fail(err, AN_EREGEX, loc, "invalid regex '%s': %s at offset %zu", src,
                       (const char *)msg, (size_t)eoff);
    }
    /* JIT code reads in wide words past the subject's end, which valgrind
     * reports as errors; ANANKE_NO_JIT=1 keeps the interpreter for such runs. */
    const char *nojit = getenv("ANANKE_NO_JIT");
    if (!(nojit && *nojit && strcmp(nojit, "0") != 0))
        (void)pcre2_jit_compile(code, PCRE2_JIT_COMPLETE); /* falls back to the interpreter */
    /* Explicit limits: a pattern that backtracks catastrophically on what
     * an agent said gives up after AN_REGEX_MATCH_LIMIT steps (or
     * AN_REGEX_HEAP_LIMIT KiB of backtracking memory) instead of hanging
     * the run; an_regex_find() then says so. Read-only while matching, so
     * one context serves every thread. */
    pcre2_match_context *mctx = pcre2_match_context_create(NULL);
    if (!mctx)
        an_oom();
    pcre2_set_match_limit(mctx, AN_REGEX_MATCH_LIMIT);
    pcre2_set_depth_limit(mctx, AN_REGEX_MATCH_LIMIT);
    pcre2_set_heap_limit(mctx, AN_REGEX_HEAP_LIMIT);
    struct an_regex *re = an_xcalloc(1, sizeof *re);
    re->mctx = mctx;
    re->src = an_xstrdup(src);
    re->pattern = an_xstrndup(src + off, len);
    snprintf(re->flags, sizeof re->flags, "%.7s", flags);
    if (loc)
        re->loc = *loc;
    re->code = code;
    *out = re;
    return AN_OK;
}

void an_regex_free(struct an_regex *re)
{
    if (!re)
        return;
    pcre2_code_free(re->code);
    pcre2_match_context_free(re->mctx);
    free((char *)re->src);
    free((char *)re->pattern);
    free(re);
}

int an_regex_find(const struct an_regex *re, const char *subject, size_t len, size_t *so,
                  size_t *eo)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re->code, NULL);
    if (!md)
        an_oom();
    int rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, 0, md, re->mctx);
    /* JIT code has a small fixed stack; the interpreter backtracks on the
     * heap, within the context's limits */
    if (rc == PCRE2_ERROR_JIT_STACKLIMIT)
        rc = pcre2_match(re->code, (PCRE2_SPTR)subject, len, 0, PCRE2_NO_JIT, md, re->mctx);
    if (rc == PCRE2_ERROR_BADUTFOFFSET ||
        (rc <= PCRE2_ERROR_UTF8_ERR1 && rc >= PCRE2_ERROR_UTF8_ERR21) || rc == PCRE2_ERROR_PARTIAL)
        rc = PCRE2_ERROR_NOMATCH;
    if (rc >= 0 && so && eo) {
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        *so = ov[0];
        /* \K can put the end before the start; show an empty match then. */
        *eo = ov[1] >= ov[0] ? ov[1] : ov[0];
    }
    pcre2_match_data_free(md);
    return rc >= 0 ? 1 : rc == PCRE2_ERROR_NOMATCH ? 0 : -1;
}

bool an_regex_search(const struct an_regex *re, const char *subject, size_t len)
{
    return an_regex_find(re, subject, len, NULL, NULL) == 1;
}
