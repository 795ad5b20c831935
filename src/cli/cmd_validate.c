/* ananke validate: load and check everything, contact nothing. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static void usage(void)
{
    puts("usage: ananke validate [-c|--config FILE] [PATH...]\n\n"
         "Loads the config and every test file and reports every problem at once,\n"
         "sorted by file and line: file:line:col: message, then the line with a\n"
         "caret under the column. Contacts no agent and runs no hook.\n"
         "exit: 0 everything is valid, 2 something is not.");
}

int cmd_validate(int argc, char **argv)
{
    const char *config = NULL;
    char **paths = argv + 1;
    int npaths = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return AN_EXIT_OK;
        } else if (!strcmp(a, "-c") || !strcmp(a, "--config")) {
            if (++i >= argc)
                return cli_usage_error("%s needs a FILE", a);
            config = argv[i];
        } else if (!strncmp(a, "--config=", 9)) {
            config = a + 9;
        } else if (a[0] == '-' && a[1]) {
            return cli_unknown_option("validate", a, usage);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    struct an_suite *s;
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.config_path = config;
    o.paths = (const char *const *)paths;
    o.npaths = (size_t)npaths;
    o.check_env = true; /* an unset ${ENV.X} is said now, not test by test at run time */
    int rc = cli_load_opts(&s, &o);
    if (rc)
        return rc;
    size_t turns = 0;
    for (size_t i = 0; i < s->ntests; i++)
        turns += s->tests[i].nturns;
    printf("ok: %s and %zu test%s (%zu turn%s) are valid\n", s->config.path, s->ntests,
           s->ntests == 1 ? "" : "s", turns, turns == 1 ? "" : "s");
    an_suite_free(s);
    return AN_EXIT_OK;
}
