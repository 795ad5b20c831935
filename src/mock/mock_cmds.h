/*
 * The `ananke-mock` subcommands, one per protocol. Each takes the arguments
 * after its name (argv[0] is the subcommand) and returns the exit status:
 * 0 clean stop, 1 the server failed, 2 bad flags or a bad scenario.
 */
#ifndef ANANKE_MOCK_CMDS_H
#define ANANKE_MOCK_CMDS_H

int mock_cmd_agui(int argc, char **argv);
int mock_cmd_acp(int argc, char **argv);
int mock_cmd_openai(int argc, char **argv);
int mock_cmd_http(int argc, char **argv);
int mock_cmd_mcp(int argc, char **argv);
int mock_cmd_a2a(int argc, char **argv);

#endif
