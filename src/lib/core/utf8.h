/*
 * UTF-8 validation of a whole span at once (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequence at the end).
 *
 * The JSON string scanner (core/json_fast.c) finds a string's end without
 * stopping at every non-ASCII byte, then asks this once for the span. On
 * x86 with SSSE3 it takes 16 bytes per step without a branch per
 * character (the lookup-table method of Keiser and Lemire, "Validating
 * UTF-8 In Less Than One Instruction Per Byte", 2021); elsewhere, and for
 * comparison in the tests, a byte-wise scalar check. Both give the same
 * answer as an_json_utf8_seq() applied sequence by sequence.
 */
#ifndef ANANKE_CORE_UTF8_H
#define ANANKE_CORE_UTF8_H

#include <stdbool.h>
#include <stddef.h>

/* Whether s[0..n) is valid UTF-8 (a NUL byte counts as valid ASCII). */
bool an_utf8_valid(const unsigned char *s, size_t n);

/* The same when s[0..avail) may be read (avail >= n): the last bytes are
 * then taken in one load instead of a copy. */
bool an_utf8_valid_in(const unsigned char *s, size_t n, size_t avail);

/* The same, always by the scalar check: the reference the tests compare
 * the vector path with. */
bool an_utf8_valid_scalar(const unsigned char *s, size_t n);

/* Whether an_utf8_valid() runs the vector path on this machine. */
bool an_utf8_vector(void);

#endif
