/* Child processes: what a caller observes of exit, signals, output, caps,
 * timeouts, stdin, environment, cwd and start failures. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/clock.h"
#include "core/proc.h"

#define ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})

static int run(struct an_proc_opts *o, struct an_proc_result *r, struct an_err *err)
{
    *err = (struct an_err)AN_ERR_INIT;
    return an_proc_run(o, r, err);
}

static void assert_output(const struct an_buf *b, const char *want)
{
    assert_int_equal(b->len, strlen(want));
    assert_string_equal(an_buf_cstr(b), want);
}

/* No process of group pgid is left, once the zombies this test process
 * inherits as a subreaper are reaped. */
static bool group_gone(pid_t pgid)
{
    for (int i = 0; i < 200; i++) {
        while (waitpid(-pgid, NULL, WNOHANG) > 0)
            ;
        if (kill(-pgid, 0) < 0 && errno == ESRCH)
            return true;
        an_sleep_ms(10);
    }
    return false;
}

static void test_exit_codes(void **state)
{
    (void)state;
    static const struct {
        const char *script;
        int code;
    } cases[] = {{"exit 0", 0}, {"exit 3", 3}, {"exit 255", 255}, {"true", 0}, {"false", 1}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct an_proc_opts o = AN_PROC_OPTS_INIT;
        struct an_proc_result r;
        struct an_err err;
        o.argv = ARGV("sh", "-c", cases[i].script);
        assert_int_equal(run(&o, &r, &err), AN_OK);
        assert_int_equal(r.exit_code, cases[i].code);
        assert_int_equal(r.term_signal, 0);
        assert_false(r.timed_out);
        assert_true(r.pid > 0);
        an_proc_result_release(&r);
    }
}

static void test_signal_death(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    char st[64];
    o.argv = ARGV("sh", "-c", "kill -9 $$");
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_int_equal(r.term_signal, SIGKILL);
    assert_int_equal(r.exit_code, -1);
    assert_false(r.timed_out);
    assert_string_equal(an_proc_status_str(&r, st, sizeof st), "was killed by signal 9 (SIGKILL)");
    an_proc_result_release(&r);
}

static void test_stdout_stderr_apart(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    char st[64];
    o.argv = ARGV("sh", "-c", "echo out; echo err >&2; echo out2; printf 'a\\000b' >&2; exit 7");
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_output(&r.stdout_buf, "out\nout2\n");
    assert_int_equal(r.stderr_buf.len, 7);
    assert_memory_equal(r.stderr_buf.data, "err\na\0b", 7);
    assert_false(r.stdout_truncated);
    assert_false(r.stderr_truncated);
    assert_string_equal(an_proc_status_str(&r, st, sizeof st), "exited with status 7");
    an_proc_result_release(&r);
}

static void test_caps(void **state)
{
    (void)state;
    static const struct {
        size_t max;
        const char *want;
        bool truncated;
    } cases[] = {{4, "abcd", false}, {5, "abcd", false}, {3, "abc", true}, {0, "", true}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct an_proc_opts o = AN_PROC_OPTS_INIT;
        struct an_proc_result r;
        struct an_err err;
        o.argv = ARGV("printf", "abcd");
        o.stdout_max = cases[i].max;
        assert_int_equal(run(&o, &r, &err), AN_OK);
        assert_output(&r.stdout_buf, cases[i].want);
        assert_true(r.stdout_truncated == cases[i].truncated);
        an_proc_result_release(&r);
    }
}

/* 10 MB into a 1000-byte cap: the rest is read and dropped, so the child
 * is never stuck on a full pipe and exits normally. */
static void test_flood(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sh", "-c", "head -c 10000000 /dev/zero; head -c 10000000 /dev/zero >&2");
    o.stdout_max = 1000;
    o.stderr_max = 10;
    o.timeout_ms = 20000;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_false(r.timed_out);
    assert_int_equal(r.exit_code, 0);
    assert_int_equal(r.stdout_buf.len, 1000);
    assert_int_equal(r.stderr_buf.len, 10);
    assert_true(r.stdout_truncated);
    assert_true(r.stderr_truncated);
    assert_int_equal(r.stdout_buf.data[999], 0);
    an_proc_result_release(&r);
}

static void test_timeout_kills_group(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sleep", "60");
    o.timeout_ms = 300;
    int64_t t0 = an_clock_mono_ms();
    assert_int_equal(run(&o, &r, &err), AN_OK);
    int64_t took = an_clock_mono_ms() - t0;
    assert_true(r.timed_out);
    assert_int_equal(r.term_signal, SIGTERM);
    assert_true(took >= 300);
    assert_true(took < 300 + AN_PROC_GRACE_MS);
    assert_true(r.duration_ms >= 300 && r.duration_ms <= took);
    assert_true(group_gone(r.pid));
    an_proc_result_release(&r);
}

/* The leader dies of SIGTERM; its child ignores SIGTERM and holds the
 * pipes. It must still be SIGKILLed once the grace ends. */
static void test_timeout_kills_stubborn_grandchild(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sh", "-c", "(trap '' TERM; exec sleep 60) & echo $!; wait");
    o.timeout_ms = 300;
    o.grace_ms = 200;
    int64_t t0 = an_clock_mono_ms();
    assert_int_equal(run(&o, &r, &err), AN_OK);
    int64_t took = an_clock_mono_ms() - t0;
    assert_true(r.timed_out);
    assert_int_equal(r.term_signal, SIGTERM);
    assert_true(took >= 300 + 200);
    assert_true(took < 300 + 200 + 400);
    long grandchild = strtol(an_buf_cstr(&r.stdout_buf), NULL, 10);
    assert_true(grandchild > 1);
    assert_true(group_gone(r.pid));
    assert_int_equal(kill((pid_t)grandchild, 0), -1);
    assert_int_equal(errno, ESRCH);
    an_proc_result_release(&r);
}

/* A leader that ignores SIGTERM itself gets SIGKILL after the grace. */
static void test_timeout_then_sigkill(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sh", "-c", "trap '' TERM; while :; do sleep 0.05; done");
    o.timeout_ms = 200;
    o.grace_ms = 100;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_true(r.timed_out);
    assert_int_equal(r.term_signal, SIGKILL);
    assert_true(r.duration_ms >= 300 && r.duration_ms < 900);
    assert_true(group_gone(r.pid));
    an_proc_result_release(&r);
}

/* A background process that keeps stdout open does not hang the caller
 * once the leader has exited, and is left running. */
static void test_exit_with_lingering_child(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sh", "-c", "sleep 5 & echo $!");
    o.grace_ms = 100;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_false(r.timed_out);
    assert_int_equal(r.exit_code, 0);
    assert_true(r.duration_ms < 1000);
    long bg = strtol(an_buf_cstr(&r.stdout_buf), NULL, 10);
    assert_true(bg > 1);
    assert_int_equal(kill((pid_t)bg, 0), 0);
    kill((pid_t)bg, SIGKILL);
    assert_true(group_gone(r.pid));
    an_proc_result_release(&r);
}

static void test_stdin(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("cat");
    o.stdin_data = "hello\0world";
    o.stdin_len = 11;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_int_equal(r.stdout_buf.len, 11);
    assert_memory_equal(r.stdout_buf.data, "hello\0world", 11);
    an_proc_result_release(&r);

    /* No stdin_data: /dev/null, so a reader sees EOF at once. */
    o = (struct an_proc_opts)AN_PROC_OPTS_INIT;
    o.argv = ARGV("cat");
    o.timeout_ms = 5000;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_false(r.timed_out);
    assert_int_equal(r.stdout_buf.len, 0);
    an_proc_result_release(&r);
}

/* 4 MiB both ways through cat: more than any pipe holds, so writing stdin
 * and reading stdout must interleave. */
static void test_stdin_large(void **state)
{
    (void)state;
    size_t n = (size_t)4 << 20;
    char *data = malloc(n);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++)
        data[i] = (char)(i * 31 + 7);
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("cat");
    o.stdin_data = data;
    o.stdin_len = n;
    o.stdout_max = SIZE_MAX;
    o.timeout_ms = 20000;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_false(r.timed_out);
    assert_int_equal(r.stdout_buf.len, n);
    assert_memory_equal(r.stdout_buf.data, data, n);
    an_proc_result_release(&r);
    free(data);
}

/* A child that never reads stdin must not kill us with SIGPIPE. */
static void test_stdin_not_read(void **state)
{
    (void)state;
    size_t n = (size_t)1 << 20;
    char *data = calloc(1, n);
    assert_non_null(data);
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("true");
    o.stdin_data = data;
    o.stdin_len = n;
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_int_equal(r.exit_code, 0);
    sigset_t pending;
    sigpending(&pending);
    assert_int_equal(sigismember(&pending, SIGPIPE), 0);
    an_proc_result_release(&r);
    free(data);
}

/* an_proc_run refuses o before any child runs: code, and msg when given. */
static void assert_no_start(struct an_proc_opts *o, int code, const char *msg)
{
    struct an_proc_result r;
    struct an_err err;
    assert_int_equal(run(o, &r, &err), code);
    if (msg)
        assert_string_equal(err.msg, msg);
    an_proc_result_release(&r);
}

static void test_env(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    setenv("ANANKE_T_KEEP", "kept", 1);
    setenv("ANANKE_T_DROP", "dropped", 1);
    setenv("ANANKE_T_OVER", "old", 1);
    o.argv = ARGV("sh", "-c",
                  "echo \"$ANANKE_T_KEEP ${ANANKE_T_DROP-unset} $ANANKE_T_OVER $ANANKE_T_NEW\"");
    o.env = ARGV("ANANKE_T_OVER=first", "ANANKE_T_NEW=a=b", "ANANKE_T_DROP", "ANANKE_T_OVER=new");
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_output(&r.stdout_buf, "kept unset new a=b\n");
    an_proc_result_release(&r);
    unsetenv("ANANKE_T_KEEP");
    unsetenv("ANANKE_T_DROP");
    unsetenv("ANANKE_T_OVER");

    /* argv[0] is searched in the child's PATH. */
    o.argv = ARGV("sh", "-c", "true");
    o.env = ARGV("PATH=/nonexistent-ananke");
    assert_no_start(&o, AN_ENOTFOUND, "cannot run 'sh': No such file or directory");
}

static void test_cwd(void **state)
{
    (void)state;
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("pwd");
    o.cwd = "/";
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_output(&r.stdout_buf, "/\n");
    an_proc_result_release(&r);

    /* Relative to the caller's directory (the repo root under ctest). */
    o.argv = ARGV("sh", "-c", "test -f proc.h && echo here");
    o.cwd = "src/lib/core";
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_output(&r.stdout_buf, "here\n");
    an_proc_result_release(&r);
}

static void test_start_failures(void **state)
{
    (void)state;
    const struct {
        const char *const *argv;
        const char *cwd;
        int code;
        const char *msg;
    } cases[] = {
        {ARGV("ananke-no-such-program", "x"), NULL, AN_ENOTFOUND,
         "cannot run 'ananke-no-such-program': No such file or directory"},
        {ARGV("./no/such/file"), NULL, AN_ENOTFOUND,
         "cannot run './no/such/file': No such file or directory"},
        {ARGV("true"), "/nonexistent-ananke-dir", AN_ENOTFOUND,
         "cannot run 'true': cannot change directory to '/nonexistent-ananke-dir': No such file "
         "or directory"},
        {ARGV(""), NULL, AN_EUSAGE, NULL},
        {NULL, NULL, AN_EUSAGE, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct an_proc_opts o = AN_PROC_OPTS_INIT;
        o.argv = cases[i].argv;
        o.cwd = cases[i].cwd;
        assert_no_start(&o, cases[i].code, cases[i].msg);
    }

    char path[] = "/tmp/ananke-test-proc-XXXXXX";
    int fd = mkstemp(path); /* mode 0600: not executable */
    assert_true(fd >= 0);
    close(fd);
    char want[128];
    snprintf(want, sizeof want, "cannot run '%s': Permission denied", path);
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    o.argv = ARGV(path);
    assert_no_start(&o, AN_EIO, want);
    unlink(path);
}

/* A file without "#!" is run by /bin/sh, as execvp does. */
static void test_script_without_shebang(void **state)
{
    (void)state;
    char path[] = "/tmp/ananke-test-proc-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char body[] = "echo \"script $1\"\n";
    assert_int_equal(write(fd, body, sizeof body - 1), (ssize_t)(sizeof body - 1));
    close(fd);
    chmod(path, 0700);
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV(path, "arg");
    assert_int_equal(run(&o, &r, &err), AN_OK);
    assert_output(&r.stdout_buf, "script arg\n");
    an_proc_result_release(&r);
    unlink(path);
}

/* The child gets no fd but 0, 1, 2, even when the caller holds one without
 * CLOEXEC; and SIGPIPE is at its default even when the caller ignores it.
 * (The shell opens fds of its own from 10 up, so those are not looked at.) */
static void test_child_starts_clean(void **state)
{
    (void)state;
    int leak = fcntl(2, F_DUPFD, 100); /* F_DUPFD does not set CLOEXEC */
    assert_true(leak >= 100);
    char script[256];
    snprintf(script, sizeof script,
             "for n in 0 1 2 3 4 5 6 7 8 9 %d; do test -e /proc/$$/fd/$n && printf '%%s ' $n; "
             "done; grep '^SigIgn' /proc/$$/status",
             leak);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    struct an_proc_opts o = AN_PROC_OPTS_INIT;
    struct an_proc_result r;
    struct an_err err;
    o.argv = ARGV("sh", "-c", script);
    assert_int_equal(run(&o, &r, &err), AN_OK);
    signal(SIGPIPE, old);
    close(leak);
    const char *out = an_buf_cstr(&r.stdout_buf);
    assert_true(strncmp(out, "0 1 2 SigIgn:", 13) == 0);
    unsigned long long ign = strtoull(out + 13, NULL, 16);
    assert_int_equal(ign & (1ULL << (SIGPIPE - 1)), 0);
    an_proc_result_release(&r);
}

/* Children started from several threads at once keep to their own pipes:
 * one that inherited another's pipe would hold its EOF back until the
 * linger, and the output would mix. */
static void *run_many(void *arg)
{
    const char *tag = arg;
    for (int i = 0; i < 15; i++) {
        struct an_proc_opts o = AN_PROC_OPTS_INIT;
        struct an_proc_result r;
        struct an_err err = AN_ERR_INIT;
        char want[32];
        o.argv = ARGV("sh", "-c", "sleep 0.01; echo \"$0\"", tag);
        o.grace_ms = 2000;
        snprintf(want, sizeof want, "%s\n", tag);
        if (an_proc_run(&o, &r, &err) != AN_OK || strcmp(an_buf_cstr(&r.stdout_buf), want) != 0 ||
            r.duration_ms > 1500) {
            an_proc_result_release(&r);
            return (void *)1;
        }
        an_proc_result_release(&r);
    }
    return NULL;
}

static void test_threads(void **state)
{
    (void)state;
    static const char *const tags[] = {"t0", "t1", "t2", "t3"};
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        assert_int_equal(pthread_create(&th[i], NULL, run_many, (void *)tags[i]), 0);
    for (int i = 0; i < 4; i++) {
        void *ret;
        assert_int_equal(pthread_join(th[i], &ret), 0);
        assert_null(ret);
    }
}

int main(void)
{
    /* Orphans of the children we kill become ours to reap, so the tests
     * can see their process groups vanish even where PID 1 never reaps. */
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_exit_codes),
        cmocka_unit_test(test_signal_death),
        cmocka_unit_test(test_stdout_stderr_apart),
        cmocka_unit_test(test_caps),
        cmocka_unit_test(test_flood),
        cmocka_unit_test(test_timeout_kills_group),
        cmocka_unit_test(test_timeout_kills_stubborn_grandchild),
        cmocka_unit_test(test_timeout_then_sigkill),
        cmocka_unit_test(test_exit_with_lingering_child),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_stdin_large),
        cmocka_unit_test(test_stdin_not_read),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_cwd),
        cmocka_unit_test(test_start_failures),
        cmocka_unit_test(test_script_without_shebang),
        cmocka_unit_test(test_child_starts_clean),
        cmocka_unit_test(test_threads),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
