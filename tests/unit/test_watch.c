/* core/watch (ananke/watch.h): what watch mode sees of file changes, on both
 * ways of learning of them (inotify where this build has it, and the
 * polling that the port-fallback build and ANANKE_WATCH_POLL use). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ananke/cancel.h"
#include "ananke/watch.h"
#include "core/port.h"

static char root[64];

static char *at(const char *rel)
{
    static char buf[8][256];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", root, rel);
    return buf[k];
}

static void append(const char *rel, const char *text)
{
    FILE *f = fopen(at(rel), "a");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    (void)state;
    snprintf(root, sizeof root, "/tmp/ananke-watch-XXXXXX");
    assert_non_null(mkdtemp(root));
    assert_int_equal(mkdir(at("tests"), 0755), 0);
    assert_int_equal(mkdir(at("tests/sub"), 0755), 0);
    append("cfg.yaml", "version: 1\n");
    append("tests/a.test.yaml", "a\n");
    append("tests/b.test.yaml", "b\n");
    append("tests/sub/s.test.jsonl", "{}\n");
    append("tests/notes.txt", "not a test\n");
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    return system(cmd) == 0 ? 0 : -1;
}

static struct an_watch *watcher(bool poll)
{
    struct an_watch_opts o = AN_WATCH_OPTS_INIT;
    o.poll = poll;
    o.poll_ms = 40;
    o.debounce_ms = 40;
    struct an_watch *w = an_watch_new(&o);
    const char *trees[] = {at("tests")};
    const char *files[] = {at("cfg.yaml")};
    an_watch_set(w, trees, 1, files, 1);
    an_watch_mark(w);
    return w;
}

static void on_alarm(int sig)
{
    (void)sig;
    an_cancel_request();
}

/* the next settled change, which must come within 5 s */
static size_t changes(struct an_watch *w, const struct an_watch_change **ch)
{
    size_t n = 0;
    signal(SIGALRM, on_alarm);
    alarm(5);
    enum an_watch_event ev = an_watch_wait(w, -1, ch, &n);
    alarm(0);
    an_cancel_reset();
    assert_int_equal(ev, AN_WATCH_CHANGED);
    return n;
}

static const char *rel(const char *path)
{
    return path + strlen(root) + 1;
}

static void edits_adds_removes(bool poll)
{
    struct an_watch *w = watcher(poll);
    assert_string_equal(an_watch_method(w), poll ? "polling" : "inotify");
    assert_int_equal(an_watch_nfiles(w), 4); /* three tests and the config */
    const struct an_watch_change *ch;

    append("tests/notes.txt", "more\n"); /* not a test file: not reported */
    append("tests/b.test.yaml", "edit\n");
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "tests/b.test.yaml");
    assert_int_equal(ch[0].kind, AN_WATCH_MODIFIED);

    append("tests/sub/new.test.yaml", "new\n");
    assert_int_equal(unlink(at("tests/a.test.yaml")), 0);
    append("cfg.yaml", "# edit\n");
    assert_int_equal(changes(w, &ch), 3); /* sorted by path */
    assert_string_equal(rel(ch[0].path), "cfg.yaml");
    assert_int_equal(ch[0].kind, AN_WATCH_MODIFIED);
    assert_string_equal(rel(ch[1].path), "tests/a.test.yaml");
    assert_int_equal(ch[1].kind, AN_WATCH_REMOVED);
    assert_string_equal(rel(ch[2].path), "tests/sub/new.test.yaml");
    assert_int_equal(ch[2].kind, AN_WATCH_ADDED);

    /* an editor's save: write a temporary file, rename it over */
    append("tests/.b.swp", "b saved\n");
    assert_int_equal(rename(at("tests/.b.swp"), at("tests/b.test.yaml")), 0);
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "tests/b.test.yaml");
    assert_int_equal(ch[0].kind, AN_WATCH_MODIFIED);

    /* a directory made after the start is watched as well */
    assert_int_equal(mkdir(at("tests/later"), 0755), 0);
    append("tests/later/l.test.yml", "l\n");
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "tests/later/l.test.yml");
    append("tests/later/l.test.yml", "l2\n");
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "tests/later/l.test.yml");
    an_watch_free(w);
}

static void test_events(void **state)
{
    (void)state;
    int fd = an_port_notify_open();
#if AN_HAVE_INOTIFY
    assert_true(fd >= 0);
    assert_int_equal(an_port_notify_add(fd, at("cfg.yaml")), -1); /* not a directory */
    assert_int_equal(an_port_notify_add(fd, at("tests")), 0);
    assert_int_equal(an_port_notify_drain(fd), 0);
    append("tests/x.txt", "x");
    assert_true(an_port_notify_drain(fd) > 0);
    close(fd);
    edits_adds_removes(false);
#else
    assert_int_equal(fd, -1);
    assert_int_equal(errno, ENOSYS);
    assert_int_equal(an_port_notify_limit(), -1);
    struct an_watch *w = an_watch_new(NULL);
    assert_string_equal(an_watch_method(w), "polling"); /* nothing else here */
    an_watch_free(w);
#endif
}

static void test_polling(void **state)
{
    (void)state;
    edits_adds_removes(true);
}

/* A link back to an ancestor is not followed: each file once, and a wait
 * that ends. */
static void test_symlink_loop(void **state)
{
    (void)state;
    assert_int_equal(symlink("..", at("tests/sub/up")), 0);
    for (int poll = 0; poll < 2; poll++) {
        struct an_watch *w = watcher(poll);
        assert_int_equal(an_watch_nfiles(w), 4);
        assert_int_equal(an_watch_ndirs(w), 3); /* tests, tests/sub, the root (theirs) */
        const struct an_watch_change *ch;
        append("tests/sub/s.test.jsonl", "{}\n");
        assert_int_equal(changes(w, &ch), 1);
        assert_string_equal(rel(ch[0].path), "tests/sub/s.test.jsonl");
        an_watch_free(w);
    }
}

/* Roots replaced after a run: an edit made meanwhile to a file watched
 * before is still a change; a file only the new roots name is not. */
static void test_set_keeps_state(void **state)
{
    (void)state;
    struct an_watch *w = watcher(true);
    append("tests/a.test.yaml", "edited while the tests ran\n");
    append("hook.sh", "echo {}\n");
    const char *trees[] = {at("tests")};
    const char *files[] = {at("cfg.yaml"), at("hook.sh")};
    an_watch_set(w, trees, 1, files, 2);
    const struct an_watch_change *ch;
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "tests/a.test.yaml");
    append("hook.sh", "# edited\n");
    assert_int_equal(changes(w, &ch), 1);
    assert_string_equal(rel(ch[0].path), "hook.sh");
    an_watch_free(w);
}

/* A tree removed and made again (a branch checked out) is still watched:
 * its parent is watched too. */
static void test_tree_remade(void **state)
{
    (void)state;
    for (int poll = 0; poll < 2; poll++) {
        struct an_watch_opts o = {.poll = poll, .poll_ms = 40, .debounce_ms = 40};
        struct an_watch *w = an_watch_new(&o);
        const char *trees[] = {at("tests/sub")};
        an_watch_set(w, trees, 1, NULL, 0);
        an_watch_mark(w);
        const struct an_watch_change *ch;
        assert_int_equal(rename(at("tests/sub"), at("old")), 0);
        assert_int_equal(changes(w, &ch), 1);
        assert_int_equal(ch[0].kind, AN_WATCH_REMOVED);
        assert_int_equal(mkdir(at("tests/sub"), 0755), 0);
        append("tests/sub/s.test.jsonl", "again\n");
        assert_int_equal(changes(w, &ch), 1);
        assert_string_equal(rel(ch[0].path), "tests/sub/s.test.jsonl");
        assert_int_equal(ch[0].kind, AN_WATCH_ADDED);
        append("tests/sub/s.test.jsonl", "edited\n");
        assert_int_equal(changes(w, &ch), 1);
        assert_int_equal(ch[0].kind, AN_WATCH_MODIFIED);
        an_watch_free(w);
        char cmd[200];
        snprintf(cmd, sizeof cmd, "rm -rf '%s' && mv '%s' '%s'", at("tests/sub"), at("old"),
                 at("tests/sub"));
        assert_int_equal(system(cmd), 0);
    }
}

static void test_key_and_cancel(void **state)
{
    (void)state;
    struct an_watch *w = watcher(false);
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(write(p[1], "q", 1), 1);
    const struct an_watch_change *ch;
    size_t n = 1;
    assert_int_equal(an_watch_wait(w, p[0], &ch, &n), AN_WATCH_KEY);
    assert_int_equal(n, 0);
    an_cancel_request();
    assert_int_equal(an_watch_wait(w, -1, &ch, &n), AN_WATCH_CANCELLED);
    an_cancel_reset();
    close(p[0]);
    close(p[1]);
    an_watch_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_events, setup, teardown),
        cmocka_unit_test_setup_teardown(test_polling, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlink_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_keeps_state, setup, teardown),
        cmocka_unit_test_setup_teardown(test_tree_remade, setup, teardown),
        cmocka_unit_test_setup_teardown(test_key_and_cancel, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
