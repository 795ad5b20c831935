/* The compliance plan (include/ananke/comply_run.h): its options, its
 * tests (every .jsont of the paths, selected by id) and its errors. The
 * agents are comply_agents.c's, the run comply_pool.c's. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/buf.h"
#include "proto/acp_client.h"
#include "run/comply_plan_int.h"
#include "run/comply_redact.h"
#include "run/secrets.h"

int an_comply_plan_fail(struct an_comply_plan *p, int code, const char *fmt, ...)
{
    char msg[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 64];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (p->o.on_error)
        p->o.on_error(msg, p->o.ud);
    else
        fprintf(an_comply_plan_log(p), "ananke: %s\n", msg);
    return code;
}

FILE *an_comply_plan_log(const struct an_comply_plan *p)
{
    return p->o.log ? p->o.log : stderr;
}

/* A secret too short to be searched for: said once per label (the
 * settings and tests are read by one thread, before anything runs). */
void an_comply_plan_short_secret(const char *label, void *ud)
{
    struct an_comply_plan *p = ud;
    for (size_t i = 0; i < p->nsaid; i++)
        if (!strncmp(p->said[i], label, sizeof p->said[i] - 1))
            return;
    if (p->nsaid < sizeof p->said / sizeof *p->said)
        snprintf(p->said[p->nsaid++], sizeof p->said[0], "%s", label);
    char *shown = an_comply_shown(p->red, label); /* an agent's name may hold a --redact match */
    fprintf(an_comply_plan_log(p),
            "ananke: warning: the value of %s is shorter than %d bytes: it is not searched for, "
            "so it is not redacted\n",
            shown, AN_REDACT_MIN);
    free(shown);
}

char **an_comply_strv_copy(const char *const *v, size_t n)
{
    char **c = an_xcalloc(n + 1, sizeof *c);
    for (size_t i = 0; i < n; i++)
        c[i] = an_xstrdup(v[i]);
    return c;
}

void an_comply_strv_free(char **v)
{
    for (char **p = v; p && *p; p++)
        free(*p);
    free(v);
}

static const struct {
    const char *name;
    enum an_acp_confine v;
} confine_modes[] = {{"terminals", AN_ACP_CONFINE_TERMINALS},
                     {"agent", AN_ACP_CONFINE_AGENT},
                     {"required", AN_ACP_CONFINE_REQUIRED},
                     {"none", AN_ACP_CONFINE_NONE}};

int an_comply_confine_parse(const char *m)
{
    for (size_t i = 0; m && i < sizeof confine_modes / sizeof *confine_modes; i++)
        if (!strcmp(confine_modes[i].name, m))
            return (int)confine_modes[i].v;
    return -1;
}

bool an_comply_confine_valid(const char *mode)
{
    return an_comply_confine_parse(mode) >= 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every *.jsont of a directory (sorted) or the file itself. */
static int collect(struct an_comply_plan *p, const char *path, char ***files, size_t *n)
{
    struct stat st;
    if (stat(path, &st))
        return an_comply_plan_fail(p, AN_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode)) {
        *files = an_xrealloc(*files, (*n + 1) * sizeof **files);
        (*files)[(*n)++] = an_xstrdup(path);
        return 0;
    }
    DIR *d = opendir(path);
    if (!d)
        return an_comply_plan_fail(p, AN_EUSAGE, "cannot read '%s': %s", path, strerror(errno));
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
static void env_refs_of(struct an_comply_plan *p, const char *file)
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
        an_secrets_add_env_refs(p->red, b.data, an_comply_plan_short_secret, p);
    an_buf_release(&b);
}

/* A test of the wrong protocol: an ACP suite run as AG-UI, and an ACP
 * test run as MCP (MCP has no sessions: a newSession step is a mistake),
 * an MCP test with mcpHttp steps run as ACP. */
static int protocol_check(struct an_comply_plan *p, const struct an_jsont *t)
{
    if (t->protocol != p->proto->steps)
        return an_comply_plan_fail(p, AN_ESCHEMA,
                                   "%s: an %s test (its steps are %s steps), but --protocol is %s",
                                   t->file, t->protocol == AN_JSONT_AGUI ? "AG-UI" : "ACP",
                                   t->protocol == AN_JSONT_AGUI ? "run/http" : "ACP", p->protocol);
    for (size_t s = 0; !p->proto->sessions && s < t->nsteps; s++)
        if (t->steps[s].kind == AN_JSONT_NEW_SESSION)
            return an_comply_plan_fail(
                p, AN_ESCHEMA, "%s: steps[%zu]: newSession is an ACP step, but --protocol is %s",
                t->file, s, p->protocol);
    for (size_t s = 0; !p->proto->http_steps && s < t->nsteps; s++)
        if (t->steps[s].kind == AN_JSONT_MCP_HTTP)
            return an_comply_plan_fail(
                p, AN_ESCHEMA, "%s: steps[%zu]: mcpHttp is an MCP step, but --protocol is %s",
                t->file, s, p->protocol);
    return 0;
}

/* Load one file and keep its test when it is selected. */
static int load_one(struct an_comply_plan *p, const char *file)
{
    struct an_jsont *t = NULL;
    struct an_err err = AN_ERR_INIT;
    int rc;
    if (an_jsont_load(&t, file, &err)) {
        char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
        return an_comply_plan_fail(p, AN_ESCHEMA, "%s", an_err_format(&err, buf, sizeof buf));
    }
    if ((rc = protocol_check(p, t))) {
        an_jsont_free(t);
        return rc;
    }
    bool want = p->o.nids == 0;
    for (size_t k = 0; k < p->o.nids; k++)
        want = want || !strcmp(p->o.ids[k], t->id);
    for (size_t k = 0; k < p->ntests && want; k++)
        if (!strcmp(p->tests[k]->id, t->id))
            rc = an_comply_plan_fail(p, AN_ESCHEMA, "%s: test id '%s' also comes from %s", t->file,
                                     t->id, p->tests[k]->file);
    if (!want) {
        an_jsont_free(t);
        return rc;
    }
    p->tests = an_xrealloc(p->tests, (p->ntests + 1) * sizeof *p->tests);
    p->tests[p->ntests++] = t;
    env_refs_of(p, file);
    return rc;
}

/* Every file of every path; a broken file is said and the others still
 * read, so one run names every broken file. Then every --test id must
 * have been found, and some test must be left. */
static int load_tests(struct an_comply_plan *p)
{
    char **files = NULL;
    size_t nfiles = 0;
    int rc = 0;
    for (size_t i = 0; i < p->o.npaths && !rc; i++)
        rc = collect(p, p->o.paths[i], &files, &nfiles);
    bool broken = rc != 0;
    for (size_t i = 0; i < nfiles && !broken; i++) {
        int r = load_one(p, files[i]);
        if (r && !rc)
            rc = r;
    }
    for (size_t i = 0; i < nfiles; i++)
        free(files[i]);
    free(files);
    if (rc)
        return rc;
    for (size_t k = 0; k < p->o.nids; k++) {
        bool found = false;
        for (size_t i = 0; i < p->ntests; i++)
            found = found || !strcmp(p->tests[i]->id, p->o.ids[k]);
        if (!found)
            return an_comply_plan_fail(p, AN_EUSAGE, "no test with id '%s' (see --list-tests)",
                                       p->o.ids[k]);
    }
    if (p->ntests == 0)
        return an_comply_plan_fail(p, AN_EUSAGE, "no .jsont test found in %s", p->o.paths[0]);
    return 0;
}

int an_comply_plan_new(struct an_comply_plan **out, const struct an_comply_plan_opts *o)
{
    struct an_comply_plan *p = an_xcalloc(1, sizeof *p);
    *out = p;
    p->o = *o;
    p->protocol = an_xstrdup(o->protocol ? o->protocol : "acp");
    p->binding = o->binding ? an_xstrdup(o->binding) : NULL;
    p->o.binding = p->binding;
    p->o.protocol = p->protocol;
    if (!(p->proto = an_comply_protocol_row(p->protocol)))
        return an_comply_plan_fail(p, AN_EUSAGE, "unknown protocol '%s'", p->protocol);
    p->confine = o->confine ? an_comply_confine_parse(o->confine) : AN_ACP_CONFINE_TERMINALS;
    if (p->confine < 0)
        return an_comply_plan_fail(p, AN_EUSAGE, "unknown confinement '%s'", o->confine);
    p->confine_paths = an_comply_strv_copy(o->confine_paths, o->nconfine_paths);
    p->settings = o->settings ? an_xstrdup(o->settings) : NULL;
    p->pick = an_comply_strv_copy(o->pick, o->npick);
    p->agent_specs = an_comply_strv_copy(o->agents, o->nagents);
    p->red = an_redactor_new();
    for (size_t i = 0; i < o->nredact; i++) {
        struct an_err err = AN_ERR_INIT;
        if (an_redactor_add_regex(p->red, o->redact[i], &err))
            return an_comply_plan_fail(p, AN_EREGEX, "--redact: %s", err.msg);
    }
    int rc = load_tests(p);
    if (!rc)
        rc = an_comply_reqs_load(p, o->paths, o->npaths, o->spec);
    struct an_err err = AN_ERR_INIT;
    char buf[AN_ERR_MSG_MAX + AN_ERR_FILE_MAX + 32];
    if (!rc && o->expected_failures &&
        (rc = an_comply_xlist_load(o->expected_failures, &p->xfail, &err)))
        an_comply_plan_fail(p, rc, "--expected-failures: %s", an_err_format(&err, buf, sizeof buf));
    /* what the caller's arrays were is not kept past this call */
    p->o.paths = p->o.ids = p->o.agents = p->o.pick = p->o.confine_paths = p->o.redact = NULL;
    p->o.npaths = p->o.nids = p->o.nagents = p->o.npick = p->o.nconfine_paths = p->o.nredact = 0;
    p->o.settings = p->settings;
    p->o.spec = p->o.expected_failures = NULL;
    return rc;
}

size_t an_comply_plan_ntests(const struct an_comply_plan *p)
{
    return p->ntests;
}

const char *an_comply_plan_test_id(const struct an_comply_plan *p, size_t i)
{
    return i < p->ntests ? p->tests[i]->id : NULL;
}

const char *an_comply_plan_test_title(const struct an_comply_plan *p, size_t i)
{
    return i < p->ntests ? p->tests[i]->title : NULL;
}

static void agent_free(struct an_comply_plan_agent *a)
{
    free(a->name);
    free(a->command);
    an_comply_strv_free(a->argv);
    an_comply_strv_free(a->env);
    an_comply_strv_free(a->confine_paths);
}

void an_comply_plan_free(struct an_comply_plan *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->ntests; i++)
        an_jsont_free(p->tests[i]);
    free(p->tests);
    for (size_t i = 0; i < p->nagents; i++)
        agent_free(&p->agents[i]);
    free(p->agents);
    an_comply_strv_free(p->confine_paths);
    free(p->binding);
    an_comply_strv_free(p->pick);
    an_comply_strv_free(p->agent_specs);
    free(p->settings);
    free(p->protocol);
    an_comply_reqs_free(p);
    an_comply_xlist_release(&p->xfail);
    an_redactor_free(p->red);
    free(p);
}
