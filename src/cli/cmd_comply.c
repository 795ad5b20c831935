/* ananke comply: run a .jsont compliance suite against ACP agents or AG-UI
 * endpoints. */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ananke/comply.h"
#include "cli.h"
#include "core/cancel.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "load/jsont.h"
#include "proto/acp_client.h"
#include "proto/http.h"
#include "run/comply.h"
#include "run/comply_redact.h"
#include "run/redact.h"
#include "run/secrets.h"

#define DEFAULT_SUITE "compliance/acp"
#define DEFAULT_SUITE_AGUI "compliance/agui"
#define DEFAULT_SUITE_MCP "compliance/mcp"

static void usage(void)
{
    puts("usage: ananke comply [options] [SUITE_DIR_OR_FILE...]\n"
         "\n"
         "Runs .jsont compliance tests (default: the *.jsont files "
         "in " DEFAULT_SUITE ",\n"
         "or " DEFAULT_SUITE_AGUI " with --protocol agui, " DEFAULT_SUITE_MCP " with\n"
         "--protocol mcp, under the current directory; else the installed suites in\n"
         "<bindir>/../share/ananke/compliance)\n"
         "against each agent and writes a Markdown report to stdout.\n"
         "\n"
         "options:\n"
         "      --protocol acp|agui|mcp  the protocol (default acp); mcp: COMMAND is an\n"
         "                           MCP server over stdio\n"
         "  -a, --agent NAME=COMMAND an agent to test: COMMAND is run by /bin/sh; "
         "repeatable\n"
         "  -a, --agent NAME=URL     with --protocol agui: an AG-UI endpoint (http or "
         "https);\n"
         "                           repeatable\n"
         "  -a, --agent NAME         pick an agent of the --settings file; "
         "repeatable\n"
         "      --settings FILE      agents in the editors' shape:\n"
         "                           {\"agent_servers\": {NAME: {\"command\", "
         "\"args\", \"env\"}}}\n"
         "  -t, --test ID            run only this test (the file name without "
         ".jsont);\n"
         "                           repeatable\n"
         "      --list-tests         print 'ID - title' for each test and exit\n"
         "  -j, --jobs N             run N tests at once (each has its own agent and\n"
         "                           sandbox); the report is the same (default 1)\n"
         "      --timeout-scale F    multiply every expect/forbid window (AG-UI: every\n"
         "                           step's window) by F (a scripted agent answers at once\n"
         "                           or never: 0.3 saves waiting)\n"
         "      --max-event-bytes N  AG-UI: the largest SSE event a step may get (default\n"
         "                           16 MiB); past it the step is an ERROR naming it\n"
         "      --max-turn-bytes N   AG-UI: the largest answer to one step (default 64 MiB)\n"
         "      --keep-sandbox       keep each test's sandbox directory (paths on "
         "stderr; ACP)\n"
         "      --confine MODE       what runs in Linux namespaces: terminals (default),\n"
         "                           agent, required (agent, and an error where it\n"
         "                           cannot be) or none; settings: \"confine\"\n"
         "      --confine-paths PATH bound read-only in the confinement (absolute);\n"
         "                           repeatable; settings: \"confine_paths\"\n"
         "      --network            confined children keep the host's network;\n"
         "                           settings: \"network\"\n"
         "      --inherit-env        the agent and its terminals get ananke's whole\n"
         "                           environment, not PATH, HOME (the sandbox), TMPDIR,\n"
         "                           LANG, TERM and the agent's env; settings: \"inherit_env\"\n"
         "      --redact REGEX       also redact every match of REGEX in every output;\n"
         "                           repeatable\n"
         "  -r, --reporter NAME:PATH also write junit:PATH, json:PATH or md:PATH\n"
         "                           (PATH '-' = stdout); repeatable\n"
         "  -v, --verbose            every frame in and out on stderr\n"
         "  -h, --help               this help\n"
         "\n"
         "exit: 0 every required test passed for every agent, 1 a required test "
         "failed,\n"
         "2 invalid invocation, settings or test file, or no test found.");
}

struct agent {
    char *name, *command;
    char **argv;
    char **env;
    /* confinement and environment (struct an_comply_spec): the flags',
     * then the settings file's keys */
    int confine;
    char **confine_paths; /* NULL-terminated */
    bool network, inherit_env;
};

/* The flags' confinement, every agent's default. */
struct conf {
    int confine; /* enum an_acp_confine */
    const char **paths;
    size_t npaths;
    bool network, inherit_env;
};

struct ctx {
    struct agent *agents;
    size_t nagents;
    const struct conf *conf;
    struct an_redactor *red;
    struct an_jsont **tests;
    size_t ntests, captests;
};

static void agent_free(struct agent *a)
{
    free(a->name);
    free(a->command);
    for (char **p = a->argv; p && *p; p++)
        free(*p);
    free(a->argv);
    for (char **p = a->env; p && *p; p++)
        free(*p);
    free(a->env);
    for (char **p = a->confine_paths; p && *p; p++)
        free(*p);
    free(a->confine_paths);
}

/* "terminals" ... -> enum an_acp_confine, or -1 */
static int confine_parse(const char *m)
{
    static const struct {
        const char *name;
        enum an_acp_confine v;
    } modes[] = {{"terminals", AN_ACP_CONFINE_TERMINALS},
                 {"agent", AN_ACP_CONFINE_AGENT},
                 {"required", AN_ACP_CONFINE_REQUIRED},
                 {"none", AN_ACP_CONFINE_NONE}};
    for (size_t i = 0; m && i < sizeof modes / sizeof *modes; i++)
        if (!strcmp(modes[i].name, m))
            return (int)modes[i].v;
    return -1;
}

#define MAX_CONFINE_PATHS 32 /* as an ACP target's confine_paths */

static struct agent *agent_add(struct ctx *c, const char *name, size_t nlen)
{
    c->agents = an_xrealloc(c->agents, (c->nagents + 1) * sizeof *c->agents);
    struct agent *a = &c->agents[c->nagents++];
    memset(a, 0, sizeof *a);
    a->name = an_xstrndup(name, nlen);
    a->confine = c->conf->confine;
    a->network = c->conf->network;
    a->inherit_env = c->conf->inherit_env;
    a->confine_paths = an_xcalloc(c->conf->npaths + 1, sizeof *a->confine_paths);
    for (size_t i = 0; i < c->conf->npaths; i++)
        a->confine_paths[i] = an_xstrdup(c->conf->paths[i]);
    return a;
}

static int agent_from_shell(struct ctx *c, const char *spec, bool agui)
{
    const char *eq = strchr(spec, '=');
    if (!eq || eq == spec || !eq[1])
        return cli_usage_error("--agent takes NAME=%s, not '%s'", agui ? "URL" : "COMMAND", spec);
    for (size_t i = 0; i < c->nagents; i++)
        if (strlen(c->agents[i].name) == (size_t)(eq - spec) &&
            !strncmp(c->agents[i].name, spec, (size_t)(eq - spec)))
            return cli_usage_error("agent '%.*s' given twice", (int)(eq - spec), spec);
    if (agui && strncmp(eq + 1, "http://", 7) && strncmp(eq + 1, "https://", 8))
        return cli_usage_error("--agent %.*s: an AG-UI agent is an http:// or https:// URL, not "
                               "'%s'",
                               (int)(eq - spec), spec, eq + 1);
    struct agent *a = agent_add(c, spec, (size_t)(eq - spec));
    a->command = an_xstrdup(eq + 1);
    if (agui)
        return 0; /* an endpoint: nothing to start */
    a->argv = an_xcalloc(4, sizeof *a->argv);
    a->argv[0] = an_xstrdup("/bin/sh");
    a->argv[1] = an_xstrdup("-c");
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "exec %s", eq + 1);
    a->argv[2] = an_buf_detach(&b, NULL);
    return 0;
}

/* A secret too short to be searched for: said once per label (the
 * settings and tests are read by one thread, before anything runs). */
static void short_secret(const char *label, void *ud)
{
    static char said[16][128];
    static size_t nsaid;
    for (size_t i = 0; i < nsaid; i++)
        if (!strncmp(said[i], label, sizeof said[i] - 1))
            return;
    if (nsaid < 16)
        snprintf(said[nsaid++], sizeof said[0], "%s", label);
    char *shown = an_comply_shown(ud, label); /* an agent's name may hold a --redact match */
    fprintf(stderr,
            "ananke: warning: the value of %s is shorter than %d bytes: it is not searched for, "
            "so it is not redacted\n",
            shown, AN_REDACT_MIN);
    free(shown);
}

/* An agent's confine, confine_paths, network and inherit_env keys (as an
 * ACP target's in a config): over the flags' values. */
static int settings_confine(const char *file, const char *name, const json_t *s, struct agent *a)
{
    json_t *v;
    if ((v = json_object_get(s, "confine"))) {
        int m = confine_parse(json_string_value(v));
        if (m < 0) {
            fprintf(stderr,
                    "ananke: %s: agent_servers.%s.confine must be one of: terminals, agent, "
                    "required, none\n",
                    file, name);
            return AN_EXIT_INVALID;
        }
        a->confine = m;
    }
    static const char *const flags[] = {"network", "inherit_env"};
    bool *dst[] = {&a->network, &a->inherit_env};
    for (size_t i = 0; i < 2; i++) {
        if (!(v = json_object_get(s, flags[i])))
            continue;
        if (!json_is_boolean(v)) {
            fprintf(stderr, "ananke: %s: agent_servers.%s.%s must be true or false\n", file, name,
                    flags[i]);
            return AN_EXIT_INVALID;
        }
        *dst[i] = json_is_true(v);
    }
    if (!(v = json_object_get(s, "confine_paths")))
        return 0;
    if (!json_is_array(v) || json_array_size(v) > MAX_CONFINE_PATHS) {
        fprintf(stderr,
                "ananke: %s: agent_servers.%s.confine_paths must be an array of at most %d "
                "absolute paths\n",
                file, name, MAX_CONFINE_PATHS);
        return AN_EXIT_INVALID;
    }
    for (char **p = a->confine_paths; p && *p; p++)
        free(*p);
    free(a->confine_paths);
    a->confine_paths = an_xcalloc(json_array_size(v) + 1, sizeof *a->confine_paths);
    for (size_t i = 0; i < json_array_size(v); i++) {
        const char *src = json_string_value(json_array_get(v, i));
        char *p = NULL;
        struct an_err ie = AN_ERR_INIT;
        struct an_loc loc = {.file = file};
        struct an_vars none = AN_VARS_INIT; /* ${ENV.NAME} only */
        if (src && an_interp(src, &loc, &none, &p, &ie)) {
            fprintf(stderr, "ananke: %s: agent_servers.%s.confine_paths[%zu]: %s\n", file, name,
                    i, ie.msg);
            free(p);
            return AN_EXIT_INVALID;
        }
        if (!p || p[0] != '/') {
            fprintf(stderr,
                    "ananke: %s: agent_servers.%s.confine_paths[%zu] must be an absolute path\n",
                    file, name, i);
            free(p);
            return AN_EXIT_INVALID;
        }
        a->confine_paths[i] = p;
    }
    return 0;
}

/* Agents of the settings file: all of them, or those named in `pick`. */
static int agents_from_settings(struct ctx *c, const char *file, char **pick, size_t npick)
{
    json_error_t je;
    json_t *root = json_load_file(file, JSON_REJECT_DUPLICATES, &je), *servers;
    int rc = 0;
    if (!root) {
        fprintf(stderr, "ananke: %s:%d:%d: %s\n", file, je.line, je.column, je.text);
        return AN_EXIT_INVALID;
    }
    servers = json_object_get(root, "agent_servers");
    if (!json_is_object(servers)) {
        fprintf(stderr, "ananke: %s: needs an \"agent_servers\" object\n", file);
        json_decref(root);
        return AN_EXIT_INVALID;
    }
    for (size_t i = 0; i < npick && !rc; i++)
        if (!json_object_get(servers, pick[i]))
            rc = cli_usage_error("agent '%s' is not in %s", pick[i], file);
    const char *name;
    json_t *s;
    json_object_foreach(servers, name, s)
    {
        if (rc)
            break;
        bool want = npick == 0;
        for (size_t i = 0; i < npick; i++)
            want = want || !strcmp(pick[i], name);
        if (!want)
            continue;
        const char *cmd = an_json_str(s, "command");
        json_t *args = json_object_get(s, "args"), *env = json_object_get(s, "env");
        if (!cmd || !*cmd || (args && !json_is_array(args)) || (env && !json_is_object(env))) {
            fprintf(stderr,
                    "ananke: %s: agent_servers.%s needs a \"command\" string, "
                    "\"args\" an "
                    "array of strings and \"env\" an object of strings\n",
                    file, name);
            rc = AN_EXIT_INVALID;
            break;
        }
        struct agent *a = agent_add(c, name, strlen(name));
        size_t na = json_array_size(args);
        a->argv = an_xcalloc(na + 2, sizeof *a->argv);
        a->argv[0] = an_xstrdup(cmd);
        struct an_buf shown = AN_BUF_INIT;
        an_buf_puts(&shown, cmd);
        for (size_t k = 0; k < na; k++) {
            const char *v = json_string_value(json_array_get(args, k));
            if (!v) {
                fprintf(stderr, "ananke: %s: agent_servers.%s.args[%zu] must be a string\n", file,
                        name, k);
                rc = AN_EXIT_INVALID;
                break;
            }
            a->argv[k + 1] = an_xstrdup(v);
            an_buf_printf(&shown, " %s", v);
        }
        a->command = an_buf_detach(&shown, NULL);
        a->env = an_xcalloc(json_object_size(env) + 1, sizeof *a->env);
        size_t ne = 0;
        const char *k;
        json_t *v;
        json_object_foreach(env, k, v)
        {
            if (!json_is_string(v)) {
                fprintf(stderr, "ananke: %s: agent_servers.%s.env.%s must be a string\n", file,
                        name, k);
                rc = AN_EXIT_INVALID;
                break;
            }
            /* ${ENV.NAME} passes one of ananke's variables on by name (the
             * agent no longer gets ananke's environment); $${ is a literal ${ */
            char *val = NULL;
            struct an_err ie = AN_ERR_INIT;
            struct an_loc loc = {.file = file};
            struct an_vars none = AN_VARS_INIT;
            if (an_interp(json_string_value(v), &loc, &none, &val, &ie)) {
                fprintf(stderr, "ananke: %s: agent_servers.%s.env.%s: %s\n", file, name, k,
                        ie.msg);
                free(val);
                rc = AN_EXIT_INVALID;
                break;
            }
            /* a secret, as an ACP target's env of `ananke run` is: named like
             * one, or built from ananke's environment */
            if (an_secret_name(k) || strstr(json_string_value(v), "${ENV.")) {
                char label[300];
                snprintf(label, sizeof label, "env %.100s of agent %.100s", k, name);
                an_secrets_add_template(c->red, label, json_string_value(v), short_secret,
                                        c->red);
            }
            struct an_buf e = AN_BUF_INIT;
            an_buf_printf(&e, "%s=%s", k, val);
            free(val);
            a->env[ne++] = an_buf_detach(&e, NULL);
        }
        if (!rc)
            rc = settings_confine(file, name, s, a);
    }
    json_decref(root);
    return rc;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.jsont of a directory (sorted) or the file itself. */
static int collect(const char *path, char ***files, size_t *n)
{
    struct stat st;
    if (stat(path, &st))
        return cli_usage_error("cannot read '%s': %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        *files = an_xrealloc(*files, (*n + 1) * sizeof **files);
        (*files)[(*n)++] = an_xstrdup(path);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d)
        return cli_usage_error("cannot read '%s': %s", path, strerror(errno));
    size_t first = *n;
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t l = strlen(de->d_name);
        if (l <= 6 || strcmp(de->d_name + l - 6, ".jsont") || de->d_name[0] == '.')
            continue;
        struct an_buf b = AN_BUF_INIT;
        an_buf_printf(&b, "%s%s%s", path, path[strlen(path) - 1] == '/' ? "" : "/", de->d_name);
        *files = an_xrealloc(*files, (*n + 1) * sizeof **files);
        (*files)[(*n)++] = an_buf_detach(&b, NULL);
    }
    closedir(d);
    if (*n > first)
        qsort(*files + first, *n - first, sizeof **files, cmp_str);
    return 0;
}

/* Every ${ENV.NAME} a test file writes is a secret (an AG-UI header, a
 * credential in a prompt): its value is redacted in every output. */
static void env_refs_of(struct an_redactor *red, const char *file)
{
    FILE *f = fopen(file, "rb");
    if (!f)
        return; /* loaded a moment ago: gone since, it sends nothing */
    struct an_buf b = AN_BUF_INIT;
    char chunk[8192];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        an_buf_append(&b, chunk, n);
    fclose(f);
    if (b.data && strstr(b.data, "${ENV."))
        an_secrets_add_env_refs(red, b.data, short_secret, red);
    an_buf_release(&b);
}

enum rep_kind { REP_MD, REP_JUNIT, REP_JSON };

/* --jobs: each test has its own agent process and sandbox, so tests run
 * side by side on a few threads; results land in preallocated slots, in
 * suite order, so the report does not depend on the interleaving. */
struct pool {
    void (*run)(const struct an_comply_spec *, const struct an_comply_agent *,
                const struct an_jsont *, const struct an_comply_opts *, struct an_comply_test *);
    const struct an_comply_spec *spec;
    struct an_comply_agent *ra;
    struct an_jsont *const *tests;
    size_t n;
    const struct an_comply_opts *o;
    atomic_size_t next;
};

static void *worker(void *arg)
{
    struct pool *pl = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&pl->next, 1);
        if (k >= pl->n) {
            an_http_thread_cleanup(); /* AG-UI: this thread's reused handles */
            return NULL;
        }
        struct an_comply_test *t = &pl->ra->tests[k];
        pl->run(pl->spec, pl->ra, pl->tests[k], pl->o, t);
        an_comply_test_redact(t, pl->o->redact); /* before anyone shows it */
        fprintf(stderr, "comply: %s %s %s (%.1fs)%s%s\n", pl->ra->name, t->id,
                an_comply_status_name(t->status), (double)t->duration_ms / 1000,
                t->status == AN_COMPLY_FAIL && t->nunmet ? ": " : "",
                t->status == AN_COMPLY_FAIL && t->nunmet ? t->unmet[0].message : "");
    }
}

/* A byte count of at least 1 (a cap): 0 or an error message (exit 2). */
static int parse_bytes(const char *name, const char *val, size_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long v = strtoull(val, &end, 10);
    if (end == val || *end || errno || v < 1 || val[0] == '-' || v > SIZE_MAX / 2)
        return cli_usage_error("%s takes a number of bytes of at least 1, not '%s'", name, val);
    *out = (size_t)v;
    return 0;
}

int cmd_comply(int argc, char **argv)
{
    int rc = 0, verbose = 0;
    const char *val = NULL, *settings = NULL, *protocol = "acp";
    bool list = false, keep = false;
    double scale = 0;
    size_t max_event = 0, max_turn = 0; /* AG-UI caps; 0: the defaults */
    unsigned jobs = 1;
    char **paths = an_xcalloc((size_t)argc + 1, sizeof *paths);
    char *installed = NULL; /* the installed default suite's path */
    char **ids = an_xcalloc((size_t)argc + 1, sizeof *ids);
    char **pick = an_xcalloc((size_t)argc + 1, sizeof *pick);
    size_t npaths = 0, nids = 0, npick = 0, nfiles = 0, nreps = 0;
    char **files = NULL;
    struct {
        enum rep_kind kind;
        const char *path;
    } reps[16];
    struct ctx c = {0};
    struct an_comply_result res = {0};
    char **shell_specs = an_xcalloc((size_t)argc + 1, sizeof *shell_specs);
    size_t nshell = 0;
    bool conf_given = false;
    struct conf conf = {.confine = AN_ACP_CONFINE_TERMINALS,
                        .paths = an_xcalloc((size_t)argc + 1, sizeof *conf.paths)};
    c.conf = &conf;
    c.red = an_redactor_new();

    for (int i = 1; i < argc && !rc; i++) {
        const char *a = argv[i];
        if (cli_opt_help(a)) {
            usage();
            goto done;
        } else if (cli_opt_verbose(a, false, &verbose)) {
            continue;
        } else if (!strcmp(a, "--list-tests")) {
            list = true;
        } else if (!strcmp(a, "--keep-sandbox")) {
            keep = true;
        } else if (!strcmp(a, "--network")) {
            conf.network = conf_given = true;
        } else if (!strcmp(a, "--inherit-env")) {
            conf.inherit_env = conf_given = true;
        } else if (cli_opt("comply", argc, argv, &i, "--confine", NULL, &val, &rc)) {
            conf_given = true;
            if (val && (conf.confine = confine_parse(val)) < 0)
                rc = cli_usage_error("--confine takes terminals, agent, required or none, not "
                                     "'%s'",
                                     val);
        } else if (cli_opt("comply", argc, argv, &i, "--confine-paths", NULL, &val, &rc)) {
            conf_given = true;
            if (val && val[0] != '/')
                rc = cli_usage_error("--confine-paths takes an absolute path, not '%s'", val);
            else if (val && conf.npaths == MAX_CONFINE_PATHS)
                rc = cli_usage_error("at most %d --confine-paths", MAX_CONFINE_PATHS);
            else if (val)
                conf.paths[conf.npaths++] = val;
        } else if (cli_opt("comply", argc, argv, &i, "--redact", NULL, &val, &rc)) {
            struct an_err rerr = AN_ERR_INIT;
            if (val && an_redactor_add_regex(c.red, val, &rerr))
                rc = cli_usage_error("--redact: %s", rerr.msg);
        } else if (cli_opt("comply", argc, argv, &i, "--jobs", "-j", &val, &rc)) {
            char *end = NULL;
            unsigned long v = val ? strtoul(val, &end, 10) : 0;
            if (val && (end == val || *end || v < 1 || v > 64))
                rc = cli_usage_error("--jobs takes 1 to 64, not '%s'", val);
            else if (val)
                jobs = (unsigned)v;
        } else if (cli_opt("comply", argc, argv, &i, "--timeout-scale", NULL, &val, &rc)) {
            char *end = NULL;
            scale = val ? strtod(val, &end) : 0;
            if (val && (end == val || *end || !(scale > 0 && scale <= 100)))
                rc = cli_usage_error("--timeout-scale takes a factor above 0, e.g. 0.5, not '%s'",
                                     val);
        } else if (cli_opt("comply", argc, argv, &i, "--max-event-bytes", NULL, &val, &rc)) {
            rc = val ? parse_bytes("--max-event-bytes", val, &max_event) : rc;
        } else if (cli_opt("comply", argc, argv, &i, "--max-turn-bytes", NULL, &val, &rc)) {
            rc = val ? parse_bytes("--max-turn-bytes", val, &max_turn) : rc;
        } else if (cli_opt("comply", argc, argv, &i, "--protocol", NULL, &val, &rc)) {
            protocol = val;
        } else if (cli_opt("comply", argc, argv, &i, "--agent", "-a", &val, &rc)) {
            if (val && strchr(val, '='))
                shell_specs[nshell++] = (char *)val;
            else if (val)
                pick[npick++] = (char *)val;
        } else if (cli_opt("comply", argc, argv, &i, "--settings", NULL, &val, &rc)) {
            settings = val;
        } else if (cli_opt("comply", argc, argv, &i, "--test", "-t", &val, &rc)) {
            if (val)
                ids[nids++] = (char *)val;
        } else if (cli_opt("comply", argc, argv, &i, "--reporter", "-r", &val, &rc)) {
            if (!val)
                break;
            const char *colon = strchr(val, ':');
            size_t n = colon ? (size_t)(colon - val) : strlen(val);
            enum rep_kind k;
            if (n == 5 && !strncmp(val, "junit", 5))
                k = REP_JUNIT;
            else if (n == 4 && !strncmp(val, "json", 4))
                k = REP_JSON;
            else if ((n == 2 && !strncmp(val, "md", 2)) || (n == 8 && !strncmp(val, "markdown", 8)))
                k = REP_MD;
            else {
                rc = cli_usage_error("unknown reporter '%.*s' for comply (available: junit, "
                                     "json, md)",
                                     (int)n, val);
                break;
            }
            if (nreps == 16) {
                rc = cli_usage_error("at most 16 reporters");
                break;
            }
            reps[nreps].kind = k;
            reps[nreps++].path = colon && colon[1] ? colon + 1 : "-";
        } else if (a[0] == '-' && a[1]) {
            rc = cli_unknown_option("comply", a, usage);
        } else {
            paths[npaths++] = argv[i];
        }
    }
    if (rc)
        goto done;
    if (strcmp(protocol, "acp") && strcmp(protocol, "agui") && strcmp(protocol, "mcp")) {
        rc = cli_usage_error("--protocol takes acp, agui or mcp, not '%s'", protocol);
        goto done;
    }
    bool agui = !strcmp(protocol, "agui"), mcp = !strcmp(protocol, "mcp");
    if (agui && (settings || npick)) {
        rc = cli_usage_error("--protocol agui: agents are endpoints, give --agent NAME=URL "
                             "(--settings describes ACP agents)");
        goto done;
    }
    if (!agui && (max_event || max_turn)) {
        rc = cli_usage_error("--max-event-bytes, --max-turn-bytes: for --protocol agui only");
        goto done;
    }
    if (agui && keep) {
        rc = cli_usage_error("--keep-sandbox: AG-UI tests have no sandbox");
        goto done;
    }
    if (agui && conf_given) {
        rc = cli_usage_error("--confine, --confine-paths, --network, --inherit-env: AG-UI agents "
                             "are endpoints ananke does not start");
        goto done;
    }

    /* tests */
    if (npaths == 0) {
        /* ./compliance/PROTO in a checkout, else the installed suites */
        char *def = agui ? DEFAULT_SUITE_AGUI : mcp ? DEFAULT_SUITE_MCP : DEFAULT_SUITE;
        struct stat st;
        if (stat(def, &st) != 0 && (installed = cli_datadir_path(def)))
            def = installed;
        paths[npaths++] = def;
    }
    for (size_t i = 0; i < npaths && !rc; i++)
        rc = collect(paths[i], &files, &nfiles);
    if (rc)
        goto done;
    for (size_t i = 0; i < nfiles; i++) {
        struct an_jsont *t = NULL;
        struct an_err err = AN_ERR_INIT;
        if (an_jsont_load(&t, files[i], &err)) {
            char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
            fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_INVALID;
            continue;
        }
        if (t->protocol != (agui ? AN_JSONT_AGUI : AN_JSONT_ACP)) {
            fprintf(stderr,
                    "ananke: %s: an %s test (its steps are %s steps), but --protocol is %s\n",
                    t->file, t->protocol == AN_JSONT_AGUI ? "AG-UI" : "ACP",
                    t->protocol == AN_JSONT_AGUI ? "run/http" : "ACP", protocol);
            an_jsont_free(t);
            rc = AN_EXIT_INVALID;
            continue;
        }
        /* MCP has no sessions: a newSession step is an ACP test run by mistake */
        for (size_t s = 0; mcp && s < t->nsteps; s++)
            if (t->steps[s].kind == AN_JSONT_NEW_SESSION) {
                fprintf(stderr,
                        "ananke: %s: steps[%zu]: newSession is an ACP step, but --protocol is "
                        "mcp\n",
                        t->file, s);
                rc = AN_EXIT_INVALID;
                break;
            }
        if (rc) {
            an_jsont_free(t);
            continue;
        }
        bool want = nids == 0;
        for (size_t k = 0; k < nids; k++)
            want = want || !strcmp(ids[k], t->id);
        for (size_t k = 0; k < c.ntests && want; k++)
            if (!strcmp(c.tests[k]->id, t->id)) {
                fprintf(stderr, "ananke: %s: test id '%s' also comes from %s\n", t->file, t->id,
                        c.tests[k]->file);
                rc = AN_EXIT_INVALID;
            }
        if (!want) {
            an_jsont_free(t);
            continue;
        }
        c.tests = an_xrealloc(c.tests, (c.ntests + 1) * sizeof *c.tests);
        c.tests[c.ntests++] = t;
        env_refs_of(c.red, files[i]);
    }
    if (rc)
        goto done;
    for (size_t k = 0; k < nids; k++) {
        bool found = false;
        for (size_t i = 0; i < c.ntests; i++)
            found = found || !strcmp(c.tests[i]->id, ids[k]);
        if (!found) {
            rc = cli_usage_error("no test with id '%s' (see --list-tests)", ids[k]);
            goto done;
        }
    }
    if (c.ntests == 0) {
        rc = cli_usage_error("no .jsont test found in %s", paths[0]);
        goto done;
    }
    if (list) {
        for (size_t i = 0; i < c.ntests; i++)
            printf("%s - %s\n", c.tests[i]->id, c.tests[i]->title);
        goto done;
    }

    /* agents */
    for (size_t i = 0; i < nshell && !rc; i++)
        rc = agent_from_shell(&c, shell_specs[i], agui);
    if (!rc && settings)
        rc = agents_from_settings(&c, settings, pick, npick);
    else if (!rc && npick)
        rc = cli_usage_error("--agent '%s' needs --settings (or write NAME=COMMAND)", pick[0]);
    if (rc)
        goto done;
    if (c.nagents == 0) {
        rc = cli_usage_error(agui ? "no agent: give --agent NAME=URL"
                                  : "no agent: give --agent NAME=COMMAND or --settings FILE");
        goto done;
    }

    struct an_comply_opts o = AN_COMPLY_OPTS_INIT;
    o.redact = c.red;
    o.protocol = mcp ? AN_COMPLY_PROTO_MCP : AN_COMPLY_PROTO_ACP;
    o.keep_sandbox = keep;
    o.timeout_scale = scale;
    o.max_event_bytes = max_event;
    o.max_turn_bytes = max_turn;
    o.verbose = verbose;
    o.log = stderr;
    res.protocol = an_xstrdup(protocol);
    res.started_ms = an_clock_unix_ms();
    cli_cancel_on_signals();
    int64_t t0 = an_clock_mono_ms();
    for (size_t i = 0; i < c.nagents; i++) {
        struct agent *ag = &c.agents[i];
        struct an_comply_spec spec = {ag->name,
                                      ag->command,
                                      (const char *const *)ag->argv,
                                      (const char *const *)ag->env,
                                      ag->confine,
                                      (const char *const *)ag->confine_paths,
                                      ag->network,
                                      ag->inherit_env};
        struct an_comply_agent *ra = an_comply_add_agent(&res, ag->name, ag->command);
        (agui ? an_comply_agui_probe : an_comply_probe)(&spec, ra, &o);
        an_comply_agent_redact(ra, c.red);
        if (!ra->init)
            fprintf(stderr, "comply: %s: %s failed: %s\n", ra->name,
                    agui ? "the probe run" : "initialize", ra->init_error ? ra->init_error : "?");
        /* every slot first: the workers write into them, nothing grows */
        for (size_t k = 0; k < c.ntests; k++)
            an_comply_add_test(ra);
        struct pool pl = {.run = agui ? an_comply_agui_run : an_comply_run,
                          .spec = &spec,
                          .ra = ra,
                          .tests = c.tests,
                          .n = c.ntests,
                          .o = &o};
        atomic_init(&pl.next, 0);
        unsigned nw = jobs > c.ntests ? (unsigned)c.ntests : jobs;
        pthread_t th[64];
        unsigned started = 0;
        for (unsigned w = 1; w < nw && w < 64; w++)
            if (pthread_create(&th[started], NULL, worker, &pl) == 0)
                started++;
        worker(&pl); /* this thread works too */
        for (unsigned w = 0; w < started; w++)
            pthread_join(th[w], NULL);
    }
    res.duration_ms = an_clock_mono_ms() - t0;

    struct an_err err = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    if (an_report_comply_md(&res, "-", &err)) {
        fprintf(stderr, "ananke: %s\n", an_err_format(&err, buf, sizeof buf));
        rc = AN_EXIT_FAIL;
    }
    for (size_t i = 0; i < nreps; i++) {
        int (*w)(const struct an_comply_result *, const char *, struct an_err *) =
            reps[i].kind == REP_JUNIT  ? an_report_comply_junit
            : reps[i].kind == REP_JSON ? an_report_comply_json
                                       : an_report_comply_md;
        if (w(&res, reps[i].path, &err)) {
            fprintf(stderr, "ananke: cannot write report: %s\n",
                    an_err_format(&err, buf, sizeof buf));
            rc = AN_EXIT_FAIL;
        }
    }
    size_t p, f, na, rf;
    an_comply_counts(&res, &p, &f, &na, &rf);
    fprintf(stderr, "comply: %zu passed, %zu failed (%zu required), %zu NA\n", p, f, rf, na);
    if (rf)
        rc = AN_EXIT_FAIL;
    if (an_cancelled()) {
        fputs("ananke: interrupted\n", stderr);
        rc = cli_interrupted_exit();
    }

done:
    for (size_t i = 0; i < c.ntests; i++)
        an_jsont_free(c.tests[i]);
    free(c.tests);
    for (size_t i = 0; i < c.nagents; i++)
        agent_free(&c.agents[i]);
    free(c.agents);
    for (size_t i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    free(paths);
    free(installed);
    free(ids);
    free(pick);
    free(shell_specs);
    free(conf.paths);
    an_redactor_free(c.red);
    an_comply_result_release(&res);
    return rc;
}
