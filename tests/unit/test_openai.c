/*
 * OpenAI-compatible adapter: stream chunks and JSON answers assembled into
 * text and tool calls, AG-UI history converted to chat-completions
 * messages, the request body; then whole sessions against a scripted HTTP
 * server on 127.0.0.1 (a thread answering each request with the next
 * canned response): the tool loop, commands as tools, errors and retries.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "ananke/transcript.h"
#include "core/buf.h"
#include "core/json.h"
#include "proto/adapter.h"
#include "proto/openai_int.h"

#define ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- helpers ---- */

static void assert_json(const json_t *got, const char *want_text)
{
    json_error_t je;
    json_t *want = json_loads(want_text, JSON_DECODE_ANY, &je);
    if (!want)
        fail_msg("bad expected JSON (%s): %s", je.text, want_text);
    if (!got || !json_equal((json_t *)got, want)) {
        char *g = got ? an_json_compact(got) : strdup("(null)");
        json_decref(want);
        fail_msg("json %s\n want %s", g, want_text);
    }
    json_decref(want);
}

static void assert_has(const char *text, const char *needle)
{
    if (!text || !strstr(text, needle))
        fail_msg("'%s' lacks '%s'", text ? text : "(null)", needle);
}

static json_t *parse(const char *text)
{
    json_error_t je;
    json_t *j = json_loads(text, JSON_DECODE_ANY, &je);
    if (!j)
        fail_msg("bad JSON (%s): %s", je.text, text);
    return j;
}

/* Chunk i arrives at 100 + 10 * i. Returns the first failure. */
static int feed(struct an_oai_answer *a, const char *const *chunks, struct an_err *e)
{
    for (size_t i = 0; chunks[i]; i++) {
        int rc = an_oai_chunk(a, chunks[i], strlen(chunks[i]), 100 + 10 * (int64_t)i, e);
        if (rc)
            return rc;
    }
    return AN_OK;
}

#define CH(delta) \
    "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0," \
    "\"delta\":" delta "}]}"
#define TEXT(s) CH("{\"content\":\"" s "\"}")
#define TC(calls) CH("{\"tool_calls\":[" calls "]}")
#define FIN(reason) \
    "{\"id\":\"chatcmpl-1\",\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"" reason \
    "\"}]}"
#define USAGE \
    "{\"id\":\"chatcmpl-1\",\"choices\":[],\"usage\":{\"prompt_tokens\":12," \
    "\"completion_tokens\":3,\"total_tokens\":15}}"
#define DONE "[DONE]"
#define CHUNKS(...) ((const char *const[]){__VA_ARGS__, NULL})

/* ---- stream assembly ---- */

static void test_content_pieces(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    assert_int_equal(feed(&a,
                          CHUNKS(CH("{\"role\":\"assistant\",\"content\":\"\"}"), TEXT("Hel"),
                                 TEXT("lo, "), CH("{\"content\":null}"), TEXT("w\\u00f6rld"),
                                 FIN("stop"), USAGE, DONE),
                          &e),
                     AN_OK);
    assert_string_equal(an_buf_cstr(&a.text), "Hello, w\xC3\xB6rld");
    assert_string_equal(a.finish_reason, "stop");
    assert_string_equal(a.id, "chatcmpl-1");
    assert_true(a.done);
    assert_int_equal(a.ncalls, 0);
    assert_json(a.usage, "{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}");
    assert_int_equal(an_oai_stream_end(&a, &e), AN_OK);
    an_oai_answer_release(&a);
}

static void test_interleaved_calls(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    /* two calls by index, their arguments interleaved and split inside a
     * string; ids and names only in each call's first delta */
    int rc = feed(
        &a,
        CHUNKS(TC("{\"index\":0,\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":"
                  "\"get_weather\",\"arguments\":\"\"}}"),
               TC("{\"index\":0,\"function\":{\"arguments\":\"{\\\"city\\\":\\\"Par\"}}"),
               TC("{\"index\":1,\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":"
                  "\"get_time\",\"arguments\":\"{\\\"tz\"}}"),
               TC("{\"index\":0,\"function\":{\"arguments\":\"is\\\"}\"}}"),
               TC("{\"index\":1,\"function\":{\"arguments\":\"\\\":\\\"UTC\\\"}\"}}"),
               FIN("tool_calls"), DONE),
        &e);
    assert_int_equal(rc, AN_OK);
    assert_int_equal(a.ncalls, 2);
    assert_string_equal(a.calls[0].id, "call_a");
    assert_string_equal(a.calls[0].name, "get_weather");
    assert_string_equal(an_buf_cstr(&a.calls[0].args), "{\"city\":\"Paris\"}");
    assert_int_equal(a.calls[0].start_ms, 100);
    assert_int_equal(a.calls[0].last_ms, 130);
    assert_string_equal(a.calls[1].id, "call_b");
    assert_string_equal(a.calls[1].name, "get_time");
    assert_string_equal(an_buf_cstr(&a.calls[1].args), "{\"tz\":\"UTC\"}");
    assert_int_equal(a.calls[1].start_ms, 120);
    assert_int_equal(a.calls[1].last_ms, 140);
    assert_string_equal(a.finish_reason, "tool_calls");
    assert_int_equal(a.text.len, 0);
    assert_int_equal(an_oai_stream_end(&a, &e), AN_OK);

    /* the conversation's assistant message: content null, calls in order */
    json_t *m = an_oai_assistant_msg(&a);
    assert_json(m, "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                   "{\"id\":\"call_a\",\"type\":\"function\",\"function\":{\"name\":"
                   "\"get_weather\",\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}},"
                   "{\"id\":\"call_b\",\"type\":\"function\",\"function\":{\"name\":"
                   "\"get_time\",\"arguments\":\"{\\\"tz\\\":\\\"UTC\\\"}\"}}]}");
    json_decref(m);
    an_oai_answer_release(&a);
}

static void test_call_quirks(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    /* a server repeating id and name on every delta, a later delta with
     * another id (ignored), arguments as an object, text before the call */
    int rc = feed(&a,
                  CHUNKS(TEXT("Let me look."),
                         TC("{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"a\"}}"),
                         TC("{\"index\":0,\"id\":\"c1\",\"function\":{\"name\":\"a\","
                            "\"arguments\":\"{\\\"x\\\":\"}}"),
                         TC("{\"index\":0,\"id\":\"other\",\"function\":{\"arguments\":\"1}\"}}"),
                         TC("{\"index\":5,\"id\":\"c2\",\"function\":{\"name\":\"b\","
                            "\"arguments\":{\"y\":2}}}"),
                         FIN("tool_calls"), DONE, TEXT("late")),
                  &e);
    assert_int_equal(rc, AN_OK);
    assert_string_equal(an_buf_cstr(&a.text), "Let me look.");
    assert_int_equal(a.ncalls, 2);
    assert_string_equal(a.calls[0].id, "c1");
    assert_string_equal(a.calls[0].name, "a");
    assert_string_equal(an_buf_cstr(&a.calls[0].args), "{\"x\":1}");
    assert_int_equal(a.calls[1].index, 5);
    assert_string_equal(an_buf_cstr(&a.calls[1].args), "{\"y\":2}");
    assert_int_equal(a.after_done, 1); /* the chunk after [DONE] */

    /* with content, the assistant message keeps it; no arguments: {} */
    free(a.calls[1].id);
    a.calls[1].id = strdup("c2");
    an_buf_reset(&a.calls[1].args);
    json_t *m = an_oai_assistant_msg(&a);
    assert_string_equal(an_json_str(m, "content"), "Let me look.");
    json_t *c2 = json_object_get(json_array_get(json_object_get(m, "tool_calls"), 1), "function");
    assert_string_equal(an_json_str(c2, "arguments"), "{}");
    json_decref(m);
    an_oai_answer_release(&a);
}

static void test_stream_end(void **state)
{
    (void)state;
    const struct {
        const char *const *chunks;
        const char *want; /* NULL: complete */
    } rows[] = {
        {CHUNKS(TEXT("hi"), FIN("stop"), DONE), NULL},
        {CHUNKS(TEXT("hi"), FIN("stop"), USAGE),
         "after finish_reason 'stop' but before data: [DONE]"},
        {CHUNKS(TEXT("hi"), TEXT("there")), "cut after 2 chunks, before finish_reason and [DONE]"},
        {CHUNKS(USAGE, DONE), "empty answer: the stream reached [DONE] without any choice"},
        {CHUNKS(DONE), "empty answer"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_oai_answer a;
        struct an_err e = AN_ERR_INIT;
        an_oai_answer_init(&a);
        assert_int_equal(feed(&a, rows[i].chunks, &e), AN_OK);
        int rc = an_oai_stream_end(&a, &e);
        if (!rows[i].want) {
            assert_int_equal(rc, AN_OK);
        } else {
            assert_int_equal(rc, AN_EPROTO);
            assert_has(e.msg, rows[i].want);
        }
        an_oai_answer_release(&a);
    }
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    assert_int_equal(an_oai_stream_end(&a, &e), AN_EPROTO);
    assert_has(e.msg, "before its first chunk");
    an_oai_answer_release(&a);
}

static void test_bad_chunks(void **state)
{
    (void)state;
    static const struct {
        const char *chunk;
        int rc;
        const char *want;
    } rows[] = {
        {"{\"choices\":[{\"delta\":{\"content\":\"a\"}", AN_EPROTO,
         "chunk #2 is not valid JSON ("},
        {"not json at all", AN_EPROTO, ": not json at all"},
        {"[1,2]", AN_EPROTO, "chunk #2 is a JSON array, not an object: [1,2]"},
        {"{\"error\":{\"message\":\"model overloaded\",\"code\":\"overloaded\"}}", AN_ERUN,
         "the API reported an error in chunk #2: model overloaded (code overloaded)"},
        {"{\"choices\":{\"index\":0}}", AN_EPROTO, "chunk #2: 'choices' is a object"},
        {"{\"choices\":[{\"index\":0,\"delta\":\"x\"}]}", AN_EPROTO, "'delta' is a string"},
        {"{\"choices\":[{\"index\":0,\"delta\":{\"content\":5}}]}", AN_EPROTO,
         "'content' is a number"},
        {TC("{\"index\":\"0\",\"function\":{\"name\":\"a\"}}"), AN_EPROTO,
         "tool_calls[0]: 'index' is a string, not an integer"},
        {TC("{\"index\":0,\"function\":{\"arguments\":7}}"), AN_EPROTO,
         "'function.arguments' is a number"},
        {TC("3"), AN_EPROTO, "chunk #2: tool_calls[0] is a number, not an object"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_oai_answer a;
        struct an_err e = AN_ERR_INIT;
        an_oai_answer_init(&a);
        int rc = feed(&a, CHUNKS(TEXT("ok"), rows[i].chunk), &e);
        if (rc != rows[i].rc)
            fail_msg("row %zu: rc %d, want %d (%s)", i, rc, rows[i].rc, e.msg);
        assert_has(e.msg, rows[i].want);
        an_oai_answer_release(&a);
    }
    /* a long bad chunk is shown cut */
    char big[400];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    assert_int_equal(an_oai_chunk(&a, big, strlen(big), 0, &e), AN_EPROTO);
    assert_has(e.msg, "xxx...");
    assert_true(strlen(e.msg) < 250);
    an_oai_answer_release(&a);
}

static void test_calls_without_index(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    int rc = feed(&a,
                  CHUNKS(TC("{\"id\":\"x1\",\"function\":{\"name\":\"a\",\"arguments\":\"{\"}}"),
                         TC("{\"function\":{\"arguments\":\"}\"}}"),
                         TC("{\"id\":\"x2\",\"function\":{\"name\":\"b\"}}"), FIN("tool_calls"),
                         DONE),
                  &e);
    assert_int_equal(rc, AN_OK);
    assert_int_equal(a.ncalls, 2);
    assert_string_equal(an_buf_cstr(&a.calls[0].args), "{}");
    assert_string_equal(a.calls[1].name, "b");
    an_oai_answer_release(&a);
}

/* ---- one JSON answer ---- */

static void test_body(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    const char *body =
        "{\"id\":\"chatcmpl-9\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
        "\"message\":{\"role\":\"assistant\",\"content\":\"Checking.\",\"tool_calls\":["
        "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"lookup\",\"arguments\":"
        "\"{\\\"q\\\":1}\"}},{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":"
        "\"other\",\"arguments\":{\"z\":true}}}]},\"finish_reason\":\"tool_calls\"}],"
        "\"usage\":{\"total_tokens\":9}}";
    an_oai_answer_init(&a);
    assert_int_equal(an_oai_parse_body(&a, body, strlen(body), 500, &e), AN_OK);
    assert_string_equal(an_buf_cstr(&a.text), "Checking.");
    assert_int_equal(a.ncalls, 2);
    assert_string_equal(a.calls[0].id, "c1");
    assert_string_equal(a.calls[0].name, "lookup");
    assert_string_equal(an_buf_cstr(&a.calls[0].args), "{\"q\":1}");
    assert_int_equal(a.calls[0].start_ms, 500);
    assert_string_equal(an_buf_cstr(&a.calls[1].args), "{\"z\":true}");
    assert_string_equal(a.finish_reason, "tool_calls");
    assert_json(a.usage, "{\"total_tokens\":9}");
    assert_string_equal(a.id, "chatcmpl-9");
    an_oai_answer_release(&a);

    static const struct {
        const char *body;
        int rc;
        const char *want;
    } bad[] = {
        {"", AN_EPROTO, "the answer is not valid JSON ("},
        {"<html>502 Bad Gateway</html>", AN_EPROTO, "): <html>502 Bad Gateway</html>"},
        {"{\"choices\":[]}", AN_EPROTO, "empty answer: no choices in {\"choices\":[]}"},
        {"{\"object\":\"chat.completion\"}", AN_EPROTO, "empty answer"},
        {"{\"choices\":[{\"index\":0}]}", AN_EPROTO, "choices[0] has no 'message' object"},
        {"{\"error\":{\"message\":\"bad key\",\"type\":\"auth\"}}", AN_ERUN,
         "the API reported an error in the answer: bad key (auth)"},
        {"{\"choices\":[{\"message\":{\"tool_calls\":{}}}]}", AN_EPROTO,
         "'tool_calls' is a object"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        an_oai_answer_init(&a);
        e = (struct an_err)AN_ERR_INIT;
        int rc = an_oai_parse_body(&a, bad[i].body, strlen(bad[i].body), 0, &e);
        if (rc != bad[i].rc)
            fail_msg("row %zu: rc %d, want %d (%s)", i, rc, bad[i].rc, e.msg);
        assert_has(e.msg, bad[i].want);
        an_oai_answer_release(&a);
    }
}

static void test_error_message(void **state)
{
    (void)state;
    static const struct {
        const char *body;
        const char *want; /* NULL: none */
    } rows[] = {
        {"{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\"}}",
         "Rate limit reached"},
        {"{\"error\":\"model not found\"}", "model not found"},
        {"{\"detail\":\"Not Found\"}", "Not Found"},
        {"{\"detail\":[{\"loc\":[\"body\"],\"msg\":\"field required\"}]}",
         "[{\"loc\":[\"body\"],\"msg\":\"field required\"}]"},
        /* the start of a longer body: read up to the cut */
        {"{\"error\":{\"message\":\"This model's maximum context length is 8192 tok",
         "This model's maximum context length is 8192 tok..."},
        {"{\"error\":{\"code\":1, \"message\" : \"quoted \\\"x\\\" here\", \"param\":",
         "quoted \"x\" here"},
        {"upstream connect error", NULL},
        {"{\"ok\":true}", NULL},
        {"", NULL},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char *m = an_oai_error_message(rows[i].body, strlen(rows[i].body));
        if (!rows[i].want) {
            if (m)
                fail_msg("row %zu: '%s', want none", i, m);
        } else {
            if (!m)
                fail_msg("row %zu: none, want '%s'", i, rows[i].want);
            assert_string_equal(m, rows[i].want);
        }
        free(m);
    }
}

/* ---- history and request ---- */

static void test_history_plain_and_tools(void **state)
{
    (void)state;
    struct an_err e = AN_ERR_INIT;
    json_t *h = parse(
        "[{\"id\":\"1\",\"role\":\"system\",\"content\":\"Be brief.\"},"
        " {\"id\":\"2\",\"role\":\"user\",\"content\":\"Weather in Paris?\",\"name\":\"ann\"},"
        " {\"id\":\"3\",\"role\":\"assistant\",\"toolCalls\":[{\"id\":\"t1\",\"type\":"
        "\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":\"{\\\"city\\\":"
        "\\\"Paris\\\"}\"}},{\"id\":\"t2\",\"type\":\"function\",\"function\":{\"name\":\"now\","
        "\"arguments\":{\"tz\":\"CET\"}}}]},"
        " {\"id\":\"4\",\"role\":\"tool\",\"toolCallId\":\"t1\",\"content\":\"sunny\"},"
        " {\"id\":\"5\",\"role\":\"tool\",\"toolCallId\":\"t2\",\"content\":{\"h\":12}},"
        " {\"id\":\"6\",\"role\":\"activity\",\"activityType\":\"x\",\"content\":{}},"
        " {\"id\":\"7\",\"role\":\"assistant\",\"content\":\"Sunny, 12h.\"},"
        " {\"id\":\"8\",\"role\":\"developer\",\"content\":\"dev note\"}]");
    json_t *m = an_oai_msgs_from_agui(h, &e);
    if (!m)
        fail_msg("%s", e.msg);
    assert_json(m,
                "[{\"role\":\"system\",\"content\":\"Be brief.\"},"
                " {\"role\":\"user\",\"name\":\"ann\",\"content\":\"Weather in Paris?\"},"
                " {\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
                "  {\"id\":\"t1\",\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                "   \"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"}},"
                "  {\"id\":\"t2\",\"type\":\"function\",\"function\":{\"name\":\"now\","
                "   \"arguments\":\"{\\\"tz\\\":\\\"CET\\\"}\"}}]},"
                " {\"role\":\"tool\",\"tool_call_id\":\"t1\",\"content\":\"sunny\"},"
                " {\"role\":\"tool\",\"tool_call_id\":\"t2\",\"content\":\"{\\\"h\\\":12}\"},"
                " {\"role\":\"assistant\",\"content\":\"Sunny, 12h.\"},"
                " {\"role\":\"developer\",\"content\":\"dev note\"}]");
    json_decref(m);
    json_decref(h);

    m = an_oai_msgs_from_agui(NULL, &e);
    assert_json(m, "[]");
    json_decref(m);
}

static void test_history_parts(void **state)
{
    (void)state;
    struct an_err e = AN_ERR_INIT;
    json_t *h = parse(
        "[{\"id\":\"1\",\"role\":\"user\",\"content\":["
        " {\"type\":\"text\",\"text\":\"What is in these?\"},"
        " {\"type\":\"binary\",\"mimeType\":\"image/png\",\"data\":\"iVBORw0\"},"
        " {\"type\":\"binary\",\"mimeType\":\"application/pdf\",\"data\":\"JVBERi0\","
        "  \"filename\":\"report.pdf\"},"
        " {\"type\":\"binary\",\"mimeType\":\"text/csv\",\"data\":\"YSxi\"},"
        " {\"type\":\"binary\",\"mimeType\":\"image/jpeg\",\"url\":\"https://x.test/a.jpg\"},"
        " {\"type\":\"image\",\"source\":{\"type\":\"url\",\"value\":\"https://x.test/b.png\"}},"
        " {\"type\":\"image\",\"source\":{\"type\":\"data\",\"value\":\"R0lG\","
        "  \"mimeType\":\"image/gif\"}},"
        " {\"type\":\"document\",\"source\":{\"type\":\"data\",\"value\":\"JVBE\","
        "  \"mimeType\":\"application/pdf\"},\"metadata\":{\"filename\":\"d.pdf\"}},"
        " {\"type\":\"audio\",\"source\":{\"type\":\"data\",\"value\":\"UklG\","
        "  \"mimeType\":\"audio/wav\"}},"
        " {\"type\":\"document\",\"source\":{\"type\":\"file\",\"value\":\"file-123\"}}]}]");
    json_t *m = an_oai_msgs_from_agui(h, &e);
    if (!m)
        fail_msg("%s", e.msg);
    assert_json(
        m, "[{\"role\":\"user\",\"content\":["
           " {\"type\":\"text\",\"text\":\"What is in these?\"},"
           " {\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/png;base64,iVBORw0\"}},"
           " {\"type\":\"file\",\"file\":{\"filename\":\"report.pdf\","
           "  \"file_data\":\"data:application/pdf;base64,JVBERi0\"}},"
           " {\"type\":\"file\",\"file\":{\"filename\":\"file\","
           "  \"file_data\":\"data:text/csv;base64,YSxi\"}},"
           " {\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x.test/a.jpg\"}},"
           " {\"type\":\"image_url\",\"image_url\":{\"url\":\"https://x.test/b.png\"}},"
           " {\"type\":\"image_url\",\"image_url\":{\"url\":\"data:image/gif;base64,R0lG\"}},"
           " {\"type\":\"file\",\"file\":{\"filename\":\"d.pdf\","
           "  \"file_data\":\"data:application/pdf;base64,JVBE\"}},"
           " {\"type\":\"input_audio\",\"input_audio\":{\"data\":\"UklG\",\"format\":\"wav\"}},"
           " {\"type\":\"file\",\"file\":{\"file_id\":\"file-123\"}}]}]");
    json_decref(m);
    json_decref(h);
}

static void test_history_errors(void **state)
{
    (void)state;
    static const struct {
        const char *history;
        const char *want;
    } rows[] = {
        {"{}", "the history is a object, not a list of messages"},
        {"[{\"content\":\"x\"}]", "history message #1 is not a message with a string 'role'"},
        {"[{\"role\":\"user\",\"content\":\"a\"},{\"role\":\"robot\",\"content\":\"x\"}]",
         "history message #2 has role 'robot'"},
        {"[{\"role\":\"tool\",\"content\":\"x\"}]", "history message #1 (tool) has no string "
                                                   "'toolCallId'"},
        {"[{\"role\":\"user\",\"content\":[{\"type\":\"binary\",\"mimeType\":\"image/png\"}]}]",
         "history message #1: part #1 (binary) has neither 'data' nor 'url'"},
        {"[{\"role\":\"user\",\"content\":[{\"type\":\"video\",\"source\":{\"type\":\"url\","
         "\"value\":\"https://v\"}}]}]",
         "chat completions has no form for a video from a 'url' source"},
        {"[{\"role\":\"user\",\"content\":[{\"type\":\"sticker\"}]}]",
         "part #1 has unknown type 'sticker'"},
        {"[{\"role\":\"user\",\"content\":42}]", "'content' is a number"},
        {"[{\"role\":\"assistant\",\"toolCalls\":[{\"function\":{\"name\":\"a\"}}]}]",
         "toolCalls[0] needs a string 'id' and 'function.name'"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_err e = AN_ERR_INIT;
        json_t *h = parse(rows[i].history);
        json_t *m = an_oai_msgs_from_agui(h, &e);
        if (m)
            fail_msg("row %zu converted", i);
        assert_int_equal(e.code, AN_ESCHEMA);
        assert_has(e.msg, rows[i].want);
        json_decref(h);
    }
}

static void test_request_body(void **state)
{
    (void)state;
    json_t *params = parse("{\"temperature\":0,\"max_tokens\":50,\"seed\":7}");
    json_t *schema = parse("{\"type\":\"object\",\"properties\":{\"city\":{\"type\":\"string\"}},"
                           "\"required\":[\"city\"]}");
    struct an_openai_tool tools[] = {
        {.name = "get_weather", .description = "Weather of a city", .parameters = schema},
        {.name = "ping"},
    };
    json_t *tj = an_oai_tools_json(tools, 2);
    json_t *msgs = parse("[{\"role\":\"user\",\"content\":\"hi\"}]");
    json_t *req = an_oai_request("gpt-4o-mini", msgs, true, tj, params);
    assert_json(req,
                "{\"model\":\"gpt-4o-mini\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                " \"stream\":true,\"stream_options\":{\"include_usage\":true},"
                " \"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                "  \"description\":\"Weather of a city\",\"parameters\":{\"type\":\"object\","
                "  \"properties\":{\"city\":{\"type\":\"string\"}},\"required\":[\"city\"]}}},"
                "  {\"type\":\"function\",\"function\":{\"name\":\"ping\","
                "   \"parameters\":{\"type\":\"object\"}}}],"
                " \"temperature\":0,\"max_tokens\":50,\"seed\":7}");
    json_decref(req);

    /* no stream, no tools; a null param removes a key ananke would send */
    json_t *empty = json_array();
    json_t *p2 = parse("{\"stream_options\":null,\"top_p\":0.5}");
    req = an_oai_request("m", msgs, false, empty, p2);
    assert_json(req, "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}],"
                     "\"stream\":false,\"top_p\":0.5}");
    json_decref(req);
    req = an_oai_request("m", msgs, true, empty, p2);
    assert_null(json_object_get(req, "stream_options"));
    json_decref(req);

    json_decref(p2);
    json_decref(empty);
    json_decref(msgs);
    json_decref(tj);
    json_decref(schema);
    json_decref(params);
}

/* ---- sessions against a scripted server ---- */

#define MAX_EXCHANGES 8

struct server {
    int fd;
    int port;
    pthread_t th;
    const char *responses[MAX_EXCHANGES]; /* raw HTTP responses, in order */
    size_t nresponses;
    char *requests[MAX_EXCHANGES]; /* head and body of each request received */
    char *bodies[MAX_EXCHANGES];
    size_t nrequests;
};

static size_t content_length(const char *head)
{
    static const char key[] = "\r\ncontent-length:";
    for (const char *p = head; *p; p++)
        if (!strncasecmp(p, key, sizeof key - 1))
            return (size_t)strtoul(p + sizeof key - 1, NULL, 10);
    return 0;
}

static void *serve(void *ud)
{
    struct server *sv = ud;
    for (size_t i = 0; i < sv->nresponses; i++) {
        int c = accept(sv->fd, NULL, NULL);
        if (c < 0)
            break;
        struct an_buf in = AN_BUF_INIT;
        char buf[4096];
        char *end = NULL;
        while (!(end = strstr(an_buf_cstr(&in), "\r\n\r\n"))) {
            ssize_t n = read(c, buf, sizeof buf);
            if (n <= 0)
                break;
            an_buf_append(&in, buf, (size_t)n);
        }
        if (end) {
            size_t head = (size_t)(end - in.data) + 4;
            size_t want = head + content_length(in.data);
            while (in.len < want) {
                ssize_t n = read(c, buf, sizeof buf);
                if (n <= 0)
                    break;
                an_buf_append(&in, buf, (size_t)n);
            }
            sv->bodies[sv->nrequests] = strdup(in.data + head);
            in.data[head] = '\0';
        }
        sv->requests[sv->nrequests++] = an_buf_detach(&in, NULL);
        const char *r = sv->responses[i];
        size_t off = 0, len = strlen(r);
        while (off < len) {
            ssize_t n = write(c, r + off, len - off);
            if (n <= 0)
                break;
            off += (size_t)n;
        }
        shutdown(c, SHUT_WR);
        while (read(c, buf, sizeof buf) > 0) {
        }
        close(c);
    }
    return NULL;
}

static void server_start(struct server *sv)
{
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t alen = sizeof a;
    sv->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(sv->fd >= 0);
    assert_int_equal(bind(sv->fd, (struct sockaddr *)&a, sizeof a), 0);
    assert_int_equal(listen(sv->fd, 8), 0);
    getsockname(sv->fd, (struct sockaddr *)&a, &alen);
    sv->port = ntohs(a.sin_port);
    pthread_create(&sv->th, NULL, serve, sv);
}

static void server_stop(struct server *sv)
{
    shutdown(sv->fd, SHUT_RDWR);
    pthread_join(sv->th, NULL);
    close(sv->fd);
    for (size_t i = 0; i < sv->nrequests; i++) {
        free(sv->requests[i]);
        free(sv->bodies[i]);
    }
}

static json_t *request_json(const struct server *sv, size_t i)
{
    assert_true(i < sv->nrequests);
    return parse(sv->bodies[i]);
}

/* An SSE response of the given chunks, each as one `data:` event. */
static char *sse(const char *const *chunks)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                    "Connection: close\r\n\r\n");
    for (size_t i = 0; chunks[i]; i++)
        an_buf_printf(&b, "data: %s\n\n", chunks[i]);
    return an_buf_detach(&b, NULL);
}

static char *json_answer(const char *status, const char *extra_headers, const char *body)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b,
                  "HTTP/1.1 %s\r\nContent-Type: application/json\r\n%sContent-Length: %zu\r\n"
                  "Connection: close\r\n\r\n%s",
                  status, extra_headers, strlen(body), body);
    return an_buf_detach(&b, NULL);
}

struct sess {
    struct server sv;
    char url[64];
    struct an_transcript t;
    struct an_session *s;
    char *owned[MAX_EXCHANGES];
};

static void respond(struct sess *x, char *raw)
{
    x->owned[x->sv.nresponses] = raw;
    x->sv.responses[x->sv.nresponses++] = raw;
}

static void sess_open(struct sess *x, struct an_openai_opts *o)
{
    struct an_err e = AN_ERR_INIT;
    server_start(&x->sv);
    snprintf(x->url, sizeof x->url, "http://127.0.0.1:%d/v1/", x->sv.port);
    o->base_url = x->url;
    if (!o->model)
        o->model = "test-model";
    if (!o->timeout_ms)
        o->timeout_ms = 10000;
    an_transcript_init(&x->t);
    if (an_openai_open(&x->s, o, &e))
        fail_msg("open: %s", e.msg);
}

static struct an_turn_rec *sess_turn(struct sess *x, const char *user)
{
    an_transcript_add_turn(&x->t, "user");
    an_session_turn(x->s, &x->t, user);
    return &x->t.turns[x->t.nturns - 1];
}

static void sess_close(struct sess *x)
{
    an_session_free(x->s);
    server_stop(&x->sv);
    an_transcript_release(&x->t);
    for (size_t i = 0; i < MAX_EXCHANGES; i++)
        free(x->owned[i]);
}

static void assert_ok(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_OK)
        fail_msg("turn failed: %s", r->error);
}

static bool has_warning(const struct an_turn_rec *r, const char *needle)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], needle))
            return true;
    return false;
}

#define WEATHER_CALL                                                                            \
    TC("{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":"        \
       "\"get_weather\",\"arguments\":\"{\\\"city\\\":\"}}"),                                   \
        TC("{\"index\":0,\"function\":{\"arguments\":\"\\\"Paris\\\"}\"}}"), FIN("tool_calls"), \
        DONE

static void test_session_tool_loop(void **state)
{
    (void)state;
    struct sess x = {0};
    json_t *canned = parse("{\"temp\":21,\"sky\":\"clear\"}");
    json_t *history = parse("[{\"id\":\"h1\",\"role\":\"user\",\"content\":\"Hi\"},"
                            "{\"id\":\"h2\",\"role\":\"assistant\",\"content\":\"Hello!\"}]");
    struct an_openai_tool tools[] = {{.name = "get_weather", .result = canned}};
    struct an_kv hdr[] = {{"X-Test", "yes"}};
    struct an_openai_opts o = {.api_key = "sk-test", .system = "You are terse.",
                               .tools = tools, .ntools = 1, .headers = hdr, .nheaders = 1,
                               .history = history};
    respond(&x, sse(CHUNKS(WEATHER_CALL)));
    respond(&x, sse(CHUNKS(TEXT("It is 21"), TEXT(" and clear."), FIN("stop"), USAGE, DONE)));
    respond(&x, sse(CHUNKS(TEXT("You're welcome."), FIN("stop"), DONE)));
    sess_open(&x, &o);

    struct an_turn_rec *r = sess_turn(&x, "Weather in Paris?");
    assert_ok(r);
    assert_string_equal(r->text, "It is 21 and clear.");
    assert_string_equal(r->input, "Weather in Paris?");
    assert_int_equal(r->ncalls, 1);
    assert_int_equal(r->http_status, 200);
    assert_int_equal(r->events, 4 + 5); /* every data event of both rounds */
    const struct an_tool_call *c = &x.t.calls[0];
    assert_string_equal(c->id, "call_1");
    assert_string_equal(c->name, "get_weather");
    assert_string_equal(c->args_text, "{\"city\":\"Paris\"}");
    assert_json(c->args, "{\"city\":\"Paris\"}");
    assert_json(c->result, "{\"temp\":21,\"sky\":\"clear\"}");
    assert_true(c->args_done);
    assert_true(c->start_ms >= r->start_ms && c->end_ms >= c->start_ms);
    assert_true(c->result_ms >= c->end_ms && c->ts_ms == c->result_ms);
    assert_true(r->end_ms >= c->result_ms);

    /* the requests: headers, the URL, and the conversation growing */
    assert_int_equal(x.sv.nrequests, 2);
    assert_has(x.sv.requests[0], "POST /v1/chat/completions HTTP/1.1");
    assert_has(x.sv.requests[0], "Authorization: Bearer sk-test");
    assert_has(x.sv.requests[0], "X-Test: yes");
    assert_has(x.sv.requests[0], "Accept: text/event-stream");
    json_t *q = request_json(&x.sv, 0);
    assert_string_equal(an_json_str(q, "model"), "test-model");
    assert_true(json_is_true(json_object_get(q, "stream")));
    assert_json(json_object_get(q, "stream_options"), "{\"include_usage\":true}");
    assert_json(json_object_get(q, "tools"),
                "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                "\"parameters\":{\"type\":\"object\"}}}]");
    assert_json(json_object_get(q, "messages"),
                "[{\"role\":\"system\",\"content\":\"You are terse.\"},"
                "{\"role\":\"user\",\"content\":\"Hi\"},"
                "{\"role\":\"assistant\",\"content\":\"Hello!\"},"
                "{\"role\":\"user\",\"content\":\"Weather in Paris?\"}]");
    json_decref(q);
    q = request_json(&x.sv, 1);
    json_t *msgs = json_object_get(q, "messages");
    assert_int_equal(json_array_size(msgs), 6);
    assert_json(json_array_get(msgs, 4),
                "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"call_1\","
                "\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":"
                "\"{\\\"city\\\":\\\"Paris\\\"}\"}}]}");
    assert_json(json_array_get(msgs, 5),
                "{\"role\":\"tool\",\"tool_call_id\":\"call_1\",\"content\":"
                "\"{\\\"temp\\\":21,\\\"sky\\\":\\\"clear\\\"}\"}");
    json_decref(q);

    /* the next turn sends everything so far, the final answer included */
    r = sess_turn(&x, "Thanks");
    assert_ok(r);
    assert_string_equal(r->text, "You're welcome.");
    assert_int_equal(r->ncalls, 0);
    assert_int_equal(r->first_call, 1);
    q = request_json(&x.sv, 2);
    msgs = json_object_get(q, "messages");
    assert_int_equal(json_array_size(msgs), 8);
    assert_json(json_array_get(msgs, 6),
                "{\"role\":\"assistant\",\"content\":\"It is 21 and clear.\"}");
    assert_json(json_array_get(msgs, 7), "{\"role\":\"user\",\"content\":\"Thanks\"}");
    json_decref(q);

    sess_close(&x);
    json_decref(canned);
    json_decref(history);
}

static void test_session_commands(void **state)
{
    (void)state;
    struct sess x = {0};
    struct an_openai_tool tools[] = {
        {.name = "echo", .argv = ARGV("/bin/sh", "-c", "printf '  got:'; cat; echo '  '")},
        {.name = "broken", .argv = ARGV("/bin/sh", "-c", "echo 'disk full' >&2; exit 3")},
        {.name = "slow", .argv = ARGV("/bin/sh", "-c", "sleep 5"), .timeout_ms = 200},
    };
    struct an_openai_opts o = {.tools = tools, .ntools = 3};
    respond(&x, sse(CHUNKS(
                    TC("{\"index\":0,\"id\":\"e\",\"function\":{\"name\":\"echo\",\"arguments\":"
                       "\"{\\\"a\\\":1}\"}}"),
                    TC("{\"index\":1,\"id\":\"b\",\"function\":{\"name\":\"broken\","
                       "\"arguments\":\"{}\"}}"),
                    TC("{\"index\":2,\"id\":\"s\",\"function\":{\"name\":\"slow\","
                       "\"arguments\":\"\"}}"),
                    TC("{\"index\":3,\"id\":\"x\",\"function\":{\"name\":\"echo\","
                       "\"arguments\":\"{oops\"}}"),
                    FIN("tool_calls"), DONE)));
    respond(&x, sse(CHUNKS(TEXT("done"), FIN("stop"), DONE)));
    sess_open(&x, &o);

    struct an_turn_rec *r = sess_turn(&x, "go");
    assert_ok(r);
    assert_int_equal(r->ncalls, 4);
    assert_json(x.t.calls[0].result, "\"got:{\\\"a\\\":1}\"");
    assert_json(x.t.calls[1].result, "\"tool error: 'broken' exited with status 3: disk full\"");
    assert_json(x.t.calls[2].result, "\"tool error: 'slow' timed out after 200 ms\"");
    assert_json(x.t.calls[2].args, "{}");
    assert_null(x.t.calls[3].args);
    assert_non_null(x.t.calls[3].args_error);
    assert_has(json_string_value(x.t.calls[3].result),
               "tool error: the arguments of 'echo' are not valid JSON");
    assert_true(has_warning(r, "tool call 'x' (echo): arguments are not valid JSON"));
    assert_true(has_warning(r, "tool error: 'broken' exited with status 3"));

    json_t *q = request_json(&x.sv, 1);
    json_t *msgs = json_object_get(q, "messages");
    assert_int_equal(json_array_size(msgs), 6); /* user, assistant, 4 tool messages */
    assert_string_equal(an_json_str(json_array_get(msgs, 2), "content"), "got:{\"a\":1}");
    assert_string_equal(an_json_str(json_array_get(msgs, 3), "tool_call_id"), "b");
    json_decref(q);
    sess_close(&x);
}

static void test_session_unanswered_tools(void **state)
{
    (void)state;
    struct sess x = {0};
    struct an_openai_tool tools[] = {{.name = "confirm"}}; /* neither result nor argv */
    struct an_openai_opts o = {.tools = tools, .ntools = 1};
    respond(&x, sse(CHUNKS(
                    TEXT("Please confirm."),
                    TC("{\"index\":0,\"id\":\"k\",\"function\":{\"name\":\"confirm\","
                       "\"arguments\":\"{}\"}}"),
                    TC("{\"index\":1,\"id\":\"u\",\"function\":{\"name\":\"rm_rf\","
                       "\"arguments\":\"{}\"}}"),
                    FIN("tool_calls"), DONE)));
    respond(&x, sse(CHUNKS(TEXT("ok"), FIN("stop"), DONE)));
    sess_open(&x, &o);

    struct an_turn_rec *r = sess_turn(&x, "delete it");
    assert_ok(r);
    assert_int_equal(x.sv.nrequests, 1); /* the turn ended without asking again */
    assert_string_equal(r->text, "Please confirm.");
    assert_int_equal(r->ncalls, 2);
    assert_null(x.t.calls[0].result);
    assert_null(x.t.calls[1].result);
    assert_true(has_warning(r, "the model called 'rm_rf', which is not one of the target's "
                               "tools: the turn ends here"));

    /* the next turn still sends a valid conversation: each call answered */
    r = sess_turn(&x, "yes");
    assert_ok(r);
    json_t *q = request_json(&x.sv, 1);
    json_t *msgs = json_object_get(q, "messages");
    assert_int_equal(json_array_size(msgs), 5);
    assert_string_equal(an_json_str(json_array_get(msgs, 1), "content"), "Please confirm.");
    assert_string_equal(an_json_str(json_array_get(msgs, 2), "tool_call_id"), "k");
    assert_has(an_json_str(json_array_get(msgs, 3), "content"), "no result");
    json_decref(q);
    sess_close(&x);
}

static void test_session_max_rounds(void **state)
{
    (void)state;
    struct sess x = {0};
    json_t *res = json_string("again");
    struct an_openai_tool tools[] = {{.name = "get_weather", .result = res}};
    struct an_openai_opts o = {.tools = tools, .ntools = 1, .max_rounds = 2};
    respond(&x, sse(CHUNKS(WEATHER_CALL)));
    respond(&x, sse(CHUNKS(WEATHER_CALL)));
    sess_open(&x, &o);
    struct an_turn_rec *r = sess_turn(&x, "loop");
    assert_int_equal(r->status, AN_TURN_ERROR);
    assert_int_equal(r->error_code, AN_ELIMIT);
    assert_has(r->error, "the model still asked for tools after 2 rounds");
    assert_int_equal(r->ncalls, 2);
    assert_false(an_turn_retryable(r));
    sess_close(&x);
    json_decref(res);
}

static void test_session_http_error(void **state)
{
    (void)state;
    struct sess x = {0};
    struct an_openai_opts o = {0};
    respond(&x, json_answer("429 Too Many Requests", "Retry-After: 2\r\n",
                            "{\"error\":{\"message\":\"Rate limit reached for test-model\","
                            "\"type\":\"requests\"}}"));
    respond(&x, json_answer("404 Not Found", "", "<html>nope</html>"));
    sess_open(&x, &o);
    struct an_turn_rec *r = sess_turn(&x, "hi");
    assert_int_equal(r->status, AN_TURN_ERROR);
    assert_int_equal(r->error_code, AN_EHTTP);
    assert_int_equal(r->http_status, 429);
    assert_has(r->error, "HTTP 429 from http://127.0.0.1:");
    assert_has(r->error, "/v1/chat/completions: Rate limit reached for test-model");
    assert_true(an_turn_retryable(r));
    assert_int_equal(x.s->ops->retry_after_ms(x.s), 2000);

    /* the retry sends the same conversation, the user message once */
    an_turn_reset(r);
    CURL *easy = NULL;
    assert_int_equal(x.s->ops->begin(x.s, &x.t, "hi", true, &easy), AN_OK);
    x.s->ops->end(x.s, &x.t, curl_easy_perform(easy));
    assert_false(x.s->ops->next(x.s, &x.t, &easy));
    assert_int_equal(r->error_code, AN_EHTTP);
    assert_has(r->error, "HTTP 404: <html>nope</html>");
    assert_false(an_turn_retryable(r));
    json_t *q0 = request_json(&x.sv, 0), *q1 = request_json(&x.sv, 1);
    assert_true(json_equal(json_object_get(q0, "messages"), json_object_get(q1, "messages")));
    assert_int_equal(json_array_size(json_object_get(q1, "messages")), 1);
    json_decref(q0);
    json_decref(q1);
    sess_close(&x);
}

static void test_session_refused(void **state)
{
    (void)state;
    struct an_openai_opts o = {.base_url = "http://127.0.0.1:1/v1", .model = "m",
                               .timeout_ms = 5000};
    struct an_session *s;
    struct an_err e = AN_ERR_INIT;
    struct an_transcript t;
    an_transcript_init(&t);
    assert_int_equal(an_openai_open(&s, &o, &e), AN_OK);
    an_transcript_add_turn(&t, "user");
    an_session_turn(s, &t, "hi");
    assert_int_equal(t.turns[0].status, AN_TURN_ERROR);
    assert_int_equal(t.turns[0].error_code, AN_ECONNECT);
    assert_true(an_turn_retryable(&t.turns[0]));
    an_session_free(s);
    an_transcript_release(&t);
}

static void test_session_bad_streams(void **state)
{
    (void)state;
    struct sess x = {0};
    struct an_openai_opts o = {0};
    respond(&x, sse(CHUNKS(TEXT("partial"), TEXT(" answer"))));
    respond(&x, sse(CHUNKS(TEXT("a"), "{\"choices\":[{\"delta\":{\"content\":\"b\"", FIN("stop"),
                           DONE)));
    respond(&x, sse(CHUNKS(USAGE, DONE)));
    sess_open(&x, &o);

    struct an_turn_rec *r = sess_turn(&x, "one");
    assert_int_equal(r->error_code, AN_EPROTO);
    assert_has(r->error, "the stream was cut after 2 chunks, before finish_reason and [DONE]");
    assert_string_equal(r->text, "partial answer"); /* what arrived is kept */
    assert_false(an_turn_retryable(r));

    r = sess_turn(&x, "two");
    assert_int_equal(r->error_code, AN_EPROTO);
    assert_has(r->error, "chunk #2 is not valid JSON (");
    assert_has(r->error, "{\"choices\":[{\"delta\":{\"content\":\"b\"");

    r = sess_turn(&x, "three");
    assert_int_equal(r->error_code, AN_EPROTO);
    assert_has(r->error, "empty answer");
    sess_close(&x);
}

static void test_session_no_stream(void **state)
{
    (void)state;
    struct sess x = {0};
    json_t *res = json_string("12 degrees");
    struct an_openai_tool tools[] = {{.name = "get_weather", .result = res}};
    struct an_openai_opts o = {.tools = tools, .ntools = 1, .no_stream = true};
    respond(&x, json_answer("200 OK", "",
                            "{\"id\":\"r1\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                            "\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c\",\"type\":"
                            "\"function\",\"function\":{\"name\":\"get_weather\",\"arguments\":"
                            "\"{}\"}}]},\"finish_reason\":\"tool_calls\"}]}"));
    respond(&x, json_answer("200 OK", "",
                            "{\"id\":\"r2\",\"choices\":[{\"index\":0,\"message\":{\"role\":"
                            "\"assistant\",\"content\":\"12 degrees.\"},\"finish_reason\":"
                            "\"stop\"}]}"));
    respond(&x, json_answer("200 OK", "", "not json"));
    sess_open(&x, &o);

    struct an_turn_rec *r = sess_turn(&x, "weather?");
    assert_ok(r);
    assert_string_equal(r->text, "12 degrees.");
    assert_string_equal(r->run_id, "r2");
    assert_json(x.t.calls[0].result, "\"12 degrees\"");
    assert_int_equal(r->events, 2);
    json_t *q = request_json(&x.sv, 0);
    assert_true(json_is_false(json_object_get(q, "stream")));
    assert_null(json_object_get(q, "stream_options"));
    json_decref(q);
    assert_has(x.sv.requests[0], "Accept: application/json");
    assert_null(strstr(x.sv.requests[0], "Authorization"));

    r = sess_turn(&x, "again");
    assert_int_equal(r->error_code, AN_EPROTO);
    assert_has(r->error, "the answer is not valid JSON (");
    assert_has(r->error, "): not json");
    sess_close(&x);
    json_decref(res);
}

static void test_open_errors(void **state)
{
    (void)state;
    json_t *params = parse("{\"stream\":false}");
    json_t *hist = parse("[{\"role\":\"wizard\",\"content\":\"x\"}]");
    struct an_openai_tool twice[] = {{.name = "a"}, {.name = "a"}};
    struct an_kv bad_hdr[] = {{"X-A", "1\r\nX-B: 2"}};
    static const struct {
        struct an_openai_opts o;
        int rc;
        const char *want;
    } rows[] = {
        {{.model = "m"}, AN_EUSAGE, "no base URL"},
        {{.base_url = "http://h/v1"}, AN_EUSAGE, "has no model"},
        {{.base_url = "http://h/v1", .model = "m", .params = NULL, .tools = NULL}, AN_OK, ""},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct an_session *s = NULL;
        struct an_err e = AN_ERR_INIT;
        assert_int_equal(an_openai_open(&s, &rows[i].o, &e), rows[i].rc);
        assert_has(e.msg, rows[i].want);
        an_session_free(s);
    }
    struct an_openai_opts o = {.base_url = "http://h/v1", .model = "m", .params = params};
    struct an_session *s = NULL;
    struct an_err e = AN_ERR_INIT;
    assert_int_equal(an_openai_open(&s, &o, &e), AN_EUSAGE);
    assert_has(e.msg, "params cannot set 'stream'");
    o = (struct an_openai_opts){.base_url = "http://h/v1", .model = "m", .history = hist};
    assert_int_equal(an_openai_open(&s, &o, &e), AN_ESCHEMA);
    assert_has(e.msg, "history message #1 has role 'wizard'");
    o = (struct an_openai_opts){.base_url = "http://h/v1", .model = "m", .tools = twice,
                                .ntools = 2};
    assert_int_equal(an_openai_open(&s, &o, &e), AN_EUSAGE);
    assert_has(e.msg, "tool 'a' is declared twice");
    o = (struct an_openai_opts){.base_url = "http://h/v1", .model = "m", .headers = bad_hdr,
                                .nheaders = 1};
    assert_int_equal(an_openai_open(&s, &o, &e), AN_EUSAGE);
    assert_has(e.msg, "invalid HTTP header 'X-A'");
    assert_null(s);
    json_decref(params);
    json_decref(hist);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_content_pieces),
        cmocka_unit_test(test_interleaved_calls),
        cmocka_unit_test(test_call_quirks),
        cmocka_unit_test(test_stream_end),
        cmocka_unit_test(test_bad_chunks),
        cmocka_unit_test(test_calls_without_index),
        cmocka_unit_test(test_body),
        cmocka_unit_test(test_error_message),
        cmocka_unit_test(test_history_plain_and_tools),
        cmocka_unit_test(test_history_parts),
        cmocka_unit_test(test_history_errors),
        cmocka_unit_test(test_request_body),
        cmocka_unit_test(test_session_tool_loop),
        cmocka_unit_test(test_session_commands),
        cmocka_unit_test(test_session_unanswered_tools),
        cmocka_unit_test(test_session_max_rounds),
        cmocka_unit_test(test_session_http_error),
        cmocka_unit_test(test_session_refused),
        cmocka_unit_test(test_session_bad_streams),
        cmocka_unit_test(test_session_no_stream),
        cmocka_unit_test(test_open_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
