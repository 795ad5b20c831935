/* A test's result redacted in place (run/redact_result.h). */
#include "run/redact_result.h"

#include <stdlib.h>
#include <string.h>

#include "core/json.h"

struct red {
    const struct an_redactor *r;
    size_t *counts;
};

static void str(struct red *c, char **s)
{
    if (!*s)
        return;
    char *out = an_redact_text(c->r, *s, strlen(*s), c->counts, NULL);
    if (!out)
        return;
    free(*s);
    *s = out;
}

/* Errors and warnings: they may quote one event of a stream, and with it
 * a piece of a secret streamed across several (an_redact_quoted). */
static void msg(struct red *c, char **s)
{
    if (!*s)
        return;
    char *out = an_redact_quoted(c->r, *s, strlen(*s), c->counts, NULL);
    if (!out)
        return;
    free(*s);
    *s = out;
}

static void json(struct red *c, json_t **v)
{
    if (!*v)
        return;
    json_t *out = an_redact_json(c->r, *v, c->counts);
    json_decref(*v);
    *v = out;
}

/* A list whose strings may continue each other (the conversation's
 * messages: a secret begun in one message and ended in the next): its
 * strings searched joined (an_redact_tree). */
static void json_joined(struct red *c, json_t **v)
{
    json_t *out = *v ? an_redact_tree(c->r, *v, c->counts) : NULL;
    if (!out)
        return;
    json_decref(*v);
    *v = out;
}

static void call(struct red *c, struct an_tool_call *tc)
{
    str(c, &tc->id);
    str(c, &tc->name);
    str(c, &tc->status);
    json(c, &tc->result);
    if (!tc->args_text) {
        json(c, &tc->args);
        return;
    }
    char *text = an_redact_text(c->r, tc->args_text, strlen(tc->args_text), c->counts, NULL);
    if (text) {
        /* the tree is built again from the redacted text when read */
        free(tc->args_text);
        tc->args_text = text;
        json_decref(tc->args);
        tc->args = NULL;
        free(tc->args_error);
        tc->args_error = NULL;
        char why[256];
        (void)an_tool_call_parse_args(tc, why, sizeof why);
    } else if (tc->args || strstr(tc->args_text, "\\u")) {
        /* the text may hide a secret behind \u escapes ("s\u006b-..."),
         * which the parsed arguments (and every report) spell out */
        const json_t *args = an_tool_call_args(tc);
        json_t *red = args ? an_redact_tree(c->r, args, c->counts) : NULL;
        if (red) {
            free(tc->args_text);
            tc->args_text = an_json_compact(red);
            json_decref(tc->args);
            tc->args = red;
        }
    }
    msg(c, &tc->args_error);
}

static void turn(struct red *c, struct an_turn_rec *r, size_t *frame_counts)
{
    str(c, &r->input);
    json(c, &r->input_parts);
    str(c, &r->run_id);
    str(c, &r->text);
    json_joined(c, &r->state);
    json_joined(c, &r->messages);
    msg(c, &r->error);
    for (size_t i = 0; i < r->nwarnings; i++)
        msg(c, &r->warnings[i]);
    for (size_t i = 0; r->retry_log && i < r->retries; i++)
        msg(c, &r->retry_log[i]);
    json(c, &r->response);
    json(c, &r->actions);
    json(c, &r->retrievals);
    json(c, &r->failure);
    json(c, &r->task);
    json(c, &r->usage);
    json(c, &r->server_calls); /* what the tool servers received and answered */
    if (!r->nframes)
        return;
    /* frames together: a secret streamed in pieces is in none alone */
    const char **data = an_xcalloc(r->nframes, sizeof *data);
    for (size_t f = 0; f < r->nframes; f++)
        data[f] = r->frames[f].data;
    char **red = an_redact_frames(c->r, data, r->nframes, frame_counts);
    for (size_t f = 0; f < r->nframes; f++) {
        free(r->frames[f].data);
        r->frames[f].data = red[f];
    }
    free(red);
    free(data);
}

static void tally(struct an_test_result *t, const struct an_redactor *r, const size_t *counts,
                  bool frames)
{
    for (size_t l = 0; l < an_redactor_nlabels(r); l++) {
        if (!counts[l])
            continue;
        const char *what = an_redactor_label(r, l);
        struct an_redacted *d = NULL;
        for (size_t i = 0; i < t->nredacted && !d; i++)
            if (t->redacted[i].frames == frames && !strcmp(t->redacted[i].what, what))
                d = &t->redacted[i];
        if (!d) {
            t->redacted = an_xrealloc(t->redacted, (t->nredacted + 1) * sizeof *t->redacted);
            d = &t->redacted[t->nredacted++];
            *d = (struct an_redacted){an_xstrdup(what), frames, 0};
        }
        d->count += counts[l];
    }
}

void an_test_result_redact(struct an_test_result *t, const struct an_redactor *r)
{
    if (an_redactor_empty(r))
        return;
    size_t nl = an_redactor_nlabels(r);
    size_t *counts = an_xcalloc(nl + 1, sizeof *counts);
    size_t *frame_counts = an_xcalloc(nl + 1, sizeof *frame_counts);
    struct red c = {r, counts};
    str(&c, &t->name);
    str(&c, &t->file);
    str(&c, &t->id);
    msg(&c, &t->error);
    str(&c, &t->expect_reason);
    str(&c, &t->skip_reason);
    for (size_t i = 0; i < t->ntags; i++)
        str(&c, &t->tags[i]);
    for (size_t i = 0; i < t->nvar_names; i++)
        str(&c, &t->var_names[i]);
    for (size_t i = 0; i < t->findings.n; i++) {
        struct an_finding *f = &t->findings.v[i];
        str(&c, &f->assertion);
        str(&c, &f->expected);
        msg(&c, &f->actual);
        msg(&c, &f->detail);
        str(&c, &f->file);
    }
    for (size_t i = 0; i < t->judgements.n; i++) {
        struct an_judgement *j = &t->judgements.v[i];
        str(&c, &j->agent);
        str(&c, &j->file);
        str(&c, &j->shown);
        str(&c, &j->answer);
        str(&c, &j->reason);
    }
    if (t->dyn) {
        for (size_t i = 0; i < t->dyn->ncheckpoints; i++) {
            struct an_checkpoint_result *k = &t->dyn->checkpoints[i];
            str(&c, &k->id);
            str(&c, &k->description);
            str(&c, &k->evidence);
            str(&c, &k->missed);
        }
        str(&c, &t->dyn->simulator);
        for (size_t i = 0; i < t->dyn->nreasoning; i++)
            str(&c, &t->dyn->reasoning[i]);
    }
    for (unsigned i = 0; t->attempts && i < t->runs; i++)
        msg(&c, &t->attempts[i].summary);
    struct an_transcript *tr = &t->transcript;
    for (size_t i = 0; i < tr->ncalls; i++)
        call(&c, &tr->calls[i]);
    for (size_t i = 0; i < tr->nturns; i++)
        turn(&c, &tr->turns[i], frame_counts);
    tally(t, r, counts, false);
    tally(t, r, frame_counts, true);
    free(counts);
    free(frame_counts);
}

void an_run_result_redact(struct an_run_result *res, const struct an_redactor *r)
{
    if (an_redactor_empty(r))
        return;
    for (size_t i = 0; i < res->ntests; i++)
        an_test_result_redact(&res->tests[i], r);
    struct red c = {r, NULL};
    str(&c, &res->config_path);
    str(&c, &res->filter);
}
