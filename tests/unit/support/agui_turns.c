#include "agui_turns.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "proto/agui_dec_int.h"

int agui_fx_setup(void **state)
{
    struct agui_fx *f = calloc(1, sizeof *f);
    an_agui_conv_init(&f->conv, "thread-1", NULL, NULL);
    an_transcript_init(&f->t);
    *state = f;
    return 0;
}

int agui_fx_teardown(void **state)
{
    struct agui_fx *f = *state;
    json_decref(f->input);
    an_agui_conv_release(&f->conv);
    an_transcript_release(&f->t);
    free(f);
    return 0;
}

/* One turn: `events` is NULL-terminated; `cut` as an_agui_dec_finish takes. */
struct an_turn_rec *agui_turn_cut(struct agui_fx *f, const char *user, const char *const *events,
                                  const char *cut)
{
    struct an_agui_dec *d;
    an_transcript_add_turn(&f->t, user ? "user" : "agui:connect")->drop_messages = f->drop_messages;
    json_decref(f->input);
    f->input = an_agui_conv_input(&f->conv, "run-1", user);
    an_agui_dec_new(&d, &f->conv, &f->t, f->max_calls);
    an_agui_dec_protocol(d, f->protocol);
    an_agui_dec_max_state(d, f->max_state);
    f->last_rc = 0;
    f->fed = 0;
    for (size_t i = 0; events[i]; i++) {
        f->last_rc = an_agui_dec_event(d, events[i], strlen(events[i]), AT(i));
        if (f->last_rc)
            break;
        f->fed++;
    }
    an_agui_dec_finish(d, cut);
    an_agui_dec_free(d);
    return &f->t.turns[f->t.nturns - 1];
}

struct an_turn_rec *agui_turn(struct agui_fx *f, const char *user, const char *const *events)
{
    return agui_turn_cut(f, user, events, NULL);
}

void agui_assert_ok(const struct an_turn_rec *r)
{
    if (r->status != AN_TURN_OK)
        fail_msg("turn failed: %s", r->error);
}

void agui_assert_failed(const struct an_turn_rec *r, int code, const char *needle)
{
    assert_int_equal(r->status, AN_TURN_ERROR);
    assert_int_equal(r->error_code, code);
    if (!strstr(r->error, needle))
        fail_msg("error '%s' lacks '%s'", r->error, needle);
}

bool agui_has_warning(const struct an_turn_rec *r, const char *needle)
{
    for (size_t i = 0; i < r->nwarnings; i++)
        if (strstr(r->warnings[i], needle))
            return true;
    return false;
}
