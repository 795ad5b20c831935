/* ananke run's command line, parsed (src/cli/run_opts.c) for the run
 * itself (src/cli/cmd_run.c). */
#ifndef ANANKE_CLI_CMD_RUN_H
#define ANANKE_CLI_CMD_RUN_H

#include "ananke/regex.h"
#include "ananke/run.h"
#include "cli.h"

/* Every value of the command line; strings are borrowed from argv. */
struct run_args {
    const char *config, *color, *shard, *protocol;
    const char *target_name, *model, *simulator; /* -n, --connector, --simulator */
    const char *record_dir, *filter_src;
    const char *replay_tools, *replay_miss;
    const char *history; /* --history FILE */
    bool no_history;     /* --no-history */
    const char *otlp;    /* --otlp ENDPOINT */
    char **paths;        /* PATH arguments (PATH:LINE's PATH owned by sel) */
    int npaths, verbose;
    bool dry, list_reporters;
    bool fail_on_flaky;       /* --fail-on-flaky */
    double min_tool_coverage; /* --min-tool-coverage; -1: not given */
    bool watch;               /* --watch (cmd_watch.c) */
    struct cli_reporters reps;
    struct an_run_opts ro;
    struct an_regex *filter;
    struct cli_inputs inputs;
    const char **redact;
    size_t nredact;
    struct an_expected expected;
    struct cli_select sel;
};

/* One pass of `ananke run` (load, select, run, report, history) for watch
 * mode; NULL: a plain run. */
struct run_pass {
    /* which loaded tests may run, on top of the command line's selection;
     * NULL: all */
    bool (*choose)(const struct an_test *t, void *ud);
    /* each test that ran, with its result, once the run is over */
    void (*ran)(const struct an_test *t, const struct an_test_result *r, void *ud);
    void *ud;
    bool nothing;           /* out: loaded, but `choose` left no test */
    struct an_suite *suite; /* out: the suite loaded (the caller frees); NULL: none */
};

/* Load, run and report once; the run's exit code (AN_EXIT_*). */
int run_once(struct run_args *a, int argc, char **argv, struct run_pass *p);

/* ananke run --watch (cmd_watch.c): runs, then reruns on changes and keys
 * until q or a signal; the last run's exit code. */
int cmd_watch(struct run_args *a, int argc, char **argv);

/* Parse argv into a (initialised here) and check the values that go
 * together. *helped: --help was printed. 0 or an exit code; a is released
 * with run_args_release() either way. */
int run_args_parse(struct run_args *a, int argc, char **argv, bool *helped);
void run_args_release(struct run_args *a);

#endif
