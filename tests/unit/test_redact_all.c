/* Redaction in every output: streams cut every way, cuts, the match limit,
 * a failing hook's output, a whole result (run/redact*.c, run/secrets.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/result.h"
#include "run/redact.h"
#include "run/redact_result.h"
#include "run/secrets.h"

#define SECRET "sk-interleaved-5ecret-4242"

struct frames_row {
    const char *what;
    const char *in[8];
    const char *want[8];
};

/* Every shape a streamed secret may take across frames: each row's frames
 * redacted together must hold no piece of it. */
static void test_frames_shapes(void **state)
{
    (void)state;
    static const struct frames_row rows[] = {
        {"two messages whose deltas alternate",
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"sk-interl\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"hello th\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"eaved-5ecr\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"ere\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"et-4242!\"}", NULL},
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"hello th\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m2\",\"delta\":\"ere\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]!\"}"}},
        {"CONTENT then CHUNK of one message",
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"key: sk-interle\"}",
          "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"aved-5ecret-4242\"}",
          NULL},
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"key: [redacted]\"}",
          "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}"}},
        {"CONTENT then a CHUNK that names no message",
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"sk-interleaved\"}",
          "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"-5ecret-4242\"}", NULL},
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}",
          "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"delta\":\"[redacted]\"}"}},
        {"two tool calls' argument deltas alternate",
         {"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"k\\\":\\\"sk-"
          "inter\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c2\",\"delta\":\"{\\\"q\\\":\\\"x\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"leaved-5ecret-4242\\\"}"
          "\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c2\",\"delta\":\"\\\"}\"}", NULL},
         {"{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"{\\\"k\\\":\\\"[redacted]"
          "\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c2\",\"delta\":\"{\\\"q\\\":\\\"x\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c1\",\"delta\":\"[redacted]\\\"}\"}",
          "{\"type\":\"TOOL_CALL_ARGS\",\"toolCallId\":\"c2\",\"delta\":\"\\\"}\"}"}},
        {"OpenAI parallel tool calls, told apart by index",
         {"{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{"
          "\"arguments\":\"sk-interleav\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{"
          "\"arguments\":\"{}\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{"
          "\"arguments\":\"ed-5ecret-4242\"}}]}}]}",
          NULL},
         {"{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{"
          "\"arguments\":\"[redacted]\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":1,\"function\":{"
          "\"arguments\":\"{}\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{"
          "\"arguments\":\"[redacted]\"}}]}}]}"}},
        {"a stream cut in the middle of the secret",
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ok sk-in\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"terleav\"}", NULL},
         {"{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"ok [redacted]\"}",
          "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m1\",\"delta\":\"[redacted]\"}"}},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        struct an_redactor *rd = an_redactor_new();
        an_redactor_add_secret(rd, "token", SECRET);
        size_t n = 0;
        while (rows[r].in[n])
            n++;
        char **out = an_redact_frames(rd, rows[r].in, n, NULL);
        for (size_t i = 0; i < n; i++) {
            if (strcmp(out[i], rows[r].want[i]))
                fail_msg("%s: frame %zu: '%s', expected '%s'", rows[r].what, i, out[i],
                         rows[r].want[i]);
            free(out[i]);
        }
        free(out);
        an_redactor_free(rd);
    }
}

struct text_row {
    const char *secret, *pattern, *in, *want;
};

/* Messages whose contents continue each other: searched joined, cut in a
 * copy (the tree may be shared), keys too; nothing found: NULL. */
static void test_tree(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    an_redactor_add_secret(rd, "token", SECRET);
    json_t *msgs = json_loads("[{\"role\":\"user\",\"content\":\"hi\"},"
                              "{\"role\":\"assistant\",\"content\":\"cc sk-interleav\"},"
                              "{\"role\":\"assistant\",\"content\":\"ed-5ecret-4242 done\"}]",
                              0, NULL);
    char *before = json_dumps(msgs, JSON_COMPACT);
    json_t *out = an_redact_tree(rd, msgs, NULL);
    assert_non_null(out);
    char *after = json_dumps(out, JSON_COMPACT);
    assert_string_equal(after, "[{\"role\":\"user\",\"content\":\"hi\"},"
                               "{\"role\":\"assistant\",\"content\":\"cc [redacted]\"},"
                               "{\"role\":\"assistant\",\"content\":\"[redacted] done\"}]");
    char *again = json_dumps(msgs, JSON_COMPACT);
    assert_string_equal(before, again); /* the original is untouched */
    json_t *key = json_loads("{\"" SECRET "\": 1}", 0, NULL);
    json_t *k2 = an_redact_tree(rd, key, NULL);
    assert_non_null(json_object_get(k2, "[redacted]"));
    json_t *plain = json_loads("{\"a\": [\"b\", {\"c\": \"d\"}]}", 0, NULL);
    assert_null(an_redact_tree(rd, plain, NULL));
    free(before);
    free(after);
    free(again);
    json_decref(msgs);
    json_decref(out);
    json_decref(key);
    json_decref(k2);
    json_decref(plain);
    an_redactor_free(rd);
}

/* The cut rule: the start of a secret before "..." or at the end goes too. */
static void test_cuts(void **state)
{
    (void)state;
    static const struct text_row rows[] = {
        {SECRET, NULL, "HTTP 500: token=sk-interleaved-5...", "HTTP 500: token=[redacted]..."},
        {SECRET, NULL, "stdout: \"{\\\"K\\\": \\\"sk-interlea...\"; stderr: \"x\"",
         "stdout: \"{\\\"K\\\": \\\"[redacted]...\"; stderr: \"x\""},
        {SECRET, NULL, "cut at the end: sk-interl", "cut at the end: [redacted]"},
        {SECRET, NULL, "ellipsis sk-inter\xE2\x80\xA6", "ellipsis [redacted]\xE2\x80\xA6"},
        {SECRET, NULL, "too short to tell: sk-...", "too short to tell: sk-..."},
        {SECRET, NULL, "its stderr ends: ...rleaved-5ecret-4242 bye",
         "its stderr ends: ...[redacted] bye"},
        {SECRET, NULL, "a word: interleaved...", "a word: interleaved..."},
        {NULL, "card-\\d{4}-\\d{4}", "body: card-1234-56...", "body: [redacted]..."},
        {NULL, "card-\\d{4}-\\d{4}", "total 5", "total 5"},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        struct an_redactor *rd = an_redactor_new();
        if (rows[r].secret)
            an_redactor_add_secret(rd, "token", rows[r].secret);
        if (rows[r].pattern)
            assert_int_equal(an_redactor_add_regex(rd, rows[r].pattern, NULL), 0);
        char *got = an_redact_text(rd, rows[r].in, strlen(rows[r].in), NULL, NULL);
        const char *g = got ? got : rows[r].in;
        if (strcmp(g, rows[r].want))
            fail_msg("row %zu: '%s', expected '%s'", r, g, rows[r].want);
        free(got);
        an_redactor_free(rd);
    }
}

/* An error that quotes one event of a stream: the piece of a secret at
 * the edges of a quoted string goes too (an_redact_quoted). */
static void test_quoted(void **state)
{
    (void)state;
    static const struct text_row rows[] = {
        {SECRET, NULL, "violation at event #3 \u2014 {\"delta\":\"ved-5ecret-4242 done\"}",
         "violation at event #3 \u2014 {\"delta\":\"[redacted] done\"}"},
        {SECRET, NULL, "event: {\\\"delta\\\":\\\"ok sk-interleav\\\"}",
         "event: {\\\"delta\\\":\\\"ok [redacted]\\\"}"},
        {SECRET, NULL, "a piece: \"leaved-5ec\" alone", "a piece: \"[redacted]\" alone"},
        {SECRET, NULL, "no piece: \"int\" \"424\" \"hello\"",
         "no piece: \"int\" \"424\" \"hello\""},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        struct an_redactor *rd = an_redactor_new();
        an_redactor_add_secret(rd, "token", rows[r].secret);
        char *got = an_redact_quoted(rd, rows[r].in, strlen(rows[r].in), NULL, NULL);
        const char *g = got ? got : rows[r].in;
        if (strcmp(g, rows[r].want))
            fail_msg("row %zu: '%s', expected '%s'", r, g, rows[r].want);
        /* the plain rule leaves them */
        char *plain = an_redact_text(rd, rows[r].in, strlen(rows[r].in), NULL, NULL);
        if (r < 3 && plain && strstr(plain, "[redacted]"))
            fail_msg("row %zu: the plain rule found '%s'", r, plain);
        free(plain);
        free(got);
        an_redactor_free(rd);
    }
}

/* A pattern PCRE2 gives up on redacts the whole text, and says so. */
static void test_match_limit(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    assert_int_equal(an_redactor_add_regex(rd, "(a+)+$", NULL), 0);
    char in[64];
    memset(in, 'a', 40);
    memcpy(in + 40, "b secret", 9);
    char *got = an_redact_text(rd, in, strlen(in), NULL, NULL);
    assert_non_null(got);
    assert_string_equal(got, "[redacted]");
    free(got);
    size_t n = 0;
    assert_string_equal(an_redactor_gave_up(rd, 0, &n), "(a+)+$");
    assert_int_equal(n, 1);
    /* a copy shares the patterns and what they gave up on */
    struct an_redactor *c = an_redactor_clone(rd);
    got = an_redact_text(c, in, strlen(in), NULL, NULL);
    free(got);
    an_redactor_gave_up(rd, 0, &n);
    assert_int_equal(n, 2);
    an_redactor_free(c);
    an_redactor_free(rd);
}

/* What a failing hook printed: its secret-named members, as far as they go. */
static void test_hook_output(void **state)
{
    (void)state;
    static const struct {
        const char *out;
        const char *secret; /* NULL: none is learned */
    } rows[] = {
        {"{\"API_TOKEN\": \"tok-12345678\", \"CART\": \"cart-7\"}", "tok-12345678"},
        {"{\"CART\": \"cart-7\", \"db_password\": \"pw-abcdefgh\"", "pw-abcdefgh"},
        {"{\"SESSION_TOKEN\": \"cut-in-the-mid", "cut-in-the-mid"},
        {"{\"SESSION_TOKEN\": \"esc\\u0061ped-value\"}", "escaped-value"},
        {"{\"PIN_KEY\": 12345678}", "12345678"},
        {"{\"CART\": \"cart-777777\"}", NULL},
        {"not json at all API_TOKEN=x", NULL},
    };
    for (size_t r = 0; r < sizeof rows / sizeof *rows; r++) {
        struct an_redactor *rd = an_redactor_new();
        an_secrets_from_hook_output(rd, rows[r].out, strlen(rows[r].out), NULL, NULL);
        if (!rows[r].secret) {
            assert_true(an_redactor_empty(rd));
        } else {
            char *got = an_redact_text(rd, rows[r].secret, strlen(rows[r].secret), NULL, NULL);
            if (!got || strcmp(got, "[redacted]"))
                fail_msg("row %zu: '%s' was not learned", r, rows[r].secret);
            free(got);
        }
        an_redactor_free(rd);
    }
}

/* Every string of a result goes through the redactor: a few of each kind. */
static void test_result(void **state)
{
    (void)state;
    struct an_redactor *rd = an_redactor_new();
    an_redactor_add_secret(rd, "hook variable API_TOKEN", SECRET);
    struct an_test_result t = {0};
    t.name = strdup("login as " SECRET);
    t.error = strdup("hook 'x' timed out; stdout: \"{\\\"API_TOKEN\\\": \\\"sk-interleav...\"");
    an_findings_add(&t.findings, "text.must_not_match", 0, NULL, 1, 1, "a", "b",
                    "matched '" SECRET "'", NULL);
    an_transcript_init(&t.transcript);
    struct an_turn_rec *r = an_transcript_add_turn(&t.transcript, "user");
    r->input = strdup("use " SECRET);
    r->text = strdup("ok " SECRET);
    an_turn_warn(r, "unknown event with %s", SECRET);
    static const char f1[] =
        "{\"type\":\"TEXT_MESSAGE_CONTENT\",\"messageId\":\"m\",\"delta\":\"ok sk-inter\"}";
    static const char f2[] =
        "{\"type\":\"TEXT_MESSAGE_CHUNK\",\"messageId\":\"m\",\"delta\":\"leaved-5ecret-4242\"}";
    an_turn_add_frame(r, 1, f1, strlen(f1));
    an_turn_add_frame(r, 2, f2, strlen(f2));
    struct an_tool_call *tc = an_transcript_add_call(&t.transcript, 0);
    tc->name = strdup("login_" SECRET);
    tc->args_text = strdup("{\"token\":\"" SECRET "\"}");
    char why[64];
    an_tool_call_parse_args(tc, why, sizeof why);
    tc->result = json_pack("{s:s}", "session", SECRET);
    /* a secret behind \u escapes, arguments not parsed yet (lazy) */
    struct an_tool_call *esc = an_transcript_add_call(&t.transcript, 0);
    esc->name = strdup("login");
    esc->args_text = strdup("{\"token\":\"s\\u006b-interleaved-5ecret-4242\"}");
    an_tool_call_parse_args(esc, why, sizeof why);
    tc = &t.transcript.calls[0];

    an_test_result_redact(&t, rd);
    assert_string_equal(t.name, "login as [redacted]");
    assert_null(strstr(t.error, "sk-inter"));
    assert_string_equal(t.findings.v[0].actual, "matched '[redacted]'");
    assert_string_equal(r->input, "use [redacted]");
    assert_string_equal(r->text, "ok [redacted]");
    assert_string_equal(r->warnings[0], "unknown event with [redacted]");
    assert_null(strstr(r->frames[0].data, "sk-inter"));
    assert_null(strstr(r->frames[1].data, "leaved"));
    tc = &t.transcript.calls[0];
    assert_string_equal(tc->name, "login_[redacted]");
    assert_string_equal(json_string_value(json_object_get(an_tool_call_args(tc), "token")),
                        "[redacted]");
    assert_string_equal(json_string_value(json_object_get(tc->result, "session")), "[redacted]");
    esc = &t.transcript.calls[1];
    assert_null(strstr(esc->args_text, "5ecret"));
    assert_string_equal(json_string_value(json_object_get(an_tool_call_args(esc), "token")),
                        "[redacted]");
    /* what was replaced, by label, frames apart */
    assert_int_equal(t.nredacted, 2);
    assert_string_equal(t.redacted[0].what, "hook variable API_TOKEN");
    assert_false(t.redacted[0].frames);
    assert_true(t.redacted[1].frames);
    an_test_result_release(&t);

    /* no secret at all: nothing changes, nothing is counted */
    struct an_redactor *none = an_redactor_new();
    struct an_test_result u = {0};
    u.name = strdup("plain " SECRET);
    an_test_result_redact(&u, none);
    assert_string_equal(u.name, "plain " SECRET);
    assert_int_equal(u.nredacted, 0);
    an_test_result_release(&u);
    an_redactor_free(none);
    an_redactor_free(rd);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_shapes), cmocka_unit_test(test_cuts),
        cmocka_unit_test(test_quoted),        cmocka_unit_test(test_tree),
        cmocka_unit_test(test_match_limit),   cmocka_unit_test(test_hook_output),
        cmocka_unit_test(test_result),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
