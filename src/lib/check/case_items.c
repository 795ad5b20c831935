/*
 * Seed 004's checks over a run-case answer (docs/http.md, docs/assertions.md
 * "Run-case checks"): what the agent proposed (actions), retrieved (doc
 * ids), called in which order, answered (a JSON Schema), and whether its
 * tools succeeded and its risky actions cite evidence. The answer is read
 * from the scope (an_scope.actions, .retrievals, .output); a scope without
 * one has no actions and no retrievals.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_int.h"
#include "core/json.h"
#include "core/jsonschema.h"

const char *chk_find_icase(const char *h, size_t hl, const char *n, size_t nl)
{
    for (size_t i = 0; nl <= hl && i + nl <= hl; i++) {
        size_t k = 0;
        while (k < nl && tolower((unsigned char)h[i + k]) == tolower((unsigned char)n[k]))
            k++;
        if (k == nl)
            return h + i;
    }
    return NULL;
}

/* "a", "b", "c" (at most CHK_LIST, then …) of the strings in `list`. */
static void quote_list(struct an_buf *b, const json_t *list)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        if (i == CHK_LIST) {
            an_buf_puts(b, ", …");
            break;
        }
        if (i)
            an_buf_puts(b, ", ");
        chk_quote_json(b, e);
    }
}

static bool list_has(const json_t *list, const char *s)
{
    size_t i;
    json_t *e;
    json_array_foreach(list, i, e)
    {
        if (json_is_string(e) && !strcmp(json_string_value(e), s))
            return true;
    }
    return false;
}

/* The names written (a list of strings) as a label's subject. */
static void subject(struct an_buf *b, const char *one, const char *many, const json_t *list)
{
    if (json_array_size(list) == 1) {
        an_buf_printf(b, "%s ", one);
        chk_quote_json(b, json_array_get(list, 0));
        return;
    }
    an_buf_printf(b, "%s ", many);
    quote_list(b, list);
}

/* ---- action_required ---- */

static void action_required(const struct an_check_item *it, const struct an_scope *s,
                            struct an_check_verdict *v)
{
    json_t *types = json_array(), *missing = json_array();
    size_t i;
    json_t *a;
    json_array_foreach(s->actions, i, a)
    {
        const char *t = an_json_str(a, "action_type");
        if (t && !list_has(types, t))
            json_array_append_new(types, json_string(t));
    }
    json_array_foreach(it->value, i, a)
    {
        if (!list_has(types, json_string_value(a)))
            json_array_append(missing, a);
    }
    v->ok = json_array_size(missing) == 0;
    subject(&v->subject, "Action", "Actions", it->value);
    an_buf_puts(&v->verb, "be proposed");
    an_buf_puts(&v->expected, "a proposed action of each type");
    an_buf_puts(&v->negated_expected, "not every one of them proposed");
    if (!json_array_size(s->actions)) {
        an_buf_puts(&v->actual, s->actions ? "no action proposed" : "no run-case answer");
    } else {
        if (json_array_size(missing)) {
            an_buf_puts(&v->actual, "missing ");
            quote_list(&v->actual, missing);
            an_buf_puts(&v->actual, "; ");
        }
        an_buf_puts(&v->actual, "proposed: ");
        quote_list(&v->actual, types);
    }
    json_decref(types);
    json_decref(missing);
}

/* ---- tool_sequence ---- */

static void tool_sequence(const struct an_check_item *it, const struct an_scope *s,
                          struct an_check_verdict *v)
{
    size_t n = json_array_size(it->value), bad = n;
    for (size_t i = 0; i < n && bad == n; i++)
        if (i >= s->ncalls || !s->calls[i].name ||
            strcmp(s->calls[i].name, json_string_value(json_array_get(it->value, i))))
            bad = i;
    v->ok = bad == n;
    an_buf_puts(&v->subject, "Tool calls");
    an_buf_puts(&v->verb, "start with ");
    quote_list(&v->verb, it->value);
    an_buf_printf(&v->expected, "call%s 1", n == 1 ? "" : "s");
    if (n > 1)
        an_buf_printf(&v->expected, "-%zu", n);
    an_buf_puts(&v->expected, " in this order: ");
    quote_list(&v->expected, it->value);
    an_buf_puts(&v->negated_expected, "any other start");
    if (bad < n && bad >= s->ncalls)
        an_buf_printf(&v->actual, "only %zu call%s", s->ncalls, s->ncalls == 1 ? "" : "s");
    else if (bad < n) {
        an_buf_printf(&v->actual, "call #%zu is ", bad + 1);
        const char *nm = s->calls[bad].name ? s->calls[bad].name : "";
        chk_quote(&v->actual, nm, strlen(nm));
        an_buf_puts(&v->actual, ", expected ");
        chk_quote_json(&v->actual, json_array_get(it->value, bad));
    } else {
        an_buf_puts(&v->actual, "in order");
    }
    an_buf_puts(&v->actual, " (called: ");
    chk_called_names(&v->actual, s);
    an_buf_puts(&v->actual, ")");
}

/* ---- retrieval_required ---- */

static json_t *retrieved_ids(const struct an_scope *s)
{
    json_t *ids = json_array();
    size_t i, k;
    json_t *r, *d;
    json_array_foreach(s->retrievals, i, r)
    {
        json_array_foreach(json_object_get(r, "doc_ids"), k, d)
        {
            if (json_is_string(d) && !list_has(ids, json_string_value(d)))
                json_array_append(ids, d);
        }
    }
    return ids;
}

static void retrieval_required(const struct an_check_item *it, const struct an_scope *s,
                               struct an_check_verdict *v)
{
    json_t *ids = retrieved_ids(s), *missing = json_array();
    size_t i;
    json_t *d;
    json_array_foreach(it->value, i, d)
    {
        if (!list_has(ids, json_string_value(d)))
            json_array_append(missing, d);
    }
    v->ok = json_array_size(missing) == 0;
    subject(&v->subject, "Document", "Documents", it->value);
    an_buf_puts(&v->verb, "be retrieved");
    an_buf_puts(&v->expected, "a retrieval event naming each doc id");
    an_buf_puts(&v->negated_expected, "not every one of them retrieved");
    if (!json_array_size(s->retrievals)) {
        an_buf_puts(&v->actual, "no retrieval event");
    } else {
        if (json_array_size(missing)) {
            an_buf_puts(&v->actual, "missing ");
            quote_list(&v->actual, missing);
            an_buf_puts(&v->actual, "; ");
        }
        an_buf_puts(&v->actual, "retrieved: ");
        if (json_array_size(ids))
            quote_list(&v->actual, ids);
        else
            an_buf_puts(&v->actual, "no doc id");
    }
    json_decref(ids);
    json_decref(missing);
}

/* ---- json_schema ---- */

static void json_schema(const struct an_check_item *it, const struct an_scope *s,
                        struct an_check_verdict *v)
{
    an_buf_puts(&v->subject, "Output");
    an_buf_puts(&v->verb, "match the JSON schema");
    an_buf_puts(&v->expected, "a value the schema accepts");
    an_buf_puts(&v->negated_expected, "a value the schema rejects");
    json_t *doc = NULL;
    if (s->output) {
        doc = json_incref((json_t *)s->output);
    } else {
        /* not a run-case answer: the whole text, as JSON */
        const char *t = s->text ? s->text : "";
        size_t n = strlen(t);
        while (n && strchr(" \t\r\n", t[n - 1]))
            n--;
        while (n && strchr(" \t\r\n", *t))
            t++, n--;
        doc = n ? json_loadb(t, n, JSON_DECODE_ANY, NULL) : NULL;
        if (!doc) {
            an_buf_puts(&v->actual, "not JSON: ");
            if (n)
                chk_quote(&v->actual, t, n);
            else
                an_buf_puts(&v->actual, "empty output");
            return;
        }
    }
    struct an_jschema_errors errs = {0};
    size_t n = an_jschema_validate(it->schema, doc, &errs);
    v->ok = n == 0;
    if (v->ok) {
        an_buf_puts(&v->actual, "valid: ");
        chk_quote_json(&v->actual, doc);
    }
    for (size_t i = 0; i < errs.n && i < 3; i++) {
        if (i)
            an_buf_puts(&v->actual, "; ");
        an_jschema_error_format(&errs.v[i], &v->actual);
    }
    if (n > 3)
        an_buf_printf(&v->actual, "; and %zu more", n - 3);
    an_jschema_errors_release(&errs);
    json_decref(doc);
}

/* ---- evidence_required ---- */

static bool ok_result(const struct an_scope *s, const char *call_id)
{
    for (size_t i = 0; i < s->ncalls; i++) {
        const struct an_tool_call *c = &s->calls[i];
        if (c->id && !strcmp(c->id, call_id) && c->result &&
            (!c->status || !strcmp(c->status, "ok")))
            return true;
    }
    return false;
}

/* Why action `a` lacks evidence (appended to b), or false when it has it. */
static bool lacks_evidence(const struct an_scope *s, const json_t *a, const json_t *docs,
                           struct an_buf *b)
{
    const char *risk = an_json_str(a, "risk_level");
    if (risk && !strcmp(risk, "low"))
        return false;
    const char *id = an_json_str(a, "action_id"), *type = an_json_str(a, "action_type");
    const json_t *refs = json_object_get(a, "evidence_refs");
    an_buf_puts(b, "action ");
    chk_quote(b, id ? id : "?", strlen(id ? id : "?"));
    if (type)
        an_buf_printf(b, " (%s)", type);
    if (!json_array_size(refs)) {
        an_buf_puts(b, " has no evidence_refs");
        return true;
    }
    size_t i;
    json_t *r;
    json_array_foreach(refs, i, r)
    {
        const char *kind = an_json_str(r, "kind");
        if (kind && !strcmp(kind, "tool_result")) {
            const char *cid = an_json_str(r, "call_id");
            if (!cid || !ok_result(s, cid)) {
                an_buf_puts(b, " cites tool_result ");
                chk_quote(b, cid ? cid : "?", strlen(cid ? cid : "?"));
                an_buf_puts(b, ", which is not an ok result");
                return true;
            }
        } else if (kind && !strcmp(kind, "retrieval_doc")) {
            const char *did = an_json_str(r, "id");
            if (!did || !list_has(docs, did)) {
                an_buf_puts(b, " cites document ");
                chk_quote(b, did ? did : "?", strlen(did ? did : "?"));
                an_buf_puts(b, ", which was not retrieved");
                return true;
            }
        } else {
            an_buf_puts(b, " cites evidence of kind ");
            chk_quote(b, kind ? kind : "?", strlen(kind ? kind : "?"));
            an_buf_puts(b, " (tool_result or retrieval_doc expected)");
            return true;
        }
    }
    return false;
}

static void evidence_required(const struct an_check_item *it, const struct an_scope *s,
                              struct an_check_verdict *v)
{
    (void)it;
    json_t *docs = retrieved_ids(s);
    size_t bad = 0, risky = 0, i;
    json_t *a;
    struct an_buf why = AN_BUF_INIT;
    json_array_foreach(s->actions, i, a)
    {
        const char *risk = an_json_str(a, "risk_level");
        if (!risk || strcmp(risk, "low"))
            risky++;
        struct an_buf one = AN_BUF_INIT;
        if (lacks_evidence(s, a, docs, &one) && ++bad <= CHK_LIST)
            an_buf_printf(&why, "%s%s", bad > 1 ? "; " : "", an_buf_cstr(&one));
        an_buf_release(&one);
    }
    v->ok = bad == 0;
    an_buf_puts(&v->subject, "Every action not of low risk");
    an_buf_puts(&v->verb, "cite evidence that exists");
    an_buf_puts(&v->expected, "evidence_refs naming an ok tool_result or a retrieved document");
    an_buf_puts(&v->negated_expected, "an action without such evidence");
    if (bad) {
        an_buf_puts(&v->actual, an_buf_cstr(&why));
        if (bad > CHK_LIST)
            an_buf_printf(&v->actual, "; and %zu more", bad - CHK_LIST);
    } else if (!json_array_size(s->actions)) {
        an_buf_puts(&v->actual, "no action proposed");
    } else {
        an_buf_printf(&v->actual, "%zu action%s of medium or high risk, each with evidence", risky,
                      risky == 1 ? "" : "s");
    }
    an_buf_release(&why);
    json_decref(docs);
}

/* ---- tool_execution ---- */

static void tool_execution(const struct an_scope *s, struct an_check_verdict *v)
{
    size_t bad = 0;
    an_buf_puts(&v->subject, "Every tool result");
    an_buf_puts(&v->verb, "have status \"ok\"");
    an_buf_puts(&v->expected, "status \"ok\"");
    an_buf_puts(&v->negated_expected, "a result with another status");
    for (size_t i = 0; i < s->ncalls; i++) {
        const struct an_tool_call *c = &s->calls[i];
        if (!c->status || !strcmp(c->status, "ok"))
            continue;
        if (++bad > CHK_LIST)
            continue;
        if (bad > 1)
            an_buf_puts(&v->actual, "; ");
        an_buf_printf(&v->actual, "call #%zu ", i + 1);
        chk_quote(&v->actual, c->name ? c->name : "", c->name ? strlen(c->name) : 0);
        an_buf_puts(&v->actual, " status ");
        chk_quote(&v->actual, c->status, strlen(c->status));
        if (c->result && !json_is_null(c->result)) {
            an_buf_puts(&v->actual, ": ");
            chk_quote_json(&v->actual, c->result);
        }
    }
    if (bad > CHK_LIST)
        an_buf_printf(&v->actual, "; and %zu more", bad - CHK_LIST);
    v->ok = bad == 0;
    if (v->ok) {
        size_t n = 0;
        for (size_t i = 0; i < s->ncalls; i++)
            n += s->calls[i].status != NULL;
        an_buf_printf(&v->actual, "%zu result%s, all ok", n, n == 1 ? "" : "s");
    }
}

void an_ck_eval_case(const struct an_check_item *it, const struct an_scope *s, const char *text,
                     size_t len, struct an_check_verdict *v)
{
    (void)text;
    (void)len;
    switch (it->kind) {
    case AN_CHECK_ACTION_REQUIRED:
        action_required(it, s, v);
        return;
    case AN_CHECK_TOOL_SEQUENCE:
        tool_sequence(it, s, v);
        return;
    case AN_CHECK_RETRIEVAL_REQUIRED:
        retrieval_required(it, s, v);
        return;
    case AN_CHECK_JSON_SCHEMA:
        json_schema(it, s, v);
        return;
    case AN_CHECK_EVIDENCE_REQUIRED:
        evidence_required(it, s, v);
        return;
    case AN_CHECK_TOOL_EXECUTION:
        tool_execution(s, v);
        return;
    default:
        return;
    }
}
