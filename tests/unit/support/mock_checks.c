#include "mock_checks.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"

void mock_assert_bad_scenarios(const struct mock_bad_scenario *cases, size_t n, mock_load_fn load)
{
    int failures = 0;
    for (size_t i = 0; i < n; i++) {
        struct an_err err = AN_ERR_INIT;
        const char *y = cases[i].yaml;
        if (!load(y, &err)) {
            print_error("case %zu loaded but should fail:\n%s\n", i, y);
            failures++;
            continue;
        }
        assert_int_equal(an_code_exit_class(err.code), 2);
        char got[2048], where[600];
        an_err_format(&err, got, sizeof got);
        snprintf(where, sizeof where, "%s:%u:%u", err.file, err.line, err.col);
        if (strcmp(where, cases[i].where) != 0 || !strstr(got, cases[i].msg)) {
            print_error("case %zu:\n%s\nexpected at %s: ...%s...\ngot: %s\n", i, y, cases[i].where,
                        cases[i].msg, got);
            failures++;
        }
    }
    assert_int_equal(failures, 0);
}

void mock_assert_loaded(int rc, const struct an_err *err)
{
    if (rc) {
        char msg[2048];
        fail_msg("unexpected load error: %s", an_err_format(err, msg, sizeof msg));
    }
}

char *mock_plan_text(const struct mock_plan *p)
{
    struct an_buf b = AN_BUF_INIT;
    for (size_t i = 0; i < p->n; i++) {
        switch (p->acts[i].kind) {
        case MOCK_ACT_WRITE:
            an_buf_append(&b, p->acts[i].data, p->acts[i].len);
            break;
        case MOCK_ACT_SLEEP:
            an_buf_printf(&b, "<sleep %lld>", (long long)p->acts[i].ms);
            break;
        case MOCK_ACT_CUT:
            an_buf_puts(&b, "<cut>");
            break;
        case MOCK_ACT_STALL:
            an_buf_puts(&b, "<stall>");
            break;
        case MOCK_ACT_AWAIT:
            an_buf_puts(&b, "<await>");
            break;
        }
    }
    return an_buf_detach(&b, NULL);
}

void mock_assert_rendered(size_t i, const char *yaml, const char *expected, char *got)
{
    if (strcmp(got, expected) != 0)
        fail_msg("case %zu: %s\nexpected:\n%s\ngot:\n%s", i, yaml, expected, got);
    free(got);
}
