/* Loading for the subcommands: errors to stderr, one per line. */
#include <stdarg.h>
#include <stdio.h>

#include "cli.h"

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    fputs("ananke: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return AN_EXIT_INVALID;
}

int cli_load(struct an_suite **out, const char *config, char **paths, int npaths)
{
    struct an_load_opts o = AN_LOAD_OPTS_INIT;
    o.config_path = config;
    o.paths = (const char *const *)paths;
    o.npaths = (size_t)npaths;
    return cli_load_opts(out, &o);
}

int cli_load_opts(struct an_suite **out, struct an_load_opts *op)
{
    struct an_load_opts o = *op;
    struct an_errlist errs = {0};
    size_t npaths = o.npaths;
    int rc = an_suite_load(out, &o, &errs);
    cli_print_errors(stderr, &errs, o.mem, o.nmem);
    if (rc) {
        fprintf(stderr, "ananke: %zu error%s; nothing was run\n", errs.n, errs.n == 1 ? "" : "s");
        an_errlist_release(&errs);
        return AN_EXIT_INVALID;
    }
    an_errlist_release(&errs);
    if ((*out)->ntests == 0 && !o.config_only) {
        fprintf(stderr, "ananke: no test found (looked for *.test.yaml and *.test.yml in %s)\n",
                npaths ? "the given paths" : (*out)->config.dir);
        an_suite_free(*out);
        *out = NULL;
        return AN_EXIT_INVALID;
    }
    return 0;
}
