/* Command-line helpers the subcommands share: option values and stopping
 * on a signal. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "ananke/cancel.h"
#include "ananke/suggest.h"

bool cli_opt(const char *cmd, int argc, char **argv, int *i, const char *name, const char *alias,
             const char **val, int *rc)
{
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (!strncmp(a, name, n) && a[n] == '=') {
        *val = a + n + 1;
        return true;
    }
    if (alias && alias[0] == '-' && alias[1] && alias[1] != '-' && !alias[2] &&
        !strncmp(a, alias, 2) && a[2]) {
        *val = a + 2; /* "-j16", as getopt reads it */
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

/* What `usage` prints, read back from a temporary file it was made to
 * print into (fd 1 pointed there for the call). NULL when that fails. */
static char *help_text(void (*usage)(void))
{
    FILE *tmp = tmpfile();
    if (!tmp)
        return NULL;
    fflush(stdout);
    int saved = dup(STDOUT_FILENO);
    if (saved < 0 || dup2(fileno(tmp), STDOUT_FILENO) < 0) {
        if (saved >= 0)
            close(saved);
        fclose(tmp);
        return NULL;
    }
    usage();
    fflush(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    char *text = NULL;
    long n = ftell(tmp);
    if (n > 0 && n < (1L << 20) && fseek(tmp, 0, SEEK_SET) == 0) {
        text = an_xmalloc((size_t)n + 1);
        size_t got = fread(text, 1, (size_t)n, tmp);
        text[got] = '\0';
    }
    fclose(tmp);
    return text;
}

/* "unknown option ARG for CMD", with the closest of `names` (NULL-ended)
 * when ARG is a long option. */
static int unknown(const char *cmd, const char *arg, const char **names, size_t n)
{
    char key[128];
    size_t klen = strcspn(arg, "=");
    snprintf(key, sizeof key, "%.*s", (int)(klen < sizeof key ? klen : sizeof key - 1), arg);
    const char *near = !strncmp(key, "--", 2) && n ? an_closest(key, names) : NULL;
    if (near)
        return cli_usage_error("unknown option '%s' for %s (did you mean '%s'?)", arg, cmd, near);
    return cli_usage_error("unknown option '%s' for %s (see 'ananke %s --help')", arg, cmd, cmd);
}

int cli_unknown_option(const char *cmd, const char *arg, void (*usage)(void))
{
    /* the long options the help names: "--word" tokens */
    char *text = usage ? help_text(usage) : NULL;
    const char *names[256];
    size_t n = 0;
    for (char *p = text; p && (p = strstr(p, "--")) && n + 1 < sizeof names / sizeof *names;) {
        char *q = p + 2;
        while ((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '-')
            q++;
        bool word = q > p + 2 && (p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '[' ||
                                  p[-1] == ',' || p[-1] == '(' || p[-1] == '|');
        char end = *q;
        *q = '\0';
        if (word)
            names[n++] = p;
        p = end ? q + 1 : q;
    }
    names[n] = NULL;
    int rc = unknown(cmd, arg, names, n);
    free(text);
    return rc;
}

int cli_unknown_table_option(const char *cmd, const char *arg, const struct cli_option *opts,
                             size_t nopts)
{
    const char **names = an_xcalloc(nopts + 2, sizeof *names);
    size_t n = 0;
    for (size_t i = 0; i < nopts; i++)
        if (!opts[i].hidden && !opts[i].help_only && !strncmp(opts[i].name, "--", 2))
            names[n++] = opts[i].name;
    names[n++] = "--help";
    int rc = unknown(cmd, arg, names, n);
    free(names);
    return rc;
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
