/* How findings are worded: quoting, cutting, regexes, call counts. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "check/check_int.h"

void chk_ncalls(struct an_buf *b, size_t n)
{
    an_buf_printf(b, "%zu call%s", n, n == 1 ? "" : "s");
}

static void put_cut(struct an_buf *b, const char *s, size_t len, bool quoted)
{
    size_t n = len;
    if (n > CHK_CUT) {
        n = CHK_CUT;
        /* Back up to a character boundary so the cut never leaves half a
         * UTF-8 sequence (a reporter would show it as garbage). */
        while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80)
            n--;
    }
    if (quoted)
        an_buf_putc(b, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (quoted && (c == '"' || c == '\\'))
            an_buf_printf(b, "\\%c", c);
        else if (c == '\n')
            an_buf_puts(b, "\\n");
        else if (c == '\r')
            an_buf_puts(b, "\\r");
        else if (c == '\t')
            an_buf_puts(b, "\\t");
        else if (c < 0x20 || c == 0x7F)
            an_buf_printf(b, "\\u%04x", c);
        else
            an_buf_putc(b, (char)c);
    }
    if (n < len)
        an_buf_puts(b, "…");
    if (quoted)
        an_buf_putc(b, '"');
}

void chk_quote(struct an_buf *b, const char *s, size_t len)
{
    put_cut(b, s, len, true);
}

void chk_cut(struct an_buf *b, const char *s, size_t len)
{
    put_cut(b, s, len, false);
}

void chk_quote_json(struct an_buf *b, const json_t *v)
{
    if (!v) {
        an_buf_puts(b, "missing");
        return;
    }
    char *t = an_json_match_text(v);
    chk_quote(b, t, strlen(t));
    free(t);
}

void chk_regex(struct an_buf *b, const struct an_regex *re)
{
    an_buf_printf(b, "/%s/%s", re->pattern, re->flags);
}

void chk_called_names(struct an_buf *b, const struct an_scope *s)
{
    size_t shown = 0;
    for (size_t i = 0; i < s->ncalls; i++) {
        const char *name = s->calls[i].name ? s->calls[i].name : "";
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = s->calls[j].name && strcmp(s->calls[j].name, name) == 0;
        if (seen)
            continue;
        if (shown == CHK_LIST) {
            an_buf_puts(b, ", …");
            return;
        }
        an_buf_printf(b, "%s%s", shown ? ", " : "", name);
        shown++;
    }
    if (!shown)
        an_buf_puts(b, "nothing");
}

int chk_find(const struct an_regex *re, const char *s, size_t len, size_t *so, size_t *eo)
{
    return an_regex_find(re, s, len, so, eo);
}

void chk_gave_up(struct an_buf *b, const struct an_regex *re)
{
    an_buf_puts(b, "no verdict: ");
    chk_regex(b, re);
    an_buf_printf(b,
                  " gave up on this text (over %u backtracking steps or %u KiB); a "
                  "pattern that backtracks catastrophically cannot judge",
                  AN_REGEX_MATCH_LIMIT, AN_REGEX_HEAP_LIMIT);
}

void chk_add(struct an_findings *out, const char *kind, const struct an_scope *s,
             const struct an_loc *loc, const struct an_buf *assertion,
             const struct an_buf *expected, const struct an_buf *actual,
             const struct an_buf *detail)
{
    const char *d = detail && detail->len ? an_buf_cstr(detail) : NULL;
    an_findings_add(out, kind, s->turn, loc ? loc->file : NULL, loc ? loc->line : 0,
                    loc ? loc->col : 0, an_buf_cstr(assertion), an_buf_cstr(expected),
                    an_buf_cstr(actual), d);
}
