/* SHA-256 (FIPS 180-4): a whole buffer at once, no streaming. The block
 * function in C, and on x86-64 CPUs with the SHA extensions the same with
 * their instructions (chosen at run time; the tests compare the two). */
#include "core/sha256.h"

#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#include <immintrin.h>
#define SHA_X86 1
#endif

static uint32_t ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static const uint32_t k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static void sha256_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ror(w[i - 15], 7) ^ ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ror(w[i - 2], 17) ^ ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    /* the eight working variables in registers, renamed each round (the
     * history hashes every test file: a memmove of the array per round
     * made this the run's largest cost after the network) */
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 =
            hh + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        hh = g;
        g = f;
        f = e;
        e = d + t1;
        d = c;
        c = b;
        b = a;
        a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
}

/* Blocks of 64 bytes, in C. */
static void blocks_c(uint32_t h[8], const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        sha256_block(h, p + 64 * i);
}

#ifdef SHA_X86
/* The message words of rounds 4j..4j+3 from the four groups before them:
 * W[t] = s1(W[t-2]) + W[t-7] + s0(W[t-15]) + W[t-16]. */
__attribute__((target("sha,ssse3,sse4.1"))) static __m128i next_words(__m128i m4, __m128i m3,
                                                                      __m128i m2, __m128i m1)
{
    __m128i t = _mm_add_epi32(_mm_sha256msg1_epu32(m4, m3), _mm_alignr_epi8(m1, m2, 4));
    return _mm_sha256msg2_epu32(t, m1);
}

/* Blocks of 64 bytes with the SHA extensions: the state kept as ABEF and
 * CDGH, two rounds per sha256rnds2, four words of schedule per group. */
__attribute__((target("sha,ssse3,sse4.1"))) static void blocks_x86(uint32_t h[8],
                                                                   const unsigned char *p, size_t n)
{
    const __m128i bswap = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
    __m128i cdab = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[0]), 0xB1);
    __m128i efgh = _mm_shuffle_epi32(_mm_loadu_si128((const __m128i *)&h[4]), 0x1B);
    __m128i abef = _mm_alignr_epi8(cdab, efgh, 8);
    __m128i cdgh = _mm_blend_epi16(efgh, cdab, 0xF0);
    for (size_t b = 0; b < n; b++, p += 64) {
        __m128i save0 = abef, save1 = cdgh, m[4];
        for (int j = 0; j < 16; j++) {
            if (j < 4)
                m[j] = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(p + 16 * j)), bswap);
            else
                m[j & 3] = next_words(m[j & 3], m[(j + 1) & 3], m[(j + 2) & 3], m[(j + 3) & 3]);
            __m128i wk = _mm_add_epi32(m[j & 3], _mm_loadu_si128((const __m128i *)&k[4 * j]));
            cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
            abef = _mm_sha256rnds2_epu32(abef, cdgh, _mm_shuffle_epi32(wk, 0x0E));
        }
        abef = _mm_add_epi32(abef, save0);
        cdgh = _mm_add_epi32(cdgh, save1);
    }
    __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
    __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
    _mm_storeu_si128((__m128i *)&h[0], _mm_blend_epi16(feba, dchg, 0xF0));
    _mm_storeu_si128((__m128i *)&h[4], _mm_alignr_epi8(dchg, feba, 8));
}

/* Whether the CPU has the SHA extensions (and the SSSE3 and SSE4.1 the
 * code above uses): asked once, the answer cached (0 unknown, 1 no, 2 yes). */
static bool have_x86_sha(void)
{
    static int known;
    int v = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (!v) {
        unsigned a, b, c, d;
        bool ok = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_SSSE3) && (c & bit_SSE4_1) &&
                  __get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & bit_SHA);
        v = ok ? 2 : 1;
        __atomic_store_n(&known, v, __ATOMIC_RELAXED);
    }
    return v == 2;
}
#endif

bool an_sha256_accelerated(void)
{
#ifdef SHA_X86
    return have_x86_sha();
#else
    return false;
#endif
}

static void blocks(uint32_t h[8], const unsigned char *p, size_t n, bool fast)
{
#ifdef SHA_X86
    if (fast && have_x86_sha()) {
        blocks_x86(h, p, n);
        return;
    }
#endif
    (void)fast;
    blocks_c(h, p, n);
}

static void digest(const void *data, size_t len, unsigned char out[AN_SHA256_LEN], bool fast)
{
    const unsigned char *msg = data;
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char tail[128] = {0};
    size_t full = len / 64 * 64, rest = len - full;
    blocks(h, msg, full / 64, fast);
    memcpy(tail, msg + full, rest);
    tail[rest] = 0x80;
    size_t tlen = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    blocks(h, tail, tlen / 64, fast);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(h[i] >> 8);
        out[4 * i + 3] = (unsigned char)h[i];
    }
}

void an_sha256(const void *data, size_t len, unsigned char out[AN_SHA256_LEN])
{
    digest(data, len, out, true);
}

void an_sha256_portable(const void *data, size_t len, unsigned char out[AN_SHA256_LEN])
{
    digest(data, len, out, false);
}

void an_sha256_hex(const void *msg, size_t len, char out[AN_SHA256_HEX_LEN + 1])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char d[AN_SHA256_LEN];
    an_sha256(msg, len, d);
    for (size_t i = 0; i < AN_SHA256_LEN; i++) {
        out[2 * i] = hex[d[i] >> 4];
        out[2 * i + 1] = hex[d[i] & 15];
    }
    out[AN_SHA256_HEX_LEN] = '\0';
}
