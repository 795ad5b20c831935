/*
 * core/sha256.c: the FIPS 180-4 vectors, and the block function (working
 * variables renamed per round) against the plain reading of the standard
 * (the array shifted per round, as it was written first) on every length
 * from 0 to 300 bytes and across block boundaries; the same for the path
 * with the CPU's SHA instructions (x86-64 SHA-NI) when this CPU has them,
 * and that path against the C one on every length up to 4 KiB.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/sha256.h"

static void hex_of(const char *msg, size_t len, char out[AN_SHA256_HEX_LEN + 1])
{
    an_sha256_hex(msg, len, out);
}

static void fips_vectors(void **state)
{
    (void)state;
    char hex[AN_SHA256_HEX_LEN + 1];
    hex_of("", 0, hex);
    assert_string_equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    hex_of("abc", 3, hex);
    assert_string_equal(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const char *two = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    hex_of(two, strlen(two), hex);
    assert_string_equal(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    size_t n = 1000000;
    char *a = malloc(n);
    assert_non_null(a);
    memset(a, 'a', n);
    hex_of(a, n, hex);
    free(a);
    assert_string_equal(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* ---- the reference: FIPS 180-4 read literally ---- */

static uint32_t ref_ror(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32 - n));
}

static const uint32_t ref_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

static void ref_block(uint32_t h[8], const unsigned char *p)
{
    uint32_t w[64], a[8];
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 |
               (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ref_ror(w[i - 15], 7) ^ ref_ror(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ref_ror(w[i - 2], 17) ^ ref_ror(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    memcpy(a, h, sizeof a);
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = a[7] + (ref_ror(a[4], 6) ^ ref_ror(a[4], 11) ^ ref_ror(a[4], 25)) +
                      ((a[4] & a[5]) ^ (~a[4] & a[6])) + ref_k[i] + w[i];
        uint32_t t2 = (ref_ror(a[0], 2) ^ ref_ror(a[0], 13) ^ ref_ror(a[0], 22)) +
                      ((a[0] & a[1]) ^ (a[0] & a[2]) ^ (a[1] & a[2]));
        memmove(a + 1, a, 7 * sizeof *a);
        a[4] += t1;
        a[0] = t1 + t2;
    }
    for (int i = 0; i < 8; i++)
        h[i] += a[i];
}

static void ref_sha256(const unsigned char *msg, size_t len, unsigned char out[AN_SHA256_LEN])
{
    uint32_t h[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    unsigned char tail[128] = {0};
    size_t full = len / 64 * 64, rest = len - full;
    for (size_t i = 0; i < full; i += 64)
        ref_block(h, msg + i);
    memcpy(tail, msg + full, rest);
    tail[rest] = 0x80;
    size_t tlen = rest < 56 ? 64 : 128;
    uint64_t bits = (uint64_t)len * 8;
    for (int i = 0; i < 8; i++)
        tail[tlen - 1 - i] = (unsigned char)(bits >> (8 * i));
    for (size_t i = 0; i < tlen; i += 64)
        ref_block(h, tail + i);
    for (int i = 0; i < 8; i++) {
        out[4 * i] = (unsigned char)(h[i] >> 24);
        out[4 * i + 1] = (unsigned char)(h[i] >> 16);
        out[4 * i + 2] = (unsigned char)(h[i] >> 8);
        out[4 * i + 3] = (unsigned char)h[i];
    }
}

static void fill(unsigned char *msg, size_t n)
{
    uint32_t x = 2463534242u; /* xorshift: varied bytes, reproducible */
    for (size_t i = 0; i < n; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        msg[i] = (unsigned char)x;
    }
}

/* Every length up to 4 KiB (1 to 65 blocks, every tail) gives one digest
 * on both paths; the C path is the one the reference test pins. */
static void fast_path_same_as_portable(void **state)
{
    (void)state;
    if (!an_sha256_accelerated())
        print_message("note: this CPU has no SHA instructions; both calls take the C path\n");
    static unsigned char msg[4096];
    fill(msg, sizeof msg);
    for (size_t len = 0; len <= sizeof msg; len++) {
        unsigned char fast[AN_SHA256_LEN], portable[AN_SHA256_LEN];
        an_sha256(msg, len, fast);
        an_sha256_portable(msg, len, portable);
        if (memcmp(fast, portable, sizeof fast))
            fail_msg("the SHA-instruction path differs from the C path at length %zu", len);
    }
}

static void same_as_reference(void **state)
{
    (void)state;
    unsigned char msg[300];
    fill(msg, sizeof msg);
    for (size_t len = 0; len <= sizeof msg; len++) {
        unsigned char got[AN_SHA256_LEN], portable[AN_SHA256_LEN], want[AN_SHA256_LEN];
        an_sha256(msg, len, got);
        an_sha256_portable(msg, len, portable);
        ref_sha256(msg, len, want);
        if (memcmp(got, want, sizeof got) || memcmp(portable, want, sizeof want))
            fail_msg("sha256 differs from the reference at length %zu", len);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fips_vectors),
        cmocka_unit_test(same_as_reference),
        cmocka_unit_test(fast_path_same_as_portable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
