/* Confinement (core/confine) and the minimal environment (core/envmin), as
 * a caller of core/child observes them: exit codes and signals pass through
 * the supervisor and the init, start failures are still reported, the
 * sandbox is the only writable place, nothing outlives the program. The
 * confinement cases are skipped where namespaces are not available. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
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

#include "core/buf.h"
#include "core/child.h"
#include "core/confine.h"
#include "core/envmin.h"
#include "core/tmpdir.h"

#define ARGV(...) ((const char *const[]){__VA_ARGS__, NULL})

struct ran {
    int rc;
    struct an_err err;
    struct an_buf out;
    int exit_code, term_signal;
};

/* Run argv confined to sandbox (NULL: not confined), stdout and stderr
 * kept, until it exits. */
static void run(struct ran *r, const char *const *argv, const char *sandbox, const char *const *ro,
                const char *const *env, bool env_clear)
{
    memset(r, 0, sizeof *r);
    r->err = (struct an_err)AN_ERR_INIT;
    an_buf_init(&r->out, 0);
    struct an_confine cf = {.sandbox = sandbox, .ro_paths = ro};
    struct an_child_opts o = {.argv = argv,
                              .cwd = sandbox,
                              .env = env,
                              .env_clear = env_clear,
                              .stdin_null = true,
                              .merge_stderr = true,
                              .confine = sandbox ? &cf : NULL};
    struct an_child c = AN_CHILD_INIT;
    r->rc = an_child_spawn(&c, &o, &r->err);
    if (r->rc != AN_OK)
        return;
    char buf[4096];
    while (c.out_fd >= 0) {
        struct pollfd p = {.fd = c.out_fd, .events = POLLIN};
        poll(&p, 1, 5000);
        ssize_t n = read(c.out_fd, buf, sizeof buf);
        if (n < 0 && (errno == EAGAIN || errno == EINTR))
            continue;
        if (n <= 0)
            break;
        an_buf_append(&r->out, buf, (size_t)n);
    }
    an_child_reap(&c, false);
    r->exit_code = c.exit_code;
    r->term_signal = c.term_signal;
    an_child_close(&c, 0);
}

static char *sandbox(void)
{
    char *dir = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_tmpdir_make("ananke-confine-test-", &dir, &err), AN_OK);
    return dir;
}

static bool available(void)
{
    struct an_err err = AN_ERR_INIT;
    if (an_confine_available(&err) == AN_OK)
        return true;
    print_message("confinement not available here: %s\n", err.msg);
    return false;
}

/* Is a process whose command line holds `needle` running? */
static bool running(const char *needle)
{
    DIR *d = opendir("/proc");
    struct dirent *e;
    bool found = false;
    while (d && !found && (e = readdir(d)) != NULL) {
        char path[300], buf[512];
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        for (ssize_t i = 0; i < n; i++)
            if (buf[i] == '\0')
                buf[i] = ' ';
        buf[n > 0 ? n : 0] = '\0';
        found = strstr(buf, needle) != NULL;
    }
    if (d)
        closedir(d);
    return found;
}

static void test_envmin(void **state)
{
    (void)state;
    setenv("PATH", "/opt/x/bin:/usr/bin", 1);
    setenv("ANANKE_TEST_SECRET", "s3cret", 1);
    unsetenv("LANG");
    setenv("TERM", "xterm", 1);
    char **env = an_envmin_build("/sb", ARGV("A=1", "PATH=/only"));
    const char *want[] = {"PATH=/opt/x/bin:/usr/bin",
                          "HOME=/sb",
                          "TMPDIR=/sb",
                          "LANG=C.UTF-8",
                          "TERM=xterm",
                          "A=1",
                          "PATH=/only",
                          NULL};
    for (size_t i = 0; want[i]; i++)
        assert_string_equal(env[i], want[i]);
    assert_null(env[7]);
    an_envmin_free(env);
    /* no home given: ananke's */
    setenv("HOME", "/home/me", 1);
    env = an_envmin_build(NULL, NULL);
    assert_string_equal(env[1], "HOME=/home/me");
    assert_null(env[5]);
    an_envmin_free(env);
}

static void test_env_clear(void **state)
{
    (void)state;
    setenv("ANANKE_TEST_SECRET", "s3cret", 1);
    struct ran r;
    /* env_clear: the list is the whole environment, the last of a name wins */
    run(&r, ARGV("/usr/bin/env"), NULL, NULL, ARGV("A=1", "B=2", "A=3"), true);
    assert_int_equal(r.rc, AN_OK);
    assert_string_equal(an_buf_cstr(&r.out), "B=2\nA=3\n");
    an_buf_release(&r.out);
    /* without it ananke's environment is inherited */
    run(&r, ARGV("/usr/bin/env"), NULL, NULL, ARGV("A=1"), false);
    assert_non_null(strstr(an_buf_cstr(&r.out), "ANANKE_TEST_SECRET=s3cret"));
    an_buf_release(&r.out);
}

static void test_status_passes_through(void **state)
{
    (void)state;
    if (!available())
        skip();
    char *sb = sandbox();
    static const struct {
        const char *script;
        int code, sig;
    } cases[] = {{"exit 0", 0, 0},         {"exit 3", 3, 0},          {"exit 255", 255, 0},
                 {"kill -KILL $$", -1, 9}, {"kill -TERM $$", -1, 15}, {"kill -SEGV $$", -1, 11}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct ran r;
        run(&r, ARGV("/bin/sh", "-c", cases[i].script), sb, NULL, NULL, false);
        assert_int_equal(r.rc, AN_OK);
        assert_int_equal(r.exit_code, cases[i].code);
        assert_int_equal(r.term_signal, cases[i].sig);
        an_buf_release(&r.out);
    }
    an_tmpdir_remove(sb);
    free(sb);
}

static void test_start_failures(void **state)
{
    (void)state;
    if (!available())
        skip();
    char *sb = sandbox();
    struct ran r;
    /* exec fails in the third process: still reported by the spawn */
    run(&r, ARGV("/nonexistent/agent"), sb, NULL, NULL, false);
    assert_int_equal(r.rc, AN_ENOTFOUND);
    assert_string_equal(r.err.msg, "cannot run '/nonexistent/agent': No such file or directory");
    /* a path to keep that does not exist */
    run(&r, ARGV("/bin/true"), sb, ARGV("/nonexistent-confine-path"), NULL, false);
    assert_int_equal(r.rc, AN_ENOTFOUND);
    assert_string_equal(r.err.msg,
                        "confine path '/nonexistent-confine-path': No such file or directory");
    run(&r, ARGV("/bin/true"), sb, ARGV("relative"), NULL, false);
    assert_int_equal(r.rc, AN_EUSAGE);
    assert_string_equal(r.err.msg, "confine path 'relative' is not absolute");
    an_tmpdir_remove(sb);
    free(sb);
}

static void test_only_the_sandbox_is_writable(void **state)
{
    (void)state;
    if (!available())
        skip();
    char *sb = sandbox();
    char etc[64], sibling[4200];
    snprintf(etc, sizeof etc, "/etc/ananke-confine-test-%d", (int)getpid());
    /* a file next to the sandbox, where the other tests' sandboxes are */
    snprintf(sibling, sizeof sibling, "%s-sibling", sb);
    FILE *f = fopen(sibling, "w");
    assert_non_null(f);
    fclose(f);
    struct an_buf script = AN_BUF_INIT;
    an_buf_printf(&script,
                  "echo in > inside.txt && cat inside.txt; echo out > %s || echo refused; "
                  "test -e %s && echo sibling-seen || echo sibling-hidden; "
                  "ls /dev | tr '\\n' ' '",
                  etc, sibling);
    struct ran r;
    run(&r, ARGV("/bin/sh", "-c", an_buf_cstr(&script)), sb, NULL, NULL, false);
    assert_int_equal(r.rc, AN_OK);
    const char *out = an_buf_cstr(&r.out);
    struct stat st;
    bool leaked = stat(etc, &st) == 0;
    unlink(etc);
    assert_false(leaked);
    assert_non_null(strstr(out, "in\n"));
    if (getuid() == 0) /* others meet the permission bits first */
        assert_non_null(strstr(out, "Read-only file system"));
    assert_non_null(strstr(out, "refused\n"));
    assert_non_null(strstr(out, "refused\nsibling-hidden\n"));
    assert_non_null(strstr(out, "fd full null random shm stderr stdin stdout urandom zero"));
    char path[4200];
    snprintf(path, sizeof path, "%s/inside.txt", sb);
    assert_int_equal(stat(path, &st), 0);
    unlink(sibling);
    an_buf_release(&r.out);
    an_buf_release(&script);
    an_tmpdir_remove(sb);
    free(sb);
}

static void test_nothing_outlives_it(void **state)
{
    (void)state;
    if (!available())
        skip();
    char *sb = sandbox();
    struct ran r;
    run(&r, ARGV("/bin/sh", "-c", "sleep 91.375 & setsid sleep 92.375 & sleep 0.2; exit 4"), sb,
        NULL, NULL, false);
    assert_int_equal(r.exit_code, 4);
    for (int i = 0; i < 100 && (running("sleep 91.375") || running("sleep 92.375")); i++)
        usleep(10000);
    assert_false(running("sleep 91.375"));
    assert_false(running("sleep 92.375"));
    an_buf_release(&r.out);
    an_tmpdir_remove(sb);
    free(sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_envmin),
        cmocka_unit_test(test_env_clear),
        cmocka_unit_test(test_status_passes_through),
        cmocka_unit_test(test_start_failures),
        cmocka_unit_test(test_only_the_sandbox_is_writable),
        cmocka_unit_test(test_nothing_outlives_it),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
