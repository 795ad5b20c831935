/*
 * Transcript: what an agent did during a test, in one protocol-neutral shape.
 *
 * Adapters (proto/) fill it; checks (check/) and reports read it. A test's
 * transcript holds every tool call of every turn in arrival order, and one
 * record per turn with its slice of those calls, its assistant text, its
 * timing and its raw frames.
 *
 * Times are Unix milliseconds derived from a monotonic clock
 * (an_clock_unix_ms), so differences never go backwards.
 *
 * Ownership: the transcript owns every string, JSON value and array in it
 * (malloc / jansson references). an_transcript_free() releases all of it.
 */
#ifndef ANANKE_TRANSCRIPT_H
#define ANANKE_TRANSCRIPT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct an_warn_kinds;

struct an_tool_call {
    char *id;
    char *name;
    char *args_text; /* the concatenated argument text as streamed */
    /* The parsed args_text. Read it with an_tool_call_args(), never here:
     * while args_lazy it is not built yet. Only the producer that sets it
     * and the transcript's release touch the field. */
    json_t *args;
    char *args_error;  /* why args_text did not parse; NULL when it did */
    bool args_lazy;    /* args_text is known to be valid JSON (or blank: {}),
                          args is not built yet (an_tool_call_parse_args) */
    bool args_done;    /* TOOL_CALL_END seen */
    json_t *result;    /* NULL until a result arrives (frontend tools have none) */
    unsigned turn;     /* 0-based turn index */
    int64_t start_ms;  /* first event of the call */
    int64_t end_ms;    /* args complete (TOOL_CALL_END), or last args event */
    int64_t result_ms; /* result arrival; 0 = none */
    int64_t ts_ms;     /* "completed": result_ms if any, else end_ms */
    char *status;      /* the agent's word for how the call went ("ok", "error",
                          "timeout"; seed 004's tool_result status); NULL: not said */
};

/* A raw protocol frame, kept for evidence and `-v`. */
struct an_frame {
    int64_t t_ms;
    char *data; /* one SSE event's data, one JSON-RPC line ... */
};

enum an_turn_status {
    AN_TURN_OK = 0,
    AN_TURN_ERROR,   /* transport or protocol failure: the run is broken */
    AN_TURN_NOT_RUN, /* an earlier turn stopped the test */
};

struct an_turn_rec {
    unsigned index;
    const char *kind;    /* "user", "agui:connect"; static string */
    char *input;         /* the interpolated user message; NULL for connect */
    json_t *input_parts; /* its content parts when it has attachments (AG-UI
                            ContentPart[], a reference held); NULL: text only */
    char *run_id;
    int64_t start_ms; /* request sent */
    int64_t end_ms;   /* stream finished */
    /* the first protocol event and the first assistant text delta of the
     * turn, on start_ms's clock; 0: none came (timing.max_first_event_ms,
     * timing.max_ttft_ms) */
    int64_t first_event_ms, first_text_ms;
    char *text;                /* assistant text of the turn, deltas concatenated */
    size_t first_call, ncalls; /* slice of an_transcript.calls */
    json_t *state;             /* state after the turn (snapshots/deltas applied); may be NULL */
    json_t *messages;          /* the conversation's messages after the turn (AG-UI); may be NULL */
    enum an_turn_status status;
    int error_code; /* enum an_code when status == AN_TURN_ERROR */
    char *error;    /* message when status == AN_TURN_ERROR */
    int http_status;
    struct an_frame *frames;
    size_t nframes, cap_frames;
    size_t events;    /* protocol frames that arrived, kept or not */
    bool drop_frames; /* count frames but keep none (no report needs them) */
    /* AG-UI: no one reads the conversation after this turn (the test's
     * last turn, no check `of: messages`, no report keeping transcripts):
     * the run's messages are not merged into it and `messages` stays NULL */
    bool drop_messages;
    char **warnings;  /* non-fatal oddities (unknown events, bad args JSON ...) */
    size_t nwarnings, cap_warnings;
    /* an_turn_warn keeps the first max_warnings of a kind (0:
     * AN_DEFAULT_MAX_WARNINGS) and 10 times as many in all; the rest are
     * counted here, and in one line per kind ("and K more warnings like
     * ...") that takes the place of the first one dropped */
    size_t max_warnings, warnings_dropped;
    struct an_warn_kinds *warn_kinds; /* private to transcript.c */
    unsigned retries;                 /* transport retries before this turn's answer (--retries) */
    char **retry_log; /* why each retry happened: "HTTP 503, retried after 210 ms" */
    /* seed 004's run-case answer (an http target; NULL for the others): */
    json_t *response;   /* the answer's JSON body, as sent */
    json_t *actions;    /* its proposed_actions (an array) */
    json_t *retrievals; /* its `retrieval` events, in order (an array) */
    json_t *failure;    /* why the attempt failed: {class: http_error | timeout |
                           network_error | invalid_json, kind?, status?, body_snippet?,
                           attempt, timeout_ms, latency_ms}; NULL: it did not */
    /* an a2a target's task (docs/a2a.md): {id, contextId, state, states:
     * [{state, t_ms}]}, states spelled "completed", "input-required" ...;
     * NULL when the agent answered with a message, or for other targets */
    json_t *task;
    /* the token usage the agent reported for the turn (AG-UI
     * RUN_FINISHED.usage, OpenAI `usage`, ACP PromptResponse.usage and
     * usage_update.cost): an array of {model?, input_tokens?, output_tokens?,
     * total_tokens?, cost?, cost_source?}, one per report, counts left out
     * when not reported (absent is not 0); NULL: nothing reported */
    json_t *usage;
    /* the tools/call requests ananke's tool proxy answered during the turn
     * (docs/tools.md): [{server, name, arguments, result, is_error,
     * start_ms, end_ms, mocked}]; NULL when no tool server is configured */
    json_t *server_calls;
    /* W3C trace context the turn's requests carry (docs/otel.md):
     * "00-TRACEID-SPANID-01", SPANID being the turn's span in its test's
     * trace; "" when the run exports no traces (--otlp) */
    char traceparent[56];
};

struct an_transcript {
    struct an_tool_call *calls;
    size_t ncalls, cap_calls;
    struct an_turn_rec *turns;
    size_t nturns, cap_turns;
    int64_t start_ms, end_ms;
};

/* A read-only window over part of a transcript: one turn, or the whole test.
 * This is what checks are evaluated on. Borrowed from the transcript. */
struct an_scope {
    const struct an_tool_call *calls;
    size_t ncalls;
    const char *text; /* for a test: turn texts joined with "\n" */
    int64_t start_ms, end_ms;
    int64_t first_event_ms, first_text_ms; /* a turn's (an_turn_rec); 0 for a test */
    int turn;                              /* 0-based turn index, or -1 for the whole test */
    /* seed 004's run-case answer (see an_turn_rec); NULL when the turn has
     * none. For the whole test: the last turn that has one (an http test
     * has one turn). */
    const json_t *actions, *retrievals;
    const json_t *output; /* final_output.content as sent (a string or any JSON) */
    /* an a2a target's task (see an_turn_rec); for the whole test: the last
     * turn's. NULL: none */
    const json_t *task;
    /* the state and the messages after the turn (for the whole test: the
     * last turn's); NULL when the protocol has none */
    const json_t *state, *messages;
    /* the turns the scope covers (one, or every turn of the test), for
     * what is summed over them (usage) */
    const struct an_turn_rec *turns;
    size_t nturns;
};

void an_transcript_init(struct an_transcript *t);
void an_transcript_release(struct an_transcript *t);

/* Give back the room calls[] and turns[] hold beyond their counts: a
 * transcript kept for the reports once its test is over (a test's one call
 * held room for eight). Adding to it afterwards still works. */
void an_transcript_fit(struct an_transcript *t);

/* Append a turn record (zeroed except index/kind) and return it. */
struct an_turn_rec *an_transcript_add_turn(struct an_transcript *t, const char *kind);
/* Append a tool call (zeroed except turn) and return it. Pointers into
 * calls[] are invalidated by the next add; keep indexes, not pointers. */
struct an_tool_call *an_transcript_add_call(struct an_transcript *t, unsigned turn);
/* The parsed arguments of a call: NULL when args_text is not valid JSON
 * (args_error says why). When the producer only checked the text
 * (args_lazy), the first call builds the tree from args_text and caches it
 * in the call, so the call changes under its const: a transcript is read
 * by one thread at a time. Borrowed from the call. */
const json_t *an_tool_call_args(const struct an_tool_call *tc);
/* Judge tc->args_text as a decoder does when a call's arguments are
 * complete, dropping what an earlier judgment left: blank text is {}, valid
 * JSON is kept for an_tool_call_args() to parse on first read (args_lazy),
 * and other text leaves no tree and its reason in args_error (a copy of
 * what goes in `why`). Returns false when the text is not valid JSON, for
 * the caller to warn with `why`. */
bool an_tool_call_parse_args(struct an_tool_call *tc, char *why, size_t why_cap);
/* Forget calls[from..]: what a failed attempt of a turn recorded. */
void an_transcript_drop_calls(struct an_transcript *t, size_t from);
/* Note a protocol event / a piece of assistant text at t_ms: the first of
 * each is kept. Adapters call these as the stream arrives. */
void an_turn_mark_event(struct an_turn_rec *r, int64_t t_ms);
void an_turn_mark_text(struct an_turn_rec *r, int64_t t_ms);
void an_turn_add_frame(struct an_turn_rec *r, int64_t t_ms, const char *data, size_t len);
/* Add a warning, unless max_warnings of its kind (the message with its
 * numbers and its quoted parts left out) are there already: then it is
 * counted (warnings_dropped) in the kind's "and K more" line. */
#define AN_DEFAULT_MAX_WARNINGS 100
void an_turn_warn(struct an_turn_rec *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Count n warnings dropped before the record was read (results.json). */
void an_turn_warn_dropped(struct an_turn_rec *r, size_t n);
void an_turn_fail(struct an_turn_rec *r, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Forget a failed attempt of the turn (text, frames, warnings, error,
 * status) before it is sent again; its input and retry log stay. */
void an_turn_reset(struct an_turn_rec *r);
/* Keep a run-case answer (its reference is taken) and what checks read
 * from it: proposed_actions (an empty array when absent or not a list) and
 * the `retrieval` events. */
void an_turn_set_response(struct an_turn_rec *r, json_t *response);
/* Add one usage report to the turn; negative counts and a negative cost
 * mean "not reported". `model` may be NULL. */
void an_turn_add_usage(struct an_turn_rec *r, const char *model, int64_t input, int64_t output,
                       int64_t total, double cost);
void an_turn_retry(struct an_turn_rec *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* Scopes. The test scope's text (s.text) is the turns' texts joined: built
 * into *joined (caller frees), or, when the first turn is the only one that
 * ran, that turn's own text lent (valid while the transcript is; *joined is
 * then NULL). */
struct an_scope an_scope_turn(const struct an_transcript *t, size_t turn);
struct an_scope an_scope_test(const struct an_transcript *t, char **joined);

/* Transcript as JSON (for the json reporter and recordings). New reference. */
json_t *an_transcript_to_json(const struct an_transcript *t, bool with_frames);

#endif
