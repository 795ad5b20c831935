/* Untrusted text made safe for a terminal or a CI log (report/rpt_text.h). */
#include "report/rpt_text.h"

#include <string.h>

#include "core/json.h"
#include "report/rpt_escape.h"

/* Code points a terminal acts on rather than shows: C0/C1 controls and DEL
 * (cursor moves, colour, OSC titles), line/paragraph separators, and the
 * bidi overrides that can make text read differently from its bytes. */
static bool is_hostile(uint32_t c)
{
    return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
           (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

/* The length of the run at s[0..n) of printable ASCII other than ':' and
 * '#': what the loop below appends byte for byte as it is, whatever the
 * bytes around (*bol: still at a line's start, blanks only). */
static size_t plain_run(const char *s, size_t n, bool *bol)
{
    size_t r = 0;
    while (r < n && (unsigned char)s[r] >= 0x20 && (unsigned char)s[r] < 0x7F && s[r] != ':' &&
           s[r] != '#')
        r++;
    for (size_t i = 0; *bol && i < r; i++)
        *bol = s[i] == ' ';
    return r;
}

/* runs: take such runs whole (the fast path); without it each character
 * goes through the loop (an_rpt_text_general, which the tests compare) */
static void text(struct an_buf *b, const char *s, size_t n, size_t cut, const char *nl_indent,
                 unsigned flags, bool runs)
{
    size_t limit = (cut && cut < n) ? cut : n;
    size_t i = 0;
    /* At the start of a line we begin (leading blanks skipped), "::" would
     * be a GitHub Actions workflow command, and "##[" is one anywhere in a
     * line (the runner's legacy syntax): a CI log shows this text. */
    bool bol = !(flags & AN_RPT_QUOTE);
    if (flags & AN_RPT_QUOTE)
        an_buf_putc(b, '"');
    while (i < n) {
        size_t r = runs ? plain_run(s + i, limit - i, &bol) : 0;
        if (r) {
            an_buf_append(b, s + i, r);
            i += r;
            continue;
        }
        uint32_t c = 0;
        size_t k = an_rpt_utf8_next(s + i, n - i, &c);
        if (i + (k ? k : 1) > limit)
            break;
        if (!k) {
            an_buf_append(b, "\xEF\xBF\xBD", 3);
            i++;
            bol = false;
            continue;
        }
        if (bol && c == ':' && i + 1 < n && s[i + 1] == ':') {
            an_buf_puts(b, "\\u003a");
        } else if (c == '#' && i + 2 < n && i + 2 <= limit && s[i + 1] == '#' && s[i + 2] == '[') {
            an_buf_puts(b, "#\\u0023");
            k = 2; /* the '[' follows as it is */
        } else if (!is_hostile(c)) {
            an_buf_append(b, s + i, k);
        } else if (c == '\n' && nl_indent) {
            an_buf_putc(b, '\n');
            an_buf_puts(b, nl_indent);
            i += k;
            bol = true;
            continue;
        } else if (c == '\r' && nl_indent && i + 1 < n && s[i + 1] == '\n') {
            /* CRLF from an HTTP body: the \n alone already breaks the line */
        } else if (c == '\t' && nl_indent) {
            an_buf_putc(b, '\t');
        } else if (c == '\n') {
            an_buf_puts(b, "\\n");
        } else if (c == '\t') {
            an_buf_puts(b, "\\t");
        } else if (c == '\r') {
            an_buf_puts(b, "\\r");
        } else {
            an_buf_printf(b, "\\u%04x", (unsigned)c);
        }
        if (!(bol && (c == ' ' || c == '\t')))
            bol = false;
        i += k;
    }
    if (i < n)
        an_buf_puts(b, "\xE2\x80\xA6"); /* … */
    if (flags & AN_RPT_QUOTE)
        an_buf_putc(b, '"');
    if (i < n)
        an_buf_printf(b, " (+%zu bytes)", n - i);
}

void an_rpt_text(struct an_buf *b, const char *s, size_t n, size_t cut, const char *nl_indent,
                 unsigned flags)
{
    text(b, s, n, cut, nl_indent, flags, true);
}

void an_rpt_text_general(struct an_buf *b, const char *s, size_t n, size_t cut,
                         const char *nl_indent, unsigned flags)
{
    text(b, s, n, cut, nl_indent, flags, false);
}

void an_rpt_str(struct an_buf *b, const char *s, size_t cut, const char *nl_indent, unsigned flags)
{
    if (s)
        an_rpt_text(b, s, strlen(s), cut, nl_indent, flags);
    else if (flags & AN_RPT_QUOTE)
        an_buf_puts(b, "\"\"");
}

void an_rpt_json(struct an_buf *b, const json_t *v, size_t cut)
{
    char *s = an_json_compact(v);
    an_rpt_text(b, s, strlen(s), cut, NULL, 0);
    free(s);
}
