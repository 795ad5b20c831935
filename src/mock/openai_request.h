/*
 * What the OpenAI mock reads from a chat-completions request body: the
 * model, whether to stream (and send usage), whose turn it is, the text of
 * the last user message for the rules' `match`, and a word count of the
 * prompt for the default usage.
 *
 * Like the API, it refuses a body without a `messages` array (400); beyond
 * that it is lenient: what the client really sent is in the --requests log
 * for the test to judge.
 */
#ifndef ANANKE_MOCK_OPENAI_REQUEST_H
#define ANANKE_MOCK_OPENAI_REQUEST_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "openai_scenario.h"

struct oai_request {
    struct oai_request_view view; /* strings borrowed from the body, or text_owned */
    bool stream;                  /* "stream": true */
    bool include_usage;           /* "stream_options": {"include_usage": true} */
    size_t prompt_words;          /* whitespace-separated words of every message's text */
    char *text_owned;             /* user text joined from content parts; freed by release */
};

/* Why a request is refused, as the API words it. */
struct oai_request_error {
    char message[160];
    const char *param; /* the offending parameter */
    const char *code;  /* the API's error code */
};

/* Read `body` (a JSON object, borrowed for the request's lifetime). The
 * turn is the role of the last message: user, tool (or the legacy
 * function), or other; for a tool turn, tool_name is the function of the
 * earlier assistant tool call whose id is the message's tool_call_id. A
 * message's text is its content string, or the `text` of its
 * {"type":"text"} parts joined with "\n". Returns 0, or -1 with `why` filled
 * when the request must be answered 400. Release either way. */
int oai_request_read(struct oai_request *rq, const json_t *body, struct oai_request_error *why);
void oai_request_release(struct oai_request *rq);

/* Whitespace-separated words in s[0..n): the mock's token count. */
size_t oai_count_words(const char *s, size_t n);

#endif
