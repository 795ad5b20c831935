/*
 * Shared by the AG-UI decoder's unit tests (test_agui_decode.c: one turn's
 * events; test_agui_history.c: the conversation across turns): a decoder
 * fed event sequences (the JSON an agent would send) as turns of one
 * transcript, event i arriving at AT(i); the events written in one line.
 */
#ifndef ANANKE_TEST_AGUI_TURNS_H
#define ANANKE_TEST_AGUI_TURNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "ananke/transcript.h"
#include "proto/agui_decode.h"

#define T0 1000
#define AT(i) (T0 + 10 * (i))

struct agui_fx {
    struct an_agui_conv conv;
    struct an_transcript t;
    json_t *input; /* RunAgentInput of the last turn */
    int last_rc;   /* what an_agui_dec_event returned last */
    size_t fed;    /* events the decoder accepted before stopping */
    size_t max_calls;
    uint64_t max_state; /* max_state_bytes; 0: the default */
    int protocol;       /* enum an_protocol_mode for the next turns */
    bool drop_messages; /* the next turns' records say no one reads the conversation */
};

/* cmocka's setup and teardown: *state is a struct agui_fx */
int agui_fx_setup(void **state);
int agui_fx_teardown(void **state);
/* One turn: `events` is NULL-terminated (user NULL: a connect turn); `cut`
 * as an_agui_dec_finish takes. The turn's record. */
struct an_turn_rec *agui_turn_cut(struct agui_fx *f, const char *user, const char *const *events,
                                  const char *cut);
struct an_turn_rec *agui_turn(struct agui_fx *f, const char *user, const char *const *events);
void agui_assert_ok(const struct an_turn_rec *r);
void agui_assert_failed(const struct an_turn_rec *r, int code, const char *needle);
bool agui_has_warning(const struct an_turn_rec *r, const char *needle);

#define STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define TSTART(id)                                                                                 \
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"" id "\",\"role\":\"assistant\"}"
#define TCONT(id, d)                                                                               \
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"" id "\",\"delta\":\"" d "\"}"
#define TEND(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"
#define CSTART(id, name)                                                                           \
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name "\"}"
#define CSTARTP(id, name, parent)                                                                  \
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"" id "\",\"toolCallName\":\"" name             \
    "\",\"parentMessageId\":\"" parent "\"}"
#define CARGS(id, d) "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"" id "\",\"delta\":\"" d "\"}"
#define CEND(id) "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"" id "\"}"

#endif
