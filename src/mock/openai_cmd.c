/*
 * `ananke-mock openai`: flags, then load the scenario, listen, announce the
 * address, and serve until SIGTERM or SIGINT.
 */
#include <stdio.h>
#include <string.h>

#include "mock_cmds.h"
#include "mock_common.h"
#include "openai_scenario.h"
#include "openai_server.h"

static void usage(FILE *out)
{
    fprintf(out,
            "usage: ananke-mock openai --scenario FILE [--port N] [--port-file PATH]\n"
            "                          [--requests PATH] [--max-body BYTES]\n"
            "\n"
            "Serve OpenAI-compatible chat completions on 127.0.0.1 from a YAML scenario\n"
            "(see docs/mock.md): POST /v1/chat/completions (streamed when the request\n"
            "says \"stream\": true), GET /v1/models, GET /health. Once listening it prints\n"
            "one line http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT.\n"
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
            MOCK_MAX_BODY_DEFAULT);
}

int mock_cmd_openai(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_server_flags f = {.max_body = MOCK_MAX_BODY_DEFAULT};
    struct oai_scenario *sc = NULL;
    struct mock_reqlog *log = NULL;
    struct oai_server *srv = NULL;
    bool help = false;
    int status = 0;
    sigset_t stop_set;

    /* First of all: before any thread exists, so server threads inherit the
     * mask, and as early as possible, so a harness's SIGTERM is never lost. */
    mock_signals_setup(&stop_set);
    if (mock_parse_server_flags(argc, argv, &f, &help, &err)) {
        status = mock_report(&err, "openai", 2);
        fputs("Run 'ananke-mock openai --help' for usage.\n", stderr);
        goto done;
    }
    if (help) {
        usage(stdout);
        goto done;
    }
    if (oai_scenario_load(&sc, f.scenario, &err)) {
        status = mock_report(&err, "openai", 2);
        goto done;
    }
    if (f.requests && mock_reqlog_open(&log, f.requests, &err)) {
        status = mock_report(&err, "openai", 2);
        goto done;
    }
    struct oai_server_opts opts = OAI_SERVER_OPTS_INIT;
    opts.port = (unsigned)f.port;
    opts.max_body = f.max_body;
    opts.log = log;
    if (oai_server_start(&srv, sc, &opts, &err)) {
        status = mock_report(&err, "openai", 1);
        goto done;
    }
    if (mock_announce(oai_server_port(srv), f.port_file, &err)) {
        status = mock_report(&err, "openai", 1);
        goto done;
    }
    mock_signals_wait(&stop_set);
done:
    oai_server_stop(srv);
    mock_reqlog_close(log);
    oai_scenario_free(sc);
    return status;
}
