/*
 * `ananke-mock acp`: flags, the scenario, then serve ACP on stdin/stdout
 * until stdin ends.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "acp_agent.h"
#include "acp_scenario.h"
#include "mock_cmds.h"

static void usage(FILE *out)
{
    fputs("usage: ananke-mock acp [--scenario FILE] [--fault NAME]... [--log FILE]\n"
          "\n"
          "A scripted ACP v1 agent: JSON-RPC 2.0, one JSON object per line, on\n"
          "stdin/stdout (see docs/mock.md). Logs go to stderr; it exits 0 when\n"
          "stdin ends.\n"
          "\n"
          "  --scenario FILE  capabilities, modes, commands and prompt rules (YAML);\n"
          "                   without it: built-in answers (echo, slow, read, write,\n"
          "                   run, permission)\n"
          "  --fault NAME     break one rule of the protocol (repeatable, or a\n"
          "                   comma-separated list):\n",
          out);
    for (unsigned i = 0; acp_fault_name(i); i++)
        fprintf(out, "      %-28s %s\n", acp_fault_name(i), acp_fault_desc(i));
    fputs("  --log FILE       write every frame in and out, with a timestamp\n"
          "  -h, --help       show this help\n"
          "\n"
          "Exit status: 0 stdin ended, 1 fault exit-mid-turn, 2 bad flags or a bad\n"
          "scenario (reported as FILE:LINE:COL: message).\n",
          out);
}

static int add_faults(const char *list, unsigned *faults, struct an_err *err)
{
    const char *p = list;
    while (*p) {
        size_t n = strcspn(p, ",");
        unsigned i = 0;
        for (; acp_fault_name(i); i++)
            if (strlen(acp_fault_name(i)) == n && !strncmp(acp_fault_name(i), p, n))
                break;
        if (!acp_fault_name(i))
            return an_fail(err, AN_EUSAGE, NULL,
                           "unknown fault '%.*s' (see ananke-mock acp --help)", (int)n, p);
        *faults |= 1u << i;
        p += n;
        if (*p == ',')
            p++;
    }
    if (!*list)
        return an_fail(err, AN_EUSAGE, NULL, "--fault needs a name");
    return 0;
}

struct acp_flags {
    const char *scenario, *log;
    unsigned faults;
    bool help;
};

static int parse_flags(int argc, char **argv, struct acp_flags *f, struct an_err *err)
{
    static const char *const names[] = {"--scenario", "--fault", "--log"};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            f->help = true;
            return 0;
        }
        size_t which = 0;
        for (; which < 3; which++) {
            size_t n = strlen(names[which]);
            if (strncmp(a, names[which], n))
                continue;
            if (a[n] == '=') {
                v = a + n + 1;
                break;
            }
            if (a[n] == '\0') {
                if (i + 1 >= argc)
                    return an_fail(err, AN_EUSAGE, NULL, "%s needs a value", names[which]);
                v = argv[++i];
                break;
            }
        }
        if (which == 3)
            return an_fail(err, AN_EUSAGE, NULL, "unknown option '%s'", a);
        if (which == 0)
            f->scenario = v;
        else if (which == 2)
            f->log = v;
        else if (add_faults(v, &f->faults, err))
            return AN_EUSAGE;
    }
    return 0;
}

int mock_cmd_acp(int argc, char **argv)
{
    struct an_err err = AN_ERR_INIT;
    struct acp_flags f = {0};
    struct acp_scenario *sc = NULL;
    struct acp_agent_opts opts = ACP_AGENT_OPTS_INIT;
    char msg[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    int status = 0;

    if (parse_flags(argc, argv, &f, &err)) {
        fprintf(stderr, "ananke-mock acp: %s\nRun 'ananke-mock acp --help' for usage.\n",
                an_err_format(&err, msg, sizeof msg));
        return 2;
    }
    if (f.help) {
        usage(stdout);
        return 0;
    }
    if (f.scenario ? acp_scenario_load(&sc, f.scenario, &err) : (sc = acp_scenario_default(), 0)) {
        an_err_format(&err, msg, sizeof msg);
        fprintf(stderr, err.file[0] ? "%s\n" : "ananke-mock acp: %s\n", msg);
        return 2;
    }
    if (f.log && !(opts.log = fopen(f.log, "w"))) {
        fprintf(stderr, "ananke-mock acp: %s: cannot open log: %s\n", f.log, strerror(errno));
        status = 2;
        goto done;
    }
    /* a client that closes our stdout must not kill us with SIGPIPE: the
     * write fails and the agent stops cleanly */
    signal(SIGPIPE, SIG_IGN);
    opts.faults = f.faults;
    status = acp_agent_run(sc, &opts);
done:
    if (opts.log)
        fclose(opts.log);
    acp_scenario_free(sc);
    return status;
}
