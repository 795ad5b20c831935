/*
 * AG-UI mock scenarios: the YAML script that says how `ananke-mock agui`
 * answers each run request.
 *
 * A scenario is a list of rules (first match wins) and an optional default.
 * Everything is checked at load time — unknown keys, wrong types, bad
 * regexes, steps that could never be sent — so a broken script is a
 * `file:line:col` message before the server listens, never a surprise in
 * the middle of an end-to-end test.
 *
 * Ownership: the whole model (strings, compiled regexes, JSON values) lives
 * in the scenario's arena and goes away with agui_scenario_free(). Rules and
 * steps handed out by agui_scenario_pick() are borrowed until then.
 * Thread safety: after loading, the model is read-only except the `times`
 * counters, which agui_scenario_pick() updates under the scenario's lock.
 */
#ifndef ANANKE_MOCK_AGUI_SCENARIO_H
#define ANANKE_MOCK_AGUI_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/regex.h"
#include "core/arena.h"
#include "mock_common.h"
#include "scenario_rules.h"

enum agui_step_kind {
    AGUI_STEP_TEXT,        /* TEXT_MESSAGE_START / CONTENT... / END */
    AGUI_STEP_TOOL,        /* TOOL_CALL_START / ARGS... / END [/ TOOL_CALL_RESULT] */
    AGUI_STEP_DELAY,       /* sleep before the next step */
    AGUI_STEP_EVENT,       /* one JSON object, verbatim */
    AGUI_STEP_COMMENT,     /* an SSE comment line */
    AGUI_STEP_RAW,         /* bytes, verbatim, no framing */
    AGUI_STEP_RUN_ERROR,   /* RUN_ERROR, then the stream ends */
    AGUI_STEP_CUT,         /* abort the connection */
    AGUI_STEP_STALL,       /* hold the connection open, send nothing */
    AGUI_STEP_RUN_STARTED, /* RUN_STARTED with the request's ids, here */
    AGUI_STEP_RUN_FINISHED /* RUN_FINISHED with the request's ids (+ `finish`), here */
};

struct agui_step {
    enum agui_step_kind kind;
    struct an_loc loc;
    /* text: the delta; tool: the tool name; comment, raw: the bytes;
     * run_error: the message. NUL-terminated, but `str_len` counts, since a
     * YAML "\0" escape can put a NUL inside. */
    const char *str;
    size_t str_len;
    const char *id;     /* messageId / toolCallId; NULL = automatic */
    const char *role;   /* text: TEXT_MESSAGE_START.role (default "assistant") */
    const char *parent; /* tool: parentMessageId; NULL = omitted */
    const char *args;   /* tool: the ARGS text (compact JSON or args_text) */
    size_t args_len;
    const char *result; /* tool: TOOL_CALL_RESULT.content; NULL = no result event */
    size_t result_len;
    const char *result_id; /* tool: TOOL_CALL_RESULT.messageId; NULL = automatic */
    const char *code;      /* run_error: RUN_ERROR.code; NULL = omitted */
    /* JSON values are kept as compact text: each request parses its own
     * copy, so no jansson value is ever shared between server threads. */
    const char *event;     /* event: the object to send, compact JSON */
    const char *timestamp; /* JSON added as `timestamp` to each event of the step; NULL = none */
    /* tool: call it for real on this tool server (a name in
     * $ANANKE_TOOL_SERVERS or a URL; mock_mcp.h), its result reported
     * unless `result` is given; NULL = a scripted call only */
    const char *server;
    bool unreported; /* tool with server, `report: false`: called, no events */
    unsigned chunks; /* text, tool: CONTENT / ARGS events (>= 1) */
    int64_t ms;      /* delay: milliseconds; text, tool: chunk_delay_ms */
};

enum agui_framing { AGUI_FRAMING_LF, AGUI_FRAMING_CRLF, AGUI_FRAMING_CR };

struct agui_rule {
    struct an_loc loc;
    bool is_default;
    struct an_regex *match; /* NULL = any text */
    bool connect;           /* answers only requests whose last message is not a user message */
    const char *path;       /* NULL = any path */
    long long times;        /* 0 = unlimited */
    long long used;         /* guarded by agui_scenario.head.lock */
    int status;
    struct mock_header *headers;
    size_t nheaders;
    const char *content_type;
    enum agui_framing framing;
    const char *data_prefix;
    bool run_auto;      /* wrap the steps in RUN_STARTED ... RUN_FINISHED */
    const char *start;  /* extra RUN_STARTED members (a JSON object's text) or NULL */
    const char *finish; /* extra RUN_FINISHED members (a JSON object's text) or NULL */
    const char *body;   /* non-streamed body, or NULL */
    size_t body_len;
    struct agui_step *steps;
    size_t nsteps;
};

struct agui_scenario {
    struct scn_rules_head head; /* first: see scenario_rules.h */
    bool strict_input;          /* `input: strict`: see agui_input.h */
    bool run_non_json;          /* `non_json: run`: a body that is not JSON is run */
    struct agui_rule *rules;
    size_t nrules;
    struct agui_rule *fallback; /* the `default:` rule, or NULL */
};

/* For scn_rules_load() (ananke-mock agui loads its scenario through it). */
extern const struct scn_rules_kind agui_scenario_kind;

/* Load and check a scenario file. On failure fills err (AN_EIO, AN_EPARSE,
 * AN_ESCHEMA, AN_EREGEX, AN_ELIMIT) with the offending node's location.
 * The result is freed with agui_scenario_free(). */
int agui_scenario_load(struct agui_scenario **out, const char *path, struct an_err *err);
/* Same from memory; `name` is used in locations (unit tests). */
int agui_scenario_load_mem(struct agui_scenario **out, const char *name, const char *data,
                           size_t len, struct an_err *err);
void agui_scenario_free(struct agui_scenario *s); /* NULL-safe */

/* What a run request looks like to the rules. */
struct agui_request_view {
    const char *path;      /* request path */
    bool connect;          /* the last message is not a user message */
    const char *user_text; /* text of the last user message ("" when none) */
    size_t user_text_len;
};

/* The first rule that matches `req` and still has `times` left, counting it
 * as used; else the default rule; else NULL (the caller then sends the
 * built-in "no rule matched" answer). Thread-safe. */
const struct agui_rule *agui_scenario_pick(struct agui_scenario *s,
                                           const struct agui_request_view *req);

/* The line ending a framing writes: "\n", "\r\n" or "\r". */
const char *agui_framing_eol(enum agui_framing f);

#endif
