/* The per-format loaders behind an_suite_load (load/suite.c). */
#ifndef ANANKE_LOAD_LOADERS_H
#define ANANKE_LOAD_LOADERS_H

#include "ananke/model.h"
#include "load/assert_load.h"
#include "load/schema.h"

/* ananke.config.yaml (seed 000 "Project-Level Configuration"). */
int an_config_load(struct an_ld *ld, const char *path, struct an_config *out);
/* *.test.yaml (seed 000 "Test file"). */
int an_test_load(struct an_ld *ld, const char *path, const struct an_assert_lib *lib,
                 struct an_test *out);
/* `version`: "1.x" accepted; any other major refused. */
int an_version_load(struct an_ld *ld, const struct an_ynode *root, const char *what,
                    const char **out);

#endif
