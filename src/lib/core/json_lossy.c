/* Outside text made valid for JSON: invalid UTF-8 and NULs replaced (core/json.h). */
#include "core/json.h"

#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "ananke/err.h"
#include "core/buf.h"
#include "core/json_int.h"

/* Bytes of s[0..n) that are valid UTF-8 without NUL, from the start. */
static size_t utf8_clean_prefix(const unsigned char *p, size_t n)
{
    const uint64_t ones = 0x0101010101010101u, high = 0x8080808080808080u;
    size_t i = 0;
    while (i < n) {
#ifdef __SSE2__
        /* sixteen ASCII bytes without NUL at a time: a NUL or a byte of
         * 0x80 and above is "not greater than 0" as a signed byte */
        for (; n - i >= 16; i += 16) {
            __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            if (_mm_movemask_epi8(_mm_cmpgt_epi8(x, _mm_setzero_si128())) != 0xFFFF)
                break;
        }
#endif
        /* eight ASCII bytes without NUL at a time */
        for (uint64_t w; n - i >= 8; i += 8) {
            memcpy(&w, p + i, 8);
            if (((w - ones) | w) & high)
                break;
        }
        if (i == n)
            break;
        if (p[i] && p[i] < 0x80) {
            i++;
            continue;
        }
        if (p[i] >= 0xC2 && p[i] < 0xE0 && n - i >= 2 && (p[i + 1] & 0xC0) == 0x80) {
            i += 2;
            continue;
        }
        size_t k = an_json_utf8_seq(p + i, n - i);
        if (!k)
            break;
        i += k;
    }
    return i;
}

char *an_utf8_lossy(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    struct an_buf b = AN_BUF_INIT;
    size_t i = 0;
    while (i < n) {
        size_t k = utf8_clean_prefix(p + i, n - i);
        an_buf_append(&b, p + i, k);
        i += k;
        if (i < n) {
            an_buf_append(&b, "\xEF\xBF\xBD", 3);
            i++;
        }
    }
    return an_buf_detach(&b, NULL);
}

json_t *an_json_lossy(const char *s, size_t n)
{
    json_t *j;
    if (utf8_clean_prefix((const unsigned char *)s, n) == n) {
        j = json_stringn_nocheck(s, n); /* nothing to replace: no copy */
    } else {
        char *clean = an_utf8_lossy(s, n);
        j = json_string_nocheck(clean);
        free(clean);
    }
    if (!j)
        an_oom();
    return j;
}
