/* Seed 002's typed checks, from JSON (JSONL cases, YAML `checks:`). */
#include "load/check_load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#include "ananke/check.h"
#include "core/json.h"
#include "core/jsonschema.h"

/* Type names as written, in enum an_check_kind order. */
static const char *const kinds[] = {"contains",          "not_contains",     "equals",
                                    "regex",             "json_path",        "type",
                                    "tool_called",       "tool_result",      "script",
                                    "agent",             "action_required",  "tool_sequence",
                                    "retrieval_required", "json_schema",     "evidence_required",
                                    "tool_execution",    "task_state",       NULL};

static const char *const item_keys[] = {"type",    "value", "pattern", "path",
                                        "name",    "arguments", "negate", "message",
                                        "use",     "cmd",   "options", "timeout_ms",
                                        "ignore_case", "of", NULL};

static const char *const json_types[] = {"string", "number", "boolean", "array",
                                         "object", "null",   NULL};

static void json_release(void *p)
{
    json_decref(p);
}

static void regex_release(void *p)
{
    an_regex_free(p);
}

static void jschema_release(void *p)
{
    an_jschema_free(p);
}

unsigned an_ck_key_col(const char *line, size_t from, const char *key)
{
    size_t klen = strlen(key), n = strlen(line);
    for (size_t i = from; i + klen + 2 <= n; i++)
        if (line[i] == '"' && !strncmp(line + i + 1, key, klen) && line[i + 1 + klen] == '"')
            return (unsigned)i + 1;
    return 0;
}

struct an_loc an_ck_key_loc(const struct an_ck_src *src, const char *key)
{
    struct an_loc loc = src->loc;
    if (src->ynode && src->ynode->kind == AN_Y_MAP) {
        for (size_t i = 0; i < src->ynode->npairs; i++)
            if (!strcmp(src->ynode->pairs[i].key->str, key))
                return src->ynode->pairs[i].key->loc;
    } else if (src->line) {
        unsigned col = an_ck_key_col(src->line, loc.col ? loc.col - 1 : 0, key);
        if (col)
            loc.col = col;
    }
    return loc;
}

static int bad(struct an_ld *ld, const struct an_ck_src *src, const char *key, const char *fmt,
               const char *a, const char *b)
{
    struct an_loc loc = an_ck_key_loc(src, key);
    char msg[600];
    snprintf(msg, sizeof msg, fmt, a, b ? b : "");
    return an_fail(ld->err, AN_ESCHEMA, &loc, "%s", msg);
}

int an_ck_fail(struct an_ld *ld, const struct an_ck_src *src, const char *key, const char *fmt,
               ...)
{
    struct an_loc loc = an_ck_key_loc(src, key);
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return an_fail(ld->err, AN_ESCHEMA, &loc, "%s", msg);
}

struct an_ck_src an_ck_child(const struct an_ck_src *src, const char *key, size_t index)
{
    struct an_ck_src c = *src;
    c.loc = an_ck_key_loc(src, key);
    c.ynode = NULL;
    if (src->ynode && src->ynode->kind == AN_Y_MAP) {
        const struct an_ynode *v = an_yaml_get(src->ynode, key);
        if (v && v->kind == AN_Y_SEQ && index < v->nitems)
            v = v->items[index];
        else if (v && v->kind == AN_Y_SEQ)
            v = NULL;
        if (v) {
            c.ynode = v;
            c.loc = v->loc;
        }
    }
    return c;
}

static int compile(struct an_ld *ld, const char *src_text, const struct an_loc *loc,
                   struct an_regex **out)
{
    int rc;
    if (ld->regexes && (*out = an_strmap_get(ld->regexes, src_text)))
        return 0;
    if ((rc = an_regex_compile(out, src_text, loc, ld->err)))
        return rc;
    an_arena_defer(ld->a, regex_release, *out);
    if (ld->regexes)
        an_strmap_put(ld->regexes, an_arena_strdup(ld->a, src_text), *out);
    return 0;
}

/* Every "regex:..." string leaf of a subset pattern must compile. */
static int check_subset_regexes(struct an_ld *ld, const json_t *v, const struct an_loc *loc)
{
    if (json_is_string(v) && !strncmp(json_string_value(v), "regex:", 6)) {
        struct an_regex *re = NULL;
        int rc = an_regex_compile(&re, json_string_value(v) + 6, loc, ld->err);
        an_regex_free(re);
        return rc;
    }
    const char *k;
    json_t *m;
    size_t i;
    int rc;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, m)
        {
            if ((rc = check_subset_regexes(ld, m, loc)))
                return rc;
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, m)
        {
            if ((rc = check_subset_regexes(ld, m, loc)))
                return rc;
        }
    }
    return 0;
}

/* Keys that only some kinds take. */
static int only_for(struct an_ld *ld, const struct an_ck_src *src, const json_t *item,
                    const char *key, enum an_check_kind kind, bool ok)
{
    if (ok || !json_object_get(item, key))
        return 0;
    return bad(ld, src, key, "'%s' does not apply to a %s check", key, kinds[kind]);
}

static int load_tool_called(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                            struct an_check_item *out)
{
    json_t *name = json_object_get(item, "name"), *value = json_object_get(item, "value");
    json_t *args = json_object_get(item, "arguments");
    if (name && value)
        return bad(ld, src, "name", "a tool_called check takes 'name' or 'value', not both",
                   "", NULL);
    json_t *v = name ? name : value;
    if (!v)
        return bad(ld, src, "type",
                   "a tool_called check needs 'name' (a tool name, a list of names, or "
                   "{name, arguments})",
                   "", NULL);
    if (args) {
        if (!json_is_string(v))
            return bad(ld, src, "arguments", "'arguments' needs 'name' to be one tool name", "",
                       NULL);
        if (!json_is_object(args))
            return bad(ld, src, "arguments", "'arguments' must be an object", "", NULL);
        v = json_pack("{s:O,s:O}", "name", v, "arguments", args);
        an_arena_defer(ld->a, json_release, v);
    }
    if (json_is_string(v)) {
        if (!json_string_length(v))
            return bad(ld, src, name ? "name" : "value", "the tool name must not be empty", "",
                       NULL);
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        if (!json_array_size(v))
            return bad(ld, src, name ? "name" : "value", "the list of tool names is empty", "",
                       NULL);
        json_array_foreach(v, i, e)
        {
            if (!json_is_string(e) || !json_string_length(e))
                return bad(ld, src, name ? "name" : "value",
                           "a list of tool names must hold non-empty strings", "", NULL);
        }
    } else if (json_is_object(v)) {
        json_t *n = json_object_get(v, "name"), *a = json_object_get(v, "arguments");
        const char *k;
        json_t *m;
        json_object_foreach(v, k, m)
        {
            if (strcmp(k, "name") && strcmp(k, "arguments"))
                return bad(ld, src, "value",
                           "unknown key '%s' in a tool_called value (valid keys: name, "
                           "arguments)",
                           k, NULL);
        }
        if (!json_is_string(n) || !json_string_length(n))
            return bad(ld, src, "value", "a tool_called value needs 'name' (a string)", "", NULL);
        if (a && !json_is_object(a))
            return bad(ld, src, "value", "'arguments' must be an object", "", NULL);
        struct an_loc loc = an_ck_key_loc(src, "value");
        int rc = check_subset_regexes(ld, a, &loc);
        if (rc)
            return rc;
    } else {
        return bad(ld, src, name ? "name" : "value",
                   "a tool_called check takes a tool name, a list of names, or {name, "
                   "arguments}",
                   "", NULL);
    }
    out->value = v;
    return 0;
}

static int load_tool_result(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                            struct an_check_item *out)
{
    json_t *v = json_object_get(item, "value");
    if (!json_is_object(v))
        return bad(ld, src, v ? "value" : "type",
                   "a tool_result check needs 'value': {tool, result} (both optional: the "
                   "tool's name and a subset of its result)",
                   "", NULL);
    const char *k;
    json_t *m;
    json_object_foreach(v, k, m)
    {
        if (strcmp(k, "tool") && strcmp(k, "result"))
            return bad(ld, src, "value",
                       "unknown key '%s' in a tool_result value (valid keys: tool, result)", k,
                       NULL);
    }
    json_t *tool = json_object_get(v, "tool");
    if (tool && (!json_is_string(tool) || !json_string_length(tool)))
        return bad(ld, src, "value", "'tool' must be a tool name", "", NULL);
    struct an_loc loc = an_ck_key_loc(src, "value");
    int rc = check_subset_regexes(ld, json_object_get(v, "result"), &loc);
    if (rc)
        return rc;
    out->value = v;
    return 0;
}

static int load_script(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                       struct an_check_item *out)
{
    json_t *use = json_object_get(item, "use"), *cmd = json_object_get(item, "cmd");
    json_t *to = json_object_get(item, "timeout_ms");
    if (use && cmd)
        return bad(ld, src, "cmd", "a script check takes 'use' or 'cmd', not both", "", NULL);
    if (use) {
        const char *u = json_string_value(use);
        if (!u || strncmp(u, "scripts:", 8) || !u[8])
            return bad(ld, src, "use",
                       "'use' must be 'scripts:PATH' (PATH relative to this file)%s%s", "",
                       u && !strncmp(u, "agents:", 7) ? " (agents: are for agent checks)" : "");
        const char *p = u + 8;
        out->argc = 1;
        out->argv = an_arena_alloc(ld->a, 2 * sizeof *out->argv);
        /* run the file, never a PATH lookup */
        out->argv[0] = strchr(p, '/') ? p : an_arena_printf(ld->a, "./%s", p);
    } else if (cmd) {
        size_t i;
        json_t *e;
        if (!json_is_array(cmd) || !json_array_size(cmd))
            return bad(ld, src, "cmd",
                       "'cmd' must be a non-empty list (argv, run without a shell), e.g. "
                       "[\"python3\", \"checks/total.py\"]",
                       "", NULL);
        out->argc = json_array_size(cmd);
        out->argv = an_arena_alloc(ld->a, (out->argc + 1) * sizeof *out->argv);
        json_array_foreach(cmd, i, e)
        {
            if (!json_is_string(e) || (i == 0 && !json_string_length(e)))
                return bad(ld, src, "cmd", "'cmd' must hold strings", "", NULL);
            out->argv[i] = json_string_value(e);
        }
    } else {
        return bad(ld, src, "type",
                   "a script check needs 'use: scripts:PATH' or 'cmd: [argv...]'", "", NULL);
    }
    out->cwd = src->file_dir ? src->file_dir : ".";
    out->timeout_ms = 30000;
    if (to) {
        if (!json_is_integer(to) || json_integer_value(to) < 1)
            return bad(ld, src, "timeout_ms", "'timeout_ms' must be a whole number, at least 1",
                       "", NULL);
        out->timeout_ms = json_integer_value(to);
    }
    out->options = json_object_get(item, "options");
    out->value = json_object_get(item, "value");
    return 0;
}

/* `use: agents:NAME`; the name is resolved once the config's agents are
 * known (an_checks_resolve_agents). `value` is the criteria. */
static int load_agent(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                      struct an_check_item *out)
{
    json_t *use = json_object_get(item, "use");
    const char *u = json_string_value(use);
    if (!u || strncmp(u, "agents:", 7) || !u[7])
        return bad(ld, src, use ? "use" : "type",
                   "an agent check needs 'use: agents:NAME' (an agent of the config's "
                   "'agents:')%s%s",
                   "", u && !strncmp(u, "scripts:", 8) ? " (scripts: are for script checks)" : "");
    json_t *opts = json_object_get(item, "options");
    if (opts && !json_is_object(opts))
        return bad(ld, src, "options", "'options' must be an object such as "
                   "{\"metadata\": {\"criteria\": \"...\"}}", "", NULL);
    json_t *md = opts ? json_object_get(opts, "metadata") : NULL;
    if (md && !json_is_object(md))
        return bad(ld, src, "options", "'options.metadata' must be an object", "", NULL);
    json_t *v = json_object_get(item, "value");
    if (!v && !(md && json_object_get(md, "criteria")))
        return bad(ld, src, "type",
                   "an agent check needs criteria: 'value' or 'options.metadata.criteria'", "",
                   NULL);
    out->agent_name = u + 7;
    out->value = v;
    out->options = opts;
    return 0;
}

/* A name or a non-empty list of non-empty names, as a list (a new list in
 * the arena when one name was written). `what` names them in messages. */
static int name_list(struct an_ld *ld, const struct an_ck_src *src, const char *key, json_t *v,
                     const char *kind, const char *what, json_t **out)
{
    if (json_is_string(v) && json_string_length(v)) {
        json_t *l = json_pack("[O]", v);
        an_arena_defer(ld->a, json_release, l);
        *out = l;
        return 0;
    }
    size_t i;
    json_t *e;
    bool ok = json_is_array(v) && json_array_size(v);
    json_array_foreach(v, i, e)
    {
        ok = ok && json_is_string(e) && json_string_length(e);
    }
    if (!ok)
        return an_ck_fail(ld, src, v ? key : "type", "%s %s check needs 'value': a list of %s",
                          strchr("aeiou", kind[0]) ? "an" : "a", kind, what);
    *out = v;
    return 0;
}

/* Seed 004's kinds (docs/http.md): action_required, tool_sequence,
 * retrieval_required, json_schema, evidence_required, tool_execution. */
static int load_case_kind(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                          struct an_check_item *out)
{
    json_t *value = json_object_get(item, "value");
    const char *kind = kinds[out->kind];
    switch (out->kind) {
    case AN_CHECK_ACTION_REQUIRED:
        return name_list(ld, src, "value", value, kind, "action types", &out->value);
    case AN_CHECK_TOOL_SEQUENCE:
        return name_list(ld, src, "value", value, kind, "tool names, in order", &out->value);
    case AN_CHECK_RETRIEVAL_REQUIRED: {
        json_t *ids = json_is_object(value) ? json_object_get(value, "doc_ids") : value;
        if (json_is_object(value) && json_object_size(value) != (ids ? 1u : 0u))
            return an_ck_fail(ld, src, "value",
                              "a retrieval_required value is a list of doc ids or {doc_ids: "
                              "[...]}");
        return name_list(ld, src, "value", ids, kind, "doc ids (or {doc_ids: [...]})",
                         &out->value);
    }
    case AN_CHECK_JSON_SCHEMA: {
        char why[700];
        if (!json_is_object(value) && !json_is_boolean(value))
            return an_ck_fail(ld, src, value ? "value" : "type",
                              "a json_schema check needs 'value': a JSON Schema (an object)");
        if (an_jschema_compile(&out->schema, value, why, sizeof why))
            return an_ck_fail(ld, src, "value", "invalid JSON Schema %s", why);
        an_arena_defer(ld->a, jschema_release, out->schema);
        out->value = value;
        return 0;
    }
    case AN_CHECK_EVIDENCE_REQUIRED:
        if (value && !json_is_true(value))
            return an_ck_fail(ld, src, "value",
                              "an evidence_required check takes no 'value' (or true); leave "
                              "the check out to not require evidence");
        return 0;
    case AN_CHECK_TOOL_EXECUTION:
        if (value)
            return an_ck_fail(ld, src, "value", "a tool_execution check takes no 'value'");
        return 0;
    default:
        return 0;
    }
}

int an_check_item_load(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                       enum an_level level, struct an_check_item *out)
{
    int rc;
    memset(out, 0, sizeof *out);
    out->loc = src->loc;
    out->level = level;
    if (json_is_string(item)) {
        json_t *o = json_pack("{s:O}", "type", item);
        an_arena_defer(ld->a, json_release, o);
        item = o;
    }
    if (!json_is_object(item))
        return an_fail(ld->err, AN_ESCHEMA, &src->loc,
                       "an assertion must be an object such as {\"type\": \"contains\", "
                       "\"value\": \"...\"}");
    const char *k;
    json_t *m;
    size_t unknown = 0;
    json_object_foreach(item, k, m)
    {
        bool ok = false;
        for (size_t j = 0; item_keys[j] && !ok; j++)
            ok = !strcmp(k, item_keys[j]);
        if (ok)
            continue;
        const char *near = an_closest(k, item_keys);
        if (near)
            rc = bad(ld, src, k, "unknown key '%s' in an assertion (did you mean '%s'?)", k,
                     near);
        else
            rc = bad(ld, src, k,
                     "unknown key '%s' in an assertion (valid keys: type, value, pattern, "
                     "path, name, arguments, negate, message, use, cmd, options, timeout_ms)",
                     k, NULL);
        if ((rc = an_ld_keep(ld, rc))) /* with ld->errs: every unknown key, the rest read */
            return rc;
        unknown++;
    }
    /* a misspelt key said, the item is not read further: "needs 'value'"
     * after "unknown key 'valeu'" would say the same thing twice (the file
     * has failed already: the list grew) */
    if (unknown)
        return 0;
    /* seed 002's original: no type means equals */
    const char *type = "equals";
    json_t *t = json_object_get(item, "type");
    if (t) {
        if (!json_is_string(t))
            return bad(ld, src, "type", "'type' must be a string", "", NULL);
        type = json_string_value(t);
    }
    size_t kind = 0;
    while (kinds[kind] && strcmp(kinds[kind], type))
        kind++;
    if (!kinds[kind]) {
        const char *near = an_closest(type, kinds);
        if (near)
            return bad(ld, src, "type", "unknown assertion type '%s' (did you mean '%s'?)", type,
                       near);
        return bad(ld, src, "type",
                   "unknown assertion type '%s' (supported: contains, not_contains, equals, "
                   "regex, json_path, type, tool_called, tool_result, script, agent, "
                   "action_required, tool_sequence, retrieval_required, json_schema, "
                   "evidence_required, tool_execution, task_state; and an assert block's "
                   "rules as GROUP.KEY: tools.allow, tools.sequence, timing.max_ttft_ms, "
                   "usage.max_total_tokens ...)",
                   type, NULL);
    }
    out->kind = (enum an_check_kind)kind;
    json_t *v;
    if ((v = json_object_get(item, "negate"))) {
        if (!json_is_boolean(v))
            return bad(ld, src, "negate", "'negate' must be true or false", "", NULL);
        out->negate = json_is_true(v);
    }
    if ((v = json_object_get(item, "message"))) {
        if (!json_is_string(v) || !json_string_length(v))
            return bad(ld, src, "message", "'message' must be a non-empty string", "", NULL);
        out->message = json_string_value(v);
    }
    enum an_check_kind ck = out->kind;
    if ((rc = only_for(ld, src, item, "pattern", ck, ck == AN_CHECK_REGEX)) ||
        (rc = only_for(ld, src, item, "path", ck,
                       ck == AN_CHECK_JSON_PATH || ck == AN_CHECK_TYPE)) ||
        (rc = only_for(ld, src, item, "name", ck, ck == AN_CHECK_TOOL_CALLED)) ||
        (rc = only_for(ld, src, item, "arguments", ck, ck == AN_CHECK_TOOL_CALLED)) ||
        (rc = only_for(ld, src, item, "use", ck, ck == AN_CHECK_SCRIPT || ck == AN_CHECK_AGENT)) ||
        (rc = only_for(ld, src, item, "cmd", ck, ck == AN_CHECK_SCRIPT)) ||
        (rc = only_for(ld, src, item, "options", ck,
                       ck == AN_CHECK_SCRIPT || ck == AN_CHECK_AGENT)) ||
        (rc = only_for(ld, src, item, "timeout_ms", ck, ck == AN_CHECK_SCRIPT)) ||
        (rc = only_for(ld, src, item, "ignore_case", ck,
                       ck == AN_CHECK_CONTAINS || ck == AN_CHECK_NOT_CONTAINS)) ||
        (rc = only_for(ld, src, item, "of", ck,
                       ck == AN_CHECK_CONTAINS || ck == AN_CHECK_NOT_CONTAINS ||
                           ck == AN_CHECK_EQUALS || ck == AN_CHECK_REGEX ||
                           ck == AN_CHECK_JSON_PATH || ck == AN_CHECK_TYPE)))
        return rc;
    if ((v = json_object_get(item, "of"))) {
        const char *of = json_string_value(v);
        if (of && !strcmp(of, "output"))
            out->of = AN_OF_OUTPUT;
        else if (of && !strcmp(of, "state"))
            out->of = AN_OF_STATE;
        else if (of && !strcmp(of, "messages"))
            out->of = AN_OF_MESSAGES;
        else
            return bad(ld, src, "of", "'of' must be output, state or messages", "", NULL);
    }
    if ((v = json_object_get(item, "ignore_case"))) {
        if (!json_is_boolean(v))
            return bad(ld, src, "ignore_case", "'ignore_case' must be true or false", "", NULL);
        out->ignore_case = json_is_true(v);
    }
    json_t *value = json_object_get(item, "value");
    switch (out->kind) {
    case AN_CHECK_CONTAINS:
    case AN_CHECK_NOT_CONTAINS:
    case AN_CHECK_EQUALS:
        if (!value)
            return bad(ld, src, "type", "a %s check needs 'value'", kinds[kind], NULL);
        if (out->kind != AN_CHECK_EQUALS && json_is_string(value) &&
            !json_string_length(value))
            return bad(ld, src, "value", "'value' must not be empty (every text contains \"\")",
                       "", NULL);
        out->value = value;
        return 0;
    case AN_CHECK_REGEX: {
        json_t *p = json_object_get(item, "pattern");
        if (p && value)
            return bad(ld, src, "pattern", "a regex check takes 'pattern' or 'value', not both",
                       "", NULL);
        if (!p)
            p = value;
        const char *key = json_object_get(item, "pattern") ? "pattern" : "value";
        if (!json_is_string(p) || !json_string_length(p))
            return bad(ld, src, p ? key : "type", "a regex check needs 'pattern' (a string)", "",
                       NULL);
        struct an_loc loc = an_ck_key_loc(src, key);
        return compile(ld, json_string_value(p), &loc, &out->re);
    }
    case AN_CHECK_JSON_PATH:
    case AN_CHECK_TYPE: {
        json_t *p = json_object_get(item, "path"), *dummy;
        if (p && (!json_is_string(p) || an_json_path_get(NULL, json_string_value(p), &dummy)))
            return bad(ld, src, "path",
                       "'path' must be a JSON path such as \"$.order.items[0].sku\"", "", NULL);
        if (p)
            out->path = json_string_value(p);
        if (out->kind == AN_CHECK_JSON_PATH) {
            if (!p)
                return bad(ld, src, "type", "a json_path check needs 'path'", "", NULL);
            out->value = value; /* absent: the path must exist */
            return 0;
        }
        const char *tn = json_string_value(value);
        size_t j = 0;
        while (tn && json_types[j] && strcmp(json_types[j], tn))
            j++;
        if (!tn || !json_types[j])
            return bad(ld, src, value ? "value" : "type",
                       "a type check needs 'value': string, number, boolean, array, object or "
                       "null",
                       "", NULL);
        out->value = value;
        return 0;
    }
    case AN_CHECK_TOOL_CALLED:
        return load_tool_called(ld, item, src, out);
    case AN_CHECK_TOOL_RESULT:
        return load_tool_result(ld, item, src, out);
    case AN_CHECK_SCRIPT:
        return load_script(ld, item, src, out);
    case AN_CHECK_AGENT:
        return load_agent(ld, item, src, out);
    case AN_CHECK_ACTION_REQUIRED:
    case AN_CHECK_TOOL_SEQUENCE:
    case AN_CHECK_RETRIEVAL_REQUIRED:
    case AN_CHECK_JSON_SCHEMA:
    case AN_CHECK_EVIDENCE_REQUIRED:
    case AN_CHECK_TOOL_EXECUTION:
        return load_case_kind(ld, item, src, out);
    case AN_CHECK_TASK_STATE:
        return an_task_state_load(ld, item, src, out);
    }
    return 0;
}

int an_checks_load_yaml(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                        struct an_assert *blk)
{
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_SEQ, "checks")))
        return rc;
    const char *file = n->loc.file;
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *dir = slash ? an_arena_strndup(ld->a, file, (size_t)(slash - file)) : ".";
    struct an_check_item *v = an_arena_grow(ld->a, blk->checks, blk->nchecks,
                                            blk->nchecks + n->nitems + 1, sizeof *v);
    size_t added = 0;
    for (size_t i = 0; i < n->nitems; i++) {
        json_t *j = an_yaml_to_json(n->items[i], ld->err);
        if (!j) {
            if ((rc = an_ld_keep(ld, ld->err->code)))
                return rc;
            continue; /* with ld->errs: every check is read, the bad ones left out */
        }
        an_arena_defer(ld->a, json_release, j);
        struct an_ck_src src = {n->items[i]->loc, n->items[i], NULL, dir};
        bool taken = false;
        if ((rc = an_check_block_load(ld, j, &src, level, blk, &taken))) {
            if ((rc = an_ld_keep(ld, rc)))
                return rc;
            continue;
        }
        if (taken)
            continue;
        if ((rc = an_check_item_load(ld, j, &src, level, &v[blk->nchecks + added])) == 0)
            added++;
        else if ((rc = an_ld_keep(ld, rc)))
            return rc;
    }
    blk->checks = v;
    blk->nchecks += added;
    return 0;
}

int an_checks_resolve_agents(const struct an_config *cfg, struct an_assert *blk,
                             struct an_err *err)
{
    for (size_t i = 0; i < blk->nchecks; i++) {
        struct an_check_item *it = &blk->checks[i];
        if (it->kind != AN_CHECK_AGENT || it->agent)
            continue;
        for (size_t k = 0; k < cfg->nagents && !it->agent; k++)
            if (!strcmp(cfg->agents[k].name, it->agent_name))
                it->agent = &cfg->agents[k];
        if (it->agent)
            continue;
        if (!cfg->nagents)
            return an_fail(err, AN_ESCHEMA, &it->loc,
                           "agent '%s' is not declared: the config (%s) has no 'agents:' map",
                           it->agent_name, cfg->path);
        const char **names = an_xcalloc(cfg->nagents + 1, sizeof *names);
        for (size_t k = 0; k < cfg->nagents; k++)
            names[k] = cfg->agents[k].name;
        const char *near = an_closest(it->agent_name, names);
        struct an_buf list = AN_BUF_INIT;
        for (size_t k = 0; k < cfg->nagents; k++)
            an_buf_printf(&list, "%s%s", k ? ", " : "", names[k]);
        if (near)
            an_fail(err, AN_ESCHEMA, &it->loc,
                    "agent '%s' is not declared in the config's 'agents:' (did you mean '%s'?)",
                    it->agent_name, near);
        else
            an_fail(err, AN_ESCHEMA, &it->loc,
                    "agent '%s' is not declared in the config's 'agents:' (declared: %s)",
                    it->agent_name, an_buf_cstr(&list));
        an_buf_release(&list);
        free(names);
        return AN_ESCHEMA;
    }
    return 0;
}
