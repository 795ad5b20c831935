/*
 * Private to src/lib/check/: the pieces an_check() dispatches to, and the
 * helpers that give every finding the same wording.
 *
 * Findings quote what the agent did, so each quoted value is cut to
 * CHK_CUT bytes (on a UTF-8 boundary, with "…") and each list of values or
 * call numbers to CHK_LIST items: a looping agent must not turn one finding
 * into a megabyte of report. Calls are numbered from 1 within the scope
 * ("call #2"), as a reader counts them.
 */
#ifndef ANANKE_CHECK_INT_H
#define ANANKE_CHECK_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/check.h"
#include "ananke/check_kind.h"
#include "check/check_eval.h"
#include "core/buf.h"

#define CHK_CUT 120
#define CHK_LIST 5

/* Each returns how many findings it appended. */
size_t chk_forbid(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_allow(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_sequence(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_require(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_forbid_calls(const struct an_assert *blk, const struct an_scope *s,
                        struct an_findings *out);
size_t chk_consistent(const struct an_assert *blk, const struct an_scope *s,
                      struct an_findings *out);
size_t chk_text(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_items(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_timing(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);
size_t chk_usage(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out);

/* "1 call" / "3 calls". */
void chk_ncalls(struct an_buf *b, size_t n);
/* s[0..len) in double quotes, control characters and quotes escaped, cut
 * to CHK_CUT bytes. */
void chk_quote(struct an_buf *b, const char *s, size_t len);
/* The same without quotes, for text that is already JSON. */
void chk_cut(struct an_buf *b, const char *s, size_t len);
/* A JSON value as it is matched (an_json_match_text), quoted and cut;
 * "missing" when v is NULL. */
void chk_quote_json(struct an_buf *b, const json_t *v);
/* "/pattern/flags", whatever form it was written in. */
void chk_regex(struct an_buf *b, const struct an_regex *re);
/* Distinct tool names of the scope in order of first call, comma-separated,
 * at most CHK_LIST of them; "nothing" when the scope has no call. */
void chk_called_names(struct an_buf *b, const struct an_scope *s);

/* Where the first match of `re` in s[0..len) starts and ends: 1, 0 when
 * none, -1 when PCRE2 gave up (an_regex_find). */
int chk_find(const struct an_regex *re, const char *s, size_t len, size_t *so, size_t *eo);
/* The `actual` of a check whose regex gave up (chk_find() < 0): such a
 * check fails, whichever way it is meant, since it could not judge. */
void chk_gave_up(struct an_buf *b, const struct an_regex *re);

/* What one typed check found, before `negate`: the label is "<subject>
 * must[ not] <verb>", `expected` or `negated_expected` as the case may be
 * (opaque outside src/lib/check/: ananke/check_kind.h's an_check_verdict_*). */
struct an_check_verdict {
    bool ok;
    bool gave_up; /* no verdict could be made (a regex gave up): fails either way */
    struct an_buf subject, verb;
    struct an_buf expected, negated_expected, actual, detail;
};

/* The first place needle[0..nl) occurs in h[0..hl), ASCII letters compared
 * without case; NULL when nowhere. */
const char *chk_find_icase(const char *h, size_t hl, const char *n, size_t nl);

/* an_findings_add() with the location and turn filled in; an empty
 * `detail` is stored as NULL. */
void chk_add(struct an_findings *out, const char *kind, const struct an_scope *s,
             const struct an_loc *loc, const struct an_buf *assertion,
             const struct an_buf *expected, const struct an_buf *actual,
             const struct an_buf *detail);

#endif
