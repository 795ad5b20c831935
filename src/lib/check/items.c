/*
 * Seed 002's typed checks (contains, equals, regex, json_path, type,
 * tool_called, tool_result) over a scope, and the loop that judges every
 * pure typed check through its row (ananke/check_kind.h). Each is judged, then `negate`
 * flips the verdict; a failed one is a finding whose label is the check's
 * `message` when it has one (the generated label then moves to the detail,
 * so nothing is lost). Script checks are impure and run elsewhere
 * (run/script_check.c).
 */
#include <stdlib.h>
#include <string.h>

#include "check/check_int.h"
#include "core/json.h"

/* A value as a label shows it: strings quoted, anything else as JSON. */
static void put_value(struct an_buf *b, const json_t *v)
{
    if (json_is_string(v)) {
        chk_quote(b, json_string_value(v), json_string_length(v));
        return;
    }
    char *t = an_json_compact(v);
    chk_cut(b, t, strlen(t));
    free(t);
}

static const char *find_bytes(const char *h, size_t hl, const char *n, size_t nl)
{
    for (size_t i = 0; nl <= hl && i + nl <= hl; i++)
        if (!memcmp(h + i, n, nl))
            return h + i;
    return NULL;
}

static void trim(const char **s, size_t *n)
{
    while (*n && strchr(" \t\r\n", (*s)[0])) {
        (*s)++;
        (*n)--;
    }
    while (*n && strchr(" \t\r\n", (*s)[*n - 1]))
        (*n)--;
}

/* Numbers compare by value (1 equals 1.0); everything else as jansson does. */
static bool json_same(const json_t *a, const json_t *b)
{
    if (json_is_number(a) && json_is_number(b))
        return json_number_value(a) == json_number_value(b);
    if (json_is_array(a) && json_is_array(b)) {
        if (json_array_size(a) != json_array_size(b))
            return false;
        for (size_t i = 0; i < json_array_size(a); i++)
            if (!json_same(json_array_get(a, i), json_array_get(b, i)))
                return false;
        return true;
    }
    if (json_is_object(a) && json_is_object(b)) {
        if (json_object_size(a) != json_object_size(b))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)a, k, v)
        {
            if (!json_same(v, json_object_get(b, k)))
                return false;
        }
        return true;
    }
    return json_equal((json_t *)a, (json_t *)b);
}

/* Subset match (tool_called arguments, tool_result results): objects need
 * every expected key; arrays need each expected element to match some
 * actual element; "regex:PATTERN" strings are searched in the actual value
 * as a regex sees it; other leaves are equal. */
static bool subset(const json_t *exp, const json_t *act)
{
    if (!act)
        return false;
    if (json_is_string(exp) && !strncmp(json_string_value(exp), "regex:", 6)) {
        struct an_regex *re = NULL;
        if (an_regex_compile(&re, json_string_value(exp) + 6, NULL, NULL))
            return false; /* the loader refused bad patterns already */
        char *t = an_json_match_text(act);
        bool ok = an_regex_search(re, t, strlen(t));
        free(t);
        an_regex_free(re);
        return ok;
    }
    if (json_is_object(exp)) {
        if (!json_is_object(act))
            return false;
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)exp, k, v)
        {
            if (!subset(v, json_object_get(act, k)))
                return false;
        }
        return true;
    }
    if (json_is_array(exp)) {
        if (!json_is_array(act))
            return false;
        size_t i, j;
        json_t *e, *a;
        json_array_foreach(exp, i, e)
        {
            bool found = false;
            json_array_foreach(act, j, a)
            {
                if ((found = subset(e, a)))
                    break;
            }
            if (!found)
                return false;
        }
        return true;
    }
    return json_same(exp, act);
}

/* The whole output as JSON, or the first JSON object or array embedded in
 * it ("Here you go: {...}"). New reference or NULL. */
static json_t *find_json(const char *t, size_t len)
{
    const char *s = t;
    size_t n = len;
    trim(&s, &n);
    json_t *j = n ? json_loadb(s, n, JSON_DECODE_ANY, NULL) : NULL;
    if (j)
        return j;
    for (size_t i = 0; i < len; i++) {
        if (t[i] != '{' && t[i] != '[')
            continue;
        j = json_loadb(t + i, len - i, JSON_DISABLE_EOF_CHECK, NULL);
        if (j)
            return j;
    }
    return NULL;
}

/* Does a called tool answer to `want`? Exactly, or as the part after a
 * namespace: "create_expense" answers for "mcp__create_expense" and
 * "workers.create_expense". */
static bool name_matches(const char *called, const char *want)
{
    if (!called)
        return false;
    if (!strcmp(called, want))
        return true;
    size_t c = strlen(called), w = strlen(want);
    if (c <= w)
        return false;
    const char *tail = called + c - w;
    if (strcmp(tail, want))
        return false;
    return tail[-1] == '.' || (c >= w + 2 && tail[-1] == '_' && tail[-2] == '_');
}

/* A tool's result as JSON: a string holding JSON (AG-UI sends results as
 * text) is read as that JSON. New reference or NULL. */
static json_t *result_json(const json_t *r)
{
    if (!r)
        return NULL;
    if (json_is_string(r)) {
        json_t *j = json_loadb(json_string_value(r), json_string_length(r), JSON_DECODE_ANY, NULL);
        if (j)
            return j;
    }
    return json_incref((json_t *)r);
}

void an_ck_eval_text(const struct an_check_item *it, const struct an_scope *scope, const char *t,
                     size_t len, struct an_check_verdict *v)
{
    (void)scope;
    size_t so = 0, eo = 0;
    an_buf_puts(&v->subject, "Output");
    switch (it->kind) {
    case AN_CHECK_CONTAINS:
    case AN_CHECK_NOT_CONTAINS: {
        char *needle = an_json_match_text(it->value);
        size_t nl = strlen(needle);
        const char *at = it->ignore_case ? chk_find_icase(t, len, needle, nl)
                                         : find_bytes(t, len, needle, nl);
        v->ok = at != NULL;
        an_buf_puts(&v->verb, "contain ");
        chk_quote(&v->verb, needle, nl);
        if (it->ignore_case)
            an_buf_puts(&v->verb, " (ignoring case)");
        an_buf_puts(&v->expected, "the text ");
        chk_quote(&v->expected, needle, nl);
        an_buf_puts(&v->negated_expected, "no ");
        chk_quote(&v->negated_expected, needle, nl);
        if (at)
            an_buf_printf(&v->actual, "found at byte %zu in ", (size_t)(at - t));
        else
            an_buf_puts(&v->actual, "not found in ");
        if (len)
            chk_quote(&v->actual, t, len);
        else
            an_buf_puts(&v->actual, "empty output");
        free(needle);
        return;
    }
    case AN_CHECK_EQUALS: {
        const char *s = t;
        size_t n = len;
        trim(&s, &n);
        if (json_is_string(it->value)) {
            v->ok = n == json_string_length(it->value) &&
                    !memcmp(s, json_string_value(it->value), n);
        } else {
            json_t *j = n ? json_loadb(s, n, JSON_DECODE_ANY, NULL) : NULL;
            v->ok = j && json_same(j, it->value);
            json_decref(j);
        }
        an_buf_puts(&v->verb, "equal ");
        put_value(&v->verb, it->value);
        an_buf_puts(&v->expected, "exactly ");
        put_value(&v->expected, it->value);
        an_buf_puts(&v->negated_expected, "anything but ");
        put_value(&v->negated_expected, it->value);
        if (n)
            chk_quote(&v->actual, s, n);
        else
            an_buf_puts(&v->actual, "empty output");
        return;
    }
    case AN_CHECK_REGEX: {
        int m = chk_find(it->re, t, len, &so, &eo);
        v->ok = m > 0;
        v->gave_up = m < 0;
        an_buf_puts(&v->verb, "match ");
        chk_regex(&v->verb, it->re);
        an_buf_puts(&v->expected, "a match");
        an_buf_puts(&v->negated_expected, "no match");
        if (v->gave_up) {
            chk_gave_up(&v->actual, it->re);
        } else if (v->ok) {
            an_buf_puts(&v->actual, "matched ");
            chk_quote(&v->actual, t + so, eo - so);
            an_buf_printf(&v->actual, " at byte %zu in ", so);
            chk_quote(&v->actual, t, len);
        } else if (len) {
            an_buf_puts(&v->actual, "no match in ");
            chk_quote(&v->actual, t, len);
        } else {
            an_buf_puts(&v->actual, "no match in empty text");
        }
        return;
    }
    default:
        return;
    }
}

void an_ck_eval_json(const struct an_check_item *it, const struct an_scope *scope, const char *t,
                     size_t len, struct an_check_verdict *v)
{
    (void)scope;
    json_t *doc = NULL, *at = NULL;
    const char *s = t;
    size_t n = len;
    trim(&s, &n);
    if (it->kind == AN_CHECK_TYPE && !it->path) {
        /* the whole output: JSON when it parses, else a string */
        doc = n ? json_loadb(s, n, JSON_DECODE_ANY, NULL) : NULL;
        const char *got = doc ? an_json_type_name(doc) : "string";
        v->ok = !strcmp(got, json_string_value(it->value));
        an_buf_puts(&v->subject, "Output");
        an_buf_printf(&v->verb, "be of type %s", json_string_value(it->value));
        an_buf_printf(&v->expected, "%s", json_string_value(it->value));
        an_buf_printf(&v->negated_expected, "anything but %s", json_string_value(it->value));
        an_buf_printf(&v->actual, "%s ", got);
        if (doc)
            put_value(&v->actual, doc);
        else
            chk_quote(&v->actual, s, n);
        json_decref(doc);
        return;
    }
    doc = find_json(t, len);
    if (doc)
        (void)an_json_path_get(doc, it->path, &at);
    an_buf_printf(&v->subject, "JSON at %s", it->path);
    if (it->kind == AN_CHECK_TYPE) {
        const char *want = json_string_value(it->value);
        v->ok = at && !strcmp(an_json_type_name(at), want);
        an_buf_printf(&v->verb, "be of type %s", want);
        an_buf_printf(&v->expected, "%s", want);
        an_buf_printf(&v->negated_expected, "anything but %s", want);
    } else if (!it->value) {
        v->ok = at != NULL;
        an_buf_puts(&v->verb, "exist");
        an_buf_puts(&v->expected, "a value");
        an_buf_puts(&v->negated_expected, "no value");
    } else if (json_is_array(it->value)) {
        size_t i;
        json_t *e;
        json_array_foreach(it->value, i, e)
        {
            if (at && json_same(e, at))
                v->ok = true;
        }
        an_buf_puts(&v->verb, "be one of ");
        put_value(&v->verb, it->value);
        an_buf_puts(&v->expected, "one of ");
        put_value(&v->expected, it->value);
        an_buf_puts(&v->negated_expected, "none of ");
        put_value(&v->negated_expected, it->value);
    } else {
        v->ok = at && json_same(at, it->value);
        an_buf_puts(&v->verb, "equal ");
        put_value(&v->verb, it->value);
        put_value(&v->expected, it->value);
        an_buf_puts(&v->negated_expected, "anything but ");
        put_value(&v->negated_expected, it->value);
    }
    if (!doc) {
        an_buf_puts(&v->actual, "no JSON in ");
        if (len)
            chk_quote(&v->actual, t, len);
        else
            an_buf_puts(&v->actual, "empty output");
    } else if (!at) {
        an_buf_printf(&v->actual, "no %s in ", it->path);
        put_value(&v->actual, doc);
    } else {
        if (it->kind == AN_CHECK_TYPE)
            an_buf_printf(&v->actual, "%s ", an_json_type_name(at));
        put_value(&v->actual, at);
    }
    json_decref(doc);
}

/* "#1 args {...}" for up to CHK_LIST calls. */
static void list_calls(struct an_buf *b, const struct an_scope *s, const size_t *idx, size_t n,
                       bool results)
{
    for (size_t k = 0; k < n && k < CHK_LIST; k++) {
        const struct an_tool_call *c = &s->calls[idx[k]];
        an_buf_printf(b, "%s#%zu ", k ? ", " : "", idx[k] + 1);
        if (results) {
            if (c->result)
                chk_quote_json(b, c->result);
            else
                an_buf_puts(b, "no result");
        } else if (an_tool_call_args(c)) {
            char *a = an_json_compact(an_tool_call_args(c));
            chk_cut(b, a, strlen(a));
            free(a);
        } else {
            chk_quote(b, c->args_text ? c->args_text : "", c->args_text ? strlen(c->args_text) : 0);
        }
    }
    if (n > CHK_LIST)
        an_buf_puts(b, ", …");
}

void an_ck_eval_tool_called(const struct an_check_item *it, const struct an_scope *s,
                            const char *text, size_t len, struct an_check_verdict *v)
{
    (void)text;
    (void)len;
    const json_t *val = it->value;
    const json_t *args = NULL;
    const char *one = NULL;
    if (json_is_string(val)) {
        one = json_string_value(val);
    } else if (json_is_object(val)) {
        one = json_string_value(json_object_get(val, "name"));
        args = json_object_get(val, "arguments");
    }
    size_t *named = an_xcalloc(s->ncalls + 1, sizeof *named), nnamed = 0, matched = 0;
    for (size_t i = 0; i < s->ncalls; i++) {
        bool hit = false;
        if (one) {
            hit = name_matches(s->calls[i].name, one);
        } else {
            size_t k;
            json_t *e;
            json_array_foreach(val, k, e)
            {
                hit = hit || name_matches(s->calls[i].name, json_string_value(e));
            }
        }
        if (!hit)
            continue;
        named[nnamed++] = i;
        if (!args || subset(args, an_tool_call_args(&s->calls[i])))
            matched++;
    }
    v->ok = matched > 0;
    if (one) {
        an_buf_puts(&v->subject, "Tool ");
        chk_quote(&v->subject, one, strlen(one));
        an_buf_puts(&v->expected, "a call of ");
        chk_quote(&v->expected, one, strlen(one));
        an_buf_puts(&v->negated_expected, "no call of ");
        chk_quote(&v->negated_expected, one, strlen(one));
    } else {
        an_buf_puts(&v->subject, "One of tools ");
        char *t = an_json_compact(val);
        chk_cut(&v->subject, t, strlen(t));
        free(t);
        an_buf_puts(&v->expected, "a call of one of them");
        an_buf_puts(&v->negated_expected, "no call of any of them");
    }
    an_buf_puts(&v->verb, "be called");
    if (args) {
        char *a = an_json_compact(args);
        an_buf_puts(&v->verb, " with arguments ");
        chk_cut(&v->verb, a, strlen(a));
        an_buf_puts(&v->expected, " with arguments ");
        chk_cut(&v->expected, a, strlen(a));
        an_buf_puts(&v->negated_expected, " with arguments ");
        chk_cut(&v->negated_expected, a, strlen(a));
        free(a);
    }
    if (!nnamed) {
        an_buf_puts(&v->actual, "not called (called: ");
        chk_called_names(&v->actual, s);
        an_buf_puts(&v->actual, ")");
    } else if (args && !matched) {
        an_buf_printf(&v->actual, "%zu call%s, none with matching arguments (", nnamed,
                      nnamed == 1 ? "" : "s");
        list_calls(&v->actual, s, named, nnamed, false);
        an_buf_puts(&v->actual, ")");
    } else {
        an_buf_printf(&v->actual, "%zu call%s (", matched, matched == 1 ? "" : "s");
        list_calls(&v->actual, s, named, nnamed, false);
        an_buf_puts(&v->actual, ")");
    }
    free(named);
}

void an_ck_eval_tool_result(const struct an_check_item *it, const struct an_scope *s,
                            const char *text, size_t len, struct an_check_verdict *v)
{
    (void)text;
    (void)len;
    const char *tool = json_string_value(json_object_get(it->value, "tool"));
    const json_t *want = json_object_get(it->value, "result");
    size_t *named = an_xcalloc(s->ncalls + 1, sizeof *named), nnamed = 0, matched = 0;
    for (size_t i = 0; i < s->ncalls; i++) {
        if (tool && !name_matches(s->calls[i].name, tool))
            continue;
        named[nnamed++] = i;
        json_t *r = result_json(s->calls[i].result);
        if (r && (!want || subset(want, r)))
            matched++;
        json_decref(r);
    }
    v->ok = matched > 0;
    if (tool) {
        an_buf_puts(&v->subject, "Tool ");
        chk_quote(&v->subject, tool, strlen(tool));
    } else {
        an_buf_puts(&v->subject, "A tool");
    }
    if (want) {
        char *w = an_json_compact(want);
        an_buf_puts(&v->verb, "return a result matching ");
        chk_cut(&v->verb, w, strlen(w));
        an_buf_puts(&v->expected, "a result matching ");
        chk_cut(&v->expected, w, strlen(w));
        an_buf_puts(&v->negated_expected, "no result matching ");
        chk_cut(&v->negated_expected, w, strlen(w));
        free(w);
    } else {
        an_buf_puts(&v->verb, "return a result");
        an_buf_puts(&v->expected, "a result");
        an_buf_puts(&v->negated_expected, "no result");
    }
    if (!nnamed) {
        an_buf_puts(&v->actual, "not called (called: ");
        chk_called_names(&v->actual, s);
        an_buf_puts(&v->actual, ")");
    } else {
        an_buf_printf(&v->actual, "%zu of %zu call%s matching (results: ", matched, nnamed,
                      nnamed == 1 ? "" : "s");
        list_calls(&v->actual, s, named, nnamed, true);
        an_buf_puts(&v->actual, ")");
    }
    free(named);
}

void an_check_item_finding(struct an_findings *out, const struct an_check_item *it,
                           const struct an_scope *s, const char *subject, const char *verb,
                           bool negated, const char *expected, const char *actual,
                           const char *detail)
{
    struct an_buf label = AN_BUF_INIT, d = AN_BUF_INIT, e = AN_BUF_INIT, a = AN_BUF_INIT;
    an_buf_printf(&label, "%s must %s%s", subject, negated ? "not " : "", verb);
    an_buf_puts(&e, expected);
    an_buf_puts(&a, actual);
    if (it->message) {
        an_buf_puts(&d, an_buf_cstr(&label));
        if (detail && *detail)
            an_buf_printf(&d, "; %s", detail);
        an_buf_reset(&label);
        an_buf_puts(&label, it->message);
    } else if (detail) {
        an_buf_puts(&d, detail);
    }
    chk_add(out, an_check_kind_name(it->kind), s, &it->loc, &label, &e, &a, &d);
    an_buf_release(&label);
    an_buf_release(&d);
    an_buf_release(&e);
    an_buf_release(&a);
}

/* `of: state | messages`: "Output must ..." / "JSON at $.a must ..." name
 * what was looked at. */
static void name_subject(const struct an_check_item *it, struct an_check_verdict *v)
{
    const char *what = it->of == AN_OF_STATE ? "State" : "Messages";
    const char *sub = an_buf_cstr(&v->subject);
    struct an_buf named = AN_BUF_INIT;
    if (!strncmp(sub, "Output", 6))
        an_buf_printf(&named, "%s%s", what, sub + 6);
    else if (!strncmp(sub, "JSON at ", 8))
        an_buf_printf(&named, "%s at %s", what, sub + 8);
    else
        an_buf_puts(&named, sub);
    an_buf_release(&v->subject);
    v->subject = named;
}

/* One pure check on the scope: 1 when it failed (a finding added). */
static size_t item(const struct an_check_item *it, const struct an_check_kind_def *def,
                   const struct an_scope *s, const char *t, size_t len, struct an_findings *out)
{
    struct an_check_verdict v = {.ok = false};
    /* `of: state | messages`: the same check on that JSON, as text */
    char *of_text = NULL;
    if (it->of != AN_OF_OUTPUT) {
        const json_t *doc = it->of == AN_OF_STATE ? s->state : s->messages;
        t = of_text = doc ? an_json_compact(doc) : an_xstrdup("null");
        len = strlen(t);
    }
    def->eval(it, s, t, len, &v);
    if (it->of != AN_OF_OUTPUT) {
        name_subject(it, &v);
        free(of_text);
    }
    bool negated = it->negate != def->inverted;
    size_t failed = v.ok == negated || v.gave_up;
    if (failed)
        an_check_item_finding(out, it, s, an_buf_cstr(&v.subject), an_buf_cstr(&v.verb), negated,
                              an_buf_cstr(negated ? &v.negated_expected : &v.expected),
                              an_buf_cstr(&v.actual), v.detail.len ? an_buf_cstr(&v.detail) : NULL);
    an_buf_release(&v.subject);
    an_buf_release(&v.verb);
    an_buf_release(&v.expected);
    an_buf_release(&v.negated_expected);
    an_buf_release(&v.actual);
    an_buf_release(&v.detail);
    return failed;
}

size_t chk_items(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    const char *t = s->text ? s->text : "";
    size_t len = strlen(t), added = 0;
    for (size_t k = 0; k < blk->nchecks; k++) {
        const struct an_check_item *it = &blk->checks[k];
        const struct an_check_kind_def *def = an_check_kind_get(it->kind);
        if (def && def->pure) /* impure: run/script_check.c, run/judge.c */
            added += item(it, def, s, t, len, out);
    }
    return added;
}
