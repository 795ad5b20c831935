/* ananke: the program; the CLI itself is src/cli/dispatch.c. */
#include "cli.h"

int main(int argc, char **argv)
{
    return an_cli_main(argc, argv);
}
