/*
 * --replay-tools (docs/tools.md "Record and replay"): the canonical text a
 * call is matched on (tools/canon.c), as a table {arguments, ignored
 * paths, canonical text}; and the recorded traffic read as hostile input
 * and answering (tools/replay.c): successive identical calls, the last one
 * again, per test, ignore_args, and each malformed file's error at
 * file:line:col, the size cap naming its key, a link refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "ananke/tools.h"
#include "tools/canon.h"
#include "tools/ctx.h"
#include "tools/replay.h"
#include "tools/tools.h"

static const struct {
    const char *args; /* NULL: no arguments */
    const char *ignore[3];
    const char *want;
} canon_table[] = {
    {NULL, {NULL}, "{}"},
    {"{}", {NULL}, "{}"},
    {"null", {NULL}, "{}"},
    {"{\"b\": 1, \"a\": 2}", {NULL}, "{\"a\":2,\"b\":1}"},
    {"{\"z\": {\"y\": 1, \"x\": [3, {\"d\": 1, \"c\": 2}]}}",
     {NULL},
     "{\"z\":{\"x\":[3,{\"c\":2,\"d\":1}],\"y\":1}}"},
    /* numbers: 1, 1.0 and 1e0 are one number; -0 is 0; fractions stay */
    {"{\"a\": 1.0, \"b\": 1e0, \"c\": -0.0, \"d\": 2.5, \"e\": 1E3}",
     {NULL},
     "{\"a\":1,\"b\":1,\"c\":0,\"d\":2.5,\"e\":1000}"},
    {"{\"a\": 1e300}", {NULL}, "{\"a\":1.0000000000000001e300}"},
    {"{\"s\": \"caf\\u00e9 \\\"q\\\"\"}", {NULL}, "{\"s\":\"caf\xc3\xa9 \\\"q\\\"\"}"},
    /* ignored paths */
    {"{\"m\": \"hi\", \"request_id\": \"r-1\"}", {"request_id", NULL}, "{\"m\":\"hi\"}"},
    {"{\"m\": \"hi\", \"request_id\": \"r-1\"}", {"$.request_id", NULL}, "{\"m\":\"hi\"}"},
    {"{\"meta\": {\"ts\": 5, \"k\": 1}}", {"meta.ts", NULL}, "{\"meta\":{\"k\":1}}"},
    {"{\"items\": [{\"id\": 1, \"n\": 2}, {\"id\": 3, \"n\": 4}]}",
     {"items.*.id", NULL},
     "{\"items\":[{\"n\":2},{\"n\":4}]}"},
    {"{\"items\": [{\"id\": 1}, {\"id\": 3}]}",
     {"items[1].id", NULL},
     "{\"items\":[{\"id\":1},{}]}"},
    {"{\"items\": [1, 2, 3]}", {"items.1", NULL}, "{\"items\":[1,null,3]}"},
    {"{\"a\": 1, \"b\": 2}", {"*", NULL}, "{}"},
    {"{\"user.name\": \"x\", \"k\": 1}", {"user.name", NULL}, "{\"k\":1}"},
    {"{\"a\": 1}", {"absent.deep", "a.b", NULL}, "{\"a\":1}"},
    {"{\"a\": [1]}", {"a.7", "a.-1", NULL}, "{\"a\":[1]}"},
};

static void canonical(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof canon_table / sizeof *canon_table; i++) {
        json_error_t je;
        json_t *args = canon_table[i].args ? json_loads(canon_table[i].args, JSON_DECODE_ANY, &je)
                                           : NULL;
        size_t n = 0;
        while (n < 3 && canon_table[i].ignore[n])
            n++;
        char *got = an_tools_canon(args, canon_table[i].ignore, n);
        if (strcmp(got, canon_table[i].want))
            fail_msg("row %zu: %s gave %s, expected %s", i,
                     canon_table[i].args ? canon_table[i].args : "(none)", got,
                     canon_table[i].want);
        free(got);
        json_decref(args);
    }
}

/* ---- the recorded traffic ---- */

static char dir[64];

static void put(const char *rel, const char *text)
{
    char p[256];
    snprintf(p, sizeof p, "%s/%s", dir, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char *ignore_paths[] = {"request_id"};
static struct an_tool_ignore ignore = {.tool = "echo", .paths = ignore_paths, .npaths = 1};
static struct an_tool_server server = {.name = "shop", .ignore_args = &ignore, .nignore_args = 1};
static struct an_config cfg = {.tool_servers = &server, .ntool_servers = 1};

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/an-replay-XXXXXX");
    assert_non_null(mkdtemp(dir));
    char p[128];
    snprintf(p, sizeof p, "%s/tools", dir);
    assert_int_equal(mkdir(p, 0777), 0);
    put("run.json", "{}\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    an_tools_replay_close();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

#define HEAD "{\"format\": \"ananke-tools/1\", \"server\": \"shop\"}\n"
#define CALL(test, args, text)                                                                     \
    "{\"test\": \"" test "\", \"turn\": 1, \"method\": \"tools/call\", \"name\": \"echo\", "       \
    "\"arguments\": " args ", \"result\": {\"content\": [{\"type\": \"text\", \"text\": \"" text   \
    "\"}]}, \"is_error\": false, \"mocked\": false}\n"

static struct an_tool_ctx *cur; /* whose call it is (NULL: no test's) */

/* the text of the answer to cur's echo(args), or the miss */
static char *answer(const char *args)
{
    json_t *a = json_loads(args, 0, NULL), *id = json_integer(7);
    char *miss = NULL;
    json_t *r = an_replay_call(cur, "shop", "echo", a, id, &miss);
    char *out;
    if (r) {
        assert_null(miss);
        assert_int_equal(json_integer_value(json_object_get(r, "id")), 7);
        json_t *t = json_object_get(
            json_array_get(json_object_get(json_object_get(r, "result"), "content"), 0), "text");
        out = strdup(json_string_value(t));
    } else {
        assert_non_null(miss);
        out = miss;
    }
    json_decref(r);
    json_decref(a);
    json_decref(id);
    return out;
}

static void expect(const char *args, const char *want)
{
    char *got = answer(args);
    if (!strstr(got, want))
        fail_msg("echo(%s): got '%s', expected '%s'", args, got, want);
    free(got);
}

static void sequences(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    put("tools/shop.jsonl",
        HEAD CALL("pay", "{\"m\": 1, \"request_id\": \"a\"}", "first")
            CALL("pay", "{\"m\": 1, \"request_id\": \"b\"}", "second") CALL(
                "other", "{\"m\": 1}",
                "other test") "{\"test\": \"pay\", \"method\": \"tools/call\", \"name\": \"echo\", "
                              "\"arguments\": {\"m\": 2}, \"result\": null, \"mocked\": true}\n"
                              "{\"method\": \"tools/list\", \"result\": {\"tools\": []}}\n\n");
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_ERROR, &cfg, &err), 0);
    struct an_test pay = {.name = "pay"}, other = {.name = "other"};
    struct an_tool_ctx *cp = an_tool_ctx_new(&pay), *co = an_tool_ctx_new(&other);
    struct an_tool_ctx *cp2 = an_tool_ctx_new(&pay); /* a second run of it at once */
    assert_non_null(cp);
    cur = cp;
    an_tools_turn_begins(cp, NULL, 1);
    expect("{\"m\": 1.0, \"request_id\": \"zzz\"}", "first"); /* ignored, normalised */
    expect("{\"request_id\": \"y\", \"m\": 1}", "second");
    expect("{\"m\": 1}", "second"); /* past the recorded ones: the last again */
    expect("{\"m\": 2}", "no recorded call echo({\"m\":2}) on tool server 'shop' in test 'pay'");
    /* the agent's arguments are quoted up to 512 bytes, cut at a character */
    char big[2100] = "{\"m\": \"x";
    for (size_t i = strlen(big); i < 2000; i += 2)
        memcpy(big + i, "\xc3\xa9", 2);
    memcpy(big + 2000, "\"}", 3);
    char *got = answer(big);
    assert_non_null(strstr(got, "no recorded call echo({\"m\":\""));
    assert_non_null(strstr(got, "\xc3\xa9\xe2\x80\xa6 (2001 bytes)) on tool server 'shop'"));
    assert_true(strlen(got) < 800);
    free(got);
    an_tools_turn_begins(cp, NULL, 2); /* a later turn goes on */
    expect("{\"m\": 1}", "second");
    /* another test, and another run of the same test, in flight at the
     * same time: each has its own sequences, the first run's untouched */
    cur = co;
    an_tools_turn_begins(co, NULL, 1);
    expect("{\"m\": 1}", "other test");
    cur = cp2;
    an_tools_turn_begins(cp2, NULL, 1);
    expect("{\"m\": 1}", "first");
    cur = cp;
    expect("{\"m\": 1}", "second");
    an_tools_turn_begins(cp, NULL, 1); /* the test again: from the first */
    expect("{\"m\": 1}", "first");
    cur = NULL;
    expect("{\"m\": 1}", "outside the tests");
    an_tool_ctx_end(cp);
    an_tool_ctx_end(co);
    an_tool_ctx_end(cp2);
    json_t *id = json_integer(1);
    json_t *l = an_replay_answer("shop", "tools/list", id);
    assert_non_null(json_object_get(json_object_get(l, "result"), "tools"));
    json_decref(l);
    assert_null(an_replay_answer("shop", "initialize", id));
    json_decref(id);
}

static const struct {
    const char *text;
    const char *want; /* in the error, after DIR */
} bad_table[] = {
    {"", "/tools/shop.jsonl:1:1: the file is empty"},
    {"\n", "/tools/shop.jsonl:1:1: the first line must name the format"},
    {"{\"format\": \"ananke-tools/9\", \"server\": \"shop\"}\n",
     "/tools/shop.jsonl:1:1: the format is 'ananke-tools/9'; this ananke reads 'ananke-tools/1'"},
    {"{\"format\": \"ananke-tools/1\", \"server\": \"bank\"}\n",
     "/tools/shop.jsonl:1:1: this is the traffic of tool server 'bank', not of 'shop'"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"echo\",, }\n",
     "/tools/shop.jsonl:2:41: invalid JSON"},
    {HEAD "\n" CALL("t", "{}", "x") "[1]\n",
     "/tools/shop.jsonl:4:1: a line must be one JSON object"},
    {HEAD "{\"name\": \"echo\"}\n", "/tools/shop.jsonl:2:1: 'method' must be a string"},
    {HEAD "{\"method\": \"tools/call\", \"name\": 5, \"result\": {}}\n",
     "/tools/shop.jsonl:2:1: 'name' must be a string"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\", \"arguments\": [], \"result\": {}}\n",
     "'arguments' must be an object"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\"}\n",
     "a recorded answer has one of 'result' and 'error'"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\", \"result\": {}, \"error\": {}}\n",
     "a recorded answer has one of 'result' and 'error'"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\", \"result\": \"ok\"}\n",
     "'result' must be an object"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\", \"result\": {}, \"test\": 3}\n",
     "'test' must be a string or null"},
    {HEAD "{\"method\": \"tools/call\", \"name\": \"e\", \"result\": {}, \"result\": {}}\n",
     "/tools/shop.jsonl:2:"},
    {HEAD "{\"method\": \"initialize\", \"error\": 1}\n", "'error' must be an object"},
};

static void malformed(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof bad_table / sizeof *bad_table; i++) {
        struct an_err err = AN_ERR_INIT;
        put("tools/shop.jsonl", bad_table[i].text);
        int rc = an_tools_replay_open(dir, AN_REPLAY_MISS_ERROR, &cfg, &err);
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        const char *msg = an_err_format(&err, buf, sizeof buf);
        if (rc != AN_ESCHEMA || !strstr(msg, bad_table[i].want))
            fail_msg("row %zu: rc %d '%s', expected '%s'", i, rc, msg, bad_table[i].want);
        assert_false(an_replay_on());
    }
}

static void refused(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    char p[256], target[256];
    /* over the cap: an error naming the key */
    put("tools/shop.jsonl", HEAD CALL("t", "{}", "a long enough answer to cross the cap"));
    server.replay_max_bytes = 64;
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_ERROR, &cfg, &err), AN_ELIMIT);
    assert_non_null(strstr(err.msg, "larger than 64 bytes"));
    assert_non_null(strstr(err.msg, "(tool_servers.shop.replay_max_bytes)"));
    server.replay_max_bytes = 0;
    /* a link is never followed, even to a good file */
    snprintf(target, sizeof target, "%s/elsewhere.jsonl", dir);
    snprintf(p, sizeof p, "%s/tools/shop.jsonl", dir);
    put("elsewhere.jsonl", HEAD);
    unlink(p);
    assert_int_equal(symlink(target, p), 0);
    err = (struct an_err)AN_ERR_INIT;
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_ERROR, &cfg, &err), AN_EIO);
    assert_non_null(strstr(err.msg, "symbolic link"));
    /* absent: an error naming the server, unless passthrough */
    unlink(p);
    err = (struct an_err)AN_ERR_INIT;
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_ERROR, &cfg, &err), AN_ENOTFOUND);
    assert_non_null(strstr(err.msg, "no recorded traffic of tool server 'shop'"));
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_PASSTHROUGH, &cfg, &err), 0);
    assert_true(an_replay_on() && an_replay_passthrough());
    an_tools_replay_close();
    /* not a recording */
    snprintf(p, sizeof p, "%s/run.json", dir);
    unlink(p);
    err = (struct an_err)AN_ERR_INIT;
    assert_int_equal(an_tools_replay_open(dir, AN_REPLAY_MISS_PASSTHROUGH, &cfg, &err),
                     AN_ENOTFOUND);
    assert_non_null(strstr(err.msg, "is not an ananke recording"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(canonical),
        cmocka_unit_test_setup_teardown(sequences, setup, teardown),
        cmocka_unit_test_setup_teardown(malformed, setup, teardown),
        cmocka_unit_test_setup_teardown(refused, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
