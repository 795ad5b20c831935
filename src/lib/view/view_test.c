/* `ananke view`'s test page: the test's counters and findings in a run,
 * its outcomes over time (an inline SVG sparkline, no script), and, when
 * the run was recorded, the conversation with each tool call's arguments
 * and result. */
#include <string.h>

#include "report/html_int.h"
#include "view/view_int.h"

static void counters(struct an_buf *b, const json_t *t)
{
    static const char *const keys[] = {"duration_ms",  "tool_calls",    "turns", "ttft_ms",
                                       "input_tokens", "output_tokens", NULL};
    an_buf_puts(b, "<table id=\"counters\" class=\"meta\">");
    for (size_t i = 0; keys[i]; i++) {
        json_t *v = json_object_get(t, keys[i]);
        an_buf_printf(b, "<tr><th>%s</th><td>", keys[i]);
        if (json_is_integer(v))
            an_buf_printf(b, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
        else
            an_buf_puts(b, "<span class=\"muted\">not known</span>");
        an_buf_puts(b, "</td></tr>");
    }
    json_t *cost = json_object_get(t, "cost");
    if (json_is_number(cost))
        an_buf_printf(b, "<tr><th>cost</th><td>%.6g</td></tr>", json_number_value(cost));
    an_buf_puts(b, "</table>\n");
}

static void findings(struct an_buf *b, const json_t *t, const json_t *fs)
{
    if (*view_str(t, "error")) {
        an_buf_puts(b, "<h2>Error</h2><pre id=\"error\">");
        html_text(b, view_str(t, "error"), true);
        an_buf_puts(b, "</pre>");
    }
    if (!json_array_size(fs))
        return;
    an_buf_puts(b, "<h2>Findings</h2><table id=\"findings\"><thead><tr><th>kind</th><th>"
                   "assertion</th><th>expected</th><th>actual</th><th>turn</th><th>where</th>"
                   "</tr></thead><tbody>");
    size_t i;
    json_t *f;
    json_array_foreach(fs, i, f)
    {
        static const char *const keys[] = {"kind", "assertion", "expected", "actual", NULL};
        an_buf_puts(b, "<tr>");
        for (size_t k = 0; keys[k]; k++) {
            an_buf_puts(b, "<td><pre>");
            html_text(b, view_str(f, keys[k]), true);
            an_buf_puts(b, "</pre></td>");
        }
        json_int_t turn = view_int(f, "turn");
        if (turn >= 0)
            an_buf_printf(b, "<td>%" JSON_INTEGER_FORMAT "</td><td>", turn);
        else
            an_buf_puts(b, "<td>test</td><td>");
        html_text(b, view_str(f, "file"), false);
        if (view_int(f, "line") > 0)
            an_buf_printf(b, ":%" JSON_INTEGER_FORMAT, view_int(f, "line"));
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
}

/* One bar per run, oldest left, coloured by outcome; the run shown is
 * outlined; each links to the test in that run. */
static void sparkline(struct an_buf *b, const json_t *hist, json_int_t cur, const char *tid)
{
    size_t n = json_array_size(hist);
    an_buf_printf(b,
                  "<h2>Over time</h2><svg class=\"spark\" id=\"spark\" role=\"img\" "
                  "aria-label=\"outcomes of the last %zu runs\" width=\"%zu\" height=\"22\" "
                  "viewBox=\"0 0 %zu 22\" xmlns=\"http://www.w3.org/2000/svg\">",
                  n, n * 10 + 2, n * 10 + 2);
    static const char *const known[] = {"pass", "fail", "error", "skip"};
    for (size_t i = 0; i < n; i++) {
        const json_t *h = json_array_get(hist, i);
        const char *o = view_str(h, "outcome"), *cls = "skip";
        for (size_t k = 0; k < sizeof known / sizeof *known; k++)
            if (!strcmp(o, known[k]))
                cls = known[k];
        json_int_t run = view_int(h, "run_id");
        bool up = !strcmp(cls, "pass");
        an_buf_printf(b, "<a href=\"/runs/%" JSON_INTEGER_FORMAT "/tests/", run);
        html_text(b, tid, false);
        an_buf_printf(b,
                      "\"><rect class=\"%s%s\" x=\"%zu\" y=\"%d\" width=\"8\" height=\"%d\">"
                      "<title>#%" JSON_INTEGER_FORMAT " ",
                      cls, run == cur ? " cur" : "", i * 10 + 1, up ? 1 : 9, up ? 12 : 12, run);
        html_text(b, o, false);
        an_buf_puts(b, "</title></rect></a>");
    }
    an_buf_puts(b, "</svg>\n<table id=\"history\"><thead><tr><th>run</th><th>started</th>"
                   "<th>outcome</th><th>duration</th></tr></thead><tbody>");
    for (size_t i = n; i-- > 0;) {
        const json_t *h = json_array_get(hist, i);
        json_int_t run = view_int(h, "run_id");
        an_buf_printf(b,
                      "<tr><td><a href=\"/runs/%" JSON_INTEGER_FORMAT "\">#%" JSON_INTEGER_FORMAT
                      "</a></td><td>",
                      run, run);
        html_text(b, view_str(h, "started_at"), false);
        an_buf_puts(b, "</td><td>");
        view_outcome(b, view_str(h, "outcome"));
        an_buf_printf(b, "</td><td>%" JSON_INTEGER_FORMAT " ms</td></tr>",
                      view_int(h, "duration_ms"));
    }
    an_buf_puts(b, "</tbody></table>\n");
}

static void tool_call(struct an_buf *b, const json_t *c)
{
    an_buf_puts(b, "<div class=\"call\"><span class=\"who\">tool call</span> <code>");
    html_text(b, view_str(c, "name"), false);
    an_buf_puts(b, "</code> <span class=\"muted\">");
    html_text(b, view_str(c, "id"), false);
    an_buf_puts(b, "</span><div>arguments</div><pre class=\"args\">");
    json_t *args = json_object_get(c, "args");
    if (args && !json_is_null(args))
        html_json_pretty(b, args);
    else
        html_text(b, view_str(c, "args_text"), true);
    an_buf_puts(b, "</pre><div>result</div><pre class=\"result\">");
    html_json_pretty(b, json_object_get(c, "result"));
    an_buf_puts(b, "</pre></div>\n");
}

static void turn(struct an_buf *b, const json_t *t, const json_t *calls)
{
    json_int_t idx = view_int(t, "index");
    an_buf_printf(b, "<div class=\"turn\"><div class=\"muted\">turn %" JSON_INTEGER_FORMAT " · ",
                  idx + 1);
    html_text(b, view_str(t, "status"), false);
    json_t *s = json_object_get(t, "start_ms"), *e = json_object_get(t, "end_ms");
    json_t *ft = json_object_get(t, "first_text_ms");
    if (json_is_integer(s) && json_is_integer(e))
        an_buf_printf(b, " · %" JSON_INTEGER_FORMAT " ms",
                      json_integer_value(e) - json_integer_value(s));
    if (json_is_integer(s) && json_is_integer(ft))
        an_buf_printf(b, " · first text after %" JSON_INTEGER_FORMAT " ms",
                      json_integer_value(ft) - json_integer_value(s));
    an_buf_puts(b, "</div><div class=\"who\">user</div><pre class=\"user\">");
    html_text(b, view_str(t, "input"), true);
    an_buf_puts(b, "</pre>");
    size_t i;
    json_t *c;
    json_array_foreach(calls, i, c)
    {
        if (json_is_object(c) && view_int(c, "turn") == idx)
            tool_call(b, c);
    }
    an_buf_puts(b, "<div class=\"who\">agent</div><pre class=\"agent\">");
    html_text(b, view_str(t, "text"), true);
    an_buf_puts(b, "</pre></div>\n");
}

static void conversation(struct an_buf *b, const json_t *doc)
{
    const json_t *rec = json_object_get(doc, "recording");
    an_buf_puts(b, "<h2>Conversation</h2>");
    if (!json_is_object(rec)) {
        an_buf_puts(b, "<p class=\"muted\" id=\"no-recording\">");
        html_text(b,
                  *view_str(doc, "recording_note")
                      ? view_str(doc, "recording_note")
                      : "the run was not recorded (ananke run --record DIR keeps the conversation)",
                  false);
        an_buf_puts(b, "</p>");
        return;
    }
    const json_t *turns = json_object_get(rec, "turns"),
                 *calls = json_object_get(rec, "tool_calls");
    an_buf_puts(b, "<div id=\"conversation\">");
    size_t i;
    json_t *t;
    json_array_foreach(turns, i, t)
    {
        if (json_is_object(t))
            turn(b, t, calls);
    }
    an_buf_puts(b, "</div>");
}

void view_html_test(struct an_buf *b, const json_t *doc)
{
    const json_t *run = json_object_get(doc, "run"), *t = json_object_get(doc, "test");
    json_int_t rid = view_int(run, "id");
    view_page_open(b, view_str(t, "name"));
    an_buf_puts(b, "<h1 id=\"name\">");
    html_text(b, view_str(t, "name"), false);
    an_buf_puts(b, "</h1><p>");
    view_outcome(b, view_str(t, "outcome"));
    an_buf_printf(b,
                  " in <a href=\"/runs/%" JSON_INTEGER_FORMAT "\">run #%" JSON_INTEGER_FORMAT
                  "</a> · <span class=\"mono\">",
                  rid, rid);
    html_text(b, view_str(t, "file"), false);
    an_buf_puts(b, "</span>");
    const json_t *tags = json_object_get(json_object_get(doc, "recording"), "tags");
    size_t i;
    json_t *tag;
    json_array_foreach(tags, i, tag)
    {
        an_buf_puts(b, " <span class=\"tag\">");
        html_text(b, json_string_value(tag), false);
        an_buf_puts(b, "</span>");
    }
    an_buf_puts(b, "</p>");
    counters(b, t);
    findings(b, t, json_object_get(doc, "findings"));
    sparkline(b, json_object_get(doc, "history"), rid, view_str(t, "test_id"));
    conversation(b, doc);
    view_page_close(b);
}
