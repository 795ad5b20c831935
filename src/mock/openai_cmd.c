/*
 * `ananke-mock openai`: the HTTP mock of mock_serve.h with OpenAI scenarios
 * and answers.
 */
#include "mock_cmds.h"
#include "mock_serve.h"
#include "openai_scenario.h"
#include "openai_server.h"

int mock_cmd_openai(int argc, char **argv)
{
    static const struct mock_serve_proto openai = {
        .name = "openai",
        .about = "Serve OpenAI-compatible chat completions on 127.0.0.1 from a YAML scenario\n"
                 "(see docs/mock.md): POST /v1/chat/completions (streamed when the request\n"
                 "says \"stream\": true), GET /v1/models, GET /health. Once listening it prints\n"
                 "one line http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT.\n",
        .scenario = &oai_scenario_kind,
        .handle = oai_server_handle,
    };
    return mock_serve(argc, argv, &openai);
}
