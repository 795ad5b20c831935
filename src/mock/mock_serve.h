/*
 * `ananke-mock PROTOCOL` for the HTTP protocols (agui, openai): the flags
 * every one takes, then load the scenario, listen on 127.0.0.1, announce the
 * address, and serve until SIGTERM or SIGINT. A protocol brings its words
 * for --help, its scenario and its request handler.
 */
#ifndef ANANKE_MOCK_SERVE_H
#define ANANKE_MOCK_SERVE_H

#include <signal.h>

#include "mock_common.h"
#include "mock_http.h"
#include "scenario_rules.h"

struct mock_serve_proto {
    const char *name;  /* the subcommand: "agui" */
    const char *about; /* --help between the synopsis and the options; ends in "\n" */
    const struct scn_rules_kind *scenario;
    /* Answers each request; its ctx is the loaded scenario. */
    mock_http_handler handle;
};

/* Run the subcommand with argv[0] its name (see mock_cmds.h); returns the
 * exit status: 0 stopped by a signal, 1 the server failed, 2 bad flags or a
 * bad scenario. */
int mock_serve(int argc, char **argv, const struct mock_serve_proto *p);

/* The part after the flags, for a protocol with flags of its own: open
 * f->requests, listen on 127.0.0.1:f->port with `handle` (given ctx),
 * announce (f->port_file too), serve until a signal in stop_set (see
 * mock_signals_setup, which the caller must have called before), stop.
 * Returns the exit status as mock_serve does. */
int mock_serve_run(const char *name, const struct mock_server_flags *f, mock_http_handler handle,
                   void *ctx, const sigset_t *stop_set);

#endif
