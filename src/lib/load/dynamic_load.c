/* Dynamic tests: simulator, checkpoints, max_turns, timeout (dynamic_load.h). */
#include "load/dynamic_load.h"

#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

static const char *const cp_keys[] = {"id",    "description", "assertion", "assert",
                                      "after", "required",    NULL};

static void json_release(void *p)
{
    json_decref(p);
}

static int load_checks(struct an_ld *ld, json_t *list, const struct an_ck_src *src, const char *key,
                       struct an_assert *blk)
{
    json_t *one = NULL;
    if (!json_is_array(list)) {
        one = json_array();
        json_array_append(one, list);
        list = one;
    }
    int rc = 0;
    size_t n = json_array_size(list);
    if (!n) {
        json_decref(one);
        return an_ck_fail(ld, src, key, "a checkpoint's '%s' must hold at least one check", key);
    }
    blk->loc = an_ck_key_loc(src, key);
    blk->checks = an_arena_alloc(ld->a, n * sizeof *blk->checks);
    for (size_t i = 0; i < n && !rc; i++) {
        struct an_ck_src csrc = an_ck_child(src, key, i);
        rc = an_check_item_load(ld, json_array_get(list, i), &csrc, AN_LEVEL_TURN,
                                &blk->checks[blk->nchecks]);
        if (!rc)
            blk->nchecks++;
    }
    if (one) /* the items are borrowed from `list`: keep the wrapper with the suite */
        an_arena_defer(ld->a, json_release, one);
    return rc;
}

static int load_checkpoint(struct an_ld *ld, json_t *o, const struct an_ck_src *src,
                           struct an_checkpoint *cp)
{
    cp->loc = src->loc;
    cp->required = true;
    if (!json_is_object(o))
        return an_fail(ld->err, AN_ESCHEMA, &src->loc,
                       "a checkpoint must be an object {id, description, assertion, after}");
    const char *k;
    json_t *v;
    json_object_foreach(o, k, v)
    {
        bool ok = false;
        for (size_t j = 0; cp_keys[j] && !ok; j++)
            ok = !strcmp(k, cp_keys[j]);
        if (ok)
            continue;
        const char *near = an_closest(k, cp_keys);
        return an_ck_fail(ld, src, k, "unknown key '%s' in a checkpoint%s%s%s", k,
                          near ? " (did you mean '"
                               : " (valid keys: id, description, assertion, "
                                 "after, required)",
                          near ? near : "", near ? "'?)" : "");
    }
    if (!(cp->id = json_string_value(json_object_get(o, "id"))) || !*cp->id)
        return an_ck_fail(ld, src, json_object_get(o, "id") ? "id" : "",
                          "a checkpoint needs 'id' (a non-empty string)");
    if ((v = json_object_get(o, "description"))) {
        if (!json_is_string(v))
            return an_ck_fail(ld, src, "description", "'description' must be a string");
        cp->description = json_string_value(v);
    }
    json_t *a = json_object_get(o, "assertion"), *b = json_object_get(o, "assert");
    if (a && b)
        return an_ck_fail(ld, src, "assert",
                          "a checkpoint takes 'assertion' or 'assert', not both");
    if (!a && !b)
        return an_ck_fail(ld, src, "id",
                          "checkpoint '%s' needs 'assertion' (a check, or a list of checks that "
                          "must all hold on one turn)",
                          cp->id);
    int rc = load_checks(ld, a ? a : b, src, a ? "assertion" : "assert", &cp->blk);
    if (rc)
        return rc;
    if ((v = json_object_get(o, "after"))) {
        json_t *one = json_is_string(v) ? json_pack("[O]", v) : NULL;
        json_t *list = one ? one : v;
        if (!json_is_array(list))
            return an_ck_fail(ld, src, "after", "'after' must be a checkpoint id or a list of ids");
        cp->nafter = json_array_size(list);
        cp->after = an_arena_alloc(ld->a, (cp->nafter ? cp->nafter : 1) * sizeof *cp->after);
        for (size_t i = 0; i < cp->nafter; i++) {
            const char *id = json_string_value(json_array_get(list, i));
            if (!id || !*id) {
                json_decref(one);
                return an_ck_fail(ld, src, "after", "'after' must hold checkpoint ids (strings)");
            }
            cp->after[i] = an_arena_strdup(ld->a, id);
        }
        json_decref(one);
    }
    if ((v = json_object_get(o, "required"))) {
        if (!json_is_boolean(v))
            return an_ck_fail(ld, src, "required", "'required' must be true or false");
        cp->required = json_is_true(v);
    }
    return 0;
}

/* Every `after` names an earlier-declared or later checkpoint, none itself,
 * and the order has no cycle (it could never be satisfied). */
static int check_order(struct an_ld *ld, const struct an_dynamic *d)
{
    size_t n = d->ncheckpoints;
    for (size_t i = 0; i < n; i++) {
        const struct an_checkpoint *cp = &d->checkpoints[i];
        for (size_t k = 0; k < i; k++)
            if (!strcmp(d->checkpoints[k].id, cp->id))
                return an_fail(ld->err, AN_ESCHEMA, &cp->loc,
                               "checkpoint id '%s' is used twice (first at line %u)", cp->id,
                               d->checkpoints[k].loc.line);
    }
    for (size_t i = 0; i < n; i++) {
        const struct an_checkpoint *cp = &d->checkpoints[i];
        for (size_t a = 0; a < cp->nafter; a++) {
            size_t k = 0;
            while (k < n && strcmp(d->checkpoints[k].id, cp->after[a]))
                k++;
            if (k == n) {
                const char **ids = an_xcalloc(n + 1, sizeof *ids);
                for (size_t j = 0; j < n; j++)
                    ids[j] = d->checkpoints[j].id;
                const char *near = an_closest(cp->after[a], ids);
                free(ids);
                return an_fail(ld->err, AN_ESCHEMA, &cp->loc,
                               "checkpoint '%s' comes after '%s', which is no checkpoint of "
                               "this test%s%s%s",
                               cp->id, cp->after[a], near ? " (did you mean '" : "",
                               near ? near : "", near ? "'?)" : "");
            }
            if (k == i)
                return an_fail(ld->err, AN_ESCHEMA, &cp->loc,
                               "checkpoint '%s' cannot come after itself", cp->id);
        }
    }
    /* cycles: repeatedly mark the checkpoints whose `after` are all marked */
    bool *ok = an_xcalloc(n ? n : 1, sizeof *ok);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < n; i++) {
            if (ok[i])
                continue;
            bool all = true;
            for (size_t a = 0; a < d->checkpoints[i].nafter && all; a++)
                for (size_t k = 0; k < n; k++)
                    if (!strcmp(d->checkpoints[k].id, d->checkpoints[i].after[a]))
                        all = ok[k];
            if (all)
                ok[i] = changed = true;
        }
    }
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        if (!ok[i])
            rc = an_fail(ld->err, AN_ESCHEMA, &d->checkpoints[i].loc,
                         "checkpoint '%s' can never be reached: its 'after' ids wait for each "
                         "other in a cycle",
                         d->checkpoints[i].id);
    free(ok);
    return rc;
}

int an_dynamic_load(struct an_ld *ld, json_t *obj, const struct an_ck_src *src,
                    struct an_dynamic **out)
{
    struct an_dynamic *d = an_arena_alloc(ld->a, sizeof *d);
    d->loc = src->loc;
    d->max_turns = AN_DYN_DEFAULT_MAX_TURNS;
    d->timeout_ms = AN_DYN_DEFAULT_TIMEOUT_MS;
    *out = d;
    json_t *sim = json_object_get(obj, "simulator"), *v;
    if (sim) {
        d->simulator_loc = an_ck_key_loc(src, "simulator");
        if (json_is_string(sim)) {
            d->simulator_name = json_string_value(sim);
        } else if (json_is_object(sim)) {
            const char *k;
            json_object_foreach(sim, k, v)
            {
                if (strcmp(k, "use") && strcmp(k, "options"))
                    return an_ck_fail(ld, src, "simulator",
                                      "unknown key '%s' in 'simulator' (use, options)", k);
            }
            v = json_object_get(sim, "use");
            if (v && (!json_is_string(v) || !json_string_length(v)))
                return an_ck_fail(ld, src, "simulator",
                                  "'simulator.use' must name an agent of the config's 'agents:'");
            d->simulator_name = json_string_value(v);
            v = json_object_get(sim, "options");
            if (v && !json_is_object(v))
                return an_ck_fail(ld, src, "simulator",
                                  "'simulator.options' must be an object such as "
                                  "{\"metadata\": {\"persona\": \"...\", \"goal\": \"...\"}}");
            d->simulator_options = v;
        } else {
            return an_ck_fail(ld, src, "simulator",
                              "'simulator' must be {use: AGENT, options: {metadata: {persona, "
                              "goal}}}");
        }
        /* seed 002: `use` names an agent without a prefix; agents:NAME is read too */
        if (d->simulator_name && !strncmp(d->simulator_name, "agents:", 7))
            d->simulator_name += 7;
    }
    json_t *cps = json_object_get(obj, "checkpoints");
    if (!json_is_array(cps) || !json_array_size(cps))
        return an_ck_fail(ld, src, cps ? "checkpoints" : "simulator",
                          "a dynamic test needs 'checkpoints': a non-empty list of {id, "
                          "description, assertion, after}");
    d->ncheckpoints = json_array_size(cps);
    d->checkpoints = an_arena_alloc(ld->a, d->ncheckpoints * sizeof *d->checkpoints);
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        struct an_ck_src csrc = an_ck_child(src, "checkpoints", i);
        int rc = load_checkpoint(ld, json_array_get(cps, i), &csrc, &d->checkpoints[i]);
        if (rc)
            return rc;
    }
    bool any_required = false;
    for (size_t i = 0; i < d->ncheckpoints; i++)
        any_required |= d->checkpoints[i].required;
    if (!any_required)
        return an_ck_fail(ld, src, "checkpoints",
                          "every checkpoint is 'required: false': at least one must be "
                          "required, or the test could pass without the agent doing anything");
    if ((v = json_object_get(obj, "max_turns"))) {
        if (!json_is_integer(v) || json_integer_value(v) < 1 || json_integer_value(v) > 1000)
            return an_ck_fail(ld, src, "max_turns",
                              "'max_turns' must be a whole number from 1 "
                              "to 1000");
        d->max_turns = json_integer_value(v);
    }
    if ((v = json_object_get(obj, "timeout")) && !an_duration_json(v, &d->timeout_ms))
        return an_ck_fail(ld, src, "timeout",
                          "'timeout' must be a duration such as \"30s\", \"5m\" or \"1m30s\", "
                          "or a number of milliseconds");
    return check_order(ld, d);
}

int an_dynamic_resolve(const struct an_config *cfg, struct an_dynamic *d, const char *fallback,
                       struct an_err *err)
{
    const char *name = d->simulator_name ? d->simulator_name : fallback;
    const struct an_loc *at = d->simulator_name ? &d->simulator_loc : &d->loc;
    if (!name)
        return an_fail(err, AN_ESCHEMA, at,
                       "a dynamic test needs a simulator: 'simulator: {use: AGENT}' here, or "
                       "--simulator AGENT");
    for (size_t i = 0; i < cfg->nagents && !d->simulator; i++)
        if (!strcmp(cfg->agents[i].name, name))
            d->simulator = &cfg->agents[i];
    if (!d->simulator) {
        const char **names = an_xcalloc(cfg->nagents + 1, sizeof *names);
        for (size_t i = 0; i < cfg->nagents; i++)
            names[i] = cfg->agents[i].name;
        const char *near = an_closest(name, names);
        free(names);
        return an_fail(err, AN_ESCHEMA, at,
                       "simulator '%s' is not an agent of the config's 'agents:'%s%s%s", name,
                       near ? " (did you mean '" : "", near ? near : "", near ? "'?)" : "");
    }
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        int rc = an_checks_resolve_agents(cfg, &d->checkpoints[i].blk, err);
        if (rc)
            return rc;
    }
    return 0;
}
