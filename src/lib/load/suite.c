/*
 * The suite loader: finds and reads the config, discovers test files, and
 * loads each into the model, collecting every error.
 */
#include "ananke/load.h"

#include <dirent.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ananke/target_type.h"
#include "core/port.h"
#include "core/interp.h"
#include "load/check_load.h"
#include "load/dynamic_load.h"
#include "load/assert_load.h"
#include "load/loaders.h"

struct an_suite_arena {
    struct an_arena a;
};

void an_errlist_add(struct an_errlist *l, const struct an_err *e)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 4;
        l->v = an_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = *e;
}

struct err_at {
    const struct an_err *e;
    size_t at;
};

static int cmp_err(const void *a, const void *b)
{
    const struct err_at *x = a, *y = b;
    int c = strcmp(x->e->file, y->e->file);
    /* an error of no line (the whole file; "and N more") after the others */
    unsigned lx = x->e->line ? x->e->line : UINT_MAX, ly = y->e->line ? y->e->line : UINT_MAX;
    if (!c)
        c = (lx > ly) - (lx < ly);
    if (!c)
        c = (x->e->col > y->e->col) - (x->e->col < y->e->col);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* By file, line and column; errors at the same place keep their order. */
static void errlist_sort(struct an_errlist *l, size_t from)
{
    size_t n = l->n - from;
    if (n < 2)
        return;
    struct err_at *v = an_xcalloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++)
        v[i] = (struct err_at){&l->v[from + i], i};
    qsort(v, n, sizeof *v, cmp_err);
    struct an_err *sorted = an_xcalloc(n, sizeof *sorted);
    for (size_t i = 0; i < n; i++)
        sorted[i] = *v[i].e;
    memcpy(l->v + from, sorted, n * sizeof *sorted);
    free(sorted);
    free(v);
}

/* check_env: an unset ${ENV.NAME} is an error, once per name (where it is
 * first used), at most AN_LD_MAX_ERRS names. */
static bool env_noted(const struct an_errlist *l, const char *msg)
{
    for (size_t i = 0; i < l->n; i++)
        if (!strcmp(l->v[i].msg, msg))
            return true;
    return false;
}

static void env_add(struct an_errlist *l, const struct an_err *e)
{
    if (l->n < AN_LD_MAX_ERRS && !env_noted(l, e->msg))
        an_errlist_add(l, e);
}

static void on_env(void *ctx, const char *name, const struct an_loc *loc)
{
    struct an_err e = AN_ERR_INIT;
    an_fail(&e, AN_ESCHEMA, loc,
            "environment variable '%s' is not set (used as ${ENV.%s}): a run would stop here", name,
            name);
    env_add(ctx, &e);
}

/* A file's errors (ld->errs, then the one that stopped it, if any) into
 * `out`, sorted by line, and a last line for those beyond the cap.
 * Returns the first error's code, 0 when the file had none. */
static int file_errors(struct an_ld *ld, struct an_errlist *mine, int rc, const char *file,
                       struct an_errlist *out)
{
    ld->errs = NULL;
    if (rc) {
        if (mine->n < AN_LD_MAX_ERRS)
            an_errlist_add(mine, ld->err);
        else
            ld->dropped++;
    }
    int first = rc ? rc : mine->n ? (int)mine->v[0].code : 0;
    errlist_sort(mine, 0);
    for (size_t i = 0; i < mine->n; i++)
        an_errlist_add(out, &mine->v[i]);
    if (ld->dropped) {
        struct an_err e = AN_ERR_INIT;
        struct an_loc loc = {file, 0, 0};
        an_fail(&e, mine->n ? mine->v[0].code : AN_ESCHEMA, &loc,
                "and %zu more error%s in this file (the first %d are shown)", ld->dropped,
                ld->dropped == 1 ? "" : "s", AN_LD_MAX_ERRS);
        an_errlist_add(out, &e);
    }
    ld->dropped = 0;
    an_errlist_release(mine);
    return first;
}

void an_errlist_release(struct an_errlist *l)
{
    free(l->v);
    memset(l, 0, sizeof *l);
}

void an_suite_free(struct an_suite *s)
{
    if (!s)
        return;
    if (s->mem) {
        an_arena_release(&s->mem->a);
        free(s->mem);
    }
    free(s);
}

int an_suite_target_set(struct an_suite *s, const char *key, const char *value, struct an_err *err)
{
    struct an_target *t = &s->config.target;
    struct an_ld ld = {.a = &s->mem->a, .err = err};
    struct an_loc at = {s->config.path, 0, 0};
    return t->type->set ? t->type->set(&ld, t, key, value, &at) : AN_ENOTFOUND;
}

const char *an_level_name(enum an_level level)
{
    switch (level) {
    case AN_LEVEL_TARGET:
        return "target";
    case AN_LEVEL_TEST:
        return "test";
    case AN_LEVEL_TURN:
        return "turn";
    }
    return "?";
}

int an_config_find(const char *start_dir, char **out, struct an_err *err)
{
    char dir[PATH_MAX];
    *out = NULL;
    if (!realpath(start_dir, dir))
        return an_fail(err, AN_EIO, NULL, "cannot resolve '%s': %s", start_dir, strerror(errno));
    for (;;) {
        char path[PATH_MAX + 32];
        snprintf(path, sizeof path, "%s/ananke.config.yaml", strcmp(dir, "/") ? dir : "");
        if (access(path, F_OK) == 0) {
            *out = an_xstrdup(path);
            return 0;
        }
        char *slash = strrchr(dir, '/');
        if (!slash || slash == dir) {
            if (strcmp(dir, "/") == 0)
                break;
            dir[1] = '\0';
            continue;
        }
        *slash = '\0';
    }
    return an_fail(err, AN_ENOTFOUND, NULL,
                   "no ananke.config.yaml in '%s' or any parent directory (create one, or "
                   "pass -c FILE; 'ananke init' writes a starter)",
                   start_dir);
}

static bool ends_with(const char *s, const char *tail)
{
    size_t n = strlen(s), t = strlen(tail);
    return n > t && strcmp(s + n - t, tail) == 0;
}

/* seed 004's case files: cases.json, or NAME.cases.json */
static bool is_cases_json(const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    return !strcmp(base, "cases.json") || ends_with(base, ".cases.json");
}

/* Directory discovery finds *.test.yaml, *.test.yml, *.test.jsonl and
 * cases.json / *.cases.json; a file named on the command line is read
 * whatever its name (.jsonl as JSONL, a cases.json name as cases.json,
 * anything else as YAML), so data files such as cases.jsonl that sit next
 * to tests are never picked up by accident. */
static bool is_test_file(const char *name)
{
    return ends_with(name, ".test.yaml") || ends_with(name, ".test.yml") ||
           ends_with(name, ".test.jsonl") || is_cases_json(name);
}

struct pathlist {
    char **v;
    size_t n, cap;
};

static void pl_add(struct pathlist *l, char *p)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = an_xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = p;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

struct named {
    const char *path;
    size_t at; /* position on the command line */
};

static int cmp_named(const void *a, const void *b)
{
    const struct named *x = a, *y = b;
    int c = strcmp(x->path, y->path);
    return c ? c : (x->at > y->at) - (x->at < y->at);
}

/* A directory with its own ananke.config.yaml is another project
 * (docs/cli.md "Which files"): discovery does not enter it. */
static bool holds_config(const char *dir)
{
    size_t n = strlen(dir) + sizeof "/ananke.config.yaml";
    char *p = an_xmalloc(n);
    snprintf(p, n, "%s/ananke.config.yaml", dir);
    bool yes = access(p, F_OK) == 0;
    free(p);
    return yes;
}

/* The directories from the root down to the one being walked: a symbolic
 * link back to one of them (a loop) is not entered. */
struct walk_up {
    dev_t dev;
    ino_t ino;
    const struct walk_up *up;
};

static void walk_dir(const char *dir, struct pathlist *out, unsigned depth,
                     const struct walk_up *up)
{
    struct stat self;
    if (depth > 32 || stat(dir, &self) != 0)
        return;
    for (const struct walk_up *a = up; a; a = a->up)
        if (a->dev == self.st_dev && a->ino == self.st_ino)
            return;
    const struct walk_up here = {self.st_dev, self.st_ino, up};
    DIR *d = opendir(dir);
    if (!d)
        return;
    size_t dlen = strlen(dir);
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "node_modules") == 0)
            continue;
        /* dir/name, joined by hand: snprintf was a third of the walk */
        size_t nlen = strlen(e->d_name);
        char *p = an_xmalloc(dlen + nlen + 2);
        memcpy(p, dir, dlen);
        p[dlen] = '/';
        memcpy(p + dlen + 1, e->d_name, nlen + 1);
        /* the directory entry's type when it has one: no stat per file */
        bool is_dir = e->d_type == DT_DIR;
        if (e->d_type == DT_UNKNOWN || e->d_type == DT_LNK) {
            struct stat st;
            is_dir = stat(p, &st) == 0 && S_ISDIR(st.st_mode);
        }
        if (is_dir) {
            if (!holds_config(p)) /* another project: its tests are its own */
                walk_dir(p, out, depth + 1, &here);
            free(p);
        } else if (is_test_file(e->d_name)) {
            pl_add(out, p);
        } else {
            free(p);
        }
    }
    closedir(d);
}

/* "./x" -> "x" so reports show the paths people type; in place. */
static char *tidy(char *p)
{
    size_t skip = 0;
    while (p[skip] == '.' && p[skip + 1] == '/')
        skip += 2;
    if (skip)
        memmove(p, p + skip, strlen(p + skip) + 1);
    return p;
}

static int discover(const struct an_load_opts *opts, const char *root, struct pathlist *files,
                    struct an_errlist *errs)
{
    int rc = 0;
    struct an_err e = AN_ERR_INIT;
    size_t n = opts->npaths ? opts->npaths : opts->nmem ? 0 : 1;
    for (size_t i = 0; i < n; i++) {
        const char *p = opts->npaths ? opts->paths[i] : root;
        struct stat st;
        if (stat(p, &st) != 0) {
            struct an_loc loc = {p, 0, 0};
            rc = an_fail(&e, AN_EUSAGE, &loc, "no such file or directory");
            an_errlist_add(errs, &e);
            continue;
        }
        if (S_ISDIR(st.st_mode)) {
            struct pathlist found = {0};
            char *d = an_xstrdup(p);
            for (size_t k = strlen(d); k > 1 && d[k - 1] == '/'; k--)
                d[k - 1] = '\0'; /* "suite/" lists "suite/x.test.yaml", not "suite//x" */
            walk_dir(d, &found, 0, NULL);
            free(d);
            if (found.n)
                qsort(found.v, found.n, sizeof *found.v, cmp_str);
            for (size_t k = 0; k < found.n; k++)
                pl_add(files, tidy(found.v[k]));
            free(found.v);
        } else {
            pl_add(files, tidy(an_xstrdup(p)));
        }
    }
    /* the same file named twice runs once, where it was first named;
     * found by sorting, not by comparing every pair (10000 files). One
     * path names each file once: a walk meets each name once. */
    if (n < 2)
        return rc;
    struct named *byname = an_xcalloc(files->n ? files->n : 1, sizeof *byname);
    bool *dup = an_xcalloc(files->n ? files->n : 1, sizeof *dup);
    for (size_t i = 0; i < files->n; i++)
        byname[i] = (struct named){files->v[i], i};
    qsort(byname, files->n, sizeof *byname, cmp_named);
    for (size_t i = 1; i < files->n; i++)
        if (!strcmp(byname[i].path, byname[i - 1].path))
            dup[byname[i].at] = true;
    size_t w = 0;
    for (size_t i = 0; i < files->n; i++) {
        if (dup[i])
            free(files->v[i]);
        else
            files->v[w++] = files->v[i];
    }
    files->n = w;
    free(byname);
    free(dup);
    return rc;
}

/* What a turn of each type needs when the target's row does not take it. */
static const char *const turn_needs[] = {
    [AN_TURN_USER] = "a user turn needs another target type",
    [AN_TURN_AGUI_CONNECT] = "an agui:connect turn needs an agui target",
    [AN_TURN_MCP_CALL] = "an MCP turn needs an mcp target",
    [AN_TURN_MCP_LIST] = "an MCP turn needs an mcp target",
    [AN_TURN_MCP_READ] = "an MCP turn needs an mcp target",
    [AN_TURN_MCP_PROMPT] = "an MCP turn needs an mcp target",
    [AN_TURN_A2A_SEND] = "an a2a:send turn needs an a2a target",
};

/* Turn types belong to protocols: an agui:connect turn means nothing to an
 * ACP agent. Said at load time, with the turn's location; then what else
 * the target's row asks of a test. A dynamic test's one turn is its
 * simulated user's first message: whether the type takes a simulated user
 * at all is said first. */
static int check_turns_fit(const struct an_target *t, const struct an_test *test,
                           struct an_err *err)
{
    const struct an_target_type *row = t->type;
    int rc;
    if (test->dyn && row->check_test && (rc = row->check_test(t, test, err)))
        return rc;
    for (size_t i = 0; i < test->nturns; i++) {
        enum an_turn_type ty = test->turns[i].type;
        if (row->turns & AN_TURN_BIT(ty))
            continue;
        if (ty == AN_TURN_USER && row->user_refused)
            return an_fail(err, AN_ESCHEMA, &test->turns[i].loc, "%s", row->user_refused);
        return an_fail(err, AN_ESCHEMA, &test->turns[i].loc, "%s (the config's target is %s)",
                       turn_needs[ty], row->name);
    }
    return row->check_test && !test->dyn ? row->check_test(t, test, err) : 0;
}

/* Agent checks name agents of the config: resolved once all is loaded. */
static int resolve_agents(const struct an_config *cfg, struct an_test *test, const char *simulator,
                          struct an_err *err)
{
    /* the checks are the kept block's own array: resolved in place */
    struct an_assert blk;
    an_assert_expand(test->assert, &blk);
    int rc = an_checks_resolve_agents(cfg, &blk, err);
    for (size_t i = 0; i < test->nturns && !rc; i++) {
        an_assert_expand(test->turns[i].assert, &blk);
        rc = an_checks_resolve_agents(cfg, &blk, err);
    }
    if (!rc && test->dyn)
        rc = an_dynamic_resolve(cfg, test->dyn, simulator, err);
    return rc;
}

/* -n NAME and --connector MODEL: which agent is tested, with which model. */
static int pick_target(struct an_ld *ld, const struct an_load_opts *opts, struct an_config *c)
{
    struct an_loc at = {c->path, 0, 0};
    if (opts->target_name) {
        const struct an_agent *a = NULL;
        const char **names = an_xcalloc(c->nagents + 1, sizeof *names);
        for (size_t i = 0; i < c->nagents; i++) {
            names[i] = c->agents[i].name;
            if (!strcmp(names[i], opts->target_name))
                a = &c->agents[i];
        }
        const char *near = a ? NULL : an_closest(opts->target_name, names);
        free(names);
        if (!a)
            return an_fail(ld->err, AN_EUSAGE, &at,
                           "-n %s: no agent of that name in the config's 'agents:'%s%s%s",
                           opts->target_name, near ? " (did you mean '" : "", near ? near : "",
                           near ? "'?)" : "");
        c->target = a->target;
    }
    if (opts->model) {
        const struct an_target_type *row = c->target.type;
        int rc = row->set ? row->set(ld, &c->target, "model", opts->model, &at) : AN_ENOTFOUND;
        if (rc == AN_ENOTFOUND)
            return an_fail(ld->err, AN_EUSAGE, &at,
                           "--connector sets the model of an openai target; the target is %s",
                           row->name);
        return rc;
    }
    return 0;
}

/* One loader's share of the test files: items [from, to) of the files
 * found plus the in-memory ones. The whole suite on the calling thread, or
 * one part of it on a thread of its own (its own arena, regex map and
 * errors, joined in order afterwards: the result is the same either way). */
struct part {
    const struct an_suite *s; /* the config: read only */
    const struct an_load_opts *opts;
    const struct pathlist *files;
    size_t from, to;
    struct an_ld ld;
    struct an_err e;
    struct an_strmap regexes;
    struct an_arena scratch;
    struct an_arena *own;  /* a thread's arena; NULL: the suite's */
    struct an_test *tests; /* its slice of the suite's array, until it outgrows it */
    size_t ntests, cap;
    bool in_place;
    struct an_errlist errs;
    struct an_errlist env; /* check_env: unset variables used */
    bool config_bad;       /* the config had errors: tests are read, not fitted to it */
    int first;
};

static void part_fail(struct part *p, int rc)
{
    an_errlist_add(&p->errs, &p->e);
    if (!p->first)
        p->first = rc;
}

/* Room for n more tests in the part's array. */
static void part_room(struct part *p, size_t n)
{
    if (p->ntests + n <= p->cap)
        return;
    size_t ncap = (p->ntests + n) * 2;
    p->tests = an_arena_grow(p->ld.a, p->tests, p->ntests, ncap, sizeof *p->tests);
    p->cap = ncap;
    p->in_place = false;
}

/* What a loaded test must also fit: the target's protocol, the http
 * contract, and the agents its checks name. */
static int fits(struct part *p, struct an_test *t)
{
    const struct an_config *c = &p->s->config;
    int rc = check_turns_fit(&c->target, t, &p->e);
    if (!rc)
        rc = resolve_agents(c, t, p->opts->simulator, &p->e);
    return rc;
}

static void load_item(struct part *p, size_t i)
{
    const struct an_load_opts *opts = p->opts;
    const struct pathlist *files = p->files;
    const struct an_mem_file *mem = i >= files->n ? &opts->mem[i - files->n] : NULL;
    const char *path = i < files->n ? files->v[i] : NULL;
    bool cases_json = path && is_cases_json(path);
    memset(&p->e, 0, sizeof p->e);
    if (mem || (path && ends_with(path, ".jsonl")) || cases_json) {
        struct an_test *cases;
        size_t ncases;
        int rc = mem ? an_jsonl_load_mem(&p->ld, mem->name, mem->text, mem->len, &p->errs, &cases,
                                         &ncases)
                 : cases_json ? an_cases_json_load(&p->ld, path, &p->errs, &cases, &ncases)
                              : an_jsonl_load(&p->ld, path, &p->errs, &cases, &ncases);
        an_arena_release(&p->scratch);
        if (rc && !p->first)
            p->first = rc;
        for (size_t k = 0; k < ncases && !p->config_bad; k++) {
            memset(&p->e, 0, sizeof p->e);
            int r2 = fits(p, &cases[k]);
            if (r2)
                part_fail(p, r2);
        }
        part_room(p, ncases);
        if (ncases)
            memcpy(p->tests + p->ntests, cases, ncases * sizeof *cases);
        p->ntests += ncases;
        return;
    }
    part_room(p, 1);
    struct an_assert_lib lib = {p->s->config.assertions, p->s->config.nassertions};
    struct an_errlist mine = {0}; /* every error of this file */
    p->ld.errs = &mine;
    int rc = path ? an_test_load(&p->ld, path, &lib, &p->tests[p->ntests]) : AN_OK;
    an_arena_release(&p->scratch); /* the tree: the model kept only strings */
    if (!rc && !mine.n && !p->config_bad)
        rc = fits(p, &p->tests[p->ntests]);
    rc = file_errors(&p->ld, &mine, rc, path, &p->errs);
    if (rc) {
        if (!p->first)
            p->first = rc;
    } else {
        p->ntests++;
    }
}

static void *load_part(void *arg)
{
    struct part *p = arg;
    if (p->opts->check_env)
        an_interp_watch_env(on_env, &p->env);
    for (size_t i = p->from; i < p->to; i++)
        load_item(p, i);
    an_interp_watch_env(NULL, NULL);
    an_arena_release(&p->scratch);
    return NULL;
}

static void part_arena_free(void *a)
{
    an_arena_release(a);
    free(a);
}

/* Below this many files one thread loads them all: a thread costs about
 * what two small files do. */
#define PAR_MIN_FILES 64
#define PAR_MAX_THREADS 8

static size_t loader_threads(size_t n, unsigned asked)
{
    if (asked)
        return asked < n ? asked : n ? n : 1;
    if (n < PAR_MIN_FILES)
        return 1;
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    size_t t = cpus > 1 ? (size_t)cpus : 1;
    if (t > PAR_MAX_THREADS)
        t = PAR_MAX_THREADS;
    if (t > n / (PAR_MIN_FILES / 2))
        t = n / (PAR_MIN_FILES / 2);
    return t ? t : 1;
}

/* Load every test file, on as many threads as there are cores for a large
 * suite. Tests and errors come out in file order whatever the threads did;
 * returns the first error's code. */
static int load_tests(struct an_suite *s, struct an_ld *ld, const struct an_load_opts *opts,
                      const struct pathlist *files, struct an_errlist *errs, struct an_errlist *env,
                      bool config_bad)
{
    size_t total = files->n + opts->nmem, nt = loader_threads(total, opts->threads);
    struct part *parts = an_xcalloc(nt, sizeof *parts);
    pthread_t *tid = an_xcalloc(nt, sizeof *tid);
    bool *started = an_xcalloc(nt, sizeof *started);
    /* a slot per file, each part writing its own slice (a YAML file is one
     * test): no copy at the end unless a JSONL file outgrew its slice */
    s->tests = an_arena_alloc(ld->a, (total ? total : 1) * sizeof *s->tests);
    for (size_t k = 0; k < nt; k++) {
        struct part *p = &parts[k];
        p->s = s;
        p->opts = opts;
        p->files = files;
        p->from = total * k / nt;
        p->to = total * (k + 1) / nt;
        p->tests = s->tests + p->from;
        p->cap = p->to - p->from;
        p->in_place = true;
        p->config_bad = config_bad;
        if (k) {
            p->own = an_xcalloc(1, sizeof *p->own);
            an_arena_defer(ld->a, part_arena_free, p->own);
        }
        p->ld = (struct an_ld){.a = p->own ? p->own : ld->a,
                               .err = &p->e,
                               .regexes = &p->regexes,
                               .scratch = &p->scratch};
        an_strmap_init(&p->regexes, p->ld.a);
        if (k == 0)
            p->ld.regexes = ld->regexes; /* the config's patterns are there */
    }
    for (size_t k = 1; k < nt; k++)
        /* a stack as the main thread's; started on another CPU than this
         * one, which loads the first part (core/port.h) */
        started[k] = an_port_thread_start(&tid[k], (size_t)8 << 20, load_part, &parts[k]) == 0;
    load_part(&parts[0]);
    for (size_t k = 1; k < nt; k++) {
        if (started[k])
            pthread_join(tid[k], NULL);
        else
            load_part(&parts[k]); /* no thread: here, in order all the same */
    }

    int first = 0;
    size_t n = 0;
    bool in_place = true;
    for (size_t k = 0; k < nt; k++) {
        n += parts[k].ntests;
        in_place = in_place && parts[k].in_place;
    }
    if (!in_place)
        s->tests = an_arena_alloc(ld->a, (n ? n : 1) * sizeof *s->tests);
    for (size_t k = 0; k < nt; k++) {
        struct part *p = &parts[k];
        /* in place, a part's tests move down over the slots of files that
         * gave none (errors, empty JSONL): never past where they are */
        if (p->ntests && s->tests + s->ntests != p->tests)
            memmove(s->tests + s->ntests, p->tests, p->ntests * sizeof *p->tests);
        s->ntests += p->ntests;
        for (size_t i = 0; i < p->errs.n; i++)
            an_errlist_add(errs, &p->errs.v[i]);
        an_errlist_release(&p->errs);
        for (size_t i = 0; i < p->env.n; i++)
            env_add(env, &p->env.v[i]);
        an_errlist_release(&p->env);
        if (p->first && !first)
            first = p->first;
    }
    free(started);
    free(tid);
    free(parts);
    return first;
}

int an_suite_load(struct an_suite **out, const struct an_load_opts *opts, struct an_errlist *errs)
{
    struct an_err e = AN_ERR_INIT;
    struct an_suite *s = an_xcalloc(1, sizeof *s);
    s->mem = an_xcalloc(1, sizeof *s->mem);
    struct an_strmap regexes;
    an_strmap_init(&regexes, &s->mem->a);
    struct an_arena scratch = AN_ARENA_INIT;
    struct an_ld ld = {.a = &s->mem->a, .err = &e, .regexes = &regexes, .scratch = &scratch};
    struct pathlist files = {0};
    char *found = NULL;
    int first = 0;
    size_t nerrs0 = errs->n;
    struct an_errlist env = {0};
    *out = NULL;

    const char *cfg = opts->config_path;
    if (!cfg) {
        if ((first = an_config_find(".", &found, &e))) {
            an_errlist_add(errs, &e);
            goto done;
        }
        cfg = found;
    }
    struct an_errlist mine = {0};
    ld.errs = &mine;
    if (opts->check_env)
        an_interp_watch_env(on_env, &env);
    int hard = an_config_load(&ld, cfg, &s->config);
    an_interp_watch_env(NULL, NULL);
    an_arena_release(&scratch);
    /* a config that could be read past its mistakes still has its tests
     * read, so one run shows every mistake of every file; they are not
     * fitted to a target or agents that may be half read */
    bool config_bad = (first = file_errors(&ld, &mine, hard, cfg, errs)) != 0;
    if (config_bad && (hard || opts->config_only))
        goto done;
    if (!config_bad) { /* -n, --connector and agent checks: against a config read whole */
        if (!(first = pick_target(&ld, opts, &s->config)) &&
            !(first = an_checks_resolve_agents(&s->config, &s->config.target.assert, &e)))
            for (size_t i = 0; i < s->config.nassertions && !first; i++)
                first = an_checks_resolve_agents(&s->config, &s->config.assertions[i].block, &e);
        if (first) {
            an_errlist_add(errs, &e);
            goto done;
        }
    }
    if (opts->config_only)
        goto done;
    int rc = discover(opts, s->config.dir, &files, errs);
    if (rc && !first)
        first = rc;
    rc = load_tests(s, &ld, opts, &files, errs, &env, config_bad);
    if (rc && !first)
        first = rc;
done:
    if (env.n && !first) /* (with other errors too: they are all said) */
        first = AN_ESCHEMA;
    for (size_t i = 0; i < env.n; i++)
        an_errlist_add(errs, &env.v[i]);
    an_errlist_release(&env);
    errlist_sort(errs, nerrs0);
    an_arena_release(&scratch);
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    free(found);
    if (first) {
        an_suite_free(s);
        return first;
    }
    *out = s;
    return 0;
}
