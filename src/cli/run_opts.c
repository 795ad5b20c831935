/* ananke run's options: one table row each (cli.h "struct cli_option"),
 * from which the parsing and --help come; the values that go together are
 * checked once every option is read. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd_run.h"

static int parse_uint(const char *name, const char *s, unsigned min, unsigned max, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (errno || end == s || *end || s[0] == '-' || v < min || v > max)
        return cli_usage_error("%s takes a whole number from %u to %u, not '%s'", name, min, max,
                               s);
    *out = (unsigned)v;
    return 0;
}

/* 500ms, 30s, 2m, 1h; a bare number is milliseconds. */
static int parse_duration(const char *s, int64_t *ms)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    double mul = 1;
    if (!*end && end != s) /* "5": seconds or milliseconds? say which */
        return cli_usage_error("--timeout %s has no unit: write %ss or %.0fms", s, s,
                               isfinite(v) ? v * 1000 : 0.0);
    if (!strcmp(end, "ms"))
        mul = 1;
    else if (!strcmp(end, "s"))
        mul = 1000;
    else if (!strcmp(end, "m"))
        mul = 60000;
    else if (!strcmp(end, "h"))
        mul = 3600000;
    else
        end = NULL;
    if (errno || end == s || !end || !isfinite(v) || v <= 0 || v * mul > 1e12)
        return cli_usage_error("--timeout takes a duration such as 500ms, 30s or 2m, not '%s'", s);
    *ms = (int64_t)(v * mul + 0.5);
    return 0;
}

static int parse_rate(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!errno && end != s && !strcmp(end, "%"))
        v /= 100;
    else if (errno || end == s || *end)
        v = -1;
    if (!(v > 0 && v <= 1))
        return cli_usage_error("--pass-rate takes a share above 0 and at most 1 (0.8 or 80%%), "
                               "not '%s'",
                               s);
    *out = v;
    return 0;
}

static int parse_shard(const char *s, unsigned *i, unsigned *n)
{
    char *end, *end2;
    errno = 0;
    unsigned long a = strtoul(s, &end, 10);
    unsigned long b = *end == '/' ? strtoul(end + 1, &end2, 10) : 0;
    if (errno || end == s || *end != '/' || *end2 || b == 0 || b > 100000 || a < 1 || a > b ||
        s[0] == '-')
        return cli_usage_error("--shard takes I/N with 1 <= I <= N, e.g. 2/4, not '%s'", s);
    *i = (unsigned)a;
    *n = (unsigned)b;
    return 0;
}

#define ARGS(ctx) ((struct run_args *)(ctx))

static int opt_verbose(void *c, const char *v)
{
    (void)v;
    ARGS(c)->verbose += 1;
    return 0;
}

static int opt_vv(void *c, const char *v)
{
    (void)v;
    ARGS(c)->verbose += 2;
    return 0;
}

static int opt_fail_fast(void *c, const char *v)
{
    (void)v;
    ARGS(c)->ro.fail_fast = true;
    return 0;
}

static int opt_last_failed(void *c, const char *v)
{
    (void)v;
    ARGS(c)->sel.last_failed = true;
    return 0;
}

static int opt_forbid_only(void *c, const char *v)
{
    (void)v;
    ARGS(c)->sel.forbid_only = 1;
    return 0;
}

/* *list (with *n entries) gets v at its end */
static void append(const char ***list, size_t *n, const char *v)
{
    *list = an_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = v;
}

static int opt_tag(void *c, const char *v)
{
    append(&ARGS(c)->sel.tags, &ARGS(c)->sel.ntags, v);
    return 0;
}

static int opt_exclude_tag(void *c, const char *v)
{
    append(&ARGS(c)->sel.xtags, &ARGS(c)->sel.nxtags, v);
    return 0;
}

static int opt_input(void *c, const char *v)
{
    append(&ARGS(c)->inputs.src, &ARGS(c)->inputs.nsrc, v);
    return 0;
}

static int opt_redact(void *c, const char *v)
{
    append(&ARGS(c)->redact, &ARGS(c)->nredact, v);
    return 0;
}

static int opt_seed(void *c, const char *v)
{
    unsigned seed = 0;
    int rc = parse_uint("--seed", v, 0, 2147483647u, &seed);
    ARGS(c)->ro.has_seed = true;
    ARGS(c)->ro.seed = seed;
    return rc;
}

static int opt_parallel(void *c, const char *v)
{
    return parse_uint("--parallel", v, 1, 10000, &ARGS(c)->ro.parallel);
}

static int opt_loops(void *c, const char *v)
{
    return parse_uint("--loops", v, 1, 64, &ARGS(c)->ro.loops);
}

static int opt_repeat(void *c, const char *v)
{
    ARGS(c)->ro.adaptive = !strcmp(v, "auto"); /* adaptive repeats (docs/statistics.md) */
    if (ARGS(c)->ro.adaptive) {
        ARGS(c)->ro.repeat = 0;
        return 0;
    }
    if (!isdigit((unsigned char)v[0]))
        return cli_usage_error("--repeat takes a whole number from 1 to 100000 or 'auto', not "
                               "'%s'",
                               v);
    return parse_uint("--repeat", v, 1, 100000, &ARGS(c)->ro.repeat);
}

static int opt_max_repeats(void *c, const char *v)
{
    return parse_uint("--max-repeats", v, 1, 100000, &ARGS(c)->ro.max_repeats);
}

/* A share written as 0.95 or 95%; -1 when v is no number. */
static double share_of(const char *v)
{
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (!errno && end != v && !strcmp(end, "%"))
        return x / 100;
    return errno || end == v || *end ? -1 : x;
}

/* --confidence C: a share in (0.5, 1), as 0.95 or 95% */
static int opt_confidence(void *c, const char *v)
{
    double x = share_of(v);
    if (!(x > 0.5 && x < 1))
        return cli_usage_error("--confidence takes a share above 0.5 and below 1 (0.95 or "
                               "95%%), not '%s'",
                               v);
    ARGS(c)->ro.confidence = x;
    return 0;
}

static int opt_allow_inconclusive(void *c, const char *v)
{
    (void)v;
    ARGS(c)->ro.allow_inconclusive = true;
    return 0;
}

static int opt_retries(void *c, const char *v)
{
    return parse_uint("--retries", v, 0, 100, &ARGS(c)->ro.retries);
}

static int opt_pass_rate(void *c, const char *v)
{
    return parse_rate(v, &ARGS(c)->ro.pass_rate);
}

static int opt_min_tool_coverage(void *c, const char *v)
{
    double x = share_of(v);
    if (!(x >= 0 && x <= 1))
        return cli_usage_error("--min-tool-coverage takes a share from 0 to 1 (0.8 or 80%%), "
                               "not '%s'",
                               v);
    ARGS(c)->min_tool_coverage = x;
    return 0;
}

static int opt_pass_k(void *c, const char *v)
{
    return parse_uint("--pass-k", v, 1, 100000, &ARGS(c)->ro.pass_k);
}

static int opt_timeout(void *c, const char *v)
{
    return parse_duration(v, &ARGS(c)->ro.test_timeout_ms);
}

static int opt_shard(void *c, const char *v)
{
    ARGS(c)->shard = v;
    return parse_shard(v, &ARGS(c)->ro.shard_index, &ARGS(c)->ro.shard_count);
}

static int opt_protocol(void *c, const char *v)
{
    ARGS(c)->protocol = v;
    if (strcmp(v, "strict") && strcmp(v, "warn") && strcmp(v, "off"))
        return cli_usage_error("--protocol takes strict, warn or off, not '%s'", v);
    return 0;
}

static int opt_expected_failures(void *c, const char *v)
{
    struct run_args *a = c;
    an_expected_release(&a->expected);
    a->ro.expected = &a->expected;
    return cli_expected_load(v, &a->expected);
}

static int opt_filter(void *c, const char *v)
{
    struct run_args *a = c;
    struct an_err err = AN_ERR_INIT;
    a->filter_src = v;
    an_regex_free(a->filter);
    a->filter = NULL;
    if (an_regex_compile(&a->filter, v, NULL, &err))
        return cli_usage_error("--filter: %s", err.msg);
    return 0;
}

static int opt_reporter(void *c, const char *v)
{
    return cli_reporter_add(&ARGS(c)->reps, v);
}

static int opt_output(void *c, const char *v)
{
    return cli_reporter_output(&ARGS(c)->reps, v);
}

static void reporters_help(void)
{
    cli_reporters_help(false);
}

static const struct cli_option options[] = {
    {.name = "--config",
     .alias = "-c",
     .arg = "FILE",
     .help = "project config (default: ananke.config.yaml, found\n"
             "walking up from the current directory)",
     .field = offsetof(struct run_args, config)},
    {.name = "--input",
     .alias = "-i",
     .arg = "SRC",
     .help = "cases from SRC (repeatable): a file or directory, an\n"
             "inline message (\"Hello\"), a generator agent\n"
             "(agents:NAME?count=N&focus=TEXT) or a command that\n"
             "prints JSONL cases (scripts:COMMAND)",
     .handle = opt_input},
    {.name = "--save-generated",
     .alias = NULL,
     .arg = "FILE",
     .help = "write the generated cases to FILE (JSONL)",
     .field = offsetof(struct run_args, inputs.save_path)},
    {.name = "--name",
     .alias = "-n",
     .arg = "NAME",
     .help = "test the agent NAME of the config's agents: instead\n"
             "of its target",
     .field = offsetof(struct run_args, target_name)},
    {.name = "--connector",
     .alias = NULL,
     .arg = "MODEL",
     .help = "the model of an openai target",
     .field = offsetof(struct run_args, model)},
    {.name = "--simulator",
     .alias = NULL,
     .arg = "NAME",
     .help = "the simulator agent of dynamic tests that name none",
     .field = offsetof(struct run_args, simulator)},
    {.name = "--seed",
     .alias = NULL,
     .arg = "N",
     .help = "given to simulators and judges (openai helpers also\n"
             "get temperature 0), and recorded in the results",
     .handle = opt_seed},
    {.name = "--reporter",
     .alias = "-r",
     .arg = "NAME[:PATH]",
     .help = "\n"
             "also write a report (repeatable; PATH '-' = stdout);\n"
             "with GITHUB_ACTIONS=true, failures are also\n"
             "annotations on the test files. NAME is one of:",
     .handle = opt_reporter,
     .more = reporters_help},
    {.name = "--output",
     .alias = "-o",
     .arg = "FILE",
     .help = "also write a report to FILE, its format from the\n"
             "extension; repeatable:",
     .handle = opt_output,
     .more = cli_reporters_ext_help},
    {.name = "--parallel",
     .alias = "-j",
     .arg = "N",
     .help = "run up to N tests at once (default 1)",
     .handle = opt_parallel},
    {.name = "--loops",
     .alias = NULL,
     .arg = "N",
     .help = "threads that drive the runs, sharing --parallel\n"
             "(default: one per CPU, each with at least 4 runs)",
     .handle = opt_loops},
    {.name = "--repeat",
     .alias = NULL,
     .arg = "K|auto",
     .help = "run each test K times and report its pass rate;\n"
             "auto: run a test again only while a sequential test\n"
             "cannot decide whether its true pass rate reaches\n"
             "--pass-rate (PASS, FAIL or INCONCLUSIVE)",
     .handle = opt_repeat},
    {.name = "--pass-rate",
     .alias = NULL,
     .arg = "P",
     .help = "a repeated test passes when at least P of its runs\n"
             "pass: 0.8 or 80% (default 1.0)",
     .handle = opt_pass_rate},
    {.name = "--max-repeats",
     .alias = NULL,
     .arg = "N",
     .help = "--repeat auto: at most N runs of a test; undecided\n"
             "after N is INCONCLUSIVE (default 20)",
     .handle = opt_max_repeats},
    {.name = "--allow-inconclusive",
     .alias = NULL,
     .arg = NULL,
     .help = "an INCONCLUSIVE test (--repeat auto) does not fail\n"
             "the run",
     .handle = opt_allow_inconclusive},
    {.name = "--pass-k",
     .alias = NULL,
     .arg = "K",
     .help = "report pass@K and pass^K (all K runs pass) of a\n"
             "repeated test (default: its runs; docs/statistics.md)",
     .handle = opt_pass_k},
    {.name = "--confidence",
     .alias = NULL,
     .arg = "C",
     .help = "confidence of the adaptive verdicts and of a repeated\n"
             "test's interval: 0.95 or 95% (default 0.95)",
     .handle = opt_confidence},
    {.name = "--fail-on-flaky",
     .alias = NULL,
     .arg = NULL,
     .help = "a flaky test (a repeated test whose runs disagree)\n"
             "fails the run, even when it passes --pass-rate",
     .field = offsetof(struct run_args, fail_on_flaky)},
    {.name = "--min-tool-coverage",
     .alias = NULL,
     .arg = "R",
     .help = "fail the run when a tool server had less than R of\n"
             "its tools called: 0.8 or 80% (docs/tools.md)",
     .handle = opt_min_tool_coverage},
    {.name = "--retries",
     .alias = NULL,
     .arg = "R",
     .help = "retry a turn up to R times on transport faults\n"
             "(refused, reset, HTTP 408/429/5xx, timeout before the\n"
             "first event), with backoff; never on a failed assertion",
     .handle = opt_retries},
    {.name = "--timeout",
     .alias = NULL,
     .arg = "DURATION",
     .help = "bound one test, hooks and turns: 500ms, 30s, 2m",
     .handle = opt_timeout},
    {.name = "--fail-fast",
     .alias = NULL,
     .arg = NULL,
     .help = "start no new test after the first failure",
     .handle = opt_fail_fast},
    {.name = "--expected-failures",
     .alias = NULL,
     .arg = "FILE",
     .help = "\n"
             "tests known to fail (a YAML list of names, each\n"
             "NAME or 'NAME: reason'): one that fails does not fail\n"
             "the run; one that passes is stale and does",
     .handle = opt_expected_failures},
    {.name = "--filter",
     .alias = NULL,
     .arg = "REGEX",
     .help = "run only the tests whose name matches",
     .handle = opt_filter},
    {.name = "--tag",
     .alias = NULL,
     .arg = "NAME",
     .help = "run only the tests tagged NAME (repeatable: any of\n"
             "them)",
     .handle = opt_tag},
    {.name = "--exclude-tag",
     .alias = NULL,
     .arg = "NAME",
     .help = "leave out the tests tagged NAME (repeatable)",
     .handle = opt_exclude_tag},
    {.name = "--last-failed",
     .alias = NULL,
     .arg = NULL,
     .help = "rerun the tests that failed or errored in the\n"
             "project's last run (kept in .ananke/ beside the config)",
     .handle = opt_last_failed},
    {.name = "--forbid-only",
     .alias = NULL,
     .arg = NULL,
     .help = "a test marked 'only: true' is an error (the default\n"
             "when the CI environment variable is set)",
     .handle = opt_forbid_only},
    {.name = "--shard",
     .alias = NULL,
     .arg = "I/N",
     .help = "run the I-th of N deterministic slices (1-based)",
     .handle = opt_shard},
    {.name = "--protocol",
     .alias = NULL,
     .arg = "MODE",
     .help = "AG-UI stream conformance: strict (a MUST violation\n"
             "fails the turn), warn, off; overrides the config's\n"
             "target.protocol (default strict)",
     .handle = opt_protocol},
    {.name = "--record",
     .alias = NULL,
     .arg = "DIR",
     .help = "also record the run into DIR (a new or empty\n"
             "directory): results, raw frames, hook variables,\n"
             "secrets redacted; 'ananke replay DIR' judges it again",
     .field = offsetof(struct run_args, record_dir)},
    {.name = "--replay-tools",
     .alias = NULL,
     .arg = "DIR",
     .help = "answer the tool servers' calls from the recording DIR\n"
             "(made with --record) instead of their upstreams",
     .field = offsetof(struct run_args, replay_tools)},
    {.name = "--replay-miss",
     .alias = NULL,
     .arg = "MODE",
     .help = "a call DIR did not record: error (default: the test is\n"
             "an ERROR naming it) or passthrough (to the upstream)",
     .field = offsetof(struct run_args, replay_miss)},
    {.name = "--history",
     .alias = NULL,
     .arg = "FILE",
     .help = "append the run to the history database FILE (default:\n"
             ".ananke/history.sqlite in the project; docs/history.md)",
     .field = offsetof(struct run_args, history)},
    {.name = "--no-history",
     .alias = NULL,
     .arg = NULL,
     .help = "keep this run out of the history (as ANANKE_HISTORY=0)",
     .field = offsetof(struct run_args, no_history)},
    {.name = "--otlp",
     .alias = NULL,
     .arg = "ENDPOINT",
     .help = "export each test as an OpenTelemetry trace to the\n"
             "OTLP/HTTP collector at ENDPOINT (the config's\n"
             "otlp.endpoint otherwise; docs/otel.md)",
     .field = offsetof(struct run_args, otlp)},
    {.name = "--redact",
     .alias = NULL,
     .arg = "REGEX",
     .help = "also redact every match of REGEX, in every output:\n"
             "console, reports, recording (repeatable)",
     .handle = opt_redact},
    {.name = "--verbose",
     .alias = "-v",
     .arg = NULL,
     .help = "show every turn: message, tool calls, text, timings",
     .handle = opt_verbose},
    {.name = "--watch",
     .alias = NULL,
     .arg = NULL,
     .help = "run, then rerun the tests of each test file that\n"
             "changes (all of them when the config or a file a hook\n"
             "names changes); Enter reruns all, f the failed, q quits\n"
             "(docs/watch.md)",
     .field = offsetof(struct run_args, watch)},
    {.name = "--dry-run",
     .alias = NULL,
     .arg = NULL,
     .help = "load and check everything, list what would run\n"
             "(after every selection above), contact nothing",
     .field = offsetof(struct run_args, dry)},
    {.name = "--color",
     .alias = NULL,
     .arg = "WHEN",
     .help = "auto (default: on a terminal, unless NO_COLOR is set),\n"
             "always, never",
     .field = offsetof(struct run_args, color)},
    {.name = "-vv", .hidden = true, .handle = opt_vv},
    /* scripts/gen-completions.sh reads the reporter names from it */
    {.name = "--list-reporters",
     .hidden = true,
     .field = offsetof(struct run_args, list_reporters)},
    CLI_OPT_HELP,
};

static void usage(void)
{
    fputs("usage: ananke run [options] [PATH[:LINE]...]\n"
          "\n"
          "Runs the tests in PATH (files, or directories searched for *.test.yaml,\n"
          "*.test.yml, *.test.jsonl and cases.json, not entering a directory that holds\n"
          "its own ananke.config.yaml; default: the config's directory) against the\n"
          "config's target. PATH:LINE runs the test at that line: the test of a YAML\n"
          "file (any of its lines), the JSONL case on that line, the cases.json case\n"
          "that holds it.\n"
          "\n"
          "options:\n",
          stdout);
    cli_options_help(options, sizeof options / sizeof *options);
    puts("\n"
         "With target.start in the config, the agent is started before the first test\n"
         "and stopped after the last (its output in .ananke/start.log).\n"
         "\n"
         "exit: 0 every test passed (skipped ones and expected failures aside), 1 a test\n"
         "failed or errored or was inconclusive (unless --allow-inconclusive), an\n"
         "expected failure passed (stale), a test was flaky with --fail-on-flaky, a\n"
         "tool server's coverage was under --min-tool-coverage, the\n"
         "recording could not be written, or target.start's agent did not start, 2\n"
         "invalid invocation, config or test file, no test found, a --record DIR\n"
         "that is not new or empty, or a --replay-tools DIR that cannot be read, 130\n"
         "interrupted (Ctrl-C), 143 terminated (SIGTERM).\n"
         "With --watch: the exit code of the last run when q is pressed or SIGINT\n"
         "arrives between runs (2 when the last load failed); a run that SIGINT\n"
         "interrupts ends the watch with 130.");
}

static int positional(void *c, const char *arg)
{
    struct run_args *a = c;
    const char *p = arg;
    int rc = cli_select_path(&a->sel, arg, &p);
    a->paths[a->npaths++] = (char *)p;
    return rc;
}

static const struct cli_command command = {
    .name = "run",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .usage = usage,
    .positional = positional,
};

static bool has_shard(const struct run_args *a)
{
    return a->shard != NULL;
}

static bool has_record(const struct run_args *a)
{
    return a->record_dir != NULL;
}

static bool has_dry(const struct run_args *a)
{
    return a->dry;
}

static bool has_last_failed(const struct run_args *a)
{
    return a->sel.last_failed;
}

static bool has_generator(const struct run_args *a)
{
    for (size_t i = 0; i < a->inputs.nsrc; i++)
        if (!strncmp(a->inputs.src[i], "agents:", 7) || !strncmp(a->inputs.src[i], "scripts:", 8))
            return true;
    return a->inputs.save_path != NULL;
}

/* What --watch refuses, and why (docs/watch.md). */
static const struct {
    const char *name;
    bool (*given)(const struct run_args *a);
    const char *why;
} watch_refuses[] = {
    {"--shard", has_shard, "a watch reruns what changed, not a slice of the suite"},
    {"--record", has_record, "each rerun would need a new, empty directory"},
    {"--dry-run", has_dry, "a dry run runs nothing to rerun"},
    {"--last-failed", has_last_failed, "press f in the watch to rerun the failed tests"},
    {"-i agents:/scripts: or --save-generated", has_generator,
     "generated cases change on every run, not on an edit"},
};

/* The values that go together, once every option is read. */
static int check(struct run_args *a)
{
    if (strcmp(a->color, "auto") && strcmp(a->color, "always") && strcmp(a->color, "never"))
        return cli_usage_error("--color takes auto, always or never, not '%s'", a->color);
    a->ro.filter = a->filter;
    a->ro.tags = a->sel.tags;
    a->ro.ntags = a->sel.ntags;
    a->ro.exclude_tags = a->sel.xtags;
    a->ro.nexclude_tags = a->sel.nxtags;
    for (size_t k = 0; k < a->nredact; k++) {
        struct an_regex *re = NULL;
        struct an_err err = AN_ERR_INIT;
        if (an_regex_compile(&re, a->redact[k], NULL, &err))
            return cli_usage_error("--redact: %s", err.msg);
        an_regex_free(re);
    }
    a->ro.redact = a->redact;
    a->ro.nredact = a->nredact;
    if (a->ro.pass_k && a->ro.repeat > 1 && a->ro.pass_k > a->ro.repeat)
        return cli_usage_error("--pass-k %u is more than --repeat %u: pass^k is estimated from "
                               "at least k runs",
                               a->ro.pass_k, a->ro.repeat);
    if (a->record_dir && a->dry)
        return cli_usage_error("--record and --dry-run do not go together: a dry run records "
                               "nothing");
    if (a->record_dir && !*a->record_dir)
        return cli_usage_error("--record needs a directory");
    if (a->replay_miss && strcmp(a->replay_miss, "error") && strcmp(a->replay_miss, "passthrough"))
        return cli_usage_error("--replay-miss takes error or passthrough, not '%s'",
                               a->replay_miss);
    if (a->replay_miss && !a->replay_tools)
        return cli_usage_error("--replay-miss goes with --replay-tools DIR");
    if (a->replay_tools && !*a->replay_tools)
        return cli_usage_error("--replay-tools needs a directory");
    if (a->watch)
        for (size_t k = 0; k < sizeof watch_refuses / sizeof *watch_refuses; k++)
            if (watch_refuses[k].given(a))
                return cli_usage_error("--watch and %s do not go together: %s",
                                       watch_refuses[k].name, watch_refuses[k].why);
    if (a->ro.max_repeats && !a->ro.adaptive)
        return cli_usage_error("--max-repeats goes with --repeat auto; --repeat K runs a test "
                               "K times");
    return 0;
}

int run_args_parse(struct run_args *a, int argc, char **argv, bool *helped)
{
    *a = (struct run_args){.color = "auto",
                           .ro = AN_RUN_OPTS_INIT,
                           .sel = {.forbid_only = -1},
                           .min_tool_coverage = -1};
    a->paths = an_xcalloc((size_t)argc + 1, sizeof *a->paths);
    int rc = cli_parse(&command, argc, argv, a, helped);
    if (rc || *helped)
        return rc;
    if (a->list_reporters) {
        cli_reporters_list();
        *helped = true;
        return 0;
    }
    return check(a);
}

void run_args_release(struct run_args *a)
{
    cli_select_release(&a->sel);
    an_expected_release(&a->expected);
    free(a->redact);
    cli_inputs_release(&a->inputs);
    an_regex_free(a->filter);
    free(a->paths);
}
