/*
 * The compliance runner (`ananke comply`): runs one .jsont test against one
 * ACP agent (or AG-UI endpoint, below) and records the outcome in the
 * comply result model.
 *
 * Per test: a fresh sandbox (mkdtemp) holding the test's files, a fresh
 * agent process started by the ACP client with the test's client
 * capabilities and permission policy, then the steps in order. The runner
 * sends `initialize` itself first, unless the test's first step sends
 * `initialize` (then the test does the handshake its own way). At the end
 * the agent and its terminals are ended and the sandbox removed (unless
 * keep_sandbox).
 *
 * Steps never block on the agent except `newSession` (its session id is
 * needed by what follows):
 *  - send: the frame goes out as written (its id is used on the wire); a
 *    request's response is awaited by whichever `expect` asks for it;
 *  - expect: pumps the connection (agent requests keep being served) until
 *    every expected envelope matches a distinct message observed since the
 *    test started and not taken by an earlier expect, or timeoutMs passes;
 *  - forbid: pumps for timeoutMs and fails on any listed agent request
 *    received in that window;
 *  - delayMs: pumps for that long.
 * See docs/comply.md for every rule.
 */
#ifndef ANANKE_RUN_COMPLY_H
#define ANANKE_RUN_COMPLY_H

#include <stdbool.h>
#include <stdio.h>

#include "ananke/comply.h"
#include "load/jsont.h"
#include "run/redact.h"

struct an_comply_spec {
    const char *name;
    const char *command;     /* for the report */
    const char *const *argv; /* NULL-terminated */
    const char *const *env;  /* "NAME=VALUE", NULL-terminated, or NULL */
    /* As a target of `ananke run` (docs/comply.md "Confinement and
     * environment"; proto/acp_client.h): what runs in Linux namespaces
     * (enum an_acp_confine; default: the terminals), read-only paths, the
     * host's network, and ananke's whole environment instead of core/envmin
     * (HOME = the test's sandbox) plus env. */
    int confine;
    const char *const *confine_paths; /* NULL-terminated, absolute; may be NULL */
    bool network;
    bool inherit_env;
};

/* What the runner itself says to a stdio agent, and how it answers the
 * agent's requests (the steps are the same JSON-RPC for both):
 *  - ACP: initialize {protocolVersion: 1, clientCapabilities}; the probe
 *    opens a session; fs, terminal and permission requests are served
 *    by the ACP client in the sandbox;
 *  - MCP: initialize {protocolVersion: AN_COMPLY_MCP_VERSION, capabilities:
 *    {}} then notifications/initialized, no session; the server's ping is
 *    answered {}, roots/list {roots: []}, anything else -32601. */
enum an_comply_proto { AN_COMPLY_PROTO_ACP = 0, AN_COMPLY_PROTO_MCP };
#define AN_COMPLY_MCP_VERSION "2025-11-25"
/* the stateless revision: server/discover, _meta on every request */
#define AN_COMPLY_MCP_MODERN "2026-07-28"
#define AN_COMPLY_MAX_MESSAGES 10000 /* --max-messages: see max_messages */

struct an_comply_opts {
    enum an_comply_proto protocol;
    bool keep_sandbox;
    int verbose;                 /* 1: every frame to `log` */
    FILE *log;                   /* progress and kept sandboxes; NULL = stderr */
    int64_t permission_delay_ms; /* see acp_client.h; default 800 */
    /* expect and forbid windows are multiplied by this (0: 1). A suite is
     * written for real agents that think; a scripted agent answers at once
     * or never, so a test run can wait less. delayMs steps keep their time. */
    double timeout_scale;
    /* what -v prints is redacted with it (run/redact.h; may be NULL): the
     * results are redacted by the caller (run/comply_redact.h) */
    const struct an_redactor *redact;
    /* AG-UI: one SSE event, and one step's whole answer (0: 16 MiB, 64
     * MiB; --max-event-bytes, --max-turn-bytes) */
    size_t max_event_bytes, max_turn_bytes;
    /* ACP, MCP: the agent's messages one test keeps, and one mcpHttp
     * answer's (0: AN_COMPLY_MAX_MESSAGES; --max-messages); past it the test
     * stops reading the agent and fails with an entry naming the cap */
    size_t max_messages;
    /* the spec revision judged (the plan's, borrowed), or NULL: A2A speaks
     * 1.0 or 0.3 by it (comply_a2a.c) */
    const char *spec;
    /* --spec named it: every agent is judged at it, so a probe need not
     * learn the revision an agent speaks (MCP: no server/discover) */
    bool spec_given;
};
/* clang-format off */
#define AN_COMPLY_OPTS_INIT                                                                        \
    {                                                                                              \
        .permission_delay_ms = 800                                                                 \
    }
/* clang-format on */

/* Start the agent once with the default client capabilities: initialize,
 * session/new in a scratch directory, 300 ms of listening for commands.
 * Fills a->init (or a->init_error), a->modes, a->commands. MCP: initialize
 * and notifications/initialized only; a->init is the server's initialize
 * result, whose `capabilities` feed the `agentCap` preconditions. */
void an_comply_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                     const struct an_comply_opts *o);

/* MCP (comply_mcp_discover.c): an_comply_probe, then server/discover of
 * MCP 2026-07-28 (on a fresh process, or POSTed to an http(s) endpoint):
 * a->spec is the revision the server speaks, the newest its discover
 * result lists, else initialize's protocolVersion (NULL: neither). */
void an_comply_mcp_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                         const struct an_comply_opts *o);

/* Run test t against the agent; fills out (status, unmet, NA reason...). */
void an_comply_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                   const struct an_jsont *t, const struct an_comply_opts *o,
                   struct an_comply_test *out);

/*
 * AG-UI (comply_agui.c): the agent is an endpoint, spec->command its URL
 * (argv and env unused). Each test's steps POST to it, one request per
 * step, and judge the answer with ananke's own AG-UI decoder and
 * conformance verifier (strict: every MUST rule). See docs/comply.md.
 *
 * The probe is one plain run ("Hello"): a->init gets what it answered
 * ({httpStatus, contentType, status, events, protocolVersion}), or
 * a->init_error why nothing came back.
 */
void an_comply_agui_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                          const struct an_comply_opts *o);
void an_comply_agui_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                        const struct an_jsont *t, const struct an_comply_opts *o,
                        struct an_comply_test *out);

/*
 * A2A (comply_a2a.c): the agent is its base URL (spec->command). The probe
 * GETs the card at /.well-known/agent-card.json: a->init is the card (its
 * `capabilities` feed the `agentCap` preconditions), or a->init_error why
 * none came. Each test's `http` steps go to the card's JSON-RPC URL (on
 * the base URL's origin only) or to a path on the base URL. See
 * docs/comply.md "A2A".
 */
void an_comply_a2a_probe(const struct an_comply_spec *spec, struct an_comply_agent *a,
                         const struct an_comply_opts *o);
/* The bindings to run (a comply_plan_int.h `bindings` hook): `wanted`, or
 * those the probed card offers on the base URL's origin ("jsonrpc" first);
 * JSON-RPC when it offers neither (its tests then say why they fail). */
size_t an_comply_a2a_bindings(const struct an_comply_agent *probed, const char *wanted,
                              const char *out[2]);
void an_comply_a2a_run(const struct an_comply_spec *spec, const struct an_comply_agent *a,
                       const struct an_jsont *t, const struct an_comply_opts *o,
                       struct an_comply_test *out);

/* The precondition check alone (pure): NULL when every precondition holds,
 * else a malloc'd NA reason. agent_caps may be NULL. */
char *an_comply_precheck(const struct an_jsont *t, const json_t *agent_caps);

#endif
