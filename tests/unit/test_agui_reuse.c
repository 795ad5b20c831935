/*
 * What the AG-UI decoder keeps from one run to the next and how it builds
 * the next request: a thread's reused decoder starts as a new one would, the
 * id maps hold short (in-slot) and long keys through growth and clearing, a
 * request body is the compact text of the input object, and merging a run
 * into a short (searched) or long (indexed) history gives the same result.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/transcript.h"
#include "core/json.h"
#include "proto/agui_dec_int.h"
#include "proto/agui_decode.h"

/* One run decoded with a fresh conversation and transcript, as the
 * benchmark and the adapter do per HTTP response; `history` (may be NULL)
 * seeds the conversation. Returns the history after the run as compact
 * text, with r's text and first call's args_text appended. */
static char *run(const char *const *events, const char *history)
{
    struct an_agui_conv conv;
    struct an_transcript t;
    struct an_agui_dec *d;
    an_agui_conv_init(&conv, "thread-1", NULL, NULL);
    if (history) {
        json_t *h = json_loads(history, 0, NULL);
        assert_non_null(h);
        an_agui_conv_seed(&conv, h);
        json_decref(h);
    }
    an_transcript_init(&t);
    an_transcript_add_turn(&t, "user");
    an_agui_dec_new(&d, &conv, &t, 0);
    for (size_t i = 0; events[i]; i++)
        if (an_agui_dec_event(d, events[i], strlen(events[i]), 1000))
            fail_msg("event %zu refused: %s", i, t.turns[0].error);
    an_agui_dec_finish(d, NULL);
    an_agui_dec_free(d);
    const struct an_turn_rec *r = &t.turns[0];
    if (r->status != AN_TURN_OK)
        fail_msg("turn failed: %s", r->error);
    char *h = an_json_compact(conv.messages);
    size_t n = strlen(h) + strlen(r->text) + 64 + (t.ncalls ? strlen(t.calls[0].args_text) : 0);
    char *out = malloc(n);
    snprintf(out, n, "%s|%s|%s", h, r->text, t.ncalls ? t.calls[0].args_text : "-");
    free(h);
    an_transcript_release(&t);
    an_agui_conv_release(&conv);
    return out;
}

#define STARTED "{\"type\":\"RUN_STARTED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define FINISHED "{\"type\":\"RUN_FINISHED\",\"threadId\":\"thread-1\",\"runId\":\"run-1\"}"
#define TEND(id) "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"" id "\"}"

#define TSTART_FMT                                                                                 \
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m-%zu\",\"role\":\"assistant\"}"
#define TCONT_FMT "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m-%zu\",\"delta\":\"%s\"}"
#define TEND_FMT "{\"type\":\"TEXT_MESSAGE_END\",\"messageId\":\"m-%zu\"}"

static const char *const big_run[] = {
    STARTED,
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m-1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m-1\",\"delta\":\"first run, first "
    "message, long enough to leave text in a kept buffer\"}",
    TEND("m-1"),
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"a-message-id-longer-than-a-slot\","
    "\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"a-message-id-longer-than-a-slot\","
    "\"delta\":\"second\"}",
    TEND("a-message-id-longer-than-a-slot"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c-1\",\"toolCallName\":\"search\","
    "\"parentMessageId\":\"m-1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c-1\",\"delta\":\"{\\\"q\\\":\\\"old "
    "arguments\\\"}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c-1\"}",
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c-2\",\"toolCallName\":\"open\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c-2\",\"delta\":\"{}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c-2\"}",
    FINISHED,
    NULL,
};

static const char *const small_run[] = {
    STARTED,
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m-1\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m-1\",\"delta\":\"b\"}",
    TEND("m-1"),
    "{\"type\":\"TOOL_CALL_START\",\"toolCallId\":\"c-1\",\"toolCallName\":\"s\","
    "\"parentMessageId\":\"m-1\"}",
    "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c-1\",\"delta\":\"{\\\"y\\\":2}\"}",
    "{\"type\":\"TOOL_CALL_END\",\"toolCallId\":\"c-1\"}",
    FINISHED,
    NULL,
};

#define SMALL_WANT                                                                                 \
    "[{\"id\":\"m-1\",\"role\":\"assistant\",\"content\":\"b\",\"toolCalls\":[{\"id\":\"c-1\","    \
    "\"type\":\"function\",\"function\":{\"name\":\"s\",\"arguments\":\"{\\\"y\\\":2}\"}}]}]"      \
    "|b|{\"y\":2}"

static void test_reused_decoder_starts_empty(void **state)
{
    (void)state;
    /* the same result before and after a bigger run left its memory */
    char *first = run(small_run, NULL);
    assert_string_equal(first, SMALL_WANT);
    free(run(big_run, NULL));
    char *again = run(small_run, NULL);
    assert_string_equal(again, SMALL_WANT);
    free(first);
    free(again);
}

/* A run past what a reused decoder keeps (a 70 KB text, 3000 messages),
 * then a small one. */
static void test_large_run_then_small(void **state)
{
    (void)state;
    enum { N = 3000 };
    char **ev = calloc(3 * N + 4, sizeof *ev);
    size_t k = 0;
    ev[k++] = strdup(STARTED);
    char *big = malloc(70001);
    memset(big, 'a', 70000);
    big[70000] = '\0';
    for (size_t i = 0; i < N; i++) {
        char buf[256];
        snprintf(buf, sizeof buf, TSTART_FMT, i);
        ev[k++] = strdup(buf);
        size_t n = strlen(big) + 128;
        ev[k] = malloc(n);
        snprintf(ev[k++], n, TCONT_FMT, i, i ? "y" : big);
        snprintf(buf, sizeof buf, TEND_FMT, i);
        ev[k++] = strdup(buf);
    }
    ev[k++] = strdup(FINISHED);
    char *got = run((const char *const *)ev, NULL);
    const char *head = "[{\"id\":\"m-0\",\"role\":\"assistant\",\"content\":\"aaa";
    assert_memory_equal(got, head, strlen(head));
    assert_non_null(strstr(got, "{\"id\":\"m-2999\",\"role\":\"assistant\",\"content\":\"y\"}]|"));
    free(got);
    for (size_t i = 0; i < k; i++)
        free(ev[i]);
    free(ev);
    free(big);
    got = run(small_run, NULL);
    assert_string_equal(got, SMALL_WANT);
    free(got);
}

static void *thread_run(void *arg)
{
    (void)arg;
    char *got = run(small_run, NULL);
    bool same = !strcmp(got, SMALL_WANT);
    free(got);
    /* the thread ends holding a spare decoder: it must be freed then
     * (the sanitizer build reports it otherwise) */
    return same ? arg : NULL;
}

static void test_decoder_in_a_thread(void **state)
{
    (void)state;
    pthread_t th;
    void *ret = NULL;
    int token;
    assert_int_equal(pthread_create(&th, NULL, thread_run, &token), 0);
    assert_int_equal(pthread_join(th, &ret), 0);
    assert_ptr_equal(ret, &token);
}

static void test_idmap_keys(void **state)
{
    (void)state;
    struct an_agui_idmap m = {0};
    char key[64];
    for (int round = 0; round < 2; round++) {
        /* short keys live in the slot, long ones apart; both move when
         * the table grows */
        for (size_t i = 0; i < 200; i++) {
            snprintf(key, sizeof key, i % 2 ? "k%zu" : "a-key-well-past-the-slot-size-%zu", i);
            an_agui_idmap_set(&m, key, i + round);
        }
        for (size_t i = 0; i < 200; i++) {
            snprintf(key, sizeof key, i % 2 ? "k%zu" : "a-key-well-past-the-slot-size-%zu", i);
            assert_int_equal(an_agui_idmap_getn(&m, key, strlen(key)), i + round);
        }
        assert_int_equal(an_agui_idmap_getn(&m, "k1x", 3), NONE);
        assert_int_equal(an_agui_idmap_getn(&m, "k1", 1), NONE);
        an_agui_idmap_clear(&m, round ? 0 : 1u << 20);
        assert_int_equal(an_agui_idmap_getn(&m, "k1", 2), NONE);
    }
    /* the key of exactly the slot's room minus one, and one byte more */
    an_agui_idmap_set(&m, "12345678901234567890123", 1);
    an_agui_idmap_set(&m, "123456789012345678901234", 2);
    assert_int_equal(an_agui_idmap_getn(&m, "12345678901234567890123", 23), 1);
    assert_int_equal(an_agui_idmap_getn(&m, "123456789012345678901234", 24), 2);
    an_agui_idmap_release(&m);
}

/* The body is what an_json_compact gives the input object. */
static void check_body(struct an_agui_conv *c)
{
    char *body = an_agui_conv_body(c, "run-\xc3\xa9", NULL);
    json_t *in = an_agui_conv_input(c, "run-\xc3\xa9", NULL);
    char *want = an_json_compact(in);
    assert_string_equal(body, want);
    free(body);
    free(want);
    json_decref(in);
}

static void test_body_is_the_input(void **state)
{
    (void)state;
    json_t *st = json_loads("{\"a\":[1,\"\\u00e9\\n\",{\"b\":null,\"c\":true}],\"d\":{}}", 0, NULL);
    json_t *fp = json_loads("{\"x\":\"y\\\"z\"}", 0, NULL);
    struct an_agui_conv c;
    an_agui_conv_init(&c, "thread-\"1\"", st, fp);
    check_body(&c);
    json_t *h =
        json_loads("[{\"id\":\"u\",\"role\":\"user\",\"content\":\"hi \\u2603\"}]", 0, NULL);
    an_agui_conv_seed(&c, h);
    json_decref(h);
    check_body(&c);
    /* a real: the whole object's text decides how it is printed */
    json_object_set_new(c.state, "r", json_real(54.99));
    json_object_set_new(c.forwarded_props, "s", json_real(0.1 + 0.2));
    check_body(&c);
    json_decref(c.forwarded_props);
    c.forwarded_props = NULL; /* left out, as input() leaves it */
    check_body(&c);
    an_agui_conv_release(&c);
    json_decref(st);
    json_decref(fp);
}

static const char *const continue_run[] = {
    STARTED,
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m-3\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m-3\",\"delta\":\" more\"}",
    TEND("m-3"),
    "{\"type\":\"TEXT_MESSAGE_START\",\"messageId\":\"m-new\",\"role\":\"assistant\"}",
    "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m-new\",\"delta\":\"new\"}",
    TEND("m-new"),
    FINISHED,
    NULL,
};

/* A history of n messages m-0 .. m-(n-1), m-3 twice (the first wins). */
static char *history_of(size_t n)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_putc(&b, '[');
    for (size_t i = 0; i < n; i++)
        an_buf_printf(&b, "%s{\"id\":\"m-%zu\",\"role\":\"assistant\",\"content\":\"c%zu\"}",
                      i ? "," : "", i == n - 1 ? (size_t)3 : i, i);
    an_buf_putc(&b, ']');
    return an_buf_detach(&b, NULL);
}

static void test_history_searched_or_indexed(void **state)
{
    (void)state;
    for (size_t n = 5; n <= 40; n += 35) { /* searched, then indexed */
        char *h = history_of(n);
        char *got = run(continue_run, h);
        json_t *want = json_loads(h, 0, NULL);
        json_object_set_new(json_array_get(want, 3), "content", json_string("c3 more"));
        json_array_append_new(
            want, json_pack("{s:s,s:s,s:s}", "id", "m-new", "role", "assistant", "content", "new"));
        char *w = an_json_compact(want);
        size_t cut = strcspn(got, "|");
        assert_int_equal(cut, strlen(w));
        assert_memory_equal(got, w, cut);
        free(w);
        json_decref(want);
        free(got);
        free(h);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reused_decoder_starts_empty),
        cmocka_unit_test(test_large_run_then_small),
        cmocka_unit_test(test_decoder_in_a_thread),
        cmocka_unit_test(test_idmap_keys),
        cmocka_unit_test(test_body_is_the_input),
        cmocka_unit_test(test_history_searched_or_indexed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
