/* Escaping untrusted text for each report format (report/rpt_escape.h). */
#include "report/rpt_escape.h"

#include <string.h>

size_t an_rpt_utf8_next(const char *s, size_t n, uint32_t *cp)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t len;
    uint32_t c;
    if (!n)
        return 0;
    if (p[0] < 0x80) {
        *cp = p[0];
        return 1;
    }
    if ((p[0] & 0xE0) == 0xC0)
        len = 2, c = p[0] & 0x1Fu;
    else if ((p[0] & 0xF0) == 0xE0)
        len = 3, c = p[0] & 0x0Fu;
    else if ((p[0] & 0xF8) == 0xF0)
        len = 4, c = p[0] & 0x07u;
    else
        return 0;
    if (len > n)
        return 0;
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        c = (c << 6) | (p[i] & 0x3Fu);
    }
    if ((len == 2 && c < 0x80) || (len == 3 && c < 0x800) || (len == 4 && c < 0x10000) ||
        c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return 0;
    *cp = c;
    return len;
}

void an_rpt_escape(struct an_buf *b, const char *s, an_rpt_esc_fn *esc, bool attr)
{
    size_t n = s ? strlen(s) : 0, i = 0;
    while (i < n) {
        uint32_t c = 0;
        size_t k = an_rpt_utf8_next(s + i, n - i, &c);
        if (!k) {
            an_buf_append(b, "\xEF\xBF\xBD", 3);
            i++;
            continue;
        }
        esc(b, c, s + i, k, attr);
        i += k;
    }
}

/* One character for an_rpt_xml(). */
static void xml_esc(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr, bool apos)
{
    switch (c) {
    case '&':
        an_buf_puts(b, "&amp;");
        break;
    case '<':
        an_buf_puts(b, "&lt;");
        break;
    case '>':
        an_buf_puts(b, "&gt;");
        break;
    case '"':
        an_buf_puts(b, "&quot;");
        break;
    case '\'':
        if (apos)
            an_buf_puts(b, "&apos;");
        else
            an_buf_append(b, s, k);
        break;
    case '\t':
    case '\n':
    case '\r':
        if (attr)
            an_buf_printf(b, "&#%u;", (unsigned)c);
        else
            an_buf_putc(b, (char)c);
        break;
    default:
        if (c >= 0x20 && c != 0xFFFE && c != 0xFFFF)
            an_buf_append(b, s, k);
        break;
    }
}

/* an_rpt_escape() has one switch (attr); apos picks one of these two. */
static void xml_esc_apos(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr)
{
    xml_esc(b, c, s, k, attr, true);
}

static void xml_esc_keep_apos(struct an_buf *b, uint32_t c, const char *s, size_t k, bool attr)
{
    xml_esc(b, c, s, k, attr, false);
}

void an_rpt_xml(struct an_buf *b, const char *s, bool attr, bool apos)
{
    an_rpt_escape(b, s, apos ? xml_esc_apos : xml_esc_keep_apos, attr);
}

void an_rpt_html(struct an_buf *b, const char *s, size_t n)
{
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        const char *ent;
        switch (s[i]) {
        case '&':
            ent = "&amp;";
            break;
        case '<':
            ent = "&lt;";
            break;
        case '>':
            ent = "&gt;";
            break;
        case '"':
            ent = "&quot;";
            break;
        case '\'':
            ent = "&#39;";
            break;
        default:
            continue;
        }
        an_buf_append(b, s + from, i - from);
        an_buf_puts(b, ent);
        from = i + 1;
    }
    an_buf_append(b, s + from, n - from);
}
