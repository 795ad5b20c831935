/*
 * cases.json (seed 004): a JSON array of cases {id, title?, input{user,
 * context?}, expected{...}} -> struct an_test, one per case.
 *
 * A case is one user turn: input.user is the message, input.context goes
 * with it (an http target sends it as input.context; other targets get it
 * as the option `context`). Its `expected` keys become typed checks at the
 * test level (docs/http.md "expected"), each located at its key:
 *   tool_required     one tool_called check per name
 *   tool_sequence     tool_sequence (a strict prefix: calls[i] == names[i])
 *   must_include      one contains check per phrase, ignoring case
 *   must_not_include  one not_contains check per phrase, ignoring case
 *   action_required, retrieval_required, json_schema   the checks of that name
 *   evidence_required_for_actions: true   evidence_required
 * An empty list asks for nothing, as in the original evaluator.
 *
 * A case's `metadata` and `suite` are accepted and not used.
 *
 * jansson reads the file (its parse errors have a line and a column); a
 * small scanner then finds where each case and each of its keys start, so
 * every other error points at the case or key it is about. Each bad case
 * is its own error; the good ones are loaded.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "load/check_load.h"
#include "load/loaders.h"
#include "load/select_load.h"

#define MAX_FILE ((size_t)256 << 20)
#define SCAN_DEPTH 64

/* `metadata` and `suite` (the original's later files carry them) are read
 * past: nothing in a run depends on them. */
static const char *const case_keys[] = {"id",    "title", "input", "expected", "metadata",
                                        "suite", "tags",  "skip",  "only",     NULL};
static const char *const input_keys[] = {"user", "context", NULL};
static const char *const expected_keys[] = {
    "action_required", "tool_required", "tool_sequence", "json_schema", "retrieval_required",
    "must_include", "must_not_include", "evidence_required_for_actions",
    /* an assert block's rules, spelt as in JSONL (load/check_block.c) */
    "tools.allow", "tools.sequence", "timing.max_duration_ms", "timing.max_ttft_ms",
    "timing.max_first_event_ms", "usage.max_input_tokens", "usage.max_output_tokens",
    "usage.max_total_tokens", "usage.max_cost", NULL};

static void json_release(void *p)
{
    json_decref(p);
}

/* ---- where things are ---- */

/* A key of a case (depth 2: "input") or of one of its members (depth 3:
 * "expected.must_include"), with the byte offset of its opening quote. */
struct key_at {
    char *path;
    size_t off;
};

struct case_at {
    size_t off; /* the case's first byte */
    struct key_at *keys;
    size_t nkeys, cap;
};

struct places {
    struct case_at *v;
    size_t n, cap;
};

static void places_release(struct places *p)
{
    for (size_t i = 0; i < p->n; i++) {
        for (size_t k = 0; k < p->v[i].nkeys; k++)
            free(p->v[i].keys[k].path);
        free(p->v[i].keys);
    }
    free(p->v);
}

static void add_key(struct case_at *c, const char *path, size_t off)
{
    if (c->nkeys == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->keys = an_xrealloc(c->keys, c->cap * sizeof *c->keys);
    }
    c->keys[c->nkeys].path = an_xstrdup(path);
    c->keys[c->nkeys++].off = off;
}

/* The end of the string whose opening quote is at s[i]: the index of its
 * closing quote. */
static size_t string_end(const char *s, size_t n, size_t i)
{
    for (i++; i < n; i++) {
        if (s[i] == '\\')
            i++;
        else if (s[i] == '"')
            return i;
    }
    return n;
}

/* Scan valid JSON text (jansson has read it): the top array's elements and
 * the keys of depth 2 and 3 inside each. */
static void scan(const char *s, size_t n, struct places *out)
{
    char kind[SCAN_DEPTH]; /* '[' or '{' per open container */
    char *key2 = NULL;     /* the depth-2 key whose value is open */
    size_t depth = 0;
    bool want_value = false; /* in the top array: the next value is a case */
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ':')
            continue;
        if (depth == 1 && want_value && c != ']') {
            if (out->n == out->cap) {
                out->cap = out->cap ? out->cap * 2 : 16;
                out->v = an_xrealloc(out->v, out->cap * sizeof *out->v);
            }
            memset(&out->v[out->n], 0, sizeof out->v[out->n]);
            out->v[out->n++].off = i;
            want_value = false;
        }
        if (c == ',') {
            if (depth == 1)
                want_value = true;
            continue;
        }
        if (c == '"') {
            size_t end = string_end(s, n, i);
            size_t j = end + 1;
            while (j < n && strchr(" \t\r\n", s[j]))
                j++;
            bool is_key = depth >= 2 && depth <= SCAN_DEPTH && kind[depth - 1] == '{' && j < n &&
                          s[j] == ':';
            if (is_key && out->n && (depth == 2 || (depth == 3 && key2))) {
                char *k = an_xstrndup(s + i + 1, end - i - 1);
                if (depth == 2) {
                    free(key2);
                    key2 = an_xstrdup(k);
                    add_key(&out->v[out->n - 1], k, i);
                } else {
                    struct an_buf p = AN_BUF_INIT;
                    an_buf_printf(&p, "%s.%s", key2, k);
                    add_key(&out->v[out->n - 1], an_buf_cstr(&p), i);
                    an_buf_release(&p);
                }
                free(k);
            }
            i = end;
            continue;
        }
        if (c == '[' || c == '{') {
            if (depth < SCAN_DEPTH)
                kind[depth] = c;
            depth++;
            if (depth == 1)
                want_value = true;
            continue;
        }
        if (c == ']' || c == '}') {
            if (depth == 2) {
                free(key2);
                key2 = NULL;
            }
            depth--;
            continue;
        }
        /* a scalar: skip to its end */
        while (i + 1 < n && !strchr(",]} \t\r\n", s[i + 1]))
            i++;
    }
    free(key2);
}

/* The reader of one file, for locations. */
struct ctx {
    struct an_ld *ld;
    const char *file;
    const char *text;
    struct places places;
};

static struct an_loc loc_of(const struct ctx *c, size_t off)
{
    struct an_loc loc = {c->file, 1, 1};
    for (size_t i = 0; i < off && c->text[i]; i++) {
        if (c->text[i] == '\n') {
            loc.line++;
            loc.col = 1;
        } else {
            loc.col++;
        }
    }
    return loc;
}

/* Where case `index` has `path` ("input", "expected.json_schema"), or the
 * case itself when the key is not written (or path is NULL). */
static struct an_loc at(const struct ctx *c, size_t index, const char *path)
{
    if (index >= c->places.n)
        return (struct an_loc){c->file, 1, 1};
    const struct case_at *ca = &c->places.v[index];
    for (size_t k = 0; path && k < ca->nkeys; k++)
        if (!strcmp(ca->keys[k].path, path))
            return loc_of(c, ca->keys[k].off);
    return loc_of(c, ca->off);
}

static int fail(const struct ctx *c, size_t index, const char *path, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(const struct ctx *c, size_t index, const char *path, const char *fmt, ...)
{
    struct an_loc loc = at(c, index, path);
    va_list ap;
    va_start(ap, fmt);
    int rc = an_failv(c->ld->err, AN_ESCHEMA, &loc, fmt, ap);
    va_end(ap);
    return rc;
}

/* Every key of obj must be one of keys; else an error at the first that is not. */
static int known_keys(const struct ctx *c, size_t index, const char *prefix, const json_t *obj,
                      const char *const *keys, const char *where)
{
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)obj, k, v)
    {
        bool ok = false;
        for (size_t j = 0; keys[j] && !ok; j++)
            ok = !strcmp(keys[j], k);
        if (ok)
            continue;
        char path[300];
        snprintf(path, sizeof path, "%s%s%s", prefix ? prefix : "", prefix ? "." : "", k);
        const char *near = an_closest(k, keys);
        struct an_buf list = AN_BUF_INIT;
        for (size_t j = 0; keys[j]; j++)
            an_buf_printf(&list, "%s%s", j ? ", " : "", keys[j]);
        int rc = near ? fail(c, index, path, "unknown key '%s' in %s (did you mean '%s'?)", k,
                             where, near)
                      : fail(c, index, path, "unknown key '%s' in %s (valid keys: %s)", k, where,
                             an_buf_cstr(&list));
        an_buf_release(&list);
        return rc;
    }
    return 0;
}

/* ---- expected -> checks ---- */

struct checks {
    struct an_check_item *v;
    size_t n, cap;
};

static int add_check(const struct ctx *c, size_t index, const char *key, json_t *item,
                     const char *dir, struct checks *out)
{
    an_arena_defer(c->ld->a, json_release, item);
    if (out->n == out->cap) {
        size_t ncap = out->cap ? out->cap * 2 : 8;
        out->v = an_arena_grow(c->ld->a, out->v, out->n, ncap, sizeof *out->v);
        out->cap = ncap;
    }
    char path[64];
    snprintf(path, sizeof path, "expected.%s", key);
    struct an_ck_src src = {at(c, index, path), NULL, NULL, dir};
    int rc = an_check_item_load(c->ld, item, &src, AN_LEVEL_TEST, &out->v[out->n]);
    if (!rc)
        out->n++;
    return rc;
}

/* A list of non-empty strings (possibly empty). */
static int strings(const struct ctx *c, size_t index, const char *key, const json_t *v,
                   const char *what)
{
    size_t i;
    json_t *e;
    bool ok = json_is_array(v);
    json_array_foreach(v, i, e)
    {
        ok = ok && json_is_string(e) && json_string_length(e);
    }
    if (ok)
        return 0;
    char path[64];
    snprintf(path, sizeof path, "expected.%s", key);
    return fail(c, index, path, "'%s' must be a list of %s", key, what);
}

static int load_expected(const struct ctx *c, size_t index, const json_t *exp, const char *dir,
                         struct an_test *t)
{
    struct checks out = {0};
    struct an_assert blk = {0};
    int rc = 0;
    size_t i;
    json_t *e;
    /* in a fixed order, so findings read the same whatever the key order */
    for (size_t k = 0; expected_keys[k] && !rc; k++) {
        const char *key = expected_keys[k];
        json_t *v = json_object_get(exp, key);
        if (!v)
            continue;
        if (strchr(key, '.')) {
            json_t *item = json_pack("{s:s,s:O}", "type", key, "value", v);
            an_arena_defer(c->ld->a, json_release, item);
            char path[64];
            snprintf(path, sizeof path, "expected.%s", key);
            struct an_ck_src src = {at(c, index, path), NULL, NULL, dir};
            bool taken;
            rc = an_check_block_load(c->ld, item, &src, AN_LEVEL_TEST, &blk, &taken);
        } else if (!strcmp(key, "tool_required")) {
            if (!(rc = strings(c, index, key, v, "tool names")))
                json_array_foreach(v, i, e)
                {
                    if ((rc = add_check(c, index, key,
                                        json_pack("{s:s,s:O}", "type", "tool_called", "name", e),
                                        dir, &out)))
                        break;
                }
        } else if (!strcmp(key, "must_include") || !strcmp(key, "must_not_include")) {
            const char *type = key[5] == 'i' ? "contains" : "not_contains";
            if (!(rc = strings(c, index, key, v, "phrases")))
                json_array_foreach(v, i, e)
                {
                    if ((rc = add_check(
                             c, index, key,
                             json_pack("{s:s,s:O,s:b}", "type", type, "value", e, "ignore_case", 1),
                             dir, &out)))
                        break;
                }
        } else if (!strcmp(key, "tool_sequence") || !strcmp(key, "action_required")) {
            rc = strings(c, index, key, v, key[0] == 't' ? "tool names, in order" : "action types");
            if (!rc && json_array_size(v))
                rc = add_check(c, index, key, json_pack("{s:s,s:O}", "type", key, "value", v), dir,
                               &out);
        } else if (!strcmp(key, "retrieval_required")) {
            const json_t *ids = json_object_get(v, "doc_ids");
            char path[64];
            snprintf(path, sizeof path, "expected.%s", key);
            if (!json_is_object(v) || (json_object_size(v) && !ids) || json_object_size(v) > 1)
                rc = fail(c, index, path, "'retrieval_required' must be {\"doc_ids\": [...]}");
            else if (ids && (rc = strings(c, index, key, ids, "doc ids (in doc_ids)")))
                ;
            else if (json_array_size(ids))
                rc = add_check(c, index, key, json_pack("{s:s,s:O}", "type", key, "value", ids),
                               dir, &out);
        } else if (!strcmp(key, "json_schema")) {
            if (!json_is_null(v))
                rc = add_check(c, index, key,
                               json_pack("{s:s,s:O}", "type", "json_schema", "value", v), dir,
                               &out);
        } else if (!strcmp(key, "evidence_required_for_actions")) {
            char path[64];
            snprintf(path, sizeof path, "expected.%s", key);
            if (!json_is_boolean(v))
                rc = fail(c, index, path, "'evidence_required_for_actions' must be true or false");
            else if (json_is_true(v))
                rc = add_check(c, index, key, json_pack("{s:s}", "type", "evidence_required"), dir,
                               &out);
        }
    }
    if (rc)
        return rc;
    blk.checks = out.v;
    blk.nchecks = out.n;
    if (out.n || blk.nallow || blk.nsequences || blk.max_duration_ms.state ||
        blk.max_ttft_ms.state || blk.max_first_event_ms.state || blk.max_input_tokens.state ||
        blk.max_output_tokens.state || blk.max_total_tokens.state || blk.max_cost.state)
        blk.loc = at(c, index, "expected");
    t->assert = an_assert_keep(c->ld, &blk);
    return 0;
}

/* ---- a case ---- */

static int load_case(const struct ctx *c, size_t index, json_t *obj, const char *dir,
                     struct an_test *t)
{
    struct an_ld *ld = c->ld;
    memset(t, 0, sizeof *t);
    t->file = c->file;
    t->version = "1.0";
    t->loc = at(c, index, NULL);
    if (!json_is_object(obj))
        return fail(c, index, NULL, "a case must be a JSON object {id, input, expected}, not %s",
                    an_json_type_name(obj));
    int rc = known_keys(c, index, NULL, obj, case_keys, "a case");
    if (rc)
        return rc;
    json_t *v = json_object_get(obj, "id");
    if (!v)
        return fail(c, index, NULL, "a case needs 'id' (a unique string)");
    if (!json_is_string(v) || !json_string_length(v))
        return fail(c, index, "id", "'id' must be a non-empty string");
    t->id = json_string_value(v);
    t->name = t->id;
    if ((v = json_object_get(obj, "title"))) {
        if (!json_is_string(v))
            return fail(c, index, "title", "'title' must be a string");
        if (json_string_length(v))
            t->name = an_arena_printf(ld->a, "%s — %s", t->id, json_string_value(v));
    }
    struct an_loc only_at = at(c, index, "only");
    const char *bad_key, *bad = an_select_json(ld, obj, AN_SEL_TAGS | AN_SEL_SKIP | AN_SEL_ONLY,
                                               &only_at, t, &bad_key);
    if (bad)
        return fail(c, index, bad_key, "%s", bad);
    json_t *input = json_object_get(obj, "input");
    if (!input)
        return fail(c, index, NULL, "a case needs 'input': {\"user\": \"...\"}");
    if (!json_is_object(input))
        return fail(c, index, "input", "'input' must be an object {user, context?}");
    if ((rc = known_keys(c, index, "input", input, input_keys, "'input'")))
        return rc;
    json_t *user = json_object_get(input, "user");
    if (!json_is_string(user))
        return fail(c, index, user ? "input.user" : "input",
                    "'input' needs 'user': the user's message (a string)");
    json_t *ctx = json_object_get(input, "context");
    if (ctx) {
        json_t *o = json_pack("{s:O}", "context", ctx);
        an_arena_defer(ld->a, json_release, o);
        t->options = o;
    }
    json_t *exp = json_object_get(obj, "expected");
    if (exp && !json_is_object(exp))
        return fail(c, index, "expected", "'expected' must be an object");
    if (exp && (rc = known_keys(c, index, "expected", exp, expected_keys, "'expected'")))
        return rc;
    /* sent as written: ${ in a message is text, as in JSONL */
    struct an_buf esc = AN_BUF_INIT;
    for (const char *p = json_string_value(user); *p; p++) {
        if (p[0] == '$' && p[1] == '{')
            an_buf_putc(&esc, '$');
        an_buf_putc(&esc, *p);
    }
    t->nturns = 1;
    t->turns = an_arena_alloc(ld->a, sizeof *t->turns);
    memset(t->turns, 0, sizeof *t->turns);
    t->turns[0].type = AN_TURN_USER;
    t->turns[0].loc = at(c, index, "input.user");
    t->turns[0].user.src = an_arena_strdup(ld->a, an_buf_cstr(&esc));
    t->turns[0].user.loc = t->turns[0].loc;
    an_buf_release(&esc);
    return exp ? load_expected(c, index, exp, dir, t) : 0;
}

static int read_all(const char *path, char **out, size_t *len, struct an_err *err)
{
    struct an_loc loc = {path, 0, 0};
    FILE *f = fopen(path, "rb");
    if (!f)
        return an_fail(err, AN_EIO, &loc, "cannot read: %s", strerror(errno));
    struct an_buf b = AN_BUF_INIT;
    an_buf_init(&b, MAX_FILE);
    char chunk[65536];
    size_t n;
    int rc = 0;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        if (an_buf_append(&b, chunk, n)) {
            rc = an_fail(err, AN_ELIMIT, &loc, "larger than %zu MiB", MAX_FILE >> 20);
            break;
        }
    if (!rc && ferror(f))
        rc = an_fail(err, AN_EIO, &loc, "cannot read: %s", strerror(errno));
    fclose(f);
    if (rc) {
        an_buf_release(&b);
        return rc;
    }
    *out = an_buf_detach(&b, len);
    return 0;
}

int an_cases_json_load(struct an_ld *ld, const char *path, struct an_errlist *errs,
                       struct an_test **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    char *text = NULL;
    size_t len = 0;
    int rc = read_all(path, &text, &len, ld->err);
    if (rc) {
        an_errlist_add(errs, ld->err);
        return rc;
    }
    const char *file = an_arena_strdup(ld->a, path);
    const char *slash = strrchr(file, '/');
    const char *dir = slash ? an_arena_strndup(ld->a, file, (size_t)(slash - file)) : ".";
    size_t skip = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    json_error_t je;
    json_t *doc = json_loadb(text + skip, len - skip, JSON_REJECT_DUPLICATES, &je);
    struct ctx c = {ld, file, text + skip, {0}};
    int first = 0;
    if (!doc) {
        struct an_loc loc = {file, je.line > 0 ? (unsigned)je.line : 1,
                             je.column > 0 ? (unsigned)je.column : 1};
        first = an_fail(ld->err, AN_EPARSE, &loc, "invalid JSON: %s", an_json_error_text(&je));
        an_errlist_add(errs, ld->err);
        goto done;
    }
    an_arena_defer(ld->a, json_release, doc);
    if (!json_is_array(doc)) {
        struct an_loc loc = {file, 1, 1};
        first = an_fail(ld->err, AN_ESCHEMA, &loc,
                        "a cases.json file is a JSON array of cases [{id, input, expected}, "
                        "...], not %s",
                        an_json_type_name(doc));
        an_errlist_add(errs, ld->err);
        goto done;
    }
    scan(c.text, len - skip, &c.places);
    size_t n = json_array_size(doc), good = 0;
    struct an_test *tests = an_arena_alloc(ld->a, (n ? n : 1) * sizeof *tests);
    struct an_strmap ids;
    an_strmap_init(&ids, ld->scratch ? ld->scratch : ld->a);
    for (size_t i = 0; i < n; i++) {
        memset(ld->err, 0, sizeof *ld->err);
        rc = load_case(&c, i, json_array_get(doc, i), dir, &tests[good]);
        if (!rc) {
            uintptr_t seen = (uintptr_t)an_strmap_get(&ids, tests[good].id);
            if (seen)
                rc = fail(&c, i, "id", "duplicate id '%s' (also at line %u)", tests[good].id,
                          at(&c, seen - 1, "id").line);
            else
                an_strmap_put(&ids, tests[good].id, (void *)(uintptr_t)(i + 1));
        }
        if (rc) {
            an_errlist_add(errs, ld->err);
            if (!first)
                first = rc;
            continue;
        }
        good++;
    }
    *out = tests;
    *nout = good;
done:
    places_release(&c.places);
    free(text);
    return first;
}
