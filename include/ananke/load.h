/*
 * Loading: project config + test files -> struct an_suite (ananke/model.h).
 *
 * Loading contacts nothing and runs nothing. Every problem is reported with
 * file:line:col; a misspelt key names the closest valid one. Loading does
 * not stop at the first bad test file, nor at the first mistake of a file:
 * every file is read and every error the loaders can read past collected
 * (at most 100 a file, then one "and N more"), sorted by file,
 * line and column, so one run shows them all.
 */
#ifndef ANANKE_LOAD_H
#define ANANKE_LOAD_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "ananke/model.h"

struct an_errlist {
    struct an_err *v;
    size_t n, cap;
};
void an_errlist_add(struct an_errlist *l, const struct an_err *e);
void an_errlist_release(struct an_errlist *l);

/* JSONL cases that are not in a file (`-i "message"`, a generator's or a
 * script's output), loaded as if read from a file called `name`. */
struct an_mem_file {
    const char *name;
    const char *text;
    size_t len;
};

struct an_load_opts {
    const char *config_path;  /* -c FILE; NULL: find ananke.config.yaml upwards from cwd */
    const char *const *paths; /* files or directories; none (and no mem): the config's directory */
    size_t npaths;
    const struct an_mem_file *mem;
    size_t nmem;
    bool config_only;        /* load the config, no test */
    const char *target_name; /* -n NAME: test the agent `agents.NAME` instead of `target` */
    const char *model;       /* --connector MODEL: an openai target's model */
    const char *simulator;   /* --simulator NAME: dynamic tests' default simulator agent */
    unsigned threads;        /* loaders at once; 0: one per core for 64 files or more */
    bool check_env;          /* an unset ${ENV.NAME} the config or a test uses is an error
                                (validate, --dry-run); one per variable, where first used */
};
/* clang-format off */
#define AN_LOAD_OPTS_INIT {0}
/* clang-format on */

/* Find `ananke.config.yaml` in `start_dir` or its parents. *out is malloc'd. */
int an_config_find(const char *start_dir, char **out, struct an_err *err);

/* Load the config and every test. On success *out owns everything (free
 * with an_suite_free). On failure returns the first error's code, *out is
 * NULL, and every error found is in *errs (caller releases). A suite with
 * no test is not an error here (the CLI decides). */
int an_suite_load(struct an_suite **out, const struct an_load_opts *opts, struct an_errlist *errs);

/* --expected-failures FILE (docs/cli.md): a YAML list of test names, each
 * `name` or `name: reason`, or a map name -> reason. An empty file is an
 * empty list. On success *out owns everything (an_expected_release). */
struct an_expected;
int an_expected_load(const char *path, struct an_expected *out, struct an_err *err);

#endif
