/*
 * `ananke-mock a2a`: flags, then serve the A2A agent double (a2a_agent.h)
 * until SIGTERM or SIGINT.
 */
#include <stdio.h>
#include <string.h>

#include "a2a_agent.h"
#include "mock_cmds.h"
#include "mock_common.h"
#include "mock_serve.h"

static void usage(FILE *out)
{
    fputs("usage: ananke-mock a2a [--version 1.0|0.3] [--binding jsonrpc|rest|both]\n"
          "                       [--port N] [--port-file PATH] [--requests PATH]\n"
          "                       [--max-body BYTES]\n"
          "\n"
          "An A2A agent double on 127.0.0.1 (see docs/mock.md): the agent card at\n"
          "/.well-known/agent-card.json, JSON-RPC at /rpc, HTTP+JSON (REST) under /rest\n"
          "(0.3: /rest/v1/message:send ...; 1.0: /rest/message:send ...). Once listening it prints "
          "one\n"
          "line http://127.0.0.1:PORT; it stops cleanly on SIGTERM/SIGINT. The user's\n"
          "text picks the behaviour:\n"
          "\n"
          "  TEXT        a task: submitted, working, artifact 'echo: TEXT', completed\n"
          "  msg:TEXT    a direct message 'echo: TEXT', no task\n"
          "  ask:TEXT    input-required; the reply (with its taskId) completes it\n"
          "  fail:TEXT   a failed task 'cannot do: TEXT'\n"
          "  data:TEXT   a data artifact and a file (url) artifact, completed\n"
          "  slow:TEXT   working until canceled\n"
          "  chunks      an artifact in three appended chunks, completed\n"
          "  open        completed, and the stream stays open\n"
          "  garbage     an SSE event (blocking: a body) that is not JSON\n"
          "  shape       a result of no known shape\n"
          "  rpcerror    a JSON-RPC error -32004, as JSON even to a streaming call\n"
          "  cut         working, then the connection is cut (dies mid-stream)\n"
          "  hang        working, then nothing: the stream never ends\n"
          "  wrongid     the answers under another JSON-RPC id\n"
          "  http500     HTTP status 500\n"
          "\n"
          "  --version V       the A2A version spoken: 1.0 (default) or 0.3\n"
          "  --fault F         a deviation for `ananke comply`: bad-transition (a\n"
          "                    completed task goes back to working), card-no-name,\n"
          "                    wrong-error-code (-32603 for an unknown task),\n"
          "                    push-forgets (with --push: configs answered, not kept),\n"
          "                    push-delete-ignored (with --push: delete answered,\n"
          "                    the config kept), push-set-bare (with --push: set\n"
          "                    answered without the taskId),\n"
          "                    rest-status (every REST error answered HTTP 400),\n"
          "                    rest-jsonrpc (REST answered as JSON-RPC would be);\n"
          "                    1.0: version-ignored (any A2A-Version taken, no\n"
          "                    -32009), card-bad-interface (an interface without\n"
          "                    protocolVersion), v03-states (states spelled the 0.3\n"
          "                    way), list-empty (ListTasks lists nothing)\n"
          "  --binding B       what the card offers: jsonrpc (default), rest or both;\n"
          "                    both bindings are served whatever it says, with the\n"
          "                    same behaviours and faults\n"
          "  --push            offer push notifications (configs are stored,\n"
          "                    never called)\n"
          "  --port N          port to listen on; 0 (default) picks a free one\n"
          "  --port-file PATH  also write the port number to PATH (atomically)\n"
          "  --requests PATH   append each request as a JSON line\n"
          "                    {\"method\",\"path\",\"headers\",\"body\"}\n"
          "  --max-body BYTES  answer larger request bodies with 413\n"
          "  -h, --help        show this help\n"
          "\n"
          "Exit status: 0 stopped by a signal, 1 the server failed, 2 bad flags.\n",
          out);
}

int mock_cmd_a2a(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct mock_server_flags f = {.max_body = MOCK_MAX_BODY_DEFAULT};
    const char *version = "1.0", *fault = "none", *binding = "jsonrpc";
    bool help = false, push = false;
    sigset_t stop_set;
    const struct mock_flag flags[] = {
        {"--version", MOCK_FLAG_STR, &version, 0, 0},
        {"--fault", MOCK_FLAG_STR, &fault, 0, 0},
        {"--push", MOCK_FLAG_SWITCH, &push, 0, 0},
        {"--binding", MOCK_FLAG_STR, &binding, 0, 0},
        {"--port", MOCK_FLAG_ULONG, &f.port, 0, 65535},
        {"--port-file", MOCK_FLAG_STR, &f.port_file, 0, 0},
        {"--requests", MOCK_FLAG_STR, &f.requests, 0, 0},
        {"--max-body", MOCK_FLAG_ULONG, &f.max_body, 1, (unsigned long)1 << 40},
    };

    mock_signals_setup(&stop_set);
    if (!mock_parse_flags(argc, argv, flags, sizeof flags / sizeof flags[0], &help, &err) &&
        strcmp(version, "1.0") && strcmp(version, "0.3"))
        an_fail(&err, AN_EUSAGE, NULL, "--version must be 1.0 or 0.3, not '%s'", version);
    if (!err.code && a2a_fault_parse(fault) < 0)
        an_fail(&err, AN_EUSAGE, NULL,
                "--fault must be none, bad-transition, card-no-name, wrong-error-code, "
                "push-forgets, rest-status, rest-jsonrpc, version-ignored, card-bad-interface, "
                "v03-states, list-empty, push-delete-ignored or push-set-bare, not '%s'",
                fault);
    static const char *const binds[] = {"jsonrpc", "rest", "both"};
    int bind = 0;
    while (bind < 3 && strcmp(binding, binds[bind]))
        bind++;
    if (!err.code && bind == 3)
        an_fail(&err, AN_EUSAGE, NULL, "--binding must be jsonrpc, rest or both, not '%s'",
                binding);
    if (err.code)
        return mock_usage_error(&err, "a2a");
    if (help) {
        usage(stdout);
        return 0;
    }
    struct a2a_agent *a = a2a_agent_new(
        !strcmp(version, "0.3"), (enum a2a_fault)a2a_fault_parse(fault), push, (enum a2a_bind)bind);
    int status = mock_serve_run("a2a", &f, a2a_agent_handle, a, &stop_set);
    a2a_agent_free(a);
    return status;
}
