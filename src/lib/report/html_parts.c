/* Small pieces of the HTML report (report/html_int.h). */
#include "report/html_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "report/report_util.h"

/* Untrusted s[0..n), made safe and escaped. `multi` keeps line breaks and
 * tabs as they are (for pre-wrap blocks); otherwise they show as \n, \t. */
void html_text_n(struct an_buf *b, const char *s, size_t n, bool multi)
{
    struct an_buf tmp = AN_BUF_INIT;
    an_rpt_text(&tmp, s, n, HTML_CUT, multi ? "" : NULL, 0);
    an_rpt_html(b, tmp.data ? tmp.data : "", tmp.len);
    an_buf_release(&tmp);
}

/* NULL shows as nothing. */
void html_text(struct an_buf *b, const char *s, bool multi)
{
    if (s)
        html_text_n(b, s, strlen(s), multi);
}

/* A JSON value pretty-printed; a string as its text (a tool result that
 * was plain text reads better without quotes and \n escapes). */
void html_json_pretty(struct an_buf *b, const json_t *v)
{
    if (!v) {
        an_buf_puts(b, "null");
        return;
    }
    if (json_is_string(v)) {
        html_text_n(b, json_string_value(v), json_string_length(v), true);
        return;
    }
    char *s = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    if (!s)
        s = an_json_compact(v);
    html_text(b, s, true);
    free(s);
}

const char *html_status_label(const struct an_test_result *t)
{
    enum an_status s = t->status;
    return t->expect == AN_EXPECT_FAILED  ? "XFAIL"
           : t->expect == AN_EXPECT_STALE ? "STALE"
           : s == AN_STATUS_PASS          ? "PASS"
           : s == AN_STATUS_FAIL          ? "FAIL"
           : s == AN_STATUS_SKIP          ? "SKIP"
           : s == AN_STATUS_INCONCLUSIVE  ? "INCONCLUSIVE"
                                          : "ERROR";
}

void html_ms(struct an_buf *b, int64_t v)
{
    char d[32];
    an_buf_puts(b, an_rpt_ms(d, sizeof d, v));
}

/* part/whole as a CSS percentage with one decimal, in integers: the
 * library must not depend on LC_NUMERIC for a '.' */
void html_pct(struct an_buf *b, int64_t part, int64_t whole)
{
    int64_t pm = whole > 0 ? part * 1000 / whole : 0;
    if (pm < 0)
        pm = 0;
    if (pm > 1000)
        pm = 1000;
    an_buf_printf(b, "%d.%d%%", (int)(pm / 10), (int)(pm % 10));
}

static void html_location(struct an_buf *b, const struct an_finding *f)
{
    if (!f->file)
        return;
    an_buf_puts(b, "<div class=\"loc\">at <span class=\"mono\">");
    html_text(b, f->file, false);
    if (f->line) {
        an_buf_printf(b, ":%u", f->line);
        if (f->col)
            an_buf_printf(b, ":%u", f->col);
    }
    an_buf_puts(b, "</span></div>");
}

void html_kv(struct an_buf *b, const char *key, const char *val)
{
    if (!val)
        return;
    an_buf_printf(b, "<dt>%s</dt><dd>", key);
    html_text(b, val, true);
    an_buf_puts(b, "</dd>");
}

void html_finding(struct an_buf *b, const struct an_finding *f)
{
    an_buf_puts(b, "<div class=\"finding\"><div class=\"title\">");
    html_text(b, f->assertion ? f->assertion : "assertion failed", false);
    an_buf_puts(b, " <span class=\"chip\">");
    html_text(b, f->kind ? f->kind : "?", false);
    an_buf_puts(b, "</span></div>");
    if (f->expected || f->actual || f->detail) {
        an_buf_puts(b, "<dl class=\"kv\">");
        html_kv(b, "expected", f->expected);
        html_kv(b, "actual", f->actual);
        html_kv(b, "detail", f->detail);
        an_buf_puts(b, "</dl>");
    }
    html_location(b, f);
    an_buf_puts(b, "</div>\n");
}

void html_notes(struct an_buf *b, const char *cls, char **v, size_t n)
{
    if (!n)
        return;
    an_buf_printf(b, "<ul class=\"notes %s\">", cls);
    for (size_t i = 0; i < n; i++) {
        an_buf_puts(b, "<li>");
        html_text(b, v[i], true);
        an_buf_puts(b, "</li>");
    }
    an_buf_puts(b, "</ul>");
}
