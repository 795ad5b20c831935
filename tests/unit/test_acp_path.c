/* proto/acp_path: every shape of path an agent may send, opened beneath a
 * sandbox, with openat2 and with the component walk that replaces it on
 * kernels without: both must give the same answer, and nothing outside
 * may be opened or created. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/child.h"
#include "proto/acp_int.h"

struct fx {
    char top[64]; /* holds sandbox/ and outside/ */
    char sb[96];  /* the sandbox */
    char out[96]; /* outside it */
    int root;
};

static void put(const char *dir, const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void link_in(const struct fx *f, const char *target, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", f->sb, name);
    assert_int_equal(symlink(target, path), 0);
}

static int setup(void **state)
{
    struct fx *f = calloc(1, sizeof *f);
    snprintf(f->top, sizeof f->top, "/tmp/ananke-path-XXXXXX");
    assert_non_null(mkdtemp(f->top));
    snprintf(f->sb, sizeof f->sb, "%s/sandbox", f->top);
    snprintf(f->out, sizeof f->out, "%s/outside", f->top);
    assert_int_equal(mkdir(f->sb, 0755), 0);
    assert_int_equal(mkdir(f->out, 0755), 0);
    put(f->out, "secret.txt", "secret");
    put(f->sb, "afile", "a file");
    char p[256];
    snprintf(p, sizeof p, "%s/dir", f->sb);
    assert_int_equal(mkdir(p, 0755), 0);
    put(p, "sub.txt", "sub");
    snprintf(p, sizeof p, "%s/nope", f->sb); /* made later by a test */
    link_in(f, "../outside", "dirlink");
    link_in(f, f->out, "abslink");
    link_in(f, "..", "uplink");
    link_in(f, "/proc/self/root", "procroot");
    link_in(f, "../../../../../../../../proc/self/root", "procrel");
    link_in(f, "/proc/self/cwd", "proccwd");
    link_in(f, "chain2", "chain1");
    link_in(f, "chain3", "chain2");
    link_in(f, "dirlink", "chain3");
    link_in(f, "loop2", "loop1");
    link_in(f, "loop1", "loop2");
    link_in(f, "dir", "inlink");
    link_in(f, "dir/sub.txt", "filelink");
    link_in(f, "inlink/../dir/sub.txt", "inchain");
    link_in(f, "../outside/created.txt", "dangle_out");
    link_in(f, "dir/made.txt", "dangle_in");
    snprintf(p, sizeof p, "%s/fifo", f->sb);
    assert_int_equal(mkfifo(p, 0644), 0);
    f->root = open(f->sb, O_PATH | O_DIRECTORY | O_CLOEXEC);
    assert_true(f->root >= 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    struct fx *f = *state;
    char cmd[128];
    close(f->root);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->top);
    assert_int_equal(system(cmd), 0);
    free(f);
    acp_path_force_walk = 0;
    return 0;
}

/* The file's first bytes through fd, or "" when it is not readable. */
static void content(int fd, char *buf, size_t cap)
{
    ssize_t n = pread(fd, buf, cap - 1, 0);
    buf[n > 0 ? n : 0] = '\0';
}

struct pcase {
    const char *rel;
    int flags;
    int err;            /* 0: opens */
    const char *expect; /* what the opened file holds (NULL: don't look) */
};

static void run_cases(const struct fx *f, const struct pcase *cases, size_t n, bool walk)
{
    acp_path_force_walk = walk;
    for (size_t i = 0; i < n; i++) {
        const struct pcase *k = &cases[i];
        print_message("%s: '%s'\n", walk ? "walk" : "openat2", k->rel);
        errno = 0;
        int fd = acp_open_beneath(f->root, k->rel, k->flags, 0644);
        int e = errno;
        if (k->err) {
            assert_int_equal(fd, -1);
            assert_int_equal(e, k->err);
            continue;
        }
        assert_true(fd >= 0);
        if (k->expect) {
            char buf[64];
            content(fd, buf, sizeof buf);
            assert_string_equal(buf, k->expect);
        }
        close(fd);
    }
}

static void check_outside_untouched(const struct fx *f)
{
    char cmd[256];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A '%s')\" = secret.txt", f->out);
    assert_int_equal(system(cmd), 0);
}

static void test_reads(void **state)
{
    struct fx *f = *state;
    struct an_buf longp = AN_BUF_INIT, longname = AN_BUF_INIT;
    for (int i = 0; i < 3000; i++)
        an_buf_puts(&longp, "d/");
    for (int i = 0; i < 300; i++)
        an_buf_putc(&longname, 'n');
    const int R = O_RDONLY | O_NONBLOCK;
    const struct pcase cases[] = {
        {"dir/sub.txt", R, 0, "sub"},
        {"./dir/./sub.txt", R, 0, "sub"},
        {"dir//sub.txt", R, 0, "sub"},
        {"dir/../dir/sub.txt", R, 0, "sub"},
        {"inlink/sub.txt", R, 0, "sub"},
        {"filelink", R, 0, "sub"},
        {"inchain", R, 0, "sub"},
        {"", O_PATH | O_DIRECTORY, 0, NULL},
        {"dir/", R, 0, NULL},
        {"dir/..", O_PATH | O_DIRECTORY, 0, NULL},
        /* out by "..": at the top, or after a component that is there */
        {"..", R, EXDEV, NULL},
        {"../outside/secret.txt", R, EXDEV, NULL},
        {"../sandbox/dir/sub.txt", R, EXDEV, NULL}, /* even coming back */
        {"dir/../../outside/secret.txt", R, EXDEV, NULL},
        /* ".." after a missing component or a file: as the kernel, not found */
        {"nope/../dirlink/secret.txt", R, ENOENT, NULL},
        {"afile/x/../../dirlink/secret.txt", R, ENOTDIR, NULL},
        {"afile/..", R, ENOTDIR, NULL},
        /* symlinks out: relative, absolute, up, chains, /proc */
        {"dirlink/secret.txt", R, EXDEV, NULL},
        {"dirlink", R, EXDEV, NULL},
        {"dirlink/", R, EXDEV, NULL},
        {"abslink/secret.txt", R, EXDEV, NULL},
        {"uplink/outside/secret.txt", R, EXDEV, NULL},
        {"uplink/sandbox/dir/sub.txt", R, EXDEV, NULL},
        {"chain1/secret.txt", R, EXDEV, NULL},
        {"procroot/etc/passwd", R, EXDEV, NULL},
        {"procrel/etc/passwd", R, EXDEV, NULL},
        {"proccwd", R, EXDEV, NULL},
        {"inlink/../dirlink/secret.txt", R, EXDEV, NULL},
        {"loop1", R, ELOOP, NULL},
        {"loop1/x", R, ELOOP, NULL},
        /* shapes */
        {"dir/sub.txt/", R, ENOTDIR, NULL},
        {"dir/sub.txt/.", R, ENOTDIR, NULL},
        {"missing.txt", R, ENOENT, NULL},
        {longp.data, R, ENAMETOOLONG, NULL},
        {longname.data, R, ENAMETOOLONG, NULL},
        /* a FIFO opens without blocking (the caller refuses it by fstat) */
        {"fifo", R, 0, NULL},
        {"fifo", O_WRONLY | O_NONBLOCK, ENXIO, NULL},
    };
    size_t n = sizeof cases / sizeof cases[0];
    run_cases(f, cases, n, false);
    run_cases(f, cases, n, true);
    /* once "nope" is there, its ".." leads to dirlink: out */
    char p[256];
    snprintf(p, sizeof p, "%s/nope", f->sb);
    assert_int_equal(mkdir(p, 0755), 0);
    const struct pcase later[] = {
        {"nope/../dirlink/secret.txt", R, EXDEV, NULL},
        {"nope/../dir/sub.txt", R, 0, "sub"},
    };
    run_cases(f, later, 2, false);
    run_cases(f, later, 2, true);
    check_outside_untouched(f);
    an_buf_release(&longp);
    an_buf_release(&longname);
}

static void test_creates(void **state)
{
    struct fx *f = *state;
    const int W = O_WRONLY | O_CREAT | O_NONBLOCK;
    const struct pcase cases[] = {
        {"dirlink/new.txt", W, EXDEV, NULL},
        {"abslink/new.txt", W, EXDEV, NULL},
        {"uplink/outside/new.txt", W, EXDEV, NULL},
        {"dangle_out", W, EXDEV, NULL}, /* a dangling link out: not created there */
        {"../new.txt", W, EXDEV, NULL},
        {"dir/", W, EISDIR, NULL},
        {"", W, EISDIR, NULL},
        {"missingdir/new.txt", W, ENOENT, NULL},
        {"fifo", W, ENXIO, NULL},
    };
    for (int walk = 0; walk < 2; walk++) {
        run_cases(f, cases, sizeof cases / sizeof cases[0], walk);
        check_outside_untouched(f);
    }
    /* inside: a new file, one through a dangling link that stays inside */
    for (int walk = 0; walk < 2; walk++) {
        acp_path_force_walk = walk;
        char name[32];
        snprintf(name, sizeof name, "new%d.txt", walk);
        int fd = acp_open_beneath(f->root, name, W, 0644);
        assert_true(fd >= 0);
        close(fd);
        char p[256];
        snprintf(p, sizeof p, "%s/%s", f->sb, name);
        assert_int_equal(access(p, F_OK), 0);
        fd = acp_open_beneath(f->root, "dangle_in", W, 0644);
        assert_true(fd >= 0);
        close(fd);
        snprintf(p, sizeof p, "%s/dir/made.txt", f->sb);
        assert_int_equal(access(p, F_OK), 0);
        assert_int_equal(unlink(p), 0);
    }
}

static void test_mkdirs(void **state)
{
    struct fx *f = *state;
    char p[256];
    for (int walk = 0; walk < 2; walk++) {
        acp_path_force_walk = walk;
        assert_int_equal(acp_mkdirs_beneath(f->root, "a/b/c"), 0);
        snprintf(p, sizeof p, "%s/a/b/c", f->sb);
        assert_int_equal(access(p, F_OK), 0);
        errno = 0;
        assert_int_equal(acp_mkdirs_beneath(f->root, "m/../dirlink/deeper"), -1);
        assert_int_equal(errno, EXDEV);
        assert_int_equal(acp_mkdirs_beneath(f->root, "abslink/deeper"), -1);
        assert_int_equal(errno, EXDEV);
        assert_int_equal(acp_mkdirs_beneath(f->root, "../outside/deeper"), -1);
        assert_int_equal(errno, EXDEV);
        assert_int_equal(acp_mkdirs_beneath(f->root, "afile/x"), -1);
        assert_int_equal(errno, ENOTDIR);
        check_outside_untouched(f);
    }
}

static void test_rel(void **state)
{
    (void)state;
    static const struct {
        const char *path;
        int rc;
        const char *rel;
    } cases[] = {
        {"/tmp/x/s/a", ACP_PATH_OK, "a"},
        {"/tmp/x/s", ACP_PATH_OK, ""},
        {"/tmp/x/s/", ACP_PATH_OK, ""},
        {"//tmp/./x//s/./a/../b", ACP_PATH_OK, "a/../b"},
        {"/tmp/x/s/../s/a", ACP_PATH_OK, "../s/a"}, /* the ".." is the kernel's (EXDEV) */
        {"/tmp/x/sa", ACP_PATH_OUTSIDE, NULL},
        {"/tmp/x", ACP_PATH_OUTSIDE, NULL},
        {"/tmp/x/../x/s/a", ACP_PATH_OUTSIDE, NULL},
        {"/etc/passwd", ACP_PATH_OUTSIDE, NULL},
        {"/", ACP_PATH_OUTSIDE, NULL},
        {"tmp/x/s/a", ACP_PATH_RELATIVE, NULL},
        {"", ACP_PATH_RELATIVE, NULL},
        {NULL, ACP_PATH_RELATIVE, NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *rel = "unset";
        print_message("'%s'\n", cases[i].path ? cases[i].path : "(null)");
        assert_int_equal(acp_path_rel("/tmp/x/s", cases[i].path, &rel), cases[i].rc);
        if (cases[i].rel)
            assert_string_equal(rel, cases[i].rel);
        else
            assert_null(rel);
    }
}

/* A terminal runs in the directory that was checked, not in what its path
 * names by the time it starts: here the checked directory is renamed and a
 * link out put in its place before the child is spawned. */
static void test_child_cwd_fd(void **state)
{
    struct fx *f = *state;
    char d[160], d2[160], where[160], cmd[256], got[256] = {0};
    snprintf(d, sizeof d, "%s/d", f->sb);
    snprintf(d2, sizeof d2, "%s/d2", f->sb);
    snprintf(where, sizeof where, "%s/where", f->top);
    assert_int_equal(mkdir(d, 0755), 0);
    int fd = acp_open_beneath(f->root, "d", O_PATH | O_DIRECTORY, 0);
    assert_true(fd >= 0);
    assert_int_equal(rename(d, d2), 0);
    assert_int_equal(symlink(f->out, d), 0);
    snprintf(cmd, sizeof cmd, "pwd -P > '%s'; touch made-here", where);
    const char *argv[] = {"/bin/sh", "-c", cmd, NULL};
    struct an_child_opts o = {.argv = argv,
                              .cwd = d,
                              .cwd_fd = fd,
                              .use_cwd_fd = true,
                              .stdin_null = true,
                              .merge_stderr = true};
    struct an_child c = AN_CHILD_INIT;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_child_spawn(&c, &o, &err), AN_OK);
    assert_true(an_child_reap(&c, false));
    an_child_close(&c, 0);
    close(fd);
    FILE *fp = fopen(where, "r");
    assert_non_null(fp);
    assert_non_null(fgets(got, sizeof got, fp));
    fclose(fp);
    got[strcspn(got, "\n")] = '\0';
    char real[PATH_MAX];
    assert_non_null(realpath(d2, real));
    assert_string_equal(got, real);
    check_outside_untouched(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_creates, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mkdirs, setup, teardown),
        cmocka_unit_test(test_rel),
        cmocka_unit_test_setup_teardown(test_child_cwd_fd, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
