/*
 * Reading a file of the project without following a symbolic link: a
 * link planted at .ananke/last-run.json or .gitignore (by a test's hook, a
 * checked-out repository) is refused, not read through. root NULL: rel is
 * a whole path; else rel is inside root and no component of it may be a
 * link.
 */
#ifndef ANANKE_NOFOLLOW_H
#define ANANKE_NOFOLLOW_H

#include <jansson.h>
#include <stddef.h>

#include "ananke/err.h"

/* root/rel parsed as JSON (json_loadb `flags`), at most cap bytes: a new
 * reference, or NULL with err set (AN_ENOTFOUND: absent; AN_EIO: a link,
 * not a regular file, unreadable; AN_ELIMIT: over cap; AN_EPARSE: with
 * the file, line and column). */
json_t *an_nf_json(const char *root, const char *rel, size_t flags, size_t cap, struct an_err *err);

/* The whole file, at most cap bytes: 0 and *out (NUL-terminated,
 * malloc'd, the caller's; *len its length), or an error as an_nf_json's
 * (not AN_EPARSE) and *out NULL. */
int an_nf_read_str(const char *root, const char *rel, size_t cap, char **out, size_t *len,
                   struct an_err *err);

#endif
