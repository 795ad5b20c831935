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
    const char *history; /* --history FILE */
    bool no_history;     /* --no-history */
    char **paths;        /* PATH arguments (PATH:LINE's PATH owned by sel) */
    int npaths, verbose;
    bool dry, list_reporters;
    bool fail_on_flaky;       /* --fail-on-flaky */
    double min_tool_coverage; /* --min-tool-coverage; -1: not given */
    struct cli_reporters reps;
    struct an_run_opts ro;
    struct an_regex *filter;
    struct cli_inputs inputs;
    const char **redact;
    size_t nredact;
    struct an_expected expected;
    struct cli_select sel;
};

/* Parse argv into a (initialised here) and check the values that go
 * together. *helped: --help was printed. 0 or an exit code; a is released
 * with run_args_release() either way. */
int run_args_parse(struct run_args *a, int argc, char **argv, bool *helped);
void run_args_release(struct run_args *a);

#endif
