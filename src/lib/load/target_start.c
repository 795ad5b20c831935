/* `target.start` (docs/config.md "Starting the agent") -> struct an_target_start. */
#include <string.h>

#include "core/interp.h"
#include "load/config_int.h"

#define START_TIMEOUT_DEFAULT_MS 30000

static void regex_release(void *p)
{
    an_regex_free(p);
}

static int load_ready(struct an_ld *ld, const struct an_ynode *n, struct an_target_start *s)
{
    static const char *const keys[] = {"url", "port", "log", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "ready")) ||
        (rc = an_ld_keys(ld, n, keys, "target.start.ready")))
        return rc;
    s->ready_loc = n->loc;
    if (n->npairs != 1)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                       "'ready' takes exactly one of url, port or log, not %zu", n->npairs);
    if ((v = an_yaml_get(n, "url"))) {
        s->ready = AN_READY_URL;
        if ((rc = an_cfg_tmpl(ld, v, "url", &s->ready_url)))
            return rc;
        if (!an_interp_has_refs(s->ready_url.src) && strncmp(s->ready_url.src, "http://", 7) != 0 &&
            strncmp(s->ready_url.src, "https://", 8) != 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'url' must be an http:// or https:// URL, not '%s'", s->ready_url.src);
    } else if ((v = an_yaml_get(n, "port"))) {
        int64_t port;
        s->ready = AN_READY_PORT;
        if ((rc = an_ld_uint(ld, v, "port", &port)))
            return rc;
        if (port < 1 || port > 65535)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'port' must be from 1 to 65535, not %lld",
                           (long long)port);
        s->ready_port = (unsigned)port;
    } else if ((v = an_yaml_get(n, "log"))) {
        const char *src;
        s->ready = AN_READY_LOG;
        if ((rc = an_ld_string(ld, v, "log", &src)) ||
            (rc = an_regex_compile(&s->ready_log, src, &v->loc, ld->err)))
            return rc;
        an_arena_defer(ld->a, regex_release, s->ready_log);
    } else { /* its one key is none of them (an_ld_keys named it) */
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'ready' takes one of url, port or log");
    }
    return 0;
}

int an_target_start_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"cmd", "ready", "timeout_ms", "env", "reuse_existing", NULL};
    struct an_target_start *s = an_arena_alloc(ld->a, sizeof *s);
    struct an_ynode *v;
    int rc;
    memset(s, 0, sizeof *s);
    s->loc = n->loc;
    s->timeout_ms = START_TIMEOUT_DEFAULT_MS;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "start")) ||
        (rc = an_ld_keys(ld, n, keys, "target.start")) ||
        (rc = an_ld_require(ld, n, "cmd", "target.start", &v)))
        return rc;
    /* a list is program + arguments; a single string is the program alone
     * (never split on spaces: no shell, no quoting rules to guess) */
    if (v->kind == AN_Y_SCALAR) {
        s->ncmd = 1;
        s->cmd = an_arena_alloc(ld->a, sizeof *s->cmd);
        if ((rc = an_cfg_tmpl(ld, v, "cmd", &s->cmd[0])))
            return rc;
    } else if (v->kind != AN_Y_SEQ) {
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'cmd' must be a list (the program, then its arguments) or a program");
    } else if ((rc = an_cfg_tmpl_list(ld, v, "cmd", "cmd[]", &s->cmd, &s->ncmd))) {
        return rc;
    }
    if (s->ncmd == 0 || !s->cmd[0].src[0])
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'cmd' needs a program (a list: program, then its arguments)");
    if ((rc = an_ld_require(ld, n, "ready", "target.start (url, port or log)", &v)) ||
        (rc = load_ready(ld, v, s)))
        return rc;
    if ((v = an_yaml_get(n, "timeout_ms"))) {
        if ((rc = an_ld_uint(ld, v, "timeout_ms", &s->timeout_ms)))
            return rc;
        if (s->timeout_ms < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'timeout_ms' must be at least 1");
    }
    if ((v = an_yaml_get(n, "env"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "env")))
            return rc;
        s->nenv = v->npairs;
        s->env = an_arena_alloc(ld->a, (v->npairs ? v->npairs : 1) * sizeof *s->env);
        for (size_t i = 0; i < v->npairs; i++) {
            const char *name = v->pairs[i].key->str;
            if (!name[0] || strchr(name, '='))
                return an_fail(ld->err, AN_ESCHEMA, &v->pairs[i].key->loc,
                               "invalid environment variable name '%s'", name);
            s->env[i].name = name;
            if ((rc = an_cfg_tmpl(ld, v->pairs[i].value, name, &s->env[i].value)))
                return rc;
        }
    }
    if ((v = an_yaml_get(n, "reuse_existing")) && !an_yaml_as_bool(v, &s->reuse_existing))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'reuse_existing' must be true or false");
    if (s->reuse_existing && s->ready == AN_READY_LOG)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'reuse_existing' needs ready.url or ready.port: a log line cannot tell "
                       "that a server is already there");
    t->start = s;
    return 0;
}
