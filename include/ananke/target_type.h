/*
 * Target types (protocol adapters): one row per `target.type`, as curl's
 * `protocols[]` is. The loader, the runner and the CLI reach a protocol only
 * through its row: the name, how its keys load, which turn types it takes,
 * how a session is opened on it, how it is described.
 *
 * A target (ananke/model.h `struct an_target`) holds what every protocol
 * has (type, loc, headers, timeout_ms, assert, start); the rest is the
 * adapter's own, behind `an_target.data`: a struct defined in the adapter's
 * header, allocated from the suite's arena by the row's load() (use
 * an_target_alloc), read by its open().
 *
 * A row's open() hands back a session: a `struct an_session` whose ops
 * (ananke/session.h) run one turn at a time.
 *
 * Rows are static and live as long as the program: the built-in ones are a
 * table in the library (run/target_type.c); an_target_type_register() adds
 * one from outside (tests/extension/target_echo.c does, from a constructor).
 * Registration is not thread-safe: do it before the first load.
 *
 * Adding a protocol is docs/internals.md "Adding a protocol (target type)".
 */
#ifndef ANANKE_TARGET_TYPE_H
#define ANANKE_TARGET_TYPE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

struct an_ld;      /* a load in progress (load/schema.h) */
struct an_ynode;   /* a YAML node (core/yaml.h) */
struct an_session; /* an open conversation (ananke/session.h) */
struct an_target;
struct an_test;
struct an_tmpl;
struct an_vars;
struct an_target_over;

/* A bit per enum an_turn_type (ananke/model.h), for an_target_type.turns. */
#define AN_TURN_BIT(type) (1u << (unsigned)(type))

/* What an_target_type.open() gets besides the target. */
struct an_target_open_ctx {
    const struct an_test *test;        /* NULL: a helper agent (no history, options, timeout) */
    const struct an_vars *vars;        /* the run's variables for templates */
    const char *sandbox;               /* the per-test directory (rows with `sandbox`); NULL */
    const char *project_dir;           /* where commands run */
    const struct an_target_over *over; /* a helper agent's call's changes; NULL: none */
};

/* Called by an_target_type.secrets() for each template that may carry a
 * credential: `key` "api_key" (name NULL: always a secret) or "env" (name:
 * the variable's; a secret when the name or a ${ENV.X} in it says so). */
typedef void (*an_target_secret_fn)(void *ud, const char *key, const char *name,
                                    const struct an_tmpl *value);

struct an_target_type {
    const char *name; /* `type: NAME` */
    /* The map n (the target, `type` included) into t: the row's own keys
     * (an unknown one is an error naming it, as an_target_keys says) into
     * t->data, and the common `headers` when the type has them. timeout_ms,
     * assert and start are loaded after it, by the caller. */
    int (*load)(struct an_ld *ld, const struct an_ynode *n, struct an_target *t);
    /* After the common keys (NULL: nothing): e.g. checks the type always makes. */
    int (*finish)(struct an_ld *ld, struct an_target *t);
    /* The turn types it runs (AN_TURN_BIT of each); a test with another is
     * refused at load time, at the turn. */
    unsigned turns;
    /* The refusal of a user turn when `turns` lacks AN_TURN_USER (NULL:
     * every such type says "a user turn needs another target type"). */
    const char *user_refused;
    /* More a test must fit (NULL: nothing): checked after its turn types,
     * or, for a dynamic test (test->dyn), before them. */
    int (*check_test)(const struct an_target *t, const struct an_test *test, struct an_err *err);
    /* Interpolate t with ctx->vars into *conf (the type's own, which the
     * session borrows; set even on failure) and open the test's session. */
    int (*open)(const struct an_target *t, const struct an_target_open_ctx *ctx, void **conf,
                struct an_session **out, struct an_err *err);
    void (*conf_free)(void *conf); /* NULL-safe */
    bool sandbox;                  /* each test gets its own directory (${SANDBOX}) */
    bool bare_model;               /* a bare model: a helper's message opens with its instruction */
    /* Why it cannot be a helper agent (`agents:`); NULL: it can. */
    const char *not_helper;
    /* What `run` names it by (a URL, a command), as written; NULL: `unnamed`. */
    const struct an_tmpl *(*where)(const struct an_target *t);
    const char *unnamed; /* NULL: the type's name */
    /* The model it talks to, shown by `run` (NULL row or result: none). */
    const char *(*model)(const struct an_target *t);
    /* A command-line override of one of its keys: "model" (--connector),
     * "protocol" (--protocol). It changes a copy of t->data (an agent that
     * -n picked shares it), from ld's arena. AN_ENOTFOUND, nothing said,
     * when the type has no such key; NULL: it has none. */
    int (*set)(struct an_ld *ld, struct an_target *t, const char *key, const char *value,
               const struct an_loc *at);
    /* Its keys as written (templates, never values) into o, for the run's
     * record; `brief`: only what a generator agent is shown. NULL: none. */
    void (*describe)(const struct an_target *t, json_t *o, bool brief);
    /* Its templates that may carry credentials (NULL: none but headers). */
    void (*secrets)(const struct an_target *t, an_target_secret_fn fn, void *ud);
};

/* Add a row. Its name must be new: false (and nothing added) for a name
 * taken or a row without name, load or open. The row is borrowed for good. */
bool an_target_type_register(const struct an_target_type *row);

/* The row called `name`; NULL: none. */
const struct an_target_type *an_target_type_find(const char *name);

/* --protocol and the like after loading (an_target_type.set on the suite's
 * target): AN_ENOTFOUND, nothing said, when its type has no such key; err
 * may be NULL. */
struct an_suite;
int an_suite_target_set(struct an_suite *s, const char *key, const char *value, struct an_err *err);

/* Every row's name, built-in ones first, NULL-terminated; static (a later
 * registration adds to it). */
const char *const *an_target_type_names(void);

/* ---- for a row's load(): the loader's helpers, errors with file:line:col ---- */

/* Every key of the map n must be one of `keys` (NULL-terminated); `what`
 * names the map in the error ("an echo target"), which says "did you mean". */
int an_target_keys(struct an_ld *ld, const struct an_ynode *n, const char *const *keys,
                   const char *what);
/* The string at `key` of the map n into *out (and its place into *loc when
 * loc is not NULL); an absent key leaves both as they were. */
int an_target_key_string(struct an_ld *ld, const struct an_ynode *n, const char *key,
                         const char **out, struct an_loc *loc);
/* Zeroed memory from the suite's arena (for t->data), freed with the suite. */
void *an_target_alloc(struct an_ld *ld, size_t size);
/* A schema error at loc; returns its code. */
int an_target_fail(struct an_ld *ld, const struct an_loc *loc, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
