/*
 * Regular expressions: PCRE2 with JIT, written as `pattern` or `/pattern/flags`.
 *
 * Flags: i (caseless), m (multiline), s (dotall), u (UTF + Unicode
 * properties) are honoured; g and y are accepted and have no effect on a
 * "does it match anywhere" test. The slash form applies only when the whole
 * string is `/.../` followed by nothing but flag letters and the body is not
 * empty; anything else is a plain pattern (so `/v1/ui` would be read as
 * `v1` with flags `u`,`i` — write it without slashes or escape a slash).
 * Subjects are matched as bytes unless `u` is given; invalid UTF-8 in the
 * subject never makes a pattern fail to run.
 */
#ifndef ANANKE_REGEX_H
#define ANANKE_REGEX_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

struct an_regex {
    const char *src;     /* as written, including slashes and flags */
    const char *pattern; /* the body handed to PCRE2 */
    char flags[8];       /* the flag letters given, for display */
    struct an_loc loc;   /* where it was written */
    void *code;          /* pcre2_code_8 *, owned */
};

/* Compile `src`; strings are copied. On failure fills err (AN_EREGEX) with
 * `loc` and PCRE2's message and offset. The result is freed by an_regex_free. */
int an_regex_compile(struct an_regex **out, const char *src, const struct an_loc *loc,
                     struct an_err *err);
void an_regex_free(struct an_regex *re); /* NULL-safe */

/* true when the pattern matches somewhere in subject[0..len). */
bool an_regex_search(const struct an_regex *re, const char *subject, size_t len);

#endif
