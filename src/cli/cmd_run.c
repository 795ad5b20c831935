/* ananke run: load, select, run, report. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/record.h"
#include "ananke/report.h"
#include "ananke/run.h"
#include "ananke/target_type.h"
#include "cli.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/interp.h"
#include "run/redact.h"
#include "run/start.h"
#include "run/secrets.h"

struct run_ctx {
    struct an_console_opts console;
    bool progress;     /* a live progress line (stdout is a terminal) */
    bool line_shown;   /* the progress line is on screen now */
    int64_t last_flush;
};

static void clear_progress(struct run_ctx *c)
{
    if (c->line_shown) {
        fputs("\r\033[K", stdout);
        c->line_shown = false;
    }
}

static void on_test(const struct an_test_result *t, void *ud)
{
    struct run_ctx *c = ud;
    clear_progress(c);
    an_console_test(stdout, t, &c->console);
    /* a terminal sees each line at once; a pipe or a CI log gets them at
     * least every quarter second, not one write per test */
    int64_t now = an_clock_mono_ms();
    if (c->progress || now - c->last_flush >= 250) {
        fflush(stdout);
        c->last_flush = now;
    }
}

static void on_progress(const struct an_progress *p, void *ud)
{
    struct run_ctx *c = ud;
    if (!c->progress)
        return;
    printf("\r\033[K[%zu/%zu] %zu passed, %zu failed, %zu errors, %zu running, %.1fs", p->done,
           p->total, p->passed, p->failed, p->errors, p->running, (double)p->elapsed_ms / 1000);
    fflush(stdout);
    c->line_shown = true;
}

static void usage(void)
{
    puts("usage: ananke run [options] [PATH[:LINE]...]\n"
         "\n"
         "Runs the tests in PATH (files, or directories searched for *.test.yaml,\n"
         "*.test.yml, *.test.jsonl and cases.json, not entering a directory that holds\n"
         "its own ananke.config.yaml; default: the config's directory) against the\n"
         "config's target. PATH:LINE runs the test at that line: the test of a YAML\n"
         "file (any of its lines), the JSONL case on that line, the cases.json case\n"
         "that holds it.\n"
         "\n"
         "options:\n"
         "  -c, --config FILE        project config (default: ananke.config.yaml, found\n"
         "                           walking up from the current directory)\n"
         "  -i, --input SRC          cases from SRC (repeatable): a file or directory, an\n"
         "                           inline message (\"Hello\"), a generator agent\n"
         "                           (agents:NAME?count=N&focus=TEXT) or a command that\n"
         "                           prints JSONL cases (scripts:COMMAND)\n"
         "      --save-generated FILE  write the generated cases to FILE (JSONL)\n"
         "  -n, --name NAME          test the agent NAME of the config's agents: instead\n"
         "                           of its target\n"
         "      --connector MODEL    the model of an openai target\n"
         "      --simulator NAME     the simulator agent of dynamic tests that name none\n"
         "      --seed N             given to simulators and judges (openai helpers also\n"
         "                           get temperature 0), and recorded in the results\n"
         "  -r, --reporter NAME[:PATH]\n"
         "                           also write a report: junit:PATH, json:PATH, tap:PATH,\n"
         "                           jsonl:PATH, markdown:PATH (or md:PATH; PATH '-' =\n"
         "                           stdout), html:PATH (a self-contained page: PATH\n"
         "                           itself when it ends in .html, else PATH/index.html);\n"
         "                           repeatable. With GITHUB_ACTIONS=true\n"
         "                           failures are also annotations on the test files.\n"
         "  -o, --output FILE        also write a report to FILE, its format from the\n"
         "                           extension: .jsonl (one JSON event a line), .json, .md,\n"
         "                           .html (one page), .xml (JUnit), .tap; repeatable\n"
         "  -j, --parallel N         run up to N tests at once (default 1)\n"
         "      --loops N            threads that drive the runs, sharing --parallel\n"
         "                           (default: one per CPU, each with at least 4 runs)\n"
         "      --repeat K           run each test K times and report its pass rate\n"
         "      --pass-rate P        a repeated test passes when at least P of its runs\n"
         "                           pass: 0.8 or 80% (default 1.0)\n"
         "      --retries R          retry a turn up to R times on transport faults\n"
         "                           (refused, reset, HTTP 408/429/5xx, timeout before the\n"
         "                           first event), with backoff; never on a failed assertion\n"
         "      --timeout DURATION   bound one test, hooks and turns: 500ms, 30s, 2m\n"
         "      --fail-fast          start no new test after the first failure\n"
         "      --expected-failures FILE\n"
         "                           tests known to fail (a YAML list of names, each\n"
         "                           NAME or 'NAME: reason'): one that fails does not fail\n"
         "                           the run; one that passes is stale and does\n"
         "      --filter REGEX       run only the tests whose name matches\n"
         "      --tag NAME           run only the tests tagged NAME (repeatable: any of\n"
         "                           them)\n"
         "      --exclude-tag NAME   leave out the tests tagged NAME (repeatable)\n"
         "      --last-failed        rerun the tests that failed or errored in the\n"
         "                           project's last run (kept in .ananke/ beside the config)\n"
         "      --forbid-only        a test marked 'only: true' is an error (the default\n"
         "                           when the CI environment variable is set)\n"
         "      --shard I/N          run the I-th of N deterministic slices (1-based)\n"
         "      --protocol MODE      AG-UI stream conformance: strict (a MUST violation\n"
         "                           fails the turn), warn, off; overrides the config's\n"
         "                           target.protocol (default strict)\n"
         "      --record DIR         also record the run into DIR (a new or empty\n"
         "                           directory): results, raw frames, hook variables,\n"
         "                           secrets redacted; 'ananke replay DIR' judges it again\n"
         "      --redact REGEX       also redact every match of REGEX, in every output:\n"
         "                           console, reports, recording (repeatable)\n"
         "  -v, --verbose            show every turn: message, tool calls, text, timings\n"
         "      --dry-run            load and check everything, list what would run\n"
         "                           (after every selection above), contact nothing\n"
         "      --color WHEN         auto (default: on a terminal, unless NO_COLOR is set),\n"
         "                           always, never\n"
         "  -h, --help               this help\n"
         "\n"
         "With target.start in the config, the agent is started before the first test\n"
         "and stopped after the last (its output in .ananke/start.log).\n"
         "\n"
         "exit: 0 every test passed (skipped ones and expected failures aside), 1 a test\n"
         "failed or errored, an expected failure passed (stale), the recording could\n"
         "not be written, or target.start's agent did not start, 2 invalid invocation,\n"
         "config or test file, no test found, or a --record DIR that is not new or\n"
         "empty, 130 interrupted (Ctrl-C), 143 terminated (SIGTERM).");
}

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
        return cli_usage_error("--timeout takes a duration such as 500ms, 30s or 2m, not '%s'",
                               s);
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

/* The config, every PATH and every -i source (generators ask their agent
 * once the config is known). */
static int load_all(struct an_suite **out, const char *config, char **paths, int npaths,
                    struct cli_inputs *in, const char *target_name, const char *model,
                    const char *simulator, bool check_env)
{
    int rc;
    if (in->save_path && !in->nsrc)
        return cli_usage_error("--save-generated needs -i agents:NAME");
    if ((rc = cli_inputs_prepare(in)))
        return rc;
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.config_path = config;
    o.target_name = target_name;
    o.model = model;
    o.simulator = simulator;
    o.check_env = check_env;
    if (in->generators) {
        struct an_suite *cfg = NULL;
        o.config_only = true;
        if ((rc = cli_load_opts(&cfg, &o)))
            return rc;
        rc = cli_inputs_generate(in, &cfg->config);
        an_suite_free(cfg);
        if (rc)
            return rc;
        o.config_only = false;
    }
    char **all = an_xcalloc((size_t)npaths + in->npaths + 1, sizeof *all);
    size_t n = 0;
    for (int i = 0; i < npaths; i++)
        all[n++] = paths[i];
    for (size_t i = 0; i < in->npaths; i++)
        all[n++] = in->paths[i];
    o.paths = (const char *const *)all;
    o.npaths = n;
    o.mem = in->mem;
    o.nmem = in->nmem;
    rc = cli_load_opts(out, &o);
    free(all);
    return rc;
}

/* The first line (seed 002's header): what runs, against what. */
/* The run's own secrets (the config's, --redact), for what the command
 * prints itself before any result: the first line, a dry run's list. */
static struct an_redactor *own_secrets(const struct an_suite *s, const struct an_run_opts *ro)
{
    struct an_redactor *r = an_redactor_new();
    struct an_err err = AN_ERR_INIT;
    for (size_t i = 0; i < ro->nredact; i++)
        (void)an_redactor_add_regex(r, ro->redact[i], &err); /* checked already */
    struct an_vars none = AN_VARS_INIT;
    an_secrets_gather(r, &s->config, &none, NULL, NULL);
    return r;
}

/* s redacted, in a buffer the next call reuses (for printf). */
static const char *shown_as(const struct an_redactor *r, const char *s)
{
    static char *last;
    free(last);
    last = s ? an_redact_text(r, s, strlen(s), NULL, NULL) : NULL;
    return last ? last : s;
}

static void header(const struct an_suite *s, const struct an_run_opts *ro)
{
    size_t *idx;
    size_t n = an_run_select(s, ro, &idx);
    free(idx);
    const struct an_target *t = &s->config.target;
    const struct an_tmpl *where = t->type->where ? t->type->where(t) : NULL;
    char *shown = NULL;
    struct an_err err = AN_ERR_INIT;
    struct an_vars none = AN_VARS_INIT; /* ${ENV...} only: hook variables are per test */
    if (!where || !where->src)
        shown = an_xstrdup(t->type->unnamed ? t->type->unnamed : t->type->name);
    else if (an_interp(where->src, &where->loc, &none, &shown, &err)) {
        free(shown);
        shown = an_xstrdup(where->src);
    }
    struct an_redactor *red = own_secrets(s, ro);
    printf("ananke: %zu test%s against %s %s", n, n == 1 ? "" : "s",
           t->type->name, shown_as(red, shown));
    an_redactor_free(red);
    const char *model = t->type->model ? t->type->model(t) : NULL;
    if (model)
        printf(" (model %s)", model);
    if (ro->repeat > 1)
        printf(", each %u times", ro->repeat);
    fputs("\n\n", stdout);
    free(shown);
}

/* ", tags: a, b" for a listed test; "" when it has none. */
static void print_tags(const struct an_redactor *red, const struct an_test *t)
{
    for (size_t i = 0; i < t->ntags; i++)
        printf("%s%s", i ? ", " : "; tags: ", shown_as(red, t->tags[i]));
}

static void dry_run(const struct an_suite *s, const struct an_run_opts *ro)
{
    size_t *idx;
    size_t nsel = an_run_select(s, ro, &idx), n = 0;
    size_t *skipped = an_xcalloc(nsel + 1, sizeof *skipped), nskipped = 0;
    for (size_t k = 0; k < nsel; k++) /* skipped tests are listed apart, below */
        if (!s->tests[idx[k]].skip)
            idx[n++] = idx[k];
        else
            skipped[nskipped++] = idx[k];
    const struct an_target *tg = &s->config.target;
    const struct an_tmpl *at = tg->type->where ? tg->type->where(tg) : NULL;
    const char *where = at ? at->src : NULL;
    struct an_redactor *red = own_secrets(s, ro);
    printf("dry run: %zu test%s would run against %s\n", n, n == 1 ? "" : "s",
           where ? where : tg->type->name);
    for (size_t k = 0; k < n; k++) {
        const struct an_test *t = &s->tests[idx[k]];
        if (t->id) { /* a JSONL case: its line, and the history it carries */
            size_t nh = t->history ? json_array_size(t->history) : 0;
            printf("  %s  (%s:%u, %zu message%s", shown_as(red, t->name), t->file, t->loc.line,
                   nh + 1, nh ? "s" : "");
            printf(", %zu assertion%s", t->assert.nchecks, t->assert.nchecks == 1 ? "" : "s");
        } else {
            printf("  %s  (%s, %zu turn%s", shown_as(red, t->name), t->file, t->nturns,
                   t->nturns == 1 ? "" : "s");
        }
        print_tags(red, t);
        puts(")");
    }
    for (size_t k = 0; k < nskipped; k++) {
        const struct an_test *t = &s->tests[skipped[k]];
        printf("  skipped: %s  (%s:%u", shown_as(red, t->name), t->file, t->loc.line);
        print_tags(red, t);
        printf(")");
        if (t->skip_reason)
            printf(": %s", shown_as(red, t->skip_reason));
        putchar('\n');
    }
    shown_as(red, NULL);
    an_redactor_free(red);
    free(skipped);
    free(idx);
}

/* What cannot be redacted as asked, said once (the run and the recorder
 * may both find it); the run calls it one at a time. */
static void record_warn(const char *msg, void *ud)
{
    static char **said;
    static size_t nsaid;
    (void)ud;
    for (size_t i = 0; i < nsaid; i++)
        if (!strcmp(said[i], msg))
            return;
    said = an_xrealloc(said, (nsaid + 1) * sizeof *said);
    said[nsaid++] = an_xstrdup(msg); /* a few per run, kept to the end */
    fprintf(stderr, "ananke: warning: %s\n", msg);
}

/* --record: check and make DIR before anything runs. Returns 0 or an exit
 * code: 2 when DIR is refused (a previous recording, not empty) or a
 * --redact pattern is bad, 1 when it cannot be made or written. */
static int record_open(struct an_recorder **rec, const char *dir, const struct an_suite *s,
                       struct an_record_info *info)
{
    struct an_err err = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    int rc = an_record_open(rec, dir, s, info, &err);
    if (!rc)
        return 0;
    fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
    return rc == AN_EIO ? AN_EXIT_FAIL : AN_EXIT_INVALID;
}

static bool suite_has_only(const struct an_suite *s)
{
    for (size_t i = 0; i < s->ntests; i++)
        if (s->tests[i].only)
            return true;
    return false;
}

/* Will a test run (selected and not skipped)? Nothing is started otherwise. */
static bool will_run(const struct an_suite *s, const struct an_run_opts *ro)
{
    size_t *idx;
    size_t n = an_run_select(s, ro, &idx);
    bool any = false;
    for (size_t k = 0; k < n && !any; k++)
        any = !s->tests[idx[k]].skip;
    free(idx);
    return any;
}

int cmd_run(int argc, char **argv)
{
    const char *config = NULL, *color = "auto", *val = NULL, *shard = NULL;
    char **paths = an_xcalloc((size_t)argc + 1, sizeof *paths);
    int npaths = 0, verbose = 0, rc = AN_EXIT_OK;
    bool dry = false;
    struct cli_reporters reps = {0};
    struct an_suite *suite = NULL;
    struct an_run_result result = {0};
    struct an_run_opts ro = AN_RUN_OPTS_INIT;
    struct an_regex *filter = NULL;
    const char *filter_src = NULL;
    const char *protocol = NULL;
    const char *target_name = NULL, *model = NULL, *simulator = NULL;
    struct cli_inputs inputs = {0};
    const char *record_dir = NULL;
    const char **redact = an_xcalloc((size_t)argc + 1, sizeof *redact);
    size_t nredact = 0;
    struct an_recorder *rec = NULL;
    struct an_expected expected = {0};
    struct cli_select sel = {.forbid_only = -1};
    bool nothing = false;
    struct an_started *started = NULL;

    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (cli_opt_help(a)) {
            usage();
            goto done;
        } else if (cli_opt_verbose(a, true, &verbose)) {
            continue;
        } else if (!strcmp(a, "--dry-run")) {
            dry = true;
        } else if (!strcmp(a, "--fail-fast")) {
            ro.fail_fast = true;
        } else if (!strcmp(a, "--last-failed")) {
            sel.last_failed = true;
        } else if (!strcmp(a, "--forbid-only")) {
            sel.forbid_only = 1;
        } else if (cli_opt("run", argc, argv, &i, "--tag", NULL, &val, &rc)) {
            if (val) {
                sel.tags = an_xrealloc(sel.tags, (sel.ntags + 1) * sizeof *sel.tags);
                sel.tags[sel.ntags++] = val;
            }
        } else if (cli_opt("run", argc, argv, &i, "--exclude-tag", NULL, &val, &rc)) {
            if (val) {
                sel.xtags = an_xrealloc(sel.xtags, (sel.nxtags + 1) * sizeof *sel.xtags);
                sel.xtags[sel.nxtags++] = val;
            }
        } else if (cli_opt("run", argc, argv, &i, "--config", "-c", &val, &rc)) {
            config = val;
        } else if (cli_opt("run", argc, argv, &i, "--input", "-i", &val, &rc)) {
            if (val) {
                inputs.src = an_xrealloc(inputs.src, (inputs.nsrc + 1) * sizeof *inputs.src);
                inputs.src[inputs.nsrc++] = val;
            }
        } else if (cli_opt("run", argc, argv, &i, "--save-generated", NULL, &val, &rc)) {
            inputs.save_path = val;
        } else if (cli_opt("run", argc, argv, &i, "--name", "-n", &val, &rc)) {
            target_name = val;
        } else if (cli_opt("run", argc, argv, &i, "--connector", NULL, &val, &rc)) {
            model = val;
        } else if (cli_opt("run", argc, argv, &i, "--simulator", NULL, &val, &rc)) {
            simulator = val;
        } else if (cli_opt("run", argc, argv, &i, "--seed", NULL, &val, &rc)) {
            unsigned seed = 0;
            rc = val ? parse_uint("--seed", val, 0, 2147483647u, &seed) : rc;
            ro.has_seed = true;
            ro.seed = seed;
        } else if (cli_opt("run", argc, argv, &i, "--color", NULL, &val, &rc)) {
            color = val;
        } else if (cli_opt("run", argc, argv, &i, "--parallel", "-j", &val, &rc)) {
            rc = val ? parse_uint("--parallel", val, 1, 10000, &ro.parallel) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--loops", NULL, &val, &rc)) {
            rc = val ? parse_uint("--loops", val, 1, 64, &ro.loops) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--repeat", NULL, &val, &rc)) {
            rc = val ? parse_uint("--repeat", val, 1, 100000, &ro.repeat) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--retries", NULL, &val, &rc)) {
            rc = val ? parse_uint("--retries", val, 0, 100, &ro.retries) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--pass-rate", NULL, &val, &rc)) {
            rc = val ? parse_rate(val, &ro.pass_rate) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--timeout", NULL, &val, &rc)) {
            rc = val ? parse_duration(val, &ro.test_timeout_ms) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--shard", NULL, &val, &rc)) {
            shard = val;
            rc = val ? parse_shard(val, &ro.shard_index, &ro.shard_count) : rc;
        } else if (cli_opt("run", argc, argv, &i, "--protocol", NULL, &val, &rc)) {
            protocol = val;
            if (val && strcmp(val, "strict") && strcmp(val, "warn") && strcmp(val, "off"))
                rc = cli_usage_error("--protocol takes strict, warn or off, not '%s'", val);
        } else if (cli_opt("run", argc, argv, &i, "--expected-failures", NULL, &val, &rc)) {
            an_expected_release(&expected);
            rc = val ? cli_expected_load(val, &expected) : rc;
            ro.expected = &expected;
        } else if (cli_opt("run", argc, argv, &i, "--record", NULL, &val, &rc)) {
            record_dir = val;
        } else if (cli_opt("run", argc, argv, &i, "--redact", NULL, &val, &rc)) {
            if (val)
                redact[nredact++] = val;
        } else if (cli_opt("run", argc, argv, &i, "--filter", NULL, &val, &rc)) {
            struct an_err err = AN_ERR_INIT;
            filter_src = val;
            if (val && an_regex_compile(&filter, val, NULL, &err))
                rc = cli_usage_error("--filter: %s", err.msg);
        } else if (cli_opt("run", argc, argv, &i, "--reporter", "-r", &val, &rc)) {
            if (val)
                rc = cli_reporter_add(&reps, val);
        } else if (cli_opt("run", argc, argv, &i, "--output", "-o", &val, &rc)) {
            if (val)
                rc = cli_reporter_output(&reps, val);
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_option("run", a, usage);
        } else {
            const char *p;
            rc = cli_select_path(&sel, argv[i], &p);
            paths[npaths++] = (char *)p;
        }
    }
    if (rc)
        goto done;
    if (strcmp(color, "auto") && strcmp(color, "always") && strcmp(color, "never")) {
        rc = cli_usage_error("--color takes auto, always or never, not '%s'", color);
        goto done;
    }
    ro.filter = filter;
    ro.tags = sel.tags;
    ro.ntags = sel.ntags;
    ro.exclude_tags = sel.xtags;
    ro.nexclude_tags = sel.nxtags;
    for (size_t k = 0; k < nredact; k++) {
        struct an_regex *re = NULL;
        struct an_err err = AN_ERR_INIT;
        if (an_regex_compile(&re, redact[k], NULL, &err)) {
            rc = cli_usage_error("--redact: %s", err.msg);
            goto done;
        }
        an_regex_free(re);
    }
    ro.redact = redact;
    ro.nredact = nredact;
    if (record_dir && dry) {
        rc = cli_usage_error("--record and --dry-run do not go together: a dry run records "
                             "nothing");
        goto done;
    }
    if (record_dir && !*record_dir) {
        rc = cli_usage_error("--record needs a directory");
        goto done;
    }

    if ((rc = load_all(&suite, config, paths, npaths, &inputs, target_name, model, simulator,
                       dry)))
        goto done;
    if (protocol) /* the command line wins over the config; a type without one ignores it */
        an_suite_target_set(suite, "protocol", protocol, NULL); /* checked above */
    if ((rc = cli_select_apply(&sel, suite, &ro, &nothing)) || nothing)
        goto done;
    if (dry) {
        dry_run(suite, &ro);
        goto done;
    }

    struct run_ctx ctx = {.console = AN_CONSOLE_OPTS_INIT};
    const char *nc = getenv("NO_COLOR");
    bool tty = isatty(STDOUT_FILENO);
    ctx.console.color = !strcmp(color, "always") ||
                        (!strcmp(color, "auto") && tty && !(nc && *nc));
    ctx.console.verbose = verbose;
    ctx.progress = tty;
    ro.keep_transcripts = reps.n > 0 || record_dir;
    ro.keep_frames = verbose >= 2 || record_dir;
    ro.keep_var_values = record_dir != NULL;
    ro.warn = record_warn;
    ro.on_test = on_test;
    ro.on_progress = on_progress;
    ro.ud = &ctx;

    struct an_record_info rinfo = {
        .paths = (const char *const *)paths,
        .npaths = (size_t)npaths,
        .filter = filter_src,
        .shard = shard,
        .parallel = ro.parallel,
        .repeat = ro.repeat,
        .retries = ro.retries,
        .timeout_ms = ro.test_timeout_ms,
        .has_seed = ro.has_seed,
        .seed = ro.seed,
        .redact = redact,
        .nredact = nredact,
        .warn = record_warn,
    };
    if (record_dir) {
        size_t *idx;
        rinfo.nselected = an_run_select(suite, &ro, &idx);
        rinfo.selected = idx;
        /* nothing selected: the run says so (exit 2) and DIR stays untouched */
        if (rinfo.nselected)
            rc = record_open(&rec, record_dir, suite, &rinfo);
        free(idx);
        if (rc)
            goto done;
    }

    cli_cancel_on_signals();
    struct an_err err = AN_ERR_INIT;
    /* target.start: only when a test will run; stopped at done: on every path */
    if (suite->config.target.start && will_run(suite, &ro) &&
        an_start_up(&started, suite->config.target.start, suite->config.dir, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
        if (an_cancelled()) {
            fputs("ananke: interrupted\n", stderr);
            rc = cli_interrupted_exit();
        }
        goto done;
    }
    header(suite, &ro);

    if (an_run_suite(suite, &ro, &result, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        clear_progress(&ctx);
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
        goto done;
    }
    clear_progress(&ctx);
    if (shard)
        result.shard = an_xstrdup(shard);
    if (filter_src)
        result.filter = an_xstrdup(filter_src);
    if (result.ntests == 0 && !result.not_run) {
        fprintf(stderr, "ananke: no test selected (by%s%s%s%s%s%s%s)\n",
                filter_src ? " --filter" : "", sel.ntags ? " --tag" : "",
                sel.nxtags ? " --exclude-tag" : "", sel.nat ? " PATH:LINE" : "",
                sel.last_failed ? " --last-failed" : "", shard ? " --shard" : "",
                suite_has_only(suite) ? " 'only'" : "");
        rc = AN_EXIT_INVALID;
        goto done;
    }
    cli_select_save(suite, &result);
    an_console_summary(stdout, &result, &ctx.console);
    const char *gha = getenv("GITHUB_ACTIONS");
    if (gha && !strcmp(gha, "true"))
        an_report_github(stdout, &result);
    if (result.not_run)
        printf("%zu test%s not run (%s)\n", result.not_run, result.not_run == 1 ? "" : "s",
               an_cancelled() ? "interrupted" : "--fail-fast");
    fflush(stdout);
    if (cli_reporters_write(&reps, &result))
        rc = AN_EXIT_FAIL;
    struct an_counts n = an_run_result_counts(&result);
    /* skipped tests and expected failures never fail a run; stale ones do */
    if (an_counts_failing(&n) || result.not_run)
        rc = AN_EXIT_FAIL;
    if (ro.expected)
        cli_expected_unused(ro.expected);
    if (rec) {
        struct an_err rerr = AN_ERR_INIT;
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        if (an_record_write(rec, &result, !an_cancelled(), &rerr)) {
            fprintf(stderr, "ananke: cannot write the recording (it stays marked incomplete): %s\n",
                    an_err_format(&rerr, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        } else {
            size_t k = an_record_redacted(rec);
            printf("recorded %zu test%s in %s (%zu redaction%s)%s\n", result.ntests,
                   result.ntests == 1 ? "" : "s", record_dir, k, k == 1 ? "" : "s",
                   an_cancelled() ? ", incomplete: the run was interrupted" : "");
            fflush(stdout);
        }
    }
    if (an_cancelled()) {
        fputs("ananke: interrupted\n", stderr);
        rc = cli_interrupted_exit();
    }

done:
    an_start_down(started);
    cli_select_release(&sel);
    an_expected_release(&expected);
    an_record_free(rec);
    free(redact);
    an_run_result_release(&result);
    an_suite_free(suite);
    cli_inputs_release(&inputs);
    an_regex_free(filter);
    free(paths);
    return rc;
}
