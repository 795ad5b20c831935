/* tools.forbid, tools.allow, tools.require (count, filters, after), tools.sequence and
 * tools.forbid_calls. */
#include <fnmatch.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check/check_int.h"
#include "core/json.h"

/* A forbid_calls rule that keeps matching (an agent in a loop) reports
 * this many calls one by one; the last finding says how many more. */
#define CHK_MAX_CALL_FINDINGS 10

/* Where a call left a rule's filters. */
enum stage { PASSED = 0, BY_ARGS, BY_RESULT_MATCH, BY_RESULT_NOT_MATCH };

static bool is_named(const struct an_tool_call *c, const char *name)
{
    return c->name && strcmp(c->name, name) == 0;
}

static bool has_filters(const struct an_tool_rule *r)
{
    return r->nargs || r->result_match || r->result_not_match;
}

static bool value_matches(const struct an_regex *re, const json_t *v)
{
    char *t = an_json_match_text(v);
    bool m = an_regex_search(re, t, strlen(t));
    free(t);
    return m;
}

/* Index of the first args_match entry the call fails, r->nargs when none.
 * A missing path (or args that were not JSON) fails. */
static size_t first_failed_arg(const struct an_tool_rule *r, const struct an_tool_call *c)
{
    for (size_t a = 0; a < r->nargs; a++) {
        json_t *v = an_json_dot_path(an_tool_call_args(c), r->args[a].path);
        if (!v || !value_matches(r->args[a].re, v))
            return a;
    }
    return r->nargs;
}

/* Seed 000: a missing result fails result_match and passes result_not_match. */
static enum stage stage_of(const struct an_tool_rule *r, const struct an_tool_call *c)
{
    if (first_failed_arg(r, c) < r->nargs)
        return BY_ARGS;
    if (r->result_match && !(c->result && value_matches(r->result_match, c->result)))
        return BY_RESULT_MATCH;
    if (r->result_not_match && c->result && value_matches(r->result_not_match, c->result))
        return BY_RESULT_NOT_MATCH;
    return PASSED;
}

static void put_call_numbers(struct an_buf *b, const struct an_scope *s, const char *name,
                             bool (*keep)(const struct an_tool_rule *, const struct an_tool_call *),
                             const struct an_tool_rule *r)
{
    size_t shown = 0;
    for (size_t i = 0; i < s->ncalls; i++) {
        if (!is_named(&s->calls[i], name) || (keep && !keep(r, &s->calls[i])))
            continue;
        if (shown == CHK_LIST) {
            an_buf_puts(b, ", …");
            return;
        }
        an_buf_printf(b, "%s#%zu", shown ? ", " : "", i + 1);
        shown++;
    }
}

/* ---- forbid ---- */

size_t chk_forbid(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    size_t added = 0;
    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT;
    for (size_t f = 0; f < blk->nforbid; f++) {
        const struct an_name *fb = &blk->forbid[f];
        /* The same name forbidden at two levels is one violation, reported
         * at the first (outermost) place it was declared. */
        bool dup = false;
        for (size_t g = 0; g < f && !dup; g++)
            dup = strcmp(blk->forbid[g].name, fb->name) == 0;
        size_t n = 0;
        for (size_t i = 0; i < s->ncalls; i++)
            n += is_named(&s->calls[i], fb->name);
        if (dup || n == 0)
            continue;
        an_buf_reset(&label);
        an_buf_reset(&expected);
        an_buf_reset(&actual);
        an_buf_printf(&label, "Tool \"%s\" must not be called", fb->name);
        an_buf_puts(&expected, "no call");
        chk_ncalls(&actual, n);
        an_buf_puts(&actual, " (");
        put_call_numbers(&actual, s, fb->name, NULL, NULL);
        an_buf_putc(&actual, ')');
        chk_add(out, "tools.forbid", s, &fb->loc, &label, &expected, &actual, NULL);
        added++;
    }
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    return added;
}

/* ---- require: count ---- */

struct bounds {
    bool has_min, has_max;
    int64_t min, max;
};

/* The count a rule asks for; no count (or an empty one) means {min: 1}.
 * `exact` is min == max. */
static struct bounds bounds_of(const struct an_tool_rule *r)
{
    struct bounds b = {.has_min = true, .min = 1};
    const struct an_count *c = &r->count;
    if (!r->has_count || !(c->has_exact || c->has_min || c->has_max))
        return b;
    b.has_min = c->has_min;
    b.min = c->min;
    b.has_max = c->has_max;
    b.max = c->max;
    if (c->has_exact) {
        /* exact together with min/max (if a loader ever lets it through)
         * must satisfy all of them: keep the tightest bounds. */
        if (!b.has_min || c->exact > b.min)
            b.min = c->exact;
        if (!b.has_max || c->exact < b.max)
            b.max = c->exact;
        b.has_min = b.has_max = true;
    }
    return b;
}

static bool bounds_ok(struct bounds b, size_t n)
{
    int64_t v = n > INT64_MAX ? INT64_MAX : (int64_t)n;
    return (!b.has_min || v >= b.min) && (!b.has_max || v <= b.max);
}

/* Only zero calls allowed: the rule reads as a prohibition. */
static bool bounds_zero(struct bounds b)
{
    return b.has_max && b.max <= 0;
}

static void put_bounds(struct an_buf *out, struct bounds b)
{
    if (bounds_zero(b))
        an_buf_puts(out, "no call");
    else if (b.has_min && b.has_max && b.min == b.max)
        an_buf_printf(out, "exactly %lld call%s", (long long)b.min, b.min == 1 ? "" : "s");
    else if (b.has_min && b.has_max)
        an_buf_printf(out, "between %lld and %lld calls", (long long)b.min, (long long)b.max);
    else if (b.has_min)
        an_buf_printf(out, "at least %lld call%s", (long long)b.min, b.min == 1 ? "" : "s");
    else if (b.has_max)
        an_buf_printf(out, "at most %lld call%s", (long long)b.max, b.max == 1 ? "" : "s");
    else
        an_buf_puts(out, "any number of calls");
}

static void put_filter_suffix(struct an_buf *b, const struct an_tool_rule *r)
{
    bool res = r->result_match || r->result_not_match;
    if (r->nargs && res)
        an_buf_puts(b, " with matching args and result");
    else if (r->nargs)
        an_buf_puts(b, " with matching args");
    else if (res)
        an_buf_puts(b, " with matching result");
}

/* "query matching /weather/ and user.city matching /paris/i" */
static void put_args_desc(struct an_buf *b, const struct an_tool_rule *r)
{
    for (size_t a = 0; a < r->nargs; a++) {
        an_buf_printf(b, "%s%s matching ", a ? " and " : "", r->args[a].path);
        chk_regex(b, r->args[a].re);
    }
}

/* For the calls of `name` dropped at stage `st`, what they held:
 * args stage: "query was \"paris\", \"rome\"; user.city was missing";
 * result stages: "results: \"declined\", no result". */
static void put_dropped(struct an_buf *b, const struct an_scope *s, const struct an_tool_rule *r,
                        enum stage st)
{
    if (st == BY_ARGS) {
        bool any_path = false;
        for (size_t a = 0; a < r->nargs; a++) {
            size_t shown = 0;
            for (size_t i = 0; i < s->ncalls; i++) {
                const struct an_tool_call *c = &s->calls[i];
                if (!is_named(c, r->name) || first_failed_arg(r, c) != a)
                    continue;
                if (shown == 0)
                    an_buf_printf(b, "%s%s was ", any_path ? "; " : "", r->args[a].path);
                if (shown == CHK_LIST) {
                    an_buf_puts(b, ", …");
                    break;
                }
                if (shown)
                    an_buf_puts(b, ", ");
                chk_quote_json(b, an_json_dot_path(an_tool_call_args(c), r->args[a].path));
                shown++;
            }
            any_path |= shown > 0;
        }
        return;
    }
    an_buf_puts(b, "results: ");
    size_t shown = 0;
    for (size_t i = 0; i < s->ncalls; i++) {
        const struct an_tool_call *c = &s->calls[i];
        if (!is_named(c, r->name) || stage_of(r, c) != st)
            continue;
        if (shown == CHK_LIST) {
            an_buf_puts(b, ", …");
            break;
        }
        if (shown)
            an_buf_puts(b, ", ");
        if (c->result)
            chk_quote_json(b, c->result);
        else
            an_buf_puts(b, "no result");
        shown++;
    }
}

/* Why the filters left the count they left:
 * `3 calls of "search", none with args query matching /weather/ (query was "paris", "rome")` */
static void put_filter_story(struct an_buf *b, const struct an_scope *s,
                             const struct an_tool_rule *r, size_t named, const size_t dropped[4])
{
    chk_ncalls(b, named);
    an_buf_printf(b, " of \"%s\"", r->name);
    size_t left = named;
    for (enum stage st = BY_ARGS; st <= BY_RESULT_NOT_MATCH; st++) {
        const struct an_regex *re = st == BY_RESULT_MATCH       ? r->result_match
                                    : st == BY_RESULT_NOT_MATCH ? r->result_not_match
                                                                : NULL;
        if ((st == BY_ARGS && !r->nargs) || (st != BY_ARGS && !re))
            continue;
        left -= dropped[st];
        if (left)
            an_buf_printf(b, ", %zu", left);
        else
            an_buf_puts(b, ", none");
        if (st == BY_ARGS) {
            an_buf_puts(b, " with args ");
            put_args_desc(b, r);
        } else {
            an_buf_puts(b, st == BY_RESULT_MATCH ? " with result matching "
                                                 : " with result not matching ");
            chk_regex(b, re);
        }
        if (dropped[st]) {
            an_buf_puts(b, " (");
            put_dropped(b, s, r, st);
            an_buf_putc(b, ')');
        }
        if (!left)
            break;
    }
}

static bool passes(const struct an_tool_rule *r, const struct an_tool_call *c)
{
    return stage_of(r, c) == PASSED;
}

static size_t require_count(const struct an_tool_rule *r, const struct an_scope *s,
                            struct an_findings *out, size_t *first)
{
    size_t named = 0, matched = 0, dropped[4] = {0};
    *first = SIZE_MAX;
    for (size_t i = 0; i < s->ncalls; i++) {
        if (!is_named(&s->calls[i], r->name))
            continue;
        named++;
        enum stage st = stage_of(r, &s->calls[i]);
        dropped[st]++;
        if (st == PASSED) {
            matched++;
            if (*first == SIZE_MAX)
                *first = i;
        }
    }
    struct bounds bd = bounds_of(r);
    if (bounds_ok(bd, matched))
        return 0;

    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT,
                  detail = AN_BUF_INIT;
    an_buf_printf(&label, "Tool \"%s\" must %sbe called", r->name, bounds_zero(bd) ? "not " : "");
    put_filter_suffix(&label, r);
    if (r->source_server)
        an_buf_puts(&label, " (on a tool server)");
    put_bounds(&expected, bd);
    chk_ncalls(&actual, matched);
    if (named == 0) {
        an_buf_puts(&actual, " (called: ");
        chk_called_names(&actual, s);
        an_buf_putc(&actual, ')');
    }
    if (named && has_filters(r))
        put_filter_story(&detail, s, r, named, dropped);
    if (matched) {
        an_buf_puts(&detail, detail.len ? "; matching calls: " : "matching calls: ");
        put_call_numbers(&detail, s, r->name, passes, r);
    }
    chk_add(out, "tools.require", s, &r->loc, &label, &expected, &actual, &detail);
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    an_buf_release(&detail);
    return 1;
}

/* ---- require: after ---- */

/* Judged on the first call that passed the rule's filters: it must have a
 * call of `after` (any arguments) before it. Every later call then has one
 * too. With no matching call there is nothing to order; the count reports
 * the absence. */
static size_t require_after(const struct an_tool_rule *r, const struct an_scope *s,
                            struct an_findings *out, size_t first)
{
    if (!r->after || first == SIZE_MAX)
        return 0;
    size_t x = SIZE_MAX;
    for (size_t i = 0; i < s->ncalls && x == SIZE_MAX; i++)
        if (is_named(&s->calls[i], r->after))
            x = i;
    if (x < first)
        return 0;

    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT;
    an_buf_printf(&label, "Tool \"%s\" must be called after \"%s\"", r->name, r->after);
    an_buf_printf(&expected, "a call of \"%s\" before the first call of \"%s\"", r->after, r->name);
    if (x == SIZE_MAX) {
        an_buf_printf(&actual, "\"%s\" never called (called: ", r->after);
        chk_called_names(&actual, s);
        an_buf_putc(&actual, ')');
    } else {
        an_buf_printf(&actual, "first \"%s\" at call #%zu, first \"%s\" at call #%zu", r->name,
                      first + 1, r->after, x + 1);
    }
    const struct an_loc *loc = r->after_loc.file || r->after_loc.line ? &r->after_loc : &r->loc;
    chk_add(out, "tools.require.after", s, loc, &label, &expected, &actual, NULL);
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    return 1;
}

/* The scope seen from the tool servers: its calls are the server_calls of
 * its turns (docs/tools.md), as tool calls whose strings and JSON are
 * borrowed from them; *calls (caller frees) holds them. */
static struct an_scope server_scope(const struct an_scope *s, struct an_tool_call **calls)
{
    struct an_scope v = *s;
    size_t n = 0;
    for (size_t t = 0; t < s->nturns; t++)
        n += json_array_size(s->turns[t].server_calls);
    *calls = an_xcalloc(n ? n : 1, sizeof **calls);
    n = 0;
    for (size_t t = 0; t < s->nturns; t++) {
        size_t i;
        json_t *c;
        json_array_foreach(s->turns[t].server_calls, i, c)
        {
            struct an_tool_call *tc = &(*calls)[n++];
            tc->name = (char *)json_string_value(json_object_get(c, "name"));
            tc->args = json_object_get(c, "arguments");
            tc->result = json_object_get(c, "result");
            tc->turn = s->turns[t].index;
            tc->start_ms = json_integer_value(json_object_get(c, "start_ms"));
            tc->end_ms = tc->ts_ms = tc->result_ms =
                json_integer_value(json_object_get(c, "end_ms"));
            tc->status = json_is_true(json_object_get(c, "is_error")) ? "error" : "ok";
        }
    }
    v.calls = *calls;
    v.ncalls = n;
    return v;
}

size_t chk_require(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    size_t added = 0;
    for (size_t k = 0; k < blk->nrequire; k++) {
        const struct an_tool_rule *r = &blk->require[k];
        size_t first;
        struct an_tool_call *calls = NULL;
        struct an_scope v = r->source_server ? server_scope(s, &calls) : *s;
        added += require_count(r, &v, out, &first);
        added += require_after(r, &v, out, first);
        free(calls);
    }
    return added;
}

/* ---- forbid_calls ---- */

static void put_forbidden_expected(struct an_buf *b, const struct an_tool_rule *r)
{
    an_buf_puts(b, "no call");
    const char *sep = " with ";
    if (r->nargs) {
        an_buf_puts(b, " with args ");
        put_args_desc(b, r);
        sep = " and ";
    }
    if (r->result_match) {
        an_buf_printf(b, "%sresult matching ", sep);
        chk_regex(b, r->result_match);
        sep = " and ";
    }
    if (r->result_not_match) {
        an_buf_printf(b, "%sresult not matching ", sep);
        chk_regex(b, r->result_not_match);
    }
}

/* "call #2, args {"table":"users"}, result "password=…"" */
static void put_call(struct an_buf *b, const struct an_tool_call *c, size_t idx)
{
    an_buf_printf(b, "call #%zu, args ", idx + 1);
    const json_t *args = an_tool_call_args(c);
    if (args) {
        char *t = an_json_compact(args);
        chk_cut(b, t, strlen(t));
        free(t);
    } else if (c->args_text) {
        chk_quote(b, c->args_text, strlen(c->args_text));
    } else {
        an_buf_puts(b, "none");
    }
    if (c->result) {
        an_buf_puts(b, ", result ");
        chk_quote_json(b, c->result);
    }
}

size_t chk_forbid_calls(const struct an_assert *blk, const struct an_scope *s,
                        struct an_findings *out)
{
    size_t added = 0;
    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT,
                  detail = AN_BUF_INIT;
    for (size_t k = 0; k < blk->nforbid_calls; k++) {
        const struct an_tool_rule *r = &blk->forbid_calls[k];
        size_t hits = 0;
        for (size_t i = 0; i < s->ncalls; i++)
            hits += is_named(&s->calls[i], r->name) && passes(r, &s->calls[i]);
        if (!hits)
            continue;
        an_buf_reset(&label);
        an_buf_reset(&expected);
        an_buf_printf(&label, "Tool \"%s\" call forbidden", r->name);
        put_forbidden_expected(&expected, r);
        size_t reported = 0;
        for (size_t i = 0; i < s->ncalls && reported < CHK_MAX_CALL_FINDINGS; i++) {
            const struct an_tool_call *c = &s->calls[i];
            if (!is_named(c, r->name) || !passes(r, c))
                continue;
            an_buf_reset(&actual);
            an_buf_reset(&detail);
            put_call(&actual, c, i);
            reported++;
            if (reported == CHK_MAX_CALL_FINDINGS && hits > reported)
                an_buf_printf(&detail, "and %zu more forbidden call%s of \"%s\"", hits - reported,
                              hits - reported == 1 ? "" : "s", r->name);
            chk_add(out, "tools.forbid_calls", s, &r->loc, &label, &expected, &actual, &detail);
            added++;
        }
    }
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    an_buf_release(&detail);
    return added;
}

/* ---- allow ---- */

static bool allowed(const struct an_assert *blk, const char *name)
{
    for (size_t k = 0; k < blk->nallow; k++)
        if (fnmatch(blk->allow[k].name, name, 0) == 0)
            return true;
    return false;
}

/* "search_*, lookup_order" without the names written at two levels twice. */
static void put_allow_list(struct an_buf *b, const struct an_assert *blk)
{
    size_t shown = 0;
    for (size_t k = 0; k < blk->nallow; k++) {
        bool dup = false;
        for (size_t g = 0; g < k && !dup; g++)
            dup = strcmp(blk->allow[g].name, blk->allow[k].name) == 0;
        if (dup)
            continue;
        if (shown == CHK_LIST) {
            an_buf_puts(b, ", …");
            return;
        }
        an_buf_printf(b, "%s%s", shown ? ", " : "", blk->allow[k].name);
        shown++;
    }
}

/* One finding per distinct tool name outside the allow-list, in order of
 * its first call, at the place the first allow entry was written. */
size_t chk_allow(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    if (!blk->nallow)
        return 0;
    size_t added = 0;
    struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT;
    for (size_t i = 0; i < s->ncalls; i++) {
        const char *name = s->calls[i].name ? s->calls[i].name : "";
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = strcmp(s->calls[j].name ? s->calls[j].name : "", name) == 0;
        if (seen || allowed(blk, name))
            continue;
        size_t n = 0;
        for (size_t j = i; j < s->ncalls; j++)
            n += strcmp(s->calls[j].name ? s->calls[j].name : "", name) == 0;
        an_buf_reset(&label);
        an_buf_reset(&expected);
        an_buf_reset(&actual);
        an_buf_printf(&label, "Tool \"%s\" is not in tools.allow", name);
        an_buf_puts(&expected, "only ");
        put_allow_list(&expected, blk);
        chk_ncalls(&actual, n);
        an_buf_puts(&actual, " (");
        put_call_numbers(&actual, s, name, NULL, NULL);
        an_buf_putc(&actual, ')');
        chk_add(out, "tools.allow", s, &blk->allow[0].loc, &label, &expected, &actual, NULL);
        added++;
    }
    an_buf_release(&label);
    an_buf_release(&expected);
    an_buf_release(&actual);
    return added;
}

/* ---- sequence ---- */

/* Call names shown in a sequence finding: a trajectory is read whole, so
 * more of it than CHK_LIST. */
#define CHK_SEQ_SHOWN 20

static const char *call_name(const struct an_scope *s, size_t i)
{
    return s->calls[i].name ? s->calls[i].name : "";
}

static void put_names(struct an_buf *b, const char *const *names, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (i == CHK_SEQ_SHOWN) {
            an_buf_puts(b, ", …");
            return;
        }
        an_buf_printf(b, "%s%s", i ? ", " : "", names[i]);
    }
}

static void put_trajectory(struct an_buf *b, const struct an_scope *s)
{
    if (!s->ncalls) {
        an_buf_puts(b, "no call");
        return;
    }
    for (size_t i = 0; i < s->ncalls; i++) {
        if (i == CHK_SEQ_SHOWN) {
            an_buf_printf(b, ", … (%zu calls)", s->ncalls);
            return;
        }
        an_buf_printf(b, "%s%s", i ? ", " : "", call_name(s, i));
    }
}

/* in_order: names is a subsequence of the calls. Greedy matching is exact
 * for subsequences: taking the earliest call for each name never loses a
 * match. Fills the detail with how far it got. */
static bool seq_in_order(const struct an_sequence *q, const struct an_scope *s, struct an_buf *d)
{
    size_t k = 0, last = 0;
    for (size_t i = 0; i < s->ncalls && k < q->nnames; i++)
        if (strcmp(call_name(s, i), q->names[k]) == 0) {
            k++;
            last = i + 1;
        }
    if (k == q->nnames)
        return true;
    if (k == 0)
        an_buf_printf(d, "no call of \"%s\"", q->names[0]);
    else
        an_buf_printf(d, "matched %zu of %zu up to call #%zu; no \"%s\" after it", k, q->nnames,
                      last, q->names[k]);
    return false;
}

static bool seq_exact(const struct an_sequence *q, const struct an_scope *s, struct an_buf *d)
{
    size_t n = q->nnames < s->ncalls ? q->nnames : s->ncalls;
    for (size_t i = 0; i < n; i++)
        if (strcmp(call_name(s, i), q->names[i]) != 0) {
            an_buf_printf(d, "call #%zu is \"%s\", expected \"%s\"", i + 1, call_name(s, i),
                          q->names[i]);
            return false;
        }
    if (q->nnames == s->ncalls)
        return true;
    if (s->ncalls < q->nnames)
        an_buf_printf(d, "%zu of %zu calls made; \"%s\" missing", s->ncalls, q->nnames,
                      q->names[s->ncalls]);
    else
        an_buf_printf(d, "%zu extra call%s from #%zu (\"%s\")", s->ncalls - q->nnames,
                      s->ncalls - q->nnames == 1 ? "" : "s", q->nnames + 1,
                      call_name(s, q->nnames));
    return false;
}

/* contains: each name is called at least as many times as it is listed. */
static bool seq_contains(const struct an_sequence *q, const struct an_scope *s, struct an_buf *d)
{
    bool ok = true;
    for (size_t k = 0; k < q->nnames; k++) {
        bool dup = false;
        for (size_t g = 0; g < k && !dup; g++)
            dup = strcmp(q->names[g], q->names[k]) == 0;
        if (dup)
            continue;
        size_t want = 0, got = 0;
        for (size_t g = k; g < q->nnames; g++)
            want += strcmp(q->names[g], q->names[k]) == 0;
        for (size_t i = 0; i < s->ncalls; i++)
            got += strcmp(call_name(s, i), q->names[k]) == 0;
        if (got >= want)
            continue;
        an_buf_puts(d, ok ? "missing: " : ", ");
        if (want == 1)
            an_buf_printf(d, "\"%s\"", q->names[k]);
        else
            an_buf_printf(d, "\"%s\" (%zu of %zu calls)", q->names[k], got, want);
        ok = false;
    }
    return ok;
}

size_t chk_sequence(const struct an_assert *blk, const struct an_scope *s, struct an_findings *out)
{
    static const char *const how[] = {"in order", "exactly", "in any order"};
    size_t added = 0;
    for (size_t k = 0; k < blk->nsequences; k++) {
        const struct an_sequence *q = &blk->sequences[k];
        struct an_buf label = AN_BUF_INIT, expected = AN_BUF_INIT, actual = AN_BUF_INIT,
                      detail = AN_BUF_INIT;
        bool ok = q->mode == AN_SEQ_EXACT      ? seq_exact(q, s, &detail)
                  : q->mode == AN_SEQ_CONTAINS ? seq_contains(q, s, &detail)
                                               : seq_in_order(q, s, &detail);
        if (!ok) {
            an_buf_printf(&label, "Tools must be called %s", how[q->mode]);
            put_names(&expected, q->names, q->nnames);
            put_trajectory(&actual, s);
            chk_add(out, "tools.sequence", s, &q->loc, &label, &expected, &actual, &detail);
            added++;
        }
        an_buf_release(&label);
        an_buf_release(&expected);
        an_buf_release(&actual);
        an_buf_release(&detail);
    }
    return added;
}
