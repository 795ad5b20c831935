/* timing.max_duration_ms, max_idle_ms, max_gap_ms, max_ttft_ms and max_first_event_ms. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"
#include "check/check_int.h"

/* One point of the timeline: a call's completion, or the scope's edges. */
struct point {
    int64_t t;
    size_t call; /* index into scope->calls, or SIZE_MAX for start / end */
    const char *name;
};

static int by_time(const void *a, const void *b)
{
    const struct point *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    /* Same millisecond: keep arrival order so the report is stable. */
    return x->call < y->call ? -1 : x->call > y->call;
}

static bool judged(const struct an_limit *l)
{
    return l->state == AN_LIMIT_SET;
}

/* Completion times of the calls, sorted, optionally framed by the scope's
 * start and end (max_idle_ms). Caller frees; *n gets the count. */
static struct point *timeline(const struct an_scope *s, bool framed, size_t *n)
{
    size_t k = 0, cap = s->ncalls + 2;
    struct point *p = an_xmalloc(cap * sizeof *p);
    if (framed)
        p[k++] = (struct point){.t = s->start_ms, .call = SIZE_MAX, .name = "start"};
    size_t from = k;
    for (size_t i = 0; i < s->ncalls; i++)
        p[k++] = (struct point){
            .t = s->calls[i].ts_ms, .call = i, .name = s->calls[i].name ? s->calls[i].name : ""};
    qsort(p + from, k - from, sizeof *p, by_time);
    if (framed)
        p[k++] = (struct point){.t = s->end_ms, .call = SIZE_MAX, .name = "end"};
    *n = k;
    return p;
}

static void put_point(struct an_buf *b, const struct point *p, bool numbered)
{
    an_buf_printf(b, "\"%s\"", p->name);
    if (numbered && p->call != SIZE_MAX)
        an_buf_printf(b, " #%zu", p->call + 1);
}

/* Report the longest gap of the timeline if it is over the limit. */
static size_t check_gaps(const struct an_scope *s, const struct an_limit *l, bool framed,
                         const char *kind, const char *what, struct an_findings *out)
{
    size_t n;
    struct point *p = timeline(s, framed, &n);
    size_t worst = 0, over = 0;
    int64_t worst_gap = INT64_MIN;
    for (size_t i = 1; i < n; i++) {
        int64_t g = p[i].t - p[i - 1].t;
        over += g > l->value;
        if (g > worst_gap) {
            worst_gap = g;
            worst = i;
        }
    }
    size_t added = 0;
    if (over) {
        struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT,
                      detail = AN_BUF_INIT;
        const struct point *a = &p[worst - 1], *b = &p[worst];
        /* Two calls of the same tool are told apart by their numbers. */
        bool numbered = a->call != SIZE_MAX && b->call != SIZE_MAX && strcmp(a->name, b->name) == 0;
        an_buf_printf(&label, "%s ≤ %lldms", what, (long long)l->value);
        an_buf_printf(&expected, "≤ %lldms", (long long)l->value);
        an_buf_printf(&actual, "%lldms between ", (long long)worst_gap);
        put_point(&actual, a, numbered);
        an_buf_puts(&actual, " and ");
        put_point(&actual, b, numbered);
        if (over > 1)
            an_buf_printf(&detail, "longest of %zu gaps over the limit", over);
        chk_add(out, kind, s, &l->loc, &label, &expected, &actual, &detail);
        an_buf_release(&label);
        an_buf_release(&expected);
        an_buf_release(&actual);
        an_buf_release(&detail);
        added = 1;
    }
    free(p);
    return added;
}

/* A turn's time from the request to its first `what` (at `first`, 0:
 * none came). A turn without one fails: a limit on a latency that never
 * came must not pass. */
static size_t check_first(const struct an_scope *s, const struct an_limit *l, int64_t first,
                          const char *kind, const char *label_what, const char *none,
                          struct an_findings *out)
{
    if (first && first - s->start_ms <= l->value)
        return 0;
    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT;
    an_buf_printf(&label, "%s ≤ %lldms", label_what, (long long)l->value);
    an_buf_printf(&expected, "≤ %lldms", (long long)l->value);
    if (first)
        an_buf_printf(&actual, "%lldms", (long long)(first - s->start_ms));
    else
        an_buf_puts(&actual, none);
    chk_add(out, kind, s, &l->loc, &label, &expected, &actual, NULL);
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    return 1;
}

size_t chk_timing(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    size_t added = 0;
    const struct an_limit *d = &blk->max_duration_ms;
    if (judged(d) && s->end_ms - s->start_ms > d->value) {
        struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT;
        an_buf_printf(&label, "Duration ≤ %lldms", (long long)d->value);
        an_buf_printf(&expected, "≤ %lldms", (long long)d->value);
        an_buf_printf(&actual, "%lldms", (long long)(s->end_ms - s->start_ms));
        chk_add(out, "timing.max_duration_ms", s, &d->loc, &label, &expected, &actual, NULL);
        an_buf_release(&label);
        an_buf_release(&expected);
        an_buf_release(&actual);
        added++;
    }
    if (judged(&blk->max_idle_ms))
        added += check_gaps(s, &blk->max_idle_ms, true, "timing.max_idle_ms", "Idle", out);
    /* Seed 001: gaps between tool calls only; fewer than two calls pass. */
    if (judged(&blk->max_gap_ms))
        added += check_gaps(s, &blk->max_gap_ms, false, "timing.max_gap_ms",
                            "Gap between tool calls", out);
    /* Judged per turn: a limit written at the test or the target is every
     * turn's (the whole test's first text is its first turn's). */
    if (s->turn >= 0 && judged(&blk->max_ttft_ms))
        added += check_first(s, &blk->max_ttft_ms, s->first_text_ms, "timing.max_ttft_ms",
                             "Time to first text", "no assistant text in the turn", out);
    if (s->turn >= 0 && judged(&blk->max_first_event_ms))
        added += check_first(s, &blk->max_first_event_ms, s->first_event_ms,
                             "timing.max_first_event_ms", "Time to first event",
                             "no protocol event in the turn", out);
    return added;
}
