/* The tool proxy's side the run reads (ananke/tools.h for its lifecycle). */
#ifndef ANANKE_TOOLS_TOOLS_H
#define ANANKE_TOOLS_TOOLS_H

#include <jansson.h>
#include <stdint.h>

#include "ananke/model.h"
#include "ananke/tools.h"
#include "core/interp.h"

struct an_tool_ctx; /* a test's own share of the proxies (tools/ctx.h) */

/* A test starts (run/job.c, before its hooks): its context, and in vars
 * its own ${TOOL_SERVERS.NAME.url} (http://127.0.0.1:PORT/t/TOKEN/mcp)
 * and .command (... tool-proxy NAME --url THAT), so every per-test place
 * gives the agent the path whose calls are this test's only. *token is
 * the secret part, for the redactor (borrowed from the context). 0 and
 * *out NULL when no proxy serves; AN_EIO when no token can be made. */
int an_tools_test_begin(struct an_tool_ctx **out, const struct an_test *test, struct an_vars *vars,
                        const char **token, struct an_err *err);
/* The test ended (NULL-safe): its path answers 404 from now on. */
void an_tools_test_end(struct an_tool_ctx *c);

/* The tools/call requests of c (on its own path, or on the shared one
 * while its turn alone ran) the proxy answered between from_ms and to_ms
 * (unix ms, by their start), in order, as results.json writes them:
 * [{"server", "name", "arguments", "result", "is_error", "start_ms",
 * "end_ms", "mocked"}]. A new reference; NULL when no proxy serves. */
json_t *an_tools_calls_of(const struct an_tool_ctx *c, int64_t from_ms, int64_t to_ms);

/* ACP's session/new mcpServers for the servers the proxy serves:
 * [{"type": "http", "name", "url", "headers": []}], each url the test's
 * own when vars holds it (an_tools_test_begin), else the shared one. A
 * new reference; NULL when none serves. */
json_t *an_tools_mcp_servers(const struct an_vars *vars);
/* The same as stdio entries, for an agent without HTTP MCP:
 * [{"name", "command": this program, "args": ["tool-proxy", NAME, "--url",
 * URL], "env": []}]. A new reference; NULL when none serves or this
 * program's path cannot be read. */
json_t *an_tools_mcp_servers_stdio(const struct an_vars *vars);

/* The first call refused since c's turn began (tool_mocks_strict, a
 * replay miss, a call on the shared path that cannot be attributed), as
 * a sentence naming it (malloc'd), or NULL. It ends the test as an ERROR. */
char *an_tools_take_strict_miss(struct an_tool_ctx *c);

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
/* A turn of c's test begins (run/job.c): its tool_mocks (then the
 * test's) answer its calls, which are kept as of this test and 1-based
 * turn; turn 1 starts the `results` and replay sequences again. NULL-safe. */
void an_tools_turn_begins(struct an_tool_ctx *c, const struct an_turn *turn, size_t turn_no);
/* The turn ended: a call on the shared path is no longer c's. */
void an_tools_turn_ends(struct an_tool_ctx *c);

#endif
