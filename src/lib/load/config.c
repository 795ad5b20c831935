/* ananke.config.yaml -> struct an_config. */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "core/interp.h"
#include "core/sha256.h"
#include "ananke/target_type.h"
#include "load/config_int.h"
#include "load/target_proc.h"

static void json_release(void *p)
{
    json_decref(p);
}

int an_version_load(struct an_ld *ld, const struct an_ynode *root, const char *what,
                    const char **out)
{
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_require(ld, root, "version", what, &v)) ||
        (rc = an_ld_string(ld, v, "version", out)))
        return rc;
    const char *s = *out;
    char *end;
    long major = strtol(s, &end, 10);
    bool shape = end != s && (*end == '\0' || (*end == '.' && end[1] >= '0' && end[1] <= '9'));
    if (!shape)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "invalid version '%s' (expected MAJOR.MINOR, e.g. \"1.0\")", s);
    if (major != 1)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "unsupported schema version '%s' (this ananke reads 1.x)", s);
    return 0;
}

int an_cfg_tmpl(struct an_ld *ld, const struct an_ynode *n, const char *what, struct an_tmpl *out)
{
    int rc = an_ld_string(ld, n, what, &out->src);
    if (rc)
        return rc;
    out->loc = n->loc;
    return an_interp_check(out->src, &n->loc, ld->err);
}

int an_cfg_json_tmpl(struct an_ld *ld, const struct an_ynode *n, const char *what,
                     struct an_json_tmpl *out)
{
    (void)what;
    out->loc = n->loc;
    out->value = an_yaml_to_json(n, ld->err);
    if (!out->value)
        return ld->err->code;
    an_arena_defer(ld->a, json_release, out->value);
    return an_interp_check_json(out->value, &n->loc, ld->err);
}

int an_cfg_endpoint(struct an_ld *ld, const struct an_ynode *map, const char *where,
                    struct an_tmpl *out)
{
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_require(ld, map, "endpoint", where, &v)) ||
        (rc = an_cfg_tmpl(ld, v, "endpoint", out)))
        return rc;
    if (!an_interp_has_refs(out->src) && strncmp(out->src, "http://", 7) != 0 &&
        strncmp(out->src, "https://", 8) != 0)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'endpoint' must be an http:// or https:// URL, not '%s'", out->src);
    return 0;
}

int an_cfg_headers(struct an_ld *ld, const struct an_ynode *v, struct an_target *t)
{
    int rc;
    if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "headers")))
        return rc;
    t->nheaders = v->npairs;
    t->headers = an_arena_alloc(ld->a, (v->npairs ? v->npairs : 1) * sizeof *t->headers);
    for (size_t i = 0; i < v->npairs; i++) {
        const char *name = v->pairs[i].key->str;
        for (const char *c = name; *c; c++)
            if (*c <= ' ' || *c == ':' || *c == 0x7f)
                return an_fail(ld->err, AN_ESCHEMA, &v->pairs[i].key->loc,
                               "invalid header name '%s'", name);
        t->headers[i].name = name;
        if ((rc = an_cfg_tmpl(ld, v->pairs[i].value, name, &t->headers[i].value)))
            return rc;
    }
    return 0;
}

int an_cfg_tmpl_list(struct an_ld *ld, const struct an_ynode *v, const char *what, const char *item,
                     struct an_tmpl **out, size_t *n)
{
    int rc;
    if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, what)))
        return rc;
    *n = v->nitems;
    *out = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof **out);
    for (size_t i = 0; i < v->nitems; i++)
        if ((rc = an_cfg_tmpl(ld, v->items[i], item, &(*out)[i])))
            return rc;
    return 0;
}

int an_cfg_command(struct an_ld *ld, const struct an_ynode *n, const char *where,
                   const char *args_what, struct an_target_proc *t)
{
    struct an_ynode *v, *a;
    int rc;
    if ((rc = an_ld_require(ld, n, "command", where, &v)))
        return rc;
    if (v->kind != AN_Y_SEQ) {
        if ((rc = an_cfg_tmpl(ld, v, "command", &t->command)))
            return rc;
        return an_cfg_args_env(ld, n, args_what, t);
    }
    /* seed 000's `command: [program, arg...]`: the list carries the arguments */
    if (!v->nitems)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'command' must be a program, or a non-empty list (program and its "
                       "arguments)");
    if ((a = an_yaml_get(n, "args")))
        return an_fail(ld->err, AN_ESCHEMA, &a->loc,
                       "'args' goes with a 'command' string; this 'command' is a list, so put "
                       "the arguments in it");
    if ((rc = an_cfg_tmpl(ld, v->items[0], "command[]", &t->command)))
        return rc;
    t->nargs = v->nitems - 1;
    t->args = an_arena_alloc(ld->a, (t->nargs ? t->nargs : 1) * sizeof *t->args);
    for (size_t i = 1; i < v->nitems; i++)
        if ((rc = an_cfg_tmpl(ld, v->items[i], "command[]", &t->args[i - 1])))
            return rc;
    return an_cfg_args_env(ld, n, args_what, t);
}

int an_cfg_args_env(struct an_ld *ld, const struct an_ynode *n, const char *args_what,
                    struct an_target_proc *t)
{
    struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(n, "args")) &&
        (rc = an_cfg_tmpl_list(ld, v, args_what, "args[]", &t->args, &t->nargs)))
        return rc;
    if ((v = an_yaml_get(n, "env"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "env")))
            return rc;
        t->nenv = v->npairs;
        t->env = an_arena_alloc(ld->a, (v->npairs ? v->npairs : 1) * sizeof *t->env);
        for (size_t i = 0; i < v->npairs; i++) {
            t->env[i].name = v->pairs[i].key->str;
            if ((rc = an_cfg_tmpl(ld, v->pairs[i].value, t->env[i].name, &t->env[i].value)))
                return rc;
        }
    }
    return 0;
}

static int cfg_bool(struct an_ld *ld, const struct an_ynode *n, const char *key, bool *out)
{
    struct an_ynode *v = an_yaml_get(n, key);
    if (v && !an_yaml_as_bool(v, out))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' must be true or false", key);
    return 0;
}

int an_cfg_inherit_env(struct an_ld *ld, const struct an_ynode *n, struct an_target_proc *t)
{
    return cfg_bool(ld, n, "inherit_env", &t->inherit_env);
}

int an_cfg_max_frame(struct an_ld *ld, const struct an_ynode *n, int64_t *out)
{
    struct an_ynode *v = an_yaml_get(n, "max_frame_bytes");
    int rc;
    if (!v)
        return 0;
    if ((rc = an_ld_uint(ld, v, "max_frame_bytes", out)))
        return rc;
    if (*out < 1)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'max_frame_bytes' must be at least 1");
    return 0;
}

/* `agents:` helper agents (judges, simulators, generators), each a target. */
static int load_agents(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                       struct an_config *c)
{
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "agents")))
        return rc;
    c->nagents = n->npairs;
    c->agents = an_arena_alloc(ld->a, (n->npairs ? n->npairs : 1) * sizeof *c->agents);
    for (size_t i = 0; i < n->npairs; i++) {
        struct an_agent *a = &c->agents[i];
        a->name = n->pairs[i].key->str;
        a->loc = n->pairs[i].key->loc;
        if (!a->name[0])
            return an_fail(ld->err, AN_ESCHEMA, &a->loc, "an agent needs a name");
        if ((rc = an_target_load(ld, n->pairs[i].value, lib, "an agent", &a->target)))
            return rc;
        if (a->target.start)
            return an_fail(ld->err, AN_ESCHEMA, &a->target.start->loc,
                           "agent '%s': 'start' belongs to the config's target only", a->name);
        if (a->target.type->not_helper)
            return an_fail(ld->err, AN_ESCHEMA, &n->pairs[i].value->loc,
                           "agent '%s': a helper agent must be of type openai or agui (%s)",
                           a->name, a->target.type->not_helper);
    }
    return 0;
}

/* `prices:` model -> {input, output}: what a million tokens cost, in any one
 * currency, for usage.max_cost when the agent reports tokens but no cost. */
static int load_prices(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    static const char *const keys[] = {"input", "output", NULL};
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "prices")))
        return rc;
    c->nprices = n->npairs;
    c->prices = an_arena_alloc(ld->a, (n->npairs ? n->npairs : 1) * sizeof *c->prices);
    for (size_t i = 0; i < n->npairs; i++) {
        struct an_price *p = &c->prices[i];
        const struct an_ynode *v = n->pairs[i].value, *in, *out;
        p->model = n->pairs[i].key->str;
        p->loc = n->pairs[i].key->loc;
        if (!p->model[0])
            return an_fail(ld->err, AN_ESCHEMA, &p->loc,
                           "a price needs a model name (or \"*\" for any other model)");
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, p->model)) ||
            (rc = an_ld_keys(ld, v, keys, "a price")) ||
            (rc = an_ld_require(ld, v, "input", "a price (per million input tokens)",
                                (struct an_ynode **)&in)) ||
            (rc = an_ld_require(ld, v, "output", "a price (per million output tokens)",
                                (struct an_ynode **)&out)) ||
            (rc = an_ld_amount(ld, in, "input", &p->input_per_mtok)) ||
            (rc = an_ld_amount(ld, out, "output", &p->output_per_mtok)))
            return rc;
    }
    return 0;
}

static int load_library(struct an_ld *ld, const struct an_ynode *n, struct an_config *c)
{
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "assertions")))
        return rc;
    c->nassertions = n->npairs;
    c->assertions = an_arena_alloc(ld->a, (n->npairs ? n->npairs : 1) * sizeof *c->assertions);
    /* every name first: with ld->errs a bad block is said and the next
     * read, and whatever reads the library meets no nameless entry */
    for (size_t i = 0; i < n->npairs; i++)
        c->assertions[i].name = n->pairs[i].key->str;
    for (size_t i = 0; i < n->npairs; i++) {
        /* named blocks do not extend each other: one level keeps them readable */
        if ((rc = an_ld_keep(ld, an_assert_load(ld, n->pairs[i].value, AN_LEVEL_TEST, NULL,
                                                &c->assertions[i].block))))
            return rc;
    }
    return 0;
}

int an_config_load(struct an_ld *ld, const char *path, struct an_config *c)
{
    static const char *const keys[] = {"version",
                                       "target",
                                       "assertions",
                                       "agents",
                                       "prices",
                                       "max_warnings",
                                       "max_history_text_bytes",
                                       "tool_servers",
                                       "otlp",
                                       "view",
                                       NULL};
    struct an_ynode *root, *v;
    int rc;
    memset(c, 0, sizeof *c);
    c->path = an_arena_strdup(ld->a, path);
    char abs[PATH_MAX];
    if (realpath(path, abs)) {
        char *slash = strrchr(abs, '/');
        if (slash && slash != abs)
            *slash = '\0';
        else
            abs[1] = '\0';
        c->dir = an_arena_strdup(ld->a, abs);
    } else {
        c->dir = ".";
    }
    unsigned char *sum = an_arena_alloc(ld->a, AN_SHA256_LEN);
    if ((rc = an_yaml_load_file_sum(&root, path, ld->scratch ? ld->scratch : ld->a, ld->a, sum,
                                    ld->err)) ||
        (rc = an_yaml_no_nul(root, ld->err)))
        return rc;
    c->digest = sum;
    if ((rc = an_ld_expect(ld, root, AN_Y_MAP, "the config file")) ||
        (rc = an_ld_keys(ld, root, keys, "the config file")) ||
        (rc = an_version_load(ld, root, "the config file", &c->version)))
        return rc;
    /* with ld->errs, a bad section is said and the next one read */
    if ((v = an_yaml_get(root, "assertions")) && (rc = an_ld_keep(ld, load_library(ld, v, c))))
        return rc;
    struct an_assert_lib lib = {c->assertions, c->nassertions};
    if ((rc = an_ld_require(ld, root, "target", "the config file", &v)) ||
        (rc = an_target_load(ld, v, &lib, "target", &c->target)))
        if ((rc = an_ld_keep(ld, rc)))
            return rc;
    if ((v = an_yaml_get(root, "agents")) && (rc = an_ld_keep(ld, load_agents(ld, v, &lib, c))))
        return rc;
    if ((v = an_yaml_get(root, "prices")) && (rc = an_ld_keep(ld, load_prices(ld, v, c))))
        return rc;
    if ((v = an_yaml_get(root, "tool_servers")) &&
        (rc = an_ld_keep(ld, an_cfg_tool_servers(ld, v, c))))
        return rc;
    if ((v = an_yaml_get(root, "otlp")) && (rc = an_ld_keep(ld, an_cfg_otlp(ld, v, c))))
        return rc;
    if ((v = an_yaml_get(root, "view")) && (rc = an_ld_keep(ld, an_cfg_view(ld, v, c))))
        return rc;
    if ((v = an_yaml_get(root, "max_warnings"))) {
        if ((rc = an_ld_uint(ld, v, "max_warnings", &c->max_warnings)))
            return rc;
        if (c->max_warnings < 1)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'max_warnings' must be at least 1");
    }
    const struct an_cfg_cap hcap[] = {{"max_history_text_bytes", &c->max_history_text_bytes}};
    return an_cfg_caps(ld, root, hcap, 1);
}
