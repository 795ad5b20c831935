/*
 * OpenAI mock scenarios: the YAML script that says how `ananke-mock openai`
 * answers each chat-completions request.
 *
 * A scenario is a list of rules (first match wins), an optional default and
 * an optional list of model names for /v1/models. Everything is checked at
 * load time — unknown keys, wrong types, bad regexes, keys that could never
 * take effect — so a broken script is a `file:line:col` message before the
 * server listens.
 *
 * Ownership: the whole model (strings, compiled regexes) lives in the
 * scenario's arena and goes away with oai_scenario_free(). Rules handed out
 * by oai_scenario_pick() are borrowed until then.
 * Thread safety: after loading, the model is read-only except the `times`
 * counters, which oai_scenario_pick() updates under the scenario's lock.
 */
#ifndef ANANKE_MOCK_OPENAI_SCENARIO_H
#define ANANKE_MOCK_OPENAI_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/regex.h"
#include "core/arena.h"
#include "mock_common.h"
#include "scenario_rules.h"

/* One tool call of a reply. */
struct oai_call {
    struct an_loc loc;
    const char *name;
    const char *id;   /* NULL = automatic call_<A>_<N> */
    const char *args; /* function.arguments: compact JSON of `args`, or `args_text` */
    size_t args_len;
    /* `server`: the call is also made for real on this tool server (a name
     * in $ANANKE_TOOL_SERVERS or a URL; mock_mcp.h) before the answer;
     * NULL = only proposed */
    const char *server;
};

/* What the assistant answers. Strings are NUL-terminated, but the lengths
 * count (a YAML "\0" escape can put a NUL inside). */
struct oai_reply {
    const char *text; /* message content; NULL = none (null with tool calls, else "") */
    size_t text_len;
    struct oai_call *calls;
    size_t ncalls;
    const char *finish_reason; /* NULL = "tool_calls" with calls, else "stop" */
    /* usage; -1 = count (words of the prompt, of the answer; total = sum) */
    long long prompt_tokens, completion_tokens, total_tokens;
};

/* The API's error object; param and code NULL = null. */
struct oai_error {
    const char *message, *type, *param, *code;
};

struct oai_rule {
    struct an_loc loc;
    bool is_default;
    /* selectors */
    struct an_regex *match; /* on the last user text; NULL = any */
    const char *model;      /* only requests for this model; NULL = any */
    const char *after_tool; /* only after a result of this tool; NULL = only user turns */
    long long times;        /* 0 = unlimited */
    long long used;         /* guarded by oai_scenario.head.lock */
    /* the answer */
    int status;
    struct mock_header *headers;
    size_t nheaders;
    bool has_reply;
    struct oai_reply reply;
    unsigned chunks;        /* stream: deltas per text and per call's arguments (>= 1) */
    int64_t chunk_delay_ms; /* stream: between chunks */
    int64_t delay_ms;       /* before answering */
    unsigned cut;           /* abort after this many chunks; 0 = no */
    unsigned stall;         /* hold the connection after this many chunks; 0 = no */
    const char *raw;        /* stream: these bytes instead of the generated chunks */
    size_t raw_len;
    const char *body; /* plain answer body, verbatim; NULL = none */
    size_t body_len;
    struct oai_error error; /* non-2xx without body: sent as {"error":{...}} */
};

struct oai_scenario {
    struct scn_rules_head head; /* first: see scenario_rules.h */
    struct oai_rule *rules;
    size_t nrules;
    struct oai_rule *fallback; /* the `default:` rule, or NULL */
    const char **models;       /* for /v1/models: `models:`, else the rules' models */
    size_t nmodels;
};

/* For scn_rules_load() (ananke-mock openai loads its scenario through it). */
extern const struct scn_rules_kind oai_scenario_kind;

/* Load and check a scenario file. On failure fills err (AN_EIO, AN_EPARSE,
 * AN_ESCHEMA, AN_EREGEX, AN_ELIMIT) with the offending node's location.
 * The result is freed with oai_scenario_free(). */
int oai_scenario_load(struct oai_scenario **out, const char *path, struct an_err *err);
/* Same from memory; `name` is used in locations (unit tests). */
int oai_scenario_load_mem(struct oai_scenario **out, const char *name, const char *data, size_t len,
                          struct an_err *err);
void oai_scenario_free(struct oai_scenario *s); /* NULL-safe */

/* Whose turn the request is: the role of its last message. */
enum oai_turn {
    OAI_TURN_USER, /* a user message */
    OAI_TURN_TOOL, /* a tool (or legacy function) result */
    OAI_TURN_OTHER /* anything else, or no messages */
};

/* What a chat-completions request looks like to the rules. */
struct oai_request_view {
    const char *model; /* NULL when the request has none */
    enum oai_turn turn;
    const char *tool_name; /* OAI_TURN_TOOL: the tool of the answered call; NULL if not found */
    const char *user_text; /* text of the last user message ("" when none) */
    size_t user_text_len;
};

/* The first rule that matches `req` and still has `times` left, counting it
 * as used; else the default rule; else NULL (the caller then sends the
 * built-in "no rule matched" answer). Thread-safe. */
const struct oai_rule *oai_scenario_pick(struct oai_scenario *s,
                                         const struct oai_request_view *req);

#endif
