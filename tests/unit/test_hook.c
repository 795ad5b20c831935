/* Hooks: the variables a test gets, and the message a user reads when a
 * hook fails. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/clock.h"
#include "run/hook.h"

#define CMD(...) ((const char *const[]){__VA_ARGS__})
#define NARGS(...) (sizeof((const char *const[]){__VA_ARGS__}) / sizeof(const char *))
#define HOOK(...)                                                                                  \
    {                                                                                              \
        .argv = CMD(__VA_ARGS__), .argc = NARGS(__VA_ARGS__), .timeout_ms = 5000                   \
    }

/* Runs the hook and checks the failure copy agrees with err. */
static int run(const struct an_hook_opts *o, json_t **vars, struct an_err *err)
{
    char *failure = (char *)"unset";
    *err = (struct an_err)AN_ERR_INIT;
    int rc = an_hook_run_opts(o, vars, &failure, err);
    if (rc == AN_OK) {
        assert_null(failure);
    } else {
        assert_non_null(failure);
        assert_string_equal(failure, err->msg);
        free(failure);
    }
    return rc;
}

static void assert_var(const json_t *vars, const char *name, const char *want)
{
    json_t *v = json_object_get(vars, name);
    assert_non_null(v);
    assert_true(json_is_string(v));
    assert_string_equal(json_string_value(v), want);
}

static void test_variables(void **state)
{
    (void)state;
    struct an_hook_opts o =
        HOOK("sh", "-c",
             "printf ' \\n{\"THREAD_ID\":\"th_123\",\"S\":\"a \\\\\"q\\\\\" b\",\"N\":42,\"F\":1.5,"
             "\"T\":true,\"Z\":null,\"O\":{\"k\":[1,\"a\"]},\"A\":[],\"E\":\"\"}\\n\\n'");
    json_t *vars = NULL;
    struct an_err err;
    assert_int_equal(run(&o, &vars, &err), AN_OK);
    assert_non_null(vars);
    assert_int_equal(json_object_size(vars), 9);
    assert_var(vars, "THREAD_ID", "th_123");
    assert_var(vars, "S", "a \"q\" b");
    assert_var(vars, "N", "42");
    assert_var(vars, "F", "1.5");
    assert_var(vars, "T", "true");
    assert_var(vars, "Z", "null");
    assert_var(vars, "O", "{\"k\":[1,\"a\"]}");
    assert_var(vars, "A", "[]");
    assert_var(vars, "E", "");
    json_decref(vars);
}

static void test_empty_stdout(void **state)
{
    (void)state;
    const struct an_hook_opts cases[] = {
        HOOK("true"),
        HOOK("printf", " \n\t\r\n"),
        HOOK("echo", "{}"),
        HOOK("sh", "-c", "echo 'logs go here' >&2"),
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *vars = NULL;
        struct an_err err;
        assert_int_equal(run(&cases[i], &vars, &err), AN_OK);
        assert_true(json_is_object(vars));
        assert_int_equal(json_object_size(vars), 0);
        json_decref(vars);
    }
}

static void test_env_and_cwd(void **state)
{
    (void)state;
    struct an_hook_opts o =
        HOOK("sh", "-c", "printf '{\"dir\":\"%s\",\"tok\":\"%s\"}' \"$(pwd)\" \"$TOKEN\"");
    o.cwd = "/";
    o.env = (const char *const[]){"TOKEN=s3cret", NULL};
    json_t *vars = NULL;
    struct an_err err;
    assert_int_equal(run(&o, &vars, &err), AN_OK);
    assert_var(vars, "dir", "/");
    assert_var(vars, "tok", "s3cret");
    json_decref(vars);
}

/* Each failure, with the exact message a user reads. */
static void test_failures(void **state)
{
    (void)state;
    const struct {
        struct an_hook_opts o;
        const char *msg;
    } cases[] = {
        {HOOK("echo", "hi"),
         "hook 'echo hi' printed invalid JSON on stdout: \"hi\" (expected an object of variables)"},
        {HOOK("echo", "[1,2]"), "hook 'echo [1,2]' printed a JSON array on stdout: \"[1,2]\" "
                                "(expected an object of variables)"},
        {HOOK("echo", "\"x\""), "hook 'echo \"x\"' printed a JSON string on stdout: \"\\\"x\\\"\" "
                                "(expected an object of variables)"},
        {HOOK("echo", "7"), "hook 'echo 7' printed a JSON number on stdout: \"7\" "
                            "(expected an object of variables)"},
        {HOOK("sh", "-c", "echo '{\"a\":1'; echo oops >&2"),
         "hook 'sh -c echo '{\"a\":1'; echo oops >&2' printed invalid JSON on stdout: "
         "\"{\\\"a\\\":1\" (expected an object of variables); stderr: \"oops\""},
        {HOOK("sh", "-c", "echo 'db not reachable' >&2; exit 3"),
         "hook 'sh -c echo 'db not reachable' >&2; exit 3' exited with status 3; stderr: \"db "
         "not reachable\""},
        {HOOK("sh", "-c", "echo '{\"a\":1}'; echo 'partial' >&2; exit 1"),
         "hook 'sh -c echo '{\"a\":1}'; echo 'partial' >&2; exit 1' exited with status 1; "
         "stdout: \"{\\\"a\\\":1}\"; stderr: \"partial\""},
        {HOOK("sh", "-c", "kill -9 $$"),
         "hook 'sh -c kill -9 $$' was killed by signal 9 (SIGKILL)"},
        {HOOK("ananke-no-such-hook", "--x"),
         "hook 'ananke-no-such-hook --x' did not start: cannot run 'ananke-no-such-hook': No "
         "such file or directory"},
        /* control characters are escaped, invalid UTF-8 replaced, UTF-8 kept */
        {HOOK("sh", "-c", "printf 'a\\tb\\001c\\377 d\\303\\251\\n' >&2; exit 1"),
         "hook 'sh -c printf 'a\\tb\\001c\\377 d\\303\\251\\n' >&2; exit 1' exited with status "
         "1; stderr: \"a\\tb\\x01c\xEF\xBF\xBD d\xC3\xA9\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *vars = (json_t *)1;
        struct an_err err;
        assert_int_equal(run(&cases[i].o, &vars, &err), AN_EHOOK);
        assert_null(vars);
        assert_string_equal(err.msg, cases[i].msg);
    }
}

static void test_timeout(void **state)
{
    (void)state;
    struct an_hook_opts o = HOOK("sleep", "60");
    o.timeout_ms = 300;
    json_t *vars = NULL;
    struct an_err err;
    int64_t t0 = an_clock_mono_ms();
    assert_int_equal(run(&o, &vars, &err), AN_EHOOK);
    assert_true(an_clock_mono_ms() - t0 < 300 + 500);
    assert_null(vars);
    assert_string_equal(err.msg, "hook 'sleep 60' timed out after 300 ms");

    struct an_hook_opts o2 = HOOK("sh", "-c", "echo started; echo waiting >&2; sleep 60");
    o2.timeout_ms = 300;
    assert_int_equal(run(&o2, &vars, &err), AN_EHOOK);
    assert_string_equal(err.msg, "hook 'sh -c echo started; echo waiting >&2; sleep 60' timed "
                                 "out after 300 ms; stdout: \"started\"; stderr: \"waiting\"");
}

/* 10 MB of stdout: a clean failure naming the cap, without waiting. */
static void test_flood(void **state)
{
    (void)state;
    struct an_hook_opts o = HOOK("head", "-c", "10000000", "/dev/zero");
    json_t *vars = NULL;
    struct an_err err;
    int64_t t0 = an_clock_mono_ms();
    assert_int_equal(run(&o, &vars, &err), AN_EHOOK);
    assert_true(an_clock_mono_ms() - t0 < 4000);
    assert_null(vars);
    const char *want = "hook 'head -c 10000000 /dev/zero' printed more than 1048576 bytes on "
                       "stdout (max_stdout_bytes); stdout: \"\\x00\\x00";
    assert_true(strncmp(err.msg, want, strlen(want)) == 0);
    /* the excerpt is cut, so the message stays short */
    assert_true(strlen(err.msg) < 400);
    assert_non_null(strstr(err.msg, "...\""));

    /* a flood on stderr alone is no failure: only its start is ever shown */
    struct an_hook_opts o2 = HOOK("sh", "-c", "head -c 10000000 /dev/zero >&2; echo '{\"ok\":1}'");
    assert_int_equal(run(&o2, &vars, &err), AN_OK);
    assert_var(vars, "ok", "1");
    json_decref(vars);
}

/* Long commands and outputs are cut in the message, which stays whole. */
static void test_long_message(void **state)
{
    (void)state;
    char arg[300];
    memset(arg, 'x', sizeof arg - 1);
    arg[sizeof arg - 1] = '\0';
    struct an_hook_opts o =
        HOOK("sh", "-c", "printf '%0500d' 0; printf '%0500d' 0 >&2; exit 2", arg);
    json_t *vars = NULL;
    struct an_err err;
    assert_int_equal(run(&o, &vars, &err), AN_EHOOK);
    assert_true(strlen(err.msg) < AN_ERR_MSG_MAX - 1);
    assert_non_null(strstr(err.msg, "xxx...' exited with status 2; stdout: \"000"));
    assert_non_null(strstr(err.msg, "000...\"; stderr: \"000"));
    assert_true(strlen(err.msg) > 5 && strcmp(err.msg + strlen(err.msg) - 5, "0...\"") == 0);
}

static void test_empty_command(void **state)
{
    (void)state;
    struct an_hook_opts o = AN_HOOK_OPTS_INIT;
    json_t *vars = NULL;
    struct an_err err;
    assert_int_equal(run(&o, &vars, &err), AN_EHOOK);
    assert_string_equal(err.msg, "hook has an empty command");
}

/* The positional form the runner calls; failure_out may be NULL. */
static void test_positional_form(void **state)
{
    (void)state;
    const char *const argv[] = {"sh", "-c", "printf '{\"here\":\"%s\"}' \"$(pwd)\"", "ignored"};
    json_t *vars = NULL;
    char *failure = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_hook_run(argv, 3, "/", 0, &vars, &failure, &err), AN_OK);
    assert_null(failure);
    assert_var(vars, "here", "/");
    json_decref(vars);

    const char *const bad[] = {"false"};
    assert_int_equal(an_hook_run(bad, 1, NULL, 2000, &vars, NULL, &err), AN_EHOOK);
    assert_null(vars);
    assert_string_equal(err.msg, "hook 'false' exited with status 1");
    assert_int_equal(err.code, AN_EHOOK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_variables),       cmocka_unit_test(test_empty_stdout),
        cmocka_unit_test(test_env_and_cwd),     cmocka_unit_test(test_failures),
        cmocka_unit_test(test_timeout),         cmocka_unit_test(test_flood),
        cmocka_unit_test(test_long_message),    cmocka_unit_test(test_empty_command),
        cmocka_unit_test(test_positional_form),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
