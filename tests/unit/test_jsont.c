/* .jsont loading: interpolation passes, locations of errors, the model. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/json.h"
#include "load/jsont.h"
#include "run/comply.h"

#define HEAD                                                                                       \
    "{\"title\":\"T\",\"description\":\"D\",\"severity\":\"required\",\"docs\":"                   \
    "[\"u\"],"

static struct an_jsont *load_ok(const char *text)
{
    struct an_jsont *t = NULL;
    struct an_err err = AN_ERR_INIT;
    int rc = an_jsont_load_text(&t, "dir/x.y.jsont", text, strlen(text), &err);
    if (rc)
        fail_msg("load failed: %s", err.msg);
    return t;
}

static void test_model(void **state)
{
    (void)state;
    struct an_jsont *t =
        load_ok(HEAD "\"area\":\"A\",\"future\":1,\"init\":{\"clientCapabilities\":{"
                     "\"terminal\":false},"
                     "\"permissionPolicy\":\"read\"},"
                     "\"sandbox\":{\"files\":[{\"path\":\"a/b.txt\",\"text\":\"hi\"},"
                     "{\"path\":\"c.bin\",\"base64\":\"AAEC\"}]},"
                     "\"preconditions\":[{\"agentCap\":\"loadSession\"},{\"cap\":"
                     "\"client.terminal\","
                     "\"mustBe\":false}],"
                     "\"steps\":[{\"send\":{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":"
                     "\"initialize\","
                     "\"params\":{\"protocolVersion\":${protocolVersionDefault},"
                     "\"clientCapabilities\":${clientCapabilitiesDefault}}}},"
                     "{\"newSession\":{}},{\"send\":{\"id\":3,\"method\":\"m\","
                     "\"expectError\":true}},"
                     "{\"expect\":{\"messages\":[{\"clientRequest\":{\"method\":\"x\"},"
                     "\"reply\":"
                     "{\"result\":{}}}],\"captures\":[{\"path\":\"params.a\",\"var\":"
                     "\"v\"}]}},"
                     "{\"forbid\":{\"methods\":[\"fs/read_text_file\"]}},{\"delayMs\":5},"
                     "{\"send\":{\"method\":\"n\",\"params\":{\"s\":\"${v} ${sessionId} "
                     "$${lit}\"}}}]}");
    assert_string_equal(t->id, "x.y");
    assert_string_equal(t->area, "A");
    assert_true(t->required);
    assert_int_equal(t->policy, AN_POLICY_READ);
    assert_true(t->self_init);
    assert_int_equal(t->nfiles, 2);
    assert_int_equal(t->files[1].len, 3);
    assert_memory_equal(t->files[1].data, "\0\1\2", 3);
    /* defaults merged with the override; the bare variable got the same */
    char *caps = an_json_compact(t->client_caps);
    assert_string_equal(caps, "{\"fs\":{\"readTextFile\":true,\"writeTextFile\":true},"
                              "\"terminal\":false}");
    char *sent = an_json_compact(
        json_object_get(json_object_get(t->steps[0].frame, "params"), "clientCapabilities"));
    assert_string_equal(sent, caps);
    free(caps);
    free(sent);
    assert_int_equal(json_integer_value(json_object_get(
                         json_object_get(t->steps[0].frame, "params"), "protocolVersion")),
                     1);
    assert_string_equal(t->steps[1].capture, "sessionId");
    assert_int_equal(t->steps[2].expect_error, 1);
    assert_null(json_object_get(t->steps[2].frame, "expectError"));
    assert_int_equal(t->steps[3].ms, AN_JSONT_EXPECT_TIMEOUT_MS);
    assert_non_null(t->steps[3].msgs[0].reply);
    assert_int_equal(t->steps[4].ms, AN_JSONT_FORBID_TIMEOUT_MS);
    assert_int_equal(t->steps[5].ms, 5);
    /* preconditions: agentCap and cap */
    json_t *ac = json_pack("{s:b}", "loadSession", 0);
    char *na = an_comply_precheck(t, ac);
    assert_non_null(na);
    assert_non_null(strstr(na, "agentCap 'loadSession' must be true"));
    free(na);
    json_object_set_new(ac, "loadSession", json_true());
    assert_null(an_comply_precheck(t, ac)); /* terminal is false, as required */
    json_decref(ac);

    /* pass 2: lazy resolution, regex quoting */
    struct an_vars v = AN_VARS_INIT;
    an_vars_set(&v, "v", "a.b");
    an_vars_set(&v, "sessionId", "s1");
    char *out;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_jsont_resolve_str("${v} ${sessionId} $${lit}", &v, false, &out, &err), 0);
    assert_string_equal(out, "a.b s1 ${lit}");
    free(out);
    assert_int_equal(an_jsont_resolve_str("^${v}$", &v, true, &out, &err), 0);
    assert_string_equal(out, "^\\Qa.b\\E$");
    free(out);
    assert_int_equal(an_jsont_resolve_str("${nope}", &v, false, &out, &err), AN_EVAR);
    assert_non_null(strstr(err.msg, "'nope'"));
    an_vars_release(&v);
    an_jsont_free(t);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        int code;
        const char *where; /* "line:col" or "" */
        const char *msg;
    } rows[] = {
        {HEAD "\n\"steps\":[{\"send\":{\"method\":\"m\",\"id\":${sessionId}}}]}", AN_EVAR, "2:37",
         "'${sessionId}' outside a string"},
        {HEAD "\n\"steps\":[{\"send\":{\"method\":\"m\",\"p\":\"${nope}\"}}]}", AN_EVAR, "2:37",
         "unknown variable 'nope'"},
        {HEAD "\"steps\":[{\"send\":{\"method\":\"m\",\"p\":\"${bad name}\"}}]}", AN_ESCHEMA, "",
         "invalid variable reference"},
        {"{\"a\": ${protocolVersionDefault},\n  \"b\": }", AN_EPARSE, "2:8", "invalid JSON"},
        {HEAD "\"steps\":[{\"sned\":{}}]}", AN_ESCHEMA, "", "steps[0] has no known kind ('sned'?)"},
        {HEAD "\"steps\":[{\"delayMs\":1},{\"delayMs\":\"x\"}]}", AN_ESCHEMA, "",
         "steps[1]: 'delayMs' must be a whole number"},
        {HEAD "\"steps\":[{\"expect\":{\"messages\":[{\"response\":{\"id\":\"(\"}"
              "}]}}]}",
         AN_EREGEX, "", "steps[0]: expect.messages[0].response: id: invalid regex"},
        {HEAD "\"steps\":[{\"expect\":{\"messages\":[{\"respons\":{}}]}}]}", AN_ESCHEMA, "",
         "needs one of 'response'"},
        {"{\"title\":\"T\",\"description\":\"D\",\"severity\":\"must\",\"docs\":["
         "\"u\"],"
         "\"steps\":[{\"delayMs\":1}]}",
         AN_ESCHEMA, "", "'severity' must be"},
        {HEAD "\"sandbox\":{\"files\":[{\"path\":\"../"
              "x\",\"text\":\"\"}]},\"steps\":[{\"delayMs\":1}]}",
         AN_ESCHEMA, "", "must be relative"},
        {HEAD "\"steps\":[]}", AN_ESCHEMA, "", "'steps' must be a non-empty array"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_jsont *t = NULL;
        struct an_err err = AN_ERR_INIT;
        int rc = an_jsont_load_text(&t, "f.jsont", rows[i].text, strlen(rows[i].text), &err);
        assert_null(t);
        if (rc != rows[i].code || !strstr(err.msg, rows[i].msg))
            fail_msg("row %zu: code %d msg '%s'", i, rc, err.msg);
        if (*rows[i].where) {
            char at[32];
            snprintf(at, sizeof at, "%u:%u", err.line, err.col);
            if (strcmp(at, rows[i].where))
                fail_msg("row %zu: at %s, want %s (%s)", i, at, rows[i].where, err.msg);
        }
    }
}

static void test_path(void **state)
{
    (void)state;
    json_t *v = json_loads("{\"result\":{\"modes\":{\"a\":[{\"id\":\"x\"}]}}}", 0, NULL);
    assert_string_equal(json_string_value(an_jsont_path(v, "result.modes.a.0.id")), "x");
    assert_null(an_jsont_path(v, "result.nope"));
    assert_null(an_jsont_path(v, "result.modes.a.7"));
    json_decref(v);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
