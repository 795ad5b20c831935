/*
 * An ACP agent's side of a session (proto/acp.c over acp_client.c and
 * jsonrpc.c): the input is everything the agent writes on its stdout. The
 * "agent" is a shell printing the input and then a marker notification,
 * and reading its stdin until it is closed, so the real session runs: our
 * initialize, session/new and session/prompt go out (ids 0, 1, 2), and
 * the answers, session/update notifications (text, tool calls and their
 * updates, plans) and agent requests come back from the input. Once the
 * marker arrives the whole input has been read: a turn still open is given
 * up as the runner's turn timeout does (end() with
 * CURLE_ABORTED_BY_CALLBACK).
 *
 * The client advertises neither fs nor terminal, so no input makes it
 * read or write files or start a program; permission requests are decided
 * by policy at once. A fork per input: slower than the other targets.
 */
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <curl/curl.h>
#include <jansson.h>

#include "ananke/model.h"
#include "ananke/transcript.h"
#include "fuzz.h"
#include "proto/adapter.h"

#define MARKER "{\"jsonrpc\":\"2.0\",\"method\":\"_fuzz/eof\"}"

/* Did frames[*seen..] bring the marker? */
static bool marker_seen(const struct an_turn_rec *r, size_t *seen)
{
    bool found = false;
    for (; *seen < r->nframes; (*seen)++)
        if (r->frames[*seen].data && !strcmp(r->frames[*seen].data, "< " MARKER))
            found = true;
    return found;
}

static void turn(struct an_session *s, struct an_transcript *t, const char *user)
{
    an_transcript_add_turn(t, "user");
    CURL *easy = NULL;
    CURLcode cc = CURLE_OK;
    size_t seen = 0;
    if (s->ops->begin(s, t, user, false, &easy) == 0) {
        for (int round = 0;; round++) {
            struct curl_waitfd w[16];
            struct pollfd p[16];
            size_t n = s->ops->fds(s, w, 16);
            for (size_t i = 0; i < n; i++)
                p[i] = (struct pollfd){
                    .fd = w[i].fd,
                    .events = (short)((w[i].events & CURL_WAIT_POLLIN ? POLLIN : 0) |
                                      (w[i].events & CURL_WAIT_POLLOUT ? POLLOUT : 0))};
            if (n && poll(p, n, 100) < 0)
                break;
            for (size_t i = 0; i < n; i++)
                w[i].revents =
                    (short)((p[i].revents & (POLLIN | POLLHUP | POLLERR) ? CURL_WAIT_POLLIN : 0) |
                            (p[i].revents & POLLOUT ? CURL_WAIT_POLLOUT : 0));
            if (s->ops->step(s, t, w, n))
                break;
            struct an_turn_rec *r = &t->turns[t->nturns - 1];
            if (marker_seen(r, &seen) || round == 100) {
                an_turn_fail(r, AN_ETIMEOUT, "the input is over");
                cc = CURLE_ABORTED_BY_CALLBACK;
                break;
            }
        }
    }
    s->ops->end(s, t, cc);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *out = fz_write("agent.out", data, size);
    if (!out)
        return 0;
    char *file = fz_strdup((const uint8_t *)out, strlen(out));
    const char *argv[] = {
        "/bin/sh", "-c", "cat \"$1\"; printf '\\n%s\\n' '" MARKER "'; exec cat >/dev/null",
        "sh",      file, NULL};
    json_t *caps =
        json_pack("{s:{s:b,s:b},s:b}", "fs", "readTextFile", 0, "writeTextFile", 0, "terminal", 0);
    struct an_acp_target_opts o = {.argv = argv,
                                   .sandbox = fz_tmpdir(),
                                   .client_capabilities = caps,
                                   .policy = AN_PERM_YOLO,
                                   .timeout_ms = 5000};
    struct an_session *s = NULL;
    struct an_err err = AN_ERR_INIT;
    if (an_acp_open(&s, &o, &err) == 0) {
        struct an_transcript t;
        an_transcript_init(&t);
        turn(s, &t, "hello");
        if (getenv("FUZZ_VERBOSE")) /* what a seed reached: FUZZ_VERBOSE=1 fuzz_acp FILE */
            for (size_t i = 0; i < t.nturns; i++)
                fprintf(stderr, "turn %zu: text '%s' calls %zu error '%s'\n", i,
                        t.turns[i].text ? t.turns[i].text : "", t.turns[i].ncalls,
                        t.turns[i].error ? t.turns[i].error : "");
        s->ops->free(s);
        an_transcript_release(&t);
    }
    json_decref(caps);
    free(file);
    return 0;
}
