#include "load/assert_load.h"

#include "ananke/check.h"

#include "load/check_load.h"

#include <stddef.h>
#include <string.h>

static void regex_release(void *p)
{
    an_regex_free(p);
}

static int compile(struct an_ld *ld, const struct an_ynode *n, const char *what,
                   struct an_regex **out)
{
    const char *src;
    int rc = an_ld_string(ld, n, what, &src);
    if (rc)
        return rc;
    if (ld->regexes && (*out = an_strmap_get(ld->regexes, src)))
        return 0; /* compiled already: its loc is the first place it was written */
    if ((rc = an_regex_compile(out, src, &n->loc, ld->err)))
        return rc;
    an_arena_defer(ld->a, regex_release, *out);
    if (ld->regexes)
        an_strmap_put(ld->regexes, src, *out);
    return 0;
}

/* A string or a list of strings, as seed 001 allows for must_match. */
static int patterns(struct an_ld *ld, const struct an_ynode *n, const char *what,
                    enum an_level level, struct an_pattern **v, size_t *count)
{
    int rc;
    if (n->kind == AN_Y_SCALAR) {
        *v = an_arena_alloc(ld->a, sizeof **v);
        (*v)[0].level = level;
        (*v)[0].loc = n->loc;
        *count = 1;
        return compile(ld, n, what, &(*v)[0].re);
    }
    if ((rc = an_ld_expect(ld, n, AN_Y_SEQ, what)))
        return rc;
    *v = an_arena_alloc(ld->a, (n->nitems ? n->nitems : 1) * sizeof **v);
    *count = n->nitems;
    for (size_t i = 0; i < n->nitems; i++) {
        (*v)[i].level = level;
        (*v)[i].loc = n->items[i]->loc;
        if ((rc = an_ld_keep(ld, compile(ld, n->items[i], what, &(*v)[i].re))))
            return rc;
    }
    return 0;
}

static int load_limit(struct an_ld *ld, const struct an_ynode *n, const char *what,
                      enum an_level level, struct an_limit *out)
{
    bool b;
    out->loc = n->loc;
    out->level = level;
    if (an_yaml_as_bool(n, &b)) {
        if (b)
            return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                           "'%s' takes %s, or false to disable the inherited limit (true "
                           "means nothing)",
                           what,
                           !strcmp(what, "max_cost") ? "an amount"
                           : !strncmp(what, "max_", 4) && strstr(what, "tokens")
                               ? "a number of tokens"
                               : "a number of milliseconds");
        out->state = AN_LIMIT_DISABLED;
        return 0;
    }
    out->state = AN_LIMIT_SET;
    if (!strcmp(what, "max_cost"))
        return an_ld_amount(ld, n, what, &out->amount);
    return an_ld_uint(ld, n, what, &out->value);
}

static int load_count(struct an_ld *ld, const struct an_ynode *n, struct an_count *c)
{
    static const char *const keys[] = {"exact", "min", "max", NULL};
    int rc;
    c->loc = n->loc;
    if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n)) {
        /* `count: 2` is read as {exact: 2}: what a reader would assume */
        c->has_exact = true;
        return an_ld_uint(ld, n, "count", &c->exact);
    }
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "count")) || (rc = an_ld_keys(ld, n, keys, "count")))
        return rc;
    if (n->npairs == 0)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'count' needs exact, min or max");
    struct an_ynode *v;
    if ((v = an_yaml_get(n, "exact"))) {
        c->has_exact = true;
        if ((rc = an_ld_uint(ld, v, "exact", &c->exact)))
            return rc;
    }
    if ((v = an_yaml_get(n, "min"))) {
        c->has_min = true;
        if ((rc = an_ld_uint(ld, v, "min", &c->min)))
            return rc;
    }
    if ((v = an_yaml_get(n, "max"))) {
        c->has_max = true;
        if ((rc = an_ld_uint(ld, v, "max", &c->max)))
            return rc;
    }
    if (c->has_exact && (c->has_min || c->has_max))
        return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                       "'count' takes either exact or min/max, not both");
    if (c->has_min && c->has_max && c->min > c->max)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'count' has min %lld greater than max %lld",
                       (long long)c->min, (long long)c->max);
    return 0;
}

static int load_rule(struct an_ld *ld, const struct an_ynode *n, bool require, enum an_level level,
                     struct an_tool_rule *r)
{
    static const char *const req_keys[] = {
        "name", "count", "args_match", "result_match", "result_not_match", "after", "source", NULL};
    static const char *const forbid_keys[] = {"name", "args_match", "result_match", NULL};
    const char *where = require ? "a tools.require rule" : "a tools.forbid_calls rule";
    struct an_ynode *v;
    int rc;
    r->loc = n->loc;
    r->level = level;
    if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n)) {
        r->name = n->str; /* `- search` is short for `- name: search` */
        return 0;
    }
    if ((rc =
             an_ld_expect(ld, n, AN_Y_MAP, require ? "tools.require[]" : "tools.forbid_calls[]")) ||
        (rc = an_ld_keys(ld, n, require ? req_keys : forbid_keys, where)) ||
        (rc = an_ld_require(ld, n, "name", where, &v)) ||
        (rc = an_ld_string(ld, v, "name", &r->name)))
        return rc;
    if ((v = an_yaml_get(n, "count"))) {
        r->has_count = true;
        if ((rc = load_count(ld, v, &r->count)))
            return rc;
    }
    if ((v = an_yaml_get(n, "args_match"))) {
        if ((rc = an_ld_expect(ld, v, AN_Y_MAP, "args_match")))
            return rc;
        r->nargs = v->npairs;
        r->args = an_arena_alloc(ld->a, (v->npairs ? v->npairs : 1) * sizeof *r->args);
        for (size_t i = 0; i < v->npairs; i++) {
            const struct an_ypair *p = &v->pairs[i];
            r->args[i].path = p->key->str;
            r->args[i].loc = p->key->loc;
            json_t *none;
            if (an_json_path_get(NULL, p->key->str, &none))
                return an_fail(ld->err, AN_ESCHEMA, &p->key->loc,
                               "invalid argument path '%s' (dots between keys, list items by "
                               "number: items.0.sku or items[0].sku)",
                               p->key->str);
            if ((rc = compile(ld, p->value, p->key->str, &r->args[i].re)))
                return rc;
        }
    }
    if ((v = an_yaml_get(n, "result_match")) &&
        (rc = compile(ld, v, "result_match", &r->result_match)))
        return rc;
    if ((v = an_yaml_get(n, "result_not_match")) &&
        (rc = compile(ld, v, "result_not_match", &r->result_not_match)))
        return rc;
    if ((v = an_yaml_get(n, "after"))) {
        if ((rc = an_ld_string(ld, v, "after", &r->after)))
            return rc;
        r->after_loc = v->loc;
    }
    if ((v = an_yaml_get(n, "source"))) {
        const char *src;
        if ((rc = an_ld_string(ld, v, "source", &src)))
            return rc;
        if (strcmp(src, "agent") != 0 && strcmp(src, "server") != 0)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'source' must be 'agent' (the calls the agent reports) or 'server' "
                           "(the calls its tool servers received), not '%s'",
                           src);
        r->source_server = !strcmp(src, "server");
    }
    return 0;
}

static int load_rules(struct an_ld *ld, const struct an_ynode *n, bool require, enum an_level level,
                      struct an_tool_rule **v, size_t *count)
{
    int rc;
    const char *what = require ? "tools.require" : "tools.forbid_calls";
    if ((rc = an_ld_expect(ld, n, AN_Y_SEQ, what)))
        return rc;
    *count = n->nitems;
    *v = an_arena_alloc(ld->a, (n->nitems ? n->nitems : 1) * sizeof **v);
    for (size_t i = 0; i < n->nitems; i++)
        if ((rc = load_rule(ld, n->items[i], require, level, &(*v)[i])))
            return rc;
    return 0;
}

static int load_forbid(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                       struct an_assert *out)
{
    int rc;
    if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n)) {
        out->forbid = an_arena_alloc(ld->a, sizeof *out->forbid);
        out->forbid[0] = (struct an_name){n->str, n->loc, level};
        out->nforbid = 1;
        return 0;
    }
    if ((rc = an_ld_expect(ld, n, AN_Y_SEQ, "tools.forbid")))
        return rc;
    out->forbid = an_arena_alloc(ld->a, (n->nitems ? n->nitems : 1) * sizeof *out->forbid);
    out->nforbid = n->nitems;
    for (size_t i = 0; i < n->nitems; i++) {
        const char *name;
        if ((rc = an_ld_string(ld, n->items[i], "tools.forbid[]", &name)))
            return rc;
        out->forbid[i] = (struct an_name){name, n->items[i]->loc, level};
    }
    return 0;
}

/* tools.allow: a name or a list of names and fnmatch globs. An empty list
 * is refused: under the union rule it would allow nothing at its own level
 * and nothing less at any other, which no reader would guess. */
static int load_allow(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                      struct an_assert *out)
{
    int rc;
    if (n->kind == AN_Y_SCALAR && !an_yaml_is_null(n)) {
        out->allow = an_arena_alloc(ld->a, sizeof *out->allow);
        out->allow[0] = (struct an_name){n->str, n->loc, level};
        out->nallow = 1;
        return 0;
    }
    if ((rc = an_ld_expect(ld, n, AN_Y_SEQ, "tools.allow")))
        return rc;
    if (n->nitems == 0)
        return an_fail(ld->err, AN_ESCHEMA, &n->loc,
                       "'tools.allow' is empty (list the tools the agent may call)");
    out->allow = an_arena_alloc(ld->a, n->nitems * sizeof *out->allow);
    out->nallow = n->nitems;
    for (size_t i = 0; i < n->nitems; i++) {
        const char *name;
        if ((rc = an_ld_string(ld, n->items[i], "tools.allow[]", &name)))
            return rc;
        out->allow[i] = (struct an_name){name, n->items[i]->loc, level};
    }
    return 0;
}

/* tools.sequence: {names: [..], mode: in_order | exact | contains}. */
static int load_sequence(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                         struct an_assert *out)
{
    static const char *const keys[] = {"names", "mode", NULL};
    static const char *const modes[] = {"in_order", "exact", "contains", NULL};
    struct an_ynode *v;
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "tools.sequence")) ||
        (rc = an_ld_keys(ld, n, keys, "tools.sequence")) ||
        (rc = an_ld_require(ld, n, "names", "tools.sequence", &v)) ||
        (rc = an_ld_expect(ld, v, AN_Y_SEQ, "names")))
        return rc;
    if (v->nitems == 0)
        return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                       "'tools.sequence' names is empty (list at least one tool)");
    struct an_sequence *sq = an_arena_alloc(ld->a, sizeof *sq);
    memset(sq, 0, sizeof *sq);
    sq->loc = n->loc;
    sq->level = level;
    sq->nnames = v->nitems;
    sq->names = an_arena_alloc(ld->a, v->nitems * sizeof *sq->names);
    for (size_t i = 0; i < v->nitems; i++)
        if ((rc = an_ld_string(ld, v->items[i], "names[]", &sq->names[i])))
            return rc;
    if ((v = an_yaml_get(n, "mode"))) {
        const char *m;
        if ((rc = an_ld_string(ld, v, "mode", &m)))
            return rc;
        size_t k = 0;
        while (modes[k] && strcmp(modes[k], m) != 0)
            k++;
        if (!modes[k])
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "unknown tools.sequence mode '%s' (in_order, exact or contains)", m);
        sq->mode = (enum an_seq_mode)k;
    }
    out->sequences = sq;
    out->nsequences = 1;
    return 0;
}

/* Append src's arrays to dst's (arena copies) and take src's limits where
 * dst has none: `extends` gives defaults that the block itself overrides. */
void an_assert_absorb(struct an_ld *ld, struct an_assert *dst, const struct an_assert *src)
{
#define CAT(field, nfield)                                                                         \
    do {                                                                                           \
        if (src->nfield) {                                                                         \
            void *p = an_arena_grow(ld->a, dst->field, dst->nfield, dst->nfield + src->nfield,     \
                                    sizeof *dst->field);                                           \
            memcpy((char *)p + dst->nfield * sizeof *dst->field, src->field,                       \
                   src->nfield * sizeof *dst->field);                                              \
            dst->field = p;                                                                        \
            dst->nfield += src->nfield;                                                            \
        }                                                                                          \
    } while (0)
    CAT(forbid, nforbid);
    CAT(allow, nallow);
    CAT(sequences, nsequences);
    CAT(require, nrequire);
    CAT(forbid_calls, nforbid_calls);
    CAT(must_match, nmust_match);
    CAT(must_not_match, nmust_not_match);
    CAT(checks, nchecks);
#undef CAT
    if (!dst->max_duration_ms.state)
        dst->max_duration_ms = src->max_duration_ms;
    if (!dst->max_idle_ms.state)
        dst->max_idle_ms = src->max_idle_ms;
    if (!dst->max_gap_ms.state)
        dst->max_gap_ms = src->max_gap_ms;
    if (!dst->max_ttft_ms.state)
        dst->max_ttft_ms = src->max_ttft_ms;
    if (!dst->max_first_event_ms.state)
        dst->max_first_event_ms = src->max_first_event_ms;
    if (!dst->max_input_tokens.state)
        dst->max_input_tokens = src->max_input_tokens;
    if (!dst->max_output_tokens.state)
        dst->max_output_tokens = src->max_output_tokens;
    if (!dst->max_total_tokens.state)
        dst->max_total_tokens = src->max_total_tokens;
    if (!dst->max_cost.state)
        dst->max_cost = src->max_cost;
    if (!dst->consistent.state)
        dst->consistent = src->consistent;
}

/* Rewrite the level of everything in a block (an extended block takes the
 * level of the block that extends it). */
static void set_level(struct an_assert *b, enum an_level level)
{
    for (size_t i = 0; i < b->nforbid; i++)
        b->forbid[i].level = level;
    for (size_t i = 0; i < b->nallow; i++)
        b->allow[i].level = level;
    for (size_t i = 0; i < b->nsequences; i++)
        b->sequences[i].level = level;
    for (size_t i = 0; i < b->nrequire; i++)
        b->require[i].level = level;
    for (size_t i = 0; i < b->nforbid_calls; i++)
        b->forbid_calls[i].level = level;
    for (size_t i = 0; i < b->nmust_match; i++)
        b->must_match[i].level = level;
    for (size_t i = 0; i < b->nmust_not_match; i++)
        b->must_not_match[i].level = level;
    for (size_t i = 0; i < b->nchecks; i++)
        b->checks[i].level = level;
    b->max_duration_ms.level = b->max_idle_ms.level = b->max_gap_ms.level = level;
    b->max_ttft_ms.level = b->max_first_event_ms.level = level;
    b->max_input_tokens.level = b->max_output_tokens.level = level;
    b->max_total_tokens.level = b->max_cost.level = level;
    b->consistent.level = level;
}

static int load_extends(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                        const struct an_assert_lib *lib, struct an_assert *out)
{
    int rc;
    const struct an_ynode *one[1] = {n};
    const struct an_ynode *const *items = one;
    size_t count = 1;
    if (n->kind == AN_Y_SEQ) {
        items = (const struct an_ynode *const *)n->items;
        count = n->nitems;
    }
    struct an_assert base = {0};
    for (size_t i = 0; i < count; i++) {
        const char *name;
        if ((rc = an_ld_string(ld, items[i], "extends[]", &name)))
            return rc;
        const struct an_assert *found = NULL;
        for (size_t k = 0; lib && k < lib->n && !found; k++)
            if (strcmp(lib->v[k].name, name) == 0)
                found = &lib->v[k].block;
        if (!found) {
            if (!lib)
                return an_fail(ld->err, AN_ESCHEMA, &items[i]->loc,
                               "'extends' cannot be used here (only in test and turn blocks, "
                               "naming blocks of the config's 'assertions:')");
            const char **names = an_arena_alloc(ld->a, (lib->n + 1) * sizeof *names);
            for (size_t k = 0; k < lib->n; k++)
                names[k] = lib->v[k].name;
            const char *near = an_closest(name, names);
            if (near)
                return an_fail(ld->err, AN_ESCHEMA, &items[i]->loc,
                               "unknown assertion block '%s' (did you mean '%s'?)", name, near);
            return an_fail(ld->err, AN_ESCHEMA, &items[i]->loc,
                           "unknown assertion block '%s' (define it under 'assertions:' in "
                           "the config)",
                           name);
        }
        /* later names override earlier ones' limits: absorb in reverse */
        struct an_assert tmp = {0};
        an_assert_absorb(ld, &tmp, found);
        an_assert_absorb(ld, &tmp, &base);
        base = tmp;
    }
    set_level(&base, level);
    an_assert_absorb(ld, out, &base);
    return 0;
}

static void json_release(void *p)
{
    json_decref(p);
}

/* `state: {PATH: VALUE}`: the state after the turn (AG-UI snapshots and
 * deltas applied) holds VALUE at each JSON path (a list VALUE: any of
 * them). Written as json_path checks `of: state`, so they fail alike. */
static int load_state(struct an_ld *ld, const struct an_ynode *n, enum an_level level,
                      struct an_assert *out)
{
    int rc;
    if ((rc = an_ld_expect(ld, n, AN_Y_MAP, "state")))
        return rc;
    const char *file = n->loc.file;
    const char *slash = file ? strrchr(file, '/') : NULL;
    const char *dir = slash ? an_arena_strndup(ld->a, file, (size_t)(slash - file)) : ".";
    struct an_check_item *v =
        an_arena_grow(ld->a, out->checks, out->nchecks, out->nchecks + n->npairs + 1, sizeof *v);
    for (size_t i = 0; i < n->npairs; i++) {
        json_t *val = an_yaml_to_json(n->pairs[i].value, ld->err);
        if (!val)
            return ld->err->code;
        const char *path = n->pairs[i].key->str;
        json_t *item = json_pack("{s:s,s:s,s:s,s:o}", "type", "json_path", "of", "state", "path",
                                 path[0] == '$' ? path : an_arena_printf(ld->a, "$.%s", path),
                                 "value", val);
        an_arena_defer(ld->a, json_release, item);
        struct an_ck_src src = {n->pairs[i].key->loc, NULL, NULL, dir};
        if ((rc = an_check_item_load(ld, item, &src, level, &v[out->nchecks + i])))
            return rc;
    }
    out->checks = v;
    out->nchecks += n->npairs;
    return 0;
}

/* The rules of an assert block, one row per GROUP.KEY, in the order they
 * are read (an_rules, assert_load.h). */
static int rule_forbid(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                       enum an_level level, struct an_assert *out)
{
    (void)r;
    return load_forbid(ld, n, level, out);
}

static int rule_allow(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                      enum an_level level, struct an_assert *out)
{
    (void)r;
    return load_allow(ld, n, level, out);
}

static int rule_sequence(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                         enum an_level level, struct an_assert *out)
{
    (void)r;
    return load_sequence(ld, n, level, out);
}

static int rule_calls(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                      enum an_level level, struct an_assert *out)
{
    return load_rules(ld, n, !strcmp(r->key, "require"), level,
                      (struct an_tool_rule **)(void *)((char *)out + r->at),
                      (size_t *)(void *)((char *)out + r->n_at));
}

static int rule_limit(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                      enum an_level level, struct an_assert *out)
{
    return load_limit(ld, n, r->key, level, (struct an_limit *)(void *)((char *)out + r->at));
}

/* A rule that is on or off (tools.consistent): false turns off an
 * inherited true. */
static int rule_flag(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                     enum an_level level, struct an_assert *out)
{
    struct an_limit *l = (struct an_limit *)(void *)((char *)out + r->at);
    bool b;
    if (!an_yaml_as_bool(n, &b))
        return an_fail(ld->err, AN_ESCHEMA, &n->loc, "'%s.%s' takes true or false", r->group,
                       r->key);
    l->loc = n->loc;
    l->level = level;
    l->state = b ? AN_LIMIT_SET : AN_LIMIT_DISABLED;
    return 0;
}

static int rule_patterns(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                         enum an_level level, struct an_assert *out)
{
    return patterns(ld, n, r->key, level, (struct an_pattern **)(void *)((char *)out + r->at),
                    (size_t *)(void *)((char *)out + r->n_at));
}

#define AT(f) offsetof(struct an_assert, f)
#define LIMIT(g, k)                                                                                \
    {                                                                                              \
        g, #k, rule_limit, AT(k), 0                                                                \
    }
const struct an_rule_def an_rules[] = {
    {"tools", "forbid", rule_forbid, 0, 0},
    {"tools", "allow", rule_allow, 0, 0},
    {"tools", "sequence", rule_sequence, 0, 0},
    {"tools", "require", rule_calls, AT(require), AT(nrequire)},
    {"tools", "forbid_calls", rule_calls, AT(forbid_calls), AT(nforbid_calls)},
    {"tools", "consistent", rule_flag, AT(consistent), 0},
    LIMIT("timing", max_duration_ms),
    LIMIT("timing", max_idle_ms),
    LIMIT("timing", max_gap_ms),
    LIMIT("timing", max_ttft_ms),
    LIMIT("timing", max_first_event_ms),
    LIMIT("usage", max_input_tokens),
    LIMIT("usage", max_output_tokens),
    LIMIT("usage", max_total_tokens),
    LIMIT("usage", max_cost),
    {"text", "must_match", rule_patterns, AT(must_match), AT(nmust_match)},
    {"text", "must_not_match", rule_patterns, AT(must_not_match), AT(nmust_not_match)},
    {NULL, NULL, NULL, 0, 0},
};
#undef LIMIT
#undef AT

/* Whether row i is the first of its group (a group's rows are adjacent;
 * their equal literals are one pointer, compared first: 105 strcmp a test
 * were 7% of loading 1000 tests, docs/performance.md). */
static bool group_starts(size_t i)
{
    return !i || (an_rules[i - 1].group != an_rules[i].group &&
                  strcmp(an_rules[i - 1].group, an_rules[i].group));
}

const char *an_rule_group(const char *type, size_t len)
{
    for (size_t i = 0; an_rules[i].group; i++)
        if (strlen(an_rules[i].group) == len && !strncmp(an_rules[i].group, type, len))
            return an_rules[i].group;
    return NULL;
}

/* `tools:`, `timing:` ...: a map of its rows' keys, each read by its row;
 * g: the group's first row, its rows the adjacent ones after it. */
static int load_group(struct an_ld *ld, const struct an_ynode *v, size_t g, enum an_level level,
                      struct an_assert *out)
{
    const char *group = an_rules[g].group, *keys[32];
    size_t end = g + 1, n = 0;
    int rc;
    while (an_rules[end].group && !group_starts(end))
        end++;
    for (size_t i = g; i < end && n + 1 < sizeof keys / sizeof *keys; i++)
        keys[n++] = an_rules[i].key;
    keys[n] = NULL;
    if ((rc = an_ld_expect(ld, v, AN_Y_MAP, group)) || (rc = an_ld_keys(ld, v, keys, group)))
        return rc;
    const struct an_ynode *s;
    for (size_t i = g; i < end; i++)
        if ((s = an_yaml_get(v, an_rules[i].key)) &&
            (rc = an_ld_keep(ld, an_rules[i].load(ld, s, &an_rules[i], level, out))))
            return rc;
    return 0;
}

int an_assert_load(struct an_ld *ld, const struct an_ynode *node, enum an_level level,
                   const struct an_assert_lib *lib, struct an_assert *out)
{
    static const char *const keys[] = {"tools",   "timing", "text",  "checks",
                                       "extends", "state",  "usage", NULL};
    struct an_ynode *v;
    int rc;
    memset(out, 0, sizeof *out);
    out->loc = node->loc;
    if (an_yaml_is_null(node))
        return 0;
    if ((rc = an_ld_expect(ld, node, AN_Y_MAP, "assert")) ||
        (rc = an_ld_keys(ld, node, keys, "an assert block")))
        return rc;
    for (size_t i = 0; an_rules[i].group; i++)
        if (group_starts(i) && (v = an_yaml_get(node, an_rules[i].group)) &&
            (rc = load_group(ld, v, i, level, out)))
            return rc;
    if ((v = an_yaml_get(node, "state")) && (rc = an_ld_keep(ld, load_state(ld, v, level, out))))
        return rc;
    if ((v = an_yaml_get(node, "checks")) &&
        (rc = an_ld_keep(ld, an_checks_load_yaml(ld, v, level, out))))
        return rc;
    if ((v = an_yaml_get(node, "extends")) &&
        (rc = an_ld_keep(ld, load_extends(ld, v, level, lib, out))))
        return rc;
    return 0;
}

int an_assert_load_sparse(struct an_ld *ld, const struct an_ynode *node, enum an_level level,
                          const struct an_assert_lib *lib, struct an_assert_kept **out)
{
    struct an_assert blk;
    int rc = an_assert_load(ld, node, level, lib, &blk);
    *out = an_assert_keep(ld, &blk);
    return rc;
}
