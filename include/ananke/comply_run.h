/*
 * Running a compliance suite (`ananke comply`, docs/comply.md): the .jsont
 * tests of some files or directories against some agents, agents × tests,
 * into the result model of ananke/comply.h.
 *
 * Three steps, so that a caller can stop after the first:
 *   an_comply_plan_new()     loads and selects the tests (nothing starts);
 *   an_comply_plan_agents()  reads the agents (--agent specs, a settings
 *                            file in the editors' shape);
 *   an_comply_plan_run()     probes each agent, then runs its tests, `jobs`
 *                            at once (each test has its own agent process
 *                            and sandbox; results land in suite order, so
 *                            the report does not depend on interleaving).
 * Every error is said through opts.on_error as it is found (a suite with
 * several broken files names each), and the call returns its code (any
 * code is exit class 2: invalid invocation, settings or test file).
 *
 * Ownership: the plan copies what it keeps of the options except `log`,
 * `on_error` and `ud`, which must outlive it. Strings handed out are
 * borrowed until an_comply_plan_free().
 */
#ifndef ANANKE_COMPLY_RUN_H
#define ANANKE_COMPLY_RUN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ananke/comply.h"
#include "ananke/err.h"

/* What runs in Linux namespaces (docs/comply.md "Confinement"):
 * "terminals", "agent", "required" or "none": true when mode is one. */
bool an_comply_confine_valid(const char *mode);
#define AN_COMPLY_MAX_CONFINE_PATHS 32 /* as an ACP target's confine_paths */

/* The protocols comply speaks, one table row each
 * (src/lib/run/comply_protocols.c): --protocol NAME, its default suite
 * (a directory under the checkout, or <datadir>/ananke/ of an install), and
 * whether its agents are endpoints (URLs ananke does not start: no
 * sandbox, no confinement, no settings file) rather than commands. */
struct an_comply_protocol_info {
    const char *name;  /* "acp" */
    const char *suite; /* "compliance/acp" */
    bool endpoint;
};
size_t an_comply_protocol_count(void);
const struct an_comply_protocol_info *an_comply_protocol_at(size_t i); /* NULL past the end */
const struct an_comply_protocol_info *an_comply_protocol_find(const char *name);

struct an_comply_plan_opts {
    const char *protocol;     /* a row's name (an_comply_protocol_find; checked by the caller) */
    const char *const *paths; /* .jsont files and directories of them */
    size_t npaths;
    const char *const *ids; /* only these tests (--test); none: every test */
    /* the spec revision whose requirement set is judged (--spec): a file
     * <suite>/requirements/<spec>.json; NULL: the newest the suite has */
    const char *spec;
    size_t nids;
    /* A2A (--binding): "jsonrpc" or "rest"; NULL: what the agent card
     * offers, both (each agent's tests run once per binding) when it
     * offers both */
    const char *binding;
    /* --expected-failures FILE (docs/comply.md "Expected failures"), or
     * NULL: a YAML map of agent name to a list of test or requirement ids,
     * each `ID` or `ID: reason`; a listed test that fails is XFAIL, one that
     * passes STALE (it fails the run) */
    const char *expected_failures;
    /* agents: "NAME=COMMAND" (run by /bin/sh; agui: "NAME=URL"), and the
     * agents of a settings file (all, or those named in `pick`) */
    const char *const *agents;
    size_t nagents;
    const char *settings;
    const char *const *pick;
    size_t npick;
    /* every agent's confinement, under its settings keys */
    const char *confine; /* an_comply_confine_valid(); NULL: "terminals" */
    const char *const *confine_paths;
    size_t nconfine_paths;
    bool network, inherit_env;
    const char *const *redact; /* regexes: compiled already by the caller */
    size_t nredact;
    unsigned jobs; /* tests at once per agent (1..64; 0: 1) */
    bool keep_sandbox;
    double timeout_scale;                   /* 0: 1 */
    size_t max_event_bytes, max_turn_bytes; /* AG-UI caps; 0: the defaults */
    size_t max_messages; /* ACP, MCP: messages one test keeps; 0: the default */
    int verbose;                            /* 1: every frame on `log` */
    FILE *log; /* progress lines, warnings, kept sandboxes; NULL: stderr */
    /* each error, one line without a prefix; NULL: "ananke: MSG" on log */
    void (*on_error)(const char *msg, void *ud);
    void *ud;
};

struct an_comply_plan; /* opaque */

/* Load every .jsont of the paths (a directory's sorted, not recursive),
 * refuse one of another protocol, an id given twice, an unknown --test id
 * and an empty selection. */
int an_comply_plan_new(struct an_comply_plan **out, const struct an_comply_plan_opts *o);
size_t an_comply_plan_ntests(const struct an_comply_plan *p);
/* Test i's id (its file name without .jsont) and title. */
const char *an_comply_plan_test_id(const struct an_comply_plan *p, size_t i);
const char *an_comply_plan_test_title(const struct an_comply_plan *p, size_t i);
/* Read the agents; refuses none at all, a name given twice, a bad settings
 * file. */
int an_comply_plan_agents(struct an_comply_plan *p);
/* Run every test against every agent into res (released by the caller
 * with an_comply_result_release()); "comply: AGENT ID STATUS" lines on the
 * log as tests end. Cancellation (an_cancel_request) stops it early. */
void an_comply_plan_run(struct an_comply_plan *p, struct an_comply_result *res);
void an_comply_plan_free(struct an_comply_plan *p); /* NULL-safe */

#endif
