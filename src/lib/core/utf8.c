/* UTF-8 validation of a span (core/utf8.h). */
#include "core/utf8.h"

#include <stdint.h>
#include <string.h>

#include "core/json_int.h"

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define UTF8_SSSE3 1
#include <tmmintrin.h>
#endif

bool an_utf8_valid_scalar(const unsigned char *s, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t k = an_json_utf8_seq(s + i, n - i);
        if (!k)
            return false;
        i += k;
    }
    return true;
}

#ifdef UTF8_SSSE3
/* What a pair of bytes (the one before, the one now) can be wrong in, one
 * bit each. Three tables, looked up by the high and low nibble of the byte
 * before and the high nibble of the byte now, each give the faults its
 * nibble allows; a fault is real where all three allow it. */
enum {
    TOO_SHORT = 1 << 0,      /* a lead byte, then no continuation byte */
    TOO_LONG = 1 << 1,       /* ASCII, then a continuation byte */
    OVERLONG_3 = 1 << 2,     /* E0 80..9F */
    TOO_LARGE = 1 << 3,      /* F4 90..BF, or F5..FF 90..BF */
    SURROGATE = 1 << 4,      /* ED A0..BF */
    OVERLONG_2 = 1 << 5,     /* C0 or C1, then a continuation byte */
    TOO_LARGE_1000 = 1 << 6, /* F5..FF 80..8F */
    OVERLONG_4 = 1 << 6,     /* F0 80..8F (shares the bit: the tables keep them apart) */
    TWO_CONTS = 1 << 7,      /* two continuation bytes: a fault unless a 3- or
                              * 4-byte sequence needs them (see below) */
    CARRY = TOO_SHORT | TOO_LONG | TWO_CONTS, /* faults no low nibble rules out */
};

#define B(x) ((char)(x))

/* The faults of one 16-byte block `in`, `prev` the block before it. */
__attribute__((target("ssse3"))) static inline __m128i block_faults(__m128i in, __m128i prev)
{
    const __m128i hi_before = _mm_setr_epi8(
        TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, TOO_LONG, /* 0..7 */
        B(TWO_CONTS), B(TWO_CONTS), B(TWO_CONTS), B(TWO_CONTS),                         /* 8..B */
        TOO_SHORT | OVERLONG_2,                                                         /* C */
        TOO_SHORT,                                                                      /* D */
        TOO_SHORT | OVERLONG_3 | SURROGATE,                                             /* E */
        B(TOO_SHORT | TOO_LARGE | TOO_LARGE_1000 | OVERLONG_4));                        /* F */
    const char lg = B(CARRY | TOO_LARGE | TOO_LARGE_1000);
    const __m128i lo_before =
        _mm_setr_epi8(B(CARRY | OVERLONG_3 | OVERLONG_2 | OVERLONG_4),   /* 0 */
                      B(CARRY | OVERLONG_2),                             /* 1 */
                      B(CARRY), B(CARRY),                                /* 2, 3 */
                      B(CARRY | TOO_LARGE),                              /* 4 */
                      lg, lg, lg, lg, lg, lg, lg, lg,                    /* 5..C */
                      B(CARRY | TOO_LARGE | TOO_LARGE_1000 | SURROGATE), /* D */
                      lg, lg);                                           /* E, F */
    const char c8 = B(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE_1000 | OVERLONG_4);
    const char c9 = B(TOO_LONG | OVERLONG_2 | TWO_CONTS | OVERLONG_3 | TOO_LARGE);
    const char cab = B(TOO_LONG | OVERLONG_2 | TWO_CONTS | SURROGATE | TOO_LARGE);
    const __m128i hi_now = _mm_setr_epi8(TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT,
                                         TOO_SHORT, TOO_SHORT, TOO_SHORT,             /* 0..7 */
                                         c8, c9, cab, cab,                            /* 8..B */
                                         TOO_SHORT, TOO_SHORT, TOO_SHORT, TOO_SHORT); /* C..F */
    const __m128i nib = _mm_set1_epi8(0x0F);

    __m128i prev1 = _mm_alignr_epi8(in, prev, 15);
    __m128i f = _mm_and_si128(
        _mm_and_si128(_mm_shuffle_epi8(hi_before, _mm_and_si128(_mm_srli_epi16(prev1, 4), nib)),
                      _mm_shuffle_epi8(lo_before, _mm_and_si128(prev1, nib))),
        _mm_shuffle_epi8(hi_now, _mm_and_si128(_mm_srli_epi16(in, 4), nib)));
    /* the third byte of a 3- or 4-byte sequence and the fourth of a 4-byte
     * one must be continuations: there TWO_CONTS is required, not a fault */
    __m128i prev2 = _mm_alignr_epi8(in, prev, 14), prev3 = _mm_alignr_epi8(in, prev, 13);
    __m128i third = _mm_subs_epu8(prev2, _mm_set1_epi8(B(0xE0 - 1)));
    __m128i fourth = _mm_subs_epu8(prev3, _mm_set1_epi8(B(0xF0 - 1)));
    __m128i must = _mm_and_si128(_mm_cmpgt_epi8(_mm_or_si128(third, fourth), _mm_setzero_si128()),
                                 _mm_set1_epi8(B(0x80)));
    return _mm_xor_si128(f, must);
}

/* s[0..n) with s[0..avail) readable (avail >= n) */
__attribute__((target("ssse3"))) static bool valid_ssse3(const unsigned char *s, size_t n,
                                                         size_t avail)
{
    /* 16 bytes of 0xFF, then 16 zeros: the 16 from (keep + 16 - k) keep the
     * first k bytes of a block and clear the rest */
    static const unsigned char keep[32] = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF,
                                           0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    __m128i prev = _mm_setzero_si128(), faults = _mm_setzero_si128();
    size_t i = 0;
    for (; n - i >= 16; i += 16) {
        __m128i in = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        faults = _mm_or_si128(faults, block_faults(in, prev));
        prev = in;
    }
    /* the rest, then zeros: a sequence cut short at the end meets a zero
     * byte (ASCII) in this block, or in the zero block after a full one */
    __m128i in;
    if (avail - i >= 16) {
        in = _mm_loadu_si128((const __m128i *)(const void *)(s + i));
        in = _mm_and_si128(in,
                           _mm_loadu_si128((const __m128i *)(const void *)(keep + 16 - (n - i))));
    } else {
        unsigned char tail[16] = {0};
        memcpy(tail, s + i, n - i);
        in = _mm_loadu_si128((const __m128i *)(const void *)tail);
    }
    faults = _mm_or_si128(faults, block_faults(in, prev));
    return _mm_movemask_epi8(_mm_cmpeq_epi8(faults, _mm_setzero_si128())) == 0xFFFF;
}

bool an_utf8_vector(void)
{
    return __builtin_cpu_supports("ssse3");
}

bool an_utf8_valid_in(const unsigned char *s, size_t n, size_t avail)
{
    return an_utf8_vector() ? valid_ssse3(s, n, avail) : an_utf8_valid_scalar(s, n);
}
#else
bool an_utf8_vector(void)
{
    return false;
}

bool an_utf8_valid_in(const unsigned char *s, size_t n, size_t avail)
{
    (void)avail;
    return an_utf8_valid_scalar(s, n);
}
#endif

bool an_utf8_valid(const unsigned char *s, size_t n)
{
    return an_utf8_valid_in(s, n, n);
}
