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

/* The groups of an assert block whose keys are rules (tools, timing, text,
 * usage), each with its keys (NULL-terminated); a NULL name ends the list.
 * A rule is also written as a typed check {type: GROUP.KEY, value: ...}
 * (load/check_block.c), and the JSON Schemas list them so. */
struct an_rule_group {
    const char *name;
    const char *const *keys;
};
extern const struct an_rule_group an_rule_groups[];

/* Append src's rules to dst's (arena copies); src's limits fill the ones dst
 * does not set. */
void an_assert_absorb(struct an_ld *ld, struct an_assert *dst, const struct an_assert *src);

#endif
