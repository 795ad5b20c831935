/*
 * A target type that exists only in the tests (docs/internals.md "Adding a
 * protocol"): `type: echo` answers each user turn in-process with the
 * user's text, reversed unless `mode: echo` says to give it back as is.
 *
 *   target:
 *     type: echo
 *     mode: reverse   # or echo; the one key of its own
 *
 * This file and its row are the whole adapter: it is registered from a
 * constructor, and ananke-ext (ananke plus tests/extension/) runs it;
 * plain ananke does not know the type. tests/e2e/target-echo* use it.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/clock.h"
#include "ananke/model.h"
#include "ananke/session.h"
#include "ananke/target_type.h"
#include "ananke/transcript.h"

/* The type's own config, behind an_target.data (from the suite's arena). */
struct echo_target {
    bool reverse; /* `mode: reverse` (the default) */
};

static int echo_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {"type", "mode", "timeout_ms", "assert", NULL};
    struct echo_target *e = an_target_alloc(ld, sizeof *e);
    const char *mode = "reverse";
    struct an_loc at = t->loc;
    int rc;
    t->data = e;
    if ((rc = an_target_keys(ld, n, keys, "an echo target")) ||
        (rc = an_target_key_string(ld, n, "mode", &mode, &at)))
        return rc;
    if (strcmp(mode, "reverse") && strcmp(mode, "echo"))
        return an_target_fail(ld, &at, "unknown echo mode '%s' (one of: reverse, echo)", mode);
    e->reverse = !strcmp(mode, "reverse");
    return 0;
}

/* A session that answers at once: begin() fills the turn, there is no
 * transfer and no descriptor, and the first step() ends the turn. */
struct echo_session {
    struct an_session base;
    bool reverse;
};

static int echo_begin(struct an_session *base, struct an_transcript *t, const char *user,
                      bool retry, CURL **easy)
{
    struct echo_session *s = (struct echo_session *)base;
    struct an_turn_rec *r = &t->turns[t->nturns - 1];
    (void)retry;
    *easy = NULL;
    r->start_ms = an_clock_unix_ms();
    if (!t->start_ms)
        t->start_ms = r->start_ms;
    if (!user) {
        an_turn_fail(r, AN_EUSAGE, "an echo target answers user turns only");
        return AN_EUSAGE;
    }
    size_t n = strlen(user);
    free(r->text);
    r->text = an_xstrdup(user);
    for (size_t i = 0; s->reverse && i < n / 2; i++) {
        char c = r->text[i];
        r->text[i] = r->text[n - 1 - i];
        r->text[n - 1 - i] = c;
    }
    an_turn_mark_event(r, r->start_ms);
    an_turn_mark_text(r, r->start_ms);
    r->end_ms = t->end_ms = an_clock_unix_ms();
    return AN_OK;
}

static void echo_end(struct an_session *s, struct an_transcript *t, CURLcode cc)
{
    (void)s, (void)t, (void)cc;
}

static size_t echo_fds(struct an_session *s, struct curl_waitfd *out, size_t max)
{
    (void)s, (void)out, (void)max;
    return 0;
}

static bool echo_step(struct an_session *s, struct an_transcript *t, const struct curl_waitfd *fds,
                      size_t n)
{
    (void)s, (void)t, (void)fds, (void)n;
    return true;
}

static void echo_free(struct an_session *s)
{
    free(s);
}

static const struct an_session_ops echo_ops = {
    .name = "echo",
    .begin = echo_begin,
    .end = echo_end,
    .fds = echo_fds,
    .step = echo_step,
    .free = echo_free,
};

static int echo_open(const struct an_target *t, const struct an_target_open_ctx *ctx, void **conf,
                     struct an_session **out, struct an_err *err)
{
    const struct echo_target *e = t->data;
    struct echo_session *s = calloc(1, sizeof *s);
    (void)ctx, (void)conf, (void)err; /* nothing to interpolate, nothing can fail */
    if (!s)
        an_oom();
    s->base.ops = &echo_ops;
    s->reverse = e->reverse;
    *out = &s->base;
    return AN_OK;
}

static const struct an_target_type echo_row = {
    .name = "echo",
    .load = echo_load,
    .turns = AN_TURN_BIT(AN_TURN_USER),
    .open = echo_open,
    .unnamed = "(in process)",
};

__attribute__((constructor)) static void echo_register(void)
{
    if (!an_target_type_register(&echo_row))
        abort();
}
