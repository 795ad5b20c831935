/*
 * `ananke-mock agui`: flags, then load the scenario, listen, announce the
 * address, and serve until SIGTERM or SIGINT.
 */
#include <stdio.h>
#include <string.h>

#include "agui_scenario.h"
#include "agui_server.h"
#include "mock_cmds.h"
#include "mock_common.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ananke-mock agui --scenario FILE [--port N] [--port-file PATH]\n"
            "                        [--requests PATH] [--max-body BYTES]\n"
            "\n"
            "Serve AG-UI runs on 127.0.0.1 from a YAML scenario (see docs/mock.md).\n"
            "Any POST is a run request; GET /health answers 200 ok. Once listening it\n"
            "prints one line http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT.\n"
            "\n"
            "  --scenario FILE   rules and default answer; checked before listening\n"
            "  --port N          port to listen on; 0 (default) picks a free one\n"
            "  --port-file PATH  also write the port number to PATH (atomically)\n"
            "  --requests PATH   append each request as a JSON line\n"
            "                    {\"method\",\"path\",\"headers\",\"body\"}\n"
            "  --max-body BYTES  answer larger request bodies with 413 (default %u)\n"
            "  -h, --help        show this help\n"
            "\n"
            "Exit status: 0 stopped by a signal, 1 the server failed, 2 bad flags or\n"
            "a bad scenario (reported as FILE:LINE:COL: message).\n",
            AGUI_MAX_BODY_DEFAULT);
}

struct agui_flags {
    const char *scenario, *port_file, *requests;
    unsigned long port, max_body;
};

/* `--name VALUE` or `--name=VALUE`; advances *i past the value. */
static const char *flag_value(int argc, char **argv, int *i, const char *name, bool *matched,
                              struct an_err *err)
{
    size_t n = strlen(name);
    const char *a = argv[*i];
    *matched = false;
    if (strncmp(a, name, n) != 0)
        return NULL;
    if (a[n] == '=') {
        *matched = true;
        return a + n + 1;
    }
    if (a[n] != '\0')
        return NULL;
    *matched = true;
    if (*i + 1 >= argc) {
        an_fail(err, AN_EUSAGE, NULL, "%s needs a value", name);
        return NULL;
    }
    return argv[++*i];
}

static int parse_flags(int argc, char **argv, struct agui_flags *f, bool *help,
                       struct an_err *err)
{
    static const char *const names[] = {"--scenario", "--port", "--port-file", "--requests",
                                        "--max-body"};
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            *help = true;
            return 0;
        }
        const char *v = NULL;
        size_t which = 0;
        bool matched = false;
        for (; which < sizeof names / sizeof names[0]; which++) {
            v = flag_value(argc, argv, &i, names[which], &matched, err);
            if (matched)
                break;
        }
        if (!matched)
            return an_fail(err, AN_EUSAGE, NULL, "unknown option '%s'", argv[i]);
        if (!v)
            return AN_EUSAGE; /* err already says which value is missing */
        int rc = 0;
        switch (which) {
        case 0:
            f->scenario = v;
            break;
        case 1:
            rc = mock_parse_ulong(v, "--port", 0, 65535, &f->port, err);
            break;
        case 2:
            f->port_file = v;
            break;
        case 3:
            f->requests = v;
            break;
        case 4:
            rc = mock_parse_ulong(v, "--max-body", 1, (unsigned long)1 << 40, &f->max_body, err);
            break;
        }
        if (rc)
            return rc;
    }
    if (!f->scenario)
        return an_fail(err, AN_EUSAGE, NULL, "--scenario FILE is required");
    return 0;
}

static int report(const struct an_err *err, int status)
{
    char msg[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    an_err_format(err, msg, sizeof msg);
    if (err->file[0])
        fprintf(stderr, "%s\n", msg);
    else
        fprintf(stderr, "ananke-mock agui: %s\n", msg);
    return status;
}

int mock_cmd_agui(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct agui_flags f = {.max_body = AGUI_MAX_BODY_DEFAULT};
    struct agui_scenario *sc = NULL;
    struct mock_reqlog *log = NULL;
    struct agui_server *srv = NULL;
    bool help = false;
    int status = 0;
    sigset_t stop_set;

    /* First of all: before any thread exists, so server threads inherit the
     * mask, and as early as possible, so a harness's SIGTERM is never lost. */
    mock_signals_setup(&stop_set);
    if (parse_flags(argc, argv, &f, &help, &err)) {
        status = report(&err, 2);
        fputs("Run 'ananke-mock agui --help' for usage.\n", stderr);
        goto done;
    }
    if (help) {
        usage(stdout);
        goto done;
    }
    if (agui_scenario_load(&sc, f.scenario, &err)) {
        status = report(&err, 2);
        goto done;
    }
    if (f.requests && mock_reqlog_open(&log, f.requests, &err)) {
        status = report(&err, 2);
        goto done;
    }
    struct agui_server_opts opts = AGUI_SERVER_OPTS_INIT;
    opts.port = (unsigned)f.port;
    opts.max_body = f.max_body;
    opts.log = log;
    if (agui_server_start(&srv, sc, &opts, &err)) {
        status = report(&err, 1);
        goto done;
    }
    if (mock_announce(agui_server_port(srv), f.port_file, &err)) {
        status = report(&err, 1);
        goto done;
    }
    mock_signals_wait(&stop_set);
done:
    agui_server_stop(srv);
    mock_reqlog_close(log);
    agui_scenario_free(sc);
    return status;
}
