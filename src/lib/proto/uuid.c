#include "proto/uuid.h"

#include <fcntl.h>
#include <stdbool.h>
#include <stdatomic.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static bool read_random(unsigned char *b, size_t n)
{
    int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
    size_t got = 0;
    if (fd < 0)
        return false;
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    close(fd);
    return got == n;
}

static void fallback_random(unsigned char *b, size_t n)
{
    static atomic_uint_fast64_t counter;
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    uint64_t x = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    uint64_t y = ((uint64_t)getpid() << 32) ^ atomic_fetch_add(&counter, 1);
    for (size_t i = 0; i < n; i++) {
        /* splitmix64 steps: spread the few varying bits over all bytes */
        uint64_t z = (i < 8 ? x : y) + 0x9E3779B97F4A7C15u * (i + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        b[i] = (unsigned char)(z ^ (z >> 31));
    }
}

void an_uuid4(char out[AN_UUID_STR])
{
    static const char hex[] = "0123456789abcdef";
    unsigned char b[16];
    if (!read_random(b, sizeof b))
        fallback_random(b, sizeof b);
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
