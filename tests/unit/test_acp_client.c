/* proto/acp_client driven by scripted agents (sh -c): each script writes
 * agent requests and reads our answers line by line; the client's record
 * (calls, violations) is what the tests check. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/acp_client.h"
#include "proto/acp_int.h"

struct fx {
    char sandbox[64];
    size_t want_calls;
    bool stop;
    const char *claim; /* method the hook answers itself */
};

static void on_call(void *ud, struct an_acp_client *c, const struct an_acp_call *call)
{
    (void)call;
    struct fx *f = ud;
    if (an_acp_ncalls(c) >= f->want_calls)
        f->stop = true;
}

static bool on_agent_request(void *ud, struct an_acp_client *c, const struct an_rpc_msg *m,
                             const char *violation)
{
    (void)violation;
    struct fx *f = ud;
    if (!f->claim || strcmp(m->method, f->claim) != 0)
        return false;
    json_t *res = json_pack("{s:s}", "content", "canned");
    assert_int_equal(an_acp_reply(c, m->id, res, NULL), AN_OK);
    json_decref(res);
    return true;
}

static void write_file(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    snprintf(f->sandbox, sizeof f->sandbox, "/tmp/ananke-acp-XXXXXX");
    assert_non_null(mkdtemp(f->sandbox));
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->sandbox);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

/* A script sending each frame of `frames` (one per line, "@" replaced by
 * the sandbox) and reading one answer after each, then idling. */
static char *script_for(const struct fx *f, const char *const *frames, size_t n)
{
    struct an_buf b = AN_BUF_INIT;
    for (size_t i = 0; i < n; i++) {
        an_buf_puts(&b, "printf '%s\\n' '");
        for (const char *p = frames[i]; *p; p++)
            if (*p == '@')
                an_buf_puts(&b, f->sandbox);
            else
                an_buf_putc(&b, *p);
        an_buf_puts(&b, "'; read -r answer; ");
    }
    an_buf_puts(&b, "exec cat >/dev/null");
    return an_buf_detach(&b, NULL);
}

static struct an_acp_client *start(struct fx *f, const char *script, struct an_acp_opts *o)
{
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    o->argv = argv;
    o->sandbox = f->sandbox;
    if (!o->rpc.grace_ms)
        o->rpc.grace_ms = 200;
    struct an_acp_cbs cbs = {
        .ud = f, .on_agent_call = on_call, .on_agent_request = on_agent_request};
    struct an_acp_client *c = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_acp_client_new(&c, o, &cbs, &err), AN_OK);
    return c;
}

static void run_until(struct fx *f, struct an_acp_client *c, size_t calls)
{
    f->want_calls = calls;
    f->stop = an_acp_ncalls(c) >= calls;
    an_acp_pump(c, 10000, &f->stop);
    assert_int_equal(an_acp_ncalls(c), calls);
}

static int64_t err_code(const struct an_acp_call *k)
{
    return k->error ? json_integer_value(json_object_get(k->error, "code")) : 0;
}

#define REQ(id, method, params)                                                                    \
    "{\"jsonrpc\":\"2.0\",\"id\":" #id ",\"method\":\"" method "\",\"params\":" params "}"

static void test_fs_inside(void **state)
{
    struct fx *f = *state;
    write_file(f->sandbox, "a.txt", "one\ntwo\nthree\n");
    const char *frames[] = {
        REQ(0, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/a.txt\"}"),
        REQ(1, "fs/read_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/a.txt\",\"line\":2,\"limit\":1}"),
        REQ(2, "fs/write_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/sub/dir/b.txt\",\"content\":\"hé\\nx\"}"),
        REQ(3, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/missing.txt\"}"),
        REQ("x", "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/sub/../sub/dir/b.txt\"}"),
    };
    char *script = script_for(f, frames, 5);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 5);
    const struct an_acp_call *k = an_acp_call_at(c, 0);
    assert_string_equal(k->method, "fs/read_text_file");
    assert_string_equal(an_json_str(k->result, "content"), "one\ntwo\nthree\n");
    assert_true(k->end_ms >= k->start_ms && k->start_ms > 0);
    assert_string_equal(an_json_str(an_acp_call_at(c, 1)->result, "content"), "two\n");
    assert_non_null(an_acp_call_at(c, 2)->result);
    k = an_acp_call_at(c, 3);
    assert_int_equal(err_code(k), -32002);
    assert_non_null(strstr(an_json_str(json_object_get(k->error, "data"), "uri"), "/missing.txt"));
    k = an_acp_call_at(c, 4);
    assert_true(json_is_string(k->id)); /* the agent's id, type kept */
    assert_string_equal(an_json_str(k->result, "content"), "hé\nx");
    assert_int_equal(an_acp_nviolations(c), 0);
    an_acp_client_free(c);
    free(script);
}

static void test_fs_escapes(void **state)
{
    struct fx *f = *state;
    char link[128];
    snprintf(link, sizeof link, "%s/etc", f->sandbox);
    assert_int_equal(symlink("/etc", link), 0);
    snprintf(link, sizeof link, "%s/up", f->sandbox);
    assert_int_equal(symlink("..", link), 0);
    const char *frames[] = {
        REQ(0, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/../../etc/passwd\"}"),
        REQ(1, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/etc/passwd\"}"),
        REQ(2, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"a.txt\"}"),
        REQ(3, "fs/write_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/up/escaped.txt\",\"content\":\"x\"}"),
        REQ(4, "fs/write_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/new/../../escaped2.txt\",\"content\":\"x\"}"),
    };
    char *script = script_for(f, frames, 5);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 5);
    for (size_t i = 0; i < 5; i++) {
        const struct an_acp_call *k = an_acp_call_at(c, i);
        assert_int_equal(err_code(k), -32602);
        assert_non_null(k->violation);
    }
    assert_string_equal(an_json_str(json_object_get(an_acp_call_at(c, 1)->error, "data"), "reason"),
                        "outside_sandbox");
    assert_string_equal(an_json_str(json_object_get(an_acp_call_at(c, 2)->error, "data"), "reason"),
                        "relative_path");
    assert_int_equal(an_acp_nviolations(c), 5);
    assert_non_null(strstr(an_acp_violation_at(c, 0), "outside the sandbox"));
    char path[160];
    snprintf(path, sizeof path, "%s/../escaped.txt", f->sandbox);
    assert_int_equal(access(path, F_OK), -1);
    an_acp_client_free(c);
    free(script);
}

/* FIFOs, sockets, devices and hard links are refused at once, read or
 * written: nothing blocks, nothing is truncated. */
static void test_fs_special_files(void **state)
{
    struct fx *f = *state;
    char p[160];
    snprintf(p, sizeof p, "%s/fifo", f->sandbox);
    assert_int_equal(mkfifo(p, 0644), 0);
    snprintf(p, sizeof p, "%s/sock", f->sandbox);
    int sk = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", p);
    assert_int_equal(bind(sk, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(sk, 1), 0);
    /* a device needs CAP_MKNOD: /dev/null's numbers when we have it, a
     * second FIFO otherwise */
    snprintf(p, sizeof p, "%s/dev", f->sandbox);
    if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) != 0)
        assert_int_equal(mkfifo(p, 0644), 0);
    write_file(f->sandbox, "a.txt", "keep me");
    char a[160], b[160];
    snprintf(a, sizeof a, "%s/a.txt", f->sandbox);
    snprintf(b, sizeof b, "%s/b.txt", f->sandbox);
    assert_int_equal(link(a, b), 0);
    const char *frames[] = {
        REQ(0, "fs/write_text_file", "{\"sessionId\":\"s\",\"path\":\"@/fifo\",\"content\":\"x\"}"),
        REQ(1, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/fifo\"}"),
        REQ(2, "fs/write_text_file", "{\"sessionId\":\"s\",\"path\":\"@/sock\",\"content\":\"x\"}"),
        REQ(3, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/sock\"}"),
        REQ(4, "fs/write_text_file", "{\"sessionId\":\"s\",\"path\":\"@/dev\",\"content\":\"x\"}"),
        REQ(5, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/dev\"}"),
        REQ(6, "fs/write_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/b.txt\",\"content\":\"x\"}"),
        REQ(7, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/b.txt\"}"),
        REQ(8, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/\"}"),
    };
    char *script = script_for(f, frames, 9);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, script, &o);
    int64_t t0 = an_clock_mono_ms();
    run_until(f, c, 9);
    assert_true(an_clock_mono_ms() - t0 < 3000);
    static const char *const reasons[] = {
        "not_regular_file", "not_regular_file", "not_regular_file",
        "not_regular_file", "not_regular_file", "not_regular_file",
        "hard_link",        "hard_link",        "directory"};
    for (size_t i = 0; i < 9; i++) {
        const struct an_acp_call *k = an_acp_call_at(c, i);
        print_message("call %zu\n", i);
        assert_int_equal(err_code(k), -32602);
        assert_string_equal(an_json_str(json_object_get(k->error, "data"), "reason"), reasons[i]);
        if (i < 8)
            assert_non_null(k->violation);
        else
            assert_null(k->violation);
    }
    an_acp_client_free(c);
    close(sk);
    FILE *fp = fopen(a, "r");
    char buf[32] = {0};
    assert_non_null(fgets(buf, sizeof buf, fp));
    fclose(fp);
    assert_string_equal(buf, "keep me");
    free(script);
}

/* An output read again unchanged is the same string (kept once), yet each
 * answer says how many bytes it carries; a file read counts its content. */
static void test_output_shared(void **state)
{
    struct fx *f = *state;
    write_file(f->sandbox, "a.txt", "12345");
    const char *frames[] = {
        REQ(0, "terminal/create",
            "{\"sessionId\":\"s\",\"command\":\"printf\",\"args\":[\"abc\"]}"),
        REQ(1, "terminal/wait_for_exit", "{\"sessionId\":\"s\",\"terminalId\":\"term-0\"}"),
        REQ(2, "terminal/output", "{\"sessionId\":\"s\",\"terminalId\":\"term-0\"}"),
        REQ(3, "terminal/output", "{\"sessionId\":\"s\",\"terminalId\":\"term-0\"}"),
        REQ(4, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/a.txt\"}"),
    };
    char *script = script_for(f, frames, 5);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 5);
    const struct an_acp_call *a = an_acp_call_at(c, 2), *b = an_acp_call_at(c, 3);
    assert_string_equal(an_json_str(a->result, "output"), "abc");
    assert_ptr_equal(json_object_get(a->result, "output"), json_object_get(b->result, "output"));
    assert_int_equal(a->kept_bytes, 3);
    assert_int_equal(b->kept_bytes, 3);
    assert_int_equal(an_acp_call_at(c, 4)->kept_bytes, 5);
    an_acp_client_free(c);
    free(script);
}

/* A sandbox given through a symlink: paths may name it either way. */
static void test_fs_sandbox_via_link(void **state)
{
    struct fx *f = *state;
    write_file(f->sandbox, "a.txt", "via link");
    struct fx lf = *f;
    snprintf(lf.sandbox, sizeof lf.sandbox, "%s-link", f->sandbox);
    assert_int_equal(symlink(f->sandbox, lf.sandbox), 0);
    const char *frames[] = {
        REQ(0, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/a.txt\"}"),
        REQ(1, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/../x\"}"),
    };
    char *script = script_for(&lf, frames, 2);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.sandbox = lf.sandbox;
    const char *argv[] = {"/bin/sh", "-c", script, NULL};
    o.argv = argv;
    o.rpc.grace_ms = 200;
    struct an_acp_cbs cbs = {.ud = f, .on_agent_call = on_call};
    struct an_acp_client *c = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_acp_client_new(&c, &o, &cbs, &err), AN_OK);
    assert_string_equal(an_acp_sandbox(c), f->sandbox); /* the realpath */
    run_until(f, c, 2);
    assert_string_equal(an_json_str(an_acp_call_at(c, 0)->result, "content"), "via link");
    assert_int_equal(err_code(an_acp_call_at(c, 1)), -32602);
    assert_non_null(an_acp_call_at(c, 1)->violation);
    an_acp_client_free(c);
    assert_int_equal(unlink(lf.sandbox), 0);
    free(script);
}

static void test_capabilities_off(void **state)
{
    struct fx *f = *state;
    write_file(f->sandbox, "a.txt", "x");
    const char *frames[] = {
        REQ(0, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/a.txt\"}"),
        REQ(1, "terminal/create", "{\"sessionId\":\"s\",\"command\":\"true\"}"),
        REQ(2, "_vendor/thing", "{}"),
        REQ(3, "fs/write_text_file",
            "{\"sessionId\":\"s\",\"path\":\"@/w.txt\",\"content\":\"ok\"}"),
    };
    char *script = script_for(f, frames, 4);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    json_t *caps =
        json_pack("{s:{s:b,s:b},s:b}", "fs", "readTextFile", 0, "writeTextFile", 1, "terminal", 0);
    o.client_capabilities = caps;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 4);
    assert_int_equal(err_code(an_acp_call_at(c, 0)), -32601);
    assert_non_null(an_acp_call_at(c, 0)->violation);
    assert_int_equal(err_code(an_acp_call_at(c, 1)), -32601);
    assert_non_null(an_acp_call_at(c, 1)->violation);
    assert_int_equal(err_code(an_acp_call_at(c, 2)), -32601);
    assert_null(an_acp_call_at(c, 2)->violation);
    assert_non_null(an_acp_call_at(c, 3)->result);
    assert_int_equal(an_acp_nviolations(c), 2);
    assert_non_null(strstr(an_acp_violation_at(c, 1), "terminal"));
    an_acp_client_free(c);
    json_decref(caps);
    free(script);
}

/* No running process in the group (zombies reparented to PID 1 are dead;
 * this container's PID 1 reaps them late). */
static bool group_gone(pid_t pg)
{
    if (kill(-pg, 0) == -1 && errno == ESRCH)
        return true;
    char cmd[160];
    snprintf(cmd, sizeof cmd, "ps -eo pgid=,stat= | awk '$1==%d && $2 !~ /^Z/ {f=1} END {exit f}'",
             (int)pg);
    return system(cmd) == 0;
}

static pid_t read_pid(const struct fx *f, const char *name)
{
    char path[128], buf[32] = {0};
    snprintf(path, sizeof path, "%s/%s", f->sandbox, name);
    for (int i = 0; i < 200 && access(path, R_OK) != 0; i++)
        an_sleep_ms(10);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    assert_non_null(fgets(buf, sizeof buf, fp));
    fclose(fp);
    return (pid_t)strtol(buf, NULL, 10);
}

static void test_terminals(void **state)
{
    struct fx *f = *state;
    /* output/wait are answered in completion order: the script reads one
     * answer per frame, except that it sends wait + output of term-1 together */
    const char *script_fmt =
        "req() { printf '%%s\\n' \"$1\"; }\n"
        "req '" REQ(
            0, "terminal/create",
            "{\"sessionId\":\"s\",\"command\":\"printf\",\"args\":[\"abc\\\\303\\\\251\"],"
            "\"outputByteLimit\":3}") "'; read -r a\n"
                                      "req '" REQ(
                                          1,
                                          "terminal/wait_for_exit", "{\"sessionId\":\"s\",\"terminalId\":\"term-0\"}") "'; read -r a\n"
                                                                                                                       "req '" REQ(2,
                                                                                                                                   "terminal/output", "{\"sessionId\":\"s\",\"terminalId\":\"term-0\"}") "'; read -r a\n"
                                                                                                                                                                                                         "req '" REQ(3, "terminal/create", "{\"sessionId\":\"s\",\"command\":\"sh\",\"args\":[\"-c\",\"echo $$ > pid1; sleep 30 & sleep 30\"]}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                 "req '" REQ(4,
                                                                                                                                                                                                                                                                                                                                                             "terminal/wait_for_exit", "{\"sessionId\":\"s\",\"terminalId\":\"term-1\"}") "'\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                          "req '" REQ(5,
                                                                                                                                                                                                                                                                                                                                                                                                                                                      "terminal/output", "{\"sessionId\":\"s\",\"terminalId\":\"term-1\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                            "while [ ! -s %s/pid1 ]; do sleep 0.01; done\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                            "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                6,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                "terminal/kill",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                "{\"sessionId\":\"s\",\"terminalId\":\"term-1\"}") "'; read -r a; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                       7,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                       "terminal/release", "{\"sessionId\":\"s\",\"terminalId\":\"term-1\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                              "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                  8,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                  "terminal/output",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                  "{\"sessionId\":\"s\",\"terminalId\":\"term-1\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                     "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                         9,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                         "terminal/create",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                         "{\"sessionId\":\"s\",\"command\":\"sh\",\"args\":[\"-c\",\"echo $$ > pid2; sleep 30 & sleep 30\"]}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                               "while [ ! -s %s/pid2 ]; do sleep 0.01; done\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                               "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   10,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   "terminal/release",
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                   "{\"sessionId\":\"s\",\"terminalId\":\"term-2\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                      "req '" REQ(11,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                  "terminal/create", "{\"sessionId\":\"s\",\"command\":\"sh\",\"args\":[\"-c\",\"echo $$ > pid3; sleep 30\"],\"cwd\":\"/tmp\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                 "req '" REQ(
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                     12,
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                     "terminal/create", "{\"sessionId\":\"s\",\"command\":\"sh\",\"args\":[\"-c\",\"echo $$ > ../pid3; sleep 30\"],\"cwd\":\"%s/d\"}") "'; read -r a\n"
                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                                       "exec cat >/dev/null\n";
    char dir[128];
    snprintf(dir, sizeof dir, "%s/d", f->sandbox);
    assert_int_equal(mkdir(dir, 0755), 0);
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, script_fmt, f->sandbox, f->sandbox, f->sandbox);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, b.data, &o);
    run_until(f, c, 13);
    /* 0 create, 1 wait, 2 output */
    assert_string_equal(an_json_str(an_acp_call_at(c, 0)->result, "terminalId"), "term-0");
    const json_t *w = an_acp_call_at(c, 1)->result;
    assert_int_equal(json_integer_value(json_object_get(w, "exitCode")), 0);
    assert_true(json_is_null(json_object_get(w, "signal")));
    const json_t *out = an_acp_call_at(c, 2)->result;
    assert_string_equal(an_json_str(out, "output"), "c\xc3\xa9");
    assert_true(json_is_true(json_object_get(out, "truncated")));
    assert_non_null(json_object_get(out, "exitStatus"));
    /* 3 create; the output (5) is answered while the wait (4) is parked */
    assert_string_equal(an_acp_call_at(c, 4)->method, "terminal/output");
    assert_null(json_object_get(an_acp_call_at(c, 4)->result, "exitStatus"));
    assert_false(json_is_true(json_object_get(an_acp_call_at(c, 4)->result, "truncated")));
    assert_string_equal(an_acp_call_at(c, 5)->method, "terminal/kill");
    const struct an_acp_call *k = an_acp_call_at(c, 6);
    assert_string_equal(k->method, "terminal/wait_for_exit");
    assert_true(json_is_null(json_object_get(k->result, "exitCode")));
    assert_string_equal(an_json_str(k->result, "signal"), "SIGKILL");
    pid_t p1 = read_pid(f, "pid1");
    assert_string_equal(an_acp_call_at(c, 7)->method, "terminal/release");
    assert_true(group_gone(p1));
    assert_int_equal(err_code(an_acp_call_at(c, 8)), -32602); /* released: unknown */
    pid_t p2 = read_pid(f, "pid2");
    assert_non_null(an_acp_call_at(c, 10)->result);
    assert_true(group_gone(p2)); /* released while running, with a background child */
    assert_int_equal(err_code(an_acp_call_at(c, 11)), -32602); /* cwd outside */
    assert_non_null(an_acp_call_at(c, 11)->violation);
    assert_non_null(an_acp_call_at(c, 12)->result); /* cwd inside */
    pid_t p3 = read_pid(f, "pid3");
    assert_false(group_gone(p3));
    assert_int_equal(an_acp_nterminals(c), 2);
    an_acp_client_free(c);
    assert_true(group_gone(p3)); /* free ends every terminal */
    an_buf_release(&b);
}

static void test_permission_policy_table(void **state)
{
    (void)state;
    /* kind: NULL = absent, "~null" = JSON null, "~7" = the number 7 */
    static const struct {
        enum an_acp_policy p;
        const char *kind, *title, *expect;
    } cases[] = {
        {AN_ACP_POLICY_NONE, "read", "Read x", "no"},
        {AN_ACP_POLICY_NONE, NULL, "Read x", "no"},
        /* the kind decides: reads, writes, the rest */
        {AN_ACP_POLICY_READ, "read", "x", "yes"},
        {AN_ACP_POLICY_READ, "search", "x", "yes"},
        {AN_ACP_POLICY_READ, "fetch", "x", "yes"},
        {AN_ACP_POLICY_READ, "think", "x", "yes"},
        {AN_ACP_POLICY_READ, "edit", "Read x", "no"},
        {AN_ACP_POLICY_READ, "delete", "x", "no"},
        {AN_ACP_POLICY_READ, "move", "x", "no"},
        {AN_ACP_POLICY_READ, "execute", "Read x", "no"},
        {AN_ACP_POLICY_READ, "switch_mode", "x", "no"},
        /* other and unknown kinds are neither, whatever the title says */
        {AN_ACP_POLICY_READ, "other", "read the file", "no"},
        {AN_ACP_POLICY_READ, "other", "Overwrite spreadsheet", "no"},
        {AN_ACP_POLICY_WRITE, "other", "Overwrite spreadsheet", "no"},
        {AN_ACP_POLICY_READ, "Read", "Read x", "no"},
        {AN_ACP_POLICY_READ, "readonly", "Read x", "no"},
        {AN_ACP_POLICY_WRITE, "destroy", "x", "no"},
        {AN_ACP_POLICY_READ, "~7", "Read x", "no"},
        {AN_ACP_POLICY_YOLO, "destroy", "x", "yes"},
        {AN_ACP_POLICY_YOLO, "other", "x", "yes"},
        {AN_ACP_POLICY_WRITE, "edit", "x", "yes"},
        {AN_ACP_POLICY_WRITE, "delete", "x", "yes"},
        {AN_ACP_POLICY_WRITE, "move", "x", "yes"},
        {AN_ACP_POLICY_WRITE, "read", "x", "yes"},
        {AN_ACP_POLICY_WRITE, "execute", "x", "no"},
        {AN_ACP_POLICY_YOLO, "execute", "x", "yes"},
        /* no kind: whole words of the title */
        {AN_ACP_POLICY_READ, NULL, "Delete already-processed files", "no"},
        {AN_ACP_POLICY_WRITE, NULL, "Delete already-processed files", "yes"},
        {AN_ACP_POLICY_READ, NULL, "Overwrite spreadsheet", "no"},
        {AN_ACP_POLICY_READ, NULL, "Read the config", "yes"},
        {AN_ACP_POLICY_READ, "~null", "Read the config", "yes"},
        {AN_ACP_POLICY_READ, NULL, "READ-ONLY: list files", "yes"},
        {AN_ACP_POLICY_READ, NULL, "Reader mode", "no"}, /* "reader" is no word of ours */
        {AN_ACP_POLICY_READ, NULL, "Spreadsheet thread", "no"},
        {AN_ACP_POLICY_READ, NULL, "Read then write", "no"}, /* a write word wins */
        {AN_ACP_POLICY_WRITE, NULL, "Read then write", "yes"},
        {AN_ACP_POLICY_WRITE, NULL, "Read and run tests", "no"}, /* an execute word wins */
        {AN_ACP_POLICY_WRITE, NULL, "Rewrite history", "no"},    /* "rewrite": no known word */
        {AN_ACP_POLICY_READ, NULL, "", "no"},
        {AN_ACP_POLICY_READ, NULL, NULL, "no"},
        {AN_ACP_POLICY_YOLO, NULL, "x", "yes"},
        {AN_ACP_POLICY_YOLO, NULL, NULL, "yes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        json_t *params = json_pack("{s:{s:s},s:[{s:s,s:s},{s:s,s:s},{s:s,s:s}]}", "toolCall",
                                   "toolCallId", "t", "options", "optionId", "yes-always", "kind",
                                   "allow_always", "optionId", "yes", "kind", "allow_once",
                                   "optionId", "no", "kind", "reject_once");
        json_t *tc = json_object_get(params, "toolCall");
        if (cases[i].title)
            json_object_set_new(tc, "title", json_string(cases[i].title));
        const char *k = cases[i].kind;
        if (k)
            json_object_set_new(tc, "kind",
                                !strcmp(k, "~null") ? json_null()
                                : !strcmp(k, "~7")  ? json_integer(7)
                                                    : json_string(k));
        print_message("case %zu: %s kind %s title '%s'\n", i, an_acp_policy_name(cases[i].p),
                      k ? k : "(none)", cases[i].title ? cases[i].title : "(none)");
        json_t *r = acp_perm_decide(cases[i].p, params);
        json_t *outc = json_object_get(r, "outcome");
        assert_string_equal(an_json_str(outc, "outcome"), "selected");
        assert_string_equal(an_json_str(outc, "optionId"), cases[i].expect);
        json_decref(r);
        json_decref(params);
    }
    /* no option of the decided kind: withdrawn, never the opposite */
    json_t *params = json_pack("{s:{s:s},s:[{s:s,s:s}]}", "toolCall", "kind", "execute", "options",
                               "optionId", "ok", "kind", "allow_once");
    json_t *r = acp_perm_decide(AN_ACP_POLICY_NONE, params);
    assert_string_equal(an_json_str(json_object_get(r, "outcome"), "outcome"), "cancelled");
    json_decref(r);
    json_decref(params);
    enum an_acp_policy p;
    assert_int_equal(an_acp_policy_parse("write", &p), 0);
    assert_int_equal(p, AN_ACP_POLICY_WRITE);
    assert_int_equal(an_acp_policy_parse("maybe", &p), -1);
}

#define PERM(id, sid, kind)                                                                        \
    REQ(id, "session/request_permission",                                                          \
        "{\"sessionId\":\"" sid "\",\"toolCall\":{\"toolCallId\":\"c\",\"kind\":\"" kind           \
        "\"},\"options\":[{\"optionId\":\"allow\",\"name\":\"A\",\"kind\":\"allow_once\"},"        \
        "{\"optionId\":\"reject\",\"name\":\"R\",\"kind\":\"reject_once\"}]}")

static void test_permission_served(void **state)
{
    struct fx *f = *state;
    const char *frames[] = {PERM(0, "s", "read"), PERM(1, "s", "edit")};
    char *script = script_for(f, frames, 2);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.policy = AN_ACP_POLICY_READ;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 2);
    assert_string_equal(
        an_json_str(json_object_get(an_acp_call_at(c, 0)->result, "outcome"), "optionId"), "allow");
    assert_string_equal(
        an_json_str(json_object_get(an_acp_call_at(c, 1)->result, "outcome"), "optionId"),
        "reject");
    an_acp_client_free(c);
    free(script);
}

static void test_cancel_pending_permission(void **state)
{
    struct fx *f = *state;
    /* both sent at once; the script then reads the cancel and the answers */
    const char *script_fmt = "printf '%%s\\n%%s\\n' '" PERM(0, "s1", "edit") "' '" PERM(
        1, "s2", "edit") "'; cat >%s/seen";
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, script_fmt, f->sandbox);
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.permission_delay_ms = 600;
    o.policy = AN_ACP_POLICY_YOLO;
    struct an_acp_client *c = start(f, b.data, &o);
    an_acp_pump(c, 200, NULL);
    assert_int_equal(an_acp_ncalls(c), 0); /* held */
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_acp_cancel(c, "s1", &err), AN_OK);
    assert_int_equal(an_acp_ncalls(c), 1);
    const struct an_acp_call *k = an_acp_call_at(c, 0);
    assert_string_equal(an_json_str(json_object_get(k->result, "outcome"), "outcome"), "cancelled");
    run_until(f, c, 2); /* s2 decided by policy after the delay */
    assert_string_equal(
        an_json_str(json_object_get(an_acp_call_at(c, 1)->result, "outcome"), "optionId"), "allow");
    an_acp_client_free(c);
    char path[128], buf[2048] = {0};
    snprintf(path, sizeof path, "%s/seen", f->sandbox);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    assert_true(n > 0);
    assert_non_null(strstr(
        buf,
        "{\"jsonrpc\":\"2.0\",\"method\":\"session/cancel\",\"params\":{\"sessionId\":\"s1\"}}\n"));
    assert_non_null(strstr(buf, "\"id\":0,\"result\":{\"outcome\":{\"outcome\":\"cancelled\"}}"));
    an_buf_release(&b);
}

static void test_hook_claims(void **state)
{
    struct fx *f = *state;
    const char *frames[] = {
        REQ(0, "fs/read_text_file", "{\"sessionId\":\"s\",\"path\":\"@/none.txt\"}")};
    char *script = script_for(f, frames, 1);
    f->claim = "fs/read_text_file";
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    struct an_acp_client *c = start(f, script, &o);
    run_until(f, c, 1);
    assert_true(an_acp_call_at(c, 0)->by_caller);
    assert_string_equal(an_json_str(an_acp_call_at(c, 0)->result, "content"), "canned");
    an_acp_client_free(c);
    f->claim = NULL;
    free(script);
}

static void test_initialize_and_close(void **state)
{
    struct fx *f = *state;
    /* echoes what it got to stderr, answers initialize, ignores SIGTERM,
     * leaves a background child in its group */
    const char *script =
        "trap '' TERM; read -r l; echo \"$l\" >&2; "
        "printf '%s\\n' '{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":1,"
        "\"agentCapabilities\":{\"loadSession\":true}}}'; "
        "sleep 30 & while :; do sleep 1; done";
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.client_version = "9.9";
    struct an_acp_client *c = start(f, script, &o);
    struct an_err err = AN_ERR_INIT;
    int64_t id = -1;
    assert_int_equal(an_acp_initialize(c, &id, &err), AN_OK);
    json_t *res = NULL, *er = NULL;
    assert_int_equal(an_acp_wait(c, id, 5000, &res, &er, &err), AN_OK);
    assert_non_null(res);
    assert_null(er);
    assert_int_equal(an_acp_protocol_version(c), 1);
    assert_true(json_is_true(json_object_get(an_acp_agent_caps(c), "loadSession")));
    size_t len;
    const char *log = an_rpc_stderr(an_acp_rpc(c), &len, NULL);
    assert_non_null(strstr(log, "\"clientInfo\":{\"name\":\"ananke\",\"version\":\"9.9\"}"));
    assert_non_null(strstr(log, "\"protocolVersion\":1"));
    json_decref(res);
    assert_int_equal(an_acp_wait(c, 99, 50, &res, &er, &err), AN_ETIMEOUT);
    pid_t pg = an_rpc_child(an_acp_rpc(c))->pid;
    int64_t t0 = an_clock_mono_ms();
    an_acp_client_free(c);
    assert_true(an_clock_mono_ms() - t0 < 3000);
    assert_true(group_gone(pg));
    assert_int_equal(waitpid(pg, NULL, WNOHANG), -1); /* reaped: no zombie */
}

/* Responses are kept by id until waited for, in any order, errors too,
 * also when the envelope is scanned from the bytes (no_message). */
static void test_responses_kept(void **state)
{
    struct fx *f = *state;
    const char *script =
        "read -r a; read -r b; "
        "printf '%s\\n' "
        "'{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32000,\"message\":\"no\"}}' "
        "'{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}' "
        "'{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"protocolVersion\":1,"
        "\"agentCapabilities\":{\"a\":true}}}'; "
        "while :; do sleep 1; done";
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.rpc.no_message = true;
    struct an_acp_client *c = start(f, script, &o);
    struct an_err err = AN_ERR_INIT;
    int64_t init = -1, sess = -1;
    assert_int_equal(an_acp_initialize(c, &init, &err), AN_OK);
    assert_int_equal(an_acp_new_session(c, NULL, NULL, &sess, &err), AN_OK);
    json_t *res = NULL, *er = NULL;
    assert_int_equal(an_acp_wait(c, sess, 5000, &res, &er, &err), AN_OK);
    assert_null(res);
    assert_int_equal(json_integer_value(json_object_get(er, "code")), -32000);
    json_decref(er);
    assert_int_equal(an_acp_wait(c, init, 5000, &res, &er, &err), AN_OK);
    assert_null(er);
    assert_int_equal(json_integer_value(json_object_get(res, "protocolVersion")), 1);
    assert_true(json_is_true(json_object_get(an_acp_agent_caps(c), "a")));
    json_decref(res);
    /* taken once: a second wait for the same id times out; id 7 was never ours */
    assert_int_equal(an_acp_wait(c, init, 50, &res, &er, &err), AN_ETIMEOUT);
    assert_int_equal(an_acp_wait(c, 7, 50, &res, &er, &err), AN_ETIMEOUT);
    an_acp_client_free(c);
}

static void test_agent_missing(void **state)
{
    struct fx *f = *state;
    const char *argv[] = {"/nonexistent/agent", NULL};
    struct an_acp_opts o = AN_ACP_OPTS_INIT;
    o.argv = argv;
    o.sandbox = f->sandbox;
    struct an_acp_client *c = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_acp_client_new(&c, &o, NULL, &err), AN_ENOTFOUND);
    assert_null(c);
    assert_non_null(strstr(err.msg, "cannot run '/nonexistent/agent'"));
    o.sandbox = "relative";
    assert_int_equal(an_acp_client_new(&c, &o, NULL, &err), AN_EUSAGE);
}

int main(void)
{
    signal(SIGPIPE, SIG_IGN);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_fs_inside, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fs_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fs_sandbox_via_link, setup, teardown),
        cmocka_unit_test_setup_teardown(test_output_shared, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fs_special_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_capabilities_off, setup, teardown),
        cmocka_unit_test_setup_teardown(test_terminals, setup, teardown),
        cmocka_unit_test(test_permission_policy_table),
        cmocka_unit_test_setup_teardown(test_permission_served, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cancel_pending_permission, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hook_claims, setup, teardown),
        cmocka_unit_test_setup_teardown(test_initialize_and_close, setup, teardown),
        cmocka_unit_test_setup_teardown(test_responses_kept, setup, teardown),
        cmocka_unit_test_setup_teardown(test_agent_missing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
