/* ananke run --watch (docs/watch.md): run, then rerun on changes and keys.
 *
 * Each pass is a whole `ananke run` (cmd_run.c run_once): the files are
 * loaded again, the agent started and stopped, the run appended to the
 * history. Between passes the watcher (ananke/watch.h) waits for a settled
 * change to a test file (its tests rerun), to the config or to a file a
 * hook names (every test reruns), or for a key on stdin: Enter reruns all,
 * f the failed, q quits. Keys typed during a run wait for its end. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "ananke/cancel.h"
#include "ananke/load.h"
#include "ananke/watch.h"
#include "cmd_run.h"

#define SHOWN_MAX 3 /* changed files named in a pass's header */

struct strs {
    char **v;
    size_t n;
};

static void strs_add(struct strs *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return;
    l->v = an_xrealloc(l->v, (l->n + 1) * sizeof *l->v);
    l->v[l->n++] = an_xstrdup(s);
}

static void strs_release(struct strs *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    free(l->v);
    *l = (struct strs){0};
}

static bool strs_has(const struct strs *l, const char *s)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i], s))
            return true;
    return false;
}

/* "./x" and "x" are one file; so are two names of one inode */
static const char *tidy(const char *p)
{
    while (p[0] == '.' && p[1] == '/')
        p += 2;
    return p;
}

static bool same_file(const char *a, const char *b)
{
    struct stat x, y;
    if (!strcmp(tidy(a), tidy(b)))
        return true;
    return stat(a, &x) == 0 && stat(b, &y) == 0 && x.st_dev == y.st_dev && x.st_ino == y.st_ino;
}

/* path as shown: relative to the current directory when under it */
static const char *shown(const char *path)
{
    static char cwd[4096];
    if (!cwd[0] && !getcwd(cwd, sizeof cwd - 1))
        cwd[0] = '\0';
    size_t n = strlen(cwd);
    if (n > 1 && !strncmp(path, cwd, n) && path[n] == '/')
        return path + n + 1;
    return tidy(path);
}

/* s with its control characters as '?': a file name is anyone's text (an
 * agent with file access may make one), and a terminal obeys escapes.
 * In a buffer the next call reuses. */
static const char *printable(const char *s)
{
    static char *last;
    free(last);
    last = an_xstrdup(s);
    for (char *p = last; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return last;
}

enum pick { PICK_ALL, PICK_FAILED, PICK_FILES };

struct watch {
    struct run_args *a;
    struct an_watch *w;
    struct strs trees, files; /* the roots: test directories; single files */
    struct strs config;       /* the config and the files hooks name: all rerun */
    struct strs failed;       /* "FILE\nNAME" of each test whose last run failed */
    struct strs changed;      /* PICK_FILES: the test files that changed */
    enum pick pick;
    unsigned pass;
    int rc;           /* the last pass's */
    bool load_failed; /* the last pass loaded nothing */
    bool tty_out;
    struct termios saved;
    bool raw;     /* stdin switched to single keys (restore saved) */
    bool midline; /* not a terminal: a line's first character read, not its end */
    int key_fd;
};

static char *test_key(const char *file, const char *name)
{
    size_t n = strlen(file) + strlen(name) + 2;
    char *k = an_xmalloc(n);
    snprintf(k, n, "%s\n%s", tidy(file), name);
    return k;
}

static bool choose(const struct an_test *t, void *ud)
{
    struct watch *wt = ud;
    if (wt->pick == PICK_ALL)
        return true;
    if (wt->pick == PICK_FAILED) {
        char *k = test_key(t->file, t->name);
        bool yes = strs_has(&wt->failed, k);
        free(k);
        return yes;
    }
    for (size_t i = 0; i < wt->changed.n; i++)
        if (same_file(t->file, wt->changed.v[i]))
            return true;
    return false;
}

static void ran(const struct an_test *t, const struct an_test_result *r, void *ud)
{
    struct watch *wt = ud;
    char *k = test_key(t->file, t->name);
    bool bad = r->status == AN_STATUS_FAIL || r->status == AN_STATUS_ERROR ||
               r->status == AN_STATUS_INCONCLUSIVE;
    size_t i = 0;
    while (i < wt->failed.n && strcmp(wt->failed.v[i], k))
        i++;
    if (bad && i == wt->failed.n)
        strs_add(&wt->failed, k);
    else if (!bad && i < wt->failed.n) {
        free(wt->failed.v[i]);
        wt->failed.v[i] = wt->failed.v[--wt->failed.n];
    }
    free(k);
}

/* Forget the failed tests the suite no longer has (renamed, deleted). */
static void prune_failed(struct watch *wt, const struct an_suite *s)
{
    size_t w = 0;
    for (size_t i = 0; i < wt->failed.n; i++) {
        bool there = false;
        for (size_t k = 0; k < s->ntests && !there; k++) {
            char *key = test_key(s->tests[k].file, s->tests[k].name);
            there = !strcmp(key, wt->failed.v[i]);
            free(key);
        }
        if (there)
            wt->failed.v[w++] = wt->failed.v[i];
        else
            free(wt->failed.v[i]);
    }
    wt->failed.n = w;
}

/* A hook's argument that names a file of the project (a script it runs):
 * a plain path (no variable), relative to the project root or inside it. */
static void hook_files(struct watch *wt, const struct an_suite *s)
{
    const char *root = s->config.dir;
    for (size_t i = 0; i < s->ntests; i++)
        for (size_t h = 0; h < s->tests[i].nhooks; h++) {
            const struct an_hook *hk = &s->tests[i].hooks[h];
            for (size_t k = 0; k < hk->argc; k++) {
                const char *src = hk->argv[k].src;
                if (!src || !*src || strstr(src, "${"))
                    continue;
                size_t n = strlen(root) + strlen(src) + 2;
                char *p = an_xmalloc(n);
                if (src[0] == '/')
                    snprintf(p, n, "%s", src);
                else
                    snprintf(p, n, "%s/%s", root, src);
                struct stat st;
                bool inside = src[0] != '/' ||
                              (!strncmp(src, root, strlen(root)) && src[strlen(root)] == '/');
                if (inside && stat(p, &st) == 0 && S_ISREG(st.st_mode))
                    strs_add(&wt->config, p);
                free(p);
            }
        }
}

/* The roots: the PATH arguments (and -i files), else the project
 * directory; the config; the hooks' files. s NULL (a load failed): the
 * roots stay as they were, the config found as a run would find it. */
static void roots(struct watch *wt, const struct an_suite *s)
{
    struct run_args *a = wt->a;
    if (!s && wt->trees.n + wt->files.n)
        return;
    strs_release(&wt->trees);
    strs_release(&wt->files);
    strs_release(&wt->config);
    for (size_t i = 0; i < (size_t)a->npaths + a->inputs.npaths; i++) {
        const char *p = i < (size_t)a->npaths ? a->paths[i] : a->inputs.paths[i - a->npaths];
        struct stat st;
        strs_add(stat(p, &st) == 0 && S_ISDIR(st.st_mode) ? &wt->trees : &wt->files, p);
    }
    char *found = NULL;
    struct an_err err = AN_ERR_INIT;
    const char *cfg = s ? s->config.path : a->config;
    if (!cfg && !an_config_find(".", &found, &err))
        cfg = found;
    if (cfg)
        strs_add(&wt->config, cfg);
    if (!a->npaths && !a->inputs.nsrc) { /* the config's directory */
        char *dir = an_xstrdup(s ? s->config.dir : cfg ? cfg : ".");
        char *slash = strrchr(dir, '/');
        if (!s && slash)
            *slash = '\0';
        strs_add(&wt->trees, s || slash ? dir : ".");
        free(dir);
    }
    free(found);
    if (s)
        hook_files(wt, s);
    struct strs all = {0};
    for (size_t i = 0; i < wt->files.n; i++)
        strs_add(&all, wt->files.v[i]);
    for (size_t i = 0; i < wt->config.n; i++)
        strs_add(&all, wt->config.v[i]);
    an_watch_set(wt->w, (const char *const *)wt->trees.v, wt->trees.n, (const char *const *)all.v,
                 all.n);
    strs_release(&all);
}

/* Single keys on a terminal (no echo, no Enter needed); lines elsewhere. */
static void keys_open(struct watch *wt)
{
    wt->key_fd = STDIN_FILENO;
    if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &wt->saved))
        return;
    struct termios t = wt->saved;
    t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
    t.c_cc[VMIN] = 1;
    t.c_cc[VTIME] = 0;
    wt->raw = tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

static void keys_close(struct watch *wt)
{
    if (wt->raw)
        tcsetattr(STDIN_FILENO, TCSANOW, &wt->saved);
    wt->raw = false;
}

enum key { KEY_NONE, KEY_ALL, KEY_FAILED, KEY_QUIT };

/* What was typed: on a terminal, the first key of what is there; else one
 * line, by its first character. End of input: no more keys (the watch goes
 * on until q on a terminal, or a signal). */
static enum key key_read(struct watch *wt)
{
    char buf[256];
    ssize_t n;
    do
        n = read(wt->key_fd, buf, wt->raw ? sizeof buf : 1);
    while (n < 0 && errno == EINTR);
    if (n <= 0) {
        wt->key_fd = -1;
        return KEY_NONE;
    }
    char c = buf[0];
    bool rest = wt->midline;     /* the end of a line already acted on */
    if (!wt->raw && c != '\n') { /* the rest of the line, as far as it has come */
        char d = c;
        struct pollfd p = {.fd = wt->key_fd, .events = POLLIN};
        while (d != '\n' && poll(&p, 1, 0) > 0 && read(wt->key_fd, &d, 1) == 1)
            ;
        wt->midline = d != '\n';
    } else {
        wt->midline = false;
    }
    if (rest)
        return KEY_NONE;
    switch (c) {
    case '\n':
    case '\r':
        return KEY_ALL;
    case 'f':
    case 'F':
        return KEY_FAILED;
    case 'q':
    case 'Q':
    case 4: /* Ctrl-D on a terminal in single-key mode */
        return KEY_QUIT;
    default:
        printf("watch: keys: Enter reruns all tests, f the failed ones, q quits\n");
        fflush(stdout);
        return KEY_NONE;
    }
}

/* The pass's header: what started it. */
static void header(struct watch *wt, const char *why)
{
    if (wt->tty_out)
        fputs("\033[H\033[2J", stdout); /* a clean screen per pass, on a terminal only */
    printf("-- watch pass %u: %s --\n", ++wt->pass, why);
    fflush(stdout);
}

static void waiting_line(struct watch *wt)
{
    const char *note = an_watch_warning(wt->w);
    if (note)
        fprintf(stderr, "ananke: warning: %s\n", printable(note));
    printf("\nwatch: last exit %d; waiting for changes (%s: %zu file%s, %zu director%s); "
           "Enter all, f failed (%zu), q quit\n",
           wt->rc, an_watch_method(wt->w), an_watch_nfiles(wt->w),
           an_watch_nfiles(wt->w) == 1 ? "" : "s", an_watch_ndirs(wt->w),
           an_watch_ndirs(wt->w) == 1 ? "y" : "ies", wt->failed.n);
    fflush(stdout);
}

/* One pass; its exit code is kept as the watch's. */
static void pass(struct watch *wt, int argc, char **argv)
{
    struct run_pass p = {.choose = choose, .ran = ran, .ud = wt};
    int rc = run_once(wt->a, argc, argv, &p);
    if (p.nothing)
        printf("watch: no selected test in %s\n",
               wt->pick == PICK_FAILED ? "the failed ones" : "the changed files");
    else
        wt->rc = rc;
    fflush(stdout);
    fflush(stderr);
    wt->load_failed = p.suite == NULL;
    if (p.suite)
        prune_failed(wt, p.suite);
    roots(wt, p.suite);
    an_suite_free(p.suite);
}

static const char *kind_name(enum an_watch_kind k)
{
    return k == AN_WATCH_ADDED ? "added" : k == AN_WATCH_REMOVED ? "removed" : "changed";
}

/* A settled change: which tests rerun, and the header that says why. */
static bool on_change(struct watch *wt, const struct an_watch_change *ch, size_t n)
{
    bool all = false, any = false;
    strs_release(&wt->changed);
    char why[1024];
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        bool cfg = false;
        for (size_t k = 0; k < wt->config.n && !cfg; k++)
            cfg = !strcmp(ch[i].path, wt->config.v[k]);
        all = all || cfg;
        if (!cfg && ch[i].kind != AN_WATCH_REMOVED)
            strs_add(&wt->changed, ch[i].path);
        any = any || cfg || ch[i].kind != AN_WATCH_REMOVED;
        if (i < SHOWN_MAX && len < sizeof why)
            len += (size_t)snprintf(why + len, sizeof why - len, "%s%s %s", i ? ", " : "",
                                    kind_name(ch[i].kind), printable(shown(ch[i].path)));
    }
    if (n > SHOWN_MAX && len < sizeof why)
        len += (size_t)snprintf(why + len, sizeof why - len, " and %zu more", n - SHOWN_MAX);
    if (!any && !wt->load_failed) { /* only removals: their tests are gone with them */
        printf("watch: %s; no test to rerun\n", why);
        fflush(stdout);
        return false;
    }
    all = all || !any; /* a removal may mend a load that failed: load all again */
    if (len < sizeof why)
        snprintf(why + len, sizeof why - len, "; rerunning %s",
                 !any  ? "all tests (the last load failed)"
                 : all ? "all tests (config or hook file)"
                       : "the tests of the changed files");
    wt->pick = all ? PICK_ALL : PICK_FILES;
    header(wt, why);
    return true;
}

/* Wait for the next reason to run; false: quit. */
static bool next(struct watch *wt)
{
    for (;;) {
        const struct an_watch_change *ch;
        size_t n;
        enum an_watch_event ev = an_watch_wait(wt->w, wt->key_fd, &ch, &n);
        if (ev == AN_WATCH_CANCELLED)
            return false;
        if (ev == AN_WATCH_CHANGED) {
            if (on_change(wt, ch, n))
                return true;
            continue;
        }
        switch (key_read(wt)) {
        case KEY_QUIT:
            return false;
        case KEY_ALL:
            wt->pick = PICK_ALL;
            header(wt, "Enter: rerunning all tests");
            return true;
        case KEY_FAILED:
            if (!wt->failed.n) {
                printf("watch: no failed test to rerun\n");
                fflush(stdout);
                continue;
            }
            wt->pick = PICK_FAILED;
            header(wt, "f: rerunning the failed tests");
            return true;
        case KEY_NONE:
            continue;
        }
    }
}

int cmd_watch(struct run_args *a, int argc, char **argv)
{
    struct watch wt = {.a = a, .rc = AN_EXIT_INVALID, .tty_out = isatty(STDOUT_FILENO)};
    const char *poll_env = getenv("ANANKE_WATCH_POLL");
    struct an_watch_opts o = AN_WATCH_OPTS_INIT;
    o.poll = poll_env && *poll_env && strcmp(poll_env, "0");
    wt.w = an_watch_new(&o);
    cli_cancel_on_signals(); /* Ctrl-C between runs ends the watch too */
    keys_open(&wt);
    roots(&wt, NULL);
    an_watch_mark(wt.w);
    wt.pick = PICK_ALL;
    header(&wt, "start: running all tests");
    do {
        pass(&wt, argc, argv);
        if (an_cancelled())
            break;
        waiting_line(&wt);
    } while (next(&wt));
    keys_close(&wt);
    printf("watch: exit %d (the last run's)\n", wt.rc);
    fflush(stdout);
    an_watch_free(wt.w);
    strs_release(&wt.trees);
    strs_release(&wt.files);
    strs_release(&wt.config);
    strs_release(&wt.failed);
    strs_release(&wt.changed);
    return wt.rc;
}
