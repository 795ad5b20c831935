/*
 * Partial JSON matching for compliance expectations (seed 003).
 *
 * An expected value is a partial JSON message:
 *  - a string leaf is a regular expression (PCRE2, unanchored: write ^...$
 *    to anchor) searched in the actual value stringified: a string as is,
 *    a number as its JSON text, true/false/null as those words, an object
 *    or array as compact JSON;
 *  - any other leaf (number, true, false, null) matches when the actual
 *    value stringifies to the same text: expected 0 matches 0 and "0",
 *    as if it were the regex ^0$;
 *  - an object matches an object holding every expected key, each
 *    matching; keys the expectation omits are ignored;
 *  - an array matches an array when every expected element matches a
 *    distinct actual element, in any order (subset-contains).
 * Patterns are never read in the `/body/flags` form of the YAML formats:
 * "/tmp/x" is a plain pattern.
 *
 * Pure functions: no I/O, no clock. Regexes are compiled once per call
 * (each distinct pattern, however many values it meets); an invalid one
 * simply does not match — the loader rejects invalid patterns before
 * anything runs.
 */
#ifndef ANANKE_CORE_JSONMATCH_H
#define ANANKE_CORE_JSONMATCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"
#include "ananke/regex.h"

/* Compile a string leaf as a plain pattern (never the /.../flags form). */
int an_jm_compile(struct an_regex **out, const char *pattern, const struct an_loc *loc,
                  struct an_err *err);
/* Check every string leaf of `expected` compiles; the first failure names its
 * path. */
int an_jm_check(const json_t *expected, const struct an_loc *loc, struct an_err *err);

/* The stringified form of a value (see above); caller frees. */
char *an_jm_stringify(const json_t *v);

/* Does `actual` satisfy `expected`? */
bool an_jm_match(const json_t *expected, const json_t *actual);

/* How close: the number of expected leaves satisfied (out of *total). */
size_t an_jm_score(const json_t *expected, const json_t *actual, size_t *total);

/*
 * Field-level differences, one line each, appended to *lines (malloc'd
 * strings in a malloc'd array; the caller frees both):
 *   missing field 'result.stopReason'
 *   result.stopReason: expected /^cancelled$/, got "end_turn"
 *   params.update.content[]: no element matches {"type":"^image$"}
 *   result: expected an object, got "x"
 */
void an_jm_diff(const json_t *expected, const json_t *actual, char ***lines, size_t *n);

/*
 * A distinct assignment of expected items to observed ones (maximum
 * bipartite matching by augmenting paths). ok(e, o, ud) says whether
 * expected e may take observed o. On return assign[e] is the observed index
 * of expected e, or -1. Returns how many expected items got one. Ties go to
 * the earliest observed item.
 */
size_t an_jm_assign(size_t nexp, size_t nobs, bool (*ok)(size_t e, size_t o, void *ud), void *ud,
                    long *assign);

#endif
