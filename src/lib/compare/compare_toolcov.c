/*
 * Tool coverage between two runs (docs/compare.md "Tool coverage"): per
 * tool server of either run's results.json `tool_coverage`, the ratio on
 * each side, its change, and the tools called in one run and not the
 * other (among those the server exposes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare_int.h"
#include "core/json.h"
#include "report/rpt_text.h"

/* Exposed tools of side s that it called. */
static bool covered(const json_t *s, const char *tool)
{
    return json_object_get(json_object_get(s, "called"), tool) != NULL;
}

static json_t *ratio_of(const json_t *s)
{
    const json_t *r = json_object_get(s, "ratio");
    return json_is_number(r) ? json_real(json_number_value(r)) : json_null();
}

/* Tools in the exposed list of `in` covered there and not in `other`. */
static json_t *covered_only(const json_t *in, const json_t *other)
{
    json_t *out = json_array();
    size_t i;
    const json_t *n;
    json_array_foreach(json_object_get(in, "exposed"), i, n)
    {
        const char *t = json_string_value(n);
        if (t && covered(in, t) && !covered(other, t))
            json_array_append_new(out, json_string(t));
    }
    return out;
}

static json_t *server_change(const json_t *b, const json_t *n)
{
    json_t *br = ratio_of(b), *nr = ratio_of(n);
    json_t *delta = json_is_number(br) && json_is_number(nr)
                        ? json_real(json_number_value(nr) - json_number_value(br))
                        : json_null();
    return json_pack("{s:o,s:o,s:o,s:o,s:o}", "baseline_ratio", br, "new_ratio", nr, "ratio_delta",
                     delta, "newly_covered", covered_only(n, b), "no_longer_covered",
                     covered_only(b, n));
}

json_t *cmp_tool_coverage(const struct an_compare *c)
{
    const json_t *side[2] = {json_object_get(c->run[CMP_BASE].doc, "tool_coverage"),
                             json_object_get(c->run[CMP_NEW].doc, "tool_coverage")};
    if (!json_is_object(side[0]) && !json_is_object(side[1]))
        return NULL;
    json_t *out = json_object();
    for (int k = 0; k < 2; k++) {
        const char *name;
        json_t *v;
        json_object_foreach((json_t *)side[k], name, v)
        {
            if (!json_object_get(out, name))
                json_object_set_new(
                    out, name,
                    server_change(json_object_get(side[0], name), json_object_get(side[1], name)));
        }
    }
    return out;
}

static void ratio_text(struct an_buf *b, const json_t *r)
{
    if (json_is_number(r))
        an_buf_printf(b, "%.0f%%", json_number_value(r) * 100);
    else
        an_buf_puts(b, "-");
}

static void names(struct an_buf *b, const char *label, const json_t *v)
{
    if (!json_array_size(v))
        return;
    an_buf_printf(b, "; %s: ", label);
    size_t i;
    const json_t *n;
    json_array_foreach(v, i, n)
    {
        if (i)
            an_buf_puts(b, ", ");
        /* a tool's name came from a tool server or an agent */
        an_rpt_str(b, json_string_value(n), 200, NULL, 0);
    }
}

char *an_compare_tool_coverage_text(const struct an_compare *c)
{
    json_t *cov = cmp_tool_coverage(c);
    if (!cov)
        return NULL;
    struct an_buf b = AN_BUF_INIT;
    const char *name;
    json_t *s;
    json_object_foreach(cov, name, s)
    {
        an_buf_puts(&b, "tool coverage: ");
        an_rpt_str(&b, name, 200, NULL, 0);
        an_buf_putc(&b, ' ');
        ratio_text(&b, json_object_get(s, "baseline_ratio"));
        an_buf_puts(&b, " -> ");
        ratio_text(&b, json_object_get(s, "new_ratio"));
        const json_t *d = json_object_get(s, "ratio_delta");
        if (json_is_number(d))
            an_buf_printf(&b, " (%+.0f points)", json_number_value(d) * 100);
        names(&b, "newly covered", json_object_get(s, "newly_covered"));
        names(&b, "no longer covered", json_object_get(s, "no_longer_covered"));
        an_buf_putc(&b, '\n');
    }
    json_decref(cov);
    return an_buf_detach(&b, NULL);
}

static void html_names(struct cmp_page *pg, const json_t *v)
{
    size_t i;
    const json_t *n;
    json_array_foreach(v, i, n)
    {
        if (i)
            an_buf_puts(&pg->b, ", ");
        cmp_page_text(pg, json_string_value(n), false);
    }
}

void cmp_html_tool_coverage(struct cmp_page *pg, const json_t *report)
{
    const json_t *cov = json_object_get(report, "tool_coverage");
    if (!json_is_object(cov))
        return;
    an_buf_puts(&pg->b, "<h2>Tool coverage</h2>\n<table class=\"cases toolcov\"><thead><tr>"
                        "<th>tool server</th><th>baseline</th><th>new</th><th>change</th>"
                        "<th>newly covered</th><th>no longer covered</th></tr></thead><tbody>\n");
    const char *name;
    json_t *s;
    json_object_foreach((json_t *)cov, name, s)
    {
        struct an_buf t = AN_BUF_INIT;
        an_buf_puts(&pg->b, "<tr><td class=\"mono\">");
        cmp_page_text(pg, name, false);
        an_buf_puts(&pg->b, "</td><td>");
        ratio_text(&t, json_object_get(s, "baseline_ratio"));
        an_buf_puts(&t, "</td><td>");
        ratio_text(&t, json_object_get(s, "new_ratio"));
        an_buf_puts(&t, "</td><td>");
        const json_t *d = json_object_get(s, "ratio_delta");
        if (json_is_number(d))
            an_buf_printf(&t, "%+.0f points", json_number_value(d) * 100);
        an_buf_puts(&t, "</td><td class=\"mono\">");
        an_buf_append(&pg->b, t.data, t.len);
        an_buf_release(&t);
        html_names(pg, json_object_get(s, "newly_covered"));
        an_buf_puts(&pg->b, "</td><td class=\"mono\">");
        html_names(pg, json_object_get(s, "no_longer_covered"));
        an_buf_puts(&pg->b, "</td></tr>\n");
    }
    an_buf_puts(&pg->b, "</tbody></table>\n");
}
