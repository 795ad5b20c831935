/* ananke comply: the command line of a compliance run. The suite, its
 * agents and its scheduling are the library's (ananke/comply_run.h); this
 * file parses options (one table row each), picks the default suite and
 * writes the reports. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ananke/cancel.h"
#include "ananke/comply.h"
#include "ananke/comply_run.h"
#include "ananke/datadir.h"
#include "ananke/regex.h"
#include "cli.h"

/* Every value of the command line; strings are borrowed from argv. */
struct comply_args {
    const char *settings, *protocol, *confine, *spec, *binding, *xfail;
    bool list, keep, network, inherit_env;
    bool merge;          /* --merge: the paths are comply JSON results */
    bool conf_given;     /* a confinement option: refused for AG-UI */
    const char *history; /* --history FILE */
    bool no_history;     /* --no-history */
    double scale;
    size_t max_event, max_turn; /* AG-UI caps; 0: the defaults */
    size_t max_msgs;            /* ACP, MCP: --max-messages; 0: the default */
    unsigned jobs;
    int verbose;
    const char **paths, **ids, **pick, **specs, **confine_paths, **redact;
    size_t npaths, nids, npick, nspecs, nconfine_paths, nredact;
    struct cli_reporters reps;
};

#define ARGS(ctx) ((struct comply_args *)(ctx))

/* *list (with *n entries) gets v at its end */
static void append(const char ***list, size_t *n, const char *v)
{
    *list = an_xrealloc(*list, (*n + 1) * sizeof **list);
    (*list)[(*n)++] = v;
}

static int copt_verbose(void *c, const char *v)
{
    (void)v;
    ARGS(c)->verbose++;
    return 0;
}

static int copt_network(void *c, const char *v)
{
    (void)v;
    ARGS(c)->network = ARGS(c)->conf_given = true;
    return 0;
}

static int copt_inherit_env(void *c, const char *v)
{
    (void)v;
    ARGS(c)->inherit_env = ARGS(c)->conf_given = true;
    return 0;
}

static int copt_confine(void *c, const char *v)
{
    ARGS(c)->conf_given = true;
    ARGS(c)->confine = v;
    if (!an_comply_confine_valid(v))
        return cli_usage_error("--confine takes terminals, agent, required or none, not '%s'", v);
    return 0;
}

static int copt_confine_paths(void *c, const char *v)
{
    struct comply_args *a = c;
    a->conf_given = true;
    if (v[0] != '/')
        return cli_usage_error("--confine-paths takes an absolute path, not '%s'", v);
    if (a->nconfine_paths == AN_COMPLY_MAX_CONFINE_PATHS)
        return cli_usage_error("at most %d --confine-paths", AN_COMPLY_MAX_CONFINE_PATHS);
    append(&a->confine_paths, &a->nconfine_paths, v);
    return 0;
}

static int copt_redact(void *c, const char *v)
{
    struct an_regex *re = NULL;
    struct an_err err = AN_ERR_INIT;
    int rc = an_regex_compile(&re, v, NULL, &err);
    an_regex_free(re);
    if (rc)
        return cli_usage_error("--redact: %s", err.msg);
    append(&ARGS(c)->redact, &ARGS(c)->nredact, v);
    return 0;
}

static int copt_jobs(void *c, const char *v)
{
    char *end = NULL;
    unsigned long n = strtoul(v, &end, 10);
    if (end == v || *end || n < 1 || n > 64)
        return cli_usage_error("--jobs takes 1 to 64, not '%s'", v);
    ARGS(c)->jobs = (unsigned)n;
    return 0;
}

static int copt_timeout_scale(void *c, const char *v)
{
    char *end = NULL;
    double f = strtod(v, &end);
    ARGS(c)->scale = f;
    if (end == v || *end || !(f > 0 && f <= 100))
        return cli_usage_error("--timeout-scale takes a factor above 0, e.g. 0.5, not '%s'", v);
    return 0;
}

/* A byte count of at least 1 (a cap): 0 or an error message (exit 2). */
static int parse_bytes(const char *name, const char *val, size_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(val, &end, 10);
    if (end == val || *end || errno || v < 1 || val[0] == '-' || v > SIZE_MAX / 2)
        return cli_usage_error("%s takes a number of bytes of at least 1, not '%s'", name, val);
    *out = (size_t)v;
    return 0;
}

static int copt_max_event_bytes(void *c, const char *v)
{
    return parse_bytes("--max-event-bytes", v, &ARGS(c)->max_event);
}

static int copt_max_turn_bytes(void *c, const char *v)
{
    return parse_bytes("--max-turn-bytes", v, &ARGS(c)->max_turn);
}

static int copt_max_messages(void *c, const char *v)
{
    char *end = NULL;
    errno = 0;
    unsigned long long n = strtoull(v, &end, 10);
    if (end == v || *end || errno || n < 1 || v[0] == '-' || n > 100000000ULL)
        return cli_usage_error("--max-messages takes a number of messages (1 to 100000000), "
                               "not '%s'",
                               v);
    ARGS(c)->max_msgs = (size_t)n;
    return 0;
}

/* NAME=COMMAND (NAME=URL) is an agent of its own, NAME one of --settings */
static int copt_agent(void *c, const char *v)
{
    struct comply_args *a = c;
    if (strchr(v, '='))
        append(&a->specs, &a->nspecs, v);
    else
        append(&a->pick, &a->npick, v);
    return 0;
}

static int copt_test(void *c, const char *v)
{
    append(&ARGS(c)->ids, &ARGS(c)->nids, v);
    return 0;
}

static int copt_reporter(void *c, const char *v)
{
    return cli_reporter_add_comply(&ARGS(c)->reps, v);
}

static void reporters_help(void)
{
    cli_reporters_help(true);
}

/* The protocol table's names joined by sep ("acp|agui|mcp"); the last one
 * by last when given ("acp, agui or mcp"). */
static void join_protocols(char *b, size_t cap, const char *sep, const char *last)
{
    size_t len = 0, n = an_comply_protocol_count();
    b[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        const char *s = i == 0 ? "" : i + 1 == n && last ? last : sep;
        int w = snprintf(b + len, cap - len, "%s%s", s, an_comply_protocol_at(i)->name);
        if (w < 0 || (size_t)w >= cap - len)
            break;
        len += (size_t)w;
    }
}

static char protocol_names[128]; /* --protocol's ARG in the help, filled by cmd_comply */

static const struct cli_option options[] = {
    {.name = "--protocol",
     .alias = NULL,
     .arg = protocol_names, /* "acp|agui|mcp", from the protocol table */
     .help = "the protocol (default acp); mcp: COMMAND is an\n"
             "MCP server over stdio, a URL its Streamable HTTP endpoint",
     .field = offsetof(struct comply_args, protocol)},
    {.name = "--agent",
     .alias = "-a",
     .arg = "NAME=COMMAND",
     .help = "an agent to test: COMMAND is run by /bin/sh; repeatable",
     .handle = copt_agent},
    {.name = "--agent",
     .alias = "-a",
     .arg = "NAME=URL",
     .help = "with --protocol agui: an AG-UI endpoint (http or https);\n"
             "with --protocol a2a: the agent's base URL; with --protocol\n"
             "mcp: an MCP server's Streamable HTTP endpoint; repeatable",
     .help_only = true},
    {.name = "--agent",
     .alias = "-a",
     .arg = "NAME",
     .help = "pick an agent of the --settings file; repeatable",
     .help_only = true},
    {.name = "--settings",
     .alias = NULL,
     .arg = "FILE",
     .help = "agents in the editors' shape:\n"
             "{\"agent_servers\": {NAME: {\"command\", \"args\", \"env\"}}}",
     .field = offsetof(struct comply_args, settings)},
    {.name = "--test",
     .alias = "-t",
     .arg = "ID",
     .help = "run only this test (the file name without .jsont);\n"
             "repeatable",
     .handle = copt_test},
    {.name = "--spec",
     .alias = NULL,
     .arg = "REV",
     .help = "judge every agent at this spec revision (the suite's\n"
             "requirements/REV.json); default: the newest, or for an\n"
             "agent that says which it speaks (MCP), that one",
     .field = offsetof(struct comply_args, spec)},
    {.name = "--expected-failures",
     .alias = NULL,
     .arg = "FILE",
     .help = "a YAML map of agent name to the test or requirement ids\n"
             "it is known to fail (`ID` or `ID: reason`): such a test\n"
             "that fails is XFAIL, one that passes STALE (fails the run)",
     .field = offsetof(struct comply_args, xfail)},
    {.name = "--binding",
     .alias = NULL,
     .arg = "jsonrpc|rest",
     .help = "a2a: the protocol binding spoken: JSON-RPC, or\n"
             "HTTP+JSON (default: what the card offers; both, one\n"
             "run each, when it offers both)",
     .field = offsetof(struct comply_args, binding)},
    {.name = "--list-tests",
     .alias = NULL,
     .arg = NULL,
     .help = "print 'ID - title' for each test and exit",
     .field = offsetof(struct comply_args, list)},
    {.name = "--merge",
     .alias = NULL,
     .arg = NULL,
     .help = "run nothing: the paths are comply JSON results\n"
             "(-r json:PATH), joined into one HTML page with\n"
             "-r html:PATH (docs/comply.md \"One page for all\")",
     .field = offsetof(struct comply_args, merge)},
    {.name = "--jobs",
     .alias = "-j",
     .arg = "N",
     .help = "run N tests at once (each has its own agent and\n"
             "sandbox); the report is the same (default 1)",
     .handle = copt_jobs},
    {.name = "--timeout-scale",
     .alias = NULL,
     .arg = "F",
     .help = "multiply every expect/forbid window (AG-UI: every\n"
             "step's window) by F (a scripted agent answers at once\n"
             "or never: 0.3 saves waiting)",
     .handle = copt_timeout_scale},
    {.name = "--max-event-bytes",
     .alias = NULL,
     .arg = "N",
     .help = "AG-UI: the largest SSE event a step may get (default\n"
             "16 MiB); past it the step is an ERROR naming it",
     .handle = copt_max_event_bytes},
    {.name = "--max-turn-bytes",
     .alias = NULL,
     .arg = "N",
     .help = "AG-UI: the largest answer to one step (default 64 MiB)",
     .handle = copt_max_turn_bytes},
    {.name = "--max-messages",
     .alias = NULL,
     .arg = "N",
     .help = "ACP, MCP: the agent's messages one test reads, and one\n"
             "HTTP answer's (default 10000); past it the test FAILs\n"
             "naming it",
     .handle = copt_max_messages},
    {.name = "--keep-sandbox",
     .alias = NULL,
     .arg = NULL,
     .help = "keep each test's sandbox directory (paths on stderr; ACP)",
     .field = offsetof(struct comply_args, keep)},
    {.name = "--confine",
     .alias = NULL,
     .arg = "MODE",
     .help = "what runs in Linux namespaces: terminals (default),\n"
             "agent, required (agent, and an error where it\n"
             "cannot be) or none; settings: \"confine\"",
     .handle = copt_confine},
    {.name = "--confine-paths",
     .alias = NULL,
     .arg = "PATH",
     .help = "bound read-only in the confinement (absolute);\n"
             "repeatable; settings: \"confine_paths\"",
     .handle = copt_confine_paths},
    {.name = "--network",
     .alias = NULL,
     .arg = NULL,
     .help = "confined children keep the host's network;\n"
             "settings: \"network\"",
     .handle = copt_network},
    {.name = "--inherit-env",
     .alias = NULL,
     .arg = NULL,
     .help = "the agent and its terminals get ananke's whole\n"
             "environment, not PATH, HOME (the sandbox), TMPDIR,\n"
             "LANG, TERM and the agent's env; settings: \"inherit_env\"",
     .handle = copt_inherit_env},
    {.name = "--redact",
     .alias = NULL,
     .arg = "REGEX",
     .help = "also redact every match of REGEX in every output;\n"
             "repeatable",
     .handle = copt_redact},
    {.name = "--history",
     .alias = NULL,
     .arg = "FILE",
     .help = "append the run to the history database FILE (default:\n"
             ".ananke/history.sqlite in the current directory)",
     .field = offsetof(struct comply_args, history)},
    {.name = "--no-history",
     .alias = NULL,
     .arg = NULL,
     .help = "keep this run out of the history (as ANANKE_HISTORY=0)",
     .field = offsetof(struct comply_args, no_history)},
    {.name = "--reporter",
     .alias = "-r",
     .arg = "NAME:PATH",
     .help = "also write a report (repeatable; PATH '-' = stdout),\n"
             "NAME one of:",
     .handle = copt_reporter,
     .more = reporters_help},
    {.name = "--verbose",
     .alias = "-v",
     .arg = NULL,
     .help = "every frame in and out on stderr",
     .handle = copt_verbose},
    CLI_OPT_HELP,
};

static void usage(void)
{
    /* the default suites, from the protocol table */
    char text[1024];
    size_t len = 0, n = an_comply_protocol_count();
    for (size_t i = 0; i < n; i++) {
        const struct an_comply_protocol_info *p = an_comply_protocol_at(i);
        int w = i == 0 ? snprintf(text, sizeof text,
                                  "Runs .jsont compliance tests (default: the *.jsont files in %s",
                                  p->suite)
                       : snprintf(text + len, sizeof text - len, "%s%s with --protocol %s",
                                  i == 1 ? ", or " : ", ", p->suite, p->name);
        if (w < 0 || (size_t)w >= sizeof text - len)
            break;
        len += (size_t)w;
    }
    snprintf(text + len, sizeof text - len,
             ", under the current directory; else the installed suites in "
             "<bindir>/../share/ananke/compliance) against each agent and writes a Markdown "
             "report to stdout.");
    puts("usage: ananke comply [options] [SUITE_DIR_OR_FILE...]\n");
    cli_help_wrap(0, 0, text);
    puts("\noptions:");
    cli_options_help(options, sizeof options / sizeof *options);
    puts("\n"
         "exit: 0 every required test passed for every agent, 1 a required test failed,\n"
         "2 invalid invocation, settings or test file, or no test found.");
}

static int positional(void *c, const char *arg)
{
    append(&ARGS(c)->paths, &ARGS(c)->npaths, arg);
    return 0;
}

static const struct cli_command command = {
    .name = "comply",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .usage = usage,
    .positional = positional,
};

/* The options that go together, once every one is read. */
static int check(const struct comply_args *a)
{
    const char *p = a->protocol;
    const struct an_comply_protocol_info *proto = an_comply_protocol_find(p);
    if (!proto) {
        char names[128];
        join_protocols(names, sizeof names, ", ", " or ");
        return cli_usage_error("--protocol takes %s, not '%s'", names, p);
    }
    /* AG-UI's: agents that are endpoints, the caps of an HTTP answer */
    bool agui = proto->endpoint;
    if (agui && (a->settings || a->npick))
        return cli_usage_error("--protocol %s: agents are endpoints, give --agent NAME=URL "
                               "(--settings describes ACP agents)",
                               p);
    if (!agui && (a->max_event || a->max_turn))
        return cli_usage_error("--max-event-bytes, --max-turn-bytes: for --protocol agui only");
    if (agui && a->max_msgs)
        return cli_usage_error("--max-messages: for --protocol acp and mcp (AG-UI and A2A "
                               "answers are capped by --max-turn-bytes)");
    if (a->binding && strcmp(p, "a2a"))
        return cli_usage_error("--binding: for --protocol a2a only");
    if (a->binding && strcmp(a->binding, "jsonrpc") && strcmp(a->binding, "rest"))
        return cli_usage_error("--binding takes jsonrpc or rest, not '%s'", a->binding);
    if (agui && a->keep)
        return cli_usage_error("--keep-sandbox: AG-UI tests have no sandbox");
    if (agui && a->conf_given)
        return cli_usage_error("--confine, --confine-paths, --network, --inherit-env: AG-UI "
                               "agents are endpoints ananke does not start");
    return 0;
}

static void say_error(const char *msg, void *ud)
{
    (void)ud;
    fprintf(stderr, "ananke: %s\n", msg);
}

/* The plan's options from the command line; with no path, the protocol's
 * suite: ./compliance/PROTO in a checkout, else the installed one
 * (*installed, freed by the caller). */
static void plan_opts(struct comply_args *a, struct an_comply_plan_opts *o, char **installed)
{
    if (a->npaths == 0) {
        const char *def = an_comply_protocol_find(a->protocol)->suite;
        struct stat st;
        if (stat(def, &st) != 0 && (*installed = an_datadir_path(def)))
            def = *installed;
        append(&a->paths, &a->npaths, def);
    }
    *o = (struct an_comply_plan_opts){
        .protocol = a->protocol,
        .paths = a->paths,
        .npaths = a->npaths,
        .ids = a->ids,
        .nids = a->nids,
        .spec = a->spec,
        .binding = a->binding,
        .expected_failures = a->xfail,
        .agents = a->specs,
        .nagents = a->nspecs,
        .settings = a->settings,
        .pick = a->pick,
        .npick = a->npick,
        .confine = a->confine,
        .confine_paths = a->confine_paths,
        .nconfine_paths = a->nconfine_paths,
        .network = a->network,
        .inherit_env = a->inherit_env,
        .redact = a->redact,
        .nredact = a->nredact,
        .jobs = a->jobs,
        .keep_sandbox = a->keep,
        .timeout_scale = a->scale,
        .max_event_bytes = a->max_event,
        .max_turn_bytes = a->max_turn,
        .max_messages = a->max_msgs,
        .verbose = a->verbose,
        .log = stderr,
        .on_error = say_error,
    };
}

/* The Markdown report on stdout, the asked ones, the totals; the exit code. */
static int report(const struct comply_args *a, const struct an_comply_result *res)
{
    int rc = AN_EXIT_OK;
    struct an_err err = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    if (an_report_comply_md(res, "-", &err)) {
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
    }
    if (cli_reporters_write_comply(&a->reps, res))
        rc = AN_EXIT_FAIL;
    size_t p, f, na, rf, xf, st, sk;
    an_comply_counts(res, &p, &f, &na, &rf);
    an_comply_xcounts(res, &xf, &st, &sk);
    fprintf(stderr, "comply: %zu passed, %zu failed (%zu required), %zu NA", p, f, rf - st, na);
    if (xf || st)
        fprintf(stderr, ", %zu XFAIL, %zu STALE", xf, st);
    if (sk)
        fprintf(stderr, ", %zu SKIP", sk);
    fputc('\n', stderr);
    if (rf)
        rc = AN_EXIT_FAIL;
    if (an_cancelled()) {
        fputs("ananke: interrupted\n", stderr);
        rc = cli_interrupted_exit();
    }
    return rc;
}

static void args_release(struct comply_args *a)
{
    free(a->paths);
    free(a->ids);
    free(a->pick);
    free(a->specs);
    free(a->confine_paths);
    free(a->redact);
}

int cmd_comply(int argc, char **argv)
{
    struct comply_args a = {.protocol = "acp", .jobs = 1};
    struct an_comply_plan_opts o;
    struct an_comply_plan *plan = NULL;
    struct an_comply_result res = {0};
    char *installed = NULL; /* the installed default suite's path */
    bool helped = false;

    join_protocols(protocol_names, sizeof protocol_names, "|", NULL);
    int rc = cli_parse(&command, argc, argv, &a, &helped);
    if (!rc && !helped && a.merge) {
        rc = cli_comply_merge(a.paths, a.npaths, &a.reps);
        goto done;
    }
    if (rc || helped || (rc = check(&a)))
        goto done;
    plan_opts(&a, &o, &installed);
    if ((rc = an_comply_plan_new(&plan, &o))) {
        rc = AN_EXIT_INVALID;
        goto done;
    }
    if (a.list) {
        for (size_t i = 0; i < an_comply_plan_ntests(plan); i++)
            printf("%s - %s\n", an_comply_plan_test_id(plan, i),
                   an_comply_plan_test_title(plan, i));
        goto done;
    }
    if (an_comply_plan_agents(plan)) {
        rc = AN_EXIT_INVALID;
        goto done;
    }
    cli_cancel_on_signals();
    struct cli_history hist;
    cli_history_start(&hist, a.history, a.no_history);
    an_comply_plan_run(plan, &res);
    rc = report(&a, &res);
    cli_history_comply(&hist, argc, argv, a.redact, a.nredact, &res);
    cli_history_release(&hist);

done:
    an_comply_plan_free(plan);
    an_comply_result_release(&res);
    free(installed);
    args_release(&a);
    return rc;
}
