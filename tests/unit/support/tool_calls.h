/*
 * Tool calls in unit tests of the checks (test_check_tools.c,
 * test_check_sequence.c): calls written as a case writes them, made into
 * the an_tool_call array the checks read, and the findings a case expects
 * compared with those the checks made. A failure ends the running test
 * through cmocka's assertions.
 */
#ifndef ANANKE_TEST_TOOL_CALLS_H
#define ANANKE_TEST_TOOL_CALLS_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/check.h"

#define UT_TURN 2 /* the turn every call and finding of a case is in */

/* A call as a case writes it: JSON texts, NULL result = no result. */
struct ut_call {
    const char *name, *args, *result;
};

#define CALL(n, a, r)                                                                              \
    {                                                                                              \
        n, a, r                                                                                    \
    }

struct ut_want {
    const char *kind, *assertion, *expected, *actual, *detail;
};

/* The calls of spec (up to its entry with a NULL name), *n their number;
 * the caller frees them with ut_calls_free(). ut_calls_make_as: with
 * `lazy` their args only judged (as the AG-UI decoder leaves them), for the
 * checks to build the tree on first read; *nlazy counts the calls left so. */
struct an_tool_call *ut_calls_make_as(const struct ut_call *spec, size_t *n, bool lazy,
                                      size_t *nlazy);
struct an_tool_call *ut_calls_make(const struct ut_call *spec, size_t *n);
void ut_calls_free(struct an_tool_call *c, size_t n);

/* want equals got (both may be NULL), else the test fails naming title and
 * field. */
void ut_expect_str(const char *title, const char *field, const char *want, const char *got);
/* The findings f holds (added of them returned by the check) are w's (up
 * to its entry with a NULL kind, at most nw), in order, each in turn
 * UT_TURN of t.test.yaml. */
void ut_expect_findings(const char *title, const struct an_findings *f, size_t added,
                        const struct ut_want *w, size_t nw);

/* One case: blk checked over the calls of spec (made as by
 * ut_calls_make_as) in turn UT_TURN, its findings those of w. */
void ut_check_case(const char *title, const struct an_assert *blk, const struct ut_call *spec,
                   bool lazy, size_t *nlazy, const struct ut_want *w, size_t nw);

#endif
