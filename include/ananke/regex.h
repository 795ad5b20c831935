/*
 * Regular expressions: PCRE2 with JIT, written as `pattern` or `/pattern/flags`.
 *
 * Flags: i (caseless), m (multiline), s (dotall), u (UTF + Unicode
 * properties) are honoured; g and y are accepted and have no effect on a
 * "does it match anywhere" test. The slash form applies only when the whole
 * string is `/.../` followed by nothing but letters and the body is not
 * empty; anything else is a plain pattern (so `/v1/ui` would be read as
 * `v1` with flags `u`,`i` — write it without slashes or escape a slash).
 * A letter that is no flag (`/ok/x`, `/api/users`) is an error, never a
 * plain pattern read in silence.
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
    void *mctx;          /* pcre2_match_context_8 * with the limits below, owned */
};

/* Compile `src`; strings are copied. On failure fills err (AN_EREGEX) with
 * `loc` and PCRE2's message and offset. The result is freed by an_regex_free. */
int an_regex_compile(struct an_regex **out, const char *src, const struct an_loc *loc,
                     struct an_err *err);
void an_regex_free(struct an_regex *re); /* NULL-safe */

/* What one match may cost before PCRE2 gives up: backtracking steps (and
 * nesting depth), and KiB of heap for backtracking. */
#define AN_REGEX_MATCH_LIMIT 10000000u
#define AN_REGEX_HEAP_LIMIT (64u * 1024u)

/* Where the pattern first matches in subject[0..len): 1 and [*so, *eo)
 * (so and eo may be NULL), 0 when it does not match, -1 when PCRE2 gave up
 * at a limit above (a pattern that backtracks catastrophically on this
 * subject): no verdict may be made of that. Invalid UTF-8 under `u` is no
 * match. */
int an_regex_find(const struct an_regex *re, const char *subject, size_t len, size_t *so,
                  size_t *eo);

/* true when the pattern matches somewhere in subject[0..len); a match that
 * gave up counts as none (callers that judge use an_regex_find). */
bool an_regex_search(const struct an_regex *re, const char *subject, size_t len);

#endif
