#include "scenario_rules.h"

#include <stdlib.h>
#include <string.h>

#include "scenario_util.h"

static int load_tree(void *scenario, const struct scn_rules_kind *kind, const struct an_ynode *root,
                     struct an_err *err);

int scn_rules_load(void **out, const struct scn_rules_kind *kind, const char *name,
                   const char *data, size_t len, struct an_err *err)
{
    struct scn_rules_head *head = an_xcalloc(1, kind->size);
    if (pthread_mutex_init(&head->lock, NULL) != 0)
        an_oom(); /* only fails for lack of resources */
    struct an_ynode *root = NULL;
    int rc = data ? an_yaml_load_mem(&root, name, data, len, &head->arena, err)
                  : an_yaml_load_file(&root, name, &head->arena, err);
    if (!rc)
        rc = load_tree(head, kind, root, err);
    if (rc) {
        scn_rules_free(head);
        *out = NULL;
        return rc;
    }
    head->path = an_arena_strdup(&head->arena, name);
    *out = head;
    return 0;
}

void scn_rules_free(struct scn_rules_head *head)
{
    if (!head)
        return;
    an_arena_release(&head->arena);
    pthread_mutex_destroy(&head->lock);
    free(head);
}

static int load_rule(void *scenario, const struct scn_rules_kind *kind, void *rule,
                     const struct an_ynode *n, bool is_default, struct an_err *err)
{
    const char *what = is_default ? "'default'" : "a rule";
    int rc;
    if ((rc = scn_want_map(n, what, err)))
        return rc;
    kind->init_rule(rule, n, is_default);
    for (size_t i = 0; i < n->npairs; i++) {
        const struct an_ynode *k = n->pairs[i].key;
        if (!scn_in_list(kind->rule_keys, k->str)) {
            const char *const *lists[] = {kind->rule_keys, NULL};
            return scn_unknown_key(k, is_default ? "default" : "rule", lists, err);
        }
        if (is_default && scn_in_list(kind->selector_keys, k->str))
            return an_fail(err, AN_ESCHEMA, &k->loc,
                           "'%s' has no meaning in 'default' (it answers what no rule matched)",
                           k->str);
        if ((rc = kind->load_key(scenario, rule, k, n->pairs[i].value, err)))
            return rc;
    }
    return kind->check_rule(scenario, rule, n, what, err);
}

/* Check that root is a map of kind->top_keys, load each item of `rules`
 * into an array of kind->rule_size elements and `default`, when present,
 * into the scenario's fields (kind->rules_at …), then the protocol's other
 * keys (kind->load_rest). */
static int load_tree(void *scenario, const struct scn_rules_kind *kind, const struct an_ynode *root,
                     struct an_err *err)
{
    /* The fields are typed pointers of the protocol's struct: stored with
     * memcpy, not through a void ** that would alias them. */
    char *base = scenario;
    struct an_arena *arena = &((struct scn_rules_head *)scenario)->arena;
    size_t *nrules = (size_t *)(base + kind->nrules_at);
    int rc;
    if (root->kind != AN_Y_MAP)
        return an_fail(err, AN_ESCHEMA, &root->loc,
                       "a scenario must be a map with 'rules' (and 'default'), not %s",
                       an_yaml_kind_name(root));
    if ((rc = scn_check_keys(root, kind->top_keys, "scenario", err)))
        return rc;
    const struct an_ynode *list = an_yaml_get(root, "rules");
    if (list && !an_yaml_is_null(list)) {
        if (list->kind != AN_Y_SEQ)
            return an_fail(err, AN_ESCHEMA, &list->loc, "'rules' must be a list, not %s",
                           an_yaml_kind_name(list));
        char *items = an_arena_alloc(arena, (list->nitems ? list->nitems : 1) * kind->rule_size);
        memcpy(base + kind->rules_at, &items, sizeof items);
        for (size_t i = 0; i < list->nitems; i++) {
            if ((rc = load_rule(scenario, kind, items + i * kind->rule_size, list->items[i], false,
                                err)))
                return rc;
            (*nrules)++;
        }
    }
    const struct an_ynode *def = an_yaml_get(root, "default");
    if (def) {
        void *fallback = an_arena_alloc(arena, kind->rule_size);
        memcpy(base + kind->fallback_at, &fallback, sizeof fallback);
        if ((rc = load_rule(scenario, kind, fallback, def, true, err)))
            return rc;
    }
    return kind->load_rest ? kind->load_rest(scenario, root, err) : 0;
}

void *scn_rules_pick(struct scn_rules_head *head, void *rules, size_t n, size_t size,
                     bool (*take)(void *rule, const void *req), const void *req, void *fallback)
{
    char *found = NULL;
    pthread_mutex_lock(&head->lock);
    for (size_t i = 0; i < n && !found; i++)
        if (take((char *)rules + i * size, req))
            found = (char *)rules + i * size;
    pthread_mutex_unlock(&head->lock);
    return found ? found : fallback;
}
