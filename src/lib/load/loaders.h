/* The per-format loaders behind an_suite_load (load/suite.c). */
#ifndef ANANKE_LOAD_LOADERS_H
#define ANANKE_LOAD_LOADERS_H

#include "ananke/load.h"
#include "ananke/model.h"
#include "load/assert_load.h"
#include "load/schema.h"

/* ananke.config.yaml (seed 000 "Project-Level Configuration"). */
int an_config_load(struct an_ld *ld, const char *path, struct an_config *out);
/* *.test.yaml (seed 000 "Test file"). */
int an_test_load(struct an_ld *ld, const char *path, const struct an_assert_lib *lib,
                 struct an_test *out);
/* The turn types a test file may write (`type: mcp:call` ...), from its
 * table (load/test_file.c), NULL-terminated; the schema's list is tested
 * against it (tests/unit/test_check_kinds.c). */
const char *const *an_turn_type_names(void);
/* A JSONL suite (seed 002, standard mode): one test per case. Every bad
 * line is added to errs; the good cases are in *out (an arena array of *n)
 * and the first error's code is returned. */
int an_jsonl_load(struct an_ld *ld, const char *path, struct an_errlist *errs, struct an_test **out,
                  size_t *n);
/* The same from text in memory (-i "message", a generator's or a script's
 * cases), read as a file called `name`; paths in it are relative to the
 * current directory. */
int an_jsonl_load_mem(struct an_ld *ld, const char *name, const char *text, size_t len,
                      struct an_errlist *errs, struct an_test **out, size_t *n);
/* A cases.json file (seed 004): one test per case. Like an_jsonl_load:
 * every bad case is its own error in errs, the good ones are in *out, and
 * the first error's code is returned. */
int an_cases_json_load(struct an_ld *ld, const char *path, struct an_errlist *errs,
                       struct an_test **out, size_t *n);
/* `version`: "1.x" accepted; any other major refused. */
int an_version_load(struct an_ld *ld, const struct an_ynode *root, const char *what,
                    const char **out);

#endif
