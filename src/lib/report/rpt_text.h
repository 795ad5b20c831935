/*
 * Untrusted text shown safely.
 *
 * Everything an agent produced (assistant text, tool args and results,
 * error bodies) may hold invalid UTF-8 and control characters. A terminal
 * obeys escape sequences, so a hostile agent could repaint a CI log (print a
 * fake PASS line over its FAIL). an_rpt_text() therefore never emits a byte
 * below 0x20 (apart from the line breaks it adds itself), DEL, C1 controls or
 * bidi overrides, and replaces invalid bytes with U+FFFD. A CI log shows
 * this text too, so it never starts a line with GitHub's "::" (a workflow
 * command such as ::add-mask::, which the runner accepts after leading
 * blanks) nor holds "##[" anywhere (the runner's legacy command syntax):
 * the first ':' is written \u003a, the second '#' \u0023.
 */
#ifndef ANANKE_REPORT_RPT_TEXT_H
#define ANANKE_REPORT_RPT_TEXT_H

#include <jansson.h>
#include <stddef.h>

#include "core/buf.h"

#define AN_RPT_QUOTE 0x1u /* wrap in "..." (the cut marker goes outside) */

/*
 * Append s[0..n) to b, made safe for a terminal. At most `cut` input bytes
 * are shown (0: all); a cut never splits a character and is marked with
 * "…" and the number of bytes left out. A newline becomes `nl_indent`'s
 * line break plus that indent when nl_indent is non-NULL (multi-line
 * messages stay readable), else the two characters \n. Other controls are
 * shown as \t, \r or \u001b.
 */
void an_rpt_text(struct an_buf *b, const char *s, size_t n, size_t cut, const char *nl_indent,
                 unsigned flags);
/* The same, each character on its own: an_rpt_text takes runs of
 * printable ASCII other than ':' and '#' whole, and the tests compare the
 * two (tests/unit/test_rpt_text.c). */
void an_rpt_text_general(struct an_buf *b, const char *s, size_t n, size_t cut,
                         const char *nl_indent, unsigned flags);
/* Same for a NUL-terminated string; NULL shows as nothing. */
void an_rpt_str(struct an_buf *b, const char *s, size_t cut, const char *nl_indent, unsigned flags);
/* A JSON value compactly, made safe and cut like an_rpt_text; NULL: "null". */
void an_rpt_json(struct an_buf *b, const json_t *v, size_t cut);

#endif
