/*
 * Loading an AssertBlock (seed 000 "AssertBlock") into struct an_assert.
 * Regexes are compiled here, at load time; their codes are registered on
 * the arena for release.
 */
#ifndef ANANKE_LOAD_ASSERT_H
#define ANANKE_LOAD_ASSERT_H

#include "ananke/model.h"
#include "load/schema.h"

/* Named blocks that `extends` may name (the config's `assertions:`). */
struct an_assert_lib {
    const struct an_named_assert *v;
    size_t n;
};

/* Parse `node` (the value of an `assert:` key) at `level`. `lib` may be
 * NULL (then `extends` is refused). */
int an_assert_load(struct an_ld *ld, const struct an_ynode *node, enum an_level level,
                   const struct an_assert_lib *lib, struct an_assert *out);

/* an_assert_load() for a test or a turn: *out is NULL when the block
 * loaded is empty (all zero), else its kept form, in the arena (set even
 * on an error, as an_assert_load leaves its block). */
int an_assert_load_sparse(struct an_ld *ld, const struct an_ynode *node, enum an_level level,
                          const struct an_assert_lib *lib, struct an_assert_kept **out);

/* blk kept as a test's or turn's block (load/assert_kept.c): NULL when it
 * is all zero, else its lists and, when one is set, its limits, in the
 * arena; an_assert_expand() gives blk back. */
struct an_assert_kept *an_assert_keep(struct an_ld *ld, const struct an_assert *blk);

/* The rules of an assert block (`tools: {forbid: ...}`), one row per
 * GROUP.KEY, in the order they are read, a group's rows adjacent
 * (test_load checks it); a NULL group ends the table. The
 * group's valid keys, the rules written as typed checks ({type: GROUP.KEY,
 * value: ...}, load/check_block.c) and the JSON Schemas' list of them
 * (load/check_kinds_schema.c) come from it. A rule's evaluation is
 * check/check.c's list (one function per group). */
struct an_rule_def {
    const char *group, *key;
    int (*load)(struct an_ld *ld, const struct an_ynode *n, const struct an_rule_def *r,
                enum an_level level, struct an_assert *out);
    size_t at, n_at; /* offsets in struct an_assert of its field(s), when the loader uses them */
};
extern const struct an_rule_def an_rules[];

/* The group type[0..len) names ("tools" ...), as the table spells it; NULL
 * when no rule has that group. */
const char *an_rule_group(const char *type, size_t len);

/* Append src's rules to dst's (arena copies); src's limits fill the ones dst
 * does not set. */
void an_assert_absorb(struct an_ld *ld, struct an_assert *dst, const struct an_assert *src);

#endif
