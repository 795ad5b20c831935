/*
 * The loaded model: project config, tests, turns, hooks and assert blocks.
 *
 * Every format (YAML today; JSONL, .jsont and cases.json later) loads into
 * these structs. Every node carries the location it was written at.
 * Ownership: a `struct an_suite` owns everything reachable from it through
 * one arena (strings, arrays, compiled regexes, JSON values); nothing here
 * is freed on its own. an_suite_free() releases it all.
 */
#ifndef ANANKE_MODEL_H
#define ANANKE_MODEL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/regex.h"

/* Where an assertion was declared; decides how it is inherited. */
enum an_level { AN_LEVEL_TARGET, AN_LEVEL_TEST, AN_LEVEL_TURN };

/* A string that may hold ${VAR} / ${ENV.NAME}; interpolated at run time. */
struct an_tmpl {
    const char *src;
    struct an_loc loc;
};

/* A JSON value from the config (forwardedProps, state) whose string leaves
 * are templates. `loc` is where the value starts. */
struct an_json_tmpl {
    json_t *value; /* owned by the suite; NULL = absent */
    struct an_loc loc;
};

/* A numeric limit that can be inherited, overridden, or disabled by `false`. */
enum an_limit_state { AN_LIMIT_UNSET = 0, AN_LIMIT_SET, AN_LIMIT_DISABLED };
struct an_limit {
    enum an_limit_state state;
    enum an_level level; /* beside state: 40 bytes, not 48 (12 in every block) */
    int64_t value;
    double amount; /* usage.max_cost only: the limit in the prices' currency */
    struct an_loc loc;
};

struct an_count {
    bool has_exact, has_min, has_max;
    int64_t exact, min, max;
    struct an_loc loc;
};

/* One `args_match` entry: a dot path into the arguments and a regex. */
struct an_arg_match {
    const char *path;
    struct an_regex *re;
    struct an_loc loc;
};

/* An entry of `tools.require` or `tools.forbid_calls`. */
struct an_tool_rule {
    const char *name;
    struct an_loc loc;
    enum an_level level;
    bool has_count; /* require: default {min: 1} when absent */
    struct an_count count;
    struct an_arg_match *args;
    size_t nargs;
    struct an_regex *result_match;     /* NULL = none */
    struct an_regex *result_not_match; /* NULL = none */
    const char *after;                 /* NULL = none */
    struct an_loc after_loc;
    /* tools.require `source: server`: judged on the calls ananke's tool
     * proxy saw (docs/tools.md), not on those the agent reported */
    bool source_server;
};

/* A tool name (tools.forbid). */
struct an_name {
    const char *name;
    struct an_loc loc;
    enum an_level level;
};

/* tools.sequence (docs/assertions.md "tools.sequence"): the call names
 * of the scope, judged against `names` (at least one; a name written twice
 * needs two calls). */
enum an_seq_mode { AN_SEQ_IN_ORDER = 0, AN_SEQ_EXACT, AN_SEQ_CONTAINS };
struct an_sequence {
    const char **names;
    size_t nnames;
    enum an_seq_mode mode; /* default in_order */
    struct an_loc loc;
    enum an_level level;
};

/* A regex with the level it came from (text.must_match / must_not_match). */
struct an_pattern {
    struct an_regex *re; /* may be shared by every place the same pattern is written */
    enum an_level level;
    struct an_loc loc; /* where this one was written */
};

/* Seed 002's assertion list, as typed checks (docs/assertions.md "Typed
 * checks"). Written in a JSONL case's `assertions` or a YAML block's
 * `checks:`; both load into this, so they judge and fail alike. Each kind
 * is a row of ananke/check_kind.h's table, in this order. */
enum an_check_kind {
    AN_CHECK_CONTAINS = 0,
    AN_CHECK_NOT_CONTAINS,
    AN_CHECK_EQUALS,
    AN_CHECK_REGEX,
    AN_CHECK_JSON_PATH,
    AN_CHECK_TYPE,
    AN_CHECK_TOOL_CALLED,
    AN_CHECK_TOOL_RESULT,
    AN_CHECK_SCRIPT, /* impure: run by run/script_check.c, skipped by an_check() */
    AN_CHECK_AGENT,  /* impure: a judge agent, run by run/judge.c, skipped by an_check() */
    /* seed 004's `expected` kinds (docs/http.md), on a run-case answer */
    AN_CHECK_ACTION_REQUIRED,    /* value: [action_type...], all proposed */
    AN_CHECK_TOOL_SEQUENCE,      /* value: [tool...], calls[i] == value[i] */
    AN_CHECK_RETRIEVAL_REQUIRED, /* value: [doc_id...], all retrieved */
    AN_CHECK_JSON_SCHEMA,        /* value: the schema; `schema` compiled */
    AN_CHECK_EVIDENCE_REQUIRED,  /* actions not low risk cite evidence that exists */
    AN_CHECK_TOOL_EXECUTION,     /* no tool result with a status other than ok */
    AN_CHECK_TASK_STATE,         /* a2a: the task ended in `value` (a state, or a list of
                                    states, normalized at load: docs/a2a.md) */
    AN_CHECK__BUILTIN,           /* kinds from here on are registered (ananke/check_kind.h) */
};

struct an_agent;
struct an_jschema;

struct an_check_item {
    enum an_check_kind kind;
    json_t *value;       /* borrowed from the suite; NULL = not given */
    const char *path;    /* json_path / type: as written ("$.a.b[0]"); NULL = none */
    struct an_regex *re; /* regex */
    bool negate;
    /* what text/JSON checks look at: the agent's text (default), the state
     * after the turn (AG-UI snapshots and deltas applied), or the messages
     * the conversation holds after it */
    enum { AN_OF_OUTPUT = 0, AN_OF_STATE, AN_OF_MESSAGES } of;
    const char *message; /* replaces the finding's label; NULL = none */
    struct an_loc loc;
    enum an_level level;
    /* script: argv, run without a shell in `cwd`, the directory of the file
     * the check is written in (`use: scripts:PATH` is argv {PATH}) */
    const char **argv;
    size_t argc;
    const char *cwd;
    json_t *options; /* borrowed; sent to the script or judge; NULL = none */
    int64_t timeout_ms;
    /* agent: `use: agents:NAME`, resolved against the config's `agents:`
     * once everything is loaded (an unknown name is a load error) */
    const char *agent_name;
    const struct an_agent *agent;
    bool ignore_case;          /* contains / not_contains: `ignore_case: true` */
    struct an_jschema *schema; /* json_schema: compiled at load time (core/jsonschema.h) */
};

/* An AssertBlock (seed 000 "AssertBlock"), as written at one level, or the
 * result of merging levels (an_assert_merge). Arrays accumulate across
 * levels; limits override; `extends` is resolved at load time, so a loaded
 * block already contains what it extends. */
struct an_assert {
    struct an_loc loc; /* the `assert:` key; file NULL for an empty block */
    struct an_name *forbid;
    size_t nforbid;
    struct an_name *allow; /* tools.allow: names or fnmatch globs; the union of all
                              levels is the allowed set; none = no allow-list */
    size_t nallow;
    struct an_sequence *sequences; /* tools.sequence: accumulate like require */
    size_t nsequences;
    struct an_tool_rule *require;
    size_t nrequire;
    struct an_tool_rule *forbid_calls;
    size_t nforbid_calls;
    struct an_pattern *must_match;
    size_t nmust_match;
    struct an_pattern *must_not_match;
    size_t nmust_not_match;
    struct an_limit max_duration_ms;
    struct an_limit max_idle_ms;
    struct an_limit max_gap_ms;
    struct an_limit max_ttft_ms;        /* request sent -> first text delta */
    struct an_limit max_first_event_ms; /* request sent -> first protocol event */
    /* usage.*: token counts the agent reported, summed over the scope; the
     * cost from the agent, or from the config's `prices:` (docs/assertions.md
     * "usage") */
    struct an_limit max_input_tokens, max_output_tokens, max_total_tokens;
    struct an_limit max_cost; /* `amount` holds the limit */
    /* tools.consistent (docs/tools.md): SET when true, DISABLED when false;
     * the nearest level decides, judged turn by turn */
    struct an_limit consistent;
    struct an_check_item *checks; /* accumulate like must_match */
    size_t nchecks;
};

/* A test's or a turn's assert block as the model keeps it: its lists, and
 * its limits only when it sets one. Most blocks set none, and the limits
 * are 400 of a whole block's 544 bytes (docs/performance.md, issue 26).
 * an_assert_expand() gives the whole block; the fields mean what
 * struct an_assert's do. */
#define AN_ASSERT_NLIMITS 10 /* struct an_assert's limits, max_duration_ms .. consistent */
struct an_assert_kept {
    struct an_loc loc;
    struct an_name *forbid;
    size_t nforbid;
    struct an_name *allow;
    size_t nallow;
    struct an_sequence *sequences;
    size_t nsequences;
    struct an_tool_rule *require;
    size_t nrequire;
    struct an_tool_rule *forbid_calls;
    size_t nforbid_calls;
    struct an_pattern *must_match;
    size_t nmust_match;
    struct an_pattern *must_not_match;
    size_t nmust_not_match;
    struct an_check_item *checks;
    size_t nchecks;
    struct an_limit *limits; /* AN_ASSERT_NLIMITS, in struct an_assert's order; NULL: none set */
};

/* The whole block of `kept` in *out; a zero block when kept is NULL. */
void an_assert_expand(const struct an_assert_kept *kept, struct an_assert *out);

struct an_header {
    const char *name;
    struct an_tmpl value;
};

struct an_target_type; /* its row: ananke/target_type.h */

/* ACP permission policies (seed 003): none denies everything, read allows
 * reads, write allows reads and writes, yolo allows all, execute included. */
enum an_perm_policy { AN_PERM_YOLO = 0, AN_PERM_NONE, AN_PERM_READ, AN_PERM_WRITE };

/* What an ACP target runs in Linux namespaces (docs/acp.md "Confinement"):
 * its terminals (the default), the agent too, the agent too with no
 * fallback where namespaces are missing, or nothing. */
enum an_confine_mode {
    AN_CONFINE_TERMINALS = 0,
    AN_CONFINE_AGENT,
    AN_CONFINE_REQUIRED,
    AN_CONFINE_NONE
};

/* What AG-UI stream conformance findings do (docs/agui.md "Stream conformance"):
 * strict fails the turn on a MUST violation, warn makes it a warning, off
 * checks nothing. */
enum an_protocol_mode { AN_PROTOCOL_STRICT = 0, AN_PROTOCOL_WARN, AN_PROTOCOL_OFF };

struct an_env_var {
    const char *name;
    struct an_tmpl value;
};

/* `target.start` (docs/config.md "Starting the agent"): a program ananke
 * starts before the first test and stops (its process group) after the
 * last, as Playwright's webServer does. Exactly one way to tell it is
 * ready. Strings are templates (${ENV.X}); everything is in the arena. */
enum an_ready_kind { AN_READY_URL = 1, AN_READY_PORT, AN_READY_LOG };
struct an_target_start {
    struct an_loc loc;
    struct an_tmpl *cmd; /* program + arguments, never a shell; ncmd >= 1 */
    size_t ncmd;
    enum an_ready_kind ready;
    struct an_tmpl ready_url;   /* AN_READY_URL: any answer but 404 and 5xx */
    unsigned ready_port;        /* AN_READY_PORT: a TCP connect to 127.0.0.1 */
    struct an_regex *ready_log; /* AN_READY_LOG: a line of its output matches */
    struct an_loc ready_loc;
    int64_t timeout_ms;     /* to become ready; default 30000 */
    struct an_env_var *env; /* added to ananke's environment */
    size_t nenv;
    bool reuse_existing; /* a server already there is used, not started */
};

/* A target (`target:` or one of `agents:`): what every protocol has. The
 * rest is its type's own, behind `data`: a struct its row's load() fills
 * (load/target_<type>.h for the built-in types; ananke/target_type.h says
 * how a type is added). */
struct an_target {
    const struct an_target_type *type; /* its row; never NULL once loaded */
    void *data; /* the type's own config (its header says what); NULL: none */
    struct an_loc loc;
    struct an_header *headers;
    size_t nheaders;
    int64_t timeout_ms;                  /* whole turn; default 30000 */
    struct an_assert assert;             /* level AN_LEVEL_TARGET */
    const struct an_target_start *start; /* NULL: ananke starts nothing */
};

/* A helper agent (`agents:` in the config): a judge, simulator or
 * generator, addressed as `agents:NAME`. */
struct an_agent {
    const char *name;
    struct an_loc loc;
    struct an_target target;
};

struct an_named_assert {
    const char *name;
    struct an_assert block;
};

/* What a model's tokens cost, per million (`prices:` in the config). */
struct an_price {
    const char *model; /* as the agent reports it, or "*": any other model */
    double input_per_mtok, output_per_mtok;
    struct an_loc loc;
};

/* `tool_servers:` one MCP server the agent uses, served to it through
 * ananke's proxy (docs/tools.md). Strings borrowed from the suite. */
/* tool_servers.NAME.ignore_args's entry for one tool (docs/tools.md
 * "Record and replay"): paths in the args_match syntax, "*" a wildcard. */
struct an_tool_ignore {
    const char *tool;
    const char **paths;
    size_t npaths;
};

struct an_tool_server {
    const char *name;
    struct an_loc loc;
    const char **command; /* upstream.command: program and arguments; NULL: none */
    size_t ncommand;
    const char *endpoint;                       /* upstream.endpoint: Streamable HTTP; NULL: none */
    const char **header_names, **header_values; /* upstream.headers */
    size_t nheaders;
    /* one request to the upstream, sent -> answered (0: 60000), and one
     * message either way: a request's body, an HTTP upstream's answer
     * (0: 32 MiB) */
    int64_t timeout_ms, max_body_bytes;
    /* ignore_args: {TOOL: [paths]}, the arguments left out when a call is
     * matched against a recorded one (--replay-tools), and
     * replay_max_bytes: the cap on its recorded traffic file (0: 64 MiB) */
    struct an_tool_ignore *ignore_args;
    size_t nignore_args;
    int64_t replay_max_bytes;
};

/* `otlp:` (docs/otel.md): where each test goes as an OpenTelemetry trace.
 * Borrowed from the suite. */
#define AN_OTLP_TIMEOUT_MS_DEFAULT 10000
#define AN_OTLP_MAX_BATCH_BYTES_DEFAULT (4 * 1024 * 1024)
#define AN_OTLP_MAX_ATTRIBUTE_BYTES_DEFAULT 4096
struct an_otlp_config {
    bool present;               /* the config has `otlp:` */
    const char *endpoint;       /* NULL: none (then --otlp gives it) */
    const char **header_names;  /* sent with each export */
    const char **header_values; /* ${ENV} references, filled at run time */
    size_t nheaders;
    const char *protocol;        /* "http/protobuf" (default) or "http/json" */
    const char *tracestate;      /* W3C tracestate sent with traceparent; NULL: none */
    const char *service_name;    /* the resource's service.name; NULL: "ananke" */
    int64_t timeout_ms;          /* one export request; 0: AN_OTLP_TIMEOUT_MS_DEFAULT */
    int64_t max_batch_bytes;     /* one request's body; 0: the default */
    int64_t max_attribute_bytes; /* one attribute's value; 0: the default */
    struct an_loc loc;           /* the `otlp:` block */
    struct an_loc endpoint_loc;  /* its `endpoint` value */
    struct an_loc *header_locs;  /* each header's value */
};

struct an_config {
    const char *path; /* as given or found */
    const char *dir;  /* the project root: hooks run here */
    /* sha256 (32 bytes) of the config's bytes as loaded, in the suite's
     * arena; NULL: none loaded */
    const unsigned char *digest;
    const char *version;
    struct an_target target;
    struct an_named_assert *assertions; /* `assertions:` reusable blocks */
    size_t nassertions;
    struct an_agent *agents; /* `agents:` helper agents */
    size_t nagents;
    struct an_price *prices; /* `prices:` per model, for usage.max_cost */
    size_t nprices;
    /* warnings of one kind kept per turn, 10 times as many in all
     * (an_turn_warn); 0: AN_DEFAULT_MAX_WARNINGS */
    int64_t max_warnings;
    /* each text the run history stores (a name, a finding, the command
     * line) is cut there; 0: AN_HISTORY_TEXT_MAX_DEFAULT (ananke/history.h) */
    int64_t max_history_text_bytes;
    struct an_tool_server *tool_servers; /* `tool_servers:` */
    size_t ntool_servers;
    struct an_otlp_config otlp; /* `otlp:` */
    /* `view:` (docs/view.md): the caps of `ananke view`; 0: the default
     * (AN_VIEW_*_DEFAULT in ananke/view.h) */
    struct {
        int64_t max_rows, max_page_bytes, max_results_bytes, max_connections, idle_timeout_ms;
    } view;
};

struct an_hook {
    struct an_tmpl *argv; /* each element a template; executed without a shell */
    size_t argc;
    int64_t timeout_ms; /* default 30000 */
    /* stdout (past it the hook fails) and stderr kept; 0: 1 MiB, 64 KiB */
    int64_t max_stdout_bytes, max_stderr_bytes;
    struct an_loc loc;
};

enum an_turn_type {
    AN_TURN_USER = 0,
    AN_TURN_AGUI_CONNECT,
    AN_TURN_MCP_CALL,
    AN_TURN_MCP_LIST,
    AN_TURN_MCP_READ,
    AN_TURN_MCP_PROMPT,
    AN_TURN_A2A_SEND
};

/* What an mcp:call / mcp:list / mcp:read / mcp:prompt turn sends (docs/mcp.md). */
struct an_mcp_turn {
    struct an_tmpl tool;           /* mcp:call */
    struct an_tmpl prompt;         /* mcp:prompt: the prompt's name */
    struct an_json_tmpl arguments; /* mcp:call, mcp:prompt (strings); value NULL: none sent */
    const char *what;              /* mcp:list: "tools", "resources", "prompts", "templates" */
    struct an_tmpl uri;            /* mcp:read */
    bool allow_error;              /* a JSON-RPC error answer is recorded, not a broken turn */
};

/* `tool_mocks:` one rule (docs/tools.md "Stubs and faults"): a tools/call
 * through the proxy that matches tool, server and args_match is answered
 * by it. Borrowed from the suite. */
enum an_fault_kind {
    AN_FAULT_NONE = 0,
    AN_FAULT_ERROR,      /* a JSON-RPC error: code, message */
    AN_FAULT_TIMEOUT,    /* no answer for after_ms, then error -32001 */
    AN_FAULT_DISCONNECT, /* the connection closed, no answer */
    AN_FAULT_MALFORMED,  /* an answer that is not JSON */
    AN_FAULT_TRICKLE,    /* the upstream's answer, bytes_per_s at a time */
};
struct an_tool_mock {
    const char *tool;
    const char *server; /* NULL: any tool server */
    struct an_arg_match *args;
    size_t nargs;
    json_t **results; /* result: one; results: successive calls, the last repeats */
    size_t nresults;
    enum an_fault_kind fault;
    int64_t code, after_ms, bytes_per_s;
    const char *message;
    bool passthrough;
    struct an_loc loc;
};

struct an_turn {
    enum an_turn_type type;
    struct an_loc loc;
    struct an_tmpl user;     /* AN_TURN_USER; AN_TURN_A2A_SEND's `message` (src NULL: none) */
    struct an_mcp_turn *mcp; /* AN_TURN_MCP_*; NULL for the others */
    /* the user message's content parts when it has attachments (AG-UI
     * ContentPart[]: text and image/audio/video/document parts, files
     * already read); NULL = text only. AN_TURN_A2A_SEND: its A2A `parts`.
     * Borrowed from the suite. */
    json_t *parts;
    /* level AN_LEVEL_TURN; NULL: the turn has none (an empty block). Most
     * turns and tests write none: only the ones written are allocated, and
     * kept compact (docs/performance.md, issue 26) */
    struct an_assert_kept *assert;
    struct an_tool_mock *tool_mocks; /* `tool_mocks:` of the turn */
    size_t ntool_mocks;
    int tool_mocks_strict; /* 0: not said; 1: false; 2: true */
};

/* A checkpoint of a dynamic test (seed 002 "Dynamic Mode"): what the agent
 * must achieve at some turn. Its checks (typed checks, judges included) are
 * judged against one turn at a time; all must hold on the same turn. */
struct an_checkpoint {
    const char *id;
    const char *description; /* NULL = none */
    struct an_assert blk;    /* the checks (level AN_LEVEL_TURN) */
    const char **after;      /* ids that must be reached on an earlier or the same turn */
    size_t nafter;
    bool required; /* default true */
    struct an_loc loc;
};

/* A dynamic test: a simulator agent plays the user until every required
 * checkpoint is reached, the simulator says the goal is achieved, or
 * max_turns / timeout end it (docs/dynamic.md). */
struct an_dynamic {
    const char *simulator_name; /* `simulator.use`; NULL: --simulator */
    struct an_loc simulator_loc;
    const struct an_agent *simulator; /* resolved once the config is known */
    json_t *simulator_options;        /* `simulator.options` (metadata: persona, goal ...); NULL */
    const char *first_input;          /* the first user message; NULL: the simulator writes it */
    struct an_checkpoint *checkpoints;
    size_t ncheckpoints;
    int64_t max_turns;  /* default 20 */
    int64_t timeout_ms; /* default 300000 */
    struct an_loc loc;
};

struct an_test {
    const char *file; /* path of the test file, as loaded */
    /* sha256 (32 bytes) of the file's bytes as the loader read them, in the
     * suite's arena; NULL: not taken (the history then reads the file) */
    const unsigned char *file_sum;
    const char *version;
    const char *name; /* JSONL: "ID — NAME", or "ID" without a name */
    const char *id;   /* JSONL: the case's id; NULL for YAML tests */
    struct an_loc loc;
    struct an_hook *hooks;
    size_t nhooks;
    struct an_turn *turns;
    size_t nturns;
    struct an_assert_kept *assert; /* level AN_LEVEL_TEST; NULL: none, as a turn's */
    /* Messages before the first turn (JSONL `input` arrays, `messages`):
     * AG-UI message objects {id, role, content, toolCalls?, toolCallId?},
     * sent in the first run. NULL = none. Borrowed from the suite. */
    json_t *history;
    json_t *options;         /* JSONL `options`: merged over forwardedProps; NULL = none */
    int64_t timeout_ms;      /* JSONL `timeout`: the turn limit; 0 = the target's */
    bool skip;               /* `skip: true` or `skip: "reason"`: loaded and listed, never run */
    const char *skip_reason; /* the reason `skip:` gave; NULL: none */
    /* `tags:` (docs/cli.md "Choosing what runs"): deduplicated, in the order
     * written; --tag / --exclude-tag select on them */
    const char **tags;
    size_t ntags;
    bool only;                       /* `only: true`: the run keeps the `only` tests alone */
    struct an_loc only_loc;          /* where it is written (--forbid-only names it) */
    struct an_dynamic *dyn;          /* a dynamic test (no turns of its own); NULL = static */
    struct an_tool_mock *tool_mocks; /* `tool_mocks:` of the test */
    size_t ntool_mocks;
    int tool_mocks_strict; /* 0: not said; 1: false; 2: true */
};

struct an_suite_arena; /* private */

struct an_suite {
    struct an_config config;
    struct an_test *tests;
    size_t ntests;
    struct an_suite_arena *mem;
};

void an_suite_free(struct an_suite *s); /* NULL-safe; frees s too */

/* Human name of an assertion level ("target", "test", "turn"). */
const char *an_level_name(enum an_level level);

#endif
