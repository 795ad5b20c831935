#include "proto/uuid.h"

#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/port.h"

/* Ids need to be unique, not secret: a per-thread xoshiro256** generator
 * seeded once from the kernel (core/port.h) gives them without a system call each (a
 * run of 10000 tests makes 30000 of them). */
static _Thread_local uint64_t st[4];
static _Thread_local bool seeded;

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

static uint64_t next64(void)
{
    uint64_t r = rotl(st[1] * 5, 7) * 9, t = st[1] << 17;
    st[2] ^= st[0];
    st[3] ^= st[1];
    st[1] ^= st[2];
    st[0] ^= st[3];
    st[2] ^= t;
    st[3] = rotl(st[3], 45);
    return r;
}

static void seed(void)
{
    static atomic_uint_fast64_t counter;
    unsigned char b[32];
    size_t got = an_port_random(b, sizeof b);
    if (got < sizeof b) { /* no random source: time, pid and a counter, spread */
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        uint64_t x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
        uint64_t y = ((uint64_t)getpid() << 32) ^ atomic_fetch_add(&counter, 1);
        for (size_t i = 0; i < sizeof b; i++) {
            uint64_t z = (i < 16 ? x : y) + 0x9E3779B97F4A7C15u * (i + 1);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
            b[i] = (unsigned char)(z ^ (z >> 31));
        }
    }
    memcpy(st, b, sizeof st);
    if (!(st[0] | st[1] | st[2] | st[3]))
        st[0] = 1;
    seeded = true;
}

static void fill_random(unsigned char *b, size_t n)
{
    if (!seeded)
        seed();
    for (size_t i = 0; i < n; i += 8) {
        uint64_t v = next64();
        memcpy(b + i, &v, n - i < 8 ? n - i : 8);
    }
}

void an_uuid4(char out[AN_UUID_STR])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char b[16];
    fill_random(b, sizeof b);
    b[6] = (unsigned char)((b[6] & 0x0F) | 0x40); /* version 4 */
    b[8] = (unsigned char)((b[8] & 0x3F) | 0x80); /* RFC 4122 variant */
    size_t o = 0;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            out[o++] = '-';
        out[o++] = hex[b[i] >> 4];
        out[o++] = hex[b[i] & 0x0F];
    }
    out[o] = '\0';
}
