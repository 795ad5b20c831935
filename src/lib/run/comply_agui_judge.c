/*
 * AG-UI compliance: an outcome judged against a step's expectation. Pure:
 * no I/O, no clock; the unmet parts go into the test's result with the
 * expected pattern, the closest actual value and a field-level diff, as the
 * ACP steps report theirs.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/jsonmatch.h"
#include "core/buf.h"
#include "core/json.h"
#include "run/comply_agui.h"

#define DESCRIBE_ERROR_MAX 400

char *comply_agui_describe(const json_t *o)
{
    struct an_buf b = AN_BUF_INIT;
    const json_t *http = json_object_get(o, "http");
    json_int_t hs = json_integer_value(json_object_get(http, "status"));
    const char *ct = an_json_str(http, "contentType");
    const char *status = an_json_str(o, "status");
    const char *error = an_json_str(o, "error");
    size_t nev = json_array_size(json_object_get(o, "events"));
    size_t nmsg = json_array_size(json_object_get(o, "messages"));
    if (!http && json_object_get(o, "messages")) /* an MCP step over stdio */
        an_buf_printf(&b, "over stdio, %zu message%s, %s", nmsg, nmsg == 1 ? "" : "s",
                      status ? status : "?");
    else if (hs)
        an_buf_printf(&b, "HTTP %lld %s, ", (long long)hs, ct && *ct ? ct : "(no content type)");
    else
        an_buf_puts(&b, "no HTTP answer, ");
    if (http || !json_object_get(o, "messages"))
        an_buf_printf(&b, "%zu event%s, %s", nev, nev == 1 ? "" : "s", status ? status : "?");
    if (error) {
        /* one line, bounded: the report escapes it, but a server's page of
         * HTML would drown the line it belongs to */
        char *e = an_xstrndup(error, strlen(error) > DESCRIBE_ERROR_MAX ? DESCRIBE_ERROR_MAX
                                                                        : strlen(error));
        an_buf_printf(&b, ": %s%s", e, strlen(error) > DESCRIBE_ERROR_MAX ? "..." : "");
        free(e);
    }
    return an_buf_detach(&b, NULL);
}

/* A list of unmet parts before they go into the result (an anyOf keeps
 * each alternative's apart until it knows none matched). */
struct miss {
    char *kind, *message, *expected, *closest;
    char **diff;
    size_t ndiff;
};
struct misses {
    struct miss *v;
    size_t n, cap;
};

static struct miss *miss_add(struct misses *m, const char *kind, char *message)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? m->cap * 2 : 4;
        m->v = an_xrealloc(m->v, m->cap * sizeof *m->v);
    }
    struct miss *x = &m->v[m->n++];
    memset(x, 0, sizeof *x);
    x->kind = an_xstrdup(kind);
    x->message = message;
    return x;
}

static void misses_release(struct misses *m)
{
    for (size_t i = 0; i < m->n; i++) {
        struct miss *x = &m->v[i];
        free(x->kind);
        free(x->message);
        free(x->expected);
        free(x->closest);
        for (size_t d = 0; d < x->ndiff; d++)
            free(x->diff[d]);
        free(x->diff);
    }
    free(m->v);
    memset(m, 0, sizeof *m);
}

static char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
static char *fmt(const char *f, ...)
{
    struct an_buf b = AN_BUF_INIT;
    va_list ap;
    va_start(ap, f);
    an_buf_vprintf(&b, f, ap);
    va_end(ap);
    return an_buf_detach(&b, NULL);
}

/* What of the outcome to show next to a pattern: the members it names,
 * and always what the server answered (status, error, http). */
static json_t *projection(const json_t *pattern, const json_t *o)
{
    json_t *p = json_object();
    static const char *const always[] = {"status", "rule", "error", "http"};
    for (size_t i = 0; i < 4; i++)
        json_object_set(p, always[i], json_object_get(o, always[i]));
    const char *k;
    json_t *v;
    json_object_foreach((json_t *)pattern, k, v)
    {
        if (!strcmp(k, "events") || !strcmp(k, "noEvents") || !strcmp(k, "noMessages"))
            continue;
        json_t *a = json_object_get(o, k);
        if (a)
            json_object_set(p, k, a);
    }
    return p;
}

static const char *type_of(const json_t *ev)
{
    const char *t = an_json_str(ev, "type");
    return t ? t : "?";
}

/* The events in order: each pattern matches an event after the one the
 * previous pattern matched (the earliest such event, which is optimal for
 * a subsequence). */
static void judge_events(const json_t *pats, const json_t *events, struct misses *m, long *matched)
{
    size_t pos = 0, nev = json_array_size(events);
    for (size_t k = 0; k < json_array_size(pats); k++) {
        const json_t *pat = json_array_get(pats, k);
        size_t i = pos;
        while (i < nev && !an_jm_match(pat, json_array_get(events, i)))
            i++;
        if (i < nev) {
            if (matched)
                matched[k] = (long)i;
            pos = i + 1;
            continue;
        }
        /* the closest event after the last match (or anywhere, when none is
         * left): most leaves satisfied, the earliest on a tie */
        size_t best = SIZE_MAX, best_score = 0, from = pos < nev ? pos : 0;
        for (size_t j = from; j < nev; j++) {
            size_t sc = an_jm_score(pat, json_array_get(events, j), NULL);
            if (best == SIZE_MAX || sc > best_score) {
                best = j;
                best_score = sc;
            }
        }
        struct miss *x = miss_add(
            m, "event",
            pos ? fmt("events[%zu] not seen after event #%zu (%s), where the events before it "
                      "matched",
                      k, pos, type_of(json_array_get(events, pos - 1)))
                : fmt("events[%zu] not seen in the %zu event%s of the answer", k, nev,
                      nev == 1 ? "" : "s"));
        x->expected = an_json_compact(pat);
        if (best != SIZE_MAX) {
            const json_t *ev = json_array_get(events, best);
            x->closest = an_json_compact(ev);
            an_jm_diff(pat, ev, &x->diff, &x->ndiff);
            char **d = an_xrealloc(x->diff, (x->ndiff + 1) * sizeof *d);
            memmove(d + 1, d, x->ndiff * sizeof *d);
            d[0] = best < pos && an_jm_match(pat, ev)
                       ? fmt("event #%zu (%s) matches, but comes before event #%zu: out of order",
                             best + 1, type_of(ev), pos)
                       : fmt("closest is event #%zu (%s)", best + 1, type_of(ev));
            x->diff = d;
            x->ndiff++;
        } else {
            x->diff = an_xmalloc(sizeof *x->diff);
            x->diff[0] = an_xstrdup("the answer holds no event");
            x->ndiff = 1;
        }
    }
}

/* What an event or message is, in a message: its type, or its method (a
 * response: its id). */
static char *what_of(const json_t *item, bool message)
{
    if (!message)
        return an_xstrdup(type_of(item));
    const char *method = an_json_str(item, "method");
    if (method)
        return an_xstrdup(method);
    char *id = an_json_compact(json_object_get(item, "id") ? json_object_get(item, "id")
                                                            : json_null());
    char *w = fmt("the answer to id %s", id);
    free(id);
    return w;
}

/* noEvents / noMessages (key): no item may match any of pats. */
static void judge_none(const json_t *pats, const json_t *items, const char *key,
                       struct misses *m)
{
    bool message = !strcmp(key, "noMessages");
    const char *noun = message ? "message" : "event";
    for (size_t k = 0; k < json_array_size(pats); k++) {
        const json_t *pat = json_array_get(pats, k);
        for (size_t i = 0; i < json_array_size(items); i++) {
            const json_t *it = json_array_get(items, i);
            if (!an_jm_match(pat, it))
                continue;
            char *w = what_of(it, message);
            struct miss *x =
                miss_add(m, noun, fmt("%s #%zu (%s) matches %s[%zu]", noun, i + 1, w, key, k));
            free(w);
            x->expected = an_json_compact(pat);
            x->closest = an_json_compact(it);
            x->diff = an_xmalloc(sizeof *x->diff);
            x->diff[0] = fmt("%s[%zu]: a forbidden %s was sent", key, k, noun);
            x->ndiff = 1;
        }
    }
}

/* One outcome pattern (no anyOf). */
static void judge_one(const json_t *pat, const json_t *o, struct misses *m, long *matched)
{
    json_t *rest = json_deep_copy(pat);
    json_object_del(rest, "events");
    json_object_del(rest, "noEvents");
    json_object_del(rest, "noMessages");
    if (!an_jm_match(rest, o)) {
        char *d = comply_agui_describe(o);
        struct miss *x = miss_add(m, "outcome", fmt("the answer was: %s", d));
        free(d);
        x->expected = an_json_compact(rest);
        json_t *p = projection(rest, o);
        x->closest = an_json_compact(p);
        json_decref(p);
        an_jm_diff(rest, o, &x->diff, &x->ndiff);
    }
    json_decref(rest);
    const json_t *events = json_object_get(o, "events");
    json_t *ev = json_object_get(pat, "events");
    /* no event at all (an HTTP error, a refused connection) is said once,
     * by the outcome's own difference, not again per expected event */
    if (ev && (json_array_size(events) || !m->n))
        judge_events(ev, events, m, matched);
    json_t *no = json_object_get(pat, "noEvents");
    if (no)
        judge_none(no, events, "noEvents", m);
    no = json_object_get(pat, "noMessages");
    if (no)
        judge_none(no, json_object_get(o, "messages"), "noMessages", m);
}

static void flush(struct misses *m, int step, struct an_comply_test *out)
{
    for (size_t i = 0; i < m->n; i++) {
        struct miss *x = &m->v[i];
        struct an_comply_unmet *u = an_comply_add_unmet(out, x->kind, step, x->message);
        u->expected = x->expected;
        u->closest = x->closest;
        u->diff = x->diff;
        u->ndiff = x->ndiff;
        x->expected = x->closest = NULL;
        x->diff = NULL;
        x->ndiff = 0;
    }
}

bool comply_agui_judge(const json_t *expect, const json_t *any_of, const json_t *outcome, int step,
                       struct an_comply_test *out, long **matched)
{
    size_t nev = json_array_size(json_object_get(expect, "events"));
    long *mt = an_xcalloc(nev + 1, sizeof *mt);
    for (size_t k = 0; k < nev; k++)
        mt[k] = -1;
    struct misses m = {0};
    judge_one(expect, outcome, &m, mt);
    bool ok = m.n == 0;
    flush(&m, step, out);
    misses_release(&m);
    size_t nalt = json_array_size(any_of);
    if (nalt) {
        /* one alternative must match; when none does, each one's first
         * difference is shown, and the closest alternative's in full */
        struct misses *alt = an_xcalloc(nalt, sizeof *alt);
        size_t best = 0;
        bool any = false;
        for (size_t i = 0; i < nalt && !any; i++) {
            judge_one(json_array_get(any_of, i), outcome, &alt[i], NULL);
            any = alt[i].n == 0;
            if (alt[i].n < alt[best].n)
                best = i;
        }
        if (!any) {
            char *d = comply_agui_describe(outcome);
            struct an_comply_unmet *u = an_comply_add_unmet(out, "outcome", step, "");
            free(u->message);
            u->message =
                fmt("the answer matches none of the %zu accepted outcomes (anyOf): %s", nalt, d);
            free(d);
            u->expected = an_json_compact(any_of);
            json_t *union_keys = json_object();
            for (size_t i = 0; i < nalt; i++)
                json_object_update(union_keys, json_array_get(any_of, i));
            json_t *p = projection(union_keys, outcome);
            u->closest = an_json_compact(p);
            json_decref(p);
            json_decref(union_keys);
            for (size_t i = 0; i < nalt; i++) {
                for (size_t k = 0; k < alt[i].n; k++) {
                    const struct miss *x = &alt[i].v[k];
                    if (i != best && k > 0)
                        break;
                    for (size_t d2 = 0; d2 < (x->ndiff ? x->ndiff : 1); d2++) {
                        if (i != best && d2 > 0)
                            break;
                        u->diff = an_xrealloc(u->diff, (u->ndiff + 1) * sizeof *u->diff);
                        u->diff[u->ndiff++] =
                            fmt("anyOf[%zu]: %s", i, x->ndiff ? x->diff[d2] : x->message);
                    }
                }
            }
            ok = false;
        }
        for (size_t i = 0; i < nalt; i++)
            misses_release(&alt[i]);
        free(alt);
    }
    if (matched)
        *matched = mt;
    else
        free(mt);
    return ok;
}
