/* `ananke tool-proxy NAME [--url URL]`: the run's tool proxy for NAME over
 * stdio, for an agent that spawns its MCP servers (docs/tools.md). Without
 * --url, the URL comes from ANANKE_TOOL_SERVERS, which `ananke run` sets
 * while it serves. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/tools.h"
#include "cli.h"

int cmd_tool_proxy(int argc, char **argv)
{
    const char *name = NULL, *url = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--url") && i + 1 < argc) {
            url = argv[++i];
        } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs("usage: ananke tool-proxy NAME [--url URL]\n"
                  "MCP over stdio, forwarded to the tool server NAME that `ananke run` serves\n"
                  "(its URL from ANANKE_TOOL_SERVERS, or --url)\n",
                  stdout);
            return 0;
        } else if (!name && argv[i][0] != '-') {
            name = argv[i];
        } else {
            fprintf(stderr, "ananke tool-proxy: unexpected argument '%s'\n", argv[i]);
            return AN_EXIT_INVALID;
        }
    }
    if (!name && !url) {
        fputs("ananke tool-proxy: name a tool server (usage: ananke tool-proxy NAME)\n", stderr);
        return AN_EXIT_INVALID;
    }
    json_t *servers = NULL;
    if (!url) {
        const char *env = getenv(AN_TOOLS_ENV);
        servers = env ? json_loads(env, 0, NULL) : NULL;
        url = json_string_value(json_object_get(servers, name));
        if (!url) {
            fprintf(stderr,
                    "ananke tool-proxy: no tool server '%s' in %s (run it from an agent that "
                    "`ananke run` started, or give --url)\n",
                    name, AN_TOOLS_ENV);
            json_decref(servers);
            return AN_EXIT_INVALID;
        }
    }
    int rc = an_tools_stdio_bridge(url);
    json_decref(servers);
    return rc;
}
