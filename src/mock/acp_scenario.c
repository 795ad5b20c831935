#include "acp_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/yaml.h"
#include "scenario_util.h"

#define MAX_CHUNKS 100000LL

static const char *const top_keys[] = {"capabilities", "modes", "commands", "prompts", NULL};
static const char *const rule_keys[] = {"match", "times", "steps", NULL};

static const char *const tool_kinds[] = {"read",        "edit",    "delete", "move",
                                         "search",      "execute", "think",  "fetch",
                                         "switch_mode", "other",   NULL};
static const char *const tool_statuses[] = {"pending", "in_progress", "completed", "failed", NULL};
static const char *const plan_priorities[] = {"high", "medium", "low", NULL};
static const char *const plan_statuses[] = {"pending", "in_progress", "completed", NULL};
static const char *const option_kinds[] = {"allow_once", "allow_always", "reject_once",
                                           "reject_always", NULL};
static const char *const stop_reasons[] = {"end_turn", "max_tokens", "max_turn_requests",
                                           "refusal",  "cancelled",  NULL};

static const char *const chunk_mods[] = {"chunks", "id", "bytes", "repeat", NULL};
static const char *const read_mods[] = {"id", "line", "limit", NULL};
static const char *const id_mods[] = {"id", NULL};
static const char *const error_mods[] = {"code", NULL};
static const char *const no_mods[] = {NULL};

static const struct {
    const char *key;
    enum acp_step_kind kind;
    const char *const *mods;
} step_kinds[] = {
    {"text", ACP_STEP_TEXT, chunk_mods},
    {"thought", ACP_STEP_THOUGHT, chunk_mods},
    {"tool_call", ACP_STEP_TOOL_CALL, no_mods},
    {"tool_update", ACP_STEP_TOOL_UPDATE, no_mods},
    {"plan", ACP_STEP_PLAN, no_mods},
    {"update", ACP_STEP_UPDATE, no_mods},
    {"read_file", ACP_STEP_READ_FILE, read_mods},
    {"write_file", ACP_STEP_WRITE_FILE, id_mods},
    {"terminal", ACP_STEP_TERMINAL, id_mods},
    {"permission", ACP_STEP_PERMISSION, no_mods},
    {"delay_ms", ACP_STEP_DELAY, no_mods},
    {"raw", ACP_STEP_RAW, no_mods},
    {"stop", ACP_STEP_STOP, no_mods},
    {"usage", ACP_STEP_USAGE, no_mods},
    {"error", ACP_STEP_ERROR, error_mods},
    {"exit", ACP_STEP_EXIT, no_mods},
    {"mcp_call", ACP_STEP_MCP_CALL, no_mods},
};
#define NKINDS (sizeof step_kinds / sizeof step_kinds[0])

/* ---- helpers ------------------------------------------------------------- */

bool acp_is_stop_reason(const char *s)
{
    return scn_in_list(stop_reasons, s);
}

static int unknown_key(const struct an_ynode *key, const char *where, const char *const *allowed,
                       struct an_err *err)
{
    const char *const *const lists[] = {allowed, NULL};
    return scn_unknown_key(key, where, lists, err);
}

static int get_str(const struct an_ynode *n, const char *key, const char **out, struct an_err *err)
{
    if (n->kind != AN_Y_SCALAR || an_yaml_is_null(n))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be a string, not %s", key,
                       an_yaml_kind_name(n));
    if (strlen(n->str) != n->len)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must not contain NUL", key);
    *out = n->str;
    return 0;
}

static int get_enum(const struct an_ynode *n, const char *key, const char *const *values,
                    const char **out, struct an_err *err)
{
    int rc = get_str(n, key, out, err);
    if (rc)
        return rc;
    if (scn_in_list(values, *out))
        return 0;
    char list[256] = "";
    size_t used = 0;
    for (const char *const *v = values; *v; v++) {
        int w = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "", *v);
        if (w < 0 || (size_t)w >= sizeof list - used)
            break;
        used += (size_t)w;
    }
    return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be one of %s, not '%s'", key, list, *out);
}

static void decref(void *p)
{
    json_decref(p);
}

/* Hand a new JSON value to the arena; returns it (borrowed from then on). */
static json_t *keep(struct acp_scenario *s, json_t *j)
{
    an_arena_defer(&s->arena, decref, j);
    return j;
}

static int to_json(const struct an_ynode *n, json_t **out, struct an_err *err)
{
    *out = an_yaml_to_json(n, err);
    return *out ? 0 : (err && err->code ? (int)err->code : AN_ELIMIT);
}

/* `content:` of a tool call: a string is one text block; a list is
 * ToolCallContent, verbatim. */
static int tool_content(const struct an_ynode *n, json_t **out, struct an_err *err)
{
    if (n->kind == AN_Y_SEQ)
        return to_json(n, out, err);
    const char *text = NULL;
    int rc = get_str(n, "content", &text, err);
    if (rc)
        return rc;
    *out = json_pack("[{s:s, s:{s:s, s:s}}]", "type", "content", "content", "type", "text", "text",
                     text);
    return 0;
}

/* `locations:` a list of paths or {path, line} maps; normalised to maps. */
static int tool_locations(const struct an_ynode *n, json_t **out, struct an_err *err)
{
    if (n->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'locations' must be a list, not %s",
                       an_yaml_kind_name(n));
    static const char *const keys[] = {"path", "line", NULL};
    json_t *arr = json_array();
    for (size_t i = 0; i < n->nitems; i++) {
        const struct an_ynode *it = n->items[i];
        const char *path = NULL;
        long long line = 0;
        int rc;
        if (it->kind == AN_Y_MAP) {
            const struct an_ynode *p = an_yaml_get(it, "path"), *l = an_yaml_get(it, "line");
            if ((rc = scn_check_keys(it, keys, "a location", err)))
                goto fail;
            if (!p) {
                rc = an_fail(err, AN_ESCHEMA, &it->loc, "a location needs 'path'");
                goto fail;
            }
            if ((rc = get_str(p, "path", &path, err)))
                goto fail;
            if (l && (rc = scn_get_int(l, "line", 1, 1LL << 31, &line, err)))
                goto fail;
        } else if ((rc = get_str(it, "locations", &path, err))) {
            goto fail;
        }
        json_t *loc = json_pack("{s:s}", "path", path);
        if (line)
            json_object_set_new(loc, "line", json_integer(line));
        json_array_append_new(arr, loc);
        continue;
    fail:
        json_decref(arr);
        return rc;
    }
    *out = arr;
    return 0;
}

/* tool_call / tool_update: the session update object, toolCallId left out
 * when `id` is not given (the agent fills it in). */
static int load_tool(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                     bool is_update, struct an_err *err)
{
    static const char *const call_keys[] = {"id",      "title",    "kind",      "status",
                                            "content", "rawInput", "locations", NULL};
    static const char *const update_keys[] = {"id",      "title",     "kind",      "status",
                                              "content", "rawOutput", "locations", NULL};
    const char *what = is_update ? "'tool_update'" : "'tool_call'";
    int rc;
    if ((rc = scn_want_map(n, what, err)) ||
        (rc = scn_check_keys(n, is_update ? update_keys : call_keys, what, err)))
        return rc;
    json_t *u = keep(s, json_object());
    json_object_set_new(u, "sessionUpdate",
                        json_string(is_update ? "tool_call_update" : "tool_call"));
    const char *str = NULL;
    const struct an_ynode *v;
    if ((v = an_yaml_get(n, "id"))) {
        if ((rc = get_str(v, "id", &str, err)))
            return rc;
        json_object_set_new(u, "toolCallId", json_string(str));
    }
    if ((v = an_yaml_get(n, "title"))) {
        if ((rc = get_str(v, "title", &str, err)))
            return rc;
        json_object_set_new(u, "title", json_string(str));
    } else if (!is_update) {
        json_object_set_new(u, "title", json_string("tool"));
    }
    if ((v = an_yaml_get(n, "kind"))) {
        if ((rc = get_enum(v, "kind", tool_kinds, &str, err)))
            return rc;
        json_object_set_new(u, "kind", json_string(str));
    }
    if ((v = an_yaml_get(n, "status"))) {
        if ((rc = get_enum(v, "status", tool_statuses, &str, err)))
            return rc;
        json_object_set_new(u, "status", json_string(str));
    }
    json_t *j = NULL;
    if ((v = an_yaml_get(n, "content"))) {
        if ((rc = tool_content(v, &j, err)))
            return rc;
        json_object_set_new(u, "content", j);
    }
    if ((v = an_yaml_get(n, "locations"))) {
        if ((rc = tool_locations(v, &j, err)))
            return rc;
        json_object_set_new(u, "locations", j);
    }
    const char *raw = is_update ? "rawOutput" : "rawInput";
    if ((v = an_yaml_get(n, raw))) {
        if ((rc = to_json(v, &j, err)))
            return rc;
        json_object_set_new(u, raw, j);
    }
    st->json = u;
    return 0;
}

static int load_plan(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                     struct an_err *err)
{
    static const char *const keys[] = {"content", "priority", "status", NULL};
    if (n->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'plan' must be a list of entries, not %s",
                       an_yaml_kind_name(n));
    json_t *entries = keep(s, json_array());
    for (size_t i = 0; i < n->nitems; i++) {
        const struct an_ynode *e = n->items[i], *v;
        const char *content = NULL, *prio = "medium", *status = "pending";
        int rc;
        if ((rc = scn_want_map(e, "a plan entry", err)) ||
            (rc = scn_check_keys(e, keys, "a plan entry", err)))
            return rc;
        if (!(v = an_yaml_get(e, "content")))
            return an_fail(err, AN_ESCHEMA, &e->loc, "a plan entry needs 'content'");
        if ((rc = get_str(v, "content", &content, err)))
            return rc;
        if ((v = an_yaml_get(e, "priority")) &&
            (rc = get_enum(v, "priority", plan_priorities, &prio, err)))
            return rc;
        if ((v = an_yaml_get(e, "status")) &&
            (rc = get_enum(v, "status", plan_statuses, &status, err)))
            return rc;
        json_array_append_new(entries, json_pack("{s:s, s:s, s:s}", "content", content, "priority",
                                                 prio, "status", status));
    }
    st->json = entries;
    return 0;
}

static int load_write(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                      struct an_err *err)
{
    static const char *const keys[] = {"path", "content", NULL};
    const struct an_ynode *p, *c;
    const char *path = NULL, *content = NULL;
    int rc;
    if ((rc = scn_want_map(n, "'write_file'", err)) ||
        (rc = scn_check_keys(n, keys, "'write_file'", err)))
        return rc;
    if (!(p = an_yaml_get(n, "path")) || !(c = an_yaml_get(n, "content")))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'write_file' needs 'path' and 'content'");
    if ((rc = get_str(p, "path", &path, err)) || (rc = get_str(c, "content", &content, err)))
        return rc;
    st->json = keep(s, json_pack("{s:s, s:s}", "path", path, "content", content));
    return 0;
}

static int load_terminal(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                         struct an_err *err)
{
    static const char *const keys[] = {"command", "args", "env", "outputByteLimit",
                                       "title",   "cwd",  NULL};
    const struct an_ynode *v;
    const char *str = NULL;
    long long lim;
    int rc;
    if (n->kind == AN_Y_SCALAR) { /* terminal: "echo" — just a command */
        if ((rc = get_str(n, "terminal", &str, err)))
            return rc;
        st->json = keep(s, json_pack("{s:s}", "command", str));
        return 0;
    }
    if ((rc = scn_want_map(n, "'terminal'", err)) ||
        (rc = scn_check_keys(n, keys, "'terminal'", err)))
        return rc;
    if (!(v = an_yaml_get(n, "command")))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'terminal' needs 'command'");
    if ((rc = get_str(v, "command", &str, err)))
        return rc;
    json_t *t = keep(s, json_pack("{s:s}", "command", str));
    if ((v = an_yaml_get(n, "args"))) {
        if (v->kind != AN_Y_SEQ)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'args' must be a list of strings, not %s",
                           an_yaml_kind_name(v));
        json_t *args = json_array();
        json_object_set_new(t, "args", args);
        for (size_t i = 0; i < v->nitems; i++) {
            if ((rc = get_str(v->items[i], "args", &str, err)))
                return rc;
            json_array_append_new(args, json_string(str));
        }
    }
    if ((v = an_yaml_get(n, "env"))) {
        if ((rc = scn_want_map(v, "'env'", err)))
            return rc;
        json_t *env = json_array();
        json_object_set_new(t, "env", env);
        for (size_t i = 0; i < v->npairs; i++) {
            if ((rc = get_str(v->pairs[i].value, v->pairs[i].key->str, &str, err)))
                return rc;
            json_array_append_new(
                env, json_pack("{s:s, s:s}", "name", v->pairs[i].key->str, "value", str));
        }
    }
    if ((v = an_yaml_get(n, "outputByteLimit"))) {
        if ((rc = scn_get_int(v, "outputByteLimit", 0, 1LL << 40, &lim, err)))
            return rc;
        json_object_set_new(t, "outputByteLimit", json_integer(lim));
    }
    if ((v = an_yaml_get(n, "title"))) {
        if ((rc = get_str(v, "title", &str, err)))
            return rc;
        json_object_set_new(t, "title", json_string(str));
    }
    if ((v = an_yaml_get(n, "cwd"))) {
        if ((rc = get_str(v, "cwd", &str, err)))
            return rc;
        json_object_set_new(t, "cwd", json_string(str));
    }
    st->json = t;
    return 0;
}

static int load_permission(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                           struct an_err *err)
{
    static const char *const keys[] = {"tool", "title", "kind", "options", NULL};
    static const char *const opt_keys[] = {"optionId", "name", "kind", NULL};
    const struct an_ynode *v;
    const char *str;
    int rc;
    if (n->kind == AN_Y_MAP && n->npairs == 0) {
        st->json = keep(s, json_object());
        return 0;
    }
    if ((rc = scn_want_map(n, "'permission'", err)) ||
        (rc = scn_check_keys(n, keys, "'permission'", err)))
        return rc;
    json_t *p = keep(s, json_object());
    static const char *const strs[] = {"tool", "title"};
    for (size_t i = 0; i < 2; i++)
        if ((v = an_yaml_get(n, strs[i]))) {
            if ((rc = get_str(v, strs[i], &str, err)))
                return rc;
            json_object_set_new(p, strs[i], json_string(str));
        }
    if ((v = an_yaml_get(n, "kind"))) {
        if ((rc = get_enum(v, "kind", tool_kinds, &str, err)))
            return rc;
        json_object_set_new(p, "kind", json_string(str));
    }
    if ((v = an_yaml_get(n, "options"))) {
        if (v->kind != AN_Y_SEQ || v->nitems == 0)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'options' must be a non-empty list");
        json_t *opts = json_array();
        json_object_set_new(p, "options", opts);
        for (size_t i = 0; i < v->nitems; i++) {
            const struct an_ynode *o = v->items[i], *f;
            const char *id = NULL, *name, *kind;
            if ((rc = scn_want_map(o, "a permission option", err)) ||
                (rc = scn_check_keys(o, opt_keys, "a permission option", err)))
                return rc;
            if (!(f = an_yaml_get(o, "optionId")) || (rc = get_str(f, "optionId", &id, err)))
                return f ? rc : an_fail(err, AN_ESCHEMA, &o->loc, "an option needs 'optionId'");
            if (!(f = an_yaml_get(o, "kind")) ||
                (rc = get_enum(f, "kind", option_kinds, &kind, err)))
                return f ? rc : an_fail(err, AN_ESCHEMA, &o->loc, "an option needs 'kind'");
            name = id;
            if ((f = an_yaml_get(o, "name")) && (rc = get_str(f, "name", &name, err)))
                return rc;
            json_array_append_new(
                opts, json_pack("{s:s, s:s, s:s}", "optionId", id, "name", name, "kind", kind));
        }
    }
    st->json = p;
    return 0;
}

/* mcp_call: {server, tool, arguments?, report?} (docs/mock.md "Calling MCP
 * tools") */
static int load_mcp_call(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                         struct an_err *err)
{
    static const char *const keys[] = {"server", "tool", "arguments", "report", NULL};
    int rc;
    json_t *j;
    if ((rc = scn_want_map(n, "'mcp_call'", err)) ||
        (rc = scn_check_keys(n, keys, "'mcp_call'", err)) || (rc = to_json(n, &j, err)))
        return rc;
    st->json = keep(s, j);
    if (!an_json_str(j, "server") || !*an_json_str(j, "server"))
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "'mcp_call' needs a 'server' (a tool server's "
                       "name or URL)");
    if (!an_json_str(j, "tool") || !*an_json_str(j, "tool"))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'mcp_call' needs a 'tool' name");
    const json_t *args = json_object_get(j, "arguments");
    if (args && !json_is_object(args))
        return an_fail(err, AN_ESCHEMA, &an_yaml_get(n, "arguments")->loc,
                       "'arguments' must be a map");
    const json_t *rep = json_object_get(j, "report");
    if (rep && !json_is_boolean(rep))
        return an_fail(err, AN_ESCHEMA, &an_yaml_get(n, "report")->loc,
                       "'report' must be true or false");
    return 0;
}

/* ---- steps --------------------------------------------------------------- */

static int load_step_value(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *v,
                           const char *key, struct an_err *err)
{
    int rc;
    switch (st->kind) {
    case ACP_STEP_TEXT:
    case ACP_STEP_THOUGHT:
    case ACP_STEP_RAW:
    case ACP_STEP_ERROR:
        return get_str(v, key, &st->str, err);
    case ACP_STEP_READ_FILE:
        if ((rc = get_str(v, key, &st->str, err)))
            return rc;
        if (!*st->str)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'read_file' needs a path");
        return 0;
    case ACP_STEP_STOP:
        return get_enum(v, key, stop_reasons, &st->str, err);
    case ACP_STEP_TOOL_CALL:
        return load_tool(s, st, v, false, err);
    case ACP_STEP_TOOL_UPDATE:
        if ((rc = load_tool(s, st, v, true, err)))
            return rc;
        return 0;
    case ACP_STEP_PLAN:
        return load_plan(s, st, v, err);
    case ACP_STEP_USAGE:
    case ACP_STEP_UPDATE: {
        json_t *j;
        if ((rc = scn_want_map(v, st->kind == ACP_STEP_USAGE ? "'usage'" : "'update'", err)) ||
            (rc = to_json(v, &j, err)))
            return rc;
        st->json = keep(s, j);
        if (st->kind == ACP_STEP_UPDATE && !json_is_string(json_object_get(j, "sessionUpdate")))
            return an_fail(err, AN_ESCHEMA, &v->loc, "'update' needs a 'sessionUpdate' string");
        return 0;
    }
    case ACP_STEP_WRITE_FILE:
        return load_write(s, st, v, err);
    case ACP_STEP_TERMINAL:
        return load_terminal(s, st, v, err);
    case ACP_STEP_PERMISSION:
        return load_permission(s, st, v, err);
    case ACP_STEP_DELAY:
        return scn_get_int(v, key, 0, SCN_MAX_DELAY_MS, &st->num, err);
    case ACP_STEP_EXIT:
        return scn_get_int(v, key, 0, 255, &st->num, err);
    case ACP_STEP_MCP_CALL:
        return load_mcp_call(s, st, v, err);
    }
    return 0;
}

static int load_step_mod(struct acp_step *st, const struct an_ynode *k, const struct an_ynode *v,
                         struct an_err *err)
{
    long long n;
    int rc;
    if (!strcmp(k->str, "id"))
        return get_str(v, "id", &st->id, err);
    if (!strcmp(k->str, "chunks")) {
        if ((rc = scn_get_int(v, "chunks", 1, MAX_CHUNKS, &n, err)))
            return rc;
        st->chunks = (unsigned)n;
        return 0;
    }
    if (!strcmp(k->str, "bytes"))
        return scn_get_int(v, "bytes", 1, 1LL << 30, &st->bytes, err);
    if (!strcmp(k->str, "repeat"))
        return scn_get_int(v, "repeat", 1, 1000000, &st->repeat, err);
    if (!strcmp(k->str, "line"))
        return scn_get_int(v, "line", 1, 1LL << 31, &st->num, err);
    if (!strcmp(k->str, "limit"))
        return scn_get_int(v, "limit", 1, 1LL << 31, &st->limit, err);
    if (!strcmp(k->str, "code"))
        return scn_get_int(v, "code", -2147483648LL, 2147483647LL, &st->num, err);
    return an_fail(err, AN_EINTERNAL, &k->loc, "unhandled step key '%s'", k->str);
}

static int load_step(struct acp_scenario *s, struct acp_step *st, const struct an_ynode *n,
                     struct an_err *err)
{
    size_t kind = NKINDS;
    const struct an_ynode *kind_key = NULL;
    int rc;
    if ((rc = scn_want_map(n, "a step", err)))
        return rc;
    for (size_t i = 0; i < n->npairs; i++)
        for (size_t k = 0; k < NKINDS; k++) {
            if (strcmp(n->pairs[i].key->str, step_kinds[k].key))
                continue;
            if (kind_key)
                return an_fail(err, AN_ESCHEMA, &n->pairs[i].key->loc,
                               "a step does one thing: it has both '%s' and '%s'", kind_key->str,
                               step_kinds[k].key);
            kind = k;
            kind_key = n->pairs[i].key;
        }
    if (!kind_key && n->npairs) {
        static const char *kind_names[NKINDS + 1];
        for (size_t k = 0; k < NKINDS; k++)
            kind_names[k] = step_kinds[k].key;
        const char *best = NULL;
        size_t best_d = 3;
        for (size_t k = 0; k < NKINDS; k++) {
            size_t d = scn_edit_distance(n->pairs[0].key->str, kind_names[k]);
            if (d < best_d) {
                best_d = d;
                best = kind_names[k];
            }
        }
        if (best)
            return an_fail(err, AN_ESCHEMA, &n->pairs[0].key->loc,
                           "unknown step '%s' (did you mean '%s'?)", n->pairs[0].key->str, best);
    }
    if (!kind_key)
        return an_fail(
            err, AN_ESCHEMA, &n->loc,
            "a step needs one of text, thought, tool_call, tool_update, mcp_call, plan, update, "
            "read_file, write_file, terminal, permission, delay_ms, raw, stop, usage, error, "
            "exit");
    st->kind = step_kinds[kind].kind;
    st->loc = n->loc;
    st->chunks = 1;
    st->repeat = 1;
    if (st->kind == ACP_STEP_ERROR)
        st->num = -32603;
    if ((rc = load_step_value(s, st, an_yaml_get(n, kind_key->str), kind_key->str, err)))
        return rc;
    for (size_t i = 0; i < n->npairs; i++) {
        const struct an_ynode *k = n->pairs[i].key;
        if (k == kind_key)
            continue;
        if (!scn_in_list(step_kinds[kind].mods, k->str)) {
            char where[48];
            snprintf(where, sizeof where, "a %s step", kind_key->str);
            return unknown_key(k, where, step_kinds[kind].mods, err);
        }
        if ((rc = load_step_mod(st, k, n->pairs[i].value, err)))
            return rc;
    }
    return 0;
}

static bool ends_turn(enum acp_step_kind k)
{
    return k == ACP_STEP_STOP || k == ACP_STEP_ERROR || k == ACP_STEP_EXIT;
}

static int load_rule(struct acp_scenario *s, struct acp_rule *r, const struct an_ynode *n,
                     struct an_err *err)
{
    const struct an_ynode *v;
    const char *str = NULL;
    int rc;
    if ((rc = scn_want_map(n, "a prompt rule", err)) ||
        (rc = scn_check_keys(n, rule_keys, "a prompt rule", err)))
        return rc;
    r->loc = n->loc;
    if ((v = an_yaml_get(n, "match")) &&
        ((rc = get_str(v, "match", &str, err)) ||
         (rc = scn_compile_regex(&s->arena, v, str, &r->match, err))))
        return rc;
    if ((v = an_yaml_get(n, "times")) &&
        (rc = scn_get_int(v, "times", 1, SCN_MAX_TIMES, &r->times, err)))
        return rc;
    if (!(v = an_yaml_get(n, "steps")))
        return an_fail(err, AN_ESCHEMA, &n->loc, "a prompt rule needs 'steps'");
    if (v->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &v->loc, "'steps' must be a list, not %s",
                       an_yaml_kind_name(v));
    r->steps = an_arena_alloc(&s->arena, (v->nitems ? v->nitems : 1) * sizeof *r->steps);
    for (size_t i = 0; i < v->nitems; i++) {
        if (i > 0 && ends_turn(r->steps[i - 1].kind))
            return an_fail(err, AN_ESCHEMA, &v->items[i]->loc,
                           "this step never runs: the turn ends at line %u",
                           r->steps[i - 1].loc.line);
        if ((rc = load_step(s, &r->steps[i], v->items[i], err)))
            return rc;
        r->nsteps++;
    }
    return 0;
}

/* ---- top level ----------------------------------------------------------- */

static json_t *default_capabilities(void)
{
    return json_pack("{s:b, s:{s:b, s:b, s:b}, s:{s:b, s:b}}", "loadSession", 1,
                     "promptCapabilities", "image", 0, "audio", 0, "embeddedContext", 1,
                     "mcpCapabilities", "http", 0, "sse", 0);
}

static int load_modes(struct acp_scenario *s, const struct an_ynode *n, struct an_err *err)
{
    static const char *const keys[] = {"currentModeId", "availableModes", NULL};
    static const char *const mode_keys[] = {"id", "name", "description", NULL};
    const struct an_ynode *cur, *avail;
    const char *cur_id = NULL, *str = "";
    int rc;
    if ((rc = scn_want_map(n, "'modes'", err)) || (rc = scn_check_keys(n, keys, "'modes'", err)))
        return rc;
    if (!(cur = an_yaml_get(n, "currentModeId")) || !(avail = an_yaml_get(n, "availableModes")))
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "'modes' needs 'currentModeId' and 'availableModes'");
    if ((rc = get_str(cur, "currentModeId", &cur_id, err)))
        return rc;
    if (avail->kind != AN_Y_SEQ || avail->nitems == 0)
        return an_fail(err, AN_ESCHEMA, &avail->loc, "'availableModes' must be a non-empty list");
    bool found = false;
    for (size_t i = 0; i < avail->nitems; i++) {
        const struct an_ynode *m = avail->items[i], *f;
        if ((rc = scn_want_map(m, "a mode", err)) ||
            (rc = scn_check_keys(m, mode_keys, "a mode", err)))
            return rc;
        for (size_t k = 0; k < 3; k++) {
            f = an_yaml_get(m, mode_keys[k]);
            if (!f && k < 2)
                return an_fail(err, AN_ESCHEMA, &m->loc, "a mode needs 'id' and 'name'");
            if (f && (rc = get_str(f, mode_keys[k], &str, err)))
                return rc;
            if (k == 0 && !strcmp(str, cur_id))
                found = true;
        }
    }
    if (!found)
        return an_fail(err, AN_ESCHEMA, &cur->loc, "'currentModeId' '%s' is not an available mode",
                       cur_id);
    json_t *j;
    if ((rc = to_json(n, &j, err)))
        return rc;
    s->modes = keep(s, j);
    return 0;
}

static int load_commands(struct acp_scenario *s, const struct an_ynode *n, struct an_err *err)
{
    static const char *const keys[] = {"name", "description", "input", NULL};
    static const char *const input_keys[] = {"hint", NULL};
    const char *str;
    int rc;
    if (n->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'commands' must be a list, not %s",
                       an_yaml_kind_name(n));
    for (size_t i = 0; i < n->nitems; i++) {
        const struct an_ynode *c = n->items[i], *f;
        if ((rc = scn_want_map(c, "a command", err)) ||
            (rc = scn_check_keys(c, keys, "a command", err)))
            return rc;
        if (!(f = an_yaml_get(c, "name")) || (rc = get_str(f, "name", &str, err)))
            return f ? rc : an_fail(err, AN_ESCHEMA, &c->loc, "a command needs 'name'");
        if (!(f = an_yaml_get(c, "description")) || (rc = get_str(f, "description", &str, err)))
            return f ? rc : an_fail(err, AN_ESCHEMA, &c->loc, "a command needs 'description'");
        if ((f = an_yaml_get(c, "input"))) {
            const struct an_ynode *h;
            if ((rc = scn_want_map(f, "'input'", err)) ||
                (rc = scn_check_keys(f, input_keys, "'input'", err)))
                return rc;
            if (!(h = an_yaml_get(f, "hint")) || (rc = get_str(h, "hint", &str, err)))
                return h ? rc : an_fail(err, AN_ESCHEMA, &f->loc, "'input' needs 'hint'");
        }
    }
    json_t *j;
    if ((rc = to_json(n, &j, err)))
        return rc;
    s->commands = keep(s, j);
    return 0;
}

static int load_tree(struct acp_scenario *s, const struct an_ynode *root, struct an_err *err)
{
    const struct an_ynode *v;
    int rc;
    if (root->kind != AN_Y_MAP)
        return an_fail(err, AN_ESCHEMA, &root->loc,
                       "a scenario must be a map (capabilities, modes, commands, prompts), not %s",
                       an_yaml_kind_name(root));
    if ((rc = scn_check_keys(root, top_keys, "scenario", err)))
        return rc;
    if ((v = an_yaml_get(root, "capabilities"))) {
        json_t *j;
        if ((rc = scn_want_map(v, "'capabilities'", err)) || (rc = to_json(v, &j, err)))
            return rc;
        json_object_update_recursive(s->capabilities, j);
        json_decref(j);
    }
    if ((v = an_yaml_get(root, "modes")) && !an_yaml_is_null(v) && (rc = load_modes(s, v, err)))
        return rc;
    if ((v = an_yaml_get(root, "commands")) && !an_yaml_is_null(v) &&
        (rc = load_commands(s, v, err)))
        return rc;
    if ((v = an_yaml_get(root, "prompts")) && !an_yaml_is_null(v)) {
        if (v->kind != AN_Y_SEQ)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'prompts' must be a list, not %s",
                           an_yaml_kind_name(v));
        s->rules = an_arena_alloc(&s->arena, (v->nitems ? v->nitems : 1) * sizeof *s->rules);
        for (size_t i = 0; i < v->nitems; i++) {
            if ((rc = load_rule(s, &s->rules[i], v->items[i], err)))
                return rc;
            s->nrules++;
        }
    }
    return 0;
}

struct acp_scenario *acp_scenario_default(void)
{
    struct acp_scenario *s = an_xcalloc(1, sizeof *s);
    s->capabilities = keep(s, default_capabilities());
    return s;
}

static int finish_load(struct acp_scenario *s, int rc, struct an_ynode *root,
                       struct acp_scenario **out, struct an_err *err)
{
    if (!rc)
        rc = load_tree(s, root, err);
    if (rc) {
        acp_scenario_free(s);
        *out = NULL;
        return rc;
    }
    *out = s;
    return 0;
}

int acp_scenario_load_mem(struct acp_scenario **out, const char *name, const char *data, size_t len,
                          struct an_err *err)
{
    struct acp_scenario *s = acp_scenario_default();
    struct an_ynode *root = NULL;
    int rc = an_yaml_load_mem(&root, name, data, len, &s->arena, err);
    return finish_load(s, rc, root, out, err);
}

int acp_scenario_load(struct acp_scenario **out, const char *path, struct an_err *err)
{
    struct acp_scenario *s = acp_scenario_default();
    struct an_ynode *root = NULL;
    int rc = an_yaml_load_file(&root, path, &s->arena, err);
    return finish_load(s, rc, root, out, err);
}

void acp_scenario_free(struct acp_scenario *s)
{
    if (!s)
        return;
    an_arena_release(&s->arena);
    free(s);
}

struct acp_rule *acp_scenario_pick(struct acp_scenario *s, const char *text, size_t len)
{
    for (size_t i = 0; i < s->nrules; i++) {
        struct acp_rule *r = &s->rules[i];
        if (r->match && !an_regex_search(r->match, text, len))
            continue;
        if (scn_use(r->times, &r->used))
            return r;
    }
    return NULL;
}
