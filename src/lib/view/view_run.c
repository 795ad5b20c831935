/* `ananke view`'s run page (its tests, failures first, with a search) and
 * two runs side by side (each test's outcome in both, changes first). */
#include <string.h>

#include "report/html_int.h"
#include "view/view_int.h"

static void run_head(struct an_buf *b, const json_t *run)
{
    an_buf_printf(b, "<h1>Run #%" JSON_INTEGER_FORMAT " <span class=\"muted\">",
                  view_int(run, "id"));
    html_text(b, view_str(run, "kind"), false);
    an_buf_puts(b, "</span></h1><table class=\"meta\">");
    static const char *const keys[] = {"started_at", "finished_at", "command",   "git_branch",
                                       "git_commit", "shard",       "recording", NULL};
    for (size_t i = 0; keys[i]; i++) {
        if (!*view_str(run, keys[i]))
            continue;
        an_buf_printf(b, "<tr><th>%s</th><td class=\"mono\">", keys[i]);
        html_text(b, view_str(run, keys[i]), false);
        an_buf_puts(b, "</td></tr>");
    }
    an_buf_printf(b,
                  "<tr><th>totals</th><td>%" JSON_INTEGER_FORMAT " passed, %" JSON_INTEGER_FORMAT
                  " failed, %" JSON_INTEGER_FORMAT " errors, %" JSON_INTEGER_FORMAT
                  " skipped, %" JSON_INTEGER_FORMAT " ms</td></tr></table>\n",
                  view_int(run, "passed"), view_int(run, "failed"), view_int(run, "errors"),
                  view_int(run, "skipped"), view_int(run, "duration_ms"));
}

static void test_row(struct an_buf *b, json_int_t run_id, const json_t *t)
{
    an_buf_puts(b, "<tr class=\"test\"><td>");
    view_outcome(b, view_str(t, "outcome"));
    /* the test id is 16 hex digits as the history writes it; anything else
     * is escaped like the rest (it only makes a dead link) */
    an_buf_printf(b, "</td><td><a href=\"/runs/%" JSON_INTEGER_FORMAT "/tests/", run_id);
    html_text(b, view_str(t, "test_id"), false);
    an_buf_puts(b, "\">");
    html_text(b, view_str(t, "name"), false);
    an_buf_puts(b, "</a>");
    size_t i;
    json_t *tag;
    json_array_foreach(json_object_get(t, "tags"), i, tag)
    {
        an_buf_puts(b, " <span class=\"tag\">");
        html_text(b, json_string_value(tag), false);
        an_buf_puts(b, "</span>");
    }
    an_buf_puts(b, "</td><td>");
    html_text(b, view_str(t, "file"), false);
    an_buf_printf(b,
                  "</td><td>%" JSON_INTEGER_FORMAT " ms</td><td>%" JSON_INTEGER_FORMAT
                  "</td><td>%" JSON_INTEGER_FORMAT "</td><td>",
                  view_int(t, "duration_ms"), view_int(t, "tool_calls"), view_int(t, "turns"));
    html_text(b, *view_str(t, "finding") ? view_str(t, "finding") : view_str(t, "error"), false);
    an_buf_puts(b, "</td></tr>\n");
}

void view_html_run(struct an_buf *b, const json_t *doc, const char *q)
{
    const json_t *run = json_object_get(doc, "run"), *tests = json_object_get(doc, "tests");
    json_int_t id = view_int(run, "id");
    char title[48];
    snprintf(title, sizeof title, "Run #%" JSON_INTEGER_FORMAT, id);
    view_page_open(b, title);
    run_head(b, run);
    if (id > 1)
        an_buf_printf(b,
                      "<p><a id=\"vs-prev\" href=\"/compare/%" JSON_INTEGER_FORMAT
                      "/%" JSON_INTEGER_FORMAT "\">Compare with run #%" JSON_INTEGER_FORMAT
                      "</a></p>",
                      id - 1, id, id - 1);
    an_buf_printf(b,
                  "<form method=\"get\" action=\"/runs/%" JSON_INTEGER_FORMAT
                  "\" id=\"search\"><label>search <input name=\"q\" value=\"",
                  id);
    html_text(b, q, false);
    an_buf_puts(b, "\" placeholder=\"name, file, finding\"></label>"
                   "<button type=\"submit\">Search</button></form>\n");
    if (!json_array_size(tests)) {
        an_buf_puts(b, "<p id=\"empty\">No test matches.</p>");
        view_page_close(b);
        return;
    }
    an_buf_puts(b, "<table id=\"tests\"><thead><tr><th>outcome</th><th>test</th><th>file</th>"
                   "<th>duration</th><th>tool calls</th><th>turns</th><th>finding or error</th>"
                   "</tr></thead><tbody>\n");
    size_t i;
    json_t *t;
    json_array_foreach(tests, i, t) test_row(b, id, t);
    an_buf_puts(b, "</tbody></table>");
    if (json_is_string(json_object_get(doc, "truncated")))
        view_html_cut(b, (unsigned)json_array_size(tests));
    view_page_close(b);
}

static void cmp_row(struct an_buf *b, const json_t *t, json_int_t rb)
{
    const char *ch = view_str(t, "change");
    an_buf_printf(b, "<tr class=\"%s\"><td>",
                  !strcmp(ch, "regressed") ? "regressed"
                  : !strcmp(ch, "fixed")   ? "fixed"
                                           : "x");
    if (strcmp(ch, "gone")) {
        an_buf_printf(b, "<a href=\"/runs/%" JSON_INTEGER_FORMAT "/tests/", rb);
        html_text(b, view_str(t, "test_id"), false);
        an_buf_puts(b, "\">");
        html_text(b, view_str(t, "name"), false);
        an_buf_puts(b, "</a>");
    } else {
        html_text(b, view_str(t, "name"), false);
    }
    an_buf_puts(b, "</td><td>");
    html_text(b, view_str(t, "file"), false);
    an_buf_puts(b, "</td><td>");
    view_outcome(b, json_string_value(json_object_get(t, "a")));
    an_buf_puts(b, "</td><td>");
    view_outcome(b, json_string_value(json_object_get(t, "b")));
    an_buf_puts(b, "</td><td>");
    json_t *ma = json_object_get(t, "a_ms"), *mb = json_object_get(t, "b_ms");
    if (json_is_integer(ma) && json_is_integer(mb))
        an_buf_printf(b, "%" JSON_INTEGER_FORMAT " → %" JSON_INTEGER_FORMAT " ms",
                      json_integer_value(ma), json_integer_value(mb));
    an_buf_puts(b, "</td><td class=\"change\">");
    html_text(b, ch, false);
    an_buf_puts(b, "</td></tr>\n");
}

void view_html_compare(struct an_buf *b, const json_t *cmp)
{
    json_int_t ra = view_int(json_object_get(cmp, "a"), "id");
    json_int_t rb = view_int(json_object_get(cmp, "b"), "id");
    char title[80];
    snprintf(title, sizeof title, "Run #%" JSON_INTEGER_FORMAT " vs #%" JSON_INTEGER_FORMAT, ra,
             rb);
    view_page_open(b, title);
    an_buf_printf(b,
                  "<h1><a href=\"/runs/%" JSON_INTEGER_FORMAT "\">Run #%" JSON_INTEGER_FORMAT
                  "</a> vs <a href=\"/runs/%" JSON_INTEGER_FORMAT "\">run #%" JSON_INTEGER_FORMAT
                  "</a></h1><p id=\"changed\">%" JSON_INTEGER_FORMAT
                  " tests changed outcome.</p>\n",
                  ra, ra, rb, rb, view_int(cmp, "changed"));
    an_buf_printf(
        b,
        "<table id=\"compare\"><thead><tr><th>test</th><th>file</th><th>#%" JSON_INTEGER_FORMAT
        "</th><th>#%" JSON_INTEGER_FORMAT
        "</th><th>duration</th><th>change</th></tr></thead><tbody>\n",
        ra, rb);
    const json_t *tests = json_object_get(cmp, "tests");
    /* the changes first, then the tests that kept their outcome */
    for (int pass = 0; pass < 2; pass++) {
        size_t i;
        json_t *t;
        json_array_foreach(tests, i, t)
        {
            if ((strcmp(view_str(t, "change"), "same") != 0) == (pass == 0))
                cmp_row(b, t, rb);
        }
    }
    an_buf_puts(b, "</tbody></table>");
    if (json_is_string(json_object_get(cmp, "truncated")))
        view_html_cut(b, (unsigned)json_array_size(tests));
    view_page_close(b);
}
