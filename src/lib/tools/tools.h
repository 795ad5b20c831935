/* The tool proxy's side the run reads (ananke/tools.h for its lifecycle). */
#ifndef ANANKE_TOOLS_TOOLS_H
#define ANANKE_TOOLS_TOOLS_H

#include <jansson.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/tools.h"

/* The tools/call requests the proxy answered between from_ms and to_ms
 * (unix ms, by their start), in order, as results.json writes them:
 * [{"server", "name", "arguments", "result", "is_error", "start_ms",
 * "end_ms", "mocked"}]. A new reference; NULL when no proxy serves. */
json_t *an_tools_calls_between(int64_t from_ms, int64_t to_ms);

/* ACP's session/new mcpServers for the servers the proxy serves:
 * [{"type": "http", "name", "url", "headers": []}]. A new reference; NULL
 * when none serves. */
json_t *an_tools_mcp_servers(void);

/* The rules that answer calls from now on: the turn's, then the test's
 * (NULL, NULL: none). A new test starts the `results` sequences again.
 * Borrowed until the next call. */
void an_tools_use_mocks(const struct an_test *test, const struct an_turn *turn);
/* The first call refused under tool_mocks_strict since the last
 * an_tools_use_mocks(), as a sentence naming it (malloc'd), or NULL. */
char *an_tools_take_strict_miss(void);

/* The names the tool server `server` listed at start (tools/list, every
 * page), or NULL when it could not be asked. Borrowed until
 * an_tools_down(t). */
const json_t *an_tools_exposed(const struct an_tools *t, const char *server);
/* --record (run/record.c, docs/tools.md "Record and replay"): keep every
 * tools/call through the proxy, and each other method's first answer, for
 * the recording, until an_tools_down(). */
void an_tools_tape_keep(void);
/* What was kept: {SERVER: [line, ...]}, the lines of DIR/tools/SERVER.jsonl
 * after its header. A new reference; NULL when nothing was kept. */
json_t *an_tools_tape(void);
/* A turn begins (run/job.c): the calls from now on belong to this test
 * and 1-based turn; turn 1 starts replay's sequences again. */
void an_tools_turn_begins(const struct an_test *test, size_t turn);
/* A call refused in a way that ends the test as an ERROR (a replay miss):
 * msg (taken) is what an_tools_take_strict_miss() gives; the first wins. */
void an_tools_note_miss(char *msg);

#endif
