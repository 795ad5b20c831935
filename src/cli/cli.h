/* The command line: one file per subcommand, dispatched from main.c. */
#ifndef ANANKE_CLI_H
#define ANANKE_CLI_H

#include <stdbool.h>
#include <stdio.h>

#include "ananke/load.h"

/* Exit codes (DESIGN.md "Command line"). */
enum { AN_EXIT_OK = 0, AN_EXIT_FAIL = 1, AN_EXIT_INVALID = 2 };

int cmd_run(int argc, char **argv);
int cmd_validate(int argc, char **argv);
int cmd_init(int argc, char **argv);

/* Shared by run and validate: load the suite named by -c and the paths,
 * print every load error to stderr. Returns 0 or an exit code. */
int cli_load(struct an_suite **out, const char *config, char **paths, int npaths);

/* Print "ananke: <msg>" to stderr; returns AN_EXIT_INVALID. */
int cli_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
