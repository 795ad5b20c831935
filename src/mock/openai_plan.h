/*
 * OpenAI mock: turn a scripted reply into the exact bytes of one answer —
 * a `chat.completion` object, or a `chat.completion.chunk` stream as a
 * mock_plan — and the other bodies the mock sends (model list, errors).
 *
 * Everything a test asserts on the wire is decided here, in plain code the
 * unit tests can call without a socket. Returned strings are malloc'd and
 * owned by the caller.
 */
#ifndef ANANKE_MOCK_OPENAI_PLAN_H
#define ANANKE_MOCK_OPENAI_PLAN_H

#include <stdbool.h>
#include <stddef.h>

#include "mock_plan.h"
#include "openai_scenario.h"

/* What of the request (and of the moment) an answer echoes. */
struct oai_answer {
    const char *model;     /* echoed as `model` */
    bool include_usage;    /* stream: usage: null on every chunk, then a usage chunk */
    unsigned long seq;     /* answer number: id chatcmpl-mock-<seq>, calls call_<seq>_<n> */
    long long created;     /* Unix seconds */
    size_t prompt_words;   /* the default prompt_tokens */
    const char *user_text; /* last user text, for the built-in answer */
    size_t user_text_len;
};

/* The non-stream answer of `rule` (a 2xx rule with a reply), or of the
 * built-in "no rule matched: <text>" reply when rule is NULL: compact
 * chat.completion JSON. */
char *oai_render_completion(const struct oai_rule *rule, const struct oai_answer *in, size_t *len);

/* The stream of `rule` (a 2xx rule with a reply or raw bytes), or of the
 * built-in reply when rule is NULL, into `p` (which must be empty): SSE
 * `data: <chunk>` events, then `data: [DONE]`; a scripted cut or stall
 * replaces the rest after its chunk. */
void oai_render_stream(struct mock_plan *p, const struct oai_rule *rule,
                       const struct oai_answer *in);

/* The /v1/models list of the scenario's models. */
char *oai_render_models(const struct oai_scenario *s, size_t *len);

/* {"error":{"message","type","param","code"}}; param and code may be NULL
 * (sent as null). */
char *oai_render_error(const char *message, const char *type, const char *param, const char *code,
                       size_t *len);

#endif
