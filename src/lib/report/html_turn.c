/* A turn of the HTML timeline and a dynamic test's boxes (report/html_int.h). */
#include "report/html_int.h"

#include "report/report_util.h"

static void call_row(struct an_buf *b, const struct an_tool_call *c, const struct an_turn_rec *r)
{
    int64_t t0 = r->start_ms, t1 = r->end_ms > r->start_ms ? r->end_ms : r->start_ms;
    int64_t s = c->start_ms, e = c->ts_ms ? c->ts_ms : c->end_ms;
    an_buf_puts(b, "<div class=\"call\"><div class=\"chead\"><code>");
    html_text(b, c->name ? c->name : "?", false);
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
        html_ms(b, s - t0);
        an_buf_puts(b, " \xC2\xB7 ");
        html_ms(b, e - s);
        an_buf_puts(b, "</span><span class=\"track\"><span style=\"left:");
        html_pct(b, s - t0, t1 - t0);
        an_buf_puts(b, ";width:");
        html_pct(b, e - s, t1 - t0);
        an_buf_puts(b, "\"></span></span>");
    }
    an_buf_puts(b, "</div><div class=\"io\"><div><div class=\"lbl\">args");
    if (c->args_error) {
        an_buf_puts(b, " (not JSON: ");
        html_text(b, c->args_error, false);
        an_buf_putc(b, ')');
    }
    an_buf_puts(b, "</div><pre>");
    const json_t *args = an_tool_call_args(c);
    if (args)
        html_json_pretty(b, args);
    else
        html_text(b, c->args_text, true);
    an_buf_puts(b, "</pre></div><div><div class=\"lbl\">result</div>");
    if (c->result) {
        an_buf_puts(b, "<pre>");
        html_json_pretty(b, c->result);
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
    html_text(b, c->id ? c->id : "?", false);
    an_buf_puts(b, "</span>");
    html_text(b, c->description, false);
    if (c->evidence && c->evidence[0]) {
        an_buf_puts(b, "<div class=\"cpev\">evidence: ");
        html_text(b, c->evidence, true);
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

void html_turn_item(struct an_buf *b, const struct an_test_result *t, size_t i)
{
    const struct an_transcript *tr = &t->transcript;
    const struct an_turn_rec *r = &tr->turns[i];
    const struct an_dynamic_result *d = t->dyn;
    const char *cls = r->status == AN_TURN_NOT_RUN ? "notrun"
                      : r->status == AN_TURN_ERROR ? "error"
                      : has_findings(t, i)         ? "failed"
                                                   : "ok";
    an_buf_printf(b,
                  "<li class=\"turn %s\"><div class=\"thead\"><b>turn %zu</b>"
                  "<span class=\"chip\">",
                  cls, i + 1);
    html_text(b, r->kind ? r->kind : "user", false);
    an_buf_puts(b, "</span>");
    if (r->status == AN_TURN_NOT_RUN) {
        an_buf_puts(b, "<span class=\"muted\">not run</span>");
    } else {
        an_buf_puts(b, "<span class=\"muted\">");
        html_ms(b, r->end_ms - r->start_ms);
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
        html_text(b, r->input, true);
        an_buf_puts(b, "</div>");
    }
    if (d && i < d->nreasoning && d->reasoning[i]) {
        an_buf_puts(b, "<div class=\"who\">simulator&#39;s reasoning</div>"
                       "<div class=\"msg sim\">");
        html_text(b, d->reasoning[i], true);
        an_buf_puts(b, "</div>");
    }
    if (r->status != AN_TURN_NOT_RUN) {
        if (r->retries && r->retry_log) {
            an_buf_puts(b, "<div class=\"who\">retries</div>");
            html_notes(b, "retry", r->retry_log, r->retries);
        }
        for (size_t k = 0; k < r->ncalls && r->first_call + k < tr->ncalls; k++)
            call_row(b, &tr->calls[r->first_call + k], r);
        if (r->text && r->text[0]) {
            an_buf_puts(b, "<div class=\"who\">assistant</div><div class=\"msg agent\">");
            html_text(b, r->text, true);
            an_buf_puts(b, "</div>");
        }
        if (r->nwarnings) {
            an_buf_puts(b, "<div class=\"who\">warnings</div>");
            html_notes(b, "warn", r->warnings, r->nwarnings);
        }
        if (r->status == AN_TURN_ERROR) {
            an_buf_printf(b, "<div class=\"box err\"><span class=\"title\">%s</span> ",
                          an_code_name((enum an_code)r->error_code));
            html_text(b, r->error ? r->error : "turn failed", true);
            an_buf_puts(b, "</div>");
        }
    }
    for (size_t k = 0; d && k < d->ncheckpoints; k++)
        if (d->checkpoints[k].reached_at_turn >= 0 &&
            (size_t)d->checkpoints[k].reached_at_turn == i)
            reached(b, &d->checkpoints[k]);
    for (size_t k = 0; k < t->findings.n; k++)
        if (t->findings.v[k].turn >= 0 && (size_t)t->findings.v[k].turn == i)
            html_finding(b, &t->findings.v[k]);
    an_buf_puts(b, "</li>\n");
}

/* --- a dynamic test ----------------------------------------------------- */

/* Simulator, seed and outcome, above the turns. */
void html_dyn_box(struct an_buf *b, const struct an_test_result *t)
{
    const struct an_dynamic_result *d = t->dyn;
    struct an_buf raw = AN_BUF_INIT;
    an_buf_puts(b, "<div class=\"box dyn\">dynamic test \xC2\xB7 simulator <b class=\"mono\">");
    html_text(b, d->simulator ? d->simulator : "(unknown)", false);
    an_buf_puts(b, "</b>");
    if (d->seed >= 0)
        an_buf_printf(b, " \xC2\xB7 seed %lld", (long long)d->seed);
    an_buf_puts(b, "<div>");
    an_rpt_dyn_outcome(&raw, t, 0);
    html_text(b, an_buf_cstr(&raw), false);
    an_buf_puts(b, "</div></div>\n");
    an_buf_release(&raw);
}

/* Every checkpoint: reached at which turn, with what evidence; a required
 * one never reached is the row to read. */
void html_checkpoint_table(struct an_buf *b, const struct an_dynamic_result *d)
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
                      hit           ? "reached"
                      : c->required ? "missing"
                                    : "optional");
        html_text(b, c->id ? c->id : "?", false);
        an_buf_puts(b, "</span>");
        if (c->description && c->description[0]) {
            an_buf_puts(b, "<div class=\"muted\">");
            html_text(b, c->description, false);
            an_buf_puts(b, "</div>");
        }
        an_buf_printf(b, "</td><td>%s</td><td class=\"at\">", c->required ? "yes" : "no");
        if (hit)
            an_buf_printf(b, "%d", c->reached_at_turn + 1);
        else
            an_buf_puts(b, c->required ? "missing" : "not reached");
        an_buf_puts(b, "</td><td class=\"ev\">");
        html_text(b, c->evidence, true);
        if (!hit && c->missed && c->missed[0]) { /* the check that failed, and why */
            an_buf_puts(b, "<div class=\"missed\">failed: ");
            html_text(b, c->missed, true);
            an_buf_puts(b, "</div>");
        }
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
}
