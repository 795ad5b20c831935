/* tools.allow and tools.sequence: a table of {calls, allow-list,
 * sequence, expected findings}. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "support/tool_calls.h"

struct seq_case {
    const char *title;
    struct ut_call calls[8];
    const char *allow[4]; /* empty: no allow-list */
    const char *names[5]; /* empty: no sequence */
    enum an_seq_mode mode;
    struct ut_want want[3];
};

static const struct seq_case seq_cases[] = {
    {"allow: every call listed passes",
     {CALL("search", "{}", NULL), CALL("lookup", "{}", NULL)},
     {"search", "lookup"},
     {0},
     0,
     {{0}}},
    {"allow: no call at all passes", {{0}}, {"search"}, {0}, 0, {{0}}},
    {"allow: one finding per name outside the list, in order of first call",
     {CALL("search", "{}", NULL), CALL("delete", "{}", NULL), CALL("charge", "{}", NULL),
      CALL("delete", "{}", NULL)},
     {"search"},
     {0},
     0,
     {{"tools.allow", "Tool \"delete\" is not in tools.allow", "only search", "2 calls (#2, #4)",
       NULL},
      {"tools.allow", "Tool \"charge\" is not in tools.allow", "only search", "1 call (#3)",
       NULL}}},
    {"allow: a glob admits a family",
     {CALL("search_web", "{}", NULL), CALL("search_docs", "{}", NULL)},
     {"search_*"},
     {0},
     0,
     {{0}}},
    {"allow: a glob does not admit other names",
     {CALL("research", "{}", NULL)},
     {"search_*"},
     {0},
     0,
     {{"tools.allow", "Tool \"research\" is not in tools.allow", "only search_*", "1 call (#1)",
       NULL}}},
    {"allow: lists of several levels are one union, shown once",
     {CALL("a", "{}", NULL), CALL("b", "{}", NULL), CALL("c", "{}", NULL)},
     {"a", "b", "a"},
     {0},
     0,
     {{"tools.allow", "Tool \"c\" is not in tools.allow", "only a, b", "1 call (#3)", NULL}}},

    /* in_order */
    {"in_order: a subsequence with calls between passes",
     {CALL("a", "{}", NULL), CALL("x", "{}", NULL), CALL("b", "{}", NULL), CALL("c", "{}", NULL)},
     {0},
     {"a", "b", "c"},
     AN_SEQ_IN_ORDER,
     {{0}}},
    {"in_order: out of order fails naming where it stopped",
     {CALL("a", "{}", NULL), CALL("c", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b", "c"},
     AN_SEQ_IN_ORDER,
     {{"tools.sequence", "Tools must be called in order", "a, b, c", "a, c, b",
       "matched 2 of 3 up to call #3; no \"c\" after it"}}},
    {"in_order: a name listed twice needs two calls",
     {CALL("search", "{}", NULL), CALL("answer", "{}", NULL)},
     {0},
     {"search", "search", "answer"},
     AN_SEQ_IN_ORDER,
     {{"tools.sequence", "Tools must be called in order", "search, search, answer",
       "search, answer", "matched 1 of 3 up to call #1; no \"search\" after it"}}},
    {"in_order: repeated calls of a listed name pass",
     {CALL("search", "{}", NULL), CALL("search", "{}", NULL), CALL("answer", "{}", NULL)},
     {0},
     {"search", "answer"},
     AN_SEQ_IN_ORDER,
     {{0}}},
    {"in_order: no call at all",
     {{0}},
     {0},
     {"a"},
     AN_SEQ_IN_ORDER,
     {{"tools.sequence", "Tools must be called in order", "a", "no call", "no call of \"a\""}}},

    /* exact */
    {"exact: the same list passes",
     {CALL("a", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b"},
     AN_SEQ_EXACT,
     {{0}}},
    {"exact: a call between fails at the first difference",
     {CALL("a", "{}", NULL), CALL("x", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b"},
     AN_SEQ_EXACT,
     {{"tools.sequence", "Tools must be called exactly", "a, b", "a, x, b",
       "call #2 is \"x\", expected \"b\""}}},
    {"exact: a repeated call is an extra call",
     {CALL("a", "{}", NULL), CALL("b", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b"},
     AN_SEQ_EXACT,
     {{"tools.sequence", "Tools must be called exactly", "a, b", "a, b, b",
       "1 extra call from #3 (\"b\")"}}},
    {"exact: too few calls",
     {CALL("a", "{}", NULL)},
     {0},
     {"a", "b"},
     AN_SEQ_EXACT,
     {{"tools.sequence", "Tools must be called exactly", "a, b", "a",
       "1 of 2 calls made; \"b\" missing"}}},

    /* contains */
    {"contains: any order passes",
     {CALL("c", "{}", NULL), CALL("a", "{}", NULL), CALL("x", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b", "c"},
     AN_SEQ_CONTAINS,
     {{0}}},
    {"contains: each missing name is listed",
     {CALL("a", "{}", NULL)},
     {0},
     {"a", "b", "c"},
     AN_SEQ_CONTAINS,
     {{"tools.sequence", "Tools must be called in any order", "a, b, c", "a",
       "missing: \"b\", \"c\""}}},
    {"contains: a name listed twice needs two calls",
     {CALL("search", "{}", NULL), CALL("answer", "{}", NULL)},
     {0},
     {"search", "answer", "search"},
     AN_SEQ_CONTAINS,
     {{"tools.sequence", "Tools must be called in any order", "search, answer, search",
       "search, answer", "missing: \"search\" (1 of 2 calls)"}}},
    {"contains: repeated calls of a listed name pass",
     {CALL("b", "{}", NULL), CALL("a", "{}", NULL), CALL("b", "{}", NULL)},
     {0},
     {"a", "b"},
     AN_SEQ_CONTAINS,
     {{0}}},
};

static void test_allow_sequence_table(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof seq_cases / sizeof seq_cases[0]; k++) {
        const struct seq_case *tc = &seq_cases[k];
        struct an_name allow[4];
        struct an_assert blk = {0};
        struct an_sequence sq = {0};
        size_t na = 0, nn = 0;
        for (; na < 4 && tc->allow[na]; na++)
            allow[na] = (struct an_name){
                tc->allow[na], {"t.test.yaml", 3 + (unsigned)na, 7}, AN_LEVEL_TURN};
        blk.allow = na ? allow : NULL;
        blk.nallow = na;
        while (nn < 5 && tc->names[nn])
            nn++;
        if (nn) {
            sq = (struct an_sequence){
                (const char **)tc->names, nn, tc->mode, {"t.test.yaml", 9, 9}, AN_LEVEL_TURN};
            blk.sequences = &sq;
            blk.nsequences = 1;
        }
        ut_check_case(tc->title, &blk, tc->calls, false, NULL, tc->want, 3);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_allow_sequence_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
