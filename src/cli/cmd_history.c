/* ananke history: the run history read back (docs/history.md): recent
 * runs, one test over time, flaky, slowest, regressions; `prune`. */
#include <errno.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/clock.h"
#include "cli.h"

struct hist_args {
    const char *config, *history, *test, *ref, *keep, *older;
    bool flaky, slowest, json, prune;
    unsigned limit, window;
};

#define HARGS(ctx) ((struct hist_args *)(ctx))

static int parse_count(const char *opt, const char *v, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (!*v || *end || errno || n < 1 || n > 1000000 || v[0] == '-')
        return cli_usage_error("%s takes a whole number from 1 to 1000000, not '%s'", opt, v);
    *out = (unsigned)n;
    return 0;
}

static int hopt_limit(void *c, const char *v)
{
    return parse_count("--limit", v, &HARGS(c)->limit);
}

static int hopt_runs(void *c, const char *v)
{
    return parse_count("--runs", v, &HARGS(c)->window);
}

static int hist_positional(void *c, const char *a)
{
    if (!strcmp(a, "prune") && !HARGS(c)->prune) {
        HARGS(c)->prune = true;
        return 0;
    }
    return cli_usage_error("history takes no argument '%s' (only 'prune'; see 'ananke history "
                           "--help')",
                           a);
}

static void usage(void);

static const struct cli_option options[] = {
    {.name = "--config",
     .alias = "-c",
     .arg = "FILE",
     .help = "the project config, whose directory holds\n"
             ".ananke/history.sqlite (default: ananke.config.yaml,\n"
             "found walking up)",
     .field = offsetof(struct hist_args, config)},
    {.name = "--history",
     .arg = "FILE",
     .help = "read this history database instead",
     .field = offsetof(struct hist_args, history)},
    {.name = "--test",
     .arg = "NAME",
     .help = "one test's outcomes over time (its name or id)",
     .field = offsetof(struct hist_args, test)},
    {.name = "--flaky",
     .help = "tests whose outcome changed while their file did\n"
             "not, ranked by flip rate over each test's last\n"
             "--runs runs",
     .field = offsetof(struct hist_args, flaky)},
    {.name = "--slowest",
     .help = "tests by mean duration over their last --runs runs",
     .field = offsetof(struct hist_args, slowest)},
    {.name = "--regressed-since",
     .arg = "REF",
     .help = "\ntests that passed in run REF (a run id, or the\n"
             "newest run of a commit) and fail or error in their\n"
             "latest run",
     .field = offsetof(struct hist_args, ref)},
    {.name = "--json",
     .help = "print the rows as JSON (docs/history.md)",
     .field = offsetof(struct hist_args, json)},
    {.name = "--limit", .arg = "N", .help = "rows shown (default 20)", .handle = hopt_limit},
    {.name = "--runs",
     .arg = "N",
     .help = "a test's last N runs looked at (default 20)",
     .handle = hopt_runs},
    {.name = "--keep",
     .arg = "N",
     .help = "prune: keep the newest N runs",
     .field = offsetof(struct hist_args, keep)},
    {.name = "--older-than",
     .arg = "AGE",
     .help = "prune: delete the runs started more than AGE ago\n(30d, 12h, 90m, 3600s, 2w)",
     .field = offsetof(struct hist_args, older)},
    CLI_OPT_HELP,
};

static const struct cli_command command = {
    .name = "history",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .usage = usage,
    .positional = hist_positional,
};

static void usage(void)
{
    puts("usage: ananke history [options]\n"
         "       ananke history prune --keep N | --older-than AGE\n"
         "\n"
         "Reads the run history every 'ananke run', 'replay' and 'comply' appends to\n"
         "(.ananke/history.sqlite in the project; --history FILE, ANANKE_HISTORY):\n"
         "by default the recent runs, newest first.\n"
         "\n"
         "options:");
    cli_options_help(options, sizeof options / sizeof *options);
    puts("\nexit: 0 done, 1 the history cannot be read, 2 invalid invocation or no\n"
         "history yet.");
}

/* AGE as milliseconds: N followed by s, m, h, d or w. -1: not an age. */
static int64_t parse_age(const char *v)
{
    char *end;
    errno = 0;
    long long n = strtoll(v, &end, 10);
    if (end == v || errno || n < 0 || n > 100000000 || strlen(end) != 1)
        return -1;
    static const char units[] = "smhdw";
    static const int64_t ms[] = {1000, 60000, 3600000, 86400000, 604800000};
    const char *u = strchr(units, *end);
    return u ? n * ms[u - units] : -1;
}

/* The database the command reads: --history, ANANKE_HISTORY, else the
 * project's (-c's directory, or the config found walking up, else "."). */
static int db_path(const struct hist_args *a, char **out)
{
    bool def;
    char *found = NULL, *dir = NULL;
    struct an_err err = AN_ERR_INIT;
    const char *cfg = a->config;
    if (!a->history && !cfg && !an_config_find(".", &found, &err))
        cfg = found;
    if (cfg) {
        const char *slash = strrchr(cfg, '/');
        dir = slash ? an_xstrndup(cfg, (size_t)(slash - cfg) + (slash == cfg)) : an_xstrdup(".");
    }
    *out = an_history_path(a->history, false, dir ? dir : ".", &def);
    free(found);
    free(dir);
    if (!*out)
        return cli_usage_error("the history is off (ANANKE_HISTORY=%s); give --history FILE",
                               getenv("ANANKE_HISTORY"));
    return 0;
}

/* Text an agent or a test file wrote, with control characters shown as '?'
 * so nothing in it drives the terminal. */
static void put_safe(const char *s)
{
    for (; s && *s; s++)
        putchar((unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s);
}

static const char *str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

static json_int_t num(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

static void print_run(const json_t *r)
{
    printf("#%" JSON_INTEGER_FORMAT "  %s  %s  ", num(r, "id"), str(r, "started_at"),
           str(r, "kind"));
    const char *commit = str(r, "git_commit");
    if (*commit || *str(r, "git_branch")) {
        put_safe(str(r, "git_branch"));
        printf("@%.7s  ", commit);
    }
    printf("%" JSON_INTEGER_FORMAT " passed, %" JSON_INTEGER_FORMAT " failed, %" JSON_INTEGER_FORMAT
           " errors, %" JSON_INTEGER_FORMAT " skipped  %" JSON_INTEGER_FORMAT " ms",
           num(r, "passed"), num(r, "failed"), num(r, "errors"), num(r, "skipped"),
           num(r, "duration_ms"));
    if (*str(r, "recording")) {
        fputs("  recorded in ", stdout);
        put_safe(str(r, "recording"));
    }
    if (json_is_integer(json_object_get(r, "merged_into")))
        printf("  merged into #%" JSON_INTEGER_FORMAT, num(r, "merged_into"));
    putchar('\n');
}

static void print_name(const json_t *r)
{
    put_safe(str(r, "name"));
    if (*str(r, "file")) {
        fputs(" (", stdout);
        put_safe(str(r, "file"));
        putchar(')');
    }
}

static void print_row(enum an_history_what what, const json_t *r)
{
    switch (what) {
    case AN_HISTORY_TEST:
        printf("#%" JSON_INTEGER_FORMAT "  %s  %.7s  %s  %" JSON_INTEGER_FORMAT " ms  ",
               num(r, "run_id"), str(r, "started_at"), str(r, "git_commit"), str(r, "outcome"),
               num(r, "duration_ms"));
        put_safe(*str(r, "finding") ? str(r, "finding") : str(r, "error"));
        break;
    case AN_HISTORY_FLAKY:
        printf("flip rate %.2f  %" JSON_INTEGER_FORMAT " flip%s in %" JSON_INTEGER_FORMAT
               " runs  last %s  ",
               json_real_value(json_object_get(r, "flip_rate")), num(r, "flips"),
               num(r, "flips") == 1 ? "" : "s", num(r, "runs"), str(r, "last_outcome"));
        print_name(r);
        break;
    case AN_HISTORY_SLOWEST:
        printf("mean %" JSON_INTEGER_FORMAT " ms  max %" JSON_INTEGER_FORMAT
               " ms  %" JSON_INTEGER_FORMAT " runs  ",
               num(r, "mean_ms"), num(r, "max_ms"), num(r, "runs"));
        print_name(r);
        break;
    case AN_HISTORY_REGRESSED:
        print_name(r);
        printf(": passed in run #%" JSON_INTEGER_FORMAT ", %s since run #%" JSON_INTEGER_FORMAT
               " (latest #%" JSON_INTEGER_FORMAT ")  ",
               num(r, "since_run"), str(r, "outcome"), num(r, "first_failed_run"),
               num(r, "run_id"));
        put_safe(*str(r, "finding") ? str(r, "finding") : str(r, "error"));
        break;
    default:
        print_run(r);
        return;
    }
    putchar('\n');
}

static const char *const empty_msg[] = {
    [AN_HISTORY_RUNS] = "no run in the history yet",
    [AN_HISTORY_TEST] = "no run of that test in the history",
    [AN_HISTORY_FLAKY] = "no flaky test: no outcome changed while its file stayed the same",
    [AN_HISTORY_SLOWEST] = "no test in the history yet",
    [AN_HISTORY_REGRESSED] = "no test regressed since then",
};

static int prune(struct an_history *h, const struct hist_args *a)
{
    long keep = -1;
    int64_t before = 0;
    unsigned k = 0;
    if (!a->keep && !a->older)
        return cli_usage_error("prune needs --keep N or --older-than AGE");
    if (a->keep && parse_count("--keep", a->keep, &k))
        return AN_EXIT_INVALID;
    if (a->keep)
        keep = (long)k;
    if (a->older) {
        int64_t age = parse_age(a->older);
        if (age < 0)
            return cli_usage_error("--older-than takes an age such as 30d, 12h, 90m, 3600s or "
                                   "2w, not '%s'",
                                   a->older);
        before = an_clock_unix_ms() - age;
    }
    size_t removed = 0;
    struct an_err err = AN_ERR_INIT;
    if (an_history_prune(h, keep, before, &removed, &err)) {
        fprintf(stderr, "ananke: history %s\n", err.msg);
        return AN_EXIT_FAIL;
    }
    printf("pruned %zu run%s\n", removed, removed == 1 ? "" : "s");
    return AN_EXIT_OK;
}

static int check_modes(const struct hist_args *a, struct an_history_query *q)
{
    int modes = !!a->test + a->flaky + a->slowest + !!a->ref;
    if (modes > 1 || (a->prune && modes))
        return cli_usage_error("--test, --flaky, --slowest, --regressed-since and prune each "
                               "ask for one thing: give one");
    if (!a->prune && (a->keep || a->older))
        return cli_usage_error("--keep and --older-than are prune's: ananke history prune "
                               "--keep N");
    q->what = a->test      ? AN_HISTORY_TEST
              : a->flaky   ? AN_HISTORY_FLAKY
              : a->slowest ? AN_HISTORY_SLOWEST
              : a->ref     ? AN_HISTORY_REGRESSED
                           : AN_HISTORY_RUNS;
    q->test = a->test;
    q->ref = a->ref;
    q->limit = a->limit;
    q->window = a->window;
    return 0;
}

int cmd_history(int argc, char **argv)
{
    struct hist_args a = {0};
    struct an_history_query q = {0};
    struct an_history *h = NULL;
    struct an_err err = AN_ERR_INIT;
    char *path = NULL;
    bool helped = false;
    int rc = cli_parse(&command, argc, argv, &a, &helped);
    if (rc || helped || (rc = check_modes(&a, &q)) || (rc = db_path(&a, &path)))
        goto done;
    if (an_history_open(&h, path, &err)) {
        fprintf(stderr, "ananke: history %s\n", err.msg);
        rc = err.code == AN_ENOTFOUND ? AN_EXIT_INVALID : AN_EXIT_FAIL;
        goto done;
    }
    if (a.prune) {
        rc = prune(h, &a);
        goto done;
    }
    json_t *rows = an_history_query(h, &q, &err);
    if (!rows) {
        fprintf(stderr, "ananke: history %s\n", err.msg);
        rc = err.code == AN_ENOTFOUND ? AN_EXIT_INVALID : AN_EXIT_FAIL;
        goto done;
    }
    if (a.json) {
        json_dumpf(rows, stdout, JSON_INDENT(2) | JSON_ENSURE_ASCII);
        putchar('\n');
    } else if (!json_array_size(rows)) {
        puts(empty_msg[q.what]);
    } else {
        size_t i;
        json_t *r;
        json_array_foreach(rows, i, r) print_row(q.what, r);
    }
    json_decref(rows);

done:
    an_history_free(h);
    free(path);
    return rc;
}
