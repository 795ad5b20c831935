#include "openai_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/yaml.h"
#include "scenario_rules.h"
#include "scenario_util.h"

#define MAX_TOKENS 1000000000000LL

/* ---- key tables ---------------------------------------------------------- */

static const char *const top_keys[] = {"rules", "default", "models", NULL};

static const char *const rule_keys[] = {
    "match",  "model",          "after_tool", "times", "status", "headers", "error", "reply",
    "chunks", "chunk_delay_ms", "delay_ms",   "cut",   "stall",  "raw",     "body",  NULL};

/* Keys that choose requests; the default rule answers whatever no rule took,
 * so they would mean nothing there. */
static const char *const selector_keys[] = {"match", "model", "after_tool", "times", NULL};

/* Keys that shape a 2xx answer, meaningless next to an error status. */
static const char *const success_keys[] = {"reply", "chunks", "chunk_delay_ms", "cut", "stall",
                                           "raw",   NULL};

static const char *const reply_keys[] = {"text", "tool_calls", "finish_reason", "usage", NULL};
static const char *const call_keys[] = {"name", "args", "args_text", "id", "server", NULL};
static const char *const usage_keys[] = {"prompt_tokens", "completion_tokens", "total_tokens",
                                         NULL};
static const char *const error_keys[] = {"message", "type", "param", "code", NULL};

/* ---- small helpers ------------------------------------------------------- */

/* `cut: true` (after the first chunk) or `cut: N` (after N chunks). */
static int get_chunk_count(const struct an_ynode *n, const char *key, unsigned *out,
                           struct an_err *err)
{
    bool b;
    long long v;
    if (an_yaml_as_bool(n, &b)) {
        if (!b)
            return an_fail(err, AN_ESCHEMA, &n->loc,
                           "'%s: false' does nothing; remove it or write 'true'", key);
        *out = 1;
        return 0;
    }
    if (!an_yaml_as_int(n, &v))
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be true or a number of chunks, not %s",
                       key, an_yaml_kind_name(n));
    if (v < 1 || v > SCN_MAX_CHUNKS)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s' must be between 1 and %lld, not %lld", key,
                       SCN_MAX_CHUNKS, v);
    *out = (unsigned)v;
    return 0;
}

/* ---- reply --------------------------------------------------------------- */

static int load_call(struct oai_scenario *s, struct oai_call *c, const struct an_ynode *n,
                     struct an_err *err)
{
    int rc;
    if ((rc = scn_want_map(n, "a tool call", err)) ||
        (rc = scn_check_keys(n, call_keys, "a tool call", err)))
        return rc;
    c->loc = n->loc;
    const struct an_ynode *name = an_yaml_get(n, "name");
    const struct an_ynode *args = an_yaml_get(n, "args");
    const struct an_ynode *args_text = an_yaml_get(n, "args_text");
    const struct an_ynode *id = an_yaml_get(n, "id");
    if (!name)
        return an_fail(err, AN_ESCHEMA, &n->loc, "a tool call needs 'name'");
    if ((rc = scn_get_name(name, "name", &c->name, err)))
        return rc;
    if (id && (rc = scn_get_name(id, "id", &c->id, err)))
        return rc;
    const struct an_ynode *server = an_yaml_get(n, "server");
    if (server && (rc = scn_get_name(server, "server", &c->server, err)))
        return rc;
    if (args && args_text)
        return an_fail(err, AN_ESCHEMA, &scn_key_node(n, "args_text")->loc,
                       "give 'args' or 'args_text', not both");
    if (args_text)
        return scn_get_str(args_text, "args_text", &c->args, &c->args_len, err);
    if (args)
        return scn_get_text_or_json(&s->head.arena, args, &c->args, &c->args_len, err);
    c->args = "{}";
    c->args_len = 2;
    return 0;
}

static int load_usage(struct oai_reply *rp, const struct an_ynode *n, struct an_err *err)
{
    int rc;
    if ((rc = scn_want_map(n, "'usage'", err)) ||
        (rc = scn_check_keys(n, usage_keys, "'usage'", err)))
        return rc;
    const struct an_ynode *v;
    if ((v = an_yaml_get(n, "prompt_tokens")) &&
        (rc = scn_get_int(v, "prompt_tokens", 0, MAX_TOKENS, &rp->prompt_tokens, err)))
        return rc;
    if ((v = an_yaml_get(n, "completion_tokens")) &&
        (rc = scn_get_int(v, "completion_tokens", 0, MAX_TOKENS, &rp->completion_tokens, err)))
        return rc;
    if ((v = an_yaml_get(n, "total_tokens")) &&
        (rc = scn_get_int(v, "total_tokens", 0, MAX_TOKENS, &rp->total_tokens, err)))
        return rc;
    return 0;
}

static int load_reply(struct oai_scenario *s, struct oai_reply *rp, const struct an_ynode *n,
                      struct an_err *err)
{
    int rc;
    if ((rc = scn_want_map(n, "'reply'", err)) ||
        (rc = scn_check_keys(n, reply_keys, "'reply'", err)))
        return rc;
    const struct an_ynode *v;
    if ((v = an_yaml_get(n, "text")) &&
        (rc = scn_get_str(v, "text", &rp->text, &rp->text_len, err)))
        return rc;
    if ((v = an_yaml_get(n, "finish_reason")) &&
        (rc = scn_get_name(v, "finish_reason", &rp->finish_reason, err)))
        return rc;
    if ((v = an_yaml_get(n, "usage")) && (rc = load_usage(rp, v, err)))
        return rc;
    if ((v = an_yaml_get(n, "tool_calls"))) {
        if (v->kind != AN_Y_SEQ)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'tool_calls' must be a list, not %s",
                           an_yaml_kind_name(v));
        rp->calls = an_arena_alloc(&s->head.arena, (v->nitems ? v->nitems : 1) * sizeof *rp->calls);
        for (size_t i = 0; i < v->nitems; i++) {
            if ((rc = load_call(s, &rp->calls[i], v->items[i], err)))
                return rc;
            rp->ncalls++;
        }
    }
    return 0;
}

/* ---- error bodies -------------------------------------------------------- */

/* What the API says for the statuses scripts use most; others get a
 * generic message and the type of their class. */
static const struct {
    int status;
    const char *message, *type, *code;
} std_errors[] = {
    {400, "scripted status 400", "invalid_request_error", NULL},
    {401, "Incorrect API key provided.", "invalid_request_error", "invalid_api_key"},
    {403, "You are not allowed to sample from this model.", "invalid_request_error", NULL},
    {404, "The model does not exist or you do not have access to it.", "invalid_request_error",
     "model_not_found"},
    {429, "Rate limit reached. Please try again later.", "requests", "rate_limit_exceeded"},
    {500, "The server had an error while processing your request. Sorry about that!",
     "server_error", NULL},
    {503, "The engine is currently overloaded, please try again later.", "server_error", NULL},
};

/* The error of a non-2xx rule: the status's defaults, then the rule's
 * `error` map (n may be NULL). */
static int load_error(struct oai_scenario *s, struct oai_rule *r, const struct an_ynode *n,
                      struct an_err *err)
{
    int rc;
    r->error.message = an_arena_printf(&s->head.arena, "scripted status %d", r->status);
    r->error.type = r->status >= 500 ? "server_error" : "invalid_request_error";
    for (size_t i = 0; i < sizeof std_errors / sizeof std_errors[0]; i++)
        if (std_errors[i].status == r->status) {
            r->error.message = std_errors[i].message;
            r->error.type = std_errors[i].type;
            r->error.code = std_errors[i].code;
        }
    if (!n)
        return 0;
    if ((rc = scn_want_map(n, "'error'", err)) ||
        (rc = scn_check_keys(n, error_keys, "'error'", err)))
        return rc;
    const struct an_ynode *v;
    if ((v = an_yaml_get(n, "message")) &&
        (rc = scn_get_str(v, "message", &r->error.message, NULL, err)))
        return rc;
    if ((v = an_yaml_get(n, "type")) && (rc = scn_get_str(v, "type", &r->error.type, NULL, err)))
        return rc;
    /* param and code may be scripted as null, as the API often sends them */
    if ((v = an_yaml_get(n, "param")) && !an_yaml_is_null(v) &&
        (rc = scn_get_str(v, "param", &r->error.param, NULL, err)))
        return rc;
    if ((v = an_yaml_get(n, "code"))) {
        r->error.code = NULL;
        if (!an_yaml_is_null(v) && (rc = scn_get_str(v, "code", &r->error.code, NULL, err)))
            return rc;
    }
    return 0;
}

/* ---- rules --------------------------------------------------------------- */

static void init_rule(void *rule, const struct an_ynode *n, bool is_default)
{
    struct oai_rule *r = rule;
    r->loc = n->loc;
    r->is_default = is_default;
    r->status = 200;
    r->chunks = 1;
    r->reply.prompt_tokens = r->reply.completion_tokens = r->reply.total_tokens = -1;
}

static int load_rule_key(void *scenario, void *rule, const struct an_ynode *k,
                         const struct an_ynode *v, struct an_err *err)
{
    struct oai_scenario *s = scenario;
    struct oai_rule *r = rule;
    const char *key = k->str;
    if (!strcmp(key, "match"))
        return scn_get_regex(&s->head.arena, v, key, &r->match, err);
    if (!strcmp(key, "model"))
        return scn_get_name(v, key, &r->model, err);
    if (!strcmp(key, "after_tool"))
        return scn_get_name(v, key, &r->after_tool, err);
    if (!strcmp(key, "times"))
        return scn_get_int(v, key, 1, SCN_MAX_TIMES, &r->times, err);
    if (!strcmp(key, "status"))
        return scn_get_status(v, key, &r->status, err);
    if (!strcmp(key, "headers"))
        return scn_load_headers(&s->head.arena, v, "header 'Content-Type' cannot be scripted",
                                &r->headers, &r->nheaders, err);
    if (!strcmp(key, "error"))
        return 0; /* needs the status: read after every other key */
    if (!strcmp(key, "reply")) {
        r->has_reply = true;
        return load_reply(s, &r->reply, v, err);
    }
    if (!strcmp(key, "chunks"))
        return scn_get_chunks(v, key, &r->chunks, err);
    if (!strcmp(key, "chunk_delay_ms"))
        return scn_get_delay(v, key, &r->chunk_delay_ms, err);
    if (!strcmp(key, "delay_ms"))
        return scn_get_delay(v, key, &r->delay_ms, err);
    if (!strcmp(key, "cut"))
        return get_chunk_count(v, key, &r->cut, err);
    if (!strcmp(key, "stall"))
        return get_chunk_count(v, key, &r->stall, err);
    if (!strcmp(key, "raw"))
        return scn_get_str(v, key, &r->raw, &r->raw_len, err);
    if (!strcmp(key, "body"))
        return scn_get_text_or_json(&s->head.arena, v, &r->body, &r->body_len, err);
    return an_fail(err, AN_EINTERNAL, &k->loc, "unhandled rule key '%s'", key);
}

/* The rule's checks that involve more than one key. */
static int check_rule(void *scenario, void *rule, const struct an_ynode *n, const char *what,
                      struct an_err *err)
{
    struct oai_scenario *s = scenario;
    struct oai_rule *r = rule;
    int rc;
    const struct an_ynode *error = an_yaml_get(n, "error");
    const struct an_ynode *body = an_yaml_get(n, "body");
    bool ok2xx = r->status >= 200 && r->status < 300;
    if (!ok2xx) {
        for (size_t i = 0; i < n->npairs; i++)
            if (scn_in_list(success_keys, n->pairs[i].key->str))
                return an_fail(err, AN_ESCHEMA, &n->pairs[i].key->loc,
                               "a rule with status %d sends an error body; '%s' does not apply",
                               r->status, n->pairs[i].key->str);
        if (error && body)
            return an_fail(err, AN_ESCHEMA, &body->loc, "give 'error' or 'body', not both");
        if (!body && (rc = load_error(s, r, error, err)))
            return rc;
        return 0;
    }
    if (error)
        return an_fail(err, AN_ESCHEMA, &scn_key_node(n, "error")->loc,
                       "'error' needs a non-2xx status (this rule answers %d)", r->status);
    if (!r->has_reply && !body && !r->raw)
        return an_fail(err, AN_ESCHEMA, &n->loc, "%s needs 'reply' (or a plain 'body' or 'raw')",
                       what);
    if (!r->has_reply) {
        const char *const only_reply[] = {"chunks", "chunk_delay_ms", NULL};
        for (size_t i = 0; i < n->npairs; i++)
            if (scn_in_list(only_reply, n->pairs[i].key->str))
                return an_fail(err, AN_ESCHEMA, &n->pairs[i].key->loc,
                               "'%s' splits the generated stream; this rule has no 'reply'",
                               n->pairs[i].key->str);
    }
    if (r->cut && r->stall)
        return an_fail(err, AN_ESCHEMA, &scn_key_node(n, "stall")->loc,
                       "give 'cut' or 'stall', not both");
    return 0;
}

/* ---- scenario ------------------------------------------------------------ */

static void add_model(struct oai_scenario *s, const char *m, size_t *cap)
{
    for (size_t i = 0; i < s->nmodels; i++)
        if (!strcmp(s->models[i], m))
            return;
    if (s->nmodels == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        s->models = an_arena_grow(&s->head.arena, s->models, s->nmodels, ncap, sizeof *s->models);
        *cap = ncap;
    }
    s->models[s->nmodels++] = m;
}

static int load_models(struct oai_scenario *s, const struct an_ynode *n, struct an_err *err)
{
    int rc;
    size_t cap = 0;
    if (n->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'models' must be a list of names, not %s",
                       an_yaml_kind_name(n));
    if (n->nitems == 0) /* the answer echoes the first one when a request names none */
        return an_fail(err, AN_ESCHEMA, &n->loc, "'models' must name at least one model");
    for (size_t i = 0; i < n->nitems; i++) {
        const char *m = NULL;
        if ((rc = scn_get_name(n->items[i], "models", &m, err)))
            return rc;
        add_model(s, m, &cap);
    }
    return 0;
}

/* `models`, after the rules (without it, the rules' models). */
static int load_rest(void *scenario, const struct an_ynode *root, struct an_err *err)
{
    struct oai_scenario *s = scenario;
    const struct an_ynode *models = an_yaml_get(root, "models");
    if (models)
        return load_models(s, models, err);
    size_t cap = 0;
    for (size_t i = 0; i < s->nrules; i++)
        if (s->rules[i].model)
            add_model(s, s->rules[i].model, &cap);
    if (s->nmodels == 0)
        add_model(s, "mock-model", &cap);
    return 0;
}

const struct scn_rules_kind oai_scenario_kind = {
    SCN_RULES_KIND_OF(struct oai_scenario, struct oai_rule),
    .top_keys = top_keys,
    .rule_keys = rule_keys,
    .selector_keys = selector_keys,
    .load_rest = load_rest,
    .init_rule = init_rule,
    .load_key = load_rule_key,
    .check_rule = check_rule,
};

static int load(struct oai_scenario **out, const char *name, const char *data, size_t len,
                struct an_err *err)
{
    void *s = NULL;
    int rc = scn_rules_load(&s, &oai_scenario_kind, name, data, len, err);
    *out = s;
    return rc;
}

int oai_scenario_load_mem(struct oai_scenario **out, const char *name, const char *data, size_t len,
                          struct an_err *err)
{
    return load(out, name, data, len, err);
}

int oai_scenario_load(struct oai_scenario **out, const char *path, struct an_err *err)
{
    return load(out, path, NULL, 0, err);
}

void oai_scenario_free(struct oai_scenario *s)
{
    scn_rules_free(s ? &s->head : NULL);
}

static bool rule_takes(void *rule, const void *view)
{
    struct oai_rule *r = rule;
    const struct oai_request_view *req = view;
    if (r->model && (!req->model || strcmp(r->model, req->model) != 0))
        return false;
    if (r->after_tool) {
        if (req->turn != OAI_TURN_TOOL || !req->tool_name ||
            strcmp(r->after_tool, req->tool_name) != 0)
            return false;
    } else if (req->turn != OAI_TURN_USER) {
        return false;
    }
    if (r->match && !an_regex_search(r->match, req->user_text, req->user_text_len))
        return false;
    return scn_use(r->times, &r->used);
}

const struct oai_rule *oai_scenario_pick(struct oai_scenario *s, const struct oai_request_view *req)
{
    return scn_rules_pick(&s->head, s->rules, s->nrules, sizeof *s->rules, rule_takes, req,
                          s->fallback);
}
