/*
 * The tool traffic kept for a recording (`ananke run --record DIR`,
 * docs/tools.md "Record and replay"), and where the run is (which test,
 * which turn) for the calls it keeps and for replay's matching.
 * Process-wide, thread-safe. The json given is copied.
 */
#ifndef ANANKE_TOOLS_TAPE_H
#define ANANKE_TOOLS_TAPE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* One tools/call of test (its key, NULL: no test's) and 1-based turn
 * (params as received, the JSON-RPC answer as sent; NULL: none was sent),
 * kept when a recorder asked for it. */
void an_tape_call(const char *test, size_t turn, const char *server, const json_t *params,
                  const json_t *answer, bool mocked);
/* The answer to another request (initialize, tools/list ...); only the
 * first of each method per server is kept. */
void an_tape_answer(const char *server, const char *method, const json_t *answer);
/* A test's proxy path token (tools/ctx.c): replaced by "[redacted]" wherever
 * it is in what an_tools_tape() gives (an agent may echo its tool URL into
 * a call's arguments). Kept only while a recorder keeps the traffic. */
void an_tape_secret(const char *token);
/* Forget everything kept (an_tools_down). */
void an_tape_release(void);

#endif
