/* core/result_paths: the memo of a run (an_project_paths, each directory
 * resolved once) names every path as the per-path resolution does
 * (an_path_in_project): files in the project, in its subdirectories, outside
 * it, through a linked directory, with "." and "..", relative and absolute,
 * a project reached through a link, and more directories than the memo
 * holds. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/result_paths.h"

static char top[PATH_MAX];

static void mk(const char *rel)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    assert_int_equal(mkdir(p, 0700), 0);
}

static void ln(const char *target, const char *rel)
{
    char p[PATH_MAX + 64];
    snprintf(p, sizeof p, "%s/%s", top, rel);
    assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
    (void)state;
    snprintf(top, sizeof top, "%s/an-paths-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
    assert_non_null(mkdtemp(top));
    mk("proj");
    mk("proj/tests");
    mk("proj/tests/deep");
    mk("outside");
    ln("../outside", "proj/linked"); /* a directory of the project that is elsewhere */
    ln("proj", "via");               /* the project reached through a link */
    for (int i = 0; i < AN_PROJECT_PATHS_MEMO + 3; i++) {
        char d[32];
        snprintf(d, sizeof d, "proj/d%02d", i);
        mk(d);
    }
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
    return system(cmd) == 0 ? 0 : -1;
}

/* Every path of `paths`, through one memo, named as an_path_in_project
 * names it; the memo is kept across the calls, as a run keeps it. */
static void same_names(const char *project, const char *const *paths, size_t n)
{
    struct an_project_paths *pp = an_project_paths_new(project);
    for (int round = 0; round < 2; round++) { /* the second round from the memo */
        for (size_t i = 0; i < n; i++) {
            char *want = an_path_in_project(paths[i], project);
            char *got = an_project_path(pp, paths[i]);
            if (strcmp(want, got))
                fail_msg("'%s' in '%s': memo says '%s', per path '%s'", paths[i], project, got,
                         want);
            free(want);
            free(got);
        }
    }
    an_project_paths_free(pp);
}

static void absolute_paths(void **state)
{
    (void)state;
    char proj[PATH_MAX + 16], via[PATH_MAX + 16];
    snprintf(proj, sizeof proj, "%s/proj", top);
    snprintf(via, sizeof via, "%s/via", top);
    char p[16][PATH_MAX + 64];
    const char *paths[16];
    size_t n = 0;
    const char *rels[] = {"proj/a.test.yaml",       "proj/tests/b.test.yaml",
                          "proj/tests/deep/c.yaml", "proj/tests/../d.yaml",
                          "proj/./tests/e.yaml",    "outside/f.yaml",
                          "proj/linked/g.yaml",     "via/tests/h.yaml",
                          "proj/missing/i.yaml",    "proj"};
    for (size_t i = 0; i < sizeof rels / sizeof *rels; i++) {
        snprintf(p[n], sizeof p[n], "%s/%s", top, rels[i]);
        paths[n] = p[n];
        n++;
    }
    same_names(proj, paths, n);
    same_names(via, paths, n);

    /* what the names are, not only that both agree */
    struct an_project_paths *pp = an_project_paths_new(proj);
    char *s = an_project_path(pp, paths[1]);
    assert_string_equal(s, "tests/b.test.yaml");
    free(s);
    s = an_project_path(pp, paths[5]); /* outside: absolute */
    assert_non_null(strstr(s, "/outside/f.yaml"));
    assert_true(s[0] == '/');
    free(s);
    an_project_paths_free(pp);
}

static void relative_paths_and_many_dirs(void **state)
{
    (void)state;
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    char proj[PATH_MAX + 16];
    snprintf(proj, sizeof proj, "%s/proj", top);
    assert_int_equal(chdir(proj), 0);
    char p[AN_PROJECT_PATHS_MEMO + 8][64];
    const char *paths[AN_PROJECT_PATHS_MEMO + 8];
    size_t n = 0;
    for (int i = 0; i < AN_PROJECT_PATHS_MEMO + 3; i++) { /* more than the memo holds */
        snprintf(p[n], sizeof p[n], "d%02d/t.yaml", i);
        paths[n] = p[n];
        n++;
    }
    paths[n++] = "x.yaml";
    paths[n++] = "tests/../tests/deep/y.yaml";
    paths[n++] = "../outside/z.yaml";
    paths[n++] = "linked/w.yaml";
    same_names(".", paths, n);
    same_names("", paths, n);
    same_names("tests", paths, n);
    assert_int_equal(chdir(cwd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(absolute_paths),
        cmocka_unit_test(relative_paths_and_many_dirs),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
