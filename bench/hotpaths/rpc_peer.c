/*
 * A trivial ACP agent for bench/hotpaths.sh: answers every JSON-RPC request
 * on standard input at once with the same initialize result, echoing its
 * id; ignores notifications. One write per answer, nothing else: the peer
 * both clients of the round-trip benchmark talk to.
 *
 *     bench-rpc-peer            the peer
 *     bench-rpc-peer ping N     a bare client: N requests over a pipe to a
 *                               child peer, a blocking write and read each
 *                               (the pipes' own round trip, for reference)
 */
#define _GNU_SOURCE /* memmem */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define RESULT "\"result\":{\"protocolVersion\":1,\"agentCapabilities\":{},\"authMethods\":[]}}\n"

/* The request's id, found by its key rather than by parsing the frame:
 * this peer must cost as little as possible, so that the figures measure
 * the clients. Both clients send "id" before any nested object. */
static int answer(const char *line, size_t n)
{
    const char *k = memmem(line, n, "\"id\":", 5), *end = line + n;
    if (!k || !memmem(line, n, "\"method\":", 9))
        return 0; /* a notification or a response: nothing to say */
    const char *v = k + 5, *e = v;
    if (e < end && *e == '"') {
        e++;
        while (e < end && *e != '"')
            e += *e == '\\' ? 2 : 1;
        e++;
    } else {
        while (e < end && *e != ',' && *e != '}')
            e++;
    }
    if (e > end)
        return -1;
    char out[512];
    int m = snprintf(out, sizeof out, "{\"jsonrpc\":\"2.0\",\"id\":%.*s," RESULT, (int)(e - v), v);
    if (m <= 0 || (size_t)m >= sizeof out || write(1, out, (size_t)m) != m)
        return -1;
    return 0;
}

/* The bare client: what a round trip costs with nothing but the pipes. */
static int ping(const char *self, long n)
{
    int to[2], from[2];
    if (pipe(to) || pipe(from))
        return 2;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execl(self, self, (char *)NULL);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    char req[512], buf[4096];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (long i = 0; i < n; i++) {
        int m = snprintf(req, sizeof req,
                         "{\"jsonrpc\":\"2.0\",\"id\":%ld,\"method\":\"initialize\",\"params\":"
                         "{\"protocolVersion\":1,\"clientCapabilities\":{\"fs\":{\"readTextFile\":"
                         "true,\"writeTextFile\":true},\"terminal\":true},\"clientInfo\":"
                         "{\"name\":\"bench\",\"version\":\"0\"}}}\n",
                         i);
        if (write(to[1], req, (size_t)m) != m)
            return 1;
        size_t got = 0;
        while (!got || buf[got - 1] != '\n') {
            ssize_t r = read(from[0], buf + got, sizeof buf - got);
            if (r <= 0)
                return 1;
            got += (size_t)r;
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    close(to[1]);
    waitpid(pid, NULL, 0);
    printf("{\"round_trips\":%ld,\"seconds\":%.6f}\n", n,
           (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "ping"))
        return ping(argv[0], strtol(argv[2], NULL, 10));
    static char buf[1 << 20];
    size_t have = 0;
    for (;;) {
        ssize_t r = read(0, buf + have, sizeof buf - have);
        if (r <= 0)
            return 0;
        have += (size_t)r;
        char *start = buf, *nl;
        while ((nl = memchr(start, '\n', have - (size_t)(start - buf)))) {
            if (answer(start, (size_t)(nl - start)))
                return 1;
            start = nl + 1;
        }
        have -= (size_t)(start - buf);
        memmove(buf, start, have);
        if (have == sizeof buf)
            return 1; /* a frame larger than the buffer */
    }
}
