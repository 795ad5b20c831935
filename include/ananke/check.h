/*
 * The assertion engine: pure functions from (assert block, scope) to findings.
 *
 * No I/O, no clock, no protocol: everything a check needs is in the scope
 * (include/ananke/transcript.h). Seed 000's semantics, and the choices made
 * where it is ambiguous, are written down in docs/assertions.md.
 *
 * Inheritance (target -> test -> turn) is decided by an_assert_for_turn()
 * and an_assert_for_test():
 *   - a turn is judged on: its own require / must_match / checks; every forbid,
 *     forbid_calls and must_not_match of the target, the test and the turn
 *     (they accumulate); timing limits merged target -> test -> turn, the
 *     nearest level that sets a limit (or disables it with `false`) wins;
 *   - the test is judged, on its aggregated data, on: the target's and the
 *     test's require / must_match / checks / forbid / forbid_calls / must_not_match,
 *     and timing merged target -> test.
 * Merged blocks share their elements with their sources (borrowed); only
 * the arrays are new. Free them with an_assert_release().
 */
#ifndef ANANKE_CHECK_H
#define ANANKE_CHECK_H

#include <stddef.h>

#include "ananke/model.h"
#include "ananke/result.h"
#include "ananke/transcript.h"

void an_assert_for_turn(struct an_assert *out, const struct an_assert *target,
                        const struct an_assert *test, const struct an_assert *turn);
void an_assert_for_test(struct an_assert *out, const struct an_assert *target,
                        const struct an_assert *test);
/* Frees the arrays of a merged block (not the rules they point at). */
void an_assert_release(struct an_assert *blk);

/* Append one finding per violated assertion to *out (turn index taken from
 * scope->turn); returns how many were appended (0 = all passed). */
size_t an_check(const struct an_assert *blk, const struct an_scope *scope, struct an_findings *out);

/* "check.contains" ... "check.script": a typed check's finding kind. */
const char *an_check_kind_name(enum an_check_kind k);

/* The finding of a failed typed check, worded as every typed check is:
 * label "<subject> must [not ]<verb>", or the check's `message` with that
 * label moved to the detail. The runner uses it for script checks. */
void an_check_item_finding(struct an_findings *out, const struct an_check_item *it,
                           const struct an_scope *s, const char *subject, const char *verb,
                           bool negated, const char *expected, const char *actual,
                           const char *detail);

/* Value at a path, as an_json_path_get reads it ("user.address.city",
 * "items.0.sku", "items[0].sku", "$.items[0].sku"); NULL when absent or not
 * a path. Borrowed from `root`. */
json_t *an_json_dot_path(const json_t *root, const char *path);

/* The one path syntax of args_match, state: and the json_path and type
 * checks: a leading "$" or "$." (optional), keys separated by dots, array
 * indexes in brackets or as a dotted number ("$.a.b[0].c" = "a.b.0.c"); at an
 * object the whole rest of the path as one key wins ({"user.name": ...}).
 * Returns -1 when the path is not written that way, else 0 with *out the
 * value (borrowed from root) or NULL when absent. root may be NULL (to check
 * a path's syntax). */
int an_json_path_get(json_t *root, const char *path, json_t **out);

/* Text a regex is matched against: strings as they are, anything else as
 * compact JSON with keys in document order. Caller frees. */
char *an_json_match_text(const json_t *v);

#endif
