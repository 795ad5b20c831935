/*
 * Reading files of a directory ananke did not write this time (a
 * recording, a run's JSON results) without following symbolic links.
 *
 * A recording is input anyone may have edited: `tests/x/vars.json` made a
 * link to /etc/passwd must not be read (and copied into an evidence pack).
 * The root directory is the one the user named and is taken as it is;
 * below it every component is opened with O_NOFOLLOW, one at a time, so a
 * link anywhere in `rel` (a linked `tests/x` included) is refused, and only
 * a regular file is read (a FIFO would block; it is opened O_NONBLOCK).
 * `rel` holds plain components: no "", "." or "..".
 *
 * Errors name the file ("'DIR/tests/x/vars.json' is a symbolic link: not
 * followed ..."). Ownership: a returned fd, buffer or json_t is the caller's.
 */
#ifndef ANANKE_CORE_NOFOLLOW_H
#define ANANKE_CORE_NOFOLLOW_H

#include <jansson.h>
#include <stddef.h>

#include "ananke/err.h"
#include "core/buf.h"

enum an_nf_kind {
    AN_NF_ABSENT = 0, /* nothing there (or a component is missing) */
    AN_NF_FILE,       /* a regular file, reached without a link */
    AN_NF_LINK,       /* a symbolic link, at the end or on the way */
    AN_NF_OTHER,      /* a directory, FIFO, device, socket; or unreadable */
};

/* What root/rel is, links not followed. root NULL: rel is a whole path
 * whose last component only is checked (a file the user named). */
enum an_nf_kind an_nf_kind(const char *root, const char *rel);

/* Open root/rel for reading: AN_OK and *fd, or AN_ENOTFOUND (absent),
 * AN_EIO naming the file (a link, not a regular file, unreadable). */
int an_nf_open(const char *root, const char *rel, int *fd, struct an_err *err);

/* The whole file into *out (initialised here, capped at `cap` bytes: past
 * it AN_ELIMIT naming the file and the cap). Errors as an_nf_open. */
int an_nf_read(const char *root, const char *rel, size_t cap, struct an_buf *out,
               struct an_err *err);

/* root/rel parsed as JSON (json_loadb `flags`); NULL with err set (parse
 * errors carry the file, line and column as err's location; text over the
 * JSON tree cap, an_json_tree_over_cap, is AN_ELIMIT and never parsed). */
json_t *an_nf_json(const char *root, const char *rel, size_t flags, size_t cap, struct an_err *err);

#endif
