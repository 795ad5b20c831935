/*
 * Tool servers (docs/tools.md): for each of the config's `tool_servers:`,
 * ananke serves an MCP endpoint (Streamable HTTP on 127.0.0.1, an ephemeral
 * port) that forwards every JSON-RPC message to the upstream server (a
 * stdio child) and records every tools/call it forwards. While they serve,
 * ${TOOL_SERVERS.NAME.url} (and .command) are set for interpolation.
 *
 * One set per process: an_tools_up() before target.start and the tests,
 * an_tools_down() after them. Each proxy has a shared path (/mcp, what
 * target.start gets) and one path per running test (/t/TOKEN/mcp, what the
 * test's hooks, target config and ACP mcpServers get; tools/ctx.h). A call
 * on a test's path is that test's only; a call on the shared path is the
 * test's whose turn runs, and while more than one test's turn runs it is
 * given to none: it is refused and each of them ends as an ERROR naming
 * the call (docs/tools.md "Parallel runs").
 *
 * Ownership: an_tools_up() hands back a handle (NULL when the config names
 * no tool server) that an_tools_down() stops and frees; cfg is borrowed
 * while it serves.
 */
#ifndef ANANKE_TOOLS_H
#define ANANKE_TOOLS_H

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

struct an_tools;

int an_tools_up(struct an_tools **out, const struct an_config *cfg, struct an_err *err);
void an_tools_down(struct an_tools *t); /* NULL-safe */

/* The run's tool coverage (docs/tools.md "Tool coverage"), for the
 * results r of a run whose tool servers t served: {SERVER: {"exposed":
 * [names], "called": {NAME: {"calls", "tests", "argument_keys",
 * "mocked"}}, "ratio"}}, from the turns' server_calls. "exposed" is what
 * the server's tools/list gave at start, or, when it could not be asked,
 * the tools suite's tool_mocks name for it; "ratio" is the share of those
 * called (null when there are none). A new reference; NULL when t is NULL.
 * Call it before an_tools_down(t). */
json_t *an_tools_coverage(const struct an_tools *t, const struct an_suite *suite,
                          const struct an_run_result *r);
/* --replay-tools DIR (docs/tools.md "Record and replay"): the recording's
 * tool traffic (DIR/tools/NAME.jsonl, format AN_TOOLS_FORMAT) answers the
 * calls in place of the upstreams. Loaded here, before an_tools_up(), for
 * every server of cfg (borrowed until an_tools_replay_close()): AN_ENOTFOUND
 * for a DIR that is no recording or lacks a server's file (unless
 * passthrough), AN_ESCHEMA at file:line:col for a malformed line, AN_ELIMIT
 * naming tool_servers.NAME.replay_max_bytes for a file over it, AN_EIO
 * for a link or what is not a regular file. A miss is refused (the test is
 * an ERROR naming the call), or, with AN_REPLAY_MISS_PASSTHROUGH, sent to
 * the upstream, which is then started as usual (with the default, it is not
 * started at all). */
enum an_replay_miss { AN_REPLAY_MISS_ERROR = 0, AN_REPLAY_MISS_PASSTHROUGH };
#define AN_TOOLS_FORMAT "ananke-tools/1"
int an_tools_replay_open(const char *dir, enum an_replay_miss miss, const struct an_config *cfg,
                         struct an_err *err);
void an_tools_replay_close(void); /* safe when nothing is open */

/* While the proxies serve, ananke's environment holds ANANKE_TOOL_SERVERS,
 * {"NAME": URL, ...}, so `ananke tool-proxy NAME` (spawned by the agent,
 * which inherits it) finds its server's URL. */
#define AN_TOOLS_ENV "ANANKE_TOOL_SERVERS"

/* `ananke tool-proxy`: MCP over stdio (one JSON-RPC message a line) on
 * this process's stdin/stdout, each message POSTed to url. Returns 0 at
 * the end of the input, 1 when the proxy cannot be reached. */
int an_tools_stdio_bridge(const char *url);

#endif
