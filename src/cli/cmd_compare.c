/* ananke compare: two recorded runs → an evidence pack and a CI gate. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ananke/report.h"
#include "cli.h"
#include "ananke/text.h"

static const char USAGE[] =
    "usage: ananke compare BASELINE_DIR NEW_DIR -o REPORT_DIR [options]\n\n"
    "Compares two recorded runs (made with 'ananke run --record DIR') case by\n"
    "case and writes a portable evidence pack into REPORT_DIR: report.html,\n"
    "one case-<id>.html replay diff per case, compare-report.json (the verdicts\n"
    "for machines; CI reads items[].gate_recommendation), raw copies of the\n"
    "recorded files, repro commands and artifacts/manifest.json with every\n"
    "file's SHA-256. The two runs are only read.\n\n"
    "options:\n"
    "  -o, --output DIR         the report directory (required); a previous report\n"
    "                           there is replaced, any other non-empty directory\n"
    "                           is refused, as is one inside an input\n"
    "      --fail-on GATE       exit 1 when a case's gate is GATE or worse: block,\n"
    "                           or require_approval (default: the gate never sets\n"
    "                           the exit code)\n"
    "      --redact WHAT        scrub every file of the pack: pii (e-mails, phone\n"
    "                           numbers, SSNs), secrets (sk- keys, bearer tokens,\n"
    "                           api_key=...) or a regex; repeatable. Secrets the\n"
    "                           recorded targets take from ${ENV.NAME} are always\n"
    "                           scrubbed when NAME is set.\n"
    "      --alpha A            significance level for cases repeated on both sides\n"
    "                           (--repeat): a pass-rate drop is a regression when\n"
    "                           Fisher's exact test (one-sided) gives p <= A\n"
    "                           (default 0.05; 0.01 or 1%%)\n"
    "      --gate-on WHAT       significant (default): only a significant drop of a\n"
    "                           repeated case gates; any-drop: every drop does\n"
    "      --max-slowdown S     flag (and gate require_approval) a repeated case\n"
    "                           whose median duration or token usage grew by more\n"
    "                           than S of the baseline's, with confidence 1 - alpha\n"
    "                           (a share: 0.5 or 50%%; default: not checked)\n"
    "      --report-id ID       the report's id (default: from the run ids and time)\n"
    "      --color WHEN         auto (default), always, never\n"
    "  -h, --help               this help\n\n"
    "A case that passed in the baseline and fails, errors or is missing now is a\n"
    "regression: its gate is at least require_approval. A case repeated on both\n"
    "sides is judged by its pass rates instead (docs/compare.md).\n"
    "exit: 0 the report was written (and no case reached --fail-on), 1 a case\n"
    "reached the --fail-on gate, 2 invalid invocation or input, or the report\n"
    "could not be written.\n";

#define MAX_REDACT 32

/* A share: "0.05" or "5%"; in (0, max]. -1 when it is not one. */
static double parse_share(const char *s, double max)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (!errno && end != s && !strcmp(end, "%"))
        v /= 100;
    else if (errno || end == s || *end)
        return -1;
    return isfinite(v) && v > 0 && v <= max ? v : -1;
}

/* A case repeated on both sides: its pass counts, p-value and verdict. */
static void repeat_line(FILE *out, bool color, const struct an_compare_case *k, double alpha)
{
    char *id = an_text_shown(k->case_id, 200);
    bool drop = (unsigned long long)k->new_passes * k->baseline_runs <
                (unsigned long long)k->baseline_passes * k->new_runs;
    const char *word = k->change == AN_CHANGE_REGRESSION    ? "REGRESSION"
                       : k->change == AN_CHANGE_IMPROVEMENT ? "IMPROVED"
                       : drop                               ? "DROP"
                                                            : "SLOWER";
    const char *on = k->change == AN_CHANGE_IMPROVEMENT  ? "\x1b[32m"
                     : k->change == AN_CHANGE_REGRESSION ? "\x1b[31m"
                                                         : "\x1b[33m";
    fprintf(out, "%s%-11s%s%s: %u/%u -> %u/%u runs passed, %s (p = %.3g%s, alpha %g)",
            color ? on : "", word, color ? "\x1b[0m" : "", id, k->baseline_passes, k->baseline_runs,
            k->new_passes, k->new_runs, k->significant ? "significant" : "not significant",
            k->p_value, drop ? " one-sided" : "", alpha);
    if (k->slower)
        fputs(", median duration beyond --max-slowdown", out);
    if (k->more_tokens)
        fputs(", median token usage beyond --max-slowdown", out);
    if (k->gate != AN_GATE_NONE)
        fprintf(out, ", gate %s", an_gate_name(k->gate));
    fputc('\n', out);
    free(id);
}

static void line(FILE *out, bool color, const char *color_on, const char *word,
                 const struct an_compare_case *k)
{
    char *id = an_text_shown(k->case_id, 200);
    fprintf(out, "%s%-11s%s%s: %s -> %s", color ? color_on : "", word, color ? "\x1b[0m" : "", id,
            k->baseline_status, k->new_status);
    if (k->new_root && k->change == AN_CHANGE_REGRESSION)
        fprintf(out, " (%s)", k->new_root);
    if (k->gate != AN_GATE_NONE)
        fprintf(out, ", gate %s", an_gate_name(k->gate));
    fputc('\n', out);
    free(id);
}

static void on_warning(void *ud, const char *msg)
{
    (void)ud;
    fprintf(stderr, "ananke: warning: %s\n", msg);
}

static void usage(void)
{
    fputs(USAGE, stdout);
}

int cmd_compare(int argc, char **argv)
{
    const char *dirs[2] = {NULL, NULL}, *out_dir = NULL, *fail_on = NULL, *color = "auto";
    const char *redact[MAX_REDACT];
    struct an_compare_opts o = AN_COMPARE_OPTS_INIT;
    struct an_compare *c = NULL;
    int ndirs = 0, rc = 0;
    size_t nredact = 0;
    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            fputs(USAGE, stdout);
            return AN_EXIT_OK;
        } else if (cli_opt("compare", argc, argv, &i, "--output", "-o", &v, &rc)) {
            out_dir = v;
        } else if (cli_opt("compare", argc, argv, &i, "--fail-on", NULL, &v, &rc)) {
            fail_on = v;
            if (v && strcmp(v, "block") && strcmp(v, "require_approval"))
                rc = cli_usage_error("--fail-on takes block or require_approval, not '%s'", v);
        } else if (cli_opt("compare", argc, argv, &i, "--redact", NULL, &v, &rc)) {
            if (v && nredact == MAX_REDACT)
                rc = cli_usage_error("at most %d --redact options", MAX_REDACT);
            else if (v)
                redact[nredact++] = v;
        } else if (cli_opt("compare", argc, argv, &i, "--alpha", NULL, &v, &rc)) {
            if (v && (o.alpha = parse_share(v, 0.5)) < 0)
                rc = cli_usage_error("--alpha takes a level above 0 and at most 0.5 (0.05 or "
                                     "5%%), not '%s'",
                                     v);
        } else if (cli_opt("compare", argc, argv, &i, "--gate-on", NULL, &v, &rc)) {
            if (v && strcmp(v, "significant") && strcmp(v, "any-drop"))
                rc = cli_usage_error("--gate-on takes significant or any-drop, not '%s'", v);
            o.gate_any_drop = v && !strcmp(v, "any-drop");
        } else if (cli_opt("compare", argc, argv, &i, "--max-slowdown", NULL, &v, &rc)) {
            if (v && (o.max_slowdown = parse_share(v, 1e6)) < 0)
                rc = cli_usage_error("--max-slowdown takes a share above 0 (0.5 or 50%%), "
                                     "not '%s'",
                                     v);
        } else if (cli_opt("compare", argc, argv, &i, "--report-id", NULL, &v, &rc)) {
            o.report_id = v;
        } else if (cli_opt("compare", argc, argv, &i, "--color", NULL, &v, &rc)) {
            color = v;
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_option("compare", a, usage);
        } else if (ndirs < 2) {
            dirs[ndirs++] = a;
        } else {
            rc = cli_usage_error("compare takes two directories, BASELINE_DIR and NEW_DIR; "
                                 "'%s' is a third (see 'ananke compare --help')",
                                 a);
        }
    }
    if (rc)
        return rc;
    if (ndirs < 2)
        return cli_usage_error("compare needs BASELINE_DIR and NEW_DIR (see 'ananke compare "
                               "--help')");
    if (!out_dir)
        return cli_usage_error("compare needs -o REPORT_DIR (see 'ananke compare --help')");
    o.redact = redact;
    o.nredact = nredact;
    o.on_warning = on_warning;

    struct an_err err = AN_ERR_INIT;
    char msg[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    if (an_compare_load(&c, dirs[0], dirs[1], &o, &err) || an_compare_write(c, out_dir, &err)) {
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, msg, sizeof msg));
        an_compare_free(c);
        return AN_EXIT_INVALID;
    }
    const char *nc = getenv("NO_COLOR");
    bool col = !strcmp(color, "always") ||
               (!strcmp(color, "auto") && isatty(STDOUT_FILENO) && !(nc && *nc));
    int threshold = !fail_on                    ? AN_GATE_BLOCK + 1
                    : !strcmp(fail_on, "block") ? AN_GATE_BLOCK
                                                : AN_GATE_REQUIRE_APPROVAL;
    size_t n = an_compare_ncases(c), reg = 0, imp = 0, block = 0, appr = 0, reached = 0;
    for (size_t i = 0; i < n; i++) {
        struct an_compare_case k;
        an_compare_case_at(c, i, &k);
        bool drop = k.repeated && (unsigned long long)k.new_passes * k.baseline_runs <
                                      (unsigned long long)k.baseline_passes * k.new_runs;
        if (k.repeated && (k.change != AN_CHANGE_NONE || drop || k.slower || k.more_tokens))
            repeat_line(stdout, col, &k, o.alpha);
        if (k.repeated) {
            reg += k.change == AN_CHANGE_REGRESSION;
            imp += k.change == AN_CHANGE_IMPROVEMENT;
        } else if (k.change == AN_CHANGE_REGRESSION) {
            line(stdout, col, "\x1b[31m", "REGRESSION", &k);
            reg++;
        } else if (k.change == AN_CHANGE_IMPROVEMENT) {
            line(stdout, col, "\x1b[32m", "IMPROVED", &k);
            imp++;
        }
        block += k.gate == AN_GATE_BLOCK;
        appr += k.gate == AN_GATE_REQUIRE_APPROVAL;
        reached += (int)k.gate >= threshold;
    }
    printf("compare: %zu case%s, %zu regression%s, %zu improvement%s; gate: %zu block, "
           "%zu require_approval\n",
           n, n == 1 ? "" : "s", reg, reg == 1 ? "" : "s", imp, imp == 1 ? "" : "s", block, appr);
    char *cov = an_compare_tool_coverage_text(c);
    if (cov)
        fputs(cov, stdout);
    free(cov);
    const char *sep = out_dir[strlen(out_dir) - 1] == '/' ? "" : "/";
    printf("compare report: %s%scompare-report.json\nhtml report: %s%sreport.html\n", out_dir, sep,
           out_dir, sep);
    if (reached)
        printf("%zu case%s reached the --fail-on %s gate\n", reached, reached == 1 ? "" : "s",
               fail_on);
    an_compare_free(c);
    return reached ? AN_EXIT_FAIL : AN_EXIT_OK;
}
