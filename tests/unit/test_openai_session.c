/*
 * OpenAI-compatible adapter, whole sessions against a scripted HTTP server
 * on 127.0.0.1 (a thread answering each request with the next canned
 * response): the tool loop, commands as tools, errors and retries.
 */
#include "oai_test.h"

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

#define WEATHER_CALL                                                                               \
    TC("{\"index\":0,\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":"              \
       "\"get_weather\",\"arguments\":\"{\\\"city\\\":\"}}"),                                      \
        TC("{\"index\":0,\"function\":{\"arguments\":\"\\\"Paris\\\"}\"}}"), FIN("tool_calls"),    \
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
    struct an_openai_opts o = {.api_key = "sk-test",
                               .system = "You are terse.",
                               .tools = tools,
                               .ntools = 1,
                               .headers = hdr,
                               .nheaders = 1,
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
    assert_json(an_tool_call_args(c), "{\"city\":\"Paris\"}");
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
    respond(&x,
            sse(CHUNKS(TC("{\"index\":0,\"id\":\"e\",\"function\":{\"name\":\"echo\",\"arguments\":"
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
    assert_json(an_tool_call_args(&x.t.calls[2]), "{}");
    assert_null(an_tool_call_args(&x.t.calls[3]));
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
    respond(&x, sse(CHUNKS(TEXT("Please confirm."),
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
    struct an_openai_opts o = {
        .base_url = "http://127.0.0.1:1/v1", .model = "m", .timeout_ms = 5000};
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
    o = (struct an_openai_opts){
        .base_url = "http://h/v1", .model = "m", .tools = twice, .ntools = 2};
    assert_int_equal(an_openai_open(&s, &o, &e), AN_EUSAGE);
    assert_has(e.msg, "tool 'a' is declared twice");
    o = (struct an_openai_opts){
        .base_url = "http://h/v1", .model = "m", .headers = bad_hdr, .nheaders = 1};
    assert_int_equal(an_openai_open(&s, &o, &e), AN_EUSAGE);
    assert_has(e.msg, "invalid HTTP header 'X-A'");
    assert_null(s);
    json_decref(params);
    json_decref(hist);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
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
