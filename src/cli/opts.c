/* Command-line helpers the subcommands share: option values and stopping
 * on a signal. */
#include <signal.h>
#include <string.h>

#include "cli.h"
#include "core/cancel.h"

bool cli_opt(const char *cmd, int argc, char **argv, int *i, const char *name, const char *alias,
             const char **val, int *rc)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (!strncmp(a, name, n) && a[n] == '=') {
        *val = a + n + 1;
        return true;
    }
    if (strcmp(a, name) && !(alias && !strcmp(a, alias)))
        return false;
    if (*i + 1 >= argc) {
        *rc = cli_usage_error("%s needs a value (see 'ananke %s --help')", a, cmd);
        *val = NULL;
        return true;
    }
    *val = argv[++*i];
    return true;
}

bool cli_opt_help(const char *a)
{
    return !strcmp(a, "-h") || !strcmp(a, "--help");
}

bool cli_opt_verbose(const char *a, bool vv, int *verbose)
{
    if (!strcmp(a, "-v") || !strcmp(a, "--verbose"))
        *verbose += 1;
    else if (vv && !strcmp(a, "-vv"))
        *verbose += 2;
    else
        return false;
    return true;
}

static volatile sig_atomic_t caught; /* the first signal that cancelled the run */

static void on_signal(int sig)
{
    if (!caught)
        caught = sig;
    an_cancel_request();
}

int cli_interrupted_exit(void)
{
    return 128 + (caught ? (int)caught : SIGINT);
}

void cli_cancel_on_signals(void)
{
    struct sigaction sa = {.sa_handler = on_signal};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}
