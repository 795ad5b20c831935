#include "http_scenario.h"

#include <string.h>

#include "core/yaml.h"
#include "scenario_util.h"

static const char *const top_keys[] = {"rules", "default", NULL};

static const char *const rule_keys[] = {"case",         "version",   "times", "status",   "headers",
                                        "content_type", "response",  "body",  "delay_ms", "stall",
                                        "drop",         "mcp_calls", NULL};

/* Keys that choose requests: meaningless in `default`. */
static const char *const selector_keys[] = {"case", "version", "times", NULL};

/* Keys that shape an answer: a stall or a drop sends none. */
static const char *const answer_keys[] = {"status", "headers",  "content_type", "response",
                                          "body",   "delay_ms", "mcp_calls",    NULL};

/* `stall: true` / `drop: true`; false is refused as a no-op. */
static int get_true(const struct an_ynode *n, const char *key, bool *out, struct an_err *err)
{
    int rc = scn_get_bool(n, key, out, err);
    if (!rc && !*out)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'%s: false' does nothing; remove it", key);
    return rc;
}

/* mcp_calls: a list of {server, tool, arguments?, report?} */
static int load_mcp_calls(struct http_scenario *s, struct http_rule *r, const struct an_ynode *v,
                          struct an_err *err)
{
    static const char *const keys[] = {"server", "tool", "arguments", "report", NULL};
    if (v->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &v->loc, "'mcp_calls' must be a list of calls");
    for (size_t i = 0; i < v->nitems; i++) {
        const struct an_ynode *c = v->items[i], *x;
        int rc;
        const char *str;
        bool b;
        if ((rc = scn_want_map(c, "an MCP call", err)) ||
            (rc = scn_check_keys(c, keys, "an MCP call", err)))
            return rc;
        if (!an_yaml_get(c, "server") || !an_yaml_get(c, "tool"))
            return an_fail(err, AN_ESCHEMA, &c->loc, "an MCP call needs 'server' and 'tool'");
        if ((rc = scn_get_name(an_yaml_get(c, "server"), "server", &str, err)) ||
            (rc = scn_get_name(an_yaml_get(c, "tool"), "tool", &str, err)))
            return rc;
        if ((x = an_yaml_get(c, "arguments")) && x->kind != AN_Y_MAP)
            return an_fail(err, AN_ESCHEMA, &x->loc, "'arguments' must be a map");
        if ((x = an_yaml_get(c, "report")) && (rc = scn_get_bool(x, "report", &b, err)))
            return rc;
    }
    return scn_get_json(&s->head.arena, v, &r->mcp_calls, err);
}

static void init_rule(void *rule, const struct an_ynode *n, bool is_default)
{
    struct http_rule *r = rule;
    r->loc = n->loc;
    r->is_default = is_default;
    r->status = 200;
    r->content_type = "application/json";
}

static int load_rule_key(void *scenario, void *rule, const struct an_ynode *k,
                         const struct an_ynode *v, struct an_err *err)
{
    struct http_scenario *s = scenario;
    struct http_rule *r = rule;
    const char *key = k->str;
    if (!strcmp(key, "case")) {
        if (v->kind != AN_Y_SEQ) {
            r->cases = an_arena_alloc(&s->head.arena, sizeof *r->cases);
            r->ncases = 1;
            return scn_get_name(v, key, &r->cases[0], err);
        }
        if (!v->nitems)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'case' must name at least one case id");
        r->cases = an_arena_alloc(&s->head.arena, v->nitems * sizeof *r->cases);
        for (size_t i = 0; i < v->nitems; i++, r->ncases++) {
            int rc = scn_get_name(v->items[i], key, &r->cases[i], err);
            if (rc)
                return rc;
        }
        return 0;
    }
    if (!strcmp(key, "version"))
        return scn_get_name(v, key, &r->version, err);
    if (!strcmp(key, "times"))
        return scn_get_int(v, key, 1, SCN_MAX_TIMES, &r->times, err);
    if (!strcmp(key, "status"))
        return scn_get_status(v, key, &r->status, err);
    if (!strcmp(key, "headers"))
        return scn_load_headers(&s->head.arena, v, "set the content type with 'content_type'",
                                &r->headers, &r->nheaders, err);
    if (!strcmp(key, "content_type"))
        return scn_get_name(v, key, &r->content_type, err);
    if (!strcmp(key, "response"))
        return scn_get_json(&s->head.arena, v, &r->response, err);
    if (!strcmp(key, "body"))
        return scn_get_str(v, key, &r->body, &r->body_len, err);
    if (!strcmp(key, "delay_ms"))
        return scn_get_delay(v, key, &r->delay_ms, err);
    if (!strcmp(key, "stall"))
        return get_true(v, key, &r->stall, err);
    if (!strcmp(key, "drop"))
        return get_true(v, key, &r->drop, err);
    if (!strcmp(key, "mcp_calls"))
        return load_mcp_calls(s, r, v, err);
    return an_fail(err, AN_EINTERNAL, &k->loc, "unhandled rule key '%s'", key);
}

static int check_rule(void *scenario, void *rule, const struct an_ynode *n, const char *what,
                      struct an_err *err)
{
    (void)scenario;
    struct http_rule *r = rule;
    if (r->stall || r->drop) {
        const char *which = r->stall ? "stall" : "drop";
        if (r->stall && r->drop)
            return an_fail(err, AN_ESCHEMA, &scn_key_node(n, "drop")->loc,
                           "give 'stall' or 'drop', not both");
        for (size_t i = 0; i < n->npairs; i++)
            if (scn_in_list(answer_keys, n->pairs[i].key->str))
                return an_fail(err, AN_ESCHEMA, &n->pairs[i].key->loc,
                               "a rule with '%s' sends no answer; '%s' does not apply", which,
                               n->pairs[i].key->str);
        return 0;
    }
    if (r->response && r->body)
        return an_fail(err, AN_ESCHEMA, &scn_key_node(n, "body")->loc,
                       "give 'response' or 'body', not both");
    if (!r->response && !r->body)
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "%s needs 'response' (a run-case answer), 'body', 'stall' or 'drop'", what);
    return 0;
}

const struct scn_rules_kind http_scenario_kind = {
    SCN_RULES_KIND_OF(struct http_scenario, struct http_rule),
    .top_keys = top_keys,
    .rule_keys = rule_keys,
    .selector_keys = selector_keys,
    .init_rule = init_rule,
    .load_key = load_rule_key,
    .check_rule = check_rule,
};

int http_scenario_load(struct http_scenario **out, const char *name, const char *data, size_t len,
                       struct an_err *err)
{
    void *s = NULL;
    int rc = scn_rules_load(&s, &http_scenario_kind, name, data, len, err);
    *out = s;
    return rc;
}

void http_scenario_free(struct http_scenario *s)
{
    scn_rules_free(s ? &s->head : NULL);
}

struct pick_req {
    const char *case_id, *version;
};

static bool rule_takes(void *rule, const void *req)
{
    struct http_rule *r = rule;
    const struct pick_req *q = req;
    bool named = r->ncases == 0;
    for (size_t i = 0; i < r->ncases && !named; i++)
        named = !strcmp(r->cases[i], q->case_id);
    if (!named)
        return false;
    if (r->version && strcmp(r->version, q->version))
        return false;
    return scn_use(r->times, &r->used);
}

const struct http_rule *http_scenario_pick(struct http_scenario *s, const char *case_id,
                                           const char *version)
{
    struct pick_req q = {case_id, version};
    return scn_rules_pick(&s->head, s->rules, s->nrules, sizeof *s->rules, rule_takes, &q,
                          s->fallback);
}
