/*
 * --replay-tools DIR (docs/tools.md "Record and replay"): the recorded tool
 * traffic of a recording, and the answers it gives in place of the
 * upstreams. Loaded once by an_tools_replay_open() (ananke/tools.h);
 * process-wide, thread-safe. Answers are new references the caller sends.
 */
#ifndef ANANKE_TOOLS_REPLAY_H
#define ANANKE_TOOLS_REPLAY_H

#include <jansson.h>
#include <stdbool.h>

/* A recording is being replayed; and with --replay-miss passthrough. */
bool an_replay_on(void);
bool an_replay_passthrough(void);

struct an_tool_ctx;

/* The recorded answer to ctx's test's call (NULL: a call of no test,
 * matched to the calls recorded outside the tests) of tool on server with
 * args (matched on canonical arguments, the server's ignore_args left
 * out), as a JSON-RPC response with `id`: the successive recorded answers
 * of identical calls in turn, the last one again after them. NULL on a
 * miss, with *miss a sentence naming the call (malloc'd). */
json_t *an_replay_call(struct an_tool_ctx *ctx, const char *server, const char *tool,
                       const json_t *args, const json_t *id, char **miss);
/* The recorded answer to another request (initialize, tools/list ...) of
 * server, with `id`; NULL when the recording has none. */
json_t *an_replay_answer(const char *server, const char *method, const json_t *id);
/* ctx's test starts (again): each of its sequences starts again. */
void an_replay_rewind(struct an_tool_ctx *ctx);

#endif
