/*
 * JSON helpers over jansson.
 *
 * Outside input may hold invalid UTF-8 or NUL bytes; jansson refuses those
 * in strings, so text that came from an agent is turned into a JSON string
 * with an_json_lossy(), which replaces each invalid byte with U+FFFD.
 *
 * One header, one file per idea:
 *   json_lossy.c  outside text made valid: invalid UTF-8 and NULs replaced
 *   json_write.c  JSON as text: shortest exact reals, the compact writer
 *   json.c        small accessors (a value's type name, a string member)
 *   json_fast.c   the parser's fast path and its string scanner
 *   json_parse.c  an_json_parse: the tree cap, wide numbers, NULs, messages
 * (json_int.h holds what those files share.)
 */
#ifndef ANANKE_CORE_JSON_H
#define ANANKE_CORE_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* ---- json_lossy.c ---- */

/* New reference to a JSON string of s[0..n), invalid UTF-8 replaced. */
json_t *an_json_lossy(const char *s, size_t n);
/* Same, into a malloc'd C string (caller frees). NULs become U+FFFD too. */
char *an_utf8_lossy(const char *s, size_t n);

/* ---- json_write.c ---- */

/* JSON text (jansson flags), keys in insertion order, reals in their
 * shortest exact form (54.99, not 54.990000000000002); caller frees. */
char *an_json_dumps(const json_t *v, size_t flags);
/* Compact JSON text, keys in insertion order; caller frees. Never NULL. */
char *an_json_compact(const json_t *v);
/* Appends what an_json_compact(v) returns to b, when that takes no
 * decision that depends on the whole text (how to print a real); false,
 * with b as it was, when it would (an_json_compact must then do all). */
struct an_buf;
bool an_json_compact_try(struct an_buf *b, const json_t *v);
/* An object {head's members..., "KEY": [items...]} written to fp as
 * an_json_dumps with JSON_INDENT(2) | JSON_PRESERVE_ORDER writes it, then a
 * line break, an item at a time: item(ud, i) gives the i-th of n (a new
 * reference, released once written), so the whole array is never one tree
 * (a 10,000-test report's). Reals are chosen per item and for the head, not
 * for the whole text. An item NULL stops it: false, the text unfinished. A
 * failed write shows in ferror(fp). */
bool an_json_stream_object(FILE *fp, const json_t *head, const char *key, size_t n,
                           json_t *(*item)(void *ud, size_t i), void *ud);

/* ---- json.c ---- */

/* The JSON type of v as a word: "object", "array", "string", "number",
 * "boolean" or "null" (NULL counts as null). */
const char *an_json_type_name(const json_t *v);
/* A string member, or NULL when absent or not a string. Borrowed. */
const char *an_json_str(const json_t *obj, const char *key);

/* ---- json_fast.c ---- */

/* The JSON string whose opening quote is s[0], within s[0..n): its value in
 * *out and *len (pointing into s when it has no escape, else into
 * *scratch, reset at the first escape), the bytes it spans (quotes included) in
 * *used. False, with nothing promised, when the string does not end within
 * n bytes, or when jansson would refuse it (control characters, bad
 * escapes, lone surrogates, invalid UTF-8) or hold it differently
 * (\u0000): the caller then leaves it to jansson. With a NULL scratch it
 * only checks the string (nothing is copied or allocated): *out is then
 * NULL and *len 0 when the string has an escape. */
bool an_json_scan_string(const char *s, size_t n, struct an_buf *scratch, const char **out,
                         size_t *len, size_t *used);
/* The same, told that the bytes from lo up to s are readable too (lo <= s,
 * usually the start of the text s lies in): a string near the end of the
 * text is then read sixteen bytes at a time to its end. */
bool an_json_scan_string_in(const char *lo, const char *s, size_t n, struct an_buf *scratch,
                            const char **out, size_t *len, size_t *used);
/* True when an_json_parse(s, n) is sure to succeed, found by walking the
 * text without building or allocating anything (an_json_parse's own fast
 * path in a checking mode). It answers true only within that path's
 * subset: objects, arrays, strings without \u0000, integers of up to 18
 * digits, true, false, null, nesting up to 2048, valid UTF-8, under the JSON
 * tree cap (below). False means
 * "not sure", not "invalid": reals, longer integers, \u0000 and every
 * error are left to an_json_parse. */
bool an_json_valid_fast(const char *s, size_t n);

/* ---- json_parse.c ---- */

/* Whether s[0..n) is one JSON value (the fast check, else jansson). */
bool an_json_valid(const char *s, size_t n);
/* Parse JSON text with a nesting limit; NULL + message in `why` on failure.
 * A string holding NUL characters (\u0000) comes out with each of them
 * written as the six characters \u0000: ananke keeps names, ids and texts
 * as C strings, which a NUL would silently cut ("search\u0000x" would
 * read as "search"). What is sent stays whole in the recorded frames.
 * A number jansson cannot hold is kept as a real (an integer beyond int64)
 * or as its text (a real beyond a double). A text over AN_JSON_TREE_FREE
 * bytes is refused when its tree would take more than 8 times its size
 * plus 64 MiB (the JSON tree cap: 16 MiB of "[]," would take 900 MB). */
#define AN_JSON_TREE_FREE ((size_t)1 << 20)
/* True (and why, when why_cap > 0) when the tree of s[0..n) would be over
 * the JSON tree cap above: for a text parsed some other way. */
bool an_json_tree_over_cap(const char *s, size_t n, char *why, size_t why_cap);
json_t *an_json_parse(const char *s, size_t n, char *why, size_t why_cap);
/* Every NUL of every string in v (a tree the caller owns) rewritten as the
 * six characters \u0000, as an_json_parse does to what it returns. */
void an_json_escape_nuls(json_t *v);
/* jansson's error text, with its message about \u0000 said for people. */
const char *an_json_error_text(const json_error_t *je);

#endif
