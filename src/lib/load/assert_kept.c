/*
 * A test's or a turn's assert block as the model keeps it (struct
 * an_assert_kept, ananke/model.h): the lists of the whole block, and its
 * limits only when one is set (docs/performance.md, issue 26).
 */
#include <stddef.h>
#include <string.h>

#include "core/arena.h"
#include "load/assert_load.h"

/* The limits are contiguous in struct an_assert, max_duration_ms first. */
_Static_assert(offsetof(struct an_assert, consistent) -
                       offsetof(struct an_assert, max_duration_ms) ==
                   (AN_ASSERT_NLIMITS - 1) * sizeof(struct an_limit),
               "struct an_assert's limits: AN_ASSERT_NLIMITS, contiguous");

#define LISTS(X)                                                                                   \
    X(forbid, nforbid)                                                                             \
    X(allow, nallow)                                                                               \
    X(sequences, nsequences)                                                                       \
    X(require, nrequire)                                                                           \
    X(forbid_calls, nforbid_calls)                                                                 \
    X(must_match, nmust_match)                                                                     \
    X(must_not_match, nmust_not_match)                                                             \
    X(checks, nchecks)

struct an_assert_kept *an_assert_keep(struct an_ld *ld, const struct an_assert *blk)
{
    static const struct an_assert zero;
    if (!memcmp(blk, &zero, sizeof zero))
        return NULL;
    struct an_assert_kept *k = an_arena_alloc(ld->a, sizeof *k);
    k->loc = blk->loc;
#define KEEP(v, n)                                                                                 \
    k->v = blk->v;                                                                                 \
    k->n = blk->n;
    LISTS(KEEP)
#undef KEEP
    const struct an_limit *lim = &blk->max_duration_ms;
    if (memcmp(lim, &zero.max_duration_ms, AN_ASSERT_NLIMITS * sizeof *lim)) {
        k->limits = an_arena_alloc(ld->a, AN_ASSERT_NLIMITS * sizeof *lim);
        memcpy(k->limits, lim, AN_ASSERT_NLIMITS * sizeof *lim);
    }
    return k;
}

void an_assert_expand(const struct an_assert_kept *k, struct an_assert *out)
{
    memset(out, 0, sizeof *out);
    if (!k)
        return;
    out->loc = k->loc;
#define EXPAND(v, n)                                                                               \
    out->v = k->v;                                                                                 \
    out->n = k->n;
    LISTS(EXPAND)
#undef EXPAND
    if (k->limits)
        memcpy(&out->max_duration_ms, k->limits, AN_ASSERT_NLIMITS * sizeof *k->limits);
}
