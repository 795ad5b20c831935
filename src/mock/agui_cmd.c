/*
 * `ananke-mock agui`: the HTTP mock of mock_serve.h with AG-UI scenarios and
 * answers.
 */
#include "agui_scenario.h"
#include "agui_server.h"
#include "mock_cmds.h"
#include "mock_serve.h"

int mock_cmd_agui(int argc, char **argv)
{
    static const struct mock_serve_proto agui = {
        .name = "agui",
        .about = "Serve AG-UI runs on 127.0.0.1 from a YAML scenario (see docs/mock.md).\n"
                 "Any POST is a run request; GET /health answers 200 ok. Once listening it\n"
                 "prints one line http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT.\n",
        .scenario = &agui_scenario_kind,
        .handle = agui_server_handle,
    };
    return mock_serve(argc, argv, &agui);
}
