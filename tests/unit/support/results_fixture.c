#include "results_fixture.h"

#include <stdlib.h>
#include <string.h>

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

struct an_test_result *fx_test(struct an_run_result *r, const char *name, const char *file,
                               enum an_status status, int64_t start_ms, int64_t end_ms)
{
    struct an_test_result *t = an_run_result_add(r);
    t->name = dup_or_null(name);
    t->file = dup_or_null(file);
    t->status = status;
    t->start_ms = start_ms;
    t->end_ms = end_ms;
    return t;
}

void fx_error(struct an_test_result *t, enum an_code code, int turn, const char *msg)
{
    t->error = dup_or_null(msg);
    t->error_code = code;
    t->error_turn = turn;
}

void fx_vars(struct an_test_result *t, const char *const *names, size_t n)
{
    t->var_names = calloc(n, sizeof *t->var_names);
    for (size_t i = 0; i < n; i++)
        t->var_names[i] = strdup(names[i]);
    t->nvar_names = n;
}

struct an_turn_rec *fx_turn(struct an_transcript *tr, const char *input, const char *text,
                            int64_t start_ms, int64_t end_ms)
{
    struct an_turn_rec *r = an_transcript_add_turn(tr, "user");
    r->input = dup_or_null(input);
    r->text = dup_or_null(text);
    r->start_ms = start_ms;
    r->end_ms = end_ms;
    return r;
}

struct an_tool_call *fx_call(struct an_transcript *tr, unsigned turn, const char *name,
                             json_t *args, json_t *result)
{
    struct an_tool_call *c = an_transcript_add_call(tr, turn);
    tr->turns[turn].ncalls++;
    c->name = dup_or_null(name);
    c->args = args;
    c->result = result;
    return c;
}
