/* `tool_mocks:` and `tool_mocks_strict:` of a test or a turn (docs/tools.md
 * "Stubs and faults"). */
#include <string.h>

#include "ananke/check.h"
#include "ananke/regex.h"
#include "load/loaders.h"
#include "load/schema.h"
#include "load/tool_mocks.h"

static void json_release(void *p)
{
    json_decref(p);
}

static void regex_release(void *p)
{
    an_regex_free(p);
}

static json_t *keep_json(struct an_ld *ld, const struct an_ynode *n)
{
    json_t *j = an_yaml_to_json(n, ld->err);
    if (j)
        an_arena_defer(ld->a, json_release, j);
    return j;
}

static int load_args(struct an_ld *ld, const struct an_ynode *v, struct an_tool_mock *m)
{
    int rc;
    if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "args_match")))
        return rc;
    m->nargs = v->npairs;
    m->args = an_arena_alloc(ld->a, (v->npairs ? v->npairs : 1) * sizeof *m->args);
    for (size_t i = 0; i < v->npairs; i++) {
        const struct an_ypair *p = &v->pairs[i];
        const char *src;
        m->args[i].path = p->key->str;
        m->args[i].loc = p->key->loc;
        json_t *none;
        if (an_json_path_get(NULL, p->key->str, &none))
            return an_fail(ld->err, AN_ESCHEMA, &p->key->loc,
                           "invalid argument path '%s' (dots between keys, list items by "
                           "number: items.0.sku)",
                           p->key->str);
        if ((rc = an_ld_string(ld, p->value, p->key->str, &src)) ||
            (rc = an_regex_compile(&m->args[i].re, src, &p->value->loc, ld->err)))
            return rc;
        an_arena_defer(ld->a, regex_release, m->args[i].re);
    }
    return 0;
}

static int load_fault(struct an_ld *ld, const struct an_ynode *v, struct an_tool_mock *m)
{
    static const char *const keys[] = {"kind", "code", "message", "after_ms", "bytes_per_s", NULL};
    static const char *const kinds[] = {"",           "error",     "timeout",
                                        "disconnect", "malformed", "trickle"};
    struct an_ynode *k;
    const char *kind;
    int rc;
    if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "fault")) || (rc = an_ld_keys(ld, v, keys, "fault")) ||
        (rc = an_ld_require(ld, v, "kind", "fault", &k)) ||
        (rc = an_ld_string(ld, k, "kind", &kind)))
        return rc;
    for (size_t i = 1; i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(kind, kinds[i]))
            m->fault = (enum an_fault_kind)i;
    if (!m->fault)
        return an_fail(ld->err, AN_ESCHEMA, &k->loc,
                       "unknown fault kind '%s' (error, timeout, disconnect, malformed, trickle)",
                       kind);
    m->code = -32000;
    m->message = "tool call failed (tool_mocks fault)";
    m->after_ms = 1000;
    m->bytes_per_s = 10;
    const struct an_ynode *x;
    if ((x = an_yaml_get(v, "code"))) {
        json_t *j = an_yaml_to_json(x, ld->err);
        bool ok = json_is_integer(j);
        m->code = ok ? (int64_t)json_integer_value(j) : 0;
        json_decref(j);
        if (!ok)
            return an_fail(ld->err, AN_ESCHEMA, &x->loc, "'code' must be a whole number");
    }
    if ((x = an_yaml_get(v, "message")) && (rc = an_ld_string(ld, x, "message", &m->message)))
        return rc;
    if ((x = an_yaml_get(v, "after_ms")) && (rc = an_ld_uint(ld, x, "after_ms", &m->after_ms)))
        return rc;
    if ((x = an_yaml_get(v, "bytes_per_s"))) {
        if ((rc = an_ld_uint(ld, x, "bytes_per_s", &m->bytes_per_s)))
            return rc;
        if (m->bytes_per_s < 1)
            return an_fail(ld->err, AN_ESCHEMA, &x->loc, "'bytes_per_s' must be at least 1");
    }
    return 0;
}

/* Exactly one answer: result, results, fault or passthrough. */
static int load_answer(struct an_ld *ld, const struct an_ynode *n, struct an_tool_mock *m)
{
    static const char *const answers[] = {"result", "results", "fault", "passthrough", NULL};
    const struct an_ynode *v = NULL, *x;
    int rc;
    for (size_t i = 0; answers[i]; i++) {
        if (!(x = an_yaml_get(n, answers[i])))
            continue;
        if (v)
            return an_fail(ld->err, AN_ESCHEMA, &x->loc,
                           "a tool_mocks rule has one of result, results, fault, passthrough");
        v = x;
    }
    if (!v)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                       "a tool_mocks rule needs result, results, fault or passthrough");
    if (v == an_yaml_get(n, "result")) {
        m->nresults = 1;
        m->results = an_arena_alloc(ld->a, sizeof *m->results);
        return (m->results[0] = keep_json(ld, v)) ? 0 : ld->err->code;
    }
    if (v == an_yaml_get(n, "results")) {
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "results")))
            return rc;
        if (!v->nitems)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'results' must hold at least one");
        m->nresults = v->nitems;
        m->results = an_arena_alloc(ld->a, v->nitems * sizeof *m->results);
        for (size_t i = 0; i < v->nitems; i++)
            if (!(m->results[i] = keep_json(ld, v->items[i])))
                return ld->err->code;
        return 0;
    }
    if (v == an_yaml_get(n, "fault"))
        return load_fault(ld, v, m);
    bool b;
    if (!an_yaml_as_bool(v, &b) || !b)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'passthrough' takes true");
    m->passthrough = true;
    return 0;
}

static int load_mock(struct an_ld *ld, const struct an_ynode *n, struct an_tool_mock *m)
{
    static const char *const keys[] = {"tool",    "server", "args_match",  "result",
                                       "results", "fault",  "passthrough", NULL};
    struct an_ynode *v;
    int rc;
    m->loc = n->loc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "tool_mocks[]")) ||
        (rc = an_ld_keys(ld, n, keys, "a tool_mocks rule")) ||
        (rc = an_ld_require(ld, n, "tool", "a tool_mocks rule", &v)) ||
        (rc = an_ld_string(ld, v, "tool", &m->tool)))
        return rc;
    if ((v = an_yaml_get(n, "server")) && (rc = an_ld_string(ld, v, "server", &m->server)))
        return rc;
    if ((v = an_yaml_get(n, "args_match")) && (rc = load_args(ld, v, m)))
        return rc;
    return load_answer(ld, n, m);
}

int an_tool_mocks_load(struct an_ld *ld, const struct an_ynode *map, struct an_tool_mock **out,
                       size_t *n, int *strict)
{
    struct an_ynode *v;
    int rc;
    if ((v = an_yaml_get(map, "tool_mocks_strict"))) {
        bool b;
        if (!an_yaml_as_bool(v, &b))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'tool_mocks_strict' takes true or false");
        *strict = b ? 2 : 1;
    }
    if (!(v = an_yaml_get(map, "tool_mocks")))
        return 0;
    if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "tool_mocks")))
        return rc;
    *n = v->nitems;
    *out = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof **out);
    memset(*out, 0, (v->nitems ? v->nitems : 1) * sizeof **out);
    for (size_t i = 0; i < v->nitems; i++)
        if ((rc = load_mock(ld, v->items[i], &(*out)[i])))
            return rc;
    return 0;
}
