/* --expected-failures FILE for run and replay: loading the list, and saying
 * which entries matched no test of the run. */
#include <stdio.h>

#include "ananke/load.h"
#include "ananke/result.h"
#include "cli.h"

int cli_expected_load(const char *path, struct an_expected *out)
{
    struct an_err err = AN_ERR_INIT;
    if (!an_expected_load(path, out, &err))
        return AN_EXIT_OK;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    fprintf(stderr, "ananke: --expected-failures: %s\n", an_err_format(&err, buf, sizeof buf));
    return AN_EXIT_INVALID;
}

void cli_expected_unused(const struct an_expected *x)
{
    for (size_t i = 0; i < x->n; i++)
        if (!x->used[i])
            fprintf(stderr,
                    "ananke: warning: expected failure '%s' (%s) matched no test that ran\n",
                    x->names[i], x->where[i]);
}
