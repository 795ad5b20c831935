/* The HTML report's tool coverage (docs/tools.md "Tool coverage"): one
 * table per tool server, above the tests. Tool names and argument keys
 * come from the agent and the tool server: escaped like any agent text. */
#include "report/html_int.h"
#include "report/rpt_toolcov.h"

static void server_table(struct an_buf *b, const struct rpt_cov_server *v)
{
    an_buf_puts(b, "<h3 class=\"mono\">");
    html_text(b, v->name, false);
    an_buf_printf(b, "</h3>\n<p>%zu of %zu tools called", v->ncovered, v->nexposed);
    if (v->has_ratio)
        an_buf_printf(b, " (%.0f%%)", v->ratio * 100);
    an_buf_printf(b, ", %lld call%s, %lld mocked</p>\n", v->calls, v->calls == 1 ? "" : "s",
                  v->mocked);
    an_buf_puts(b, "<table class=\"cps toolcov\"><thead><tr><th>tool</th><th>calls</th>"
                   "<th>tests</th><th>mocked</th><th>argument keys</th></tr></thead><tbody>\n");
    for (size_t i = 0; i < v->ntools; i++) {
        const struct rpt_cov_tool *t = &v->tools[i];
        an_buf_printf(b, "<tr%s><td class=\"mono\">", t->calls ? "" : " class=\"missing\"");
        html_text(b, t->name, false);
        if (!t->exposed)
            an_buf_puts(b, " <span class=\"muted\">(not listed)</span>");
        an_buf_printf(b, "</td><td>%lld</td><td>%lld</td><td>%lld</td><td class=\"mono\">",
                      t->calls, t->tests, t->mocked);
        size_t k;
        const json_t *key;
        json_array_foreach(t->keys, k, key)
        {
            if (k)
                an_buf_puts(b, ", ");
            html_text(b, json_string_value(key), false);
        }
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
}

void html_tool_coverage(struct an_buf *b, const json_t *cov)
{
    const char *name;
    json_t *s;
    if (!cov)
        return;
    an_buf_puts(b, "<section class=\"toolcov\" id=\"tool-coverage\"><h2>Tool coverage</h2>\n");
    json_object_foreach((json_t *)cov, name, s)
    {
        struct rpt_cov_server v;
        rpt_cov_read(name, s, &v);
        server_table(b, &v);
        rpt_cov_release(&v);
    }
    an_buf_puts(b, "</section>\n");
}
