/* run/start.c: target.start started, waited for, stopped; its failures. */
#include <errno.h>
#include <netinet/in.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cmocka.h>

#include "run/start.h"

struct fx {
    char dir[256];
    struct an_tmpl cmd[3];
    struct an_target_start s;
    struct an_regex *re;
};

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    snprintf(f->dir, sizeof f->dir, "/tmp/ananke-start-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    f->s.cmd = f->cmd;
    f->s.timeout_ms = 5000;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    an_regex_free(f->re);
    free(f);
    return 0;
}

/* cmd: sh -c SCRIPT; ready: log REGEX */
static void shell(struct fx *f, const char *script, const char *regex)
{
    struct an_err err = AN_ERR_INIT;
    f->cmd[0].src = "sh";
    f->cmd[1].src = "-c";
    f->cmd[2].src = script;
    f->s.ncmd = 3;
    an_regex_free(f->re);
    f->re = NULL;
    assert_int_equal(an_regex_compile(&f->re, regex, NULL, &err), 0);
    f->s.ready = AN_READY_LOG;
    f->s.ready_log = f->re;
}

static char *slurp(const char *dir, const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = fread(buf, 1, (1 << 20) - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void test_log_ready_then_stopped(void **state)
{
    struct fx *f = *state;
    struct an_err err = AN_ERR_INIT;
    struct an_started *st = NULL;
    /* a line longer than the line cap first: matched on its start only, and
     * the next line is still read as a line */
    shell(f,
          "echo $$ > pid; head -c 100000 /dev/zero | tr '\\0' x; echo; echo booting; "
          "echo 'listening on 42'; exec sleep 30",
          "^listening on \\d+$");
    assert_int_equal(an_start_up(&st, &f->s, f->dir, &err), 0);
    assert_non_null(st);
    char *pid = slurp(f->dir, "pid");
    assert_non_null(pid);
    pid_t p = (pid_t)strtol(pid, NULL, 10);
    free(pid);
    assert_int_equal(kill(p, 0), 0);
    an_start_down(st);
    assert_int_equal(kill(p, 0), -1);
    assert_int_equal(errno, ESRCH);
    char *log = slurp(f->dir, ".ananke/start.log");
    assert_non_null(strstr(log, "booting\nlistening on 42\n"));
    free(log);
}

static void test_exits_early(void **state)
{
    struct fx *f = *state;
    struct an_err err = AN_ERR_INIT;
    struct an_started *st = (struct an_started *)1;
    shell(f, "echo dying >&2; exit 3", "never");
    assert_int_equal(an_start_up(&st, &f->s, f->dir, &err), AN_EIO);
    assert_null(st);
    assert_non_null(strstr(err.msg, "'sh' exited with status 3 before it was ready"));
    assert_non_null(strstr(err.msg, ".ananke/start.log"));
    char *log = slurp(f->dir, ".ananke/start.log");
    assert_string_equal(log, "dying\n");
    free(log);
}

static void test_timeout(void **state)
{
    struct fx *f = *state;
    struct an_err err = AN_ERR_INIT;
    struct an_started *st = NULL;
    shell(f, "echo $$ > pid; exec sleep 30", "never");
    f->s.timeout_ms = 150;
    assert_int_equal(an_start_up(&st, &f->s, f->dir, &err), AN_ETIMEOUT);
    assert_null(st);
    assert_non_null(strstr(err.msg, "was not ready after 150 ms (ready.log 'never'; timeout_ms)"));
    char *pid = slurp(f->dir, "pid");
    assert_non_null(pid);
    assert_int_equal(kill((pid_t)strtol(pid, NULL, 10), 0), -1); /* stopped */
    free(pid);
}

static void test_busy_port(void **state)
{
    struct fx *f = *state;
    struct an_err err = AN_ERR_INIT;
    struct an_started *st = NULL;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof sa;
    assert_int_equal(bind(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    assert_int_equal(listen(fd, 8), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&sa, &len), 0);
    unsigned port = ntohs(sa.sin_port);
    shell(f, "touch started; exec sleep 30", "x");
    f->s.ready = AN_READY_PORT;
    f->s.ready_port = port;
    assert_int_equal(an_start_up(&st, &f->s, f->dir, &err), AN_EIO);
    char want[128];
    snprintf(want, sizeof want, "port %u (127.0.0.1:%u) is already in use", port, port);
    assert_non_null(strstr(err.msg, want));
    f->s.reuse_existing = true;
    assert_int_equal(an_start_up(&st, &f->s, f->dir, &err), 0);
    assert_null(st); /* reused: nothing to stop */
    char *started = slurp(f->dir, "started");
    assert_null(started);
    close(fd);
}

static void test_cannot_run(void **state)
{
    struct fx *f = *state;
    struct an_err err = AN_ERR_INIT;
    struct an_started *st = NULL;
    f->cmd[0].src = "/nonexistent/server";
    f->s.ncmd = 1;
    f->s.ready = AN_READY_PORT;
    f->s.ready_port = 9; /* discard: nothing listens */
    assert_int_not_equal(an_start_up(&st, &f->s, f->dir, &err), 0);
    assert_non_null(strstr(err.msg, "target.start: cannot run '/nonexistent/server'"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_log_ready_then_stopped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exits_early, setup, teardown),
        cmocka_unit_test_setup_teardown(test_timeout, setup, teardown),
        cmocka_unit_test_setup_teardown(test_busy_port, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cannot_run, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
