/*
 * case-<id>.html: one case's replay diff, baseline on the left, new on the
 * right.
 *
 *   header    status on each side, regression/improvement, gate, risk, tags;
 *             "missing on the baseline side" (or new) when a side has no data
 *   sides     per side: root cause, failure summary, trace integrity,
 *             security signals, the failed assertions listed (each in full
 *             where it failed, below), the error, evidence links
 *   turns     turn by turn: the user message, the tool calls aligned (the
 *             longest common subsequence of their names, so an inserted or
 *             dropped call shows as a one-sided row and the rest stay
 *             paired), each with its arguments, result and timing, then the
 *             assistant text, the turn's error and its failed assertions.
 *             A cell that differs from its counterpart is highlighted; a
 *             timing counts as changed when it moved by 100 ms and 25 %.
 *   repro     the command that re-runs the case
 */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "compare/compare_int.h"
#include "report/metrics.h"
#include "report/report_util.h"

/* Above this many name comparisons calls are paired by position alone. */
#define ALIGN_MAX 250000

static const char *side_title(int k)
{
    return k == CMP_BASE ? "baseline" : "new";
}

static bool str_differs(const char *a, const char *b)
{
    return strcmp(a ? a : "", b ? b : "") != 0;
}

static bool time_differs(int64_t a, int64_t b)
{
    int64_t d = a > b ? a - b : b - a, m = a > b ? a : b;
    return d >= 100 && d * 4 >= m;
}

static void ms(struct cmp_page *pg, int64_t v)
{
    char d[32];
    an_buf_puts(&pg->b, an_rpt_ms(d, sizeof d, v));
}

static int64_t call_ms(const struct an_tool_call *c)
{
    int64_t e = c->ts_ms ? c->ts_ms : c->end_ms;
    return c->start_ms && e > c->start_ms ? e - c->start_ms : 0;
}

/* --- the sides ------------------------------------------------------------------ */

static void finding(struct cmp_page *pg, const struct an_finding *f, const char *kind)
{
    an_buf_puts(&pg->b, "<div class=\"finding\"><div class=\"title\">");
    cmp_page_text(pg, f->assertion ? f->assertion : "assertion failed", false);
    an_buf_puts(&pg->b, " <span class=\"chip\">");
    cmp_page_text(pg, kind ? kind : f->kind, false);
    an_buf_puts(&pg->b, "</span></div><dl class=\"kv\">");
    if (f->expected) {
        an_buf_puts(&pg->b, "<dt>expected</dt><dd class=\"msg\">");
        cmp_page_text(pg, f->expected, true);
        an_buf_puts(&pg->b, "</dd>");
    }
    if (f->actual) {
        an_buf_puts(&pg->b, "<dt>actual</dt><dd class=\"msg\">");
        cmp_page_text(pg, f->actual, true);
        an_buf_puts(&pg->b, "</dd>");
    }
    if (f->file) {
        an_buf_puts(&pg->b, "<dt>at</dt><dd class=\"mono\">");
        cmp_page_text(pg, f->file, false);
        if (f->line)
            an_buf_printf(&pg->b, ":%u:%u", f->line, f->col);
        an_buf_puts(&pg->b, "</dd>");
    }
    an_buf_puts(&pg->b, "</dl></div>\n");
}

static void signal(struct cmp_page *pg, const struct cmp_item *it, int k,
                   const struct cmp_signal *g)
{
    an_buf_printf(&pg->b, "<div class=\"signal %s\"><b>", cmp_sev_name(g->severity));
    cmp_page_text(pg, g->kind, false);
    an_buf_printf(&pg->b, "</b> <span class=\"chip\">%s</span> ", cmp_sev_name(g->severity));
    cmp_page_text(pg, g->title, false);
    if (g->tool) {
        an_buf_puts(&pg->b, "<div class=\"tags\">tool ");
        cmp_page_text(pg, g->tool, false);
        if (g->call_id) {
            an_buf_puts(&pg->b, " (");
            cmp_page_text(pg, g->call_id, false);
            an_buf_puts(&pg->b, ")");
        }
        an_buf_puts(&pg->b, "</div>");
    }
    for (size_t i = 0; i < g->nurls; i++) {
        an_buf_puts(&pg->b, "<div class=\"tags mono\">");
        cmp_page_text(pg, g->urls[i], false);
        an_buf_puts(&pg->b, "</div>");
    }
    if (g->nfields) {
        an_buf_puts(&pg->b, "<div class=\"tags\">fields: ");
        for (size_t i = 0; i < g->nfields; i++) {
            if (i)
                an_buf_puts(&pg->b, ", ");
            cmp_page_text(pg, g->fields[i], false);
        }
        an_buf_puts(&pg->b, "</div>");
    }
    if (g->notes) {
        an_buf_puts(&pg->b, "<div class=\"tags\">");
        cmp_page_text(pg, g->notes, false);
        an_buf_puts(&pg->b, "</div>");
    }
    char key[200];
    snprintf(key, sizeof key, "%s/%s/%s", it->fid, cmp_side_name[k], cmp_art_name[g->evidence]);
    an_buf_puts(&pg->b, "<div class=\"tags\">evidence: ");
    cmp_page_link(pg, key, key);
    an_buf_puts(&pg->b, "</div></div>\n");
}

static void side_box(struct cmp_page *pg, const struct cmp_item *it, int k)
{
    const struct cmp_side *s = &it->side[k];
    an_buf_printf(&pg->b, "<div class=\"side\"><h3>%s ", side_title(k));
    cmp_page_badge(pg, s->word, s->word);
    an_buf_puts(&pg->b, "</h3>");
    if (s->avail != CMP_PRESENT) {
        an_buf_printf(&pg->b, "<div class=\"box missing\">%s on the %s side",
                      s->avail == CMP_BROKEN ? "broken" : "missing", side_title(k));
        if (s->reason) {
            an_buf_puts(&pg->b, ": ");
            cmp_page_text(pg, s->reason, false);
        }
        if (s->reason_code)
            an_buf_printf(&pg->b, " <span class=\"chip\">%s</span>", s->reason_code);
        an_buf_puts(&pg->b, "</div>");
    }
    an_buf_puts(&pg->b, "<dl class=\"kv\">");
    if (cmp_root_name(s->root)) {
        an_buf_puts(&pg->b, "<dt>root cause</dt><dd>");
        cmp_page_text(pg, cmp_root_name(s->root), false);
        an_buf_puts(&pg->b, "</dd>");
    }
    an_buf_printf(&pg->b, "<dt>trace</dt><dd>%s", s->trace.status);
    for (size_t i = 0; i < s->trace.n; i++)
        an_buf_printf(&pg->b, " <span class=\"chip\">%s</span>", s->trace.issues[i]);
    an_buf_puts(&pg->b, "</dd>");
    if (s->t) {
        an_buf_puts(&pg->b, "<dt>duration</dt><dd>");
        ms(pg, s->t->end_ms - s->t->start_ms);
        an_buf_puts(&pg->b, "</dd>");
    }
    an_buf_puts(&pg->b, "</dl>");
    if (s->failed_run) {
        const struct cmp_failure *f = &s->failure;
        an_buf_printf(&pg->b, "<div class=\"box err\"><b>%s</b> <span class=\"chip\">%s</span>",
                      f->code, f->cls);
        if (f->http_status)
            an_buf_printf(&pg->b, " <span class=\"chip\">HTTP %d</span>", f->http_status);
        if (f->attempts > 1)
            an_buf_printf(&pg->b, " <span class=\"chip\">%u attempts</span>", f->attempts);
        if (f->timeout_ms)
            an_buf_printf(&pg->b, " <span class=\"chip\">timeout %lld ms</span>",
                          (long long)f->timeout_ms);
        an_buf_puts(&pg->b, "<div class=\"msg\">");
        cmp_page_text(pg, f->message, true);
        an_buf_puts(&pg->b, "</div></div>");
    }
    if (s->sig.n) {
        an_buf_puts(&pg->b, "<h3>security signals</h3>");
        for (size_t i = 0; i < s->sig.n; i++)
            signal(pg, it, k, &s->sig.v[i]);
    }
    if (s->t && s->t->findings.n) {
        /* each is shown in full where it failed, in the replay diff */
        an_buf_printf(&pg->b, "<h3>failed assertions: %zu</h3><ul class=\"links\">",
                      s->t->findings.n);
        for (size_t i = 0; i < s->t->findings.n; i++) {
            const struct an_finding *f = &s->t->findings.v[i];
            an_buf_puts(&pg->b, "<li>");
            cmp_page_text(pg, f->assertion ? f->assertion : "assertion failed", false);
            an_buf_puts(&pg->b, " <span class=\"chip\">");
            cmp_page_text(pg, s->kinds && s->kinds[i] ? s->kinds[i] : f->kind, false);
            an_buf_puts(&pg->b, "</span></li>");
        }
        an_buf_puts(&pg->b, "</ul>");
    }
    an_buf_puts(&pg->b, "<h3>evidence</h3><ul class=\"links\">");
    char key[200];
    for (int a = 0; a < CMP_ART_COUNT; a++) {
        snprintf(key, sizeof key, "%s/%s/%s", it->fid, cmp_side_name[k], cmp_art_name[a]);
        if (!cmp_pack_rel(pg->pack, key))
            continue;
        an_buf_puts(&pg->b, "<li>");
        cmp_page_link(pg, key, cmp_art_name[a]);
        an_buf_puts(&pg->b, "</li>");
    }
    snprintf(key, sizeof key, "run/%s/run_meta", cmp_side_name[k]);
    an_buf_puts(&pg->b, "<li>");
    cmp_page_link(pg, key, "run.json");
    an_buf_puts(&pg->b, "</li></ul></div>\n");
}

/* --- the replay diff ---------------------------------------------------------------- */

struct pair {
    long a, b; /* index into each side's calls of the turn, -1 = none */
};

/* Tool calls of one turn paired by the longest common subsequence of
 * their names; the rest one-sided, in order. Returns the number of rows. */
static size_t align(const struct an_tool_call *a, size_t na, const struct an_tool_call *b,
                    size_t nb, struct pair *out)
{
    size_t n = 0;
    if (na * nb == 0 || na * nb > ALIGN_MAX) {
        for (size_t i = 0; i < na || i < nb; i++)
            out[n++] = (struct pair){i < na ? (long)i : -1, i < nb ? (long)i : -1};
        return n;
    }
    unsigned *t = an_xcalloc((na + 1) * (nb + 1), sizeof *t);
#define L(i, j) t[(i) * (nb + 1) + (j)]
    for (size_t i = na; i-- > 0;)
        for (size_t j = nb; j-- > 0;)
            L(i, j) = !str_differs(a[i].name, b[j].name) ? L(i + 1, j + 1) + 1
                      : L(i + 1, j) >= L(i, j + 1)       ? L(i + 1, j)
                                                         : L(i, j + 1);
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        if (i < na && j < nb && !str_differs(a[i].name, b[j].name)) {
            out[n++] = (struct pair){(long)i++, (long)j++};
        } else if (j >= nb || (i < na && L(i + 1, j) >= L(i, j + 1))) {
            out[n++] = (struct pair){(long)i++, -1};
        } else {
            out[n++] = (struct pair){-1, (long)j++};
        }
    }
#undef L
    free(t);
    return n;
}

static bool json_differs(const json_t *x, const json_t *y)
{
    if (!x || !y)
        return x != y;
    return !json_equal((json_t *)x, (json_t *)y);
}

static void call_cell(struct cmp_page *pg, const struct an_tool_call *c,
                      const struct an_tool_call *other, bool paired, int64_t turn_start)
{
    if (!c) {
        an_buf_puts(&pg->b, "<div class=\"cell absent\">no call here</div>");
        return;
    }
    const json_t *args = an_tool_call_args(c);
    const json_t *other_args = paired ? an_tool_call_args(other) : NULL;
    bool args_chg = paired && (other_args || args ? json_differs(args, other_args)
                                                  : str_differs(c->args_text, other->args_text));
    bool res_chg = paired && json_differs(c->result, other->result);
    bool time_chg = paired && time_differs(call_ms(c), call_ms(other));
    an_buf_printf(&pg->b, "<div class=\"cell%s\"><code><b>",
                  !paired               ? " only"
                  : args_chg || res_chg ? " chg"
                                        : "");
    cmp_page_text(pg, c->name ? c->name : "?", false);
    an_buf_puts(&pg->b, "</b></code>");
    if (c->id) {
        an_buf_puts(&pg->b, " <span class=\"tags mono\">");
        cmp_page_text(pg, c->id, false);
        an_buf_puts(&pg->b, "</span>");
    }
    if (cmp_call_failed(c))
        an_buf_puts(&pg->b, " <span class=\"badge fail\">tool error</span>");
    an_buf_printf(&pg->b, "<div class=\"lbl\">%stiming: ", time_chg ? "&#9888; " : "");
    if (c->start_ms && turn_start) {
        an_buf_puts(&pg->b, "+");
        ms(pg, c->start_ms - turn_start);
        an_buf_puts(&pg->b, ", ");
    }
    ms(pg, call_ms(c));
    an_buf_printf(&pg->b, "</div><div class=\"lbl\">args%s", args_chg ? " (changed)" : "");
    if (c->args_error) {
        an_buf_puts(&pg->b, " not JSON: ");
        cmp_page_text(pg, c->args_error, false);
    }
    an_buf_puts(&pg->b, "</div><pre>");
    if (args)
        cmp_page_json(pg, args);
    else
        cmp_page_text(pg, c->args_text, true);
    an_buf_printf(&pg->b, "</pre><div class=\"lbl\">result%s</div>", res_chg ? " (changed)" : "");
    if (c->result) {
        an_buf_puts(&pg->b, "<pre>");
        cmp_page_json(pg, c->result);
        an_buf_puts(&pg->b, "</pre>");
    } else {
        an_buf_puts(&pg->b, "<div class=\"muted\">(no result)</div>");
    }
    an_buf_puts(&pg->b, "</div>");
}

static const struct an_turn_rec *turn_of(const struct cmp_side *s, size_t i)
{
    return s->t && i < s->t->transcript.nturns ? &s->t->transcript.turns[i] : NULL;
}

static void text_cell(struct cmp_page *pg, const char *label, const char *s, bool present,
                      bool changed)
{
    if (!present) {
        an_buf_puts(&pg->b, "<div class=\"cell absent\">-</div>");
        return;
    }
    an_buf_printf(&pg->b, "<div class=\"cell%s\"><div class=\"lbl\">%s%s</div><div class=\"msg\">",
                  changed ? " chg" : "", label, changed ? " (changed)" : "");
    if (s && s[0])
        cmp_page_text(pg, s, true);
    else
        an_buf_puts(&pg->b, "<span class=\"muted\">(none)</span>");
    an_buf_puts(&pg->b, "</div></div>");
}

static void turn_findings(struct cmp_page *pg, const struct cmp_side *s, int turn)
{
    an_buf_puts(&pg->b, "<div>");
    for (size_t i = 0; s->t && i < s->t->findings.n; i++)
        if (s->t->findings.v[i].turn == turn)
            finding(pg, &s->t->findings.v[i], s->kinds ? s->kinds[i] : NULL);
    an_buf_puts(&pg->b, "</div>");
}

static bool has_turn_findings(const struct cmp_side *s, int turn)
{
    for (size_t i = 0; s->t && i < s->t->findings.n; i++)
        if (s->t->findings.v[i].turn == turn)
            return true;
    return false;
}

static void turn_diff(struct cmp_page *pg, const struct cmp_item *it, size_t i)
{
    const struct cmp_side *bs = &it->side[CMP_BASE], *ns = &it->side[CMP_NEW];
    const struct an_turn_rec *b = turn_of(bs, i), *n = turn_of(ns, i);
    an_buf_printf(&pg->b, "<section class=\"turn\"><h3>turn %zu", i + 1);
    if (b && n) {
        int64_t db = b->end_ms - b->start_ms, dn = n->end_ms - n->start_ms;
        an_buf_puts(&pg->b, " <span class=\"chip\">");
        ms(pg, db);
        an_buf_puts(&pg->b, " &#8594; ");
        ms(pg, dn);
        an_buf_printf(&pg->b, "%s</span>", time_differs(db, dn) ? " &#9888; changed" : "");
    }
    an_buf_puts(&pg->b, "</h3>\n<div class=\"row\">");
    bool both = b && n;
    text_cell(pg, "user", b ? b->input : NULL, b != NULL, both && str_differs(b->input, n->input));
    text_cell(pg, "user", n ? n->input : NULL, n != NULL, both && str_differs(b->input, n->input));
    an_buf_puts(&pg->b, "</div>\n");

    size_t nb = b ? b->ncalls : 0, nn = n ? n->ncalls : 0;
    const struct an_tool_call *bc = nb ? &bs->t->transcript.calls[b->first_call] : NULL;
    const struct an_tool_call *nc = nn ? &ns->t->transcript.calls[n->first_call] : NULL;
    struct pair *rows = an_xcalloc(nb + nn + 1, sizeof *rows);
    size_t nrows = align(bc, nb, nc, nn, rows);
    for (size_t r = 0; r < nrows; r++) {
        const struct an_tool_call *x = rows[r].a >= 0 ? &bc[rows[r].a] : NULL;
        const struct an_tool_call *y = rows[r].b >= 0 ? &nc[rows[r].b] : NULL;
        an_buf_puts(&pg->b, "<div class=\"row\">");
        call_cell(pg, x, y, x && y, b ? b->start_ms : 0);
        call_cell(pg, y, x, x && y, n ? n->start_ms : 0);
        an_buf_puts(&pg->b, "</div>\n");
    }
    free(rows);

    an_buf_puts(&pg->b, "<div class=\"row\">");
    bool tchg = both && str_differs(b->text, n->text);
    text_cell(pg, "assistant", b ? b->text : NULL, b != NULL, tchg);
    text_cell(pg, "assistant", n ? n->text : NULL, n != NULL, tchg);
    an_buf_puts(&pg->b, "</div>\n");
    if ((b && b->status == AN_TURN_ERROR) || (n && n->status == AN_TURN_ERROR)) {
        an_buf_puts(&pg->b, "<div class=\"row\">");
        const struct an_turn_rec *t2[2] = {b, n};
        for (int k = 0; k < 2; k++) {
            if (t2[k] && t2[k]->status == AN_TURN_ERROR) {
                an_buf_puts(&pg->b, "<div class=\"cell box err\"><b>turn error</b> ");
                if (t2[k]->http_status >= 400)
                    an_buf_printf(&pg->b, "<span class=\"chip\">HTTP %d</span> ",
                                  t2[k]->http_status);
                cmp_page_text(pg, t2[k]->error, true);
                an_buf_puts(&pg->b, "</div>");
            } else {
                an_buf_puts(&pg->b, "<div></div>");
            }
        }
        an_buf_puts(&pg->b, "</div>\n");
    }
    if (has_turn_findings(bs, (int)i) || has_turn_findings(ns, (int)i)) {
        an_buf_puts(&pg->b, "<div class=\"row\">");
        turn_findings(pg, bs, (int)i);
        turn_findings(pg, ns, (int)i);
        an_buf_puts(&pg->b, "</div>\n");
    }
    an_buf_puts(&pg->b, "</section>\n");
}

void cmp_html_case(struct cmp_page *pg, const struct an_compare *c, const struct cmp_item *it)
{
    (void)c;
    struct an_buf title = AN_BUF_INIT;
    an_buf_printf(&title, "ananke compare: %s", it->case_id);
    cmp_page_head(pg, an_buf_cstr(&title));
    an_buf_release(&title);
    an_buf_puts(&pg->b, "<nav><a href=\"report.html\" data-manifest-key=\"report/html\">"
                        "&#8592; all cases (report.html)</a></nav>\n<header><h1>");
    cmp_page_text(pg, it->title, false);
    an_buf_puts(&pg->b, "</h1><div class=\"totals\">");
    const char *ch = it->change == AN_CHANGE_REGRESSION    ? "regression"
                     : it->change == AN_CHANGE_IMPROVEMENT ? "improvement"
                                                           : "unchanged";
    cmp_page_badge(pg, it->side[CMP_BASE].word, it->side[CMP_BASE].word);
    an_buf_puts(&pg->b, "<span>&#8594;</span>");
    cmp_page_badge(pg, it->side[CMP_NEW].word, it->side[CMP_NEW].word);
    cmp_page_badge(pg, ch, ch);
    an_buf_puts(&pg->b, "<span class=\"muted\">gate</span>");
    cmp_page_badge(pg, an_gate_name(it->gate), an_gate_name(it->gate));
    an_buf_puts(&pg->b, "<span class=\"muted\">risk</span>");
    cmp_page_badge(pg, cmp_risk_level(it->gate), cmp_risk_level(it->gate));
    an_buf_puts(&pg->b, "</div><dl class=\"meta\">");
    an_buf_puts(&pg->b, "<dt>case id</dt><dd class=\"mono\">");
    cmp_page_text(pg, it->case_id, false);
    an_buf_puts(&pg->b, "</dd>");
    if (it->file) {
        an_buf_puts(&pg->b, "<dt>test file</dt><dd class=\"mono\">");
        cmp_page_text(pg, it->file, false);
        an_buf_puts(&pg->b, "</dd>");
    }
    an_buf_printf(&pg->b, "<dt>case status</dt><dd>%s</dd>", cmp_case_status_name(it->status));
    if (it->ntags) {
        an_buf_puts(&pg->b, "<dt>risk tags</dt><dd>");
        for (size_t i = 0; i < it->ntags; i++)
            an_buf_printf(&pg->b, "<span class=\"chip\">%s</span>", it->tags[i]);
        an_buf_puts(&pg->b, "</dd>");
    }
    an_buf_printf(&pg->b, "<dt>preventable by policy</dt><dd>%s", it->preventable ? "yes" : "no");
    for (size_t i = 0; i < it->nrules; i++)
        an_buf_printf(&pg->b, " <span class=\"chip\">%s</span>", it->rules[i]);
    an_buf_puts(&pg->b, "</dd>");
    for (int k = 0; k < 2; k++) { /* what every report shows of a test, side by side */
        const struct an_test_result *t = it->side[k].t;
        if (!t || t->status == AN_STATUS_SKIP)
            continue;
        struct an_metrics m;
        struct an_buf line = AN_BUF_INIT;
        an_metrics_of(t, &m);
        an_metrics_line(&line, &m);
        an_buf_printf(&pg->b, "<dt>%s metrics</dt><dd>", side_title(k));
        cmp_page_text(pg, an_buf_cstr(&line), false);
        an_buf_puts(&pg->b, "</dd>");
        an_buf_release(&line);
    }
    cmp_page_stats(pg, it);
    an_buf_puts(&pg->b, "</dl>\n");
    for (int k = 0; k < 2; k++)
        if (it->side[k].avail == CMP_MISSING && it->status != CMP_FILTERED_OUT)
            an_buf_printf(&pg->b, "<div class=\"box missing\">missing on the %s side</div>\n",
                          side_title(k));
        else if (it->side[k].avail == CMP_MISSING)
            an_buf_printf(&pg->b,
                          "<div class=\"box\">not selected on the %s side "
                          "(filtered out)</div>\n",
                          side_title(k));
    an_buf_puts(&pg->b, "</header>\n<div class=\"sides\">");
    side_box(pg, it, CMP_BASE);
    side_box(pg, it, CMP_NEW);
    an_buf_puts(&pg->b, "</div>\n<h2>Replay diff</h2>\n<div class=\"row\"><div class=\"lbl\">"
                        "baseline</div><div class=\"lbl\">new</div></div>\n");
    size_t nt = 0;
    for (int k = 0; k < 2; k++)
        if (it->side[k].t && it->side[k].t->transcript.nturns > nt)
            nt = it->side[k].t->transcript.nturns;
    for (size_t i = 0; i < nt; i++)
        turn_diff(pg, it, i);
    if (!nt)
        an_buf_puts(&pg->b, "<p class=\"muted\">No turn was recorded on either side.</p>\n");
    if (has_turn_findings(&it->side[CMP_BASE], -1) || has_turn_findings(&it->side[CMP_NEW], -1)) {
        an_buf_puts(&pg->b, "<h3>test-level assertions</h3><div class=\"row\">");
        turn_findings(pg, &it->side[CMP_BASE], -1);
        turn_findings(pg, &it->side[CMP_NEW], -1);
        an_buf_puts(&pg->b, "</div>\n");
    }
    char key[200];
    snprintf(key, sizeof key, "%s/repro", it->fid);
    if (cmp_pack_rel(pg->pack, key)) {
        an_buf_puts(&pg->b, "<h2>Re-run</h2><div class=\"box\">");
        const char *cfg = cmp_pack_rel(pg->pack, "repro/config");
        if (cfg) {
            char *cmd = cmp_repro_command(it, cfg);
            an_buf_puts(&pg->b, "<pre>");
            cmp_page_text(pg, cmd, true);
            an_buf_puts(&pg->b, "</pre>");
            free(cmd);
        }
        cmp_page_link(pg, key, "repro command and recorded targets");
        an_buf_puts(&pg->b, "</div>\n");
    }
    cmp_page_foot(pg);
}
