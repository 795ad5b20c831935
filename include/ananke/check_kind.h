/*
 * Check kinds: one row per kind of typed check (`{type: contains, value:
 * ...}`), the single place a kind is described. From the rows come the
 * loader's key rules and messages ("unknown key", "did you mean",
 * "supported: ..."), the evaluation, the finding kinds, and the `check`
 * definition of the JSON Schemas (tests/unit/test_check_kinds.c fails when
 * schema/ differs from the rows). docs/internals.md "Adding a check kind".
 *
 * The built-in rows are a static table in the library; a program linked
 * with libananke adds its own with an_check_kind_register(), before it
 * loads anything (a constructor is the usual place; tests/extension/).
 * Rows and everything they point at are borrowed for the life of the
 * process.
 */
#ifndef ANANKE_CHECK_KIND_H
#define ANANKE_CHECK_KIND_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/model.h"
#include "ananke/transcript.h"

/* What a key holds, checked before the row's loader runs. AN_CK_ANY: the
 * loader checks it (its messages say what it wants). */
enum an_check_key_type {
    AN_CK_ANY = 0,
    AN_CK_BOOL,   /* true or false */
    AN_CK_INT,    /* a whole number */
    AN_CK_STRING, /* a non-empty string */
    AN_CK_OBJECT,
};

/* A key a check may hold. The JSON Schema's property is {"description":
 * doc} with the type's JSON Schema, and `schema` (JSON object text, may be
 * NULL) on top: "{\"minimum\": 1}". */
struct an_check_key {
    const char *name;
    enum an_check_key_type type;
    const char *doc;
    const char *schema;
};

/* Where the item being loaded was written (opaque). */
struct an_check_ctx;

/* A load error at `key` of the item (its file:line:col), AN_ESCHEMA; the
 * loader returns what this returns. */
int an_check_fail(struct an_check_ctx *cx, const char *key, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* What one check found, before `negate` (opaque). The finding's label is
 * "<subject> must[ not] <verb>"; `expected` or `negated_expected` is shown
 * as expected, as the check is meant. */
struct an_check_verdict;
enum an_check_part {
    AN_CV_SUBJECT = 0,
    AN_CV_VERB,
    AN_CV_EXPECTED,
    AN_CV_NEGATED_EXPECTED,
    AN_CV_ACTUAL,
    AN_CV_DETAIL,
};
void an_check_verdict_set(struct an_check_verdict *v, bool ok);
void an_check_verdict_printf(struct an_check_verdict *v, enum an_check_part part, const char *fmt,
                             ...) __attribute__((format(printf, 3, 4)));
/* s[0..len) in double quotes, escaped and cut as every finding quotes the
 * agent (so a looping agent cannot make a finding huge). */
void an_check_verdict_quote(struct an_check_verdict *v, enum an_check_part part, const char *s,
                            size_t len);

/* Reads the kind's own keys of `item` (a JSON object whose keys were
 * checked against the row, `type`, `negate`, `message`, `of` and
 * `ignore_case` already read into *out) into *out: `value`, `path`, `re`,
 * ... `item` lives as long as the suite: out->value may point into it.
 * Returns 0, or an_check_fail()'s code. */
typedef int an_check_load_fn(struct an_check_ctx *cx, json_t *item, struct an_check_item *out);
/* Judges one check on one scope: text[0..len) is what the check looks at
 * (the agent's text, or the state or messages as JSON when `of:` says so).
 * Sets the verdict's parts; `negate` is applied by the caller. */
typedef void an_check_eval_fn(const struct an_check_item *it, const struct an_scope *s,
                              const char *text, size_t len, struct an_check_verdict *v);

struct an_check_kind_def {
    const char *name;    /* as written in `type:`, e.g. "contains" */
    const char *finding; /* the finding kind, e.g. "check.contains" */
    /* the keys it takes besides type, value, negate and message, by name
     * (NULL-terminated; NULL = none); each is one of the built-in keys or
     * of `new_keys` */
    const char *const *keys;
    /* keys no built-in kind has (NULL-terminated by name; NULL = none); taken
     * by this kind, and by any other row that names them */
    const struct an_check_key *new_keys;
    an_check_load_fn *load;
    an_check_eval_fn *eval; /* NULL for an impure kind */
    /* judged by an_check() from the scope alone; false: the runner runs it
     * (script: run/script_check.c, agent: run/judge.c) */
    bool pure;
    /* judges tool calls, not text (a dynamic checkpoint's evidence) */
    bool tools;
    /* its verdict is turned around before `negate` (not_contains is contains
     * turned around) */
    bool inverted;
};

/* Adds a row; the new kind's id (>= AN_CHECK__BUILTIN), or -1 when the name
 * is taken, a key it names is unknown, the table is full (64 rows), or the
 * row is not pure with an evaluator (only the built-in impure kinds, script
 * and agent, have a runner). Not thread-safe: call it before anything is
 * loaded. */
int an_check_kind_register(const struct an_check_kind_def *def);

/* The row of a kind; NULL when there is none. */
const struct an_check_kind_def *an_check_kind_get(enum an_check_kind kind);
/* The row named `name` (its id in *kind); NULL when none. */
const struct an_check_kind_def *an_check_kind_find(const char *name, enum an_check_kind *kind);
/* How many rows: built-in and registered. */
size_t an_check_kind_count(void);

/* The JSON Schema of a typed check (definitions.check of
 * schema/ananke.test.schema.json and ananke.config.schema.json), derived from the rows; a new
 * reference. */
json_t *an_check_kinds_schema(void);

#endif
