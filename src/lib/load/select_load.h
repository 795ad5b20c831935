/*
 * The keys that choose what runs (docs/cli.md "Choosing what runs"):
 * `tags`, `skip` and `only`, read the same way from a YAML test, a JSONL
 * case and a cases.json case. Strings go into the loader's arena.
 */
#ifndef ANANKE_LOAD_SELECT_LOAD_H
#define ANANKE_LOAD_SELECT_LOAD_H

#include <jansson.h>

#include "ananke/model.h"
#include "load/schema.h"

/* A YAML test's `tags`, `skip` and `only` (root: the test file's map). */
int an_select_yaml(struct an_ld *ld, const struct an_ynode *root, struct an_test *t);

/* The same keys of a JSON case. `which` says which keys the format has
 * (AN_SEL_TAGS | AN_SEL_SKIP | AN_SEL_ONLY). On a bad value returns the
 * message (static) and sets *key to the key it is about, for the caller to
 * locate; NULL when all is well. `only_loc` is where the case starts. */
enum { AN_SEL_TAGS = 1, AN_SEL_SKIP = 2, AN_SEL_ONLY = 4 };
const char *an_select_json(struct an_ld *ld, const json_t *obj, unsigned which,
                           const struct an_loc *only_loc, struct an_test *t, const char **key);

#endif
