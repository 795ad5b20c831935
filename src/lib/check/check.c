/* an_check(): one assert block against one scope, in a fixed order so
 * reports read the same on every run: tools, then text, then timing, then
 * usage, then typed checks in the order they were written (the impure ones
 * are left to the runner). The rules' loaders are load/assert_load.c's
 * table (an_rules); the typed checks' rows are ananke/check_kind.h's. */
#include "ananke/check.h"

#include "check/check_int.h"

/* One evaluator per group of rules, in the order findings are reported. */
static size_t (*const evaluators[])(const struct an_assert *, const struct an_scope *,
                                    struct an_findings *) = {
    chk_forbid,     chk_allow, chk_require, chk_sequence, chk_forbid_calls,
    chk_consistent, chk_text,  chk_timing,  chk_usage,    chk_items,
};

size_t an_check(const struct an_assert *blk, const struct an_scope *scope, struct an_findings *out)
{
    if (!blk || !scope)
        return 0;
    size_t added = 0;
    for (size_t i = 0; i < sizeof evaluators / sizeof *evaluators; i++)
        added += evaluators[i](blk, scope, out);
    return added;
}
