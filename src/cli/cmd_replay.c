/* ananke replay: the tests as they are now, judged on a recording. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/replay.h"
#include "ananke/report.h"
#include "cli.h"

static void usage(void)
{
    puts("usage: ananke replay DIR [options] [PATH...]\n"
         "\n"
         "Judges the tests in PATH (default: as 'ananke run' finds them) on the run\n"
         "recorded in DIR by 'ananke run --record DIR', contacting no agent: assertions\n"
         "and script checks run again on the recorded transcripts; judges (agent checks)\n"
         "take the verdict recorded for the same check and turn.\n"
         "\n"
         "options:\n"
         "  -c, --config FILE        project config (default: ananke.config.yaml, found\n"
         "                           walking up from the current directory)\n"
         "  -r, --reporter NAME[:PATH]\n"
         "                           also write a report, as for 'ananke run'\n"
         "  -o, --output FILE        also write a report to FILE, its format from the\n"
         "                           extension, as for 'ananke run'\n"
         "  -v, --verbose            show every turn: message, tool calls, text, timings\n"
         "      --expected-failures FILE\n"
         "                           tests known to fail, as for 'ananke run'\n"
         "      --redact REGEX       also redact every match of REGEX in every output\n"
         "                           (repeatable), as for 'ananke run'\n"
         "      --history FILE       append the replay to the history database FILE\n"
         "                           (default: .ananke/history.sqlite in the project)\n"
         "      --no-history         keep this replay out of the history\n"
         "      --color WHEN         auto (default), always, never\n"
         "  -h, --help               this help\n"
         "\n"
         "exit: 0 every test passed, 1 a test failed or errored (a test with no\n"
         "recording is an error), 2 invalid invocation, config or test file, or DIR is\n"
         "not a recording.");
}

struct replay_ctx {
    struct an_console_opts console;
    struct cli_history hist;
};

static void on_test(const struct an_test_result *t, void *ud)
{
    struct replay_ctx *c = ud;
    cli_history_note(&c->hist, t);
    an_console_test(stdout, t, &c->console);
}

static void on_warning(const char *msg, void *ud)
{
    (void)ud;
    fflush(stdout);
    fprintf(stderr, "ananke: warning: %s\n", msg);
}

/* The summary, the reports; the exit code of the verdicts. */
static int replay_report(const struct cli_reporters *reps, const struct an_run_result *result,
                         const struct an_console_opts *console)
{
    int rc = AN_EXIT_OK;
    an_console_summary(stdout, result, console);
    const char *gha = getenv("GITHUB_ACTIONS");
    if (gha && !strcmp(gha, "true"))
        an_report_github(stdout, result);
    fflush(stdout);
    if (cli_reporters_write(reps, result))
        rc = AN_EXIT_FAIL;
    struct an_counts n = an_run_result_counts(result);
    if (an_counts_failing(&n))
        rc = AN_EXIT_FAIL;
    return rc;
}

/* The line that says what is replayed, on what; a warning when the
 * recording's run was cut short. */
static void replay_header(const struct an_suite *suite, const struct an_recording *recording)
{
    const struct an_recording_info *ri = an_recording_info(recording);
    printf("ananke: replaying %zu test%s on the recording %s (%s %s, %s)\n\n", suite->ntests,
           suite->ntests == 1 ? "" : "s", ri->dir, ri->target_type ? ri->target_type : "?",
           ri->endpoint ? ri->endpoint : "?", ri->started_at ? ri->started_at : "?");
    if (!ri->complete)
        on_warning("the recording is incomplete (its run was interrupted): tests it did not "
                   "reach have no recording",
                   NULL);
}

int cmd_replay(int argc, char **argv)
{
    const char *config = NULL, *color = "auto", *val = NULL, *dir = NULL, *history = NULL;
    bool no_history = false;
    struct replay_ctx ctx = {0};
    char **paths = an_xcalloc((size_t)argc + 1, sizeof *paths);
    const char **redact = an_xcalloc((size_t)argc + 1, sizeof *redact);
    size_t nredact = 0;
    int npaths = 0, verbose = 0, rc = AN_EXIT_OK;
    struct cli_reporters reps = {0};
    struct an_suite *suite = NULL;
    struct an_recording *recording = NULL;
    struct an_run_result result = {0};
    struct an_err err = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    struct an_expected expected = {0};
    bool has_expected = false;

    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (cli_opt_help(a)) {
            usage();
            goto done;
        } else if (cli_opt_verbose(a, true, &verbose)) {
            continue;
        } else if (cli_opt("replay", argc, argv, &i, "--config", "-c", &val, &rc)) {
            config = val;
        } else if (cli_opt("replay", argc, argv, &i, "--expected-failures", NULL, &val, &rc)) {
            an_expected_release(&expected);
            rc = val ? cli_expected_load(val, &expected) : rc;
            has_expected = true;
        } else if (cli_opt("replay", argc, argv, &i, "--redact", NULL, &val, &rc)) {
            if (val)
                redact[nredact++] = val;
        } else if (!strcmp(a, "--no-history")) {
            no_history = true;
        } else if (cli_opt("replay", argc, argv, &i, "--history", NULL, &val, &rc)) {
            history = val;
        } else if (cli_opt("replay", argc, argv, &i, "--color", NULL, &val, &rc)) {
            color = val;
        } else if (cli_opt("replay", argc, argv, &i, "--reporter", "-r", &val, &rc)) {
            if (val)
                rc = cli_reporter_add(&reps, val);
        } else if (cli_opt("replay", argc, argv, &i, "--output", "-o", &val, &rc)) {
            if (val)
                rc = cli_reporter_output(&reps, val);
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_option("replay", a, usage);
        } else if (!dir) {
            dir = a;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (rc)
        goto done;
    if (!dir) {
        rc = cli_usage_error("replay needs the recording's directory: ananke replay DIR "
                             "[PATH...] (see 'ananke replay --help')");
        goto done;
    }
    if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
        rc = cli_usage_error("--color takes auto, always or never, not '%s'", color);
        goto done;
    }
    if (an_recording_open(&recording, dir, &err)) {
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_INVALID;
        goto done;
    }
    if ((rc = cli_load(&suite, config, paths, npaths)))
        goto done;

    ctx.console = (struct an_console_opts)AN_CONSOLE_OPTS_INIT;
    struct an_console_opts *console = &ctx.console;
    const char *nc = getenv("NO_COLOR");
    console->color = !strcmp(color, "always") ||
                     (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(nc && *nc));
    console->verbose = verbose;
    cli_history_start(&ctx.hist, history, no_history);

    replay_header(suite, recording);

    struct an_replay_opts ro = AN_REPLAY_OPTS_INIT;
    ro.whole_suite = npaths == 0;
    ro.expected = has_expected ? &expected : NULL;
    ro.redact = redact;
    ro.nredact = nredact;
    ro.on_test = on_test;
    ro.on_warning = on_warning;
    ro.ud = &ctx;
    if (an_replay_suite(suite, recording, &ro, &result, &err)) {
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = err.code == AN_EREGEX ? AN_EXIT_INVALID : AN_EXIT_FAIL;
        goto done;
    }
    rc = replay_report(&reps, &result, console);
    if (has_expected)
        cli_expected_unused(&expected);
    if (result.ntests) {
        struct cli_history_run hr = {.kind = "replay",
                                     .argc = argc,
                                     .argv = argv,
                                     .project_dir = suite->config.dir,
                                     .suite = suite,
                                     .redact = redact,
                                     .nredact = nredact,
                                     .recording = dir};
        cli_history_finish(&ctx.hist, &hr, &result);
    }

done:
    cli_history_release(&ctx.hist);
    an_expected_release(&expected);
    an_run_result_release(&result);
    an_recording_free(recording);
    an_suite_free(suite);
    free(paths);
    free(redact);
    return rc;
}
