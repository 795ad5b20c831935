/*
 * core/lazy_curl.c and lazy_mhd.c: libcurl and libmicrohttpd are not in the
 * process until something needs them (this program links libananke, which
 * has no DT_NEEDED on them), are mapped once an_http_global_init() or
 * an_lazy_mhd() asked for them, and the variadic forwarding passes each
 * option by its type: a long, an object pointer, a function pointer and a
 * curl_off_t option (curl_easy_setopt: a resumed file:// download), a pointer out (curl_easy_getinfo)
 * and options of the multi interface (curl_multi_setopt).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <microhttpd.h>

#include "core/lazy.h"
#include "proto/http.h"

/* Whether a file whose name holds `lib` is mapped in this process. */
static bool mapped(const char *lib)
{
    FILE *f = fopen("/proc/self/maps", "r");
    assert_non_null(f);
    char line[4096];
    bool found = false;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, lib) != NULL;
    fclose(f);
    return found;
}

/* Must run first: nothing has asked for either library yet. */
static void not_loaded_before_use(void **state)
{
    (void)state;
    assert_false(an_lazy_curl_loaded());
    assert_false(an_lazy_mhd_loaded());
    assert_false(mapped("libcurl"));
    assert_false(mapped("libmicrohttpd"));
}

static void loaded_on_first_use(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_http_global_init("the test", &err), AN_OK);
    assert_true(an_lazy_curl_loaded());
    assert_true(mapped("libcurl"));
    assert_false(mapped("libmicrohttpd")); /* one does not bring the other */
    assert_int_equal(an_lazy_mhd("the test", &err), AN_OK);
    assert_true(an_lazy_mhd_loaded());
    assert_true(mapped("libmicrohttpd"));
}

struct sink {
    char buf[256];
    size_t n;
};

static size_t on_write(char *p, size_t size, size_t nmemb, void *ud)
{
    struct sink *s = ud;
    size_t n = size * nmemb;
    if (n > sizeof s->buf - 1 - s->n)
        n = sizeof s->buf - 1 - s->n;
    memcpy(s->buf + s->n, p, n);
    s->n += n;
    s->buf[s->n] = '\0';
    return size * nmemb;
}

/* A file:// transfer of `url` from byte `from` (CURLOPT_RESUME_FROM_LARGE). */
static CURLcode fetch(const char *url, curl_off_t from, struct sink *s, curl_off_t *got)
{
    CURL *h = curl_easy_init();
    assert_non_null(h);
    memset(s, 0, sizeof *s);
    assert_int_equal(curl_easy_setopt(h, CURLOPT_URL, url), CURLE_OK);    /* object pointer */
    assert_int_equal(curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L), CURLE_OK); /* long */
    assert_int_equal(curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, on_write), CURLE_OK); /* function */
    assert_int_equal(curl_easy_setopt(h, CURLOPT_WRITEDATA, s), CURLE_OK);
    assert_int_equal(curl_easy_setopt(h, CURLOPT_RESUME_FROM_LARGE, from), CURLE_OK); /* off_t */
    CURLcode cc = curl_easy_perform(h);
    *got = -1;
    assert_int_equal(curl_easy_getinfo(h, CURLINFO_SIZE_DOWNLOAD_T, got), CURLE_OK);
    curl_easy_cleanup(h);
    return cc;
}

static void setopt_by_type(void **state)
{
    (void)state;
    char path[] = "/tmp/ananke-lazy-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "hello lazy", 10), 10);
    close(fd);
    char url[64];
    snprintf(url, sizeof url, "file://%s", path);
    struct sink s;
    curl_off_t got;
    /* every option arrived: the body, through the callback, into its sink */
    assert_int_equal(fetch(url, 0, &s, &got), CURLE_OK);
    assert_string_equal(s.buf, "hello lazy");
    assert_int_equal(got, 10);
    /* the curl_off_t arrived: the body from byte 6 */
    assert_int_equal(fetch(url, 6, &s, &got), CURLE_OK);
    assert_string_equal(s.buf, "lazy");
    assert_int_equal(got, 4);
    /* whole, high half too: 2^32 + 6 is past the end, not byte 6 */
    assert_int_equal(fetch(url, ((curl_off_t)1 << 32) + 6, &s, &got), CURLE_BAD_DOWNLOAD_RESUME);
    unlink(path);

    CURLM *m = curl_multi_init();
    assert_non_null(m);
    assert_int_equal(curl_multi_setopt(m, CURLMOPT_MAXCONNECTS, 8L), CURLM_OK);
    /* a pointer option of the multi interface, and an unknown one refused */
    assert_int_equal(curl_multi_setopt(m, CURLMOPT_SOCKETDATA, (void *)m), CURLM_OK);
    assert_int_equal(curl_multi_setopt(m, (CURLMoption)9999, 1L), CURLM_UNKNOWN_OPTION);
    curl_multi_cleanup(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(not_loaded_before_use),
        cmocka_unit_test(loaded_on_first_use),
        cmocka_unit_test(setopt_by_type),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
