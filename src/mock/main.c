/*
 * ananke-mock: scriptable agents, the demo target and the test double of
 * every end-to-end test. This file only dispatches to a protocol.
 */
#include <stdio.h>
#include <string.h>

#include "mock_cmds.h"

static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
} cmds[] = {
    {"agui", mock_cmd_agui, "AG-UI server (HTTP POST + SSE) answering from a YAML scenario"},
    {"acp", mock_cmd_acp, "ACP agent (JSON-RPC on stdin/stdout) answering from a YAML scenario"},
    {"openai", mock_cmd_openai,
     "OpenAI-compatible chat completions (JSON or SSE) answering from a YAML scenario"},
    {"http", mock_cmd_http, "a run-case agent (POST /run-case, docs/http.md) answering per case"},
    {"mcp", mock_cmd_mcp,
     "MCP server (stdio or Streamable HTTP) with well-behaved and faulty tools"},
    {"a2a", mock_cmd_a2a, "A2A agent (JSON-RPC 1.0 or 0.3, SSE) answering and failing by message"},
};

static void usage(FILE *out)
{
    fputs("usage: ananke-mock PROTOCOL [OPTIONS]\n"
          "\n"
          "Scripted agents for testing agent clients: the demo target and the test\n"
          "double of ananke. Each listens on 127.0.0.1 only and stops on SIGTERM.\n"
          "\n"
          "protocols:\n",
          out);
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        fprintf(out, "  %-8s %s\n", cmds[i].name, cmds[i].summary);
    fputs("\nRun 'ananke-mock PROTOCOL --help' for its options.\n", out);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ananke-mock %s\n", ANANKE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++)
        if (!strcmp(argv[1], cmds[i].name))
            return cmds[i].run(argc - 1, argv + 1);
    fprintf(stderr, "ananke-mock: unknown protocol '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
