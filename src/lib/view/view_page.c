/* `ananke view`'s page frame and style sheet, the runs list and the flaky
 * table. No script: filters and search are plain GET forms. */
#include <inttypes.h>
#include <string.h>

#include "report/html_int.h"
#include "view/view_int.h"

const char view_style[] =
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;"
    "--card:#f6f8fa;--pass:#1a7f37;--fail:#cf222e;--err:#9a6700;--skip:#8c959f}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
    "--line:#3d444d;--card:#151b23;--pass:#3fb950;--fail:#f85149;--err:#d29922}}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}\n"
    "nav{padding:8px 20px;border-bottom:1px solid var(--line);background:var(--card)}\n"
    "nav a{margin-right:16px}\n"
    "main{max-width:1200px;margin:0 auto;padding:12px 20px 40px}\n"
    "a{color:#0969da}h1{font-size:21px}h2{font-size:17px;margin-top:24px}\n"
    "table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:4px 8px;"
    "border-bottom:1px solid var(--line);vertical-align:top;overflow-wrap:anywhere}\n"
    "th{color:var(--muted);font-weight:600;white-space:nowrap}table.meta{width:auto}\n"
    ".o{display:inline-block;min-width:48px;text-align:center;border-radius:4px;color:#fff;"
    "font-weight:700;font-size:12px;padding:0 6px}\n"
    ".o-pass{background:var(--pass)}.o-fail{background:var(--fail)}.o-error{background:"
    "var(--err)}.o-skip,.o-none{background:var(--skip)}\n"
    ".spark .pass{fill:var(--pass)}.spark .fail{fill:var(--fail)}.spark .error{fill:var(--err)}"
    ".spark .skip{fill:var(--skip)}.spark .cur{stroke:var(--fg);stroke-width:2}\n"
    ".muted{color:var(--muted)}pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:0;"
    "font:13px ui-monospace,monospace}\n"
    "form{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:8px 0}\n"
    ".turn{border:1px solid var(--line);border-radius:6px;margin:10px 0;padding:8px 12px}\n"
    ".who{font-weight:600;color:var(--muted)}.call{border-left:3px solid var(--line);"
    "padding-left:10px;margin:6px 0}\n"
    ".tag{border:1px solid var(--muted);border-radius:3px;padding:0 4px;font-size:12px;"
    "margin-right:4px}\n"
    "tr.regressed td{background:rgba(207,34,46,.12)}tr.fixed td{background:"
    "rgba(26,127,55,.12)}\n";

const char *view_str(const json_t *o, const char *k)
{
    const char *s = json_string_value(json_object_get(o, k));
    return s ? s : "";
}

json_int_t view_int(const json_t *o, const char *k)
{
    return json_integer_value(json_object_get(o, k));
}

void view_outcome(struct an_buf *b, const char *o)
{
    static const char *const known[] = {"pass", "fail", "error", "skip"};
    const char *cls = "none";
    for (size_t i = 0; o && i < sizeof known / sizeof *known; i++)
        if (!strcmp(o, known[i]))
            cls = known[i];
    an_buf_printf(b, "<span class=\"o o-%s\">", cls);
    html_text(b, o ? o : "-", false);
    an_buf_puts(b, "</span>");
}

void view_page_open(struct an_buf *b, const char *title)
{
    an_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                   "<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">"
                   "<link rel=\"stylesheet\" href=\"/style.css\">"
                   "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\"><title>");
    html_text(b, title, false);
    an_buf_puts(b, " · ananke view</title></head><body><nav><a href=\"/\">Runs</a>"
                   "<a href=\"/flaky\">Flaky tests</a></nav><main>\n");
}

void view_page_close(struct an_buf *b)
{
    an_buf_puts(b, "</main></body></html>\n");
}

void view_html_error(struct an_buf *b, unsigned status, const char *msg)
{
    char t[16];
    snprintf(t, sizeof t, "%u", status);
    view_page_open(b, t);
    an_buf_printf(b, "<h1>%u</h1><p class=\"err\">", status);
    html_text(b, msg, false);
    an_buf_puts(b, "</p>");
    view_page_close(b);
}

/* <option>s of a filter, the current one selected. */
static void options(struct an_buf *b, const char *const *v, const char *cur)
{
    for (size_t i = 0; v[i]; i++)
        an_buf_printf(b, "<option value=\"%s\"%s>%s</option>", v[i],
                      cur && !strcmp(cur, v[i]) ? " selected" : "", *v[i] ? v[i] : "any");
}

static void run_row(struct an_buf *b, const json_t *r, const json_t *prev)
{
    json_int_t id = view_int(r, "id");
    an_buf_printf(b,
                  "<tr><td><a href=\"/runs/%" JSON_INTEGER_FORMAT "\">#%" JSON_INTEGER_FORMAT
                  "</a></td><td>",
                  id, id);
    html_text(b, view_str(r, "started_at"), false);
    an_buf_puts(b, "</td><td>");
    html_text(b, view_str(r, "kind"), false);
    an_buf_puts(b, "</td><td class=\"mono\">");
    html_text(b, view_str(r, "git_branch"), false);
    if (*view_str(r, "git_commit")) {
        an_buf_puts(b, "@");
        html_text_n(b, view_str(r, "git_commit"), strnlen(view_str(r, "git_commit"), 7), false);
    }
    an_buf_printf(b,
                  "</td><td>%" JSON_INTEGER_FORMAT "</td><td>%" JSON_INTEGER_FORMAT
                  "</td><td>%" JSON_INTEGER_FORMAT "</td><td>%" JSON_INTEGER_FORMAT
                  "</td><td>%" JSON_INTEGER_FORMAT " ms</td><td>",
                  view_int(r, "passed"), view_int(r, "failed"), view_int(r, "errors"),
                  view_int(r, "skipped"), view_int(r, "duration_ms"));
    if (prev)
        an_buf_printf(b,
                      "<a href=\"/compare/%" JSON_INTEGER_FORMAT "/%" JSON_INTEGER_FORMAT
                      "\">vs #%" JSON_INTEGER_FORMAT "</a>",
                      view_int(prev, "id"), id, view_int(prev, "id"));
    an_buf_puts(b, "</td><td class=\"mono\">");
    html_text(b, view_str(r, "command"), false);
    an_buf_puts(b, "</td></tr>\n");
}

void view_html_cut(struct an_buf *b, unsigned max_rows)
{
    an_buf_printf(b,
                  "<p class=\"note\" id=\"cut\">Only the first %u rows are shown: the list is "
                  "cut at <code>" VIEW_ROWS_KEY "</code> (the config's <code>view:</code>).</p>",
                  max_rows);
}

void view_html_runs(struct an_buf *b, const json_t *runs, const struct view_filter *f)
{
    static const char *const kinds[] = {"", "run", "replay", "comply", "merge", NULL};
    static const char *const status[] = {"", "failing", "passing", NULL};
    view_page_open(b, "Runs");
    an_buf_puts(b, "<h1>Runs</h1><form method=\"get\" action=\"/\" id=\"filters\">"
                   "<label>kind <select name=\"kind\">");
    options(b, kinds, f->kind);
    an_buf_puts(b, "</select></label><label>status <select name=\"status\">");
    options(b, status, f->status);
    an_buf_puts(b, "</select></label><label>branch <input name=\"branch\" value=\"");
    html_text(b, f->branch, false);
    an_buf_puts(b, "\"></label><label>command or commit <input name=\"q\" value=\"");
    html_text(b, f->q, false);
    an_buf_puts(b, "\"></label><button type=\"submit\">Filter</button></form>\n");
    if (!json_array_size(runs)) {
        an_buf_puts(b, "<p class=\"muted\" id=\"empty\">No run matches.</p>");
        view_page_close(b);
        return;
    }
    an_buf_puts(b, "<table id=\"runs\"><thead><tr><th>run</th><th>started</th><th>kind</th>"
                   "<th>branch@commit</th><th>passed</th><th>failed</th><th>errors</th>"
                   "<th>skipped</th><th>duration</th><th>compare</th><th>command</th></tr>"
                   "</thead><tbody>\n");
    size_t n = json_array_size(runs);
    for (size_t i = 0; i < n; i++)
        run_row(b, json_array_get(runs, i), i + 1 < n ? json_array_get(runs, i + 1) : NULL);
    an_buf_puts(b, "</tbody></table>");
    if (f->cut)
        view_html_cut(b, f->limit);
    view_page_close(b);
}

void view_html_flaky(struct an_buf *b, const json_t *rows, bool cut)
{
    view_page_open(b, "Flaky tests");
    an_buf_puts(b, "<h1>Flaky tests</h1><p class=\"muted\">Tests whose outcome changed between "
                   "two of their runs while their file stayed the same, over each test's last "
                   "20 runs, ranked by flip rate.</p>\n");
    if (!json_array_size(rows)) {
        an_buf_puts(b, "<p id=\"empty\">No flaky test.</p>");
        view_page_close(b);
        return;
    }
    an_buf_puts(b, "<table id=\"flaky\"><thead><tr><th>flip rate</th><th>flips</th><th>runs"
                   "</th><th>last</th><th>test</th><th>file</th></tr></thead><tbody>\n");
    size_t i;
    json_t *r;
    json_array_foreach(rows, i, r)
    {
        an_buf_printf(b,
                      "<tr><td>%.2f</td><td>%" JSON_INTEGER_FORMAT "</td><td>%" JSON_INTEGER_FORMAT
                      "</td><td>",
                      json_real_value(json_object_get(r, "flip_rate")), view_int(r, "flips"),
                      view_int(r, "runs"));
        view_outcome(b, view_str(r, "last_outcome"));
        an_buf_puts(b, "</td><td>");
        html_text(b, view_str(r, "name"), false);
        an_buf_puts(b, "</td><td>");
        html_text(b, view_str(r, "file"), false);
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>");
    if (cut)
        view_html_cut(b, (unsigned)json_array_size(rows));
    view_page_close(b);
}
