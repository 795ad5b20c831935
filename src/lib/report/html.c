/*
 * HTML reporter: one self-contained page, DIR/index.html or one named file,
 * for a person.
 *
 *   header   totals (a stacked bar and counts), when, duration, config, and
 *            how the run was made (shard, filter, repeat, parallel)
 *   filter   all / failed / errors / passed (/ skipped): radio buttons and CSS
 *            :has(), so it works with scripts off; a search box (shown by
 *            the script) keeps the tests whose name, file or tags hold what
 *            is typed
 *   tests    failures first (then flaky, passed, skipped; run order within
 *            each), one <details> each (open when it did not pass): status
 *            badge, FLAKY when a repeated test's runs disagree,
 *            name, file, duration; the error; the repeat runs; then the
 *            turns as a timeline: user message, tool calls (args, result, a
 *            time bar placed by start..completion within the turn), the
 *            assistant text, warnings, retries, the turn's error, and the
 *            failed assertions of that turn in red right under it. Findings
 *            of the whole test come after the last turn.
 *   dynamic  a dynamic test (seed 002) adds its simulator and outcome above
 *            the turns; each turn shows the simulated user's message with the
 *            simulator's reasoning, and a badge (id, description, evidence)
 *            for each checkpoint reached there; a checkpoint table follows
 *            the turns, a required checkpoint never reached in red.
 *
 * Nothing is loaded from anywhere: the CSS is inline, there are no fonts,
 * images or links out. The only script is a few lines for "expand all" /
 * "collapse all" and the search box; the page is complete without it.
 *
 * Everything that came from an agent or a test file is untrusted. Each
 * string goes through an_rpt_text() (invalid UTF-8 → U+FFFD, controls and
 * bidi overrides shown as \uXXXX, long texts cut) and then has & < > " '
 * replaced by entities, in element content and attribute values alike.
 * Behind that, a Content-Security-Policy meta allows no source at all
 * (default-src 'none'), inline styles, data: images, and exactly one
 * script: ours, by its SHA-256 hash. So even an escape we missed could
 * neither run an injected script nor fetch anything.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "ananke/report.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/sha256.h"
#include "report/metrics.h"
#include "report/report_util.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

/* One agent text, tool argument or result is shown up to this many bytes:
 * a page of many megabytes is slow to open and no one reads it. */
#define HTML_CUT 65536

/* The page's only script. Its SHA-256 goes into the CSP, so any change here
 * is picked up automatically; the browser test checks that it still runs. */
static const char SCRIPT[] =
    "document.querySelectorAll('button[data-open]').forEach(function(b){"
    "b.hidden=false;b.addEventListener('click',function(){"
    "var o=b.getAttribute('data-open')==='1';"
    "document.querySelectorAll('details.test').forEach(function(d){d.open=o;});});});"
    /* the search box: tests whose name, file or tags hold what is typed */
    "var q=document.getElementById('search');if(q){q.hidden=false;"
    "q.addEventListener('input',function(){var v=q.value.trim().toLowerCase();"
    "document.querySelectorAll('details.test').forEach(function(d){"
    "d.hidden=v!==''&&(d.getAttribute('data-search')||'').toLowerCase().indexOf(v)<0;});});}";

static const char STYLE[] =
    ":root{color-scheme:light dark;--bg:#fff;--fg:#1f2328;--muted:#59636e;--line:#d1d9e0;"
    "--card:#f6f8fa;--code:#eff2f5;--pass:#1a7f37;--fail:#cf222e;--err:#9a6700;"
    "--failbg:#ffebe9;--errbg:#fff8c5;--bar:#0969da;--track:#e6eaef;--on:#fff;"
    "--agent:#ddf4ff}\n"
    "@media (prefers-color-scheme:dark){:root{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;"
    "--line:#3d444d;--card:#151b23;--code:#1c232c;--pass:#3fb950;--fail:#f85149;"
    "--err:#d29922;--failbg:#2d1316;--errbg:#2b2111;--bar:#4493f8;--track:#262c36;"
    "--on:#0d1117;--agent:#112a45}}\n"
    "*{box-sizing:border-box}\n"
    "body{margin:0;background:var(--bg);color:var(--fg);"
    "font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans','DejaVu Sans',"
    "sans-serif}\n"
    "code,pre,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"
    "'DejaVu Sans Mono','Liberation Mono',monospace;font-size:13px}\n"
    ".wrap{max-width:1200px;margin:0 auto;padding:16px 20px 48px}\n"
    "h1{font-size:22px;margin:4px 0 10px}h1 .muted{font-weight:400}\n"
    ".muted{color:var(--muted)}\n"
    ".totals{display:flex;flex-wrap:wrap;gap:8px;align-items:center;font-size:16px}\n"
    ".stack{display:flex;height:10px;border-radius:5px;overflow:hidden;background:var(--track);"
    "margin:10px 0}\n"
    ".stack span{display:block;height:100%}\n"
    ".stack .pass,.badge.pass{background:var(--pass)}.stack .fail,.badge.fail{background:"
    "var(--fail)}.stack .error,.badge.error{background:var(--err)}\n"
    ".stack .skip,.badge.skip{background:var(--muted)}\n"
    ".tag{font-size:.8em;border:1px solid var(--muted);border-radius:3px;padding:0 .3em}\n"
    ".badge{display:inline-block;min-width:52px;text-align:center;padding:1px 7px;"
    "border-radius:4px;font-weight:700;font-size:12px;letter-spacing:.04em;color:var(--on)}\n"
    "dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;margin:8px 0 0}\n"
    "dl.meta dt{color:var(--muted)}dl.meta dd{margin:0;overflow-wrap:anywhere}\n"
    ".bar-tools{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin:18px 0 8px;"
    "padding:8px 0;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}\n"
    ".bar-tools input{position:absolute;opacity:0;width:1px;height:1px}\n"
    ".bar-tools label,.bar-tools button{border:1px solid var(--line);border-radius:14px;"
    "padding:2px 12px;cursor:pointer;background:var(--card);color:var(--fg);font:inherit;"
    "font-size:14px}\n"
    ".bar-tools input:checked+label{background:var(--fg);color:var(--bg);border-color:var(--fg)}\n"
    ".bar-tools input:focus-visible+label{outline:2px solid var(--bar);outline-offset:2px}\n"
    ".bar-tools .sep{flex:1}\n"
    ".bar-tools input.search{position:static;opacity:1;width:18em;height:auto;"
    "border:1px solid var(--line);border-radius:14px;padding:2px 10px;background:var(--bg);"
    "color:var(--fg);font:inherit}\n"
    "details.test[hidden]{display:none}\n"
    ".badge.flaky{background:var(--err)}\n"
    "body:has(#show-fail:checked) .test:not(.fail),body:has(#show-error:checked) "
    ".test:not(.error),body:has(#show-pass:checked) .test:not(.pass),"
    "body:has(#show-skip:checked) .test:not(.skip){display:none}\n"
    "details.test{border:1px solid var(--line);border-left:5px solid var(--pass);"
    "border-radius:6px;margin:10px 0;background:var(--bg)}\n"
    "details.test.fail{border-left-color:var(--fail)}details.test.error{border-left-color:"
    "var(--err)}details.test.skip{border-left-color:var(--muted)}\n"
    "details.test>summary{cursor:pointer;list-style:none;display:flex;flex-wrap:wrap;gap:4px 10px;"
    "align-items:baseline;padding:8px 12px}\n"
    "details.test>summary::-webkit-details-marker{display:none}\n"
    "details.test>summary::before{content:'\\25B8';color:var(--muted);width:10px}\n"
    "details.test[open]>summary::before{content:'\\25BE'}\n"
    ".tname{font-weight:600;font-size:16px;overflow-wrap:anywhere}\n"
    ".tfile{color:var(--muted);font-size:13px}.tdur{margin-left:auto;color:var(--muted);"
    "font-size:13px}\n"
    ".tbody{padding:2px 16px 12px 16px}\n"
    ".box{border:1px solid var(--line);border-radius:6px;padding:8px 12px;margin:8px 0}\n"
    ".box.err{border-color:var(--err);background:var(--errbg)}\n"
    ".box.err .title{color:var(--err);font-weight:700}\n"
    ".box.repeat{background:var(--card)}\n"
    "ol.attempts{list-style:none;padding:0;margin:6px 0 0;display:flex;flex-wrap:wrap;gap:4px}\n"
    "ol.attempts li{border:1px solid var(--line);border-radius:4px;padding:0 6px;"
    "font-size:13px;background:var(--bg)}\n"
    "ol.attempts li.fail{border-color:var(--fail)}ol.attempts li.error{border-color:"
    "var(--err)}\n"
    ".stab{font-weight:600}.stab.s0{color:var(--pass)}.stab.s1{color:var(--err)}"
    ".stab.s2,.stab.s3{color:var(--fail)}\n"
    "ol.turns{list-style:none;margin:10px 0 4px 6px;padding:0;border-left:2px solid "
    "var(--line)}\n"
    "li.turn{position:relative;padding:2px 0 14px 18px}\n"
    "li.turn::before{content:'';position:absolute;left:-8px;top:6px;width:14px;height:14px;"
    "border-radius:50%;background:var(--pass);border:3px solid var(--bg)}\n"
    "li.turn.failed::before{background:var(--fail)}li.turn.error::before{background:"
    "var(--err)}\n"
    "li.turn.notrun{opacity:.55}li.turn.notrun::before{background:var(--line)}\n"
    ".thead{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:baseline}\n"
    ".thead b{font-size:15px}.chip{border:1px solid var(--line);border-radius:10px;"
    "padding:0 8px;font-size:12px;color:var(--muted)}\n"
    ".who{font-size:12px;color:var(--muted);text-transform:uppercase;letter-spacing:.05em;"
    "margin-top:6px}\n"
    ".msg{white-space:pre-wrap;overflow-wrap:anywhere;padding:6px 10px;border-radius:6px;"
    "margin:2px 0 4px;max-height:32em;overflow:auto}\n"
    ".msg.user{background:var(--card);border:1px solid var(--line)}\n"
    ".msg.agent{background:var(--agent)}\n"
    ".call{border:1px solid var(--line);border-radius:6px;margin:4px 0;padding:6px 10px}\n"
    ".chead{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center}\n"
    ".chead code{font-weight:700;font-size:14px}\n"
    ".when{color:var(--muted);font-size:12px;white-space:nowrap}\n"
    ".track{position:relative;flex:1;min-width:120px;height:8px;border-radius:4px;"
    "background:var(--track)}\n"
    ".track span{position:absolute;top:0;bottom:0;min-width:3px;border-radius:4px;"
    "background:var(--bar)}\n"
    ".io{display:grid;grid-template-columns:1fr 1fr;gap:8px;margin-top:6px}\n"
    "@media (max-width:760px){.io{grid-template-columns:1fr}}\n"
    ".lbl{font-size:12px;color:var(--muted)}\n"
    "pre{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;max-height:24em;overflow:auto;"
    "background:var(--code);padding:6px 8px;border-radius:4px}\n"
    "ul.notes{margin:4px 0;padding-left:20px;font-size:14px}\n"
    "ul.notes.warn li::marker{content:'\\26A0  '}\n"
    ".finding{border:1px solid var(--fail);background:var(--failbg);border-radius:6px;"
    "padding:6px 12px;margin:8px 0}\n"
    ".finding .title{color:var(--fail);font-weight:700}\n"
    ".finding .title::before{content:'\\2717  '}\n"
    "dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:4px 0}\n"
    "dl.kv dt{color:var(--muted)}dl.kv dd{margin:0;white-space:pre-wrap;overflow-wrap:anywhere;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace;"
    "font-size:13px}\n"
    ".loc{font-size:13px;color:var(--muted)}\n"
    "h3{font-size:14px;margin:12px 0 4px;color:var(--muted)}\n"
    ".box.dyn{background:var(--card)}\n"
    ".msg.sim{font-size:13px;color:var(--muted);border-left:3px solid var(--line);"
    "border-radius:0;padding:2px 10px}\n"
    ".cp{margin:6px 0;font-size:14px}\n"
    ".cpid{display:inline-block;border:1px solid var(--pass);color:var(--pass);"
    "border-radius:10px;padding:0 8px;font-weight:700;font-size:13px;margin-right:6px;"
    "font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono',monospace}\n"
    ".cp .cpid::before{content:'\\2713  '}\n"
    ".cpev{font-size:13px;color:var(--muted);margin:2px 0 0 14px;white-space:pre-wrap;"
    "overflow-wrap:anywhere}\n"
    "table.cps{border-collapse:collapse;width:100%;font-size:14px;margin:4px 0}\n"
    "table.cps th,table.cps td{border:1px solid var(--line);padding:3px 8px;text-align:left;"
    "vertical-align:top}\n"
    "table.cps th{background:var(--card);font-weight:600}\n"
    "table.cps td.ev{white-space:pre-wrap;overflow-wrap:anywhere;font-size:13px}\n"
    "table.cps tr.missing td{background:var(--failbg)}\n"
    "table.cps tr.missing td.at{color:var(--fail);font-weight:700}\n"
    "table.cps tr.optional td{color:var(--muted)}\n"
    "footer{margin-top:28px;color:var(--muted);font-size:13px}\n";

/* --- escaping ----------------------------------------------------------- */

/* Untrusted s[0..n), made safe and escaped. `multi` keeps line breaks and
 * tabs as they are (for pre-wrap blocks); otherwise they show as \n, \t. */
static void text_n(struct an_buf *b, const char *s, size_t n, bool multi)
{
    struct an_buf tmp = AN_BUF_INIT;
    an_rpt_text(&tmp, s, n, HTML_CUT, multi ? "" : NULL, 0);
    an_rpt_html(b, tmp.data ? tmp.data : "", tmp.len);
    an_buf_release(&tmp);
}

/* NULL shows as nothing. */
static void text(struct an_buf *b, const char *s, bool multi)
{
    if (s)
        text_n(b, s, strlen(s), multi);
}

/* A JSON value pretty-printed; a string as its text (a tool result that
 * was plain text reads better without quotes and \n escapes). */
static void json_pretty(struct an_buf *b, const json_t *v)
{
    if (!v) {
        an_buf_puts(b, "null");
        return;
    }
    if (json_is_string(v)) {
        text_n(b, json_string_value(v), json_string_length(v), true);
        return;
    }
    char *s = json_dumps(v, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
    if (!s)
        s = an_json_compact(v);
    text(b, s, true);
    free(s);
}

/* --- small pieces ------------------------------------------------------- */

static const char *status_label(const struct an_test_result *t)
{
    enum an_status s = t->status;
    return t->expect == AN_EXPECT_FAILED  ? "XFAIL"
           : t->expect == AN_EXPECT_STALE ? "STALE"
           : s == AN_STATUS_PASS          ? "PASS"
           : s == AN_STATUS_FAIL          ? "FAIL"
           : s == AN_STATUS_SKIP          ? "SKIP"
                                          : "ERROR";
}

static void ms(struct an_buf *b, int64_t v)
{
    char d[32];
    an_buf_puts(b, an_rpt_ms(d, sizeof d, v));
}

/* part/whole as a CSS percentage with one decimal, in integers: the
 * library must not depend on LC_NUMERIC for a '.' */
static void pct(struct an_buf *b, int64_t part, int64_t whole)
{
    int64_t pm = whole > 0 ? part * 1000 / whole : 0;
    if (pm < 0)
        pm = 0;
    if (pm > 1000)
        pm = 1000;
    an_buf_printf(b, "%d.%d%%", (int)(pm / 10), (int)(pm % 10));
}

static void utc(struct an_buf *b, int64_t unix_ms)
{
    char ts[40];
    struct tm tm;
    time_t t = (time_t)(unix_ms / 1000);
    if (unix_ms > 0 && gmtime_r(&t, &tm) && strftime(ts, sizeof ts, "%Y-%m-%d %H:%M:%S UTC", &tm))
        an_buf_puts(b, ts);
    else
        an_buf_puts(b, "unknown");
}

static void location(struct an_buf *b, const struct an_finding *f)
{
    if (!f->file)
        return;
    an_buf_puts(b, "<div class=\"loc\">at <span class=\"mono\">");
    text(b, f->file, false);
    if (f->line) {
        an_buf_printf(b, ":%u", f->line);
        if (f->col)
            an_buf_printf(b, ":%u", f->col);
    }
    an_buf_puts(b, "</span></div>");
}

static void kv(struct an_buf *b, const char *key, const char *val)
{
    if (!val)
        return;
    an_buf_printf(b, "<dt>%s</dt><dd>", key);
    text(b, val, true);
    an_buf_puts(b, "</dd>");
}

static void finding(struct an_buf *b, const struct an_finding *f)
{
    an_buf_puts(b, "<div class=\"finding\"><div class=\"title\">");
    text(b, f->assertion ? f->assertion : "assertion failed", false);
    an_buf_puts(b, " <span class=\"chip\">");
    text(b, f->kind ? f->kind : "?", false);
    an_buf_puts(b, "</span></div>");
    if (f->expected || f->actual || f->detail) {
        an_buf_puts(b, "<dl class=\"kv\">");
        kv(b, "expected", f->expected);
        kv(b, "actual", f->actual);
        kv(b, "detail", f->detail);
        an_buf_puts(b, "</dl>");
    }
    location(b, f);
    an_buf_puts(b, "</div>\n");
}

static void notes(struct an_buf *b, const char *cls, char **v, size_t n)
{
    if (!n)
        return;
    an_buf_printf(b, "<ul class=\"notes %s\">", cls);
    for (size_t i = 0; i < n; i++) {
        an_buf_puts(b, "<li>");
        text(b, v[i], true);
        an_buf_puts(b, "</li>");
    }
    an_buf_puts(b, "</ul>");
}

/* --- a turn ------------------------------------------------------------- */

static void call_row(struct an_buf *b, const struct an_tool_call *c, const struct an_turn_rec *r)
{
    int64_t t0 = r->start_ms, t1 = r->end_ms > r->start_ms ? r->end_ms : r->start_ms;
    int64_t s = c->start_ms, e = c->ts_ms ? c->ts_ms : c->end_ms;
    an_buf_puts(b, "<div class=\"call\"><div class=\"chead\"><code>");
    text(b, c->name ? c->name : "?", false);
    an_buf_puts(b, "</code>");
    if (s && t0) {
        if (s < t0)
            s = t0;
        if (e < s)
            e = s;
        if (e > t1)
            t1 = e; /* a result after the stream ended still fits the track */
        an_buf_puts(b, "<span class=\"when\" title=\"start after the turn began, time to its "
                       "result\">+");
        ms(b, s - t0);
        an_buf_puts(b, " \xC2\xB7 ");
        ms(b, e - s);
        an_buf_puts(b, "</span><span class=\"track\"><span style=\"left:");
        pct(b, s - t0, t1 - t0);
        an_buf_puts(b, ";width:");
        pct(b, e - s, t1 - t0);
        an_buf_puts(b, "\"></span></span>");
    }
    an_buf_puts(b, "</div><div class=\"io\"><div><div class=\"lbl\">args");
    if (c->args_error) {
        an_buf_puts(b, " (not JSON: ");
        text(b, c->args_error, false);
        an_buf_putc(b, ')');
    }
    an_buf_puts(b, "</div><pre>");
    const json_t *args = an_tool_call_args(c);
    if (args)
        json_pretty(b, args);
    else
        text(b, c->args_text, true);
    an_buf_puts(b, "</pre></div><div><div class=\"lbl\">result</div>");
    if (c->result) {
        an_buf_puts(b, "<pre>");
        json_pretty(b, c->result);
        an_buf_puts(b, "</pre>");
    } else {
        an_buf_puts(b, "<div class=\"muted\">(no result)</div>");
    }
    an_buf_puts(b, "</div></div></div>\n");
}

/* A checkpoint reached in this turn: a badge with its id, its
 * description, and the evidence below. */
static void reached(struct an_buf *b, const struct an_checkpoint_result *c)
{
    an_buf_puts(b, "<div class=\"cp\"><span class=\"cpid\">");
    text(b, c->id ? c->id : "?", false);
    an_buf_puts(b, "</span>");
    text(b, c->description, false);
    if (c->evidence && c->evidence[0]) {
        an_buf_puts(b, "<div class=\"cpev\">evidence: ");
        text(b, c->evidence, true);
        an_buf_puts(b, "</div>");
    }
    an_buf_puts(b, "</div>\n");
}

static bool has_findings(const struct an_test_result *t, size_t turn)
{
    for (size_t i = 0; i < t->findings.n; i++)
        if (t->findings.v[i].turn >= 0 && (size_t)t->findings.v[i].turn == turn)
            return true;
    return false;
}

static void turn_item(struct an_buf *b, const struct an_test_result *t, size_t i)
{
    const struct an_transcript *tr = &t->transcript;
    const struct an_turn_rec *r = &tr->turns[i];
    const struct an_dynamic_result *d = t->dyn;
    const char *cls = r->status == AN_TURN_NOT_RUN ? "notrun"
                      : r->status == AN_TURN_ERROR ? "error"
                      : has_findings(t, i)         ? "failed"
                                                   : "ok";
    an_buf_printf(b, "<li class=\"turn %s\"><div class=\"thead\"><b>turn %zu</b>"
                     "<span class=\"chip\">",
                  cls, i + 1);
    text(b, r->kind ? r->kind : "user", false);
    an_buf_puts(b, "</span>");
    if (r->status == AN_TURN_NOT_RUN) {
        an_buf_puts(b, "<span class=\"muted\">not run</span>");
    } else {
        an_buf_puts(b, "<span class=\"muted\">");
        ms(b, r->end_ms - r->start_ms);
        an_buf_printf(b, " \xC2\xB7 %zu tool call%s", r->ncalls, r->ncalls == 1 ? "" : "s");
        if (r->http_status && r->http_status != 200)
            an_buf_printf(b, " \xC2\xB7 HTTP %d", r->http_status);
        if (r->retries)
            an_buf_printf(b, " \xC2\xB7 %u retr%s", r->retries, r->retries == 1 ? "y" : "ies");
        an_buf_puts(b, "</span>");
    }
    an_buf_puts(b, "</div>");
    if (r->input) {
        an_buf_printf(b, "<div class=\"who\">%s</div><div class=\"msg user\">",
                      d ? "simulated user" : "user");
        text(b, r->input, true);
        an_buf_puts(b, "</div>");
    }
    if (d && i < d->nreasoning && d->reasoning[i]) {
        an_buf_puts(b, "<div class=\"who\">simulator&#39;s reasoning</div>"
                       "<div class=\"msg sim\">");
        text(b, d->reasoning[i], true);
        an_buf_puts(b, "</div>");
    }
    if (r->status != AN_TURN_NOT_RUN) {
        if (r->retries && r->retry_log) {
            an_buf_puts(b, "<div class=\"who\">retries</div>");
            notes(b, "retry", r->retry_log, r->retries);
        }
        for (size_t k = 0; k < r->ncalls && r->first_call + k < tr->ncalls; k++)
            call_row(b, &tr->calls[r->first_call + k], r);
        if (r->text && r->text[0]) {
            an_buf_puts(b, "<div class=\"who\">assistant</div><div class=\"msg agent\">");
            text(b, r->text, true);
            an_buf_puts(b, "</div>");
        }
        if (r->nwarnings) {
            an_buf_puts(b, "<div class=\"who\">warnings</div>");
            notes(b, "warn", r->warnings, r->nwarnings);
        }
        if (r->status == AN_TURN_ERROR) {
            an_buf_printf(b, "<div class=\"box err\"><span class=\"title\">%s</span> ",
                          an_code_name((enum an_code)r->error_code));
            text(b, r->error ? r->error : "turn failed", true);
            an_buf_puts(b, "</div>");
        }
    }
    for (size_t k = 0; d && k < d->ncheckpoints; k++)
        if (d->checkpoints[k].reached_at_turn >= 0 &&
            (size_t)d->checkpoints[k].reached_at_turn == i)
            reached(b, &d->checkpoints[k]);
    for (size_t k = 0; k < t->findings.n; k++)
        if (t->findings.v[k].turn >= 0 && (size_t)t->findings.v[k].turn == i)
            finding(b, &t->findings.v[k]);
    an_buf_puts(b, "</li>\n");
}

/* --- a dynamic test ----------------------------------------------------- */

/* Simulator, seed and outcome, above the turns. */
static void dyn_box(struct an_buf *b, const struct an_test_result *t)
{
    const struct an_dynamic_result *d = t->dyn;
    struct an_buf raw = AN_BUF_INIT;
    an_buf_puts(b, "<div class=\"box dyn\">dynamic test \xC2\xB7 simulator <b class=\"mono\">");
    text(b, d->simulator ? d->simulator : "(unknown)", false);
    an_buf_puts(b, "</b>");
    if (d->seed >= 0)
        an_buf_printf(b, " \xC2\xB7 seed %lld", (long long)d->seed);
    an_buf_puts(b, "<div>");
    an_rpt_dyn_outcome(&raw, t, 0);
    text(b, an_buf_cstr(&raw), false);
    an_buf_puts(b, "</div></div>\n");
    an_buf_release(&raw);
}

/* Every checkpoint: reached at which turn, with what evidence; a required
 * one never reached is the row to read. */
static void checkpoint_table(struct an_buf *b, const struct an_dynamic_result *d)
{
    an_buf_puts(b, "<h3>checkpoints</h3>");
    if (!d->ncheckpoints) {
        an_buf_puts(b, "<div class=\"muted\">none</div>\n");
        return;
    }
    an_buf_puts(b, "<table class=\"cps\"><thead><tr><th>checkpoint</th><th>required</th>"
                   "<th>reached at turn</th><th>evidence</th></tr></thead><tbody>\n");
    for (size_t k = 0; k < d->ncheckpoints; k++) {
        const struct an_checkpoint_result *c = &d->checkpoints[k];
        bool hit = c->reached_at_turn >= 0;
        an_buf_printf(b, "<tr class=\"%s\"><td><span class=\"mono\">",
                      hit ? "reached" : c->required ? "missing" : "optional");
        text(b, c->id ? c->id : "?", false);
        an_buf_puts(b, "</span>");
        if (c->description && c->description[0]) {
            an_buf_puts(b, "<div class=\"muted\">");
            text(b, c->description, false);
            an_buf_puts(b, "</div>");
        }
        an_buf_printf(b, "</td><td>%s</td><td class=\"at\">", c->required ? "yes" : "no");
        if (hit)
            an_buf_printf(b, "%d", c->reached_at_turn + 1);
        else
            an_buf_puts(b, c->required ? "missing" : "not reached");
        an_buf_puts(b, "</td><td class=\"ev\">");
        text(b, c->evidence, true);
        if (!hit && c->missed && c->missed[0]) { /* the check that failed, and why */
            an_buf_puts(b, "<div class=\"missed\">failed: ");
            text(b, c->missed, true);
            an_buf_puts(b, "</div>");
        }
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
}

/* --- a test ------------------------------------------------------------- */

static void repeat_box(struct an_buf *b, const struct an_test_result *t)
{
    enum an_stability st = an_stability_of(t->passes, t->runs);
    an_buf_printf(b, "<div class=\"box repeat\">runs <b>%u</b> \xC2\xB7 passes <b>%u</b> "
                     "\xC2\xB7 pass rate <b>",
                  t->runs, t->passes);
    pct(b, t->passes, t->runs);
    an_buf_printf(b, "</b> \xC2\xB7 <span class=\"stab s%d\">%s</span>", (int)st,
                  an_stability_name(st));
    if (t->attempts) {
        an_buf_puts(b, "<ol class=\"attempts\">");
        for (unsigned i = 0; i < t->runs; i++) {
            const struct an_attempt *a = &t->attempts[i];
            an_buf_printf(b, "<li class=\"%s\">#%u %s ", an_status_name(a->status), i + 1,
                          an_status_name(a->status));
            ms(b, a->duration_ms);
            if (a->summary) {
                an_buf_puts(b, ": ");
                text(b, a->summary, false);
            }
            an_buf_puts(b, "</li>");
        }
        an_buf_puts(b, "</ol>");
    }
    an_buf_printf(b, "<div class=\"muted\">The turns below are from %s.</div></div>\n",
                  t->passes < t->runs ? "the first run that did not pass" : "the last run");
}

/* A repeated test whose runs disagree (some passed, some did not). */
static bool flaky(const struct an_test_result *t)
{
    if (!t->attempts || t->runs < 2)
        return t->runs > 1 && t->passes && t->passes < t->runs;
    for (unsigned i = 1; i < t->runs; i++)
        if (t->attempts[i].status != t->attempts[0].status)
            return true;
    return false;
}

/* Failures first: what fails the run, then the flaky, the passed (and the
 * expected failures), the skipped; run order within each. */
static int order_rank(const struct an_test_result *t)
{
    if (t->expect == AN_EXPECT_STALE || t->status == AN_STATUS_ERROR ||
        (t->status == AN_STATUS_FAIL && t->expect != AN_EXPECT_FAILED))
        return 0;
    if (flaky(t))
        return 1;
    return t->status == AN_STATUS_SKIP ? 3 : 2;
}

static void test_section(struct an_buf *b, const struct an_test_result *t, size_t idx)
{
    /* a stale expected failure fails the run: it is shown and filtered as
     * one; an expected failure keeps its section but a muted badge */
    const char *st = t->expect == AN_EXPECT_STALE ? "fail" : an_status_name(t->status);
    const char *badge = t->expect == AN_EXPECT_FAILED ? "skip" : st;
    const struct an_transcript *tr = &t->transcript;
    /* open what needs reading: a test that did not pass, or that passed
     * only some of its repeated runs */
    bool open = t->status == AN_STATUS_FAIL || t->status == AN_STATUS_ERROR ||
                t->passes < t->runs || t->expect == AN_EXPECT_STALE;
    bool fl = flaky(t);
    an_buf_printf(b, "<details class=\"test %s\" id=\"test-%zu\" data-status=\"%s\"%s",
                  st, idx + 1, st, fl ? " data-flaky=\"1\"" : "");
    /* what the search box looks in: name, file, tags */
    an_buf_puts(b, " data-search=\"");
    text(b, t->name ? t->name : "", false);
    an_buf_putc(b, ' ');
    text(b, t->file ? t->file : "", false);
    for (size_t i = 0; i < t->ntags; i++) {
        an_buf_putc(b, ' ');
        text(b, t->tags[i], false);
    }
    an_buf_printf(b, "\"%s><summary><span class=\"badge %s\">%s</span>", open ? " open" : "",
                  badge, status_label(t));
    if (fl)
        an_buf_printf(b, "<span class=\"badge flaky\" title=\"%u of %u runs passed\">FLAKY"
                         "</span>",
                      t->passes, t->runs);
    an_buf_puts(b, "<span class=\"tname\">");
    text(b, t->name ? t->name : "(unnamed)", false);
    for (size_t i = 0; i < t->ntags; i++) {
        an_buf_puts(b, "</span> <span class=\"tag\">");
        text(b, t->tags[i], false);
    }
    an_buf_puts(b, "</span><span class=\"tfile\">");
    text(b, t->file, false);
    an_buf_puts(b, "</span><span class=\"tdur\">");
    ms(b, t->end_ms - t->start_ms);
    an_buf_puts(b, "</span></summary><div class=\"tbody\">\n");
    if (t->status == AN_STATUS_SKIP && t->skip_reason) {
        an_buf_puts(b, "<div class=\"muted\">Skipped, not run: ");
        text(b, t->skip_reason, false);
        an_buf_puts(b, "</div>\n");
    } else if (t->status == AN_STATUS_SKIP) {
        an_buf_puts(b, "<div class=\"muted\">Skipped (<code>skip: true</code>): not run.</div>\n");
    }
    if (t->expect) {
        an_buf_puts(b, t->expect == AN_EXPECT_FAILED
                           ? "<div class=\"box\"><span class=\"title\">Expected failure</span> "
                             "listed in --expected-failures: it does not fail the run"
                           : "<div class=\"box err\"><span class=\"title\">Stale expected "
                             "failure</span> it passed, yet --expected-failures lists it: take "
                             "it off the list");
        if (t->expect_reason) {
            an_buf_puts(b, "<div class=\"msg\">");
            text(b, t->expect_reason, true);
            an_buf_puts(b, "</div>");
        }
        an_buf_puts(b, "</div>\n");
    }
    if (t->status != AN_STATUS_SKIP) {
        struct an_metrics m;
        struct an_buf line = AN_BUF_INIT;
        an_metrics_of(t, &m);
        an_metrics_line(&line, &m);
        an_buf_puts(b, "<div class=\"muted metrics\">");
        text(b, an_buf_cstr(&line), false);
        an_buf_puts(b, "</div>\n");
        an_buf_release(&line);
    }

    if (t->status == AN_STATUS_ERROR) {
        an_buf_printf(b, "<div class=\"box err\"><span class=\"title\">ERROR %s</span> ",
                      an_code_name((enum an_code)t->error_code));
        if (t->error_turn >= 0)
            an_buf_printf(b, "in turn %d", t->error_turn + 1);
        if (t->timed_out)
            an_buf_puts(b, " (cut by --timeout)");
        an_buf_puts(b, "<div class=\"msg\">");
        text(b, t->error ? t->error : an_code_desc((enum an_code)t->error_code), true);
        an_buf_puts(b, "</div></div>\n");
    }
    if (t->runs)
        repeat_box(b, t);
    if (t->nvar_names) {
        an_buf_puts(b, "<div class=\"muted\">hook variables: <span class=\"mono\">");
        for (size_t i = 0; i < t->nvar_names; i++) {
            if (i)
                an_buf_puts(b, ", ");
            text(b, t->var_names[i], false);
        }
        an_buf_puts(b, "</span></div>\n");
    }
    if (t->dyn)
        dyn_box(b, t);
    if (tr->nturns) {
        an_buf_puts(b, "<ol class=\"turns\">\n");
        for (size_t i = 0; i < tr->nturns; i++)
            turn_item(b, t, i);
        an_buf_puts(b, "</ol>\n");
    }
    if (t->dyn) {
        /* the simulator's reasoning when it ended the talk: no turn to hold it */
        const struct an_dynamic_result *d = t->dyn;
        for (size_t i = tr->nturns; i < d->nreasoning; i++) {
            if (!d->reasoning[i])
                continue;
            an_buf_printf(b, "<div class=\"who\">simulator&#39;s reasoning after turn %zu</div>"
                             "<div class=\"msg sim\">",
                          tr->nturns);
            text(b, d->reasoning[i], true);
            an_buf_puts(b, "</div>\n");
        }
        checkpoint_table(b, d);
    }
    bool header = false;
    for (size_t k = 0; k < t->findings.n; k++) {
        const struct an_finding *f = &t->findings.v[k];
        if (f->turn >= 0 && (size_t)f->turn < tr->nturns)
            continue;
        if (!header)
            an_buf_puts(b, "<h3>whole test</h3>");
        header = true;
        finding(b, f);
    }
    if (t->judgements.n) {
        /* what each judge was shown and answered, passed or not */
        struct an_buf jt = AN_BUF_INIT;
        an_rpt_judgements(&jt, t, "", 0, true);
        an_buf_puts(b, "<h3>judges</h3><pre class=\"mono\">");
        text(b, an_buf_cstr(&jt), true);
        an_buf_puts(b, "</pre>\n");
        an_buf_release(&jt);
    }
    an_buf_puts(b, "</div></details>\n");
}

/* --- the page ----------------------------------------------------------- */

static void base64(struct an_buf *b, const unsigned char *p, size_t n);

static void head(struct an_buf *b, const struct an_run_result *r, const struct an_counts *c)
{
    size_t p = c->passed, f = c->failed, e = c->errors, sk = c->skipped;
    unsigned char h[32];
    an_sha256(SCRIPT, sizeof SCRIPT - 1, h);
    an_buf_puts(b, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                   "style-src 'unsafe-inline'; img-src data:; script-src 'sha256-");
    base64(b, h, sizeof h);
    an_buf_puts(b, "'; base-uri 'none'; form-action 'none'\">\n"
                   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                   "<meta name=\"color-scheme\" content=\"light dark\">\n"
                   "<meta name=\"referrer\" content=\"no-referrer\">\n");
    an_buf_printf(b, "<title>ananke: %zu passed, %zu failed, %zu error%s</title>\n", p, f, e,
                  e == 1 ? "" : "s");
    an_buf_printf(b, "<style>\n%s</style>\n</head>\n<body>\n<div class=\"wrap\">\n", STYLE);

    size_t n = r->ntests;
    an_buf_puts(b, "<header>\n<h1>ananke <span class=\"muted\">test report</span></h1>\n"
                   "<div class=\"totals\">");
    an_buf_printf(b, "<span class=\"badge pass\">%zu passed</span>"
                     "<span class=\"badge fail\">%zu failed</span>"
                     "<span class=\"badge error\">%zu error%s</span>",
                  p, f, e, e == 1 ? "" : "s");
    if (sk)
        an_buf_printf(b, "<span class=\"badge skip\">%zu skipped</span>", sk);
    if (c->xfailed)
        an_buf_printf(b, "<span class=\"badge skip\">%zu expected failure%s</span>", c->xfailed,
                      c->xfailed == 1 ? "" : "s");
    if (c->stale)
        an_buf_printf(b, "<span class=\"badge fail\">%zu stale</span>", c->stale);
    an_buf_printf(b, "<span class=\"muted\">%zu test%s in ", n, n == 1 ? "" : "s");
    ms(b, r->end_ms - r->start_ms);
    an_buf_puts(b, "</span></div>\n<div class=\"stack\">");
    const char *cls[4] = {"pass", "fail", "error", "skip"};
    size_t cnt[4] = {p, f, e, sk};
    for (int i = 0; i < 4; i++) {
        if (!cnt[i])
            continue;
        an_buf_printf(b, "<span class=\"%s\" style=\"width:", cls[i]);
        pct(b, (int64_t)cnt[i], (int64_t)n);
        an_buf_puts(b, "\"></span>");
    }
    an_buf_puts(b, "</div>\n<dl class=\"meta\"><dt>started</dt><dd>");
    utc(b, r->start_ms);
    an_buf_puts(b, "</dd><dt>duration</dt><dd>");
    ms(b, r->end_ms - r->start_ms);
    an_buf_puts(b, "</dd>");
    if (r->config_path) {
        an_buf_puts(b, "<dt>config</dt><dd class=\"mono\">");
        text(b, r->config_path, false);
        an_buf_puts(b, "</dd>");
    }
    if (r->shard) {
        an_buf_puts(b, "<dt>shard</dt><dd>");
        text(b, r->shard, false);
        an_buf_puts(b, "</dd>");
    }
    if (r->filter) {
        an_buf_puts(b, "<dt>filter</dt><dd class=\"mono\">");
        text(b, r->filter, false);
        an_buf_puts(b, "</dd>");
    }
    /* the runner records 1 for "not given": only a real choice is news */
    if (r->repeat > 1) {
        an_buf_printf(b, "<dt>repeat</dt><dd>%u runs per test, pass rate needed ", r->repeat);
        /* pass_rate is a fraction; shown in per-mille steps like pct() */
        double pr = r->pass_rate > 0 ? r->pass_rate : 1.0;
        pct(b, (int64_t)(pr * 1000.0 + 0.5), 1000);
        an_buf_puts(b, "</dd>");
    }
    if (r->parallel > 1)
        an_buf_printf(b, "<dt>parallel</dt><dd>%u</dd>", r->parallel);
    if (r->not_run)
        an_buf_printf(b, "<dt>not run</dt><dd>%zu test%s (stopped early)</dd>", r->not_run,
                      r->not_run == 1 ? "" : "s");
    an_buf_puts(b, "</dl>\n</header>\n");

    an_buf_printf(b,
                  "<nav class=\"bar-tools\" aria-label=\"filter\">"
                  "<input type=\"radio\" name=\"show\" id=\"show-all\" checked>"
                  "<label for=\"show-all\">all %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-fail\">"
                  "<label for=\"show-fail\">failed %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-error\">"
                  "<label for=\"show-error\">errors %zu</label>"
                  "<input type=\"radio\" name=\"show\" id=\"show-pass\">"
                  "<label for=\"show-pass\">passed %zu</label>",
                  n, f, e, p);
    if (sk)
        an_buf_printf(b,
                      "<input type=\"radio\" name=\"show\" id=\"show-skip\">"
                      "<label for=\"show-skip\">skipped %zu</label>",
                      sk);
    an_buf_puts(b, "<span class=\"sep\"></span>"
                   "<input type=\"search\" id=\"search\" class=\"search\" hidden "
                   "placeholder=\"search name, file, tag\" aria-label=\"search tests by name, "
                   "file or tag\">"
                   "<button type=\"button\" data-open=\"1\" hidden>expand all</button>"
                   "<button type=\"button\" data-open=\"0\" hidden>collapse all</button>"
                   "</nav>\n<main>\n");
}

int an_report_html_file(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    struct an_counts c = an_run_result_counts(r);
    head(&b, r, &c);
    for (int rank = 0; rank < 4; rank++)
        for (size_t i = 0; i < r->ntests; i++) {
            if (order_rank(&r->tests[i]) != rank)
                continue;
            test_section(&b, &r->tests[i], i);
            /* flush per test: a large run never sits in memory twice */
            fwrite(b.data, 1, b.len, f.fp);
            an_buf_reset(&b);
        }
    if (!r->ntests)
        an_buf_puts(&b, "<p class=\"muted\">No tests were run.</p>\n");
    an_buf_puts(&b, "</main>\n<footer>Written by ananke " ANANKE_VERSION
                    ". This page is self-contained: it loads nothing.</footer>\n</div>\n<script>");
    an_buf_puts(&b, SCRIPT);
    an_buf_puts(&b, "</script>\n</body>\n</html>\n");
    fwrite(b.data, 1, b.len, f.fp);
    an_buf_release(&b);
    /* a failed fwrite sets the stream's error flag; commit reports it */
    return an_atomic_commit(&f, err);
}

int an_report_html(const struct an_run_result *r, const char *dir, struct an_err *err)
{
    struct an_buf path = AN_BUF_INIT;
    int rc = AN_OK;
    struct stat st;

    if (!dir || !dir[0])
        return an_fail(err, AN_EUSAGE, NULL, "html report needs a directory");
    an_buf_puts(&path, dir);
    if ((rc = an_mkdir_p(path.data, path.len, err)))
        goto done;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = an_fail(err, AN_EIO, NULL, "cannot write report into '%s': not a directory", dir);
        goto done;
    }
    if (path.data[path.len - 1] != '/')
        an_buf_putc(&path, '/');
    an_buf_puts(&path, "index.html");
    rc = an_report_html_file(r, an_buf_cstr(&path), err);
done:
    an_buf_release(&path);
    return rc;
}

/* --- base64, for the CSP script hash ------------------------------------ */

static void base64(struct an_buf *b, const unsigned char *p, size_t n)
{
    static const char abc[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        an_buf_putc(b, abc[v >> 18 & 63]);
        an_buf_putc(b, abc[v >> 12 & 63]);
        an_buf_putc(b, i + 1 < n ? abc[v >> 6 & 63] : '=');
        an_buf_putc(b, i + 2 < n ? abc[v & 63] : '=');
    }
}
