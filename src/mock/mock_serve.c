#include "mock_serve.h"

#include <stdio.h>
#include <string.h>

#include "mock_common.h"

static void usage(FILE *out, const struct mock_serve_proto *p)
{
    /* the second line of the synopsis lines up under the first flag */
    int indent = (int)(strlen("usage: ananke-mock ") + strlen(p->name) + 1);
    fprintf(out,
            "usage: ananke-mock %s --scenario FILE [--port N] [--port-file PATH]\n"
            "%*s[--requests PATH] [--max-body BYTES]\n"
            "\n"
            "%s"
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
            p->name, indent, "", p->about, MOCK_MAX_BODY_DEFAULT);
}

int mock_serve_run(const char *name, const struct mock_server_flags *f, mock_http_handler handle,
                   void *ctx, const sigset_t *stop_set)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_reqlog *log = NULL;
    struct mock_http *http = NULL;
    int status = 0;
    if (f->requests && mock_reqlog_open(&log, f->requests, &err)) {
        status = mock_report(&err, name, 2);
        goto done;
    }
    struct mock_http_opts opts = MOCK_HTTP_OPTS_INIT;
    opts.port = (unsigned)f->port;
    opts.max_body = f->max_body;
    opts.log = log;
    opts.handle = handle;
    opts.ctx = ctx;
    if (mock_http_start(&http, &opts, &err)) {
        status = mock_report(&err, name, 1);
        goto done;
    }
    if (mock_announce(mock_http_port(http), f->port_file, &err)) {
        status = mock_report(&err, name, 1);
        goto done;
    }
    mock_signals_wait(stop_set);
done:
    mock_http_stop(http);
    mock_reqlog_close(log);
    return status;
}

int mock_serve(int argc, char **argv, const struct mock_serve_proto *p)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_server_flags f = {.max_body = MOCK_MAX_BODY_DEFAULT};
    void *sc = NULL;
    bool help = false;
    int status = 0;
    sigset_t stop_set;

    /* First of all: before any thread exists, so server threads inherit the
     * mask, and as early as possible, so a harness's SIGTERM is never lost. */
    mock_signals_setup(&stop_set);
    if (mock_parse_server_flags(argc, argv, &f, &help, &err)) {
        status = mock_usage_error(&err, p->name);
        goto done;
    }
    if (help) {
        usage(stdout, p);
        goto done;
    }
    if (scn_rules_load(&sc, p->scenario, f.scenario, NULL, 0, &err)) {
        status = mock_report(&err, p->name, 2);
        goto done;
    }
    status = mock_serve_run(p->name, &f, p->handle, sc, &stop_set);
done:
    scn_rules_free(sc);
    return status;
}
