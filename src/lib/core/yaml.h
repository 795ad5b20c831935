/*
 * YAML documents as a tree of nodes that know where they were written.
 *
 * libyaml's event stream is folded into maps, sequences and scalars. Every
 * node has its file:line:col. Scalars remember whether they were quoted, so
 * `false` (a boolean) and "false" (a string) stay apart. Aliases are
 * resolved to the anchored node (shared, not copied); the total size of the
 * expanded tree is capped (AN_YAML_MAX_NODES) so alias bombs fail cleanly.
 *
 * Ownership: the tree lives in the arena given to an_yaml_load(); file
 * names in locations point at the arena's copy of `path`.
 */
#ifndef ANANKE_CORE_YAML_H
#define ANANKE_CORE_YAML_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "core/arena.h"

#include "ananke/limits.h" /* AN_YAML_MAX_BYTES */
#define AN_YAML_MAX_NODES 1000000u
#define AN_YAML_MAX_DEPTH 256u

enum an_ynode_kind { AN_Y_SCALAR, AN_Y_SEQ, AN_Y_MAP };

struct an_ynode;
struct an_ypair {
    struct an_ynode *key; /* always a scalar */
    struct an_ynode *value;
};

struct an_ynode {
    enum an_ynode_kind kind;
    struct an_loc loc;
    /* scalar */
    const char *str;
    size_t len;
    bool quoted;     /* single/double quoted or block scalar: always a string */
    const char *tag; /* explicit tag, e.g. "!!str"; NULL when none */
    /* seq */
    struct an_ynode **items;
    size_t nitems;
    /* map */
    struct an_ypair *pairs;
    size_t npairs;
};

/* Parse the first document of a file. A file with no document yields an
 * empty map whose loc is line 1. */
int an_yaml_load_file(struct an_ynode **out, const char *path, struct an_arena *a,
                      struct an_err *err);
/* Same, from memory; `name` is used in locations. */
int an_yaml_load_mem(struct an_ynode **out, const char *name, const char *data, size_t len,
                     struct an_arena *a, struct an_err *err);

/* The same with two arenas: nodes in `a`, strings and the file name in
 * `strings`, so a loader can drop the tree and keep the strings it uses. */
int an_yaml_load_file2(struct an_ynode **out, const char *path, struct an_arena *a,
                       struct an_arena *strings, struct an_err *err);
int an_yaml_load_mem2(struct an_ynode **out, const char *name, const char *data, size_t len,
                      struct an_arena *a, struct an_arena *strings, struct an_err *err);
/* an_yaml_load_file2, and the sha256 of the bytes it parsed into sum (32
 * bytes; NULL: none): a file is read once, its digest taken from the
 * bytes that were loaded (the run history's file_digest, config_digest) */
int an_yaml_load_file_sum(struct an_ynode **out, const char *path, struct an_arena *a,
                          struct an_arena *strings, unsigned char *sum, struct an_err *err);

/* Map lookup; NULL when absent or `map` is not a map. */
struct an_ynode *an_yaml_get(const struct an_ynode *map, const char *key);
const char *an_yaml_kind_name(const struct an_ynode *n); /* "a string", "a list", "a map" */

/* Typed scalars. Plain (unquoted) scalars only count as booleans / nulls /
 * numbers; a quoted "true" is a string. */
bool an_yaml_is_null(const struct an_ynode *n);
bool an_yaml_as_bool(const struct an_ynode *n, bool *out);
bool an_yaml_as_int(const struct an_ynode *n, long long *out);

/* Convert to JSON with YAML 1.2 core-schema typing of plain scalars.
 * New reference; NULL plus err on a node count over the cap. */
json_t *an_yaml_to_json(const struct an_ynode *n, struct an_err *err);

/* AN_EPARSE at the first scalar (key or value) holding a NUL character
 * (a "\0" or "\x00" escape): ananke's names, keys, patterns, paths and
 * texts are C strings, which a NUL would silently cut. AN_OK when none.
 * ananke's own file loaders call it; the mock's scenarios may send one. */
int an_yaml_no_nul(const struct an_ynode *n, struct an_err *err);

/* The other way: a tree in `a` that reads back as `j` (strings quoted, so
 * "true" stays a string), every node at `loc`. For rules written in JSON
 * that the YAML loaders read. */
struct an_ynode *an_yaml_from_json(const json_t *j, const struct an_loc *loc, struct an_arena *a);

#endif
