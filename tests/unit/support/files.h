/*
 * Scratch files for the unit tests: one temporary directory per cmocka
 * group, and reading back what a reporter wrote there. A failure ends the
 * running test through cmocka's assertions.
 */
#ifndef ANANKE_TEST_FILES_H
#define ANANKE_TEST_FILES_H

#include <stddef.h>

/* The group's directory, "/tmp/ananke-unit-XXXXXX" once files_setup ran. */
extern char files_dir[64];

/* cmocka group setup and teardown: make files_dir; remove it and
 * everything below it. */
int files_setup(void **state);
int files_teardown(void **state);

/* The whole file at path, NUL-terminated; the caller frees it. */
char *files_slurp(const char *path);
/* How many times needle occurs in text, without overlaps. */
size_t files_count(const char *text, const char *needle);
/* No entry of dir has `part` in its name (a temporary file left behind). */
void files_assert_none_named(const char *dir, const char *part);
/* An empty file files_dir/name, e.g. a file where a report's directory
 * would have to be made. */
void files_touch(const char *name);

#endif
