/* ananke view: the run history in the browser (docs/view.md). The server is the library's
 * (ananke/view.h); this command finds the database, prints the address, and waits for Ctrl-C or
 * SIGTERM. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/view.h"
#include "cli.h"

struct view_args {
    const char *config, *history, *bind;
    unsigned port;
    bool port_set;
};

#define VARGS(ctx) ((struct view_args *)(ctx))

static int vopt_port(void *c, const char *v)
{
    char *end;
    errno = 0;
    unsigned long n = strtoul(v, &end, 10);
    if (!*v || *end || errno || n > 65535 || v[0] == '-')
        return cli_usage_error("--port takes a port from 0 to 65535 (0: a free one), not '%s'", v);
    VARGS(c)->port = (unsigned)n;
    VARGS(c)->port_set = true;
    return 0;
}

static void usage(void);

static const struct cli_option options[] = {
    {.name = "--config",
     .alias = "-c",
     .arg = "FILE",
     .help = "the project config, whose directory holds\n"
             ".ananke/history.sqlite (default: ananke.config.yaml,\n"
             "found walking up)",
     .field = offsetof(struct view_args, config)},
    {.name = "--history",
     .arg = "FILE",
     .help = "show this history database instead",
     .field = offsetof(struct view_args, history)},
    {.name = "--port",
     .arg = "P",
     .help = "the port (default 8470; 0: a free one)",
     .handle = vopt_port},
    {.name = "--bind",
     .arg = "ADDR",
     .help = "a loopback address to listen on (default 127.0.0.1;\n"
             "any other address is refused)",
     .field = offsetof(struct view_args, bind)},
    CLI_OPT_HELP,
};

static const struct cli_command command = {
    .name = "view",
    .opts = options,
    .nopts = sizeof options / sizeof *options,
    .usage = usage,
};

static void usage(void)
{
    puts("usage: ananke view [options]\n"
         "\n"
         "Serves the run history (.ananke/history.sqlite in the project; --history\n"
         "FILE, ANANKE_HISTORY) and the recordings it points at as a local web app\n"
         "on 127.0.0.1: the runs, a run's tests, a test over time with its\n"
         "conversation, two runs side by side, the flaky tests. Read-only; stops on\n"
         "Ctrl-C. Its caps are the config's view: block (docs/view.md).\n"
         "\n"
         "options:");
    cli_options_help(options, sizeof options / sizeof *options);
    puts("\nexit: 0 stopped, 1 the history cannot be read or the port not bound,\n"
         "2 invalid invocation or no history yet.");
}

/* A config found by walking up, not named with -c: its errors are shown,
 * and the view still starts (with the default caps), so that a broken
 * config does not hide the history. */
static int load_found(struct an_suite **suite, struct an_load_opts *lo)
{
    struct an_errlist errs = {0};
    if (an_suite_load(suite, lo, &errs)) {
        cli_print_errors(stderr, &errs, lo->mem, lo->nmem);
        fprintf(stderr, "ananke: warning: view: %s has %zu error%s (above); the view starts with "
                        "its default caps\n",
                lo->config_path, errs.n, errs.n == 1 ? "" : "s");
        *suite = NULL;
    }
    an_errlist_release(&errs);
    return 0;
}

/* The database: --history, ANANKE_HISTORY, else the project's (as
 * `ananke history` finds it). The caps: the `view:` block of the config
 * (-c FILE, else the one found walking up), when there is one. */
static int db_path(const struct view_args *a, char **out, struct an_view_opts *o,
                   struct an_suite **suite)
{
    bool def;
    char *found = NULL, *dir = NULL;
    struct an_err err = AN_ERR_INIT;
    const char *cfg = a->config;
    if (!cfg && !an_config_find(".", &found, &err))
        cfg = found;
    if (cfg) {
        struct an_load_opts lo = AN_LOAD_OPTS_INIT;
        lo.config_path = cfg;
        lo.config_only = true;
        int rc = found ? load_found(suite, &lo) : cli_load_opts(suite, &lo);
        if (rc) {
            free(found);
            return rc;
        }
    }
    if (*suite) {
        o->max_rows = (*suite)->config.view.max_rows;
        o->max_page_bytes = (*suite)->config.view.max_page_bytes;
        o->max_results_bytes = (*suite)->config.view.max_results_bytes;
        o->max_connections = (*suite)->config.view.max_connections;
        o->idle_timeout_ms = (*suite)->config.view.idle_timeout_ms;
    }
    if (a->history)
        cfg = NULL; /* the database is the one named */
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

int cmd_view(int argc, char **argv)
{
    struct view_args a = {.port = AN_VIEW_PORT_DEFAULT};
    struct an_err err = AN_ERR_INIT;
    struct an_view *v = NULL;
    char *path = NULL;
    bool helped = false;
    struct an_suite *suite = NULL;
    struct an_view_opts o = {.bind = a.bind};
    int rc = cli_parse(&command, argc, argv, &a, &helped);
    if (rc || helped || (rc = db_path(&a, &path, &o, &suite)))
        goto done;
    /* the server's thread starts with these blocked: the signals come here */
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGHUP);
    pthread_sigmask(SIG_BLOCK, &set, NULL);
    o.db_path = path;
    o.bind = a.bind;
    o.port = a.port;
    if (an_view_start(&v, &o, &err)) {
        fprintf(stderr, "ananke: view: %s\n", err.msg);
        rc = err.code == AN_ENOTFOUND || err.code == AN_EUSAGE ? AN_EXIT_INVALID : AN_EXIT_FAIL;
        goto done;
    }
    printf("ananke view: http://%s:%u/ (Ctrl-C stops it)\n", an_view_addr(v), an_view_port(v));
    fflush(stdout);
    int sig = 0;
    while (sigwait(&set, &sig) == EINTR)
        ;
    an_view_stop(v);
    v = NULL;
    printf("ananke view: stopped\n");
    rc = AN_EXIT_OK;
done:
    an_view_stop(v);
    an_suite_free(suite);
    free(path);
    return rc;
}
