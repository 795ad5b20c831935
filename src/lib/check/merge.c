/* Inheritance target -> test -> turn: which rules judge which scope. */
#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "ananke/err.h"

/* Up to three levels, outermost first; absent levels are NULL. */
struct levels {
    const struct an_assert *v[3];
    size_t n;
};

/* out->member becomes a new array of that member's elements at every
 * level, in level order (so target rules are reported before test rules).
 * The elements are struct copies whose pointers stay borrowed. */
#define CONCAT(out, lv, member, count)                                                             \
    do {                                                                                           \
        size_t n_ = 0;                                                                             \
        for (size_t i_ = 0; i_ < (lv)->n; i_++)                                                    \
            n_ += (lv)->v[i_] ? (lv)->v[i_]->count : 0;                                            \
        (out)->count = n_;                                                                         \
        (out)->member = n_ ? an_xmalloc(n_ * sizeof *(out)->member) : NULL;                        \
        n_ = 0;                                                                                    \
        for (size_t i_ = 0; i_ < (lv)->n; i_++) {                                                  \
            const struct an_assert *a_ = (lv)->v[i_];                                              \
            /* a count without its array cannot be, but say so to the analyzer */                  \
            if (!a_ || !a_->count || !a_->member || !(out)->member)                                \
                continue;                                                                          \
            memcpy((out)->member + n_, a_->member, a_->count * sizeof *(out)->member);             \
            n_ += a_->count;                                                                       \
        }                                                                                          \
    } while (0)

/* The nearest level that says anything about a limit (a value or `false`)
 * decides it; out->member is UNSET when no level does. */
#define NEAREST(out, lv, member)                                                                   \
    do {                                                                                           \
        for (size_t i_ = (lv)->n; i_-- > 0;) {                                                     \
            const struct an_assert *a_ = (lv)->v[i_];                                              \
            if (a_ && a_->member.state != AN_LIMIT_UNSET) {                                        \
                (out)->member = a_->member;                                                        \
                break;                                                                             \
            }                                                                                      \
        }                                                                                          \
    } while (0)

static void merge_common(struct an_assert *out, const struct levels *lv)
{
    CONCAT(out, lv, forbid, nforbid);
    CONCAT(out, lv, forbid_calls, nforbid_calls);
    CONCAT(out, lv, must_not_match, nmust_not_match);
    NEAREST(out, lv, max_duration_ms);
    NEAREST(out, lv, max_idle_ms);
    NEAREST(out, lv, max_gap_ms);
    NEAREST(out, lv, max_ttft_ms);
    NEAREST(out, lv, max_first_event_ms);
    for (size_t i = lv->n; i-- > 0;) {
        if (lv->v[i] && lv->v[i]->loc.file) {
            out->loc = lv->v[i]->loc;
            break;
        }
    }
}

/* Budgets are sums: a turn's own limits judge the turn, the test's or the
 * target's judge the whole test's sum (never each turn's share of it). */
static void merge_usage(struct an_assert *out, const struct levels *lv)
{
    NEAREST(out, lv, max_input_tokens);
    NEAREST(out, lv, max_output_tokens);
    NEAREST(out, lv, max_total_tokens);
    NEAREST(out, lv, max_cost);
}

void an_assert_for_turn(struct an_assert *out, const struct an_assert *target,
                        const struct an_assert *test, const struct an_assert *turn)
{
    memset(out, 0, sizeof *out);
    struct levels all = {{target, test, turn}, 3};
    merge_common(out, &all);
    /* The allowed set is the union of the three levels' lists. Every call
     * belongs to a turn and is judged there against that union; judging the
     * whole test again with the outer lists alone would refuse what a turn
     * allowed. */
    CONCAT(out, &all, allow, nallow);
    /* tools.consistent compares each turn's calls with what its tool
     * servers received: judged turn by turn, never again on the test */
    NEAREST(out, &all, consistent);
    /* Requirements and must_match of the outer levels are about the whole
     * test ("charge_card exactly once in the test"): judged once on the
     * aggregate by an_assert_for_test(), never turn by turn. */
    struct levels own = {{turn}, 1};
    merge_usage(out, &own);
    CONCAT(out, &own, require, nrequire);
    CONCAT(out, &own, sequences, nsequences);
    CONCAT(out, &own, must_match, nmust_match);
    CONCAT(out, &own, checks, nchecks);
}

void an_assert_for_test(struct an_assert *out, const struct an_assert *target,
                        const struct an_assert *test)
{
    memset(out, 0, sizeof *out);
    struct levels lv = {{target, test}, 2};
    merge_common(out, &lv);
    merge_usage(out, &lv);
    CONCAT(out, &lv, require, nrequire);
    CONCAT(out, &lv, sequences, nsequences);
    CONCAT(out, &lv, must_match, nmust_match);
    CONCAT(out, &lv, checks, nchecks);
}

void an_assert_release(struct an_assert *blk)
{
    if (!blk)
        return;
    free(blk->forbid);
    free(blk->allow);
    free(blk->sequences);
    free(blk->require);
    free(blk->forbid_calls);
    free(blk->must_match);
    free(blk->must_not_match);
    free(blk->checks);
    memset(blk, 0, sizeof *blk);
}
