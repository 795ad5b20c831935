/*
 * Shared libraries loaded on first use (dlopen), not at startup.
 *
 * libcurl and libmicrohttpd pull in some forty other libraries (krb5,
 * ldap, gnutls, ssh2, ...): linked the ordinary way, loading them was most
 * of the time `ananke --version` or a one-test ACP run took, though neither
 * uses HTTP. The programs therefore have no DT_NEEDED entry for them:
 * core/lazy_curl.c and core/lazy_mhd.c define the functions of those
 * libraries that ananke calls, and forward each call to the real one,
 * looked up once (pthread_once) the first time any of them is called. The
 * ~200 call sites keep calling curl_* and MHD_* as before.
 *
 * A caller that needs a library says so first with an_lazy_curl() or
 * an_lazy_mhd(), which load it (thread-safe, once) and, when it cannot be
 * loaded, fail with a message naming the library and `what` needed it.
 * A forwarding function called when the library could not be loaded
 * returns its library's failure value (NULL, CURLE_FAILED_INIT, MHD_NO...)
 * and does nothing else.
 *
 * Adding a libcurl or libmicrohttpd function to the code: add its row to
 * the X-macro list of lazy_curl.c or lazy_mhd.c (the link fails with an
 * undefined reference until then).
 */
#ifndef ANANKE_CORE_LAZY_H
#define ANANKE_CORE_LAZY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

/* What dlopen() is given (CMakeLists.txt: ANANKE_LIBCURL_SONAME,
 * ANANKE_LIBMHD_SONAME; a full path on macOS). */
#ifndef AN_LAZY_CURL_SONAME
#define AN_LAZY_CURL_SONAME "libcurl.so.4"
#endif
#ifndef AN_LAZY_MHD_SONAME
#define AN_LAZY_MHD_SONAME "libmicrohttpd.so.12"
#endif

/* Load libcurl if it is not yet; AN_OK, or AN_ENOTFOUND with "`what` needs
 * libcurl (libcurl.so.4), which could not be loaded: <reason>" in err
 * (err may be NULL). Thread-safe. */
int an_lazy_curl(const char *what, struct an_err *err);
/* The same for libmicrohttpd (libmicrohttpd.so.12). */
int an_lazy_mhd(const char *what, struct an_err *err);
/* Whether the library was loaded (and found whole) in this process, without
 * loading it: for the tests that check a run never loads it. */
bool an_lazy_curl_loaded(void);
bool an_lazy_mhd_loaded(void);

/* ---- the loader both modules share (core/lazy.c) ---- */

struct an_lazy_sym {
    const char *name;
    void **slot; /* where the address goes */
};

struct an_lazy_lib {
    const char *soname; /* what dlopen() is given */
    const char *label;  /* what messages call it: "libcurl" */
    const struct an_lazy_sym *syms;
    size_t nsyms;
    bool ok;       /* loaded and every symbol found (set once, under the once) */
    char why[256]; /* otherwise the reason (dlerror) */
};

/* dlopen the library and look up every symbol; sets l->ok or l->why. Call
 * it from a pthread_once routine only. The library is never closed. */
void an_lazy_open(struct an_lazy_lib *l);
/* AN_OK when l->ok, or the error naming the library and `what`. */
int an_lazy_fail(const struct an_lazy_lib *l, const char *what, struct an_err *err);

#endif
