/*
 * The least any decoder of bench/hotpaths.sh's stream has to do, for
 * comparison with ananke's (bench-agui-decode) and with `cat`:
 *
 *     bench-decode-floor [FILE]     (no FILE, or "-": standard input)
 *
 * It frames the SSE events ("data: ...\n\n") and, for each text or argument
 * delta written in the layout of the stream ({"type":"TEXT_MESSAGE_CONTENT",
 * "messageId":"<id>","delta":"<text>"} or TOOL_CALL_ARGS with toolCallId),
 * finds the end of its text 16 bytes a step, unescapes it (every JSON
 * escape, \u pairs included), checks its UTF-8 and appends it to the
 * message's text. Nothing else: no JSON object is read (any other event
 * is skipped once its end is found), no conformance check, no transcript,
 * no tool call, no conversation. What ananke's decoder does on top of this
 * is the difference between the two programs' times.
 *
 * A FILE is read into memory and decoded three times, the best pass
 * counted; standard input is decoded once as it is read, 64 KiB a read,
 * as bench-agui-decode does. Prints one line of JSON: bytes, events,
 * deltas, seconds, and "bad" (events it could not take: 0 for the stream
 * of gen_agui_stream.py).
 */
#include <emmintrin.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/hex.h"

#define READ_SIZE (64 * 1024)
#define PAD 16 /* readable bytes after the data: a 16-byte load never leaves the buffer */

struct floor {
    char text[1 << 16]; /* the current message's text (kept to its last 64 KiB) */
    size_t len;
    unsigned long long events, deltas, bad, sum;
};

static void put(struct floor *f, const char *p, size_t n)
{
    if (f->len + n > sizeof f->text)
        f->len = 0;
    memcpy(f->text + f->len, p, n);
    f->len += n;
}

/* RFC 3629: no overlong form, no surrogate, nothing above U+10FFFF. */
static bool utf8_ok(const unsigned char *s, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t k;
        unsigned lo = 0x80, hi = 0xBF;
        if (c >= 0xC2 && c <= 0xDF)
            k = 2;
        else if (c >= 0xE0 && c <= 0xEF)
            k = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
        else if (c >= 0xF0 && c <= 0xF4)
            k = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
        else
            return false;
        if (n - i < k || s[i + 1] < lo || s[i + 1] > hi)
            return false;
        for (size_t j = 2; j < k; j++)
            if ((s[i + j] & 0xC0) != 0x80)
                return false;
        i += k;
    }
    return true;
}

static size_t utf8_put(long cp, char u[4])
{
    if (cp < 0x80)
        return u[0] = (char)cp, 1;
    if (cp < 0x800)
        return u[0] = (char)(0xC0 | (cp >> 6)), u[1] = (char)(0x80 | (cp & 0x3F)), 2;
    if (cp < 0x10000)
        return u[0] = (char)(0xE0 | (cp >> 12)), u[1] = (char)(0x80 | ((cp >> 6) & 0x3F)),
               u[2] = (char)(0x80 | (cp & 0x3F)), 3;
    return u[0] = (char)(0xF0 | (cp >> 18)), u[1] = (char)(0x80 | ((cp >> 12) & 0x3F)),
           u[2] = (char)(0x80 | ((cp >> 6) & 0x3F)), u[3] = (char)(0x80 | (cp & 0x3F)), 4;
}

/* The delta's text from s (just past its opening quote), appended to the
 * message; the byte after its closing quote, or NULL when it is not a
 * plain JSON string ending before `end`. */
static const unsigned char *delta(struct floor *f, const unsigned char *s,
                                  const unsigned char *end)
{
    const __m128i q = _mm_set1_epi8('"'), bs = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1F);
    const unsigned char *run = s, *start = s;
    unsigned high = 0;
    while (s < end) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)s);
        __m128i stop = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, q), _mm_cmpeq_epi8(x, bs)),
                                    _mm_cmpeq_epi8(_mm_min_epu8(x, c1f), x));
        unsigned m = (unsigned)_mm_movemask_epi8(stop), h = (unsigned)_mm_movemask_epi8(x);
        if (!m) {
            high |= h;
            s += 16;
            continue;
        }
        unsigned at = (unsigned)__builtin_ctz(m);
        high |= h & ((1u << at) - 1);
        s += at;
        if (s >= end || *s < 0x20)
            return NULL;
        if (*s == '"') {
            if (high && !utf8_ok(start, (size_t)(s - start)))
                return NULL;
            put(f, (const char *)run, (size_t)(s - run));
            return s + 1;
        }
        put(f, (const char *)run, (size_t)(s - run));
        if (end - s < 2)
            return NULL;
        char one;
        switch (s[1]) {
        case '"': one = '"'; break;
        case '\\': one = '\\'; break;
        case '/': one = '/'; break;
        case 'b': one = '\b'; break;
        case 'f': one = '\f'; break;
        case 'n': one = '\n'; break;
        case 'r': one = '\r'; break;
        case 't': one = '\t'; break;
        case 'u': {
            if (end - s < 6)
                return NULL;
            long cp = an_hex4(s + 2);
            s += 6;
            if (cp < 0 || (cp >= 0xDC00 && cp <= 0xDFFF))
                return NULL;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                long lo = end - s >= 6 && s[0] == '\\' && s[1] == 'u' ? an_hex4(s + 2) : -1;
                if (lo < 0xDC00 || lo > 0xDFFF)
                    return NULL;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                s += 6;
            }
            char u[4];
            put(f, u, utf8_put(cp, u));
            run = s;
            continue;
        }
        default:
            return NULL;
        }
        put(f, &one, 1);
        s += 2;
        run = s;
    }
    return NULL;
}

/* The events wholly in [s, end): where the first one not ended starts. */
static const unsigned char *decode(struct floor *f, const unsigned char *s, const unsigned char *end)
{
    static const char tpre[] = "data: {\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"";
    static const char apre[] = "data: {\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"";
    static const char dpre[] = "\",\"delta\":\"";
    for (;;) {
        const unsigned char *p = s, *q;
        size_t left = (size_t)(end - s);
        bool is_delta = false; /* written as a delta, so it must be taken as one */
        if (left > sizeof tpre && !memcmp(p, tpre, sizeof tpre - 1))
            p += sizeof tpre - 1;
        else if (left > sizeof apre && !memcmp(p, apre, sizeof apre - 1))
            p += sizeof apre - 1;
        else
            goto other;
        is_delta = true;
        q = memchr(p, '"', (size_t)(end - p));
        if (!q || (size_t)(end - q) < sizeof dpre || memcmp(q, dpre, sizeof dpre - 1))
            goto other;
        size_t mark = f->len; /* what a delta cut by the read appended is taken back */
        p = delta(f, q + sizeof dpre - 1, end);
        if (!p || end - p < 3 || memcmp(p, "}\n\n", 3)) {
            f->len = mark;
            goto other;
        }
        s = p + 3;
        f->events++;
        f->deltas++;
        continue;
    other:
        /* any other event: skipped once its blank line is found */
        for (q = s;; q++) {
            q = memchr(q, '\n', (size_t)(end - q));
            if (!q || end - q < 2)
                return s;
            if (q[1] == '\n')
                break;
        }
        if (!memcmp(s, "data: {\"type\":\"RUN_FINISHED\"", 28))
            f->sum += f->len, f->len = 0;
        else if (is_delta)
            f->bad++;
        s = q + 2;
        f->events++;
    }
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fputs("out of memory\n", stderr);
        exit(2);
    }
    return p;
}

int main(int argc, char **argv)
{
    static struct floor f;
    unsigned long long bytes = 0;
    double best;
    if (argc > 1 && strcmp(argv[1], "-")) {
        int fd = open(argv[1], O_RDONLY);
        if (fd < 0) {
            perror(argv[1]);
            return 2;
        }
        size_t cap = 1 << 20, n = 0;
        unsigned char *data = xmalloc(cap + PAD);
        for (ssize_t r; (r = read(fd, data + n, cap - n)) != 0;) {
            if (r < 0) {
                perror("read");
                return 2;
            }
            if ((n += (size_t)r) == cap) {
                unsigned char *more = realloc(data, (cap *= 2) + PAD);
                if (!more)
                    return fputs("out of memory\n", stderr), 2;
                data = more;
            }
        }
        close(fd);
        memset(data + n, 0, PAD);
        bytes = n;
        best = 1e9;
        for (int k = 0; k < 3; k++) {
            memset(&f, 0, sizeof f);
            double t0 = now();
            decode(&f, data, data + n);
            double t = now() - t0;
            if (t < best)
                best = t;
        }
        free(data);
    } else {
        /* a read's events are decoded as they come; an event cut by the
         * read waits at the front of the buffer for the rest */
        size_t cap = 4 * READ_SIZE, have = 0;
        unsigned char *buf = xmalloc(cap + PAD);
        double t0 = now();
        for (;;) {
            if (cap - have < READ_SIZE) {
                unsigned char *more = realloc(buf, (cap *= 2) + PAD);
                if (!more)
                    return fputs("out of memory\n", stderr), 2;
                buf = more;
            }
            ssize_t r = read(0, buf + have, READ_SIZE);
            if (r < 0) {
                perror("read");
                return 2;
            }
            if (r == 0)
                break;
            bytes += (size_t)r;
            have += (size_t)r;
            memset(buf + have, 0, PAD);
            const unsigned char *rest = decode(&f, buf, buf + have);
            have -= (size_t)(rest - buf);
            memmove(buf, rest, have);
        }
        if (have)
            f.bad++;
        best = now() - t0;
        free(buf);
    }
    printf("{\"bytes\":%llu,\"events\":%llu,\"deltas\":%llu,\"seconds\":%.6f,\"bad\":%llu,"
           "\"text\":%llu}\n",
           bytes, f.events, f.deltas, best, f.bad, f.sum);
    return f.bad ? 1 : 0;
}
