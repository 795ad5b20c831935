/* *.test.yaml -> struct an_test. */
#include <string.h>

#include "core/buf.h"
#include "core/interp.h"
#include "core/sha256.h"
#include "load/dynamic_load.h"
#include "load/config_int.h" /* an_cfg_caps */
#include "load/loaders.h"
#include "load/tool_mocks.h"
#include "load/select_load.h"

static int load_hook(struct an_ld *ld, const struct an_ynode *n, struct an_hook *h)
{
    static const char *const keys[] = {"cmd", "timeout_ms", "max_stdout_bytes", "max_stderr_bytes",
                                       NULL};
    struct an_ynode *v;
    int rc;
    h->loc = n->loc;
    h->timeout_ms = 30000;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "hooks[]")) ||
        (rc = an_ld_keys(ld, n, keys, "a hook")) ||
        (rc = an_ld_require(ld, n, "cmd", "a hook", &v)))
        return rc;
    if (v->kind == AN_Y_SCALAR && !an_yaml_is_null(v))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'cmd' must be a list (argv, run without a shell), e.g. "
                       "[\"bash\", \"scripts/setup.sh\"]");
    if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "cmd")))
        return rc;
    if (v->nitems == 0)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'cmd' must name a program");
    h->argc = v->nitems;
    h->argv = an_arena_alloc(ld->a, v->nitems * sizeof *h->argv);
    for (size_t i = 0; i < v->nitems; i++) {
        if ((rc = an_ld_string(ld, v->items[i], "cmd[]", &h->argv[i].src)) ||
            (rc = an_interp_check(h->argv[i].src, &v->items[i]->loc, ld->err)))
            return rc;
        h->argv[i].loc = v->items[i]->loc;
    }
    if ((v = an_yaml_get(n, "timeout_ms"))) {
        if ((rc = an_ld_uint(ld, v, "timeout_ms", &h->timeout_ms)))
            return rc;
        if (h->timeout_ms == 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'timeout_ms' must be at least 1");
    }
    const struct an_cfg_cap caps[] = {{"max_stdout_bytes", &h->max_stdout_bytes},
                                      {"max_stderr_bytes", &h->max_stderr_bytes}};
    return an_cfg_caps(ld, n, caps, 2);
}

static void json_release(void *p);

/* A prompt's `arguments`: a map of strings (MCP's prompts/get takes
 * {name: string}); numbers and booleans are the text written. */
static json_t *prompt_arguments(struct an_ld *ld, const struct an_ynode *v)
{
    if (an_ld_expect(ld, v, AN_Y_MAP, "arguments"))
        return NULL;
    json_t *o = json_object();
    for (size_t i = 0; i < v->npairs; i++) {
        const struct an_ynode *val = v->pairs[i].value;
        if (val->kind != AN_Y_SCALAR || an_yaml_is_null(val)) {
            json_decref(o);
            an_fail(ld->err, AN_ESCHEMA, &val->loc,
                    "a prompt's argument '%s' must be a string (MCP prompt arguments are text)",
                    v->pairs[i].key->str);
            return NULL;
        }
        const struct an_ynode *k = v->pairs[i].key;
        json_t *str = json_stringn(val->str, val->len);
        if (!str || json_object_setn_new(o, k->str, k->len, str)) {
            json_decref(o);
            an_fail(ld->err, AN_ESCHEMA, &val->loc, "a prompt's argument '%s' is not valid UTF-8",
                    k->str);
            return NULL;
        }
    }
    return o;
}

/* mcp:call (tool, arguments), mcp:list (what), mcp:read (uri), mcp:prompt
 * (prompt, arguments); docs/mcp.md. */
static int load_mcp_turn(struct an_ld *ld, const struct an_ynode *n, struct an_turn *t)
{
    static const char *const whats[] = {"tools", "resources", "prompts", "templates", NULL};
    static const char *const own[][4] = {
        {"tool", "arguments", NULL, NULL},   /* AN_TURN_MCP_CALL */
        {"what", NULL, NULL, NULL},          /* AN_TURN_MCP_LIST */
        {"uri", NULL, NULL, NULL},           /* AN_TURN_MCP_READ */
        {"prompt", "arguments", NULL, NULL}, /* AN_TURN_MCP_PROMPT */
    };
    static const char *const all[] = {"tool", "arguments", "what", "uri", "prompt", NULL};
    const char *const *mine = own[t->type - AN_TURN_MCP_CALL];
    const char *kind = t->type == AN_TURN_MCP_CALL   ? "mcp:call"
                       : t->type == AN_TURN_MCP_LIST ? "mcp:list"
                       : t->type == AN_TURN_MCP_READ ? "mcp:read"
                                                     : "mcp:prompt";
    struct an_ynode *v;
    int rc;
    for (size_t i = 0; all[i]; i++) {
        bool ok = false;
        for (size_t k = 0; mine[k]; k++)
            ok |= !strcmp(mine[k], all[i]);
        if (!ok && (v = an_yaml_get(n, all[i])))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "an %s turn takes no '%s'", kind, all[i]);
    }
    if ((v = an_yaml_get(n, "user")))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "an %s turn sends a request, not a message: remove 'user'", kind);
    struct an_mcp_turn *m = an_arena_alloc(ld->a, sizeof *m);
    memset(m, 0, sizeof *m);
    t->mcp = m;
    if ((v = an_yaml_get(n, "allow_error")) && !an_yaml_as_bool(v, &m->allow_error))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'allow_error' must be true or false");
    switch (t->type) {
    case AN_TURN_MCP_CALL:
        if ((rc = an_ld_require(ld, n, "tool", "an mcp:call turn", &v)) ||
            (rc = an_ld_string(ld, v, "tool", &m->tool.src)) ||
            (rc = an_interp_check(m->tool.src, &v->loc, ld->err)))
            return rc;
        m->tool.loc = v->loc;
        if ((v = an_yaml_get(n, "arguments"))) {
            if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "arguments")))
                return rc;
            m->arguments.loc = v->loc;
            if (!(m->arguments.value = an_yaml_to_json(v, ld->err)))
                return ld->err->code;
            an_arena_defer(ld->a, json_release, m->arguments.value);
            if ((rc = an_interp_check_json(m->arguments.value, &v->loc, ld->err)))
                return rc;
        }
        return 0;
    case AN_TURN_MCP_LIST: {
        if ((rc = an_ld_require(ld, n, "what", "an mcp:list turn", &v)) ||
            (rc = an_ld_string(ld, v, "what", &m->what)))
            return rc;
        size_t k = 0;
        while (whats[k] && strcmp(whats[k], m->what))
            k++;
        if (!whats[k])
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "mcp:list lists tools, resources, prompts or templates, not '%s'",
                           m->what);
        return 0;
    }
    case AN_TURN_MCP_PROMPT:
        if ((rc = an_ld_require(ld, n, "prompt", "an mcp:prompt turn", &v)) ||
            (rc = an_ld_string(ld, v, "prompt", &m->prompt.src)) ||
            (rc = an_interp_check(m->prompt.src, &v->loc, ld->err)))
            return rc;
        m->prompt.loc = v->loc;
        if ((v = an_yaml_get(n, "arguments"))) {
            m->arguments.loc = v->loc;
            if (!(m->arguments.value = prompt_arguments(ld, v)))
                return ld->err->code;
            an_arena_defer(ld->a, json_release, m->arguments.value);
            if ((rc = an_interp_check_json(m->arguments.value, &v->loc, ld->err)))
                return rc;
        }
        return 0;
    default:
        if ((rc = an_ld_require(ld, n, "uri", "an mcp:read turn", &v)) ||
            (rc = an_ld_string(ld, v, "uri", &m->uri.src)) ||
            (rc = an_interp_check(m->uri.src, &v->loc, ld->err)))
            return rc;
        m->uri.loc = v->loc;
        return 0;
    }
}

static void parts_release(void *p)
{
    json_decref(p);
}

/* `type: a2a:send` (docs/a2a.md): `message` and/or `parts`. */
static int load_a2a_turn(struct an_ld *ld, const struct an_ynode *n,
                         const struct an_assert_lib *lib, struct an_turn *t)
{
    static const char *const keys[] = {"type",       "message",           "parts", "assert",
                                       "tool_mocks", "tool_mocks_strict", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_keys(ld, n, keys, "an a2a:send turn")))
        return rc;
    if ((v = an_yaml_get(n, "message"))) {
        if ((rc = an_ld_string(ld, v, "message", &t->user.src)) ||
            (rc = an_interp_check(t->user.src, &v->loc, ld->err)))
            return rc;
        t->user.loc = v->loc;
    }
    if ((v = an_yaml_get(n, "parts"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "parts")))
            return rc;
        for (size_t i = 0; i < v->nitems; i++) {
            const struct an_ynode *p = v->items[i];
            if ((rc = an_ld_expect(ld, p, AN_Y_MAP, "parts[]")))
                return rc;
            if (!an_yaml_get(p, "text") && !an_yaml_get(p, "data") && !an_yaml_get(p, "url") &&
                !an_yaml_get(p, "raw") && !an_yaml_get(p, "kind"))
                return an_fail(ld->err, AN_ESCHEMA, &p->loc,
                               "an A2A part needs 'text', 'data', 'url' or 'raw' (or a 0.3 "
                               "'kind')");
        }
        if (!(t->parts = an_yaml_to_json(v, ld->err)))
            return ld->err->code;
        an_arena_defer(ld->a, parts_release, t->parts);
    }
    if (!t->user.src && !t->parts)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "an a2a:send turn needs 'message' or 'parts'");
    if ((v = an_yaml_get(n, "assert")) &&
        (rc = an_assert_load_sparse(ld, v, AN_LEVEL_TURN, lib, &t->assert)))
        return rc;
    return 0;
}

/* Keys of the other protocols' turns, said as such. */
static int foreign_keys(struct an_ld *ld, const struct an_ynode *n, const char *const *keys,
                        const char *whose)
{
    struct an_ynode *v;
    for (size_t i = 0; keys[i]; i++)
        if ((v = an_yaml_get(n, keys[i])))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' belongs to %s", keys[i], whose);
    return 0;
}

static const char *const a2a_keys[] = {"message", "parts", NULL};

static int load_mcp(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                    struct an_turn *t)
{
    struct an_ynode *v;
    int rc;
    if ((rc = foreign_keys(ld, n, a2a_keys, "an a2a:send turn (type: a2a:send)")) ||
        (rc = load_mcp_turn(ld, n, t)))
        return rc;
    if ((v = an_yaml_get(n, "assert")) &&
        (rc = an_assert_load_sparse(ld, v, AN_LEVEL_TURN, lib, &t->assert)))
        return rc;
    return 0;
}

/* user (a message) and agui:connect (none). */
static int load_message(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                        struct an_turn *t)
{
    static const char *const mcp_keys[] = {"tool",   "arguments",   "what", "uri",
                                           "prompt", "allow_error", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = foreign_keys(ld, n, a2a_keys, "an a2a:send turn (type: a2a:send)")) ||
        (rc = foreign_keys(ld, n, mcp_keys,
                           "an MCP turn (type: mcp:call, mcp:list, mcp:read or mcp:prompt)")))
        return rc;
    v = an_yaml_get(n, "user");
    if (t->type == AN_TURN_USER) {
        if (!v)
            return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                           "a user turn needs 'user: <message>' (or 'type: agui:connect')");
        if ((rc = an_ld_string(ld, v, "user", &t->user.src)) ||
            (rc = an_interp_check(t->user.src, &v->loc, ld->err))) {
            if ((rc = an_ld_keep(ld, rc)))
                return rc;
        }
        t->user.loc = v->loc;
    } else if (v) {
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "an agui:connect turn sends no message: remove 'user'");
    }
    if ((v = an_yaml_get(n, "assert")) &&
        (rc = an_assert_load_sparse(ld, v, AN_LEVEL_TURN, lib, &t->assert)))
        return rc;
    return 0;
}

/* The turn types a test file may write (`type:`), one row each, in the
 * order messages list them; the first is the default. */
static const struct turn_type {
    const char *name;
    enum an_turn_type type;
    int (*load)(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                struct an_turn *t);
} turn_types[] = {
    {"user", AN_TURN_USER, load_message},
    {"agui:connect", AN_TURN_AGUI_CONNECT, load_message},
    {"mcp:call", AN_TURN_MCP_CALL, load_mcp},
    {"mcp:list", AN_TURN_MCP_LIST, load_mcp},
    {"mcp:read", AN_TURN_MCP_READ, load_mcp},
    {"mcp:prompt", AN_TURN_MCP_PROMPT, load_mcp},
    {"a2a:send", AN_TURN_A2A_SEND, load_a2a_turn},
};
#define NTURN_TYPES (sizeof turn_types / sizeof *turn_types)

const char *const *an_turn_type_names(void)
{
    static const char *names[NTURN_TYPES + 1];
    for (size_t i = 0; i < NTURN_TYPES; i++)
        names[i] = turn_types[i].name;
    return names;
}

/* `type:`'s row; the default when absent. */
static int turn_type(struct an_ld *ld, const struct an_ynode *n, const struct turn_type **out)
{
    struct an_ynode *v = an_yaml_get(n, "type");
    const char *type;
    int rc;
    *out = &turn_types[0];
    if (!v)
        return 0;
    if ((rc = an_ld_string(ld, v, "type", &type)))
        return rc;
    for (size_t i = 0; i < NTURN_TYPES; i++)
        if (!strcmp(turn_types[i].name, type)) {
            *out = &turn_types[i];
            return 0;
        }
    const char *const *names = an_turn_type_names();
    const char *near = an_closest(type, names);
    if (near)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown turn type '%s' (did you mean '%s'?)",
                       type, near);
    struct an_buf list = AN_BUF_INIT;
    for (size_t i = 0; names[i]; i++)
        an_buf_printf(&list, "%s%s", i ? ", " : "", names[i]);
    rc = an_fail(ld->err, AN_ESCHEMA, &v->loc, "unknown turn type '%s' (supported: %s)", type,
                 an_buf_cstr(&list));
    an_buf_release(&list);
    return rc;
}

static int load_turn(struct an_ld *ld, const struct an_ynode *n, const struct an_assert_lib *lib,
                     struct an_turn *t)
{
    static const char *const keys[] = {"type",
                                       "user",
                                       "assert",
                                       "tool",
                                       "arguments",
                                       "what",
                                       "uri",
                                       "allow_error",
                                       "message",
                                       "parts",
                                       "prompt",
                                       "tool_mocks",
                                       "tool_mocks_strict",
                                       NULL};
    const struct turn_type *row;
    int rc;
    t->loc = n->loc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "turns[]")) ||
        (rc = an_ld_keys(ld, n, keys, "a turn")) || (rc = turn_type(ld, n, &row)))
        return rc;
    t->type = row->type;
    if ((rc = an_tool_mocks_load(ld, n, &t->tool_mocks, &t->ntool_mocks, &t->tool_mocks_strict)))
        return rc;
    return row->load(ld, n, lib, t);
}

static void json_release(void *p)
{
    json_decref(p);
}

/* `simulate:` (docs/dynamic.md): the same keys as a JSONL dynamic case. */
static int load_simulate(struct an_ld *ld, const struct an_ynode *n, struct an_test *t)
{
    static const char *const keys[] = {"simulator", "input",   "checkpoints",
                                       "max_turns", "timeout", NULL};
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "simulate")) ||
        (rc = an_ld_keys(ld, n, keys, "a simulate block")))
        return rc;
    json_t *j = an_yaml_to_json(n, ld->err);
    if (!j)
        return ld->err->code;
    an_arena_defer(ld->a, json_release, j);
    const char *file = n->loc.file;
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *dir = slash ? an_arena_strndup(ld->a, file, (size_t)(slash - file)) : ".";
    struct an_ck_src src = {n->loc, n, NULL, dir};
    if ((rc = an_dynamic_load(ld, j, &src, &t->dyn)))
        return rc;
    t->turns = an_arena_alloc(ld->a, sizeof *t->turns);
    struct an_ynode *v = an_yaml_get(n, "input");
    if (v) {
        struct an_turn *turn = &t->turns[0];
        turn->type = AN_TURN_USER;
        turn->loc = v->loc;
        if ((rc = an_ld_string(ld, v, "input", &turn->user.src)) ||
            (rc = an_interp_check(turn->user.src, &v->loc, ld->err)))
            return rc;
        turn->user.loc = v->loc;
        t->nturns = 1;
        t->dyn->first_input = turn->user.src;
    }
    return 0;
}

static const char *default_name(struct an_ld *ld, const char *path)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    size_t n = strlen(base);
    if (n > 10 && strcmp(base + n - 10, ".test.yaml") == 0)
        n -= 10;
    else if (n > 9 && strcmp(base + n - 9, ".test.yml") == 0)
        n -= 9;
    return an_arena_strndup(ld->a, base, n);
}

int an_test_load(struct an_ld *ld, const char *path, const struct an_assert_lib *lib,
                 struct an_test *t)
{
    static const char *const keys[] = {"version",           "name", "hooks", "turns", "assert",
                                       "simulate",          "tags", "skip",  "only",  "tool_mocks",
                                       "tool_mocks_strict", NULL};
    struct an_ynode *root, *v;
    int rc;
    memset(t, 0, sizeof *t);
    unsigned char *sum = an_arena_alloc(ld->a, AN_SHA256_LEN);
    if ((rc = an_yaml_load_file_sum(&root, path, ld->scratch ? ld->scratch : ld->a, ld->a, sum,
                                    ld->err)) ||
        (rc = an_yaml_no_nul(root, ld->err)))
        return rc;
    t->file = root->loc.file;
    t->file_sum = sum;
    t->loc = root->loc;
    if ((rc = an_ld_expect(ld, root, AN_Y_MAP, "a test file")) ||
        (rc = an_ld_keys(ld, root, keys, "a test file")) ||
        (rc = an_version_load(ld, root, "a test file", &t->version)))
        return rc;
    if ((v = an_yaml_get(root, "name"))) {
        if ((rc = an_ld_keep(ld, an_ld_string(ld, v, "name", &t->name))))
            return rc;
    } else {
        t->name = default_name(ld, path);
    }
    if ((rc = an_select_yaml(ld, root, t)))
        return rc;
    if ((v = an_yaml_get(root, "hooks"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_SEQ, "hooks")))
            return rc;
        t->nhooks = v->nitems;
        t->hooks = an_arena_alloc(ld->a, (v->nitems ? v->nitems : 1) * sizeof *t->hooks);
        for (size_t i = 0; i < v->nitems; i++)
            if ((rc = an_ld_keep(ld, load_hook(ld, v->items[i], &t->hooks[i]))))
                return rc;
    }
    struct an_ynode *sim = an_yaml_get(root, "simulate");
    if (sim) {
        if ((v = an_yaml_get(root, "turns")))
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "a test has 'turns' or 'simulate' (a simulated user), not both");
        if ((rc = load_simulate(ld, sim, t)))
            return rc;
    } else {
        if ((rc = an_ld_require(ld, root, "turns", "a test file", &v)) ||
            (rc = an_ld_expect(ld, v, AN_Y_SEQ, "turns")))
            return rc;
    }
    if (sim) {
        /* no scripted turns: the simulator writes them */
    } else {
        if (v->nitems == 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'turns' must hold at least one turn");
        t->nturns = v->nitems;
        t->turns = an_arena_alloc(ld->a, v->nitems * sizeof *t->turns);
        for (size_t i = 0; i < v->nitems; i++)
            if ((rc = an_ld_keep(ld, load_turn(ld, v->items[i], lib, &t->turns[i]))))
                return rc;
    }
    if ((v = an_yaml_get(root, "assert")) &&
        (rc = an_ld_keep(ld, an_assert_load_sparse(ld, v, AN_LEVEL_TEST, lib, &t->assert))))
        return rc;
    return an_ld_keep(
        ld, an_tool_mocks_load(ld, root, &t->tool_mocks, &t->ntool_mocks, &t->tool_mocks_strict));
}
