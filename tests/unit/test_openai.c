/*
 * OpenAI-compatible adapter, the pure parts: stream chunks and JSON answers
 * assembled into text and tool calls, AG-UI history converted to
 * chat-completions messages, the request body. Whole sessions are in
 * test_openai_session.c.
 */
#include "oai_test.h"

/* ---- stream assembly ---- */

static void test_content_pieces(void **state)
{
    (void)state;
    struct an_oai_answer a;
    struct an_err e = AN_ERR_INIT;
    an_oai_answer_init(&a);
    assert_int_equal(
        feed(&a,
             CHUNKS(CH("{\"role\":\"assistant\",\"content\":\"\"}"), TEXT("Hel"), TEXT("lo, "),
                    CH("{\"content\":null}"), TEXT("w\\u00f6rld"), FIN("stop"), USAGE, DONE),
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
        {"{\"choices\":[{\"delta\":{\"content\":\"a\"}", AN_EPROTO, "chunk #2 is not valid JSON ("},
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
    int rc =
        feed(&a,
             CHUNKS(TC("{\"id\":\"x1\",\"function\":{\"name\":\"a\",\"arguments\":\"{\"}}"),
                    TC("{\"function\":{\"arguments\":\"}\"}}"),
                    TC("{\"id\":\"x2\",\"function\":{\"name\":\"b\"}}"), FIN("tool_calls"), DONE),
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
    assert_json(m, "[{\"role\":\"system\",\"content\":\"Be brief.\"},"
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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
