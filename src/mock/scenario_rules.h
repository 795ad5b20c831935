/*
 * The shape the HTTP mocks' scenarios (agui_scenario.c, http_scenario.c,
 * openai_scenario.c) share: a YAML map with `rules` (a list; the first rule
 * that takes a request answers it, at most `times` times) and an optional
 * `default` rule, loaded into one arena and checked completely before the
 * server listens. A protocol says what its rules hold; this file walks the
 * document, owns the memory and picks rules.
 *
 * A protocol's scenario is a struct whose first member is a struct
 * scn_rules_head (so a pointer to the one is a pointer to the other),
 * followed by its typed rules under these names (SCN_RULES_KIND_OF finds
 * them):
 *
 *     struct agui_scenario {
 *         struct scn_rules_head head;
 *         struct agui_rule *rules;
 *         size_t nrules;
 *         struct agui_rule *fallback;
 *     };
 *
 * Ownership: everything a scenario holds (strings, compiled regexes, rules)
 * lives in head.arena and goes away with scn_rules_free(); rules handed out
 * by scn_rules_pick() are borrowed until then.
 * Thread safety: after loading, a scenario is read-only except the rules'
 * use counters, which scn_rules_pick() updates under head.lock.
 */
#ifndef ANANKE_MOCK_SCENARIO_RULES_H
#define ANANKE_MOCK_SCENARIO_RULES_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "core/arena.h"
#include "core/yaml.h"

struct scn_rules_head {
    struct an_arena arena;
    const char *path;     /* the file (or name) it was loaded from */
    pthread_mutex_t lock; /* guards the rules' use counters */
};

/* What one protocol's scenario is. The callbacks get the scenario and a
 * rule as void pointers to the protocol's own structs. */
struct scn_rules_kind {
    size_t size;      /* of the scenario struct (head first) */
    size_t rule_size; /* of one rule */
    /* Where the scenario struct keeps its rules (an array), how many, and
     * `default` (a pointer, NULL when absent): see SCN_RULES_KIND_OF. */
    size_t rules_at, nrules_at, fallback_at;
    const char *const *top_keys;      /* keys of the scenario map */
    const char *const *rule_keys;     /* keys of a rule */
    const char *const *selector_keys; /* rule keys that choose requests: not in `default` */
    /* After `rules` and `default` are loaded: the protocol's other keys of
     * the document's root (which is a map of top_keys). NULL when it has
     * none. */
    int (*load_rest)(void *scenario, const struct an_ynode *root, struct an_err *err);
    /* A zeroed rule from map n, before its keys: its location and defaults. */
    void (*init_rule)(void *rule, const struct an_ynode *n, bool is_default);
    /* One key of a rule, in document order. */
    int (*load_key)(void *scenario, void *rule, const struct an_ynode *k, const struct an_ynode *v,
                    struct an_err *err);
    /* After the keys: the checks that involve more than one key. `what` is
     * "a rule" or "'default'". */
    int (*check_rule)(void *scenario, void *rule, const struct an_ynode *n, const char *what,
                      struct an_err *err);
};

/* The sizes and field offsets of a scenario struct S with members `rules`,
 * `nrules` and `fallback` whose rules are of type R, for the start of a
 * struct scn_rules_kind initializer. */
#define SCN_RULES_KIND_OF(S, R)                                                                    \
    .size = sizeof(S), .rule_size = sizeof(R), .rules_at = offsetof(S, rules),                     \
    .nrules_at = offsetof(S, nrules), .fallback_at = offsetof(S, fallback)

/* Load a scenario of `kind` from data[0..len), named `name` in locations,
 * or from the file `name` when data is NULL. On failure fills err (AN_EIO,
 * AN_EPARSE, AN_ESCHEMA, AN_EREGEX, AN_ELIMIT) with the offending node's
 * location and sets *out to NULL. The result is freed with
 * scn_rules_free(). */
int scn_rules_load(void **out, const struct scn_rules_kind *kind, const char *name,
                   const char *data, size_t len, struct an_err *err);
/* Free a scenario through its head. NULL-safe. */
void scn_rules_free(struct scn_rules_head *head);

/* The first of rules[0..n) (each `size` bytes) that `take` accepts, under
 * head->lock; else `fallback` (which may be NULL). `take` says whether the
 * rule answers `req` and, when it does, counts the use (see
 * scn_use). Thread-safe. */
void *scn_rules_pick(struct scn_rules_head *head, void *rules, size_t n, size_t size,
                     bool (*take)(void *rule, const void *req), const void *req, void *fallback);

#endif
