/* Tool calls in unit tests of the checks (tool_calls.h). */
#include "tool_calls.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static json_t *parse(const char *s)
{
    if (!s)
        return NULL;
    json_error_t je;
    json_t *v = json_loads(s, JSON_DECODE_ANY, &je);
    if (!v)
        fail_msg("bad fixture JSON %s: %s", s, je.text);
    return v;
}

struct an_tool_call *ut_calls_make_as(const struct ut_call *spec, size_t *n, bool lazy,
                                      size_t *nlazy)
{
    size_t k = 0;
    while (spec[k].name)
        k++;
    struct an_tool_call *c = calloc(k ? k : 1, sizeof *c);
    for (size_t i = 0; i < k; i++) {
        c[i].name = strdup(spec[i].name);
        c[i].args_text = spec[i].args ? strdup(spec[i].args) : NULL;
        if (lazy && spec[i].args) {
            char why[256];
            bool ok = an_tool_call_parse_args(&c[i], why, sizeof why);
            assert_int_equal(ok, c[i].args_error == NULL);
            *nlazy += c[i].args_lazy;
        } else {
            /* Like an adapter: args that are not JSON leave args NULL. */
            c[i].args = spec[i].args ? json_loads(spec[i].args, JSON_DECODE_ANY, NULL) : NULL;
        }
        c[i].result = parse(spec[i].result);
        c[i].turn = UT_TURN;
        c[i].ts_ms = 1000 + (int64_t)i * 10;
    }
    *n = k;
    return c;
}

struct an_tool_call *ut_calls_make(const struct ut_call *spec, size_t *n)
{
    return ut_calls_make_as(spec, n, false, NULL);
}

void ut_calls_free(struct an_tool_call *c, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(c[i].name);
        free(c[i].args_text);
        free(c[i].args_error);
        json_decref(c[i].args);
        json_decref(c[i].result);
    }
    free(c);
}

void ut_expect_str(const char *title, const char *field, const char *want, const char *got)
{
    if (want == got || (want && got && strcmp(want, got) == 0))
        return;
    fail_msg("%s: %s\n  want: %s\n  got:  %s", title, field, want ? want : "(null)",
             got ? got : "(null)");
}

void ut_expect_findings(const char *title, const struct an_findings *f, size_t added,
                        const struct ut_want *w, size_t nw)
{
    size_t n = 0;
    while (n < nw && w[n].kind)
        n++;
    if (f->n != n || added != n) {
        for (size_t i = 0; i < f->n; i++)
            print_message("  [%s] %s | %s | %s | %s\n", f->v[i].kind, f->v[i].assertion,
                          f->v[i].expected, f->v[i].actual, f->v[i].detail ? f->v[i].detail : "-");
        fail_msg("%s: want %zu findings, got %zu (returned %zu)", title, n, f->n, added);
    }
    for (size_t i = 0; i < n; i++) {
        ut_expect_str(title, "kind", w[i].kind, f->v[i].kind);
        ut_expect_str(title, "assertion", w[i].assertion, f->v[i].assertion);
        ut_expect_str(title, "expected", w[i].expected, f->v[i].expected);
        ut_expect_str(title, "actual", w[i].actual, f->v[i].actual);
        ut_expect_str(title, "detail", w[i].detail, f->v[i].detail);
        assert_int_equal(f->v[i].turn, UT_TURN);
        assert_string_equal(f->v[i].file, "t.test.yaml");
    }
}

void ut_check_case(const char *title, const struct an_assert *blk, const struct ut_call *spec,
                   bool lazy, size_t *nlazy, const struct ut_want *w, size_t nw)
{
    size_t ncalls;
    struct an_tool_call *calls = ut_calls_make_as(spec, &ncalls, lazy, nlazy);
    struct an_scope scope = {.calls = calls,
                             .ncalls = ncalls,
                             .text = "",
                             .start_ms = 0,
                             .end_ms = 100,
                             .turn = UT_TURN};
    struct an_findings f = {0};
    size_t added = an_check(blk, &scope, &f);
    ut_expect_findings(title, &f, added, w, nw);
    an_findings_release(&f);
    ut_calls_free(calls, ncalls);
}
