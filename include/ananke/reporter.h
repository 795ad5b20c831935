/*
 * The reporter table: one row per report format, the single list that
 * `--reporter NAME[:PATH]`, `-o FILE`, their messages, `--help` and the
 * shell completions are derived from (docs/internals.md "Adding a
 * reporter").
 *
 * The library's own rows (src/lib/report/reporter.c) come first, in the
 * order the CLI lists them; rows registered with an_reporter_register()
 * follow in registration order. A row and every string it points to are
 * borrowed: they must outlive every use of the table (static storage).
 *
 * Registration is meant for start-up (a constructor, or main before any
 * thread): the table is not locked.
 */
#ifndef ANANKE_REPORTER_H
#define ANANKE_REPORTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/comply.h"
#include "ananke/err.h"
#include "ananke/result.h"

struct an_reporter {
    const char *name;  /* --reporter NAME (lowercase letters, digits, '-') */
    const char *alias; /* a second name for the same row (md), or NULL */
    /* one line for --help: what the report is ("JUnit XML") */
    const char *help;
    /* the PATH of --reporter NAME given without one ("-": standard output) */
    const char *default_path;
    const char *ext; /* -o FILE ending in this extension (".xml"), or NULL */
    /* The run's report into `path` ("-": standard output): AN_OK, or an
     * error filled in `err`. NULL only for the console, which is always on
     * (--reporter console is accepted and changes nothing). */
    int (*write)(const struct an_run_result *r, const char *path, struct an_err *err);
    /* -o FILE's writer when it differs from `write` (html: one page, never
     * a directory); NULL: `write` */
    int (*write_file)(const struct an_run_result *r, const char *path, struct an_err *err);
    /* `ananke comply --reporter NAME`: the compliance result's report, or
     * NULL when the row has none */
    int (*write_comply)(const struct an_comply_result *r, const char *path, struct an_err *err);
    /* true: the writer never reads a turn's messages (an_turn_rec
     * messages, the conversation an AG-UI turn ends with), so a run whose
     * reports all say so does not build them for a test's last turn, as a
     * run without reports does (they weighed a third of what a test keeps
     * for its reports). false, the default: they are built. */
    bool no_messages;
};

/* Add a row after the others. AN_EUSAGE (err filled) when its name or
 * alias is taken, a name is missing or malformed, it has no writer at all,
 * or the table is full (64 rows). */
int an_reporter_register(const struct an_reporter *row, struct an_err *err);

/* The rows, in order: 0 <= i < an_reporter_count(). */
size_t an_reporter_count(void);
const struct an_reporter *an_reporter_at(size_t i);

/* The row named (or aliased) by the first `len` bytes of `name`, or NULL. */
const struct an_reporter *an_reporter_find(const char *name, size_t len);

/* The row whose `ext` matches the extension of the last component of
 * `path` (case-insensitive), or NULL. */
const struct an_reporter *an_reporter_for_ext(const char *path);

#endif
