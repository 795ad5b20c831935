/* ananke: the command-line dispatch table of subcommands (git's git.c),
 * callable as an_cli_main() so a test binary can add rows to the library's
 * tables and run the same CLI (tests/extension/). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "ananke/cancel.h" /* an_sigpipe_ignore */

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"run", cmd_run, "run test suites against the agent"},
    {"validate", cmd_validate, "load and check config and tests; contact nothing"},
    {"comply", cmd_comply, "run .jsont compliance tests against ACP agents"},
    {"merge", cmd_merge, "join the JSON results of shards into one report"},
    {"compare", cmd_compare, "compare two recorded runs into an evidence pack and a CI gate"},
    {"replay", cmd_replay, "judge the tests again on a recorded run; contact no agent"},
    {"history", cmd_history, "past runs from the history database: flaky, slowest, one test"},
    {"view", cmd_view, "the run history in the browser, on 127.0.0.1"},
    {"init", cmd_init, "write a starter config and test that pass against ananke-mock"},
    {"tool-proxy", cmd_tool_proxy, "MCP over stdio to a tool server of the run (docs/tools.md)"},
    {"mcp-bridge", cmd_mcp_bridge, NULL}, /* comply's MCP over HTTP; not listed */
};

static void usage(FILE *out)
{
    fputs("usage: ananke <command> [options] [PATH...]\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (commands[i].help)
            fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].help);
    fputs("\n'ananke <command> --help' shows a command's options.\n"
          "exit codes: 0 all tests passed, 1 a test failed or errored, 2 invalid invocation,\n"
          "config or test file, or no test found.\n",
          out);
}

int an_cli_main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return AN_EXIT_INVALID;
    }
    /* A reader of our output that goes away (`ananke run | head`) must
     * not kill a run half-way, leaving its agents and hooks running and
     * its reports unwritten: writes to it fail with EPIPE instead. */
    an_sigpipe_ignore();
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return AN_EXIT_OK;
    }
    if (!strcmp(cmd, "--version") || !strcmp(cmd, "version")) {
        printf("ananke %s (commit %s)\n", ANANKE_VERSION, ANANKE_COMMIT);
        return AN_EXIT_OK;
    }
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(cmd, commands[i].name))
            return commands[i].fn(argc - 1, argv + 1);
    fprintf(stderr, "ananke: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return AN_EXIT_INVALID;
}
