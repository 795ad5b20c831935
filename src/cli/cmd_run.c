/* ananke run: load, select, run, report. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/cancel.h"
#include "ananke/clock.h"
#include "ananke/interp.h"
#include "ananke/otlp.h"
#include "ananke/record.h"
#include "ananke/redact.h"
#include "ananke/report.h"
#include "ananke/run.h"
#include "ananke/start.h"
#include "ananke/target_type.h"
#include "ananke/tools.h"
#include "cmd_run.h"

struct run_ctx {
    struct an_console_opts console;
    bool progress;   /* a live progress line (stdout is a terminal) */
    bool line_shown; /* the progress line is on screen now */
    int64_t last_flush;
    struct cli_history *hist;
    struct an_otlp *otlp; /* --otlp, otlp: (NULL: no traces) */
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
    cli_history_note(c->hist, t);
    if (c->otlp)
        an_otlp_add(c->otlp, t);
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
    printf("\r\033[K[%zu/%zu] %zu passed, %zu failed, %zu errors, ", p->done, p->total, p->passed,
           p->failed, p->errors);
    if (p->inconclusive)
        printf("%zu inconclusive, ", p->inconclusive);
    printf("%zu running, %.1fs", p->running, (double)p->elapsed_ms / 1000);
    fflush(stdout);
    c->line_shown = true;
}

/* The config, every PATH and every -i source (generators ask their agent
 * once the config is known). */
static int load_all(struct an_suite **out, struct run_args *a)
{
    int rc;
    struct cli_inputs *in = &a->inputs;
    if (in->save_path && !in->nsrc)
        return cli_usage_error("--save-generated needs -i agents:NAME");
    if ((rc = cli_inputs_prepare(in)))
        return rc;
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.config_path = a->config;
    o.target_name = a->target_name;
    o.model = a->model;
    o.simulator = a->simulator;
    o.check_env = a->dry;
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
    char **all = an_xcalloc((size_t)a->npaths + in->npaths + 1, sizeof *all);
    size_t n = 0;
    for (int i = 0; i < a->npaths; i++)
        all[n++] = a->paths[i];
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
    return an_redactor_for_suite(s, ro->redact, ro->nredact); /* checked already */
}

/* s redacted, in a buffer the next call reuses (for printf). */
static const char *shown_as(const struct an_redactor *r, const char *s)
{
    static char *last;
    free(last);
    last = an_redact_str(r, s);
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
    /* ${ENV...} only: hook variables are per test */
    if (!where || !where->src)
        shown = an_xstrdup(t->type->unnamed ? t->type->unnamed : t->type->name);
    else if (an_interp_env(where->src, &where->loc, &shown, &err)) {
        free(shown);
        shown = an_xstrdup(where->src);
    }
    struct an_redactor *red = own_secrets(s, ro);
    printf("ananke: %zu test%s against %s %s", n, n == 1 ? "" : "s", t->type->name,
           shown_as(red, shown));
    an_redactor_free(red);
    const char *model = t->type->model ? t->type->model(t) : NULL;
    if (model)
        printf(" (model %s)", model);
    if (ro->adaptive)
        printf(", each until decided (at most %u runs)",
               ro->max_repeats ? ro->max_repeats : AN_RUN_MAX_REPEATS);
    else if (ro->repeat > 1)
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
            size_t nck = t->assert ? t->assert->nchecks : 0;
            printf(", %zu assertion%s", nck, nck == 1 ? "" : "s");
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

/* Load, apply the command line and select. *stop: nothing more to do
 * (a dry run listed, --last-failed has nothing to rerun). */
static int prepare(struct run_args *a, struct an_suite **suite, bool *stop)
{
    int rc;
    bool nothing = false;
    if ((rc = load_all(suite, a)))
        return rc;
    if (a->protocol) /* the command line wins over the config; a type without one ignores it */
        an_suite_target_set(*suite, "protocol", a->protocol, NULL); /* checked in run_opts.c */
    if ((rc = cli_select_apply(&a->sel, *suite, &a->ro, &nothing)) || nothing) {
        *stop = true;
        return rc;
    }
    if (a->dry) {
        dry_run(*suite, &a->ro);
        *stop = true;
    }
    return 0;
}

/* The console's options and what the run keeps for the reports. */
static void console_setup(struct run_args *a, struct run_ctx *ctx)
{
    const char *nc = getenv("NO_COLOR");
    bool tty = isatty(STDOUT_FILENO);
    *ctx = (struct run_ctx){.console = AN_CONSOLE_OPTS_INIT};
    ctx->console.color = !strcmp(a->color, "always") ||
                         (!strcmp(a->color, "auto") && tty && !(nc && *nc));
    ctx->console.verbose = a->verbose;
    ctx->console.pass_k = a->ro.pass_k;
    ctx->console.confidence = a->ro.confidence;
    ctx->progress = tty;
    a->ro.keep_transcripts = a->reps.n > 0 || a->record_dir;
    a->ro.drop_messages = !a->record_dir && cli_reporters_no_messages(&a->reps);
    a->ro.keep_frames = a->verbose >= 2 || a->record_dir;
    a->ro.keep_var_values = a->record_dir != NULL;
    a->ro.warn = record_warn;
    a->ro.on_test = on_test;
    a->ro.on_progress = on_progress;
    a->ro.ud = ctx;
}

/* --otlp ENDPOINT or the config's otlp.endpoint: traces (docs/otel.md).
 * 0, or the exit code of an invalid setting. */
static int otlp_start(struct run_args *a, const struct an_suite *suite, struct run_ctx *ctx)
{
    const struct an_otlp_config *oc = &suite->config.otlp;
    if (!a->otlp && !oc->endpoint)
        return 0; /* an otlp: block without an endpoint waits for --otlp */
    struct an_err err = AN_ERR_INIT;
    if (an_otlp_new(&ctx->otlp, oc, a->otlp, NULL, NULL, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        return AN_EXIT_INVALID;
    }
    a->ro.trace = true;
    a->ro.tracestate = oc->tracestate;
    return 0;
}

/* --record DIR: opened before anything runs (nothing selected: the run
 * says so, exit 2, and DIR stays untouched). */
static int record_start(struct run_args *a, struct an_suite *suite, struct an_recorder **rec)
{
    struct an_record_info rinfo = {
        .paths = (const char *const *)a->paths,
        .npaths = (size_t)a->npaths,
        .filter = a->filter_src,
        .shard = a->shard,
        .parallel = a->ro.parallel,
        .repeat = a->ro.repeat,
        .retries = a->ro.retries,
        .timeout_ms = a->ro.test_timeout_ms,
        .has_seed = a->ro.has_seed,
        .seed = a->ro.seed,
        .redact = a->redact,
        .nredact = a->nredact,
        .warn = record_warn,
    };
    int rc = 0;
    size_t *idx;
    rinfo.nselected = an_run_select(suite, &a->ro, &idx);
    rinfo.selected = idx;
    if (rinfo.nselected)
        rc = record_open(rec, a->record_dir, suite, &rinfo);
    free(idx);
    return rc;
}

/* --replay-tools DIR: read before anything runs (a recording that cannot
 * be read is an invalid invocation: exit 2, nothing contacted). */
static int replay_tools_open(const struct run_args *a, const struct an_suite *suite)
{
    struct an_err err = AN_ERR_INIT;
    enum an_replay_miss miss = a->replay_miss && !strcmp(a->replay_miss, "passthrough")
                                   ? AN_REPLAY_MISS_PASSTHROUGH
                                   : AN_REPLAY_MISS_ERROR;
    if (!an_tools_replay_open(a->replay_tools, miss, &suite->config, &err))
        return 0;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
    return AN_EXIT_INVALID;
}

/* target.start: only when a test will run (stopped by the caller on every
 * path). 0, or the exit code of an agent that did not start. */
static int start_agent(struct run_args *a, struct an_suite *suite, struct an_started **started,
                       struct an_tools **tools)
{
    struct an_err err = AN_ERR_INIT;
    if (!will_run(suite, &a->ro))
        return 0;
    /* the tool servers first: target.start may name their URLs */
    if (!an_tools_up(tools, &suite->config, &err) &&
        (!suite->config.target.start ||
         !an_start_up(started, suite->config.target.start, suite->config.dir, &err)))
        return 0;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
    if (an_cancelled()) {
        fputs("ananke: interrupted\n", stderr);
        return cli_interrupted_exit();
    }
    return AN_EXIT_FAIL;
}

/* The agent target.start started ended during the run (not with status 0):
 * said, and the run fails, whatever its tests said. */
static bool agent_died(struct an_started *started)
{
    struct an_err err = AN_ERR_INIT;
    if (!an_start_check(started, &err))
        return false;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
    return true;
}

/* The recording's second half: every test, then "complete". */
static int record_finish(struct an_recorder *rec, const struct an_run_result *result,
                         const char *dir)
{
    struct an_err rerr = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    if (an_record_write(rec, result, !an_cancelled(), &rerr)) {
        fprintf(stderr, "ananke: cannot write the recording (it stays marked incomplete): %s\n",
                an_err_format(&rerr, buf, sizeof buf));
        return AN_EXIT_FAIL;
    }
    size_t k = an_record_redacted(rec);
    printf("recorded %zu test%s in %s (%zu redaction%s)%s\n", result->ntests,
           result->ntests == 1 ? "" : "s", dir, k, k == 1 ? "" : "s",
           an_cancelled() ? ", incomplete: the run was interrupted" : "");
    fflush(stdout);
    return 0;
}

/* --min-tool-coverage: each tool server whose ratio is under it is named
 * on stderr; true when one is. */
static bool tool_coverage_short(const json_t *cov, double min)
{
    bool shortfall = false;
    const char *server;
    json_t *s;
    if (min < 0)
        return false;
    json_object_foreach((json_t *)cov, server, s)
    {
        json_t *ratio = json_object_get(s, "ratio");
        double r = json_is_number(ratio) ? json_number_value(ratio) : 0;
        if (json_is_number(ratio) && r + 1e-9 >= min)
            continue;
        shortfall = true;
        if (!json_is_number(ratio))
            fprintf(stderr,
                    "ananke: tool server '%s' exposes no tool to cover (--min-tool-coverage %g)\n",
                    server, min);
        else
            fprintf(stderr,
                    "ananke: tool server '%s' had %.0f%% of its tools called (ratio %.2f), under "
                    "--min-tool-coverage %g\n",
                    server, r * 100, r, min);
    }
    return shortfall;
}

/* After the run: the summary, the reports, the recording; the exit code. */
static int finish(struct run_args *a, const struct an_suite *suite, struct an_run_result *result,
                  struct run_ctx *ctx, struct an_recorder *rec)
{
    int rc = AN_EXIT_OK;
    result->fail_on_flaky = a->fail_on_flaky;
    if (a->shard)
        result->shard = an_xstrdup(a->shard);
    if (a->filter_src)
        result->filter = an_xstrdup(a->filter_src);
    if (result->ntests == 0 && !result->not_run) {
        const struct cli_select *sel = &a->sel;
        fprintf(stderr, "ananke: no test selected (by%s%s%s%s%s%s%s)\n",
                a->filter_src ? " --filter" : "", sel->ntags ? " --tag" : "",
                sel->nxtags ? " --exclude-tag" : "", sel->nat ? " PATH:LINE" : "",
                sel->last_failed ? " --last-failed" : "", a->shard ? " --shard" : "",
                suite_has_only(suite) ? " 'only'" : "");
        return AN_EXIT_INVALID;
    }
    cli_select_save(suite, result);
    an_console_summary(stdout, result, &ctx->console);
    const char *gha = getenv("GITHUB_ACTIONS");
    if (gha && !strcmp(gha, "true"))
        an_report_github(stdout, result);
    if (result->not_run)
        printf("%zu test%s not run (%s)\n", result->not_run, result->not_run == 1 ? "" : "s",
               an_cancelled() ? "interrupted" : "--fail-fast");
    fflush(stdout);
    if (cli_reporters_write(&a->reps, result))
        rc = AN_EXIT_FAIL;
    struct an_counts n = an_run_result_counts(result);
    if (a->ro.allow_inconclusive)
        n.inconclusive = 0;
    /* skipped tests and expected failures never fail a run; stale ones do */
    if (an_counts_failing(&n) || result->not_run)
        rc = AN_EXIT_FAIL;
    if (a->fail_on_flaky && n.flaky) {
        fprintf(stderr, "ananke: %zu flaky test%s fail%s the run (--fail-on-flaky)\n", n.flaky,
                n.flaky == 1 ? "" : "s", n.flaky == 1 ? "s" : "");
        rc = AN_EXIT_FAIL;
    }
    if (tool_coverage_short(result->tool_coverage, a->min_tool_coverage))
        rc = AN_EXIT_FAIL;
    if (a->ro.expected)
        cli_expected_unused(a->ro.expected);
    if (rec && record_finish(rec, result, a->record_dir))
        rc = AN_EXIT_FAIL;
    if (an_cancelled()) {
        fputs("ananke: interrupted\n", stderr);
        rc = cli_interrupted_exit();
    }
    return rc;
}

/* The tests pass->choose leaves out, taken out of the selection; true when
 * none is left. */
static bool narrow(struct run_args *a, const struct an_suite *suite, struct run_pass *p)
{
    if (!a->sel.chosen) { /* no PATH:LINE: every test so far */
        a->sel.chosen = an_xcalloc(suite->ntests + 1, sizeof *a->sel.chosen);
        for (size_t i = 0; i < suite->ntests; i++)
            a->sel.chosen[i] = true;
    }
    for (size_t i = 0; i < suite->ntests; i++)
        if (a->sel.chosen[i] && !p->choose(&suite->tests[i], p->ud))
            a->sel.chosen[i] = false;
    a->ro.chosen = a->sel.chosen;
    size_t *idx;
    size_t n = an_run_select(suite, &a->ro, &idx);
    free(idx);
    return n == 0;
}

/* Tell the pass each test that ran and how it ended (results are in
 * selection order, one per selected test). */
static void report_ran(struct run_args *a, const struct an_suite *suite,
                       const struct an_run_result *result, struct run_pass *p)
{
    size_t *idx;
    size_t n = an_run_select(suite, &a->ro, &idx);
    for (size_t k = 0; k < n && k < result->ntests; k++)
        p->ran(&suite->tests[idx[k]], &result->tests[k], p->ud);
    free(idx);
}

int run_once(struct run_args *a, int argc, char **argv, struct run_pass *p)
{
    struct an_suite *suite = NULL;
    struct an_run_result result = {0};
    struct an_recorder *rec = NULL;
    struct an_started *started = NULL;
    struct an_tools *tools = NULL;
    struct run_ctx ctx = {0};
    struct an_err err = AN_ERR_INIT;
    struct cli_history hist = {0};
    bool stop = false;

    if (p) { /* a mask of the last pass would not fit this suite */
        free(a->sel.chosen);
        a->sel.chosen = NULL;
        a->ro.chosen = NULL;
    }
    int rc = prepare(a, &suite, &stop);
    if (rc || stop)
        goto done;
    if (p && p->choose && (p->nothing = narrow(a, suite, p)))
        goto done;
    if (a->min_tool_coverage >= 0 && !suite->config.ntool_servers) {
        rc = cli_usage_error("--min-tool-coverage needs tool servers (the config has no "
                             "'tool_servers')");
        goto done;
    }
    if (a->replay_tools && (rc = replay_tools_open(a, suite)))
        goto done;
    console_setup(a, &ctx);
    /* tool coverage is read from the turns' server_calls once the run is over */
    a->ro.keep_transcripts |= suite->config.ntool_servers > 0;
    cli_history_start(&hist, a->history, a->no_history);
    ctx.hist = &hist;
    if ((rc = otlp_start(a, suite, &ctx)))
        goto done;
    if (a->record_dir && (rc = record_start(a, suite, &rec)))
        goto done;
    cli_cancel_on_signals();
    if ((rc = start_agent(a, suite, &started, &tools)))
        goto done;
    header(suite, &a->ro);
    cli_history_prepare(&hist, suite->config.dir);
    if (an_run_suite(suite, &a->ro, &result, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        clear_progress(&ctx);
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
        goto done;
    }
    clear_progress(&ctx);
    result.tool_coverage = an_tools_coverage(tools, suite, &result);
    rc = finish(a, suite, &result, &ctx, rec);
    if (agent_died(started) && rc == AN_EXIT_OK)
        rc = AN_EXIT_FAIL;
    an_otlp_flush(ctx.otlp); /* a failed export warns; the exit code stays */
    if (p && p->ran)
        report_ran(a, suite, &result, p);
    if (result.ntests) {
        struct cli_history_run hr = {.kind = "run",
                                     .argc = argc,
                                     .argv = argv,
                                     .project_dir = suite->config.dir,
                                     .suite = suite,
                                     .redact = a->redact,
                                     .nredact = a->nredact,
                                     .recording = a->record_dir};
        cli_history_finish(&hist, &hr, &result);
    }

done:
    an_otlp_free(ctx.otlp);
    cli_history_release(&hist);
    an_start_down(started);
    an_tools_down(tools);
    an_tools_replay_close();
    an_record_free(rec);
    an_run_result_release(&result);
    if (p) {
        p->suite = suite;
        suite = NULL;
    }
    an_suite_free(suite);
    return rc;
}

int cmd_run(int argc, char **argv)
{
    struct run_args a;
    bool helped = false;
    int rc = run_args_parse(&a, argc, argv, &helped);
    if (!rc && !helped)
        rc = a.watch ? cmd_watch(&a, argc, argv) : run_once(&a, argc, argv, NULL);
    run_args_release(&a);
    return rc;
}
