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

int mock_cmd_agui(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_server_flags f = {.max_body = AGUI_MAX_BODY_DEFAULT};
    struct agui_scenario *sc = NULL;
    struct mock_reqlog *log = NULL;
    struct agui_server *srv = NULL;
    bool help = false;
    int status = 0;
    sigset_t stop_set;

    /* First of all: before any thread exists, so server threads inherit the
     * mask, and as early as possible, so a harness's SIGTERM is never lost. */
    mock_signals_setup(&stop_set);
    if (mock_parse_server_flags(argc, argv, &f, &help, &err)) {
        status = mock_report(&err, "agui", 2);
        fputs("Run 'ananke-mock agui --help' for usage.\n", stderr);
        goto done;
    }
    if (help) {
        usage(stdout);
        goto done;
    }
    if (agui_scenario_load(&sc, f.scenario, &err)) {
        status = mock_report(&err, "agui", 2);
        goto done;
    }
    if (f.requests && mock_reqlog_open(&log, f.requests, &err)) {
        status = mock_report(&err, "agui", 2);
        goto done;
    }
    struct agui_server_opts opts = AGUI_SERVER_OPTS_INIT;
    opts.port = (unsigned)f.port;
    opts.max_body = f.max_body;
    opts.log = log;
    if (agui_server_start(&srv, sc, &opts, &err)) {
        status = mock_report(&err, "agui", 1);
        goto done;
    }
    if (mock_announce(agui_server_port(srv), f.port_file, &err)) {
        status = mock_report(&err, "agui", 1);
        goto done;
    }
    mock_signals_wait(&stop_set);
done:
    agui_server_stop(srv);
    mock_reqlog_close(log);
    agui_scenario_free(sc);
    return status;
}
