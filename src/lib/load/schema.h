/*
 * Schema helpers shared by the loaders: typed reads of YAML nodes that fail
 * with file:line:col and, for a misspelt key, "did you mean".
 */
#ifndef ANANKE_LOAD_SCHEMA_H
#define ANANKE_LOAD_SCHEMA_H

#include <stdbool.h>
#include <stdint.h>

#include "ananke/err.h"
#include "ananke/load.h"
#include "core/arena.h"
#include "core/strmap.h"
#include "core/yaml.h"

struct an_ld {
    struct an_arena *a;
    struct an_err *err;
    /* compiled regexes by source text: a pattern written in many tests is
     * compiled (and JIT-compiled) once for the whole suite. May be NULL. */
    struct an_strmap *regexes;
    /* where YAML trees go while a file is read (released after each file);
     * NULL: into `a` with everything else */
    struct an_arena *scratch;
    /* where a loader that can safely read on keeps an error (unknown keys,
     * bad values, bad regexes, wrong types: the part is left out and the
     * rest read): every mistake of a file at once. NULL: the first error
     * stops the file. Whoever sets it owns the list and must treat a list
     * that grew as a failed file. At most AN_LD_MAX_ERRS are kept; the
     * others are counted in `dropped`. */
    struct an_errlist *errs;
    size_t dropped;
};

#define AN_LD_MAX_ERRS 100

/* A part of a file failed with rc (its error in *ld->err). With ld->errs,
 * the error is kept there and 0 returned, so the loader reads on past the
 * part; without, rc. an_ld_keep(ld, 0) is 0. */
int an_ld_keep(struct an_ld *ld, int rc);

/* The valid key closest to `key` within a small edit distance, or NULL. */
#include "ananke/suggest.h" /* an_closest() */

/* Every key of `map` must be in `valid` (NULL-terminated). `where` names
 * the map in messages ("target", "a require rule"). */
int an_ld_keys(struct an_ld *ld, const struct an_ynode *map, const char *const *valid,
               const char *where);
int an_ld_expect(struct an_ld *ld, const struct an_ynode *n, enum an_ynode_kind kind,
                 const char *what);
/* A scalar that is not null: its text (numbers and booleans as written). */
int an_ld_string(struct an_ld *ld, const struct an_ynode *n, const char *what, const char **out);
/* A non-negative integer (what = the key, for messages). */
int an_ld_uint(struct an_ld *ld, const struct an_ynode *n, const char *what, int64_t *out);
/* A non-negative decimal number ("0.25", "3", "1e-3"). */
int an_ld_amount(struct an_ld *ld, const struct an_ynode *n, const char *what, double *out);
/* A required key: error at the map's location when absent. */
int an_ld_require(struct an_ld *ld, const struct an_ynode *map, const char *key, const char *where,
                  struct an_ynode **out);

/* A duration: "30s", "5m", "1m30s", "500ms" or a whole number of
 * milliseconds; from 1 ms to 1e12 ms. */
bool an_duration_json(const json_t *v, int64_t *ms);

#endif
