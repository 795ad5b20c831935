/* ananke merge: join the JSON results of shards into one result set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/report.h"
#include "cli.h"
#include "ananke/redact.h"

static int by_file_then_name(const void *a, const void *b)
{
    const struct an_test_result *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    return c ? c : strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

static void usage(void)
{
    puts("usage: ananke merge [-r NAME[:PATH]]... [-v] [--redact REGEX]...\n"
         "                    [--allow-inconclusive] RESULT.json...\n\n"
         "Joins the JSON results of several runs (the shards of one suite,\n"
         "written with --reporter json:PATH) into one result set, prints it as\n"
         "the console does, and writes any other report from it. Tests are\n"
         "ordered by file and name, as one unsharded run would list them.\n"
         "--redact REGEX (repeatable) also redacts every match of REGEX in\n"
         "every output (the results of 'ananke run' are redacted already).\n"
         "--allow-inconclusive: an INCONCLUSIVE test (--repeat auto) does\n"
         "not fail the merge, as for 'ananke run'.\n"
         "exit: 0 every test passed, 1 a test failed, errored or was\n"
         "inconclusive (or was flaky, when the runs were made with\n"
         "--fail-on-flaky), 2 a file is missing or is not an ananke JSON report.");
}

int cmd_merge(int argc, char **argv)
{
    struct cli_reporters reps = {0};
    struct an_run_result res = {0};
    const char *color = "auto";
    int rc = 0, nfiles = 0, verbose = 0;
    bool allow_inconclusive = false;
    struct an_redactor *red = an_redactor_new();
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            goto done;
        } else if ((!strcmp(a, "-r") || !strcmp(a, "--reporter")) && i + 1 < argc) {
            rc = cli_reporter_add(&reps, argv[++i]);
        } else if (!strncmp(a, "--reporter=", 11)) {
            rc = cli_reporter_add(&reps, a + 11);
        } else if (!strcmp(a, "--redact") && i + 1 < argc) {
            struct an_err err = AN_ERR_INIT;
            if (an_redactor_add_regex(red, argv[++i], &err))
                rc = cli_usage_error("%s", err.msg);
        } else if (!strncmp(a, "--redact=", 9)) {
            struct an_err err = AN_ERR_INIT;
            if (an_redactor_add_regex(red, a + 9, &err))
                rc = cli_usage_error("%s", err.msg);
        } else if (!strcmp(a, "-v") || !strcmp(a, "--verbose")) {
            verbose++;
        } else if (!strcmp(a, "--allow-inconclusive")) {
            allow_inconclusive = true;
        } else if (!strncmp(a, "--color=", 8)) {
            color = a + 8;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_option("merge", a, usage);
        } else {
            struct an_err err = AN_ERR_INIT;
            if (an_run_result_load(&res, a, &err)) {
                char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
                fprintf(stderr, "%s\n", an_err_format(&err, buf, sizeof buf));
                rc = AN_EXIT_INVALID;
            }
            nfiles++;
        }
    }
    if (rc)
        goto done;
    if (nfiles == 0) {
        rc = cli_usage_error("merge needs at least one RESULT.json (see 'ananke merge --help')");
        goto done;
    }
    if (res.ntests)
        qsort(res.tests, res.ntests, sizeof *res.tests, by_file_then_name);
    an_run_result_redact(&res, red);

    struct an_console_opts co = AN_CONSOLE_OPTS_INIT;
    const char *nc = getenv("NO_COLOR");
    co.color = !strcmp(color, "always") ||
               (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(nc && *nc));
    co.verbose = verbose;
    co.pass_k = res.pass_k;
    co.confidence = res.confidence;
    for (size_t i = 0; i < res.ntests; i++)
        an_console_test(stdout, &res.tests[i], &co);
    an_console_summary(stdout, &res, &co);
    printf("merged %d result file%s\n", nfiles, nfiles == 1 ? "" : "s");
    fflush(stdout);
    rc = cli_reporters_write(&reps, &res);
    struct an_counts n = an_run_result_counts(&res);
    if (allow_inconclusive)
        n.inconclusive = 0;
    /* shards run with --fail-on-flaky keep that verdict once merged */
    if (an_counts_failing(&n) || res.not_run || (res.fail_on_flaky && n.flaky))
        rc = AN_EXIT_FAIL;
done:
    an_run_result_release(&res);
    an_redactor_free(red);
    return rc;
}
