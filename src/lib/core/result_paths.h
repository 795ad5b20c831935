/*
 * Paths in a result made relative to the project directory (the config's),
 * whatever directory ananke was started from (docs/cli.md "Paths in
 * reports"): a report or an evidence pack moved to another machine, or read
 * from another directory, names tests/checkout.test.yaml, never
 * /home/ci/build/123/tests/checkout.test.yaml. A file outside the project
 * keeps its absolute path (the only case where one appears).
 *
 * Done once where a run's result is made, beside the redaction, so that no
 * reporter has to remember it.
 */
#ifndef ANANKE_CORE_RESULT_PATHS_H
#define ANANKE_CORE_RESULT_PATHS_H

#include "ananke/result.h"

/* `path` (absolute, or relative to the current directory) as the reports
 * show it: relative to `project_dir` when it lies inside it ("." for the
 * directory itself), else absolute. Symbolic links in the directories are
 * resolved when they exist; the file's own name is kept. The caller frees
 * the result. */
char *an_path_in_project(const char *path, const char *project_dir);

/* A directory's absolute path, symbolic links resolved when it exists
 * (else "." and ".." folded lexically). The caller frees it. */
char *an_path_absolute(const char *dir);

/* Rewrite t in place: its file, each finding's and judgement's file, and
 * inside its error and each finding's detail and attempt's summary the
 * test file as given and the project directory's absolute path. */
void an_test_result_relative(struct an_test_result *t, const char *project_dir);

/* The same for many paths of one project: the project directory resolved
 * once, and each test file's directory once (a memo of the last
 * AN_PROJECT_PATHS_MEMO directories), where an_path_in_project resolves
 * both for every path (realpath: a getcwd and a readlink per component).
 * Made for one run and one thread (a scheduler loop has its own): the file
 * system is read when a directory is first seen, so a link changed during
 * the run is seen by the next run. */
#define AN_PROJECT_PATHS_MEMO 8
struct an_project_paths;
struct an_project_paths *an_project_paths_new(const char *project_dir);
void an_project_paths_free(struct an_project_paths *pp); /* NULL: nothing */
/* an_path_in_project(path, pp's project_dir). The caller frees it. */
char *an_project_path(struct an_project_paths *pp, const char *path);
/* an_test_result_relative(t, pp's project_dir). */
void an_test_result_relative_in(struct an_test_result *t, struct an_project_paths *pp);

#endif
