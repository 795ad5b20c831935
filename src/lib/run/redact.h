/*
 * Redaction: secret values and patterns replaced by "[redacted]" before a
 * recording reaches the disk (docs/record.md "Secrets never reach the disk").
 *
 * A redactor holds literal secrets and regexes, each under a label that
 * names it in redactions.json ("header Authorization", "hook variable
 * API_TOKEN", "--redact sk-[a-z]+"); a label never holds a secret's value.
 * A literal secret is found as written and as it reads inside JSON text:
 * escaped once (a frame's data) or twice (a tool's arguments inside a
 * frame), with and without \u escapes for non-ASCII and \/ for slashes.
 *
 * Every byte that any match covers is replaced: overlapping and adjacent
 * matches become one "[redacted]", so a secret that overlaps another (a
 * header "Bearer abc123" and the token "abc123") leaves no piece behind.
 *
 * Redacting (an_redact_text, an_redact_json) does not change the redactor;
 * what it replaced is added to the caller's `counts`, an array of
 * an_redactor_nlabels() entries (one per label), which may be NULL.
 * Secrets added later get new labels: size the array after adding them.
 * A redactor is read by any number of threads at once once nothing is
 * added to it any more.
 *
 * Cuts. A text cut short (a reporter's "...", an error that quotes the
 * first 300 bytes of a body) may end in the first bytes of a secret, which
 * no search for the whole secret finds. So the bytes just before a cut
 * marker ("..." or U+2026) and at the very end of the text are redacted
 * when they are the start of a literal secret (AN_REDACT_MIN bytes or
 * more), and just before a marker when a pattern matches them partially;
 * the bytes just after a "..." when they are the end of one (a text that
 * keeps only its last bytes, "...tail"). Who cuts a text says so with a
 * marker.
 *
 * ananke compare's pack uses the same engine with its rules applied one
 * after another (an_redact_in_order, below).
 *
 * Fail closed. A pattern that PCRE2 gives up on (its match limit, a
 * catastrophic backtracking on this text) redacts the whole text it was
 * searching, and the redactor counts it (an_redactor_gave_up) so that the
 * caller can say so.
 */
#ifndef ANANKE_RUN_REDACT_H
#define ANANKE_RUN_REDACT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "ananke/err.h"

#define AN_REDACTED "[redacted]"
/* Shorter values are not searched for: replacing every "ab" in a recording
 * would destroy it and hide nothing worth hiding. */
#define AN_REDACT_MIN 4

struct an_redactor;

struct an_redactor *an_redactor_new(void);
/* A copy of r that more secrets can be added to (one test's own, on top
 * of the run's): its secrets and labels are copied, its patterns are r's,
 * borrowed: free the copy before r. Patterns cannot be added to a copy. */
struct an_redactor *an_redactor_clone(const struct an_redactor *r);
void an_redactor_free(struct an_redactor *r); /* NULL-safe */
/* Nothing to search for: redacting changes nothing and costs nothing. */
bool an_redactor_empty(const struct an_redactor *r); /* NULL counts as empty */
/* How many secrets and patterns it holds, to tell whether a redactor
 * knows more than another it was cloned from. */
size_t an_redactor_size(const struct an_redactor *r);

enum an_redact_add { AN_REDACT_ADDED, AN_REDACT_KNOWN, AN_REDACT_EMPTY, AN_REDACT_SHORT };
/* Add a literal secret under `label` (both copied). A value already known
 * (under any label) is not added again; "" is ignored (EMPTY); a value
 * shorter than AN_REDACT_MIN bytes is ignored too (SHORT: the caller says
 * so). */
enum an_redact_add an_redactor_add_secret(struct an_redactor *r, const char *label,
                                          const char *value);
/* Add a pattern (an_regex syntax: `re` or `/re/flags`), labelled
 * "--redact SRC". AN_EREGEX with PCRE2's message when it does not compile. */
int an_redactor_add_regex(struct an_redactor *r, const char *src, struct an_err *err);

/* Add a pattern under `label` (copied). With AN_REDACT_GROUP1 a match
 * whose capture group 1 took part has only that group replaced, so that
 * "Bearer " or "api_key=" stays readable. Errors as an_redactor_add_regex. */
#define AN_REDACT_GROUP1 0x1u
int an_redactor_add_pattern(struct an_redactor *r, const char *label, const char *src,
                            unsigned flags, struct an_err *err);
/* Add a literal secret found only as written (none of the JSON-escaped
 * forms an_redactor_add_secret adds); same checks and results. */
enum an_redact_add an_redactor_add_literal(struct an_redactor *r, const char *label,
                                           const char *value);

size_t an_redactor_nlabels(const struct an_redactor *r);
const char *an_redactor_label(const struct an_redactor *r, size_t i);
/* The patterns PCRE2 gave up on while redacting (over every copy that
 * shares them): for each, its source and how many texts were therefore
 * redacted whole. Returns the number of patterns; i past it: NULL. */
size_t an_redactor_npatterns(const struct an_redactor *r);
const char *an_redactor_gave_up(const struct an_redactor *r, size_t i, size_t *texts);
/* Fail closed, said aloud: one warning per pattern PCRE2 gave up on
 * ("--redact 'P': PCRE2 gave up on N texts (its match limit): they were
 * redacted whole"), through warn; warn NULL: nothing. */
void an_redactor_say_gave_up(const struct an_redactor *r, void (*warn)(const char *msg, void *ud),
                             void *ud);

/* Where s[0..n) must be redacted: sorted spans [a, b), overlapping and
 * touching ones merged, into *spans (caller frees; NULL when none).
 * Returns their number. */
struct an_redact_span {
    size_t a, b;
};
size_t an_redact_find(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                      struct an_redact_span **spans);

/* s[0..n) redacted: NULL when nothing matched, else a new malloc'd,
 * NUL-terminated string (*out_len its length). Bytes are replaced as they
 * are; a pattern may cut a UTF-8 character in two (JSON writers replace the
 * broken bytes). */
char *an_redact_text(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                     size_t *out_len);
/* an_redact_text, and also the pieces of a literal secret (AN_REDACT_MIN
 * bytes or more) at the edges of a quoted string: one that a quote opens,
 * one that a quote (or \") closes, and all that is between two. An error
 * or a warning that quotes one event of a stream quotes a piece of a
 * secret streamed across several, which no whole match finds; a stream's
 * pieces sit at the edges of its JSON strings. */
char *an_redact_quoted(const struct an_redactor *r, const char *s, size_t n, size_t *counts,
                       size_t *out_len);
/* A copy of v with every string and every object key redacted (new
 * reference; unchanged scalars are shared). Keys that become equal keep
 * the last value. */
json_t *an_redact_json(const struct an_redactor *r, const json_t *v, size_t *counts);

/*
 * A stream of frames (one turn's SSE events or JSON-RPC lines) redacted
 * together: a streamed secret arrives cut into pieces (an LLM streams a
 * few characters a delta), and no piece alone is a match. Each frame that
 * is JSON contributes its string values to streams keyed by the frame's
 * "type" and the value's path ("TEXT_MESSAGE_CONTENT delta",
 * "choices[].delta.content"); each stream is searched joined, and every
 * piece of a match, in whichever frame, becomes "[redacted]". Then every
 * frame's text is redacted as a whole (an_redact_text), for frames that
 * are not JSON and secrets in keys.
 *
 * Returns n new malloc'd strings (the caller frees each and the array).
 * A changed JSON frame is written again compactly, its keys in order.
 */
char **an_redact_frames(const struct an_redactor *r, const char *const *frames, size_t n,
                        size_t *counts);

/*
 * Rules in order (ananke compare's evidence pack, docs/compare.md): each
 * label's secrets and patterns, in the order the labels were made, replace
 * their matches in the text the labels before them left; within a label the
 * leftmost match wins over one that overlaps it. A literal is searched for
 * as added; there is no cut or quoted rule. A pattern PCRE2 gives up on
 * redacts the whole text (fail closed), as everywhere. counts[label] gets
 * the number of replacements. `what`: AN_REDACT_PATTERNS for every rule,
 * 0 for the literal secrets only (a last pass over a file's bytes).
 * NULL when nothing was replaced, else a new malloc'd string.
 */
#define AN_REDACT_PATTERNS 0x1u
char *an_redact_in_order(const struct an_redactor *r, const char *s, size_t n, unsigned what,
                         size_t *counts, size_t *out_len);

/* A JSON value whose strings may continue each other (a conversation's
 * messages: a secret begun in one and ended in the next), searched as a
 * frame is, its strings joined: NULL when nothing is to be redacted, else
 * a new redacted copy (keys redacted too). v is only read. */
json_t *an_redact_tree(const struct an_redactor *r, const json_t *v, size_t *counts);

#endif
