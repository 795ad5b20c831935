/* an_check(): one assert block against one scope, in a fixed order so
 * reports read the same on every run: tools, then text, then timing, then usage, then typed checks
 * in the order they were written (script checks are left to the runner). */
#include "ananke/check.h"

#include "check/check_int.h"

size_t an_check(const struct an_assert *blk, const struct an_scope *scope,
                struct an_findings *out)
{
    if (!blk || !scope)
        return 0;
    size_t added = 0;
    added += chk_forbid(blk, scope, out);
    added += chk_allow(blk, scope, out);
    added += chk_require(blk, scope, out);
    added += chk_sequence(blk, scope, out);
    added += chk_forbid_calls(blk, scope, out);
    added += chk_text(blk, scope, out);
    added += chk_timing(blk, scope, out);
    added += chk_usage(blk, scope, out);
    added += chk_items(blk, scope, out);
    return added;
}
