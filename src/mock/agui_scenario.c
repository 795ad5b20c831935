#include "agui_scenario.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/yaml.h"
#include "scenario_rules.h"
#include "scenario_util.h"

/* ---- key tables ---------------------------------------------------------- */

static const char *const top_keys[] = {"rules", "default", "input", "non_json", NULL};

static const char *const rule_keys[] = {
    "match",   "connect",      "path",    "times",       "status",
    "headers", "content_type", "framing", "data_prefix", "run",
    "start",   "finish",       "body",    "steps",       NULL};

/* Keys that choose requests; the default rule answers whatever no rule took,
 * so they would mean nothing there. */
static const char *const selector_keys[] = {"match", "connect", "path", "times", NULL};

struct step_kind {
    const char *key;
    enum agui_step_kind kind;
    const char *const *modifiers;
};

static const char *const text_mods[] = {"id",        "role", "chunks", "chunk_delay_ms",
                                        "timestamp", NULL};
static const char *const tool_mods[] = {"args",      "args_text", "result", "result_id",
                                        "id",        "parent",    "chunks", "chunk_delay_ms",
                                        "timestamp", "server",    "report", NULL};
static const char *const run_error_mods[] = {"code", "timestamp", NULL};
static const char *const no_mods[] = {NULL};

static const struct step_kind step_kinds[] = {
    {"text", AGUI_STEP_TEXT, text_mods},
    {"tool", AGUI_STEP_TOOL, tool_mods},
    {"delay_ms", AGUI_STEP_DELAY, no_mods},
    {"event", AGUI_STEP_EVENT, no_mods},
    {"comment", AGUI_STEP_COMMENT, no_mods},
    {"raw", AGUI_STEP_RAW, no_mods},
    {"run_error", AGUI_STEP_RUN_ERROR, run_error_mods},
    {"cut", AGUI_STEP_CUT, no_mods},
    {"stall", AGUI_STEP_STALL, no_mods},
    {"run_started", AGUI_STEP_RUN_STARTED, no_mods},
    {"run_finished", AGUI_STEP_RUN_FINISHED, no_mods},
};
#define NKINDS (sizeof step_kinds / sizeof step_kinds[0])

/* ---- steps --------------------------------------------------------------- */

static int load_step_kind(struct agui_scenario *s, struct agui_step *st, const struct an_ynode *v,
                          const char *key, struct an_err *err)
{
    bool b;
    int rc;
    switch (st->kind) {
    case AGUI_STEP_TEXT:
    case AGUI_STEP_COMMENT:
    case AGUI_STEP_RAW:
    case AGUI_STEP_RUN_ERROR:
        return scn_get_str(v, key, &st->str, &st->str_len, err);
    case AGUI_STEP_TOOL:
        if ((rc = scn_get_str(v, key, &st->str, &st->str_len, err)))
            return rc;
        if (st->str_len == 0)
            return an_fail(err, AN_ESCHEMA, &v->loc, "'tool' needs a tool name");
        return 0;
    case AGUI_STEP_DELAY:
        return scn_get_delay(v, key, &st->ms, err);
    case AGUI_STEP_EVENT:
        if (v->kind != AN_Y_MAP)
            return an_fail(err, AN_ESCHEMA, &v->loc,
                           "'event' must be a map (one JSON object), not %s", an_yaml_kind_name(v));
        return scn_get_json(&s->head.arena, v, &st->event, err);
    case AGUI_STEP_CUT:
    case AGUI_STEP_STALL:
    case AGUI_STEP_RUN_STARTED:
    case AGUI_STEP_RUN_FINISHED:
        if ((rc = scn_get_bool(v, key, &b, err)))
            return rc;
        if (!b)
            return an_fail(err, AN_ESCHEMA, &v->loc,
                           "'%s: false' does nothing; remove the step or write 'true'", key);
        return 0;
    }
    return 0;
}

static int load_step_modifier(struct agui_scenario *s, struct agui_step *st,
                              const struct an_ynode *k, const struct an_ynode *v,
                              struct an_err *err)
{
    const char *key = k->str;
    if (!strcmp(key, "id"))
        return scn_get_str(v, key, &st->id, NULL, err);
    if (!strcmp(key, "role"))
        return scn_get_str(v, key, &st->role, NULL, err);
    if (!strcmp(key, "parent"))
        return scn_get_str(v, key, &st->parent, NULL, err);
    if (!strcmp(key, "result_id"))
        return scn_get_str(v, key, &st->result_id, NULL, err);
    if (!strcmp(key, "code"))
        return scn_get_str(v, key, &st->code, NULL, err);
    if (!strcmp(key, "args_text"))
        return scn_get_str(v, key, &st->args, &st->args_len, err);
    if (!strcmp(key, "args"))
        return scn_get_text_or_json(&s->head.arena, v, &st->args, &st->args_len, err);
    if (!strcmp(key, "result"))
        return scn_get_text_or_json(&s->head.arena, v, &st->result, &st->result_len, err);
    if (!strcmp(key, "timestamp"))
        return scn_get_json(&s->head.arena, v, &st->timestamp, err);
    if (!strcmp(key, "chunks"))
        return scn_get_chunks(v, key, &st->chunks, err);
    if (!strcmp(key, "server"))
        return scn_get_str(v, key, &st->server, NULL, err);
    if (!strcmp(key, "report")) {
        bool b;
        int rc = scn_get_bool(v, key, &b, err);
        st->unreported = !b;
        return rc;
    }
    if (!strcmp(key, "chunk_delay_ms"))
        return scn_get_delay(v, key, &st->ms, err);
    return an_fail(err, AN_EINTERNAL, &k->loc, "unhandled step key '%s'", key);
}

static int load_step(struct agui_scenario *s, struct agui_step *st, const struct an_ynode *n,
                     struct an_err *err)
{
    int rc;
    const struct step_kind *kind = NULL;
    const struct an_ynode *kind_key = NULL;
    if ((rc = scn_want_map(n, "a step", err)))
        return rc;
    for (size_t i = 0; i < n->npairs; i++) {
        for (size_t k = 0; k < NKINDS; k++) {
            if (strcmp(n->pairs[i].key->str, step_kinds[k].key) != 0)
                continue;
            if (kind)
                return an_fail(err, AN_ESCHEMA, &n->pairs[i].key->loc,
                               "a step does one thing: it has both '%s' and '%s'", kind->key,
                               step_kinds[k].key);
            kind = &step_kinds[k];
            kind_key = n->pairs[i].key;
        }
    }
    if (!kind)
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "a step needs one of text, tool, delay_ms, event, comment, raw, "
                       "run_error, cut, stall, run_started, run_finished");
    st->kind = kind->kind;
    st->loc = n->loc;
    st->chunks = 1;
    if ((rc = load_step_kind(s, st, an_yaml_get(n, kind->key), kind->key, err)))
        return rc;
    for (size_t i = 0; i < n->npairs; i++) {
        const struct an_ynode *k = n->pairs[i].key;
        if (k == kind_key)
            continue;
        if (!scn_in_list(kind->modifiers, k->str)) {
            for (size_t j = 0; j < NKINDS; j++)
                if (scn_in_list(step_kinds[j].modifiers, k->str))
                    return an_fail(err, AN_ESCHEMA, &k->loc, "'%s' does not apply to a %s step",
                                   k->str, kind->key);
            char where[64];
            snprintf(where, sizeof where, "a %s step", kind->key);
            const char *const *lists[] = {kind->modifiers, NULL};
            return scn_unknown_key(k, where, lists, err);
        }
        if ((rc = load_step_modifier(s, st, k, n->pairs[i].value, err)))
            return rc;
    }
    if (an_yaml_get(n, "args") && an_yaml_get(n, "args_text"))
        return an_fail(err, AN_ESCHEMA, &n->loc, "give 'args' or 'args_text', not both");
    if (st->unreported && !st->server)
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "'report: false' needs 'server' (a call made and not reported)");
    if (st->kind == AGUI_STEP_TOOL && !st->args) {
        st->args = "{}";
        st->args_len = 2;
    }
    return 0;
}

static bool ends_stream(enum agui_step_kind k)
{
    return k == AGUI_STEP_RUN_ERROR || k == AGUI_STEP_CUT || k == AGUI_STEP_STALL;
}

static const char *kind_key(enum agui_step_kind k)
{
    for (size_t i = 0; i < NKINDS; i++)
        if (step_kinds[i].kind == k)
            return step_kinds[i].key;
    return "?";
}

static int load_steps(struct agui_scenario *s, struct agui_rule *r, const struct an_ynode *n,
                      struct an_err *err)
{
    int rc;
    if (n->kind != AN_Y_SEQ)
        return an_fail(err, AN_ESCHEMA, &n->loc, "'steps' must be a list, not %s",
                       an_yaml_kind_name(n));
    r->steps = an_arena_alloc(&s->head.arena, (n->nitems ? n->nitems : 1) * sizeof *r->steps);
    for (size_t i = 0; i < n->nitems; i++) {
        if (i > 0 && ends_stream(r->steps[i - 1].kind))
            return an_fail(err, AN_ESCHEMA, &n->items[i]->loc,
                           "this step is never sent: the stream ends at '%s' (line %u)",
                           kind_key(r->steps[i - 1].kind), r->steps[i - 1].loc.line);
        if ((rc = load_step(s, &r->steps[i], n->items[i], err)))
            return rc;
        r->nsteps++;
    }
    return 0;
}

/* ---- rules --------------------------------------------------------------- */

static void init_rule(void *rule, const struct an_ynode *n, bool is_default)
{
    struct agui_rule *r = rule;
    r->loc = n->loc;
    r->is_default = is_default;
    r->status = 200;
    r->framing = AGUI_FRAMING_LF;
    r->data_prefix = "data: ";
    r->run_auto = true;
}

static int load_rule_key(void *scenario, void *rule, const struct an_ynode *k,
                         const struct an_ynode *v, struct an_err *err)
{
    struct agui_scenario *s = scenario;
    struct agui_rule *r = rule;
    const char *key = k->str;
    const char *str = NULL;
    int rc;
    if (!strcmp(key, "match"))
        return scn_get_regex(&s->head.arena, v, key, &r->match, err);
    if (!strcmp(key, "connect"))
        return scn_get_bool(v, key, &r->connect, err);
    if (!strcmp(key, "path")) {
        if ((rc = scn_get_str(v, key, &r->path, NULL, err)))
            return rc;
        if (r->path[0] != '/')
            return an_fail(err, AN_ESCHEMA, &v->loc, "'path' must start with '/'");
        return 0;
    }
    if (!strcmp(key, "times"))
        return scn_get_int(v, key, 1, SCN_MAX_TIMES, &r->times, err);
    if (!strcmp(key, "status"))
        return scn_get_status(v, key, &r->status, err);
    if (!strcmp(key, "headers"))
        return scn_load_headers(&s->head.arena, v,
                                "set the content type with 'content_type', not in 'headers'",
                                &r->headers, &r->nheaders, err);
    if (!strcmp(key, "content_type")) {
        if ((rc = scn_get_str(v, key, &r->content_type, NULL, err)))
            return rc;
        if (strpbrk(r->content_type, "\r\n"))
            return an_fail(err, AN_ESCHEMA, &v->loc, "'content_type' must not contain line breaks");
        return 0;
    }
    if (!strcmp(key, "framing")) {
        if ((rc = scn_get_str(v, key, &str, NULL, err)))
            return rc;
        if (!strcmp(str, "lf"))
            r->framing = AGUI_FRAMING_LF;
        else if (!strcmp(str, "crlf"))
            r->framing = AGUI_FRAMING_CRLF;
        else if (!strcmp(str, "cr"))
            r->framing = AGUI_FRAMING_CR;
        else
            return an_fail(err, AN_ESCHEMA, &v->loc, "'framing' must be lf, crlf or cr, not '%s'",
                           str);
        return 0;
    }
    if (!strcmp(key, "data_prefix"))
        return scn_get_str(v, key, &r->data_prefix, NULL, err);
    if (!strcmp(key, "run")) {
        if ((rc = scn_get_str(v, key, &str, NULL, err)))
            return rc;
        if (!strcmp(str, "auto"))
            r->run_auto = true;
        else if (!strcmp(str, "none"))
            r->run_auto = false;
        else
            return an_fail(err, AN_ESCHEMA, &v->loc, "'run' must be auto or none, not '%s'", str);
        return 0;
    }
    if (!strcmp(key, "start") || !strcmp(key, "finish")) {
        bool start = key[0] == 's';
        if (v->kind != AN_Y_MAP)
            return an_fail(err, AN_ESCHEMA, &v->loc,
                           "'%s' must be a map of extra %s fields, not %s", key,
                           start ? "RUN_STARTED" : "RUN_FINISHED", an_yaml_kind_name(v));
        return scn_get_json(&s->head.arena, v, start ? &r->start : &r->finish, err);
    }
    if (!strcmp(key, "body"))
        return scn_get_text_or_json(&s->head.arena, v, &r->body, &r->body_len, err);
    if (!strcmp(key, "steps"))
        return load_steps(s, r, v, err);
    return an_fail(err, AN_EINTERNAL, &k->loc, "unhandled rule key '%s'", key);
}

/* The rule's checks that involve more than one key. */
static int check_rule(void *scenario, void *rule, const struct an_ynode *n, const char *what,
                      struct an_err *err)
{
    struct agui_scenario *s = scenario;
    struct agui_rule *r = rule;
    const struct an_ynode *steps = an_yaml_get(n, "steps");
    const struct an_ynode *body = an_yaml_get(n, "body");
    bool ok2xx = r->status >= 200 && r->status < 300;
    if (!ok2xx && steps)
        return an_fail(err, AN_ESCHEMA, &steps->loc,
                       "a rule with status %d sends 'body', not 'steps' (no stream)", r->status);
    if (ok2xx && steps && body)
        return an_fail(err, AN_ESCHEMA, &body->loc,
                       "give 'steps' (a stream) or 'body' (a plain answer), not both");
    if (ok2xx && !steps && !body)
        return an_fail(err, AN_ESCHEMA, &n->loc,
                       "%s with status %d needs 'steps' (or a plain 'body')", what, r->status);
    if (ok2xx && steps && r->nsteps == 0 && !r->run_auto)
        return an_fail(err, AN_ESCHEMA, &steps->loc,
                       "'steps' is empty and 'run' is none: nothing would be sent "
                       "(write body: \"\" for an empty answer)");
    if (r->finish && !r->run_auto)
        return an_fail(err, AN_ESCHEMA, &an_yaml_get(n, "finish")->loc,
                       "'finish' needs run: auto (there is no RUN_FINISHED with run: none)");
    if (r->start && !r->run_auto)
        return an_fail(err, AN_ESCHEMA, &an_yaml_get(n, "start")->loc,
                       "'start' needs run: auto (there is no RUN_STARTED with run: none)");
    if (!ok2xx && !body) {
        r->body = an_arena_printf(&s->head.arena, "{\"error\":\"scripted status %d\"}", r->status);
        r->body_len = strlen(r->body);
    }
    if (!r->content_type)
        r->content_type = steps ? "text/event-stream" : "application/json";
    return 0;
}

/* ---- scenario ------------------------------------------------------------ */

/* `input` and `non_json`, after the rules. */
static int load_rest(void *scenario, const struct an_ynode *root, struct an_err *err)
{
    struct agui_scenario *s = scenario;
    const struct an_ynode *in = an_yaml_get(root, "input");
    if (in) {
        bool strict = in->kind == AN_Y_SCALAR && !strcmp(in->str, "strict");
        if (!strict && !(in->kind == AN_Y_SCALAR && !strcmp(in->str, "lenient")))
            return an_fail(err, AN_ESCHEMA, &in->loc, "'input' is strict or lenient");
        s->strict_input = strict;
    }
    const struct an_ynode *nj = an_yaml_get(root, "non_json");
    if (nj) {
        bool run = nj->kind == AN_Y_SCALAR && !strcmp(nj->str, "run");
        if (!run && !(nj->kind == AN_Y_SCALAR && !strcmp(nj->str, "refuse")))
            return an_fail(err, AN_ESCHEMA, &nj->loc, "'non_json' is refuse or run");
        s->run_non_json = run;
    }
    return 0;
}

const struct scn_rules_kind agui_scenario_kind = {
    SCN_RULES_KIND_OF(struct agui_scenario, struct agui_rule),
    .top_keys = top_keys,
    .rule_keys = rule_keys,
    .selector_keys = selector_keys,
    .load_rest = load_rest,
    .init_rule = init_rule,
    .load_key = load_rule_key,
    .check_rule = check_rule,
};

static int load(struct agui_scenario **out, const char *name, const char *data, size_t len,
                struct an_err *err)
{
    void *s = NULL;
    int rc = scn_rules_load(&s, &agui_scenario_kind, name, data, len, err);
    *out = s;
    return rc;
}

int agui_scenario_load_mem(struct agui_scenario **out, const char *name, const char *data,
                           size_t len, struct an_err *err)
{
    return load(out, name, data, len, err);
}

int agui_scenario_load(struct agui_scenario **out, const char *path, struct an_err *err)
{
    return load(out, path, NULL, 0, err);
}

void agui_scenario_free(struct agui_scenario *s)
{
    scn_rules_free(s ? &s->head : NULL);
}

static bool rule_takes(void *rule, const void *view)
{
    struct agui_rule *r = rule;
    const struct agui_request_view *req = view;
    if (r->path && strcmp(r->path, req->path) != 0)
        return false;
    if (r->connect != req->connect)
        return false;
    if (r->match && !an_regex_search(r->match, req->user_text, req->user_text_len))
        return false;
    return scn_use(r->times, &r->used);
}

const struct agui_rule *agui_scenario_pick(struct agui_scenario *s,
                                           const struct agui_request_view *req)
{
    return scn_rules_pick(&s->head, s->rules, s->nrules, sizeof *s->rules, rule_takes, req,
                          s->fallback);
}

const char *agui_framing_eol(enum agui_framing f)
{
    switch (f) {
    case AGUI_FRAMING_CRLF:
        return "\r\n";
    case AGUI_FRAMING_CR:
        return "\r";
    case AGUI_FRAMING_LF:
        break;
    }
    return "\n";
}
