/*
 * JSON-RPC round trips over stdio through ananke's ACP client
 * (proto/acp_client.h over proto/jsonrpc.h), for bench/hotpaths.sh:
 *
 *     bench-acp-rtt N PEER [ARG...]
 *
 * Spawns PEER as the agent, then sends `initialize` and waits for its answer,
 * N times in a row (one request in flight, as a test's turns are), with
 * the connection options the ACP target uses (proto/acp.c). Prints one
 * line of JSON: round_trips, seconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto/acp_client.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: bench-acp-rtt N PEER [ARG...]\n");
        return 2;
    }
    long n = strtol(argv[1], NULL, 10);
    char sandbox[] = "/tmp/ananke-bench-acp-XXXXXX";
    if (!mkdtemp(sandbox)) {
        perror("mkdtemp");
        return 2;
    }
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.argv = (const char *const *)argv + 2;
    o.sandbox = sandbox;
    o.rpc.max_frame_key = "max_frame_bytes";
    o.rpc.no_message = true;
    struct an_acp_cbs cbs = {0};
    struct an_acp_client *c = NULL;
    struct an_err err = {0};
    int rc = 1;
    if (an_acp_client_new(&c, &o, &cbs, &err)) {
        fprintf(stderr, "bench-acp-rtt: %s\n", err.msg);
        goto done;
    }
    double t0 = now_s();
    for (long i = 0; i < n; i++) {
        int64_t id;
        json_t *res = NULL, *error = NULL;
        if (an_acp_initialize(c, &id, &err) || an_acp_wait(c, id, 10000, &res, &error, &err) ||
            !res) {
            fprintf(stderr, "bench-acp-rtt: round trip %ld failed: %s\n", i, err.msg);
            json_decref(res);
            json_decref(error);
            goto done;
        }
        json_decref(res);
        json_decref(error);
    }
    double s = now_s() - t0;
    printf("{\"round_trips\":%ld,\"seconds\":%.6f}\n", n, s);
    rc = 0;
done:
    an_acp_client_free(c);
    rmdir(sandbox);
    return rc;
}
