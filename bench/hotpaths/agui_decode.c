/*
 * ananke's SSE + AG-UI decoding alone, over a recorded stream, for
 * bench/hotpaths.sh:
 *
 *     bench-agui-decode [FILE]     (no FILE, or "-": standard input)
 *
 * Reads in 64 KiB reads, as the HTTP client hands a body over, and pushes
 * the bytes through the SSE framer (proto/sse.h) into the AG-UI decoder
 * (proto/agui_decode.h) exactly as a run does: conformance checks, the
 * transcript (text, tool calls, parsed arguments), the conversation for the
 * next run, the clock read once per piece handed over (the events' arrival
 * time); raw frames are not kept (as without -vv). Every run in the
 * stream (RUN_STARTED ... RUN_FINISHED) is one turn with its own decoder, as
 * every HTTP response is. Prints one line of JSON: bytes, events, runs,
 * seconds, and the failures and warnings met (0 for a clean stream).
 *
 * A FILE is read into memory first and decoded three times, the best pass
 * counted: what agui_decode.mjs does for @ag-ui/client, so both figures are
 * the decoder's alone. Standard input is decoded once as it is read (the
 * pipe figure, where reading is part of what is timed).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ananke/transcript.h"
#include "core/clock.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"
#include "proto/sse.h"

struct bench {
    struct an_agui_conv conv;
    struct an_transcript t;
    struct an_agui_dec *dec;
    int64_t arrived_ms; /* as proto/agui.c's on_body reads it */
    unsigned long long events, runs, errors, warnings;
};

static void turn_begin(struct bench *b)
{
    an_transcript_init(&b->t);
    struct an_turn_rec *r = an_transcript_add_turn(&b->t, "user");
    r->drop_frames = true;
    an_agui_conv_init(&b->conv, "thread-1", NULL, NULL);
    an_agui_dec_new(&b->dec, &b->conv, &b->t, 0);
}

static void turn_end(struct bench *b)
{
    an_agui_dec_finish(b->dec, NULL);
    struct an_turn_rec *r = &b->t.turns[0];
    b->errors += r->status != AN_TURN_OK;
    b->warnings += r->nwarnings;
    an_agui_dec_free(b->dec);
    b->dec = NULL;
    an_transcript_release(&b->t);
    an_agui_conv_release(&b->conv);
    b->runs++;
}

static int on_event(void *ud, const struct an_sse_event *ev)
{
    struct bench *b = ud;
    if (!b->dec)
        turn_begin(b);
    b->events++;
    an_agui_dec_event(b->dec, ev->data, ev->len, b->arrived_ms);
    if (b->dec->run == RUN_DONE || b->dec->run == RUN_ERRORED || b->dec->failed)
        turn_end(b);
    return 0;
}

/* the deltas framed and applied in one pass, as proto/agui.c's parser does */
static size_t take(void *ud, const char *bytes, size_t n)
{
    struct bench *b = ud;
    if (!b->dec) /* a turn starts with an event take leaves to on_event */
        return 0;
    size_t len = an_agui_fast_take(b->dec, bytes, n, b->arrived_ms);
    b->events += len != 0;
    return len;
}

/* One pass over the bytes in 64 KiB pieces; *stats gets the counts. */
static double pass(const char *data, size_t len, struct bench *stats)
{
    struct bench b = {0};
    struct an_sse_parser p;
    an_sse_init(&p, 0, on_event, &b);
    p.lend = true; /* as proto/agui.c's parser */
    p.take = take;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t off = 0; off < len; off += 64 * 1024) {
        b.arrived_ms = an_clock_unix_ms();
        an_sse_feed(&p, data + off, len - off < 64 * 1024 ? len - off : 64 * 1024);
    }
    an_sse_finish(&p);
    if (b.dec)
        turn_end(&b);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    an_sse_release(&p);
    *stats = b;
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

/* Standard input, decoded as it is read. */
static double stream(int fd, unsigned long long *bytes, struct bench *b)
{
    static char buf[64 * 1024];
    struct an_sse_parser p;
    an_sse_init(&p, 0, on_event, b);
    p.lend = true;
    p.take = take;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (;;) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0) {
            perror("read");
            exit(2);
        }
        if (n == 0)
            break;
        *bytes += (size_t)n;
        b->arrived_ms = an_clock_unix_ms();
        an_sse_feed(&p, buf, (size_t)n);
    }
    an_sse_finish(&p);
    if (b->dec)
        turn_end(b);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    an_sse_release(&p);
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
}

static char *slurp(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) {
        perror(path);
        exit(2);
    }
    size_t cap = 1 << 20, n = 0;
    char *data = malloc(cap);
    for (;;) {
        if (n == cap)
            data = realloc(data, cap *= 2);
        if (!data) {
            fputs("out of memory\n", stderr);
            exit(2);
        }
        ssize_t r = read(fd, data + n, cap - n);
        if (r < 0) {
            perror("read");
            exit(2);
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    close(fd);
    *len = n;
    return data;
}

int main(int argc, char **argv)
{
    struct bench b = {0};
    unsigned long long bytes = 0;
    double s;
    if (argc > 1 && strcmp(argv[1], "-")) {
        size_t len;
        char *data = slurp(argv[1], &len);
        bytes = len;
        s = pass(data, len, &b);
        for (int k = 1; k < 3; k++) {
            struct bench again;
            double t = pass(data, len, &again);
            if (t < s)
                s = t;
        }
        free(data);
    } else {
        s = stream(0, &bytes, &b);
    }
    printf("{\"bytes\":%llu,\"events\":%llu,\"runs\":%llu,\"seconds\":%.6f,\"errors\":%llu,"
           "\"warnings\":%llu}\n",
           bytes, b.events, b.runs, s, b.errors, b.warnings);
    return b.errors ? 1 : 0;
}
