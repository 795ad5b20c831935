/*
 * `ananke-mock http`: seed 004's demo agent (POST /run-case, GET /health)
 * on the HTTP mock of mock_serve.h.
 */
#include "http_scenario.h"
#include "http_server.h"
#include "mock_cmds.h"
#include "mock_serve.h"

int mock_cmd_http(int argc, char **argv)
{
    static const struct mock_serve_proto http = {
        .name = "http",
        .about = "Serve the run-case HTTP contract on 127.0.0.1 from a YAML scenario\n"
                 "(see docs/mock.md): POST /run-case {case_id, version, input} answered per case\n"
                 "and version, GET /health. Once listening it prints one line\n"
                 "http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT.\n",
        .scenario = &http_scenario_kind,
        .handle = http_server_handle,
    };
    return mock_serve(argc, argv, &http);
}
