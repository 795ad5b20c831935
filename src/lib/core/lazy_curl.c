/*
 * libcurl, loaded on first use (core/lazy.h): the libcurl functions ananke
 * calls, each forwarding to the real one. The variadic setopt and getinfo
 * pass their one argument on by its type, which curl encodes in the option
 * number (CURLOPTTYPE_*: long, object pointer, function pointer, curl_off_t,
 * blob pointer); a getinfo argument is always a pointer.
 */
#define CURL_DISABLE_TYPECHECK /* these are the functions, not the macros */
#include <curl/curl.h>
#include <stdarg.h>

#include "core/lazy_def.h"

/* curl 8 takes a const handle in curl_url_get, 7.x not (CMakeLists.txt probes) */
#if ANANKE_CURL_URL_GET_CONST
#define AN_CURLU_GET_CONST const
#else
#define AN_CURLU_GET_CONST
#endif

/* R(return type, name, (parameters), (arguments), value when not loaded);
 * V(name, (parameters), (arguments)) for those returning nothing. */
#define AN_CURL_FNS(R, V)                                                                          \
    R(CURLcode, curl_global_init, (long flags), (flags), CURLE_FAILED_INIT)                        \
    R(CURL *, curl_easy_init, (void), (), NULL)                                                    \
    V(curl_easy_cleanup, (CURL * h), (h))                                                          \
    V(curl_easy_reset, (CURL * h), (h))                                                            \
    R(CURLcode, curl_easy_perform, (CURL * h), (h), CURLE_FAILED_INIT)                             \
    R(const char *, curl_easy_strerror, (CURLcode c), (c), "libcurl is not loaded")                \
    R(CURLHcode, curl_easy_header,                                                                 \
      (CURL * h, const char *name, size_t i, unsigned int origin, int request,                     \
       struct curl_header **out),                                                                  \
      (h, name, i, origin, request, out), CURLHE_NOT_BUILT_IN)                                     \
    R(struct curl_slist *, curl_slist_append, (struct curl_slist * l, const char *s), (l, s),      \
      NULL)                                                                                        \
    V(curl_slist_free_all, (struct curl_slist * l), (l))                                           \
    V(curl_free, (void *p), (p))                                                                   \
    R(CURLU *, curl_url, (void), (), NULL)                                                         \
    V(curl_url_cleanup, (CURLU * u), (u))                                                          \
    R(CURLUcode, curl_url_get,                                                                     \
      (AN_CURLU_GET_CONST CURLU * u, CURLUPart what, char **part, unsigned int flags),             \
      (u, what, part, flags), CURLUE_OUT_OF_MEMORY)                                                \
    R(CURLUcode, curl_url_set, (CURLU * u, CURLUPart what, const char *part, unsigned int flags),  \
      (u, what, part, flags), CURLUE_OUT_OF_MEMORY)                                                \
    R(CURLM *, curl_multi_init, (void), (), NULL)                                                  \
    R(CURLMcode, curl_multi_cleanup, (CURLM * m), (m), CURLM_INTERNAL_ERROR)                       \
    R(CURLMcode, curl_multi_add_handle, (CURLM * m, CURL * h), (m, h), CURLM_INTERNAL_ERROR)       \
    R(CURLMcode, curl_multi_remove_handle, (CURLM * m, CURL * h), (m, h), CURLM_INTERNAL_ERROR)    \
    R(CURLMcode, curl_multi_perform, (CURLM * m, int *running), (m, running),                      \
      CURLM_INTERNAL_ERROR)                                                                        \
    R(CURLMsg *, curl_multi_info_read, (CURLM * m, int *left), (m, left), NULL)                    \
    R(CURLMcode, curl_multi_poll,                                                                  \
      (CURLM * m, struct curl_waitfd extra[], unsigned int n, int timeout_ms, int *ret),           \
      (m, extra, n, timeout_ms, ret), CURLM_INTERNAL_ERROR)                                        \
    R(CURLMcode, curl_multi_wakeup, (CURLM * m), (m), CURLM_INTERNAL_ERROR)                        \
    R(CURLMcode, curl_multi_fdset, (CURLM * m, fd_set * r, fd_set * w, fd_set * x, int *max),      \
      (m, r, w, x, max), CURLM_INTERNAL_ERROR)

/* the variadic ones, called through a pointer of the fixed-argument form */
#define AN_CURL_VARIADIC(X)                                                                        \
    X(curl_easy_setopt)                                                                            \
    X(curl_easy_getinfo)                                                                           \
    X(curl_multi_setopt)

#define AN_CURL_SLOT_X(name) AN_LAZY_SLOT(name)
#define AN_CURL_SYM_X(name) AN_LAZY_SYM(name)
AN_LAZY_SLOTS(AN_CURL_FNS)
AN_CURL_VARIADIC(AN_CURL_SLOT_X)
AN_LAZY_LIB(AN_LAZY_CURL_SONAME, "libcurl",
            AN_LAZY_SYMS(AN_CURL_FNS) AN_CURL_VARIADIC(AN_CURL_SYM_X))

int an_lazy_curl(const char *what, struct an_err *err)
{
    pthread_once(&once, load);
    return an_lazy_fail(&lib, what, err);
}

bool an_lazy_curl_loaded(void)
{
    return lib.ok;
}

AN_LAZY_DEFS(AN_CURL_FNS)

typedef void (*any_fn)(void);

/* The one argument of a setopt, by the option's range (curl.h CURLOPTTYPE_*;
 * the same for CURLMOPT_*). */
enum arg_kind { ARG_LONG, ARG_PTR, ARG_FN, ARG_OFF };

static enum arg_kind arg_kind(int opt)
{
    if (opt < CURLOPTTYPE_OBJECTPOINT)
        return ARG_LONG;
    if (opt < CURLOPTTYPE_FUNCTIONPOINT)
        return ARG_PTR;
    if (opt < CURLOPTTYPE_OFF_T)
        return ARG_FN;
    if (opt < CURLOPTTYPE_BLOB)
        return ARG_OFF;
    return ARG_PTR; /* a struct curl_blob * */
}

CURLcode curl_easy_setopt(CURL *h, CURLoption opt, ...)
{
    if (!ready())
        return CURLE_FAILED_INIT;
    CURLcode (*f)(CURL *, CURLoption, ...) =
        (CURLcode(*)(CURL *, CURLoption, ...))AN_LAZY_SLOT_NAME(curl_easy_setopt);
    va_list ap;
    va_start(ap, opt);
    CURLcode rc;
    switch (arg_kind((int)opt)) {
    case ARG_LONG:
        rc = f(h, opt, va_arg(ap, long));
        break;
    case ARG_FN:
        rc = f(h, opt, va_arg(ap, any_fn));
        break;
    case ARG_OFF:
        rc = f(h, opt, va_arg(ap, curl_off_t));
        break;
    default:
        rc = f(h, opt, va_arg(ap, void *));
        break;
    }
    va_end(ap);
    return rc;
}

CURLMcode curl_multi_setopt(CURLM *m, CURLMoption opt, ...)
{
    if (!ready())
        return CURLM_INTERNAL_ERROR;
    CURLMcode (*f)(CURLM *, CURLMoption, ...) =
        (CURLMcode(*)(CURLM *, CURLMoption, ...))AN_LAZY_SLOT_NAME(curl_multi_setopt);
    va_list ap;
    va_start(ap, opt);
    CURLMcode rc;
    switch (arg_kind((int)opt)) {
    case ARG_LONG:
        rc = f(m, opt, va_arg(ap, long));
        break;
    case ARG_FN:
        rc = f(m, opt, va_arg(ap, any_fn));
        break;
    case ARG_OFF:
        rc = f(m, opt, va_arg(ap, curl_off_t));
        break;
    default:
        rc = f(m, opt, va_arg(ap, void *));
        break;
    }
    va_end(ap);
    return rc;
}

CURLcode curl_easy_getinfo(CURL *h, CURLINFO info, ...)
{
    if (!ready())
        return CURLE_FAILED_INIT;
    va_list ap;
    va_start(ap, info);
    void *out = va_arg(ap, void *); /* every CURLINFO_* takes a pointer */
    va_end(ap);
    return ((CURLcode(*)(CURL *, CURLINFO, ...))AN_LAZY_SLOT_NAME(curl_easy_getinfo))(h, info, out);
}
