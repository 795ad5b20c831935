/*
 * What the HTTP mocks read from a chat message of a request body (an AG-UI
 * or OpenAI `messages` item): its text, for the rules' `match` and for
 * counting words. Both protocols put it in `content`, as a string or as a
 * list of parts of which the {"type":"text"} ones carry the text.
 */
#ifndef ANANKE_MOCK_MESSAGE_H
#define ANANKE_MOCK_MESSAGE_H

#include <jansson.h>
#include <stddef.h>

/* The text of `msg`: its content string (borrowed from msg), or the `text`
 * of its text parts joined with "\n" (then also in *owned, which the caller
 * frees), or "" for any other content. *len counts the bytes (a JSON string
 * may hold a NUL); *owned is NULL unless the text was joined. */
const char *mock_message_text(const json_t *msg, size_t *len, char **owned);

#endif
