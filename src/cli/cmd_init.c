/*
 * ananke init: a starter project that passes against ananke-mock, so a new
 * user sees a green run before writing anything: a config that starts the
 * mock on a fixed port (target.start), its scenario, and one test; with
 * --ci github, a GitHub Actions workflow that runs them with the action of
 * this repository (action.yml). The YAML files name their JSON Schema in a
 * yaml-language-server modeline, so editors validate them (docs/config.md).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define INIT_PORT "8765"
/* where editors fetch the schemas (schema/ of the repository); "ananke/ananke"
 * is the placeholder the action's `uses:` shares (docs/ci.md) */
#define SCHEMA_URL "https://raw.githubusercontent.com/ananke/ananke/main/schema/"

static const char config_yaml[] =
    "# yaml-language-server: $schema=" SCHEMA_URL "ananke.config.schema.json\n"
    "# ananke project config, written by `ananke init`.\n"
    "#\n"
    "# The target is the bundled mock agent, which ananke starts itself (see\n"
    "# `start` below). To test your own AG-UI agent, change `endpoint` to its\n"
    "# URL (variables work too: endpoint: \"${ENV.AGENT_URL}\") and `start` to\n"
    "# the command that serves it, or remove `start` if it is already running.\n"
    "# Every key: docs/config.md.\n"
    "version: \"1.0\"\n"
    "\n"
    "target:\n"
    "  type: agui\n"
    "  endpoint: \"http://127.0.0.1:" INIT_PORT "/agent\"\n"
    "  agentId: \"hello-agent\"\n"
    "  timeout_ms: 10000\n"
    "\n"
    "  # Started before the first test, stopped after the last; its output\n"
    "  # goes to .ananke/start.log.\n"
    "  start:\n"
    "    cmd: [ananke-mock, agui, --scenario, agent.mock.yaml, --port, \"" INIT_PORT "\"]\n"
    "    ready: {port: " INIT_PORT "}\n"
    "\n"
    "  # Defaults for every test: no turn may take longer than this.\n"
    "  assert:\n"
    "    timing:\n"
    "      max_duration_ms: 10000\n";

static const char mock_yaml[] =
    "# What the mock agent answers (ananke-mock agui --scenario agent.mock.yaml).\n"
    "# Each rule matches the last user message by regex and streams AG-UI\n"
    "# events: text and tool calls with their results. See docs/mock.md.\n"
    "rules:\n"
    "  - match: \"weather\"\n"
    "    steps:\n"
    "      - tool: get_weather\n"
    "        args: {city: \"Paris\"}\n"
    "        result: {city: \"Paris\", sky: \"sunny\", celsius: 21}\n"
    "      - text: \"It is sunny in Paris, 21 degrees.\"\n"
    "\n"
    "default:\n"
    "  steps:\n"
    "    - text: \"Hello! Ask me about the weather.\"\n";

static const char test_yaml[] =
    "# yaml-language-server: $schema=" SCHEMA_URL "ananke.test.schema.json\n"
    "# One conversation with assertions: `ananke run` finds every *.test.yaml.\n"
    "# Every assertion: docs/assertions.md.\n"
    "version: \"1.0\"\n"
    "name: hello weather\n"
    "\n"
    "turns:\n"
    "  - user: \"Hello!\"\n"
    "    assert:\n"
    "      tools:\n"
    "        forbid: [get_weather] # small talk needs no tool\n"
    "      text:\n"
    "        must_match: \"/hello/i\"\n"
    "\n"
    "  - user: \"What is the weather in Paris?\"\n"
    "    assert:\n"
    "      tools:\n"
    "        require:\n"
    "          - name: get_weather\n"
    "            count: 1\n"
    "            args_match:\n"
    "              city: \"^Paris$\"\n"
    "            result_match: \"sunny\"\n"
    "      text:\n"
    "        must_match: \"sunny\"\n"
    "\n"
    "assert: # the whole conversation\n"
    "  text:\n"
    "    must_not_match: [\"error\", \"sorry\"]\n";

static const char workflow_yaml[] =
    "# yaml-language-server: $schema=https://json.schemastore.org/github-workflow.json\n"
    "# Runs the ananke tests on every push to main and every pull request, written\n"
    "# by `ananke init --ci github`. The action builds ananke, runs `ananke run`\n"
    "# with `args`, puts the report in the job summary and the artifacts, and\n"
    "# keeps one comment on the pull request up to date; its inputs: docs/ci.md.\n"
    "# \"ananke/ananke@main\" is a placeholder: use the repository the action is\n"
    "# published from, pinned to a tag or a commit.\n"
    "name: ananke\n"
    "on:\n"
    "  push:\n"
    "    branches: [main]\n"
    "  pull_request:\n"
    "permissions:\n"
    "  contents: read\n"
    "  pull-requests: write # the report comment\n"
    "jobs:\n"
    "  ananke:\n"
    "    runs-on: ubuntu-latest\n"
    "    steps:\n"
    "      - uses: actions/checkout@v4\n"
    "      - uses: ananke/ananke@main\n"
    "        with:\n"
    "          args: \"\"  # e.g. \"-j 8 --retries 1 tests/\"\n";

static const struct {
    const char *name;
    const char *text;
    bool ci; /* only with --ci github */
} files[] = {
    {"ananke.config.yaml", config_yaml, false},
    {"agent.mock.yaml", mock_yaml, false},
    {"hello.test.yaml", test_yaml, false},
    {".github/workflows/ananke.yml", workflow_yaml, true},
};
#define NFILES (sizeof files / sizeof *files)

static void usage(void)
{
    puts("usage: ananke init [--force] [--ci github] [DIR]\n"
         "\n"
         "Writes a starter project to DIR (default: the current directory, created\n"
         "if missing): ananke.config.yaml, agent.mock.yaml (a scenario for the mock\n"
         "agent) and hello.test.yaml, which pass with one `ananke run`: the config\n"
         "starts ananke-mock on port " INIT_PORT " before the tests and stops it after.\n"
         "Existing files are never overwritten unless --force is given.\n"
         "\n"
         "options:\n"
         "  -f, --force      overwrite existing files\n"
         "  --ci github      also write .github/workflows/ananke.yml, a GitHub Actions\n"
         "                   workflow that runs the tests with the ananke action\n"
         "  -h, --help       this help");
}

static int write_file(const char *path, const char *text, bool force)
{
    int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL);
    int fd = open(path, flags, 0666);
    if (fd < 0)
        return errno;
    size_t n = strlen(text), off = 0;
    while (off < n) {
        ssize_t w = write(fd, text + off, n - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0) {
            int e = errno;
            close(fd);
            return e;
        }
        off += (size_t)w;
    }
    return close(fd) ? errno : 0;
}

/* make the directories PATH names before its last '/' (only those under the
 * project directory, which exists: ".github", ".github/workflows") */
static int make_parents(const char *path, size_t skip)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n >= sizeof buf)
        return ENAMETOOLONG;
    memcpy(buf, path, n + 1);
    for (size_t i = skip; i < n; i++) {
        if (buf[i] != '/')
            continue;
        buf[i] = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return errno;
        buf[i] = '/';
    }
    return 0;
}

int cmd_init(int argc, char **argv)
{
    const char *dir = NULL;
    bool force = false, ci = false;
    char path[NFILES][4096];
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return AN_EXIT_OK;
        } else if (!strcmp(a, "-f") || !strcmp(a, "--force")) {
            force = true;
        } else if (!strcmp(a, "--ci")) {
            if (i + 1 >= argc)
                return cli_usage_error("--ci needs a value: github");
            if (strcmp(argv[++i], "github") != 0)
                return cli_usage_error("unknown --ci '%s' (github)", argv[i]);
            ci = true;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("init", a, usage);
        } else if (dir) {
            return cli_usage_error("init takes one directory, not '%s' and '%s'", dir, a);
        } else {
            dir = a;
        }
    }
    bool here = !dir || !strcmp(dir, ".");
    if (!dir)
        dir = ".";
    size_t dlen = strlen(dir);
    while (dlen > 1 && dir[dlen - 1] == '/')
        dlen--;

    struct stat st;
    if (stat(dir, &st) != 0) {
        if (errno != ENOENT || mkdir(dir, 0777) != 0) {
            fprintf(stderr, "ananke: cannot create directory '%s': %s\n", dir, strerror(errno));
            return AN_EXIT_INVALID;
        }
    } else if (!S_ISDIR(st.st_mode)) {
        return cli_usage_error("'%s' is not a directory", dir);
    }

    /* check every file before writing any: a refusal leaves nothing half done */
    int existing = 0;
    for (size_t i = 0; i < NFILES; i++) {
        if (files[i].ci && !ci)
            continue;
        int n = here ? snprintf(path[i], sizeof path[i], "%s", files[i].name)
                     : snprintf(path[i], sizeof path[i], "%.*s/%s", (int)dlen, dir, files[i].name);
        if (n < 0 || (size_t)n >= sizeof path[i])
            return cli_usage_error("directory name too long: '%s'", dir);
        if (!force && lstat(path[i], &st) == 0) {
            fprintf(stderr, "ananke: '%s' already exists\n", path[i]);
            existing++;
        }
    }
    if (existing) {
        fprintf(stderr, "ananke: nothing written; use --force to overwrite %s\n",
                existing == 1 ? "it" : "them");
        return AN_EXIT_INVALID;
    }
    for (size_t i = 0; i < NFILES; i++) {
        if (files[i].ci && !ci)
            continue;
        int e = make_parents(path[i], here ? 0 : dlen + 1);
        if (!e)
            e = write_file(path[i], files[i].text, force);
        if (e) {
            fprintf(stderr, "ananke: cannot write '%s': %s\n", path[i], strerror(e));
            return e == EEXIST ? AN_EXIT_INVALID : AN_EXIT_FAIL;
        }
        printf("wrote %s\n", path[i]);
    }
    if (cli_gitignore_state(here ? "." : dir))
        return AN_EXIT_FAIL;
    printf("\nSee it pass against the bundled mock agent, which ananke starts itself:\n\n");
    if (!here)
        printf("  cd %s\n", dir);
    printf("  ananke run\n"
           "\nThen point target.endpoint and target.start in ananke.config.yaml at your\n"
           "own agent.\n");
    return AN_EXIT_OK;
}
