/*
 * Escaping for the structured report formats (XML, HTML): one character at
 * a time, so invalid UTF-8 is replaced with U+FFFD before a format sees it.
 * Terminal-safe text, which every format's untrusted strings pass through
 * first where it matters, is rpt_text.h.
 */
#ifndef ANANKE_REPORT_RPT_ESCAPE_H
#define ANANKE_REPORT_RPT_ESCAPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/buf.h"

/* Length of the UTF-8 sequence at s[0..n) and its code point in *cp, or 0
 * when the bytes there are not valid UTF-8 (overlong, surrogate, cut). */
size_t an_rpt_utf8_next(const char *s, size_t n, uint32_t *cp);

/*
 * One character of a format's escaping: code point c, whose bytes are
 * s[0..k), appended to b as the format needs. `attr` is the format's one
 * switch (an XML attribute or a GitHub property rather than text).
 */
typedef void an_rpt_esc_fn(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr);
/* Append the NUL-terminated s (NULL: nothing) to b character by character
 * through `esc`; invalid UTF-8 bytes become U+FFFD and never reach it. */
void an_rpt_escape(struct an_buf *b, const char *s, an_rpt_esc_fn *esc, bool attr);

/*
 * Append s (NULL: nothing) as XML character data, or as an attribute value
 * when `attr`. XML 1.0 forbids most C0 controls (even as &#..; references)
 * and U+FFFE/U+FFFF, so those are dropped; invalid UTF-8 becomes U+FFFD. In
 * attributes, tab and line breaks are written as references because parsers
 * normalise raw ones to spaces. & < > " are always escaped; ' only when
 * `apos` (the JUnit reporter escapes it, the compliance JUnit has always
 * left it as is; both are valid XML).
 */
void an_rpt_xml(struct an_buf *b, const char *s, bool attr, bool apos);

/* Append s[0..n) to b as HTML text or a quoted attribute value: & < > " '
 * become entities, everything else is copied. s[0..n) must already be valid
 * UTF-8 without controls (an_rpt_text's output); the HTML reporters pass
 * untrusted text through an_rpt_text first. */
void an_rpt_html(struct an_buf *b, const char *s, size_t n);

#endif
