/* ananke merge: join the JSON results of shards into one result set, and
 * append it to the history (docs/history.md "Merged runs"). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/nofollow.h"
#include "ananke/redact.h"
#include "ananke/report.h"
#include "cli.h"

static int by_file_then_name(const void *a, const void *b)
{
    const struct an_test_result *x = a, *y = b;
    int c = strcmp(x->file ? x->file : "", y->file ? y->file : "");
    return c ? c : strcmp(x->name ? x->name : "", y->name ? y->name : "");
}

/* The runs joined, for the history: each file's started_ms and shard. */
struct merge_parts {
    struct an_history_part *v;
    size_t n;
};

static void part_of(struct merge_parts *p, const char *path)
{
    struct an_err err = AN_ERR_INIT;
    /* read once more (it was just read whole, under the same cap): the
     * result keeps neither the start of each file nor its shard */
    json_t *doc = an_nf_json(NULL, path, 0, (size_t)1 << 30, &err);
    json_t *ms = json_object_get(doc, "started_ms");
    const char *shard =
        json_string_value(json_object_get(json_object_get(doc, "options"), "shard"));
    if (json_is_integer(ms)) {
        p->v = an_xrealloc(p->v, (p->n + 1) * sizeof *p->v);
        p->v[p->n++] =
            (struct an_history_part){json_integer_value(ms), shard ? an_xstrdup(shard) : NULL};
    }
    json_decref(doc);
}

static void parts_release(struct merge_parts *p)
{
    for (size_t i = 0; i < p->n; i++)
        free((char *)p->v[i].shard);
    free(p->v);
}

/* The merged run appended to the history (kind merge): the project is the
 * directory of the config found walking up, else the current one. */
static void merge_history(struct cli_history *h, int argc, char **argv, const struct merge_parts *p,
                          const struct an_run_result *res, const char *const *redact,
                          size_t nredact)
{
    char *found = NULL, *dir = NULL;
    struct an_err err = AN_ERR_INIT;
    if (!an_config_find(".", &found, &err)) {
        char *slash = strrchr(found, '/');
        if (slash)
            *slash = '\0';
        dir = realpath(slash ? found : ".", NULL);
    }
    if (!dir)
        dir = realpath(".", NULL);
    struct cli_history_run hr = {.kind = "merge",
                                 .argc = argc,
                                 .argv = argv,
                                 .project_dir = dir ? dir : ".",
                                 .redact = redact,
                                 .nredact = nredact,
                                 .parts = p->v,
                                 .nparts = p->n};
    cli_history_finish(h, &hr, res);
    free(dir);
    free(found);
}

static void usage(void)
{
    puts("usage: ananke merge [-r NAME[:PATH]]... [-v] [--redact REGEX]...\n"
         "                    [--allow-inconclusive] [--history FILE | --no-history]\n"
         "                    RESULT.json...\n\n"
         "Joins the JSON results of several runs (the shards of one suite,\n"
         "written with --reporter json:PATH) into one result set, prints it as\n"
         "the console does, and writes any other report from it. Tests are\n"
         "ordered by file and name, as one unsharded run would list them.\n"
         "--redact REGEX (repeatable) also redacts every match of REGEX in\n"
         "every output (the results of 'ananke run' are redacted already).\n"
         "--allow-inconclusive: an INCONCLUSIVE test (--repeat auto) does\n"
         "not fail the merge, as for 'ananke run'.\n"
         "The merged run is appended to the history (docs/history.md: kind\n"
         "merge; --history FILE, --no-history, ANANKE_HISTORY); the runs it\n"
         "joined that the same history holds are marked merged into it.\n"
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
    bool allow_inconclusive = false, no_history = false;
    const char *history = NULL;
    const char **redact = NULL;
    size_t nredact = 0;
    struct merge_parts parts = {0};
    struct cli_history hist = {0};
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
        } else if ((!strcmp(a, "--redact") && i + 1 < argc) || !strncmp(a, "--redact=", 9)) {
            struct an_err err = AN_ERR_INIT;
            const char *re = a[8] == '=' ? a + 9 : argv[++i];
            if (an_redactor_add_regex(red, re, &err))
                rc = cli_usage_error("%s", err.msg);
            redact = an_xrealloc(redact, (nredact + 1) * sizeof *redact);
            redact[nredact++] = re;
        } else if (!strcmp(a, "--history") && i + 1 < argc) {
            history = argv[++i];
        } else if (!strncmp(a, "--history=", 10)) {
            history = a + 10;
        } else if (!strcmp(a, "--no-history")) {
            no_history = true;
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
            } else {
                part_of(&parts, a);
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
    cli_history_start(&hist, history, no_history);
    merge_history(&hist, argc, argv, &parts, &res, redact, nredact);
    struct an_counts n = an_run_result_counts(&res);
    if (allow_inconclusive)
        n.inconclusive = 0;
    /* shards run with --fail-on-flaky keep that verdict once merged */
    if (an_counts_failing(&n) || res.not_run || (res.fail_on_flaky && n.flaky))
        rc = AN_EXIT_FAIL;
done:
    cli_history_release(&hist);
    parts_release(&parts);
    free(redact);
    an_run_result_release(&res);
    an_redactor_free(red);
    return rc;
}
