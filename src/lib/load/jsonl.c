/*
 * JSONL suites (seed 002, standard mode) -> struct an_test, one per case.
 *
 * One JSON object per line, up to 1 MiB; blank lines and lines starting
 * with `//` are skipped. A case is one user turn: its message is the last
 * user message, and the messages before it are the test's history (sent in
 * the same run). Its assertions are typed checks at the test level, judged
 * on the whole (one-turn) test. Every bad line is its own error, with the
 * file, the line and, where it can be told, the column.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "load/attach.h"
#include "load/check_load.h"
#include "load/dynamic_load.h"
#include "load/loaders.h"
#include "load/select_load.h"

#define LINE_MAX_BYTES ((size_t)1 << 20)

static const char *const case_keys[] = {
    "id",        "name",    "input", "messages", "assertions", "assert",
    "expected",  "options", "skip",  "timeout",  "simulator",  "checkpoints",
    "max_turns", "tags",    "only",  "metadata", NULL};

static void json_release(void *p)
{
    json_decref(p);
}

/* The current line, for locations. */
struct line_ctx {
    struct an_ld *ld;
    const char *file;
    unsigned lineno;
    const char *text;
};

static struct an_loc at_key(const struct line_ctx *c, const char *key)
{
    unsigned col = key ? an_ck_key_col(c->text, 0, key) : 0;
    return (struct an_loc){c->file, c->lineno, col ? col : 1};
}

static int fail_at(const struct line_ctx *c, const char *key, const char *fmt, const char *a,
                   const char *b)
{
    struct an_loc loc = at_key(c, key);
    char msg[700];
    snprintf(msg, sizeof msg, fmt, a, b ? b : "");
    return an_fail(c->ld->err, AN_ESCHEMA, &loc, "%s", msg);
}

/* A message's content: its text (a string, or the text parts of a list
 * joined with "\n"), and, when the list has attachments, every part as an
 * AG-UI ContentPart in *parts (NULL otherwise; a new reference). */
static int content_of(const struct line_ctx *c, const char *key, const json_t *content,
                      const char *dir, struct an_buf *out, json_t **parts)
{
    *parts = NULL;
    if (json_is_string(content)) {
        an_buf_append(out, json_string_value(content), json_string_length(content));
        return 0;
    }
    if (json_is_null(content) || !content)
        return 0;
    if (!json_is_array(content))
        return fail_at(c, key, "a message's 'content' must be a string or a list of parts", "",
                       NULL);
    size_t i;
    json_t *p, *list = json_array();
    bool attached = false;
    json_array_foreach(content, i, p)
    {
        struct an_loc loc = at_key(c, key);
        json_t *part;
        int rc = an_attach_part(c->ld, dir, p, &loc, &part);
        if (rc) {
            json_decref(list);
            return rc;
        }
        const char *type = an_json_str(part, "type");
        if (!strcmp(type, "text")) {
            if (out->len)
                an_buf_putc(out, '\n');
            an_buf_puts(out, an_json_str(part, "text"));
        } else {
            attached = true;
        }
        json_array_append_new(list, part);
    }
    if (attached)
        *parts = list;
    else
        json_decref(list);
    return 0;
}

static const json_t *either(const json_t *m, const char *a, const char *b)
{
    const json_t *v = json_object_get(m, a);
    return v ? v : json_object_get(m, b);
}

/* A message of the history as AG-UI has it: {id, role, content, name?,
 * toolCalls?, toolCallId?}. OpenAI spellings (tool_calls, tool_call_id)
 * are read too. */
static int history_msg(const struct line_ctx *c, const char *key, const json_t *m,
                       const char *case_id, size_t k, const char *dir, json_t *out)
{
    static const char *const keys[] = {"id",           "role",       "content",
                                       "name",         "tool_calls", "toolCalls",
                                       "tool_call_id", "toolCallId", NULL};
    static const char *const roles[] = {"user", "assistant", "system", "developer", "tool", NULL};
    const char *k2;
    json_t *v;
    json_object_foreach((json_t *)m, k2, v)
    {
        bool ok = false;
        for (size_t j = 0; keys[j] && !ok; j++)
            ok = !strcmp(keys[j], k2);
        if (!ok) {
            const char *near = an_closest(k2, keys);
            return fail_at(c, k2,
                           near ? "unknown key '%s' in a message (did you mean '%s'?)"
                                : "unknown key '%s' in a message%s",
                           k2,
                           near ? near
                                : " (valid keys: role, content, name, tool_calls, "
                                  "tool_call_id, id)");
        }
    }
    const char *role = an_json_str(m, "role");
    size_t r = 0;
    while (role && roles[r] && strcmp(roles[r], role))
        r++;
    if (!role || !roles[r])
        return fail_at(c, key,
                       "a message needs 'role': user, assistant, system, developer or tool%s%s",
                       role ? " (got '" : "", role ? role : "");
    json_t *o = json_object();
    const char *id = an_json_str(m, "id");
    char gen[64];
    snprintf(gen, sizeof gen, "m%zu", k + 1);
    json_object_set_new(o, "id", id ? json_string(id) : json_sprintf("%s-%s", case_id, gen));
    json_object_set_new(o, "role", json_string(role));
    struct an_buf text = AN_BUF_INIT;
    json_t *parts;
    int rc = content_of(c, key, json_object_get(m, "content"), dir, &text, &parts);
    if (rc) {
        json_decref(o);
        an_buf_release(&text);
        return rc;
    }
    json_object_set_new(o, "content", parts ? parts : an_json_lossy(an_buf_cstr(&text), text.len));
    an_buf_release(&text);
    if (json_is_string(json_object_get(m, "name")))
        json_object_set(o, "name", json_object_get(m, "name"));
    const json_t *calls = either(m, "toolCalls", "tool_calls");
    if (calls) {
        if (!json_is_array(calls) || strcmp(role, "assistant")) {
            json_decref(o);
            return fail_at(c, key, "'tool_calls' must be a list, on an assistant message", "",
                           NULL);
        }
        json_t *list = json_array();
        size_t i;
        json_t *tc;
        json_array_foreach(calls, i, tc)
        {
            const json_t *fn = json_object_get(tc, "function");
            const char *tid = an_json_str(tc, "id"), *name = an_json_str(fn, "name");
            const json_t *args = json_object_get(fn, "arguments");
            if (!tid || !name) {
                json_decref(list);
                json_decref(o);
                return fail_at(c, key, "a tool call needs 'id' and 'function': {name, arguments}",
                               "", NULL);
            }
            char *atext = json_is_string(args) ? an_xstrdup(json_string_value(args))
                          : args               ? an_json_compact(args)
                                               : an_xstrdup("{}");
            json_array_append_new(list,
                                  json_pack("{s:s,s:s,s:{s:s,s:s}}", "id", tid, "type", "function",
                                            "function", "name", name, "arguments", atext));
            free(atext);
        }
        json_object_set_new(o, "toolCalls", list);
    }
    const json_t *tcid = either(m, "toolCallId", "tool_call_id");
    if (!strcmp(role, "tool")) {
        if (!json_is_string(tcid)) {
            json_decref(o);
            return fail_at(c, key, "a tool message needs 'tool_call_id'", "", NULL);
        }
        json_object_set(o, "toolCallId", (json_t *)tcid);
    }
    json_array_append_new(out, o);
    return 0;
}

/* `input` or `messages` -> the turn's message and the history before it. */
static int load_messages(const struct line_ctx *c, const json_t *obj, const char *dir,
                         struct an_test *t)
{
    const json_t *input = json_object_get(obj, "input"), *msgs = json_object_get(obj, "messages");
    const char *key = input ? "input" : "messages";
    if (input && msgs)
        return fail_at(c, "messages", "a case takes 'input' or 'messages', not both", "", NULL);
    if (!input && !msgs)
        return fail_at(c, NULL, "a case needs 'input' (a message, or a list of messages)", "",
                       NULL);
    const json_t *list = input ? input : msgs;
    struct an_buf user = AN_BUF_INIT;
    json_t *parts = NULL;
    int rc = 0;
    if (json_is_string(list)) {
        an_buf_append(&user, json_string_value(list), json_string_length(list));
    } else {
        json_t *one = NULL;
        if (json_is_object(list)) {
            one = json_array();
            json_array_append(one, (json_t *)list);
            list = one;
        }
        if (!json_is_array(list) || !json_array_size(list)) {
            json_decref(one);
            return fail_at(c, key,
                           "'%s' must be a string, a message, or a non-empty list of "
                           "messages",
                           key, NULL);
        }
        size_t n = json_array_size(list);
        const json_t *last = json_array_get(list, n - 1);
        json_t *hist = json_array();
        for (size_t k = 0; k < n && !rc; k++) {
            const json_t *m = json_array_get(list, k);
            if (!json_is_object(m))
                rc = fail_at(c, key, "each message must be an object {role, content}", "", NULL);
            else
                rc = history_msg(c, key, m, t->id, k, dir, hist);
        }
        const char *role = rc ? NULL : an_json_str(last, "role");
        if (!rc && strcmp(role, "user"))
            rc = fail_at(c, key,
                         "the last message must be the user's (it is what the agent answers), "
                         "not '%s'",
                         role, NULL);
        if (!rc)
            rc = content_of(c, key, json_object_get(last, "content"), dir, &user, &parts);
        json_decref(one);
        if (rc) {
            json_decref(hist);
            an_buf_release(&user);
            return rc;
        }
        json_array_remove(hist, n - 1);
        if (json_array_size(hist)) {
            an_arena_defer(c->ld->a, json_release, hist);
            t->history = hist;
        } else {
            json_decref(hist);
        }
    }
    /* sent as written: a JSONL case has no hooks to set variables, so
     * "${" in a message is text, not a reference */
    struct an_buf esc = AN_BUF_INIT;
    const char *u = an_buf_cstr(&user);
    for (const char *p = u; *p; p++) {
        if (p[0] == '$' && p[1] == '{')
            an_buf_putc(&esc, '$');
        an_buf_putc(&esc, *p);
    }
    struct an_turn *turn = &t->turns[0];
    turn->type = AN_TURN_USER;
    turn->loc = at_key(c, key);
    turn->user.src = an_arena_strdup(c->ld->a, an_buf_cstr(&esc));
    turn->user.loc = turn->loc;
    if (parts) {
        an_arena_defer(c->ld->a, json_release, parts);
        turn->parts = parts;
    }
    an_buf_release(&esc);
    an_buf_release(&user);
    return 0;
}

static int load_assertions_into(const struct line_ctx *c, json_t *obj, const char *dir,
                                struct an_assert *blk)
{
    json_t *a = json_object_get(obj, "assertions"), *b = json_object_get(obj, "assert");
    json_t *expected = json_object_get(obj, "expected");
    if (a && b)
        return fail_at(c, "assert", "a case takes 'assertions' or 'assert', not both", "", NULL);
    const char *key = a ? "assertions" : "assert";
    json_t *list = a ? a : b;
    json_t *one = NULL;
    if (list && !json_is_array(list)) {
        one = json_array();
        json_array_append(one, list);
        an_arena_defer(c->ld->a, json_release, one);
        list = one;
    }
    size_t n = (list ? json_array_size(list) : 0) + (expected ? 1 : 0);
    if (!n)
        return 0;
    blk->loc = at_key(c, list ? key : "expected");
    blk->checks = an_arena_alloc(c->ld->a, n * sizeof *blk->checks);
    if (expected) {
        /* seed 002's original: `expected` is an equals check */
        json_t *item = json_pack("{s:s,s:O}", "type", "equals", "value", expected);
        an_arena_defer(c->ld->a, json_release, item);
        struct an_ck_src src = {at_key(c, "expected"), NULL, c->text, dir};
        int rc = an_check_item_load(c->ld, item, &src, AN_LEVEL_TEST, &blk->checks[0]);
        if (rc)
            return rc;
        blk->nchecks = 1;
    }
    size_t i;
    json_t *item;
    json_array_foreach(list, i, item)
    {
        struct an_ck_src src = {blk->loc, NULL, c->text, dir};
        bool taken;
        int rc = an_check_block_load(c->ld, item, &src, AN_LEVEL_TEST, blk, &taken);
        if (!rc && !taken)
            rc = an_check_item_load(c->ld, item, &src, AN_LEVEL_TEST, &blk->checks[blk->nchecks]);
        if (rc) {
            /* with ld->errs: said, and the next check read */
            if ((rc = an_ld_keep(c->ld, rc)))
                return rc;
            continue;
        }
        blk->nchecks += !taken;
    }
    return 0;
}

static int load_assertions(const struct line_ctx *c, json_t *obj, const char *dir,
                           struct an_test *t)
{
    struct an_assert blk = {0};
    int rc = load_assertions_into(c, obj, dir, &blk);
    t->assert = an_assert_keep(c->ld, &blk);
    return rc;
}

static int load_case(const struct line_ctx *c, json_t *obj, const char *dir, struct an_test *t)
{
    struct an_ld *ld = c->ld;
    const char *k;
    json_t *v;
    memset(t, 0, sizeof *t);
    t->file = c->file;
    t->version = "1.0";
    t->loc = (struct an_loc){c->file, c->lineno, 1};
    if (!json_is_object(obj))
        return fail_at(c, NULL, "a case must be a JSON object, not %s",
                       json_is_array(obj) ? "a list" : "a single value", NULL);
    json_object_foreach(obj, k, v)
    {
        bool ok = false;
        for (size_t j = 0; case_keys[j] && !ok; j++)
            ok = !strcmp(k, case_keys[j]);
        if (ok)
            continue;
        if (!strcmp(k, "before") || !strcmp(k, "after") || !strcmp(k, "user") || !strcmp(k, "team"))
            return fail_at(c, k, "'%s' is not supported yet by this version of ananke", k, NULL);
        const char *near = an_closest(k, case_keys);
        if (near)
            return fail_at(c, k, "unknown key '%s' in a case (did you mean '%s'?)", k, near);
        return fail_at(c, k,
                       "unknown key '%s' in a case (valid keys: id, name, input, messages, "
                       "assertions, assert, expected, options, skip, timeout, simulator, "
                       "checkpoints, max_turns, tags, only, metadata)",
                       k, NULL);
    }
    v = json_object_get(obj, "id");
    if (!v)
        return fail_at(c, NULL, "a case needs 'id' (a unique string)", "", NULL);
    if (!json_is_string(v) || !json_string_length(v))
        return fail_at(c, "id", "'id' must be a non-empty string", "", NULL);
    t->id = json_string_value(v);
    t->name = t->id;
    if ((v = json_object_get(obj, "name"))) {
        if (!json_is_string(v))
            return fail_at(c, "name", "'name' must be a string", "", NULL);
        if (json_string_length(v))
            t->name = an_arena_printf(ld->a, "%s — %s", t->id, json_string_value(v));
    }
    if ((v = json_object_get(obj, "options"))) {
        if (!json_is_object(v))
            return fail_at(c, "options", "'options' must be an object", "", NULL);
        t->options = v;
    }
    /* seed 002's `metadata`: the case's own data, read past (nothing in a
     * run depends on it) */
    if ((v = json_object_get(obj, "metadata")) && !json_is_object(v))
        return fail_at(c, "metadata", "'metadata' must be an object", "", NULL);
    struct an_loc only_at = at_key(c, "only");
    const char *bad_key, *bad = an_select_json(ld, obj, AN_SEL_TAGS | AN_SEL_SKIP | AN_SEL_ONLY,
                                               &only_at, t, &bad_key);
    if (bad)
        return fail_at(c, bad_key, "%s", bad, NULL);
    if (json_object_get(obj, "simulator") || json_object_get(obj, "checkpoints") ||
        json_object_get(obj, "max_turns")) {
        /* dynamic mode: `timeout` bounds the whole conversation, `input` is
         * the optional first message */
        struct an_ck_src src = {{c->file, c->lineno, 1}, NULL, c->text, dir};
        int rc = an_dynamic_load(ld, obj, &src, &t->dyn);
        if (rc)
            return rc;
        if (json_object_get(obj, "expected"))
            return fail_at(c, "expected",
                           "a dynamic case has no single answer to compare: use "
                           "checkpoints",
                           "", NULL);
        t->turns = an_arena_alloc(ld->a, sizeof *t->turns);
        if (json_object_get(obj, "input") || json_object_get(obj, "messages")) {
            t->nturns = 1;
            if ((rc = load_messages(c, obj, dir, t)))
                return rc;
            t->dyn->first_input = t->turns[0].user.src;
        }
        return load_assertions(c, obj, dir, t);
    }
    if ((v = json_object_get(obj, "timeout")) && !an_duration_json(v, &t->timeout_ms))
        return fail_at(c, "timeout",
                       "'timeout' must be a duration such as \"30s\", \"5m\" or \"1m30s\", or a "
                       "number of milliseconds",
                       "", NULL);
    t->nturns = 1;
    t->turns = an_arena_alloc(ld->a, sizeof *t->turns);
    int rc = load_messages(c, obj, dir, t);
    if (!rc)
        rc = load_assertions(c, obj, dir, t);
    return rc;
}

/* getline with a cap: a longer line is read to its end and reported. */
static ssize_t read_line(FILE *f, char **buf, size_t *cap, bool *too_long)
{
    ssize_t n = getline(buf, cap, f);
    *too_long = n > 0 && (size_t)n > LINE_MAX_BYTES + 1;
    return n;
}

static int load_stream(struct an_ld *ld, FILE *f, const char *file, const char *dir,
                       struct an_errlist *errs, struct an_test **out, size_t *nout);

int an_jsonl_load(struct an_ld *ld, const char *path, struct an_errlist *errs, struct an_test **out,
                  size_t *nout)
{
    *out = NULL;
    *nout = 0;
    FILE *f = fopen(path, "r");
    if (!f) {
        struct an_loc loc = {path, 0, 0};
        int rc = an_fail(ld->err, AN_EIO, &loc, "cannot read: %s", strerror(errno));
        an_errlist_add(errs, ld->err);
        return rc;
    }
    const char *file = an_arena_strdup(ld->a, path);
    const char *slash = strrchr(file, '/');
    const char *dir = slash ? an_arena_strndup(ld->a, file, (size_t)(slash - file)) : ".";
    return load_stream(ld, f, file, dir, errs, out, nout);
}

int an_jsonl_load_mem(struct an_ld *ld, const char *name, const char *text, size_t len,
                      struct an_errlist *errs, struct an_test **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    FILE *f = len ? fmemopen((void *)text, len, "r") : NULL;
    if (!f)
        return 0; /* nothing to read: no case */
    return load_stream(ld, f, an_arena_strdup(ld->a, name), ".", errs, out, nout);
}

/* At most AN_LD_MAX_ERRS errors of a file are kept; the others counted. */
static void keep_capped(struct an_errlist *errs, const struct an_err *e, size_t *kept,
                        size_t *dropped)
{
    if (*kept < AN_LD_MAX_ERRS) {
        an_errlist_add(errs, e);
        ++*kept;
    } else {
        ++*dropped;
    }
}

static int load_stream(struct an_ld *ld, FILE *f, const char *file, const char *dir,
                       struct an_errlist *errs, struct an_test **out, size_t *nout)
{
    int first = 0;
    size_t kept = 0, dropped = 0;
    struct an_strmap ids;
    an_strmap_init(&ids, ld->scratch ? ld->scratch : ld->a);
    size_t cap = 0, n = 0;
    struct an_test *tests = NULL;
    char *line = NULL;
    size_t lcap = 0;
    ssize_t len;
    bool too_long;
    unsigned lineno = 0;
    while ((len = read_line(f, &line, &lcap, &too_long)) >= 0) {
        lineno++;
        struct line_ctx c = {ld, file, lineno, line};
        int rc = 0;
        while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
            line[--len] = '\0';
        char *s = line;
        if (lineno == 1 && !strncmp(s, "\xEF\xBB\xBF", 3))
            s += 3;
        while (*s == ' ' || *s == '\t')
            s++;
        if (!*s || (s[0] == '/' && s[1] == '/'))
            continue;
        if (too_long) {
            struct an_loc loc = {file, lineno, 0};
            rc = an_fail(ld->err, AN_EPARSE, &loc, "line is longer than 1 MiB (one case per line)");
        } else {
            json_error_t je;
            json_t *obj =
                json_loadb(line, (size_t)len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
            if (!obj) {
                struct an_loc loc = {file, lineno, je.column > 0 ? (unsigned)je.column : 1};
                rc = an_fail(ld->err, AN_EPARSE, &loc, "invalid JSON: %s", an_json_error_text(&je));
            } else {
                an_arena_defer(ld->a, json_release, obj);
                if (n == cap) {
                    tests = an_arena_grow(ld->a, tests, n, cap ? cap * 2 : 16, sizeof *tests);
                    cap = cap ? cap * 2 : 16;
                }
                /* every mistake of the line the loader can read past */
                struct an_errlist mine = {0};
                struct an_errlist *outer = ld->errs;
                ld->errs = &mine;
                rc = load_case(&c, obj, dir, &tests[n]);
                ld->errs = outer;
                for (size_t k = 0; k < mine.n; k++)
                    keep_capped(errs, &mine.v[k], &kept, &dropped);
                if (!rc && mine.n) {
                    rc = (int)mine.v[0].code;
                    if (!first)
                        first = rc;
                    rc = 0;
                    an_errlist_release(&mine);
                    continue;
                }
                an_errlist_release(&mine);
                if (!rc) {
                    uintptr_t seen = (uintptr_t)an_strmap_get(&ids, tests[n].id);
                    if (seen) {
                        char prev[32];
                        snprintf(prev, sizeof prev, "%u", (unsigned)seen);
                        rc = fail_at(&c, "id", "duplicate id '%s' (also on line %s)", tests[n].id,
                                     prev);
                    } else {
                        an_strmap_put(&ids, tests[n].id, (void *)(uintptr_t)lineno);
                    }
                }
                if (!rc)
                    n++;
            }
        }
        if (rc) {
            keep_capped(errs, ld->err, &kept, &dropped);
            if (!first)
                first = rc;
        }
    }
    if (dropped) {
        struct an_err e = AN_ERR_INIT;
        struct an_loc loc = {file, 0, 0};
        an_fail(&e, (enum an_code)first, &loc,
                "and %zu more error%s in this file (the first %d are shown)", dropped,
                dropped == 1 ? "" : "s", AN_LD_MAX_ERRS);
        an_errlist_add(errs, &e);
    }
    free(line);
    fclose(f);
    *out = tests;
    *nout = n;
    return first;
}
