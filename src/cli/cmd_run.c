/* ananke run: load, run, report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/report.h"
#include "ananke/run.h"
#include "cli.h"

#define MAX_REPORTERS 16

struct reporter {
    const char *name;
    const char *path;
};

struct run_ctx {
    struct an_console_opts console;
};

static void on_test(const struct an_test_result *t, void *ud)
{
    struct run_ctx *c = ud;
    an_console_test(stdout, t, &c->console);
    fflush(stdout);
}

static void usage(void)
{
    puts("usage: ananke run [options] [PATH...]\n"
         "\n"
         "Runs the tests in PATH (files, or directories searched for *.test.yaml and\n"
         "*.test.yml; default: the config's directory) against the config's target.\n"
         "\n"
         "options:\n"
         "  -c, --config FILE        project config (default: ananke.config.yaml, found\n"
         "                           walking up from the current directory)\n"
         "  -r, --reporter NAME[:PATH]\n"
         "                           also write a report: junit:PATH, json:PATH (PATH '-'\n"
         "                           = stdout); repeatable\n"
         "  -v, --verbose            show every turn: message, tool calls, text, timings\n"
         "      --dry-run            load and check everything, contact nothing\n"
         "      --color WHEN         auto (default: on a terminal, unless NO_COLOR is set),\n"
         "                           always, never\n"
         "  -h, --help               this help\n"
         "\n"
         "exit: 0 every test passed, 1 a test failed or errored, 2 invalid invocation,\n"
         "config or test file, or no test found.");
}

int cmd_run(int argc, char **argv)
{
    const char *config = NULL, *color = "auto";
    char **paths = an_xcalloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0, verbose = 0, rc = AN_EXIT_OK;
    bool dry = false;
    struct reporter reps[MAX_REPORTERS];
    size_t nreps = 0;
    struct an_suite *suite = NULL;
    struct an_run_result result = {0};

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *val = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            goto done;
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose++;
        } else if (!strcmp(a, "-vv")) {
            verbose += 2;
        } else if (!strcmp(a, "--dry-run") || !strcmp(a, "-n")) {
            dry = true;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--config")) {
            if (++i >= argc) {
                rc = cli_usage_error("%s needs a FILE", a);
                goto done;
            }
            config = argv[i];
        } else if (!strncmp(a, "--config=", 9)) {
            config = a + 9;
        } else if (!strcmp(a, "--color")) {
            if (++i >= argc) {
                rc = cli_usage_error("--color needs auto, always or never");
                goto done;
            }
            color = argv[i];
        } else if (!strncmp(a, "--color=", 8)) {
            color = a + 8;
        } else if (!strcmp(a, "-r") || !strcmp(a, "--reporter") ||
                   !strncmp(a, "--reporter=", 11)) {
            if (a[10] == '=') {
                val = a + 11;
            } else {
                if (++i >= argc) {
                    rc = cli_usage_error("%s needs NAME[:PATH]", a);
                    goto done;
                }
                val = argv[i];
            }
            if (nreps == MAX_REPORTERS) {
                rc = cli_usage_error("at most %d reporters", MAX_REPORTERS);
                goto done;
            }
            const char *colon = strchr(val, ':');
            size_t n = colon ? (size_t)(colon - val) : strlen(val);
            if (!((n == 5 && !strncmp(val, "junit", 5)) || (n == 4 && !strncmp(val, "json", 4)) ||
                  (n == 7 && !strncmp(val, "console", 7)))) {
                rc = cli_usage_error("unknown reporter '%.*s' (available: console, junit, json)",
                                     (int)n, val);
                goto done;
            }
            reps[nreps].name = n == 5 ? "junit" : n == 4 ? "json" : "console";
            reps[nreps].path = colon ? colon + 1 : "-";
            nreps++;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_usage_error("unknown option '%s' for run (see 'ananke run --help')", a);
            goto done;
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
        rc = cli_usage_error("--color takes auto, always or never, not '%s'", color);
        goto done;
    }

    if ((rc = cli_load(&suite, config, paths, npaths)))
        goto done;
    if (dry) {
        printf("dry run: %zu test%s would run against %s\n", suite->ntests,
               suite->ntests == 1 ? "" : "s", suite->config.target.endpoint.src);
        for (size_t i = 0; i < suite->ntests; i++)
            printf("  %s  (%s, %zu turn%s)\n", suite->tests[i].name, suite->tests[i].file,
                   suite->tests[i].nturns, suite->tests[i].nturns == 1 ? "" : "s");
        goto done;
    }

    struct run_ctx ctx = {.console = AN_CONSOLE_OPTS_INIT};
    const char *nc = getenv("NO_COLOR");
    ctx.console.color = !strcmp(color, "always") ||
                        (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(nc && *nc));
    ctx.console.verbose = verbose;
    struct an_run_opts ro = AN_RUN_OPTS_INIT;
    ro.on_test = on_test;
    ro.ud = &ctx;
    struct an_err err = AN_ERR_INIT;
    if (an_run_suite(suite, &ro, &result, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
        goto done;
    }
    an_console_summary(stdout, &result, &ctx.console);
    fflush(stdout);
    for (size_t i = 0; i < nreps; i++) {
        int wrc = AN_OK;
        if (!strcmp(reps[i].name, "junit"))
            wrc = an_report_junit(&result, reps[i].path, &err);
        else if (!strcmp(reps[i].name, "json"))
            wrc = an_report_json(&result, reps[i].path, &err);
        if (wrc) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: cannot write %s report: %s\n", reps[i].name,
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    size_t pass, fail, error;
    an_run_result_counts(&result, &pass, &fail, &error);
    if (fail || error)
        rc = AN_EXIT_FAIL;

done:
    an_run_result_release(&result);
    an_suite_free(suite);
    free(paths);
    return rc;
}
