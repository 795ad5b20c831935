/* tools.forbid / require / forbid_calls / after: tables of {calls, rule,
 * expected findings}, the same with args parsed on first read, where the
 * findings point, the caps, a long value cut. tools.allow and
 * tools.sequence are test_check_sequence.c's; the JSON path helpers
 * test_json_path.c's. */
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

/* ---- fixtures ---- */

/* A rule as a case writes it. count: "exact=1", "min=2,max=3", NULL = absent. */
struct rs {
    const char *name;
    const char *count;
    const char *args[3][2]; /* {path, regex} */
    const char *result_match, *result_not_match, *after;
};

struct pool {
    struct an_regex *re[32];
    size_t n;
    struct an_tool_rule rules[2];
    struct an_arg_match args[2][3];
    struct an_name names[4];
};

static struct an_regex *re_of(struct pool *p, const char *src, unsigned line)
{
    struct an_loc loc = {"t.test.yaml", line, 9};
    struct an_err err = AN_ERR_INIT;
    struct an_regex *re = NULL;
    assert_int_equal(an_regex_compile(&re, src, &loc, &err), 0);
    assert_true(p->n < 32);
    p->re[p->n++] = re;
    return re;
}

static void pool_free(struct pool *p)
{
    for (size_t i = 0; i < p->n; i++)
        an_regex_free(p->re[i]);
}

static void parse_count(struct an_count *c, const char *s)
{
    while (s && *s) {
        char *end;
        if (strncmp(s, "exact=", 6) == 0) {
            c->has_exact = true;
            c->exact = strtoll(s + 6, &end, 10);
        } else if (strncmp(s, "min=", 4) == 0) {
            c->has_min = true;
            c->min = strtoll(s + 4, &end, 10);
        } else if (strncmp(s, "max=", 4) == 0) {
            c->has_max = true;
            c->max = strtoll(s + 4, &end, 10);
        } else {
            fail_msg("bad count fixture %s", s);
            return;
        }
        s = *end == ',' ? end + 1 : end;
    }
}

static void make_rule(struct pool *p, size_t slot, const struct rs *r, unsigned line)
{
    struct an_tool_rule *t = &p->rules[slot];
    memset(t, 0, sizeof *t);
    t->name = r->name;
    t->loc = (struct an_loc){"t.test.yaml", line, 11};
    t->level = AN_LEVEL_TURN;
    t->has_count = r->count != NULL;
    parse_count(&t->count, r->count);
    for (size_t a = 0; a < 3 && r->args[a][0]; a++) {
        p->args[slot][a] = (struct an_arg_match){
            r->args[a][0], re_of(p, r->args[a][1], line + 1), {"t.test.yaml", line + 1, 13}};
        t->nargs++;
    }
    t->args = t->nargs ? p->args[slot] : NULL;
    t->result_match = r->result_match ? re_of(p, r->result_match, line + 2) : NULL;
    t->result_not_match = r->result_not_match ? re_of(p, r->result_not_match, line + 3) : NULL;
    t->after = r->after;
    if (r->after)
        t->after_loc = (struct an_loc){"t.test.yaml", line + 4, 18};
}

/* ---- the table ---- */

struct tool_case {
    const char *title;
    struct ut_call calls[14];
    const char *forbid[4];
    struct rs require;
    struct rs forbid_call;
    struct ut_want want[3];
};

static const struct tool_case cases[] = {
    /* forbid */
    {"forbid: not called passes", {CALL("search", "{}", NULL)}, {"delete_order"}, {0}, {0}, {{0}}},
    {"forbid: each forbidden name is one finding with call numbers",
     {CALL("delete_order", "{}", NULL), CALL("search", "{}", NULL),
      CALL("delete_order", "{}", NULL)},
     {"delete_order", "drop_table"},
     {0},
     {0},
     {{"tools.forbid", "Tool \"delete_order\" must not be called", "no call", "2 calls (#1, #3)",
       NULL}}},
    {"forbid: the same name at two levels is reported once",
     {CALL("drop_table", "{}", NULL)},
     {"drop_table", "drop_table"},
     {0},
     {0},
     {{"tools.forbid", "Tool \"drop_table\" must not be called", "no call", "1 call (#1)", NULL}}},

    /* require: presence and count */
    {"require: called passes", {CALL("search", "{}", NULL)}, {0}, {.name = "search"}, {0}, {{0}}},
    {"require: absent lists what was called",
     {CALL("checkout", "{}", NULL), CALL("search_x", "{}", NULL), CALL("checkout", "{}", NULL)},
     {0},
     {.name = "search"},
     {0},
     {{"tools.require", "Tool \"search\" must be called", "at least 1 call",
       "0 calls (called: checkout, search_x)", NULL}}},
    {"require: no call at all",
     {{0}},
     {0},
     {.name = "search"},
     {0},
     {{"tools.require", "Tool \"search\" must be called", "at least 1 call",
       "0 calls (called: nothing)", NULL}}},
    {"require: exact 1 with 1 call passes",
     {CALL("charge_card", "{}", NULL), CALL("search", "{}", NULL)},
     {0},
     {.name = "charge_card", .count = "exact=1"},
     {0},
     {{0}}},
    {"require: exact 1 with 2 calls",
     {CALL("charge_card", "{}", NULL), CALL("search", "{}", NULL), CALL("charge_card", "{}", NULL)},
     {0},
     {.name = "charge_card", .count = "exact=1"},
     {0},
     {{"tools.require", "Tool \"charge_card\" must be called", "exactly 1 call", "2 calls",
       "matching calls: #1, #3"}}},
    {"require: min/max below the range",
     {CALL("search", "{}", NULL)},
     {0},
     {.name = "search", .count = "min=2,max=3"},
     {0},
     {{"tools.require", "Tool \"search\" must be called", "between 2 and 3 calls", "1 call",
       "matching calls: #1"}}},
    {"require: min/max inside the range passes",
     {CALL("search", "{}", NULL), CALL("search", "{}", NULL)},
     {0},
     {.name = "search", .count = "min=2,max=3"},
     {0},
     {{0}}},
    {"require: min 2 with one call",
     {CALL("search", "{}", NULL)},
     {0},
     {.name = "search", .count = "min=2"},
     {0},
     {{"tools.require", "Tool \"search\" must be called", "at least 2 calls", "1 call",
       "matching calls: #1"}}},
    {"require: max only allows zero calls",
     {{0}},
     {0},
     {.name = "search", .count = "max=1"},
     {0},
     {{0}}},
    {"require: max 1 with two calls",
     {CALL("search", "{}", NULL), CALL("search", "{}", NULL)},
     {0},
     {.name = "search", .count = "max=1"},
     {0},
     {{"tools.require", "Tool \"search\" must be called", "at most 1 call", "2 calls",
       "matching calls: #1, #2"}}},
    {"require: exact 0 with no call passes",
     {CALL("search", "{}", NULL)},
     {0},
     {.name = "charge_card", .count = "exact=0"},
     {0},
     {{0}}},
    {"require: exact 0 with a call reads as a prohibition",
     {CALL("charge_card", "{}", NULL)},
     {0},
     {.name = "charge_card", .count = "exact=0"},
     {0},
     {{"tools.require", "Tool \"charge_card\" must not be called", "no call", "1 call",
       "matching calls: #1"}}},
    {"require: max 0 with filters",
     {CALL("charge_card", "{\"amount\":500}", NULL), CALL("charge_card", "{\"amount\":5}", NULL)},
     {0},
     {.name = "charge_card", .count = "max=0", .args = {{"amount", "^[0-9]{3,}$"}}},
     {0},
     {{"tools.require", "Tool \"charge_card\" must not be called with matching args", "no call",
       "1 call",
       "2 calls of \"charge_card\", 1 with args amount matching /^[0-9]{3,}$/ (amount was "
       "\"5\"); matching calls: #1"}}},

    /* require: args_match */
    {"args_match: matching value passes",
     {CALL("search", "{\"query\":\"weather today\"}", NULL)},
     {0},
     {.name = "search", .args = {{"query", "weather"}}},
     {0},
     {{0}}},
    {"args_match: mismatch and missing path shown",
     {CALL("search", "{\"query\":\"paris\"}", NULL), CALL("search", "{\"query\":\"rome\"}", NULL),
      CALL("search", "{\"q\":\"weather\"}", NULL)},
     {0},
     {.name = "search", .args = {{"query", "weather"}}},
     {0},
     {{"tools.require", "Tool \"search\" must be called with matching args", "at least 1 call",
       "0 calls",
       "3 calls of \"search\", none with args query matching /weather/ (query was \"paris\", "
       "\"rome\", missing)"}}},
    {"args_match: args that are not JSON never match",
     {{"search", "{not json", NULL}},
     {0},
     {.name = "search", .args = {{"query", "."}}},
     {0},
     {{"tools.require", "Tool \"search\" must be called with matching args", "at least 1 call",
       "0 calls", "1 call of \"search\", none with args query matching /./ (query was missing)"}}},
    {"args_match: nested dot path",
     {CALL("create_user", "{\"user\":{\"name\":\"John Doe\",\"address\":{\"city\":\"Paris\"}}}",
           NULL)},
     {0},
     {.name = "create_user", .args = {{"user.name", "John"}, {"user.address.city", "^Paris$"}}},
     {0},
     {{0}}},
    {"args_match: nested dot path, second path fails",
     {CALL("create_user", "{\"user\":{\"name\":\"John\",\"address\":{\"city\":\"Lyon\"}}}", NULL)},
     {0},
     {.name = "create_user", .args = {{"user.name", "John"}, {"user.address.city", "^Paris$"}}},
     {0},
     {{"tools.require", "Tool \"create_user\" must be called with matching args", "at least 1 call",
       "0 calls",
       "1 call of \"create_user\", none with args user.name matching /John/ and "
       "user.address.city matching /^Paris$/ (user.address.city was \"Lyon\")"}}},
    {"args_match: array index path",
     {CALL("add_to_cart", "{\"items\":[{\"sku\":\"A1\"},{\"sku\":\"B2\"}]}", NULL)},
     {0},
     {.name = "add_to_cart", .args = {{"items.1.sku", "^B2$"}}},
     {0},
     {{0}}},
    {"args_match: array index out of range is missing",
     {CALL("add_to_cart", "{\"items\":[{\"sku\":\"A1\"}]}", NULL)},
     {0},
     {.name = "add_to_cart", .args = {{"items.1.sku", "."}}},
     {0},
     {{"tools.require", "Tool \"add_to_cart\" must be called with matching args", "at least 1 call",
       "0 calls",
       "1 call of \"add_to_cart\", none with args items.1.sku matching /./ (items.1.sku was "
       "missing)"}}},
    {"args_match: number, boolean and object as JSON text",
     {CALL("order", "{\"qty\":42,\"gift\":true,\"opts\":{\"a\":1,\"b\":[1,2]},\"note\":null}",
           NULL)},
     {0},
     {.name = "order",
      .args = {{"qty", "^42$"}, {"gift", "^true$"}, {"opts", "^\\{\"a\":1,\"b\":\\[1,2\\]\\}$"}}},
     {0},
     {{0}}},
    {"args_match: number mismatch shows its text",
     {CALL("order", "{\"qty\":42}", NULL)},
     {0},
     {.name = "order", .args = {{"qty", "^41$"}}},
     {0},
     {{"tools.require", "Tool \"order\" must be called with matching args", "at least 1 call",
       "0 calls", "1 call of \"order\", none with args qty matching /^41$/ (qty was \"42\")"}}},
    {"args_match: /john/i flag",
     {CALL("greet", "{\"name\":\"JOHN\"}", NULL)},
     {0},
     {.name = "greet", .args = {{"name", "/john/i"}}},
     {0},
     {{0}}},
    {"args_match: case-sensitive without the flag",
     {CALL("greet", "{\"name\":\"JOHN\"}", NULL)},
     {0},
     {.name = "greet", .args = {{"name", "john"}}},
     {0},
     {{"tools.require", "Tool \"greet\" must be called with matching args", "at least 1 call",
       "0 calls", "1 call of \"greet\", none with args name matching /john/ (name was \"JOHN\")"}}},

    /* require: result_match / result_not_match */
    {"result_match: object result matched as compact JSON",
     {CALL("checkout", "{}", "{\"status\": \"ok\", \"id\": 7}")},
     {0},
     {.name = "checkout", .result_match = "\"status\":\"ok\",\"id\":7"},
     {0},
     {{0}}},
    {"result_match: string result matched as is",
     {CALL("checkout", "{}", "\"done\"")},
     {0},
     {.name = "checkout", .result_match = "^done$"},
     {0},
     {{0}}},
    {"result_match: a call with no result never matches",
     {CALL("checkout", "{}", NULL), CALL("checkout", "{}", "\"failed\"")},
     {0},
     {.name = "checkout", .result_match = "ok"},
     {0},
     {{"tools.require", "Tool \"checkout\" must be called with matching result", "at least 1 call",
       "0 calls",
       "2 calls of \"checkout\", none with result matching /ok/ (results: no result, "
       "\"failed\")"}}},
    {"result_not_match: a call with no result passes",
     {CALL("calculate_total", "{}", NULL)},
     {0},
     {.name = "calculate_total", .result_not_match = "error|failed"},
     {0},
     {{0}}},
    {"result_not_match: a matching result drops the call",
     {CALL("calculate_total", "{}", "\"error: tax service down\"")},
     {0},
     {.name = "calculate_total", .result_not_match = "error|failed"},
     {0},
     {{"tools.require", "Tool \"calculate_total\" must be called with matching result",
       "at least 1 call", "0 calls",
       "1 call of \"calculate_total\", none with result not matching /error|failed/ (results: "
       "\"error: tax service down\")"}}},
    {"filters in sequence: args then result",
     {CALL("search", "{\"q\":\"weather\"}", "\"error\""),
      CALL("search", "{\"q\":\"news\"}", "\"ok\""),
      CALL("search", "{\"q\":\"weather\"}", "\"ok\"")},
     {0},
     {.name = "search", .count = "exact=2", .args = {{"q", "weather"}}, .result_match = "ok"},
     {0},
     {{"tools.require", "Tool \"search\" must be called with matching args and result",
       "exactly 2 calls", "1 call",
       "3 calls of \"search\", 2 with args q matching /weather/ (q was \"news\"), 1 with result "
       "matching /ok/ (results: \"error\"); matching calls: #3"}}},

    /* require: after */
    {"after: satisfied",
     {CALL("validate_cart", "{}", NULL), CALL("get_shipping_options", "{}", NULL)},
     {0},
     {.name = "get_shipping_options", .after = "validate_cart"},
     {0},
     {{0}}},
    {"after: violated",
     {CALL("get_shipping_options", "{}", NULL), CALL("validate_cart", "{}", NULL)},
     {0},
     {.name = "get_shipping_options", .after = "validate_cart"},
     {0},
     {{"tools.require.after",
       "Tool \"get_shipping_options\" must be called after \"validate_cart\"",
       "a call of \"validate_cart\" before the first call of \"get_shipping_options\"",
       "first \"get_shipping_options\" at call #1, first \"validate_cart\" at call #2", NULL}}},
    {"after: judged on the first call, a later one does not save it",
     {CALL("ship", "{}", NULL), CALL("validate", "{}", NULL), CALL("ship", "{}", NULL)},
     {0},
     {.name = "ship", .after = "validate"},
     {0},
     {{"tools.require.after", "Tool \"ship\" must be called after \"validate\"",
       "a call of \"validate\" before the first call of \"ship\"",
       "first \"ship\" at call #1, first \"validate\" at call #2", NULL}}},
    {"after: the after tool was never called",
     {CALL("get_shipping_options", "{}", NULL)},
     {0},
     {.name = "get_shipping_options", .after = "validate_cart"},
     {0},
     {{"tools.require.after",
       "Tool \"get_shipping_options\" must be called after \"validate_cart\"",
       "a call of \"validate_cart\" before the first call of \"get_shipping_options\"",
       "\"validate_cart\" never called (called: get_shipping_options)", NULL}}},
    {"after: applies to the first call that passed the filters",
     {CALL("ship", "{\"a\":1}", NULL), CALL("validate", "{}", NULL),
      CALL("ship", "{\"a\":2}", NULL)},
     {0},
     {.name = "ship", .args = {{"a", "2"}}, .after = "validate"},
     {0},
     {{0}}},
    {"after: no matching call leaves only the count finding",
     {CALL("validate", "{}", NULL)},
     {0},
     {.name = "ship", .after = "validate"},
     {0},
     {{"tools.require", "Tool \"ship\" must be called", "at least 1 call",
       "0 calls (called: validate)", NULL}}},
    {"after and count both fail",
     {CALL("ship", "{}", NULL), CALL("ship", "{}", NULL)},
     {0},
     {.name = "ship", .count = "exact=1", .after = "validate"},
     {0},
     {{"tools.require", "Tool \"ship\" must be called", "exactly 1 call", "2 calls",
       "matching calls: #1, #2"},
      {"tools.require.after", "Tool \"ship\" must be called after \"validate\"",
       "a call of \"validate\" before the first call of \"ship\"",
       "\"validate\" never called (called: ship)", NULL}}},

    /* forbid_calls */
    {"forbid_calls: no filters forbids every call",
     {CALL("charge_card", "{\"amount\":10}", NULL), CALL("search", "{}", NULL),
      CALL("charge_card", "{\"amount\":20}", "\"declined\"")},
     {0},
     {0},
     {.name = "charge_card"},
     {{"tools.forbid_calls", "Tool \"charge_card\" call forbidden", "no call",
       "call #1, args {\"amount\":10}", NULL},
      {"tools.forbid_calls", "Tool \"charge_card\" call forbidden", "no call",
       "call #3, args {\"amount\":20}, result \"declined\"", NULL}}},
    {"forbid_calls: every filter must match",
     {CALL("database_query", "{\"table\":\"orders\"}", "\"password=1\""),
      CALL("database_query", "{\"table\":\"users\"}", "\"ok\""),
      CALL("database_query", "{\"table\":\"users\"}", NULL),
      CALL("database_query", "{\"table\":\"users\"}", "\"password=hunter2\"")},
     {0},
     {0},
     {.name = "database_query", .args = {{"table", "users"}}, .result_match = "password"},
     {{"tools.forbid_calls", "Tool \"database_query\" call forbidden",
       "no call with args table matching /users/ and result matching /password/",
       "call #4, args {\"table\":\"users\"}, result \"password=hunter2\"", NULL}}},
    {"forbid_calls: filters that match nothing pass",
     {CALL("database_query", "{\"table\":\"orders\"}", NULL)},
     {0},
     {0},
     {.name = "database_query", .args = {{"table", "users"}}},
     {{0}}},
    {"forbid_calls: declined charge",
     {CALL("charge_card", "{}", "{\"error\":\"card declined\"}")},
     {0},
     {0},
     {.name = "charge_card", .result_match = "declined|insufficient"},
     {{"tools.forbid_calls", "Tool \"charge_card\" call forbidden",
       "no call with result matching /declined|insufficient/",
       "call #1, args {}, result \"{\\\"error\\\":\\\"card declined\\\"}\"", NULL}}}};

/* Every case, its calls' args parsed at once or (lazy) on first read: the
 * findings are the same. */
static void run_tool_table(bool lazy)
{
    size_t nlazy = 0;
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct tool_case *tc = &cases[k];
        struct pool p = {0};
        struct an_assert blk = {0};
        size_t nf = 0;
        for (; nf < 4 && tc->forbid[nf]; nf++)
            p.names[nf] = (struct an_name){
                tc->forbid[nf], {"t.test.yaml", 3 + (unsigned)nf, 7}, AN_LEVEL_TURN};
        blk.forbid = nf ? p.names : NULL;
        blk.nforbid = nf;
        if (tc->require.name) {
            make_rule(&p, 0, &tc->require, 10);
            blk.require = &p.rules[0];
            blk.nrequire = 1;
        }
        if (tc->forbid_call.name) {
            make_rule(&p, 1, &tc->forbid_call, 20);
            blk.forbid_calls = &p.rules[1];
            blk.nforbid_calls = 1;
        }
        ut_check_case(tc->title, &blk, tc->calls, lazy, &nlazy, tc->want, 3);
        pool_free(&p);
    }
    if (lazy) /* most of the table's args are plain JSON: built on first read */
        assert_true(nlazy > 30);
}

static void test_tool_table(void **state)
{
    (void)state;
    run_tool_table(false);
}

static void test_tool_table_lazy(void **state)
{
    (void)state;
    run_tool_table(true);
}

/* args_match reads lazily parsed args through the accessor: the first read
 * builds the tree (the call is no longer lazy), a failing filter still
 * fails, and the call is freed whole. */
static void test_lazy_args_match(void **state)
{
    (void)state;
    struct pool p = {0};
    struct rs r = {.name = "search", .args = {{"filters.lang", "^en$"}}};
    make_rule(&p, 0, &r, 5);
    struct an_assert blk = {.require = p.rules, .nrequire = 1};
    struct ut_call spec[] = {CALL("search", "{\"filters\":{\"lang\":\"fr\"}}", NULL),
                             CALL("search", " {\"filters\" : {\"lang\":\"en\"}} ", NULL),
                             {0}};
    size_t n, nlazy = 0;
    struct an_tool_call *calls = ut_calls_make_as(spec, &n, true, &nlazy);
    assert_int_equal(nlazy, 2);
    assert_null(calls[0].args);
    struct an_scope scope = {
        .calls = calls, .ncalls = n, .text = "", .start_ms = 0, .end_ms = 0, .turn = UT_TURN};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 0);
    assert_false(calls[1].args_lazy);
    assert_non_null(calls[1].args);
    assert_ptr_equal(an_tool_call_args(&calls[1]), calls[1].args); /* cached */
    an_findings_release(&f);
    ut_calls_free(calls, n);

    /* only the call that would have matched is gone: the check fails */
    struct ut_call spec2[] = {CALL("search", "{\"filters\":{\"lang\":\"fr\"}}", NULL), {0}};
    nlazy = 0;
    calls = ut_calls_make_as(spec2, &n, true, &nlazy);
    assert_int_equal(nlazy, 1);
    scope.calls = calls;
    scope.ncalls = n;
    assert_int_equal(an_check(&blk, &scope, &f), 1);
    assert_string_equal(f.v[0].detail, "1 call of \"search\", none with args filters.lang "
                                       "matching /^en$/ (filters.lang was \"fr\")");
    an_findings_release(&f);
    ut_calls_free(calls, n);
    pool_free(&p);
}

/* Findings point at where the rule was written: the rule for counts, the
 * `after:` key for ordering, the name for forbid. */
static void test_locations(void **state)
{
    (void)state;
    struct pool p = {0};
    struct rs r = {.name = "ship", .count = "exact=1", .after = "validate"};
    make_rule(&p, 0, &r, 30);
    p.names[0] = (struct an_name){"ship", {"cfg.yaml", 4, 9}, AN_LEVEL_TARGET};
    struct an_assert blk = {.forbid = p.names, .nforbid = 1, .require = p.rules, .nrequire = 1};
    struct ut_call spec[] = {CALL("ship", "{}", NULL), CALL("ship", "{}", NULL), {0}};
    size_t n;
    struct an_tool_call *calls = ut_calls_make(spec, &n);
    struct an_scope scope = {
        .calls = calls, .ncalls = n, .text = "", .start_ms = 0, .end_ms = 0, .turn = -1};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 3);
    assert_string_equal(f.v[0].file, "cfg.yaml");
    assert_int_equal(f.v[0].line, 4);
    assert_int_equal(f.v[0].col, 9);
    assert_int_equal(f.v[1].line, 30);
    assert_int_equal(f.v[1].col, 11);
    assert_int_equal(f.v[2].line, 34);
    assert_int_equal(f.v[2].col, 18);
    for (size_t i = 0; i < 3; i++)
        assert_int_equal(f.v[i].turn, -1);
    an_findings_release(&f);
    ut_calls_free(calls, n);
    pool_free(&p);
}

/* An agent in a loop: ten findings, the last says how many more. */
static void test_forbid_calls_cap(void **state)
{
    (void)state;
    struct pool p = {0};
    struct rs r = {.name = "loop"};
    make_rule(&p, 1, &r, 5);
    struct an_assert blk = {.forbid_calls = &p.rules[1], .nforbid_calls = 1};
    struct ut_call spec[13];
    for (size_t i = 0; i < 12; i++)
        spec[i] = (struct ut_call){"loop", "{}", NULL};
    spec[12] = (struct ut_call){0};
    size_t n;
    struct an_tool_call *calls = ut_calls_make(spec, &n);
    struct an_scope scope = {
        .calls = calls, .ncalls = n, .text = "", .start_ms = 0, .end_ms = 0, .turn = UT_TURN};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 10);
    assert_string_equal(f.v[9].actual, "call #10, args {}");
    assert_string_equal(f.v[9].detail, "and 2 more forbidden calls of \"loop\"");
    assert_null(f.v[8].detail);
    an_findings_release(&f);
    ut_calls_free(calls, n);
    pool_free(&p);
}

/* Long values are cut at 120 bytes, on a character boundary. */
static void test_value_cut(void **state)
{
    (void)state;
    /* "x" then 60 é: byte 120 is the middle of the 60th é. */
    char big[400] = "{\"q\":\"x";
    size_t k = strlen(big);
    for (size_t i = 0; i < 60; i++) {
        memcpy(big + k, "\xc3\xa9", 2);
        k += 2;
    }
    for (size_t i = 0; i < 60; i++)
        big[k++] = 'y';
    memcpy(big + k, "\"}", 3);
    struct pool p = {0};
    struct rs r = {.name = "s", .args = {{"q", "^zzz"}}};
    make_rule(&p, 0, &r, 5);
    struct an_assert blk = {.require = p.rules, .nrequire = 1};
    struct ut_call spec[] = {CALL("s", big, NULL), {0}};
    size_t n;
    struct an_tool_call *calls = ut_calls_make(spec, &n);
    struct an_scope scope = {
        .calls = calls, .ncalls = n, .text = "", .start_ms = 0, .end_ms = 0, .turn = UT_TURN};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &scope, &f), 1);
    char want[400] = "1 call of \"s\", none with args q matching /^zzz/ (q was \"x";
    k = strlen(want);
    for (size_t i = 0; i < 59; i++) {
        memcpy(want + k, "\xc3\xa9", 2);
        k += 2;
    }
    memcpy(want + k, "…\")", sizeof "…\")");
    assert_string_equal(f.v[0].detail, want);
    an_findings_release(&f);
    ut_calls_free(calls, n);
    pool_free(&p);
}

/* ---- an_json_dot_path / an_json_match_text ---- */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tool_table),       cmocka_unit_test(test_tool_table_lazy),
        cmocka_unit_test(test_lazy_args_match),  cmocka_unit_test(test_locations),
        cmocka_unit_test(test_forbid_calls_cap), cmocka_unit_test(test_value_cut),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
