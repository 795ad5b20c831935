/* ananke mcp-bridge URL: the stdio <-> Streamable HTTP bridge that
 * `ananke comply --protocol mcp --agent NAME=URL` runs as its "server"
 * (ananke/mcp_bridge.h). Not listed in `ananke --help`: a part of comply. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "ananke/mcp_bridge.h"
#include "cli.h"

int cmd_mcp_bridge(int argc, char **argv)
{
    if (argc != 2 || !strcmp(argv[1], "--help") ||
        (strncmp(argv[1], "http://", 7) && strncmp(argv[1], "https://", 8))) {
        fputs("usage: ananke mcp-bridge URL\n\n"
              "Bridges JSON-RPC lines on stdin/stdout to the MCP Streamable HTTP endpoint URL\n"
              "(http:// or https://); `ananke comply --protocol mcp --agent NAME=URL` runs it.\n",
              argc == 2 && !strcmp(argv[1], "--help") ? stdout : stderr);
        return argc == 2 && !strcmp(argv[1], "--help") ? AN_EXIT_OK : AN_EXIT_INVALID;
    }
    struct an_err err = AN_ERR_INIT;
    if (!an_mcp_bridge(argv[1], STDIN_FILENO, STDOUT_FILENO, stderr, &err))
        return AN_EXIT_OK;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    fprintf(stderr, "ananke: mcp-bridge: %s\n", an_err_format(&err, buf, sizeof buf));
    return AN_EXIT_FAIL;
}
