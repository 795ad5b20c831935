/*
 * The pages of a compare pack: what every page shares (head, escaping,
 * links, badges) and report.html, the overview.
 *
 * report.html shows the summary of compare-report.json, one row per case
 * (status on each side, regression or improvement, root cause, signals,
 * risk, gate, links to its replay diff and evidence) with a CSS-only filter,
 * the pack's files, and the embedded thin manifest index
 * <script id="embedded-manifest-index" type="application/json">: a data
 * block, never run. Every link is a plain relative href written in the
 * page (zero clicks to resolve: no script is needed, and none runs).
 *
 * Like the run report (html.c), nothing is loaded from anywhere and the
 * Content-Security-Policy allows no source and no script at all; every
 * string from a record goes through redaction, an_rpt_text() and entity
 * escaping, in text and attributes alike.
 */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "compare/compare_int.h"
#include "report/report_util.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

/* One text, argument or result is shown up to this many bytes. */
#define PAGE_CUT 65536

static const char STYLE[] =
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;"
    "--card:#f6f8fa;--code:#eff2f5;--pass:#1a7f37;--fail:#cf222e;--err:#9a6700;"
    "--failbg:#ffebe9;--errbg:#fff8c5;--chg:#fff1b8;--only:#eef3ff;--on:#fff;--link:#0969da}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
    "--line:#3d444d;--card:#151b23;--code:#1c232c;--pass:#3fb950;--fail:#f85149;"
    "--err:#d29922;--failbg:#2d1316;--errbg:#2b2111;--chg:#3a3000;--only:#13233d;"
    "--on:#0d1117;--link:#4493f8}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',"
    "sans-serif}\n"
    "a{color:var(--link)}\n"
    "code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
    "'DejaVu Sans Mono','Liberation Mono',monospace;font-size:13px}\n"
    ".wrap{max-width:1280px;margin:0 auto;padding:16px 20px 48px}\n"
    "h1{font-size:22px;margin:4px 0 10px;overflow-wrap:anywhere}h1 .muted{font-weight:400}\n"
    "h2{font-size:17px;margin:22px 0 8px;border-bottom:1px solid var(--line);"
    "padding-bottom:4px}\n"
    "h3{font-size:14px;margin:12px 0 4px;color:var(--muted)}\n"
    ".muted{color:var(--muted)}\n"
    ".totals{display:flex;flex-wrap:wrap;gap:8px;align-items:center;font-size:16px}\n"
    ".badge{display:inline-block;min-width:52px;text-align:center;padding:1px 7px;"
    "border-radius:4px;font-weight:700;font-size:12px;letter-spacing:.03em;color:var(--on);"
    "background:var(--muted)}\n"
    ".badge.pass,.badge.improvement,.badge.none,.badge.low{background:var(--pass)}\n"
    ".badge.fail,.badge.regression,.badge.block,.badge.high,.badge.broken{background:"
    "var(--fail)}\n"
    ".badge.error,.badge.require_approval,.badge.medium,.badge.missing{background:var(--err)}\n"
    ".badge.unchanged{background:var(--line);color:var(--fg)}\n"
    "dl.meta,dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;"
    "margin:8px 0}\n"
    "dl.meta dt,dl.kv dt{color:var(--muted)}dl.meta dd,dl.kv dd{margin:0;"
    "overflow-wrap:anywhere}\n"
    ".cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(210px,1fr));gap:10px;"
    "margin:12px 0}\n"
    ".card{border:1px solid var(--line);border-radius:6px;padding:8px 12px;"
    "background:var(--card)}\n"
    ".card .num{font-size:24px;font-weight:700}.card .lbl{color:var(--muted);font-size:13px}\n"
    ".card ul{margin:4px 0 0;padding-left:18px;font-size:14px}\n"
    ".bar-tools{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:14px 0 8px}\n"
    ".bar-tools input{position:absolute;opacity:0;width:1px;height:1px}\n"
    ".bar-tools label{border:1px solid var(--line);border-radius:14px;padding:2px 12px;"
    "cursor:pointer;background:var(--card);font-size:14px}\n"
    ".bar-tools input:checked+label{background:var(--fg);color:var(--bg);border-color:"
    "var(--fg)}\n"
    "body:has(#show-reg:checked) tr.case:not(.regression),"
    "body:has(#show-imp:checked) tr.case:not(.improvement),"
    "body:has(#show-gate:checked) tr.case:not(.gated){display:none}\n"
    "table{border-collapse:collapse;width:100%;font-size:14px}\n"
    "th,td{border:1px solid var(--line);padding:4px 8px;text-align:left;vertical-align:top}\n"
    "th{background:var(--card);font-weight:600}\n"
    "tr.regression td:first-child{border-left:4px solid var(--fail)}\n"
    "tr.improvement td:first-child{border-left:4px solid var(--pass)}\n"
    "td.name{overflow-wrap:anywhere;min-width:12em}\n"
    ".tags{font-size:12px;color:var(--muted)}\n"
    ".chip{border:1px solid var(--line);border-radius:10px;padding:0 8px;font-size:12px;"
    "color:var(--muted);display:inline-block;margin:1px 2px}\n"
    ".box{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0}\n"
    ".box.err{border-color:var(--err);background:var(--errbg)}\n"
    ".box.missing{border-color:var(--fail);background:var(--failbg);font-weight:600}\n"
    ".sides{display:grid;grid-template-columns:1fr 1fr;gap:12px}\n"
    "@media (max-width:800px){.sides{grid-template-columns:1fr}}\n"
    ".side{border:1px solid var(--line);border-radius:6px;padding:8px 12px;min-width:0}\n"
    ".side>h3{margin-top:0}\n"
    ".turn{border:1px solid var(--line);border-radius:6px;margin:12px 0;padding:6px 12px}\n"
    ".turn>h3{margin:2px 0 6px;color:var(--fg)}\n"
    ".row{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin:6px 0}\n"
    ".cell{border:1px solid var(--line);border-radius:6px;padding:6px 10px;min-width:0}\n"
    ".cell.chg{background:var(--chg)}.cell.only{background:var(--only)}\n"
    ".cell.absent{color:var(--muted);font-style:italic;border-style:dashed}\n"
    ".lbl{font-size:12px;color:var(--muted)}\n"
    ".msg{white-space:pre-wrap;overflow-wrap:anywhere;max-height:28em;overflow:auto}\n"
    "pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;"
    "background:var(--code);padding:6px 8px;border-radius:4px}\n"
    ".finding{border:1px solid var(--fail);background:var(--failbg);border-radius:6px;"
    "padding:6px 12px;margin:6px 0}\n"
    ".finding .title{color:var(--fail);font-weight:700}\n"
    ".signal{border-left:4px solid var(--err);padding:2px 10px;margin:6px 0}\n"
    ".signal.high,.signal.critical{border-left-color:var(--fail)}\n"
    "ul.links{margin:4px 0;padding-left:20px}\n"
    "footer{margin-top:28px;color:var(--muted);font-size:13px}\n";

/* --- shared pieces ----------------------------------------------------------- */

void cmp_page_text(struct cmp_page *pg, const char *s, bool multi)
{
    if (!s)
        return;
    size_t n = strlen(s), rn = 0;
    char *red = cmp_redact(pg->red, s, n, &rn);
    struct an_buf tmp = AN_BUF_INIT;
    an_rpt_text(&tmp, red ? red : s, red ? rn : n, PAGE_CUT, multi ? "" : NULL, 0);
    an_rpt_html(&pg->b, tmp.data ? tmp.data : "", tmp.len);
    an_buf_release(&tmp);
    free(red);
}

void cmp_page_json(struct cmp_page *pg, const json_t *v)
{
    if (json_is_string(v)) {
        cmp_page_text(pg, json_string_value(v), true);
        return;
    }
    char *s = an_json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    cmp_page_text(pg, s, true);
    free(s);
}

void cmp_page_link(struct cmp_page *pg, const char *key, const char *label)
{
    const char *rel = key ? cmp_pack_rel(pg->pack, key) : NULL;
    if (!rel) {
        an_buf_puts(&pg->b, "<span class=\"muted\">");
        cmp_page_text(pg, label, false);
        an_buf_puts(&pg->b, "</span>");
        return;
    }
    /* rel and key are made of the pack's own safe names; escaped anyway */
    an_buf_puts(&pg->b, "<a href=\"");
    an_rpt_html(&pg->b, rel, strlen(rel));
    an_buf_puts(&pg->b, "\" data-manifest-key=\"");
    an_rpt_html(&pg->b, key, strlen(key));
    an_buf_puts(&pg->b, "\">");
    cmp_page_text(pg, label, false);
    an_buf_puts(&pg->b, "</a>");
}

void cmp_page_badge(struct cmp_page *pg, const char *cls, const char *word)
{
    an_buf_puts(&pg->b, "<span class=\"badge ");
    an_rpt_html(&pg->b, cls, strlen(cls));
    an_buf_puts(&pg->b, "\">");
    cmp_page_text(pg, word, false);
    an_buf_puts(&pg->b, "</span>");
}

void cmp_page_head(struct cmp_page *pg, const char *title)
{
    an_buf_puts(&pg->b,
                "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                "style-src 'unsafe-inline'; img-src data:; script-src 'none'; "
                "base-uri 'none'; form-action 'none'\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                "<meta name=\"color-scheme\" content=\"light dark\">\n"
                "<meta name=\"referrer\" content=\"no-referrer\">\n<title>");
    cmp_page_text(pg, title, false);
    an_buf_printf(&pg->b, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<div class=\"wrap\">\n",
                  STYLE);
}

void cmp_page_foot(struct cmp_page *pg)
{
    an_buf_puts(&pg->b, "<footer>Written by ananke " ANANKE_VERSION
                        " (ananke compare). This page is self-contained: it loads nothing and "
                        "runs no script; its links are files of this directory.</footer>\n"
                        "</div>\n</body>\n</html>\n");
}

/* --- report.html ---------------------------------------------------------------- */

static json_int_t num(const json_t *o, const char *path)
{
    /* "a.b.c" */
    char part[64];
    const json_t *v = o;
    for (const char *p = path; v && *p;) {
        size_t n = strcspn(p, ".");
        if (n >= sizeof part)
            return 0;
        memcpy(part, p, n);
        part[n] = '\0';
        v = json_object_get(v, part);
        p += n + (p[n] == '.');
    }
    return json_is_integer(v) ? json_integer_value(v) : 0;
}

static void card(struct cmp_page *pg, json_int_t n, const char *label, const char *of)
{
    an_buf_printf(&pg->b, "<div class=\"card\"><div class=\"num\">%lld%s</div><div class=\"lbl\">",
                  (long long)n, of ? of : "");
    cmp_page_text(pg, label, false);
    an_buf_puts(&pg->b, "</div></div>\n");
}

static void kv(struct cmp_page *pg, const char *k, const char *v)
{
    if (!v)
        return;
    an_buf_printf(&pg->b, "<dt>%s</dt><dd>", k);
    cmp_page_text(pg, v, false);
    an_buf_puts(&pg->b, "</dd>");
}

static void run_meta(struct cmp_page *pg, const json_t *runs, const char *side)
{
    const json_t *r = json_object_get(runs, side);
    an_buf_printf(&pg->b, "<dt>%s run</dt><dd>", side);
    const char *id = an_json_str(r, "run_id");
    cmp_page_text(pg, id ? id : "(no run id)", false);
    const char *at = an_json_str(r, "started_at");
    if (at) {
        an_buf_puts(&pg->b, " <span class=\"muted\">started ");
        cmp_page_text(pg, at, false);
        an_buf_puts(&pg->b, "</span>");
    }
    const char *ty = an_json_str(r, "target_type");
    if (ty) {
        an_buf_puts(&pg->b, " <span class=\"chip\">");
        cmp_page_text(pg, ty, false);
        an_buf_puts(&pg->b, "</span>");
    }
    char key[64];
    snprintf(key, sizeof key, "run/%s/run_meta", side);
    an_buf_puts(&pg->b, " ");
    cmp_page_link(pg, key, "run.json");
    snprintf(key, sizeof key, "run/%s/results", side);
    an_buf_puts(&pg->b, " ");
    cmp_page_link(pg, key, "results.json");
    snprintf(key, sizeof key, "run/%s/redactions", side);
    if (cmp_pack_rel(pg->pack, key)) {
        an_buf_puts(&pg->b, " ");
        cmp_page_link(pg, key, "redactions.json");
    }
    an_buf_puts(&pg->b, "</dd>");
}

static void summary(struct cmp_page *pg, const struct an_compare *c, const json_t *report)
{
    const json_t *s = json_object_get(report, "summary");
    json_int_t total = (json_int_t)c->nitems;
    char of[32];
    snprintf(of, sizeof of, "<span class=\"muted\">/%lld</span>", (long long)total);
    an_buf_puts(&pg->b, "<section class=\"cards\">\n");
    card(pg, num(s, "baseline_pass"), "baseline passed", of);
    card(pg, num(s, "new_pass"), "new passed", of);
    card(pg, num(s, "regressions"), "regressions", NULL);
    card(pg, num(s, "improvements"), "improvements", NULL);
    card(pg, num(s, "cases_block_recommended"), "gate: block", NULL);
    card(pg, num(s, "cases_requiring_approval"), "gate: require approval", NULL);
    an_buf_puts(&pg->b, "</section>\n<section class=\"cards\">\n");

    an_buf_puts(&pg->b, "<div class=\"card\"><div class=\"lbl\">root causes (failing new "
                        "cases)</div><ul>");
    const json_t *rb = json_object_get(s, "root_cause_breakdown");
    const char *k;
    json_t *v;
    if (!json_object_size(rb))
        an_buf_puts(&pg->b, "<li class=\"muted\">none</li>");
    json_object_foreach((json_t *)rb, k, v)
    {
        an_buf_puts(&pg->b, "<li>");
        cmp_page_text(pg, k, false);
        an_buf_printf(&pg->b, ": %lld</li>", (long long)json_integer_value(v));
    }
    an_buf_puts(&pg->b, "</ul></div>\n");

    an_buf_printf(&pg->b,
                  "<div class=\"card\"><div class=\"lbl\">risk</div><ul><li>low: %lld</li>"
                  "<li>medium: %lld</li><li>high: %lld</li></ul></div>\n",
                  (long long)num(s, "risk_summary.low"), (long long)num(s, "risk_summary.medium"),
                  (long long)num(s, "risk_summary.high"));
    an_buf_printf(&pg->b,
                  "<div class=\"card\"><div class=\"lbl\">security signals (new / baseline)"
                  "</div><ul><li>cases with signals: %lld / %lld</li><li>critical: %lld / %lld"
                  "</li><li>high: %lld / %lld</li><li>medium: %lld / %lld</li></ul></div>\n",
                  (long long)num(s, "security.cases_with_signals_new"),
                  (long long)num(s, "security.cases_with_signals_baseline"),
                  (long long)num(s, "security.signal_counts_new.critical"),
                  (long long)num(s, "security.signal_counts_baseline.critical"),
                  (long long)num(s, "security.signal_counts_new.high"),
                  (long long)num(s, "security.signal_counts_baseline.high"),
                  (long long)num(s, "security.signal_counts_new.medium"),
                  (long long)num(s, "security.signal_counts_baseline.medium"));
    an_buf_printf(&pg->b,
                  "<div class=\"card\"><div class=\"lbl\">data coverage</div><ul>"
                  "<li>cases: %lld</li><li>missing baseline / new: %lld / %lld</li>"
                  "<li>broken baseline / new: %lld / %lld</li></ul></div>\n",
                  (long long)num(s, "data_coverage.total_cases"),
                  (long long)num(s, "data_coverage.missing_baseline_artifacts"),
                  (long long)num(s, "data_coverage.missing_new_artifacts"),
                  (long long)num(s, "data_coverage.broken_baseline_artifacts"),
                  (long long)num(s, "data_coverage.broken_new_artifacts"));
    const json_t *q = json_object_get(report, "quality_flags");
    const json_t *ql = json_object_get(s, "quality");
    an_buf_puts(&pg->b, "<div class=\"card\"><div class=\"lbl\">quality</div><ul><li>redaction: ");
    cmp_page_text(pg, an_json_str(ql, "redaction_status"), false);
    if (an_json_str(ql, "redaction_preset_id")) {
        an_buf_puts(&pg->b, " (");
        cmp_page_text(pg, an_json_str(ql, "redaction_preset_id"), false);
        an_buf_puts(&pg->b, ")");
    }
    if (q)
        an_buf_printf(&pg->b,
                      "</li><li>portable paths: %s (%lld violations)</li><li>self-contained: "
                      "%s (%lld missing)</li><li>links checked: %lld",
                      json_is_true(json_object_get(q, "portable_paths")) ? "yes" : "no",
                      (long long)num(q, "path_violations_count"),
                      json_is_true(json_object_get(q, "self_contained")) ? "yes" : "no",
                      (long long)num(q, "missing_assets_count"),
                      (long long)num(q, "hrefs_checked"));
    an_buf_puts(&pg->b, "</li></ul></div>\n</section>\n");
}

static const char *change_word(enum an_change ch)
{
    return ch == AN_CHANGE_REGRESSION    ? "regression"
           : ch == AN_CHANGE_IMPROVEMENT ? "improvement"
                                         : "unchanged";
}

static void case_row(struct cmp_page *pg, const struct cmp_item *it)
{
    an_buf_printf(&pg->b, "<tr class=\"case %s%s\"><td class=\"name\"><a href=\"",
                  change_word(it->change), it->gate != AN_GATE_NONE ? " gated" : "");
    an_rpt_html(&pg->b, it->diff_href, strlen(it->diff_href));
    an_buf_puts(&pg->b, "\" data-manifest-key=\"");
    an_rpt_html(&pg->b, it->fid, strlen(it->fid));
    an_buf_puts(&pg->b, "/replay_diff\">");
    cmp_page_text(pg, it->title, false);
    an_buf_puts(&pg->b, "</a>");
    if (strcmp(it->title, it->case_id)) {
        an_buf_puts(&pg->b, " <span class=\"chip mono\">");
        cmp_page_text(pg, it->case_id, false);
        an_buf_puts(&pg->b, "</span>");
    }
    if (it->status != CMP_EXECUTED)
        an_buf_printf(&pg->b, " <span class=\"chip\">%s</span>", cmp_case_status_name(it->status));
    an_buf_puts(&pg->b, "</td>");
    for (int k = 0; k < 2; k++) {
        an_buf_puts(&pg->b, "<td>");
        cmp_page_badge(pg, it->side[k].word, it->side[k].word);
        an_buf_puts(&pg->b, "</td>");
    }
    an_buf_puts(&pg->b, "<td>");
    cmp_page_badge(pg, change_word(it->change), change_word(it->change));
    cmp_page_stats_line(pg, it);
    an_buf_puts(&pg->b, "</td><td>");
    const char *nr = cmp_root_name(it->side[CMP_NEW].root),
               *br = cmp_root_name(it->side[CMP_BASE].root);
    if (nr)
        cmp_page_text(pg, nr, false);
    if (br) {
        an_buf_puts(&pg->b, "<div class=\"tags\">baseline: ");
        cmp_page_text(pg, br, false);
        an_buf_puts(&pg->b, "</div>");
    }
    an_buf_puts(&pg->b, "</td><td class=\"tags\">");
    for (size_t i = 0; i < it->ntags; i++) {
        an_buf_puts(&pg->b, "<span class=\"chip\">");
        cmp_page_text(pg, it->tags[i], false);
        an_buf_puts(&pg->b, "</span>");
    }
    an_buf_puts(&pg->b, "</td><td>");
    cmp_page_badge(pg, cmp_risk_level(it->gate), cmp_risk_level(it->gate));
    an_buf_puts(&pg->b, "</td><td>");
    cmp_page_badge(pg, an_gate_name(it->gate), an_gate_name(it->gate));
    an_buf_puts(&pg->b, "</td><td class=\"tags\">");
    char key[200];
    for (int k = 0; k < 2; k++) {
        snprintf(key, sizeof key, "%s/%s/case_response", it->fid, cmp_side_name[k]);
        if (cmp_pack_rel(pg->pack, key)) {
            cmp_page_link(pg, key, k == CMP_BASE ? "baseline result" : "new result");
            an_buf_puts(&pg->b, "<br>");
        }
    }
    snprintf(key, sizeof key, "%s/repro", it->fid);
    cmp_page_link(pg, key, "repro");
    an_buf_puts(&pg->b, "</td></tr>\n");
}

/* Every file of the pack but the manifest, written or still to be written,
 * once each: the entries, then the planned files not written yet. */
static void each_file(struct cmp_page *pg,
                      void (*fn)(struct cmp_page *, const struct cmp_entry *, void *), void *arg)
{
    const struct cmp_pack *p = pg->pack;
    for (int pass = 0; pass < 2; pass++) {
        const struct cmp_entry *v = pass ? p->planned : p->v;
        size_t n = pass ? p->nplanned : p->n;
        for (size_t i = 0; i < n; i++)
            if (!pass || (cmp_pack_rel(p, v[i].key) == v[i].rel &&
                          strcmp(v[i].rel, "artifacts/manifest.json")))
                fn(pg, &v[i], arg);
    }
}

static void count_file(struct cmp_page *pg, const struct cmp_entry *e, void *arg)
{
    (void)pg;
    (void)e;
    (*(size_t *)arg)++;
}

static void file_row(struct cmp_page *pg, const struct cmp_entry *e, void *arg)
{
    (void)arg;
    an_buf_puts(&pg->b, "<tr><td>");
    cmp_page_link(pg, e->key, e->rel);
    an_buf_puts(&pg->b, "</td><td class=\"mono\">");
    cmp_page_text(pg, e->key, false);
    an_buf_puts(&pg->b, "</td><td class=\"tags\">");
    cmp_page_text(pg, e->media, false);
    an_buf_puts(&pg->b, "</td></tr>\n");
}

static void index_item(struct cmp_page *pg, const struct cmp_entry *e, void *arg)
{
    (void)pg;
    json_array_append_new(arg, json_pack("{s:s, s:s, s:s}", "manifest_key", e->key, "rel_path",
                                         e->rel, "media_type", e->media));
}

/* The thin manifest index: {manifest_version, generated_at, items[{manifest_key,
 * rel_path, media_type}]} of every file of the pack but the manifest, as a
 * JSON data block with < > & written as \u escapes so no text can end it. */
static void embedded_index(struct cmp_page *pg, const struct an_compare *c)
{
    json_t *items = json_array();
    each_file(pg, index_item, items);
    json_t *o = json_pack("{s:s, s:I, s:s, s:o}", "manifest_version", "v1", "generated_at",
                          (json_int_t)c->now_ms, "manifest_href", "artifacts/manifest.json",
                          "items", items);
    char *s = an_json_dumps(o, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(o);
    an_buf_puts(&pg->b, "<script id=\"embedded-manifest-index\" type=\"application/json\">");
    for (const char *q = s; *q; q++) {
        if (*q == '<')
            an_buf_puts(&pg->b, "\\u003c");
        else if (*q == '>')
            an_buf_puts(&pg->b, "\\u003e");
        else if (*q == '&')
            an_buf_puts(&pg->b, "\\u0026");
        else
            an_buf_putc(&pg->b, *q);
    }
    an_buf_puts(&pg->b, "</script>\n");
    free(s);
}

void cmp_html_report(struct cmp_page *pg, const struct an_compare *c, const json_t *report)
{
    const json_t *s = json_object_get(report, "summary");
    json_int_t reg = num(s, "regressions"), imp = num(s, "improvements");
    json_int_t block = num(s, "cases_block_recommended"), appr = num(s, "cases_requiring_approval");
    char title[160];
    snprintf(title, sizeof title, "ananke compare: %lld regression%s, %lld improvement%s",
             (long long)reg, reg == 1 ? "" : "s", (long long)imp, imp == 1 ? "" : "s");
    cmp_page_head(pg, title);
    an_buf_puts(&pg->b, "<header>\n<h1>ananke compare <span class=\"muted\">baseline vs new"
                        "</span></h1>\n<div class=\"totals\">");
    an_buf_printf(&pg->b,
                  "<span class=\"badge regression\">%lld regression%s</span>"
                  "<span class=\"badge improvement\">%lld improvement%s</span>"
                  "<span class=\"badge block\">%lld blocked</span>"
                  "<span class=\"badge require_approval\">%lld need approval</span>"
                  "<span class=\"muted\">%zu case%s</span></div>\n",
                  (long long)reg, reg == 1 ? "" : "s", (long long)imp, imp == 1 ? "" : "s",
                  (long long)block, (long long)appr, c->nitems, c->nitems == 1 ? "" : "s");
    an_buf_puts(&pg->b, "<dl class=\"meta\">");
    kv(pg, "report id", c->report_id);
    kv(pg, "generated", an_json_str(report, "generated_at"));
    const json_t *runs = json_object_get(report, "runs");
    run_meta(pg, runs, "baseline");
    run_meta(pg, runs, "new");
    kv(pg, "baseline dir", c->run[CMP_BASE].dir);
    kv(pg, "new dir", c->run[CMP_NEW].dir);
    an_buf_puts(&pg->b, "</dl>\n</header>\n");
    summary(pg, c, report);
    cmp_html_tool_coverage(pg, report);

    an_buf_printf(&pg->b,
                  "<h2>Cases</h2>\n<nav class=\"bar-tools\" aria-label=\"filter\">"
                  "<input type=\"radio\" name=\"show\" id=\"show-all\" checked>"
                  "<label for=\"show-all\">all %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-reg\">"
                  "<label for=\"show-reg\">regressions %lld</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-imp\">"
                  "<label for=\"show-imp\">improvements %lld</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-gate\">"
                  "<label for=\"show-gate\">gated %lld</label></nav>\n",
                  c->nitems, (long long)reg, (long long)imp, (long long)(block + appr));
    an_buf_puts(&pg->b, "<table class=\"cases\"><thead><tr><th>case (replay diff)</th>"
                        "<th>baseline</th><th>new</th><th>change</th><th>root cause</th>"
                        "<th>risk tags</th><th>risk</th><th>gate</th><th>evidence</th></tr>"
                        "</thead><tbody>\n");
    for (size_t i = 0; i < c->nitems; i++)
        case_row(pg, &c->items[i]);
    if (!c->nitems)
        an_buf_puts(&pg->b, "<tr><td colspan=\"9\" class=\"muted\">No cases in either run."
                            "</td></tr>\n");
    an_buf_puts(&pg->b, "</tbody></table>\n<h2>Files</h2>\n<ul class=\"links\">"
                        "<li>");
    cmp_page_link(pg, "report/json", "compare-report.json");
    an_buf_puts(&pg->b, " <span class=\"muted\">the machine report: CI gates read "
                        "items[].gate_recommendation</span></li><li>"
                        "<a href=\"artifacts/manifest.json\">artifacts/manifest.json</a> "
                        "<span class=\"muted\">every file with its size and SHA-256</span>"
                        "</li>");
    if (cmp_pack_rel(pg->pack, "redaction/summary")) {
        an_buf_puts(&pg->b, "<li>");
        cmp_page_link(pg, "redaction/summary", "artifacts/redaction-summary.json");
        an_buf_puts(&pg->b, "</li>");
    }
    if (cmp_pack_rel(pg->pack, "repro/config")) {
        an_buf_puts(&pg->b, "<li>");
        cmp_page_link(pg, "repro/config", "repro/ananke.config.yaml");
        an_buf_puts(&pg->b, " <span class=\"muted\">the new run's target, to re-run a case"
                            "</span></li>");
    }
    if (cmp_pack_rel(pg->pack, "repro/baseline_config")) {
        an_buf_puts(&pg->b, "<li>");
        cmp_page_link(pg, "repro/baseline_config", "repro/baseline.config.yaml");
        an_buf_puts(&pg->b, "</li>");
    }
    size_t nfiles = 0;
    each_file(pg, count_file, &nfiles);
    an_buf_printf(&pg->b,
                  "</ul>\n<details class=\"box\"><summary>every file of this report "
                  "(%zu, artifacts/manifest.json aside)</summary>\n<table><thead><tr>"
                  "<th>file</th><th>manifest key</th><th>media type</th></tr></thead>"
                  "<tbody>\n",
                  nfiles);
    each_file(pg, file_row, NULL);
    an_buf_puts(&pg->b, "</tbody></table></details>\n");
    embedded_index(pg, c);
    cmp_page_foot(pg);
}
