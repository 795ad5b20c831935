/*
 * OpenAI chat completions apart from HTTP, private to src/lib/proto:
 *   openai_msgs.c    the request body: AG-UI history converted to
 *                    chat-completions messages, tools, params;
 *   openai_stream.c  one answer assembled from its stream chunks (or its
 *                    single JSON body), and the error an API put in a body.
 * No I/O and no clock (times are passed in), so unit tests drive both with
 * plain strings; openai.c is the session that sends and records.
 *
 * Ownership: every function returning json_t * returns a new reference;
 * an answer owns its strings and buffers until an_oai_answer_release().
 */
#ifndef ANANKE_PROTO_OPENAI_INT_H
#define ANANKE_PROTO_OPENAI_INT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "core/buf.h"
#include "proto/adapter.h"

/* Tool calls one answer may carry: a stream naming call index 10^6 is
 * broken, not busy. */
#define AN_OAI_MAX_CALLS 10000

/* ---- answers (openai_stream.c) ---- */

/* One tool call, assembled from the deltas that share its `index`. */
struct an_oai_call {
    long long index;    /* the deltas' index; position in a non-stream answer */
    char *id;           /* from the first delta that had one; NULL: none sent */
    char *name;         /* likewise */
    struct an_buf args; /* `arguments` pieces concatenated */
    int64_t start_ms;   /* first delta */
    int64_t last_ms;    /* last delta */
};

struct an_oai_answer {
    char *id;                  /* the completion's id ("chatcmpl-..."); NULL: none */
    struct an_buf text;        /* content (and refusal) pieces concatenated */
    struct an_oai_call *calls; /* in order of first appearance */
    size_t ncalls, cap_calls;
    char *finish_reason; /* choices[0].finish_reason; NULL until one came */
    json_t *usage;       /* the last `usage` object; NULL: none came */
    char *model;         /* the model that answered, as it says; NULL: not said */
    bool done;           /* `data: [DONE]` (a non-stream answer: parsed) */
    bool has_choice;     /* some chunk carried choices[0] */
    uint64_t nchunks;    /* data events seen, [DONE] included */
    uint64_t after_done; /* data events after [DONE], ignored */
    size_t max_calls;    /* the target's max_tool_calls; 0: AN_OAI_MAX_CALLS */
};

void an_oai_answer_init(struct an_oai_answer *a);
void an_oai_answer_release(struct an_oai_answer *a); /* then init again to reuse */

/* One SSE event's data (a chat.completion.chunk, or "[DONE]") at t_ms.
 * Returns AN_OK, or fills err and returns:
 *   AN_EPROTO  not JSON, not an object, or a member of the wrong type
 *              ("chunk #3 is not valid JSON (...): <start of the data>");
 *   AN_ERUN    the chunk is an API error object ({"error": {...}});
 *   AN_ELIMIT  more than max_calls tool calls (max_tool_calls).
 * Chunks after [DONE] are counted in after_done and otherwise ignored. */
int an_oai_chunk(struct an_oai_answer *a, const char *data, size_t len, int64_t t_ms,
                 struct an_err *err);

/* The body ended. AN_OK when it reached [DONE] having carried a choice;
 * else AN_EPROTO and why: no chunk at all, cut before finish_reason, cut
 * after it but before [DONE], or [DONE] without any choice. */
int an_oai_stream_end(const struct an_oai_answer *a, struct an_err *err);

/* A whole non-stream answer (a chat.completion) arrived at t_ms: the text
 * and tool calls of choices[0].message. Errors as an_oai_chunk, plus
 * AN_EPROTO for an answer without choices or without a message. */
int an_oai_parse_body(struct an_oai_answer *a, const char *body, size_t len, int64_t t_ms,
                      struct an_err *err);

/* The message an API put in an error body: error.message, an `error`
 * string, or a top-level message / detail. The body may be cut short (only
 * its start is kept): the message is then read up to the cut, "..." added.
 * NULL when there is none; the caller frees. */
char *an_oai_error_message(const char *body, size_t len);

/* Up to 80 bytes of data as one printable line ("..." when cut), for error
 * messages. */
void an_oai_snippet(char *out, size_t cap, const char *data, size_t len);

/* ---- messages and the request (openai_msgs.c) ---- */

/* AG-UI history messages ({id, role, content, toolCalls?, toolCallId?,
 * name?}) as chat-completions messages. `activity` and `reasoning`
 * messages are dropped (they never go back to a model). NULL when a
 * message cannot be converted: err (AN_ESCHEMA) names it and why. */
json_t *an_oai_msgs_from_agui(const json_t *history, struct an_err *err);

/* AG-UI content (a string, or parts) as chat-completions content: text
 * parts stay, a `binary` part (mimeType, data or url, filename) and the
 * 1.0 image / audio / document parts (source {type, value, mimeType})
 * become image_url, input_audio or file parts. `where` names the message
 * in errors ("history message #2"). NULL + err (AN_ESCHEMA) when a part has
 * no chat-completions form. */
json_t *an_oai_content_from_agui(const json_t *content, const char *where, struct an_err *err);

/* [{type:"function", function:{name, description?, parameters}}]. */
json_t *an_oai_tools_json(const struct an_openai_tool *tools, size_t n);

/* The request: model, messages (borrowed into the result: serialise it
 * before the conversation changes), stream (+ stream_options
 * {include_usage:true}), tools when `tools` is a non-empty array, then
 * every member of params (a member set to null removes that key, e.g.
 * stream_options for servers that reject it). */
json_t *an_oai_request(const char *model, json_t *messages, bool stream, const json_t *tools,
                       const json_t *params);

/* The assistant message of an answer for the conversation: content (NULL
 * when empty and there are tool calls), tool_calls with each call's id,
 * name and arguments text. Calls must have ids (the session names those
 * the server left without). */
json_t *an_oai_assistant_msg(const struct an_oai_answer *a);

#endif
