/* Seed 002's typed checks, from JSON (JSONL cases, YAML `checks:`): what
 * every check shares (known keys, type, negate, message, of, ignore_case,
 * each key's type), then the loader of the kind's row (check/check_kinds.c). */
#include "load/check_load.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

#include "ananke/check.h"
#include "core/json.h"

static void json_release(void *p)
{
    json_decref(p);
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

int an_ck_fail(struct an_ld *ld, const struct an_ck_src *src, const char *key, const char *fmt, ...)
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

int an_check_fail(struct an_check_ctx *cx, const char *key, const char *fmt, ...)
{
    struct an_loc loc = an_ck_key_loc(cx->src, key);
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return an_fail(cx->ld->err, AN_ESCHEMA, &loc, "%s", msg);
}

json_t *an_ck_keep(struct an_ld *ld, json_t *v)
{
    an_arena_defer(ld->a, json_release, v);
    return v;
}

/* "a, b, c": the names of a NULL-terminated list. */
static void name_list(struct an_buf *b, const char *const *names)
{
    for (size_t i = 0; names[i]; i++)
        an_buf_printf(b, "%s%s", i ? ", " : "", names[i]);
}

/* Every key of the item must be a key of the table. With ld->errs each
 * unknown key is said; returns how many there were in *unknown. */
static int known_keys(struct an_ld *ld, const struct an_ck_src *src, json_t *item, size_t *unknown)
{
    const char *const *keys = an_check_key_names();
    const char *k;
    json_t *m;
    int rc;
    json_object_foreach(item, k, m)
    {
        if (an_check_key_find(k))
            continue;
        const char *near = an_closest(k, keys);
        if (near) {
            rc = an_ck_fail(ld, src, k, "unknown key '%s' in an assertion (did you mean '%s'?)", k,
                            near);
        } else {
            struct an_buf list = AN_BUF_INIT;
            name_list(&list, keys);
            rc = an_ck_fail(ld, src, k, "unknown key '%s' in an assertion (valid keys: %s)", k,
                            an_buf_cstr(&list));
            an_buf_release(&list);
        }
        if ((rc = an_ld_keep(ld, rc))) /* with ld->errs: every unknown key, the rest read */
            return rc;
        (*unknown)++;
    }
    return 0;
}

/* The row of `type:` (equals when absent, as seed 002's original reads it). */
static int find_kind(struct an_ld *ld, const struct an_ck_src *src, json_t *item,
                     struct an_check_item *out, const struct an_check_kind_def **def)
{
    const char *type = "equals";
    json_t *t = json_object_get(item, "type");
    if (t) {
        if (!json_is_string(t))
            return an_ck_fail(ld, src, "type", "'type' must be a string");
        type = json_string_value(t);
    }
    if ((*def = an_check_kind_find(type, &out->kind)))
        return 0;
    const char *const *names = an_check_kind_names();
    const char *near = an_closest(type, names);
    if (near)
        return an_ck_fail(ld, src, "type", "unknown assertion type '%s' (did you mean '%s'?)", type,
                          near);
    struct an_buf list = AN_BUF_INIT;
    name_list(&list, names);
    int rc = an_ck_fail(ld, src, "type",
                        "unknown assertion type '%s' (supported: %s; and an assert block's "
                        "rules as GROUP.KEY: tools.allow, tools.sequence, timing.max_ttft_ms, "
                        "usage.max_total_tokens ...)",
                        type, an_buf_cstr(&list));
    an_buf_release(&list);
    return rc;
}

/* The value of `key`, when written, must be of the key's type. */
static int typed(struct an_ld *ld, const struct an_ck_src *src, json_t *item,
                 const struct an_check_key *key)
{
    json_t *v = json_object_get(item, key->name);
    if (!v)
        return 0;
    switch (key->type) {
    case AN_CK_BOOL:
        if (!json_is_boolean(v))
            return an_ck_fail(ld, src, key->name, "'%s' must be true or false", key->name);
        break;
    case AN_CK_INT:
        if (!json_is_integer(v))
            return an_ck_fail(ld, src, key->name, "'%s' must be a whole number", key->name);
        break;
    case AN_CK_STRING:
        if (!json_is_string(v) || !json_string_length(v))
            return an_ck_fail(ld, src, key->name, "'%s' must be a non-empty string", key->name);
        break;
    case AN_CK_OBJECT:
        if (!json_is_object(v))
            return an_ck_fail(ld, src, key->name, "'%s' must be an object", key->name);
        break;
    case AN_CK_ANY:
        break;
    }
    return 0;
}

/* Keys every check takes besides type and value: negate, message. */
static int common_keys(struct an_ld *ld, const struct an_ck_src *src, json_t *item,
                       struct an_check_item *out)
{
    int rc;
    if ((rc = typed(ld, src, item, an_check_key_find("negate"))) ||
        (rc = typed(ld, src, item, an_check_key_find("message"))))
        return rc;
    out->negate = json_is_true(json_object_get(item, "negate"));
    out->message = json_string_value(json_object_get(item, "message"));
    return 0;
}

/* The row's own keys: a key of another kind is an error; each is of its
 * type; `of` and `ignore_case`, which several kinds take, are read here. */
static int kind_keys(struct an_ld *ld, const struct an_ck_src *src, json_t *item,
                     const struct an_check_kind_def *def, struct an_check_item *out)
{
    static const char *const common[] = {"type", "value", "negate", "message", NULL};
    size_t n = an_check_keys_count(), c;
    for (size_t i = 0; i < n; i++) {
        const char *k = an_check_key_at(i)->name;
        for (c = 0; common[c] && strcmp(common[c], k); c++)
            ;
        if (!common[c] && json_object_get(item, k) && !an_check_kind_takes(def, k))
            return an_ck_fail(ld, src, k, "'%s' does not apply to a %s check", k, def->name);
    }
    json_t *v;
    if ((v = json_object_get(item, "of"))) {
        const char *of = json_string_value(v);
        if (of && !strcmp(of, "output"))
            out->of = AN_OF_OUTPUT;
        else if (of && !strcmp(of, "state"))
            out->of = AN_OF_STATE;
        else if (of && !strcmp(of, "messages"))
            out->of = AN_OF_MESSAGES;
        else
            return an_ck_fail(ld, src, "of", "'of' must be output, state or messages");
    }
    for (size_t i = 0; i < n; i++) {
        const struct an_check_key *key = an_check_key_at(i);
        int rc;
        for (c = 0; common[c] && strcmp(common[c], key->name); c++)
            ;
        if (!common[c] && (rc = typed(ld, src, item, key)))
            return rc;
    }
    out->ignore_case = json_is_true(json_object_get(item, "ignore_case"));
    return 0;
}

int an_check_item_load(struct an_ld *ld, json_t *item, const struct an_ck_src *src,
                       enum an_level level, struct an_check_item *out)
{
    int rc;
    memset(out, 0, sizeof *out);
    out->loc = src->loc;
    out->level = level;
    if (json_is_string(item))
        item = an_ck_keep(ld, json_pack("{s:O}", "type", item));
    if (!json_is_object(item))
        return an_fail(ld->err, AN_ESCHEMA, &src->loc,
                       "an assertion must be an object such as {\"type\": \"contains\", "
                       "\"value\": \"...\"}");
    size_t unknown = 0;
    if ((rc = known_keys(ld, src, item, &unknown)))
        return rc;
    /* a misspelt key said, the item is not read further: "needs 'value'"
     * after "unknown key 'valeu'" would say the same thing twice (the file
     * has failed already: the list grew) */
    if (unknown)
        return 0;
    const struct an_check_kind_def *def;
    if ((rc = find_kind(ld, src, item, out, &def)) || (rc = common_keys(ld, src, item, out)) ||
        (rc = kind_keys(ld, src, item, def, out)))
        return rc;
    struct an_check_ctx cx = {ld, src, def};
    return def->load(&cx, item, out);
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
    struct an_check_item *v =
        an_arena_grow(ld->a, blk->checks, blk->nchecks, blk->nchecks + n->nitems + 1, sizeof *v);
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

int an_checks_resolve_agents(const struct an_config *cfg, struct an_assert *blk, struct an_err *err)
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
