#ifndef ANANKE_CORE_ATOMIC_FILE_H
#define ANANKE_CORE_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "ananke/err.h"
#include "core/buf.h"

/*
 * A file written atomically (a report, a recording's files): the text goes
 * to a temporary file in the same directory and is renamed over `path` only
 * once complete, so readers (and a crashed run) never see half a report.
 * path NULL or "-" writes to standard output directly. Its messages say
 * "cannot write report 'PATH': ...".
 */
struct an_atomic_file {
    FILE *fp;
    const char *path; /* borrowed; NULL for stdout */
    char *tmp;        /* temporary path (malloc), NULL for stdout */
    /* no fsync before the rename: for one of a set of files whose writer
     * syncs the file system once before the file that says the set is
     * whole (an_fs_sync; a recording's run.json) */
    bool unsynced;
};
/* AN_OK or AN_EIO with the path and strerror in err. */
int an_atomic_open(struct an_atomic_file *f, const char *path, struct an_err *err);
/* mkdir -p of path[0..n) (each prefix ending at a '/', then the whole);
 * AN_EIO naming the directory that could not be made. an_atomic_open makes a
 * report's directory this way. */
int an_mkdir_p(const char *path, size_t n, struct an_err *err);
/* Flush, close and rename into place; on any failure the temporary file is
 * removed and AN_EIO returned. Always releases f. */
int an_atomic_commit(struct an_atomic_file *f, struct an_err *err);
/* b's contents written to path through an_atomic_open and an_atomic_commit:
 * AN_OK or AN_EIO with the path in err. */
int an_atomic_write(const char *path, const struct an_buf *b, struct an_err *err);
/* an_atomic_write without the fsync (an_atomic_file unsynced). */
int an_atomic_write_unsynced(const char *path, const struct an_buf *b, struct an_err *err);
/* Everything written so far to the file system that holds dir on disk
 * (syncfs; sync() where there is none): one call instead of an fsync per
 * file. AN_OK or AN_EIO naming dir. */
int an_fs_sync(const char *dir, struct an_err *err);
/* Give up: close and remove the temporary file. NULL-safe on a zeroed f. */
void an_atomic_abort(struct an_atomic_file *f);

#endif
