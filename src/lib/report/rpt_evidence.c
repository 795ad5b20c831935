/* A turn's evidence and a test's judgements as text (report/rpt_evidence.h). */
#include "report/rpt_evidence.h"

#include <string.h>

#include "report/rpt_format.h"
#include "report/rpt_text.h"

static void offset(struct an_buf *b, int64_t at, int64_t base)
{
    char d[32];
    an_buf_printf(b, "+%s ", an_rpt_ms(d, sizeof d, at - base));
}

void an_rpt_turn_evidence(struct an_buf *b, const struct an_transcript *t, size_t turn,
                          const char *indent, size_t cut, bool timing)
{
    const struct an_turn_rec *r = &t->turns[turn];
    an_buf_puts(b, indent);
    if (!r->ncalls)
        an_buf_puts(b, "calls: none\n");
    else
        an_buf_puts(b, "calls:\n");
    for (size_t i = 0; i < r->ncalls && r->first_call + i < t->ncalls; i++) {
        const struct an_tool_call *c = &t->calls[r->first_call + i];
        an_buf_puts(b, indent);
        an_buf_puts(b, "  ");
        if (timing && c->start_ms)
            offset(b, c->start_ms, r->start_ms);
        an_rpt_str(b, c->name ? c->name : "?", cut, NULL, 0);
        an_buf_putc(b, '(');
        const json_t *args = an_tool_call_args(c);
        if (args)
            an_rpt_json(b, args, cut);
        else
            an_rpt_str(b, c->args_text, cut, NULL, 0);
        an_buf_puts(b, ") \xE2\x86\x92 "); /* → */
        if (timing && c->result_ms)
            offset(b, c->result_ms, r->start_ms);
        if (c->result)
            an_rpt_json(b, c->result, cut);
        else
            an_buf_puts(b, "(no result)");
        if (c->args_error) {
            an_buf_puts(b, " [args not JSON: ");
            an_rpt_str(b, c->args_error, cut, NULL, 0);
            an_buf_putc(b, ']');
        }
        an_buf_putc(b, '\n');
    }
    an_buf_puts(b, indent);
    if (r->text && r->text[0]) {
        an_buf_puts(b, "text: ");
        an_rpt_str(b, r->text, cut, NULL, AN_RPT_QUOTE);
        an_buf_putc(b, '\n');
    } else {
        an_buf_puts(b, "text: none\n");
    }
}

void an_rpt_turn_block(struct an_buf *b, const struct an_transcript *t, size_t turn,
                       const char *indent, size_t cut)
{
    const struct an_turn_rec *r = &t->turns[turn];
    char d[32];
    struct an_buf sub = AN_BUF_INIT;
    an_buf_printf(b, "%sturn %zu %s", indent, turn + 1, r->kind ? r->kind : "user");
    if (r->input) {
        an_buf_puts(b, ": ");
        an_rpt_str(b, r->input, cut, NULL, AN_RPT_QUOTE);
    }
    if (r->status == AN_TURN_NOT_RUN) {
        an_buf_puts(b, " not run\n");
        return;
    }
    an_buf_printf(b, " (%s)\n", an_rpt_ms(d, sizeof d, r->end_ms - r->start_ms));
    an_buf_printf(&sub, "%s  ", indent);
    an_rpt_turn_evidence(b, t, turn, an_buf_cstr(&sub), cut, true);
    for (size_t i = 0; i < r->nwarnings; i++) {
        an_buf_printf(b, "%s  warning: ", indent);
        an_rpt_str(b, r->warnings[i], cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
    for (size_t i = 0; i < r->retries; i++) {
        an_buf_printf(b, "%s  retry: ", indent);
        an_rpt_str(b, r->retry_log[i], cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
    if (r->status == AN_TURN_ERROR) {
        an_buf_printf(b, "%s  error: ", indent);
        an_buf_puts(&sub, "  ");
        an_rpt_str(b, r->error ? r->error : "turn failed", cut * 4, an_buf_cstr(&sub), 0);
        an_buf_putc(b, '\n');
    }
    an_buf_release(&sub);
}

void an_rpt_not_run(struct an_buf *b, const struct an_transcript *t, const char *indent)
{
    size_t i = 0;
    while (i < t->nturns) {
        if (t->turns[i].status != AN_TURN_NOT_RUN) {
            i++;
            continue;
        }
        size_t j = i;
        while (j + 1 < t->nturns && t->turns[j + 1].status == AN_TURN_NOT_RUN)
            j++;
        if (j == i)
            an_buf_printf(b, "%sturn %zu not run\n", indent, i + 1);
        else
            an_buf_printf(b, "%sturns %zu\xE2\x80\x93%zu not run\n", indent, i + 1, j + 1);
        i = j + 1;
    }
}

void an_rpt_judgements(struct an_buf *b, const struct an_test_result *t, const char *indent,
                       size_t cut, bool full)
{
    char d[32];
    for (size_t i = 0; i < t->judgements.n; i++) {
        const struct an_judgement *g = &t->judgements.v[i];
        an_buf_printf(b, "%sjudge '", indent);
        an_rpt_str(b, g->agent ? g->agent : "", cut, NULL, 0);
        an_buf_printf(b, "' %s (%s)",
                      g->verdict > 0    ? "passed"
                      : g->verdict == 0 ? "failed"
                                        : "gave no verdict",
                      an_rpt_ms(d, sizeof d, g->duration_ms));
        if (g->turn >= 0)
            an_buf_printf(b, " on turn %d", g->turn + 1);
        if (g->reason) {
            an_buf_puts(b, ": ");
            an_rpt_str(b, g->reason, cut, NULL, 0);
        }
        an_buf_putc(b, '\n');
        if (!full)
            continue;
        an_buf_printf(b, "%s  shown: ", indent);
        an_rpt_str(b, g->shown ? g->shown : "", cut ? cut * 4 : 0, NULL, 0);
        an_buf_printf(b, "\n%s  answer: ", indent);
        an_rpt_str(b, g->answer ? g->answer : "(nothing)", cut, NULL, 0);
        an_buf_putc(b, '\n');
    }
}
