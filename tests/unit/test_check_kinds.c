/* The check-kind table (ananke/check_kind.h): the JSON Schemas under
 * schema/ are what the table derives, and a registered row is loaded,
 * judged and named in messages like a built-in one.
 * ANANKE_PRINT_CHECK_SCHEMA=1 prints the derived definitions.check (to
 * paste into both schemas after a change to the table). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/check.h"
#include "ananke/check_kind.h"
#include "core/arena.h"
#include "load/check_load.h"
#include "load/loaders.h"

/* The committed schema's definitions.check must equal the derived one. */
static void schema_matches(const char *path)
{
    json_error_t je;
    json_t *doc = json_load_file(path, 0, &je);
    if (!doc)
        fail_msg("%s: %s", path, je.text);
    json_t *committed = json_object_get(json_object_get(doc, "definitions"), "check");
    json_t *derived = an_check_kinds_schema();
    if (getenv("ANANKE_PRINT_CHECK_SCHEMA")) {
        char *t = json_dumps(derived, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        printf("%s\n", t);
        free(t);
    }
    if (!json_equal(committed, derived)) {
        char *t = json_dumps(derived, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fail_msg("%s: definitions.check differs from the check-kind table; derived:\n%s", path, t);
    }
    json_decref(derived);
    json_decref(doc);
}

static void test_schemas(void **state)
{
    (void)state;
    schema_matches("schema/ananke.test.schema.json");
    schema_matches("schema/ananke.config.schema.json");
}

/* The schema's turn types are the loader's table. */
static void test_turn_types(void **state)
{
    (void)state;
    json_t *doc = json_load_file("schema/ananke.test.schema.json", 0, NULL);
    assert_non_null(doc);
    json_t *e = json_object_get(
        json_object_get(
            json_object_get(json_object_get(json_object_get(doc, "definitions"), "turn"),
                            "properties"),
            "type"),
        "enum");
    const char *const *names = an_turn_type_names();
    size_t n = 0;
    for (; names[n]; n++)
        if (!json_is_string(json_array_get(e, n)) ||
            strcmp(json_string_value(json_array_get(e, n)), names[n]))
            fail_msg("turn type %zu: the schema has %s, the loader %s", n,
                     json_string_value(json_array_get(e, n)), names[n]);
    assert_int_equal(json_array_size(e), n);
    json_decref(doc);
}

/* A row of this test: `longer_than: N` on the text. */
static int lt_load(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *n = json_object_get(item, "chars");
    if (!n)
        return an_check_fail(cx, "type", "a longer_than check needs 'chars'");
    out->value = n;
    return 0;
}

static void lt_eval(const struct an_check_item *it, const struct an_scope *s, const char *text,
                    size_t len, struct an_check_verdict *v)
{
    (void)s;
    (void)text;
    json_int_t n = json_integer_value(it->value);
    an_check_verdict_set(v, (json_int_t)len > n);
    an_check_verdict_printf(v, AN_CV_SUBJECT, "Output");
    an_check_verdict_printf(v, AN_CV_VERB, "be longer than %lld characters", (long long)n);
    an_check_verdict_printf(v, AN_CV_EXPECTED, "more than %lld", (long long)n);
    an_check_verdict_printf(v, AN_CV_NEGATED_EXPECTED, "at most %lld", (long long)n);
    an_check_verdict_printf(v, AN_CV_ACTUAL, "%zu characters: ", len);
    an_check_verdict_quote(v, AN_CV_ACTUAL, text, len);
}

static const struct an_check_key lt_keys[] = {
    {"chars", AN_CK_INT, "longer_than: how many characters.", NULL}, {NULL, AN_CK_ANY, NULL, NULL}};
static const struct an_check_kind_def longer_than = {"longer_than",
                                                     "check.longer_than",
                                                     (const char *const[]){"of", NULL},
                                                     lt_keys,
                                                     lt_load,
                                                     lt_eval,
                                                     true,
                                                     false,
                                                     false};

/* names a key that no row defines */
static const struct an_check_kind_def bad_key = {
    "odd", "check.odd", (const char *const[]){"nosuchkey", NULL}, NULL, lt_load, lt_eval, true,
    false, false};

/* impure: the runner knows only script and agent */
static const struct an_check_kind_def impure = {"impure", "check.impure", NULL,  NULL, lt_load,
                                                NULL,     false,          false, false};

static int load_one(const char *check, struct an_check_item *it, struct an_err *err,
                    struct an_arena *a, json_t **item)
{
    struct an_ld ld = {.a = a, .err = err};
    *item = json_loads(check, 0, NULL);
    assert_non_null(*item);
    struct an_ck_src src = {{"t.jsonl", 3, 1}, NULL, check, "."};
    return an_check_item_load(&ld, *item, &src, AN_LEVEL_TEST, it);
}

static void test_register(void **state)
{
    (void)state;
    size_t before = an_check_kind_count();
    assert_int_equal(before, AN_CHECK__BUILTIN);
    assert_string_equal(an_check_kind_name(AN_CHECK_TASK_STATE), "check.task_state");
    int id = an_check_kind_register(&longer_than);
    assert_int_equal(id, AN_CHECK__BUILTIN);
    assert_int_equal(an_check_kind_count(), before + 1);
    assert_int_equal(an_check_kind_register(&longer_than), -1); /* the name is taken */
    assert_int_equal(an_check_kind_register(&bad_key), -1);
    assert_int_equal(an_check_kind_register(&impure), -1); /* nothing would run it */
    enum an_check_kind k;
    assert_ptr_equal(an_check_kind_find("longer_than", &k), &longer_than);
    assert_int_equal((int)k, id);
    assert_string_equal(an_check_kind_name(k), "check.longer_than");
    /* the derived schema knows the new kind and its key */
    json_t *sch = an_check_kinds_schema();
    json_t *props = json_object_get(sch, "properties");
    assert_string_equal(json_string_value(json_object_get(json_object_get(props, "chars"), "type")),
                        "integer");
    json_t *names = json_object_get(json_object_get(props, "type"), "enum");
    assert_string_equal(json_string_value(json_array_get(names, AN_CHECK__BUILTIN)), "longer_than");
    json_decref(sch);
}

static void test_registered_loads_and_judges(void **state)
{
    (void)state;
    static const struct {
        const char *check, *msg;
    } bad[] = {
        {"{\"type\": \"longer_than\", \"chars\": \"x\"}", "'chars' must be a whole number"},
        {"{\"type\": \"longer_than\", \"chars\": 1, \"ignore_case\": true}",
         "'ignore_case' does not apply to a longer_than check"},
        {"{\"type\": \"contains\", \"value\": \"x\", \"chars\": 3}",
         "'chars' does not apply to a contains check"},
        {"{\"type\": \"longer_than\", \"chrs\": 3}",
         "unknown key 'chrs' in an assertion (did you mean 'chars'?)"},
        {"{\"type\": \"longer_thn\", \"chars\": 3}",
         "unknown assertion type 'longer_thn' (did you mean 'longer_than'?)"},
        {"{\"type\": \"longer_than\"}", "a longer_than check needs 'chars'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct an_arena a = AN_ARENA_INIT;
        struct an_err err = AN_ERR_INIT;
        struct an_check_item it;
        json_t *item;
        assert_int_not_equal(load_one(bad[i].check, &it, &err, &a, &item), 0);
        if (strcmp(err.msg, bad[i].msg))
            fail_msg("%s:\n  got  %s\n  want %s", bad[i].check, err.msg, bad[i].msg);
        json_decref(item);
        an_arena_release(&a);
    }
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_check_item it;
    json_t *item;
    assert_int_equal(load_one("{\"type\": \"longer_than\", \"chars\": 5}", &it, &err, &a, &item),
                     0);
    struct an_assert blk = {.checks = &it, .nchecks = 1};
    struct an_scope s = {.text = "short"};
    struct an_findings f = {0};
    assert_int_equal(an_check(&blk, &s, &f), 1);
    assert_string_equal(f.v[0].kind, "check.longer_than");
    assert_string_equal(f.v[0].assertion, "Output must be longer than 5 characters");
    assert_string_equal(f.v[0].actual, "5 characters: \"short\"");
    s.text = "long enough";
    assert_int_equal(an_check(&blk, &s, &f), 0);
    an_findings_release(&f);
    json_decref(item);
    an_arena_release(&a);
}

/* Every kind listed when a type is nothing like any of them. */
static void test_supported(void **state)
{
    (void)state;
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_check_item it;
    json_t *item;
    assert_int_not_equal(load_one("{\"type\": \"zzzzzzzzzz\"}", &it, &err, &a, &item), 0);
    assert_non_null(strstr(err.msg, "(supported: contains, not_contains, equals, regex, "
                                    "json_path, type, tool_called, tool_result, script, agent, "
                                    "action_required, tool_sequence, retrieval_required, "
                                    "json_schema, evidence_required, tool_execution, "
                                    "task_state, longer_than; and an assert block's rules"));
    json_decref(item);
    an_arena_release(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_schemas),   cmocka_unit_test(test_turn_types),
        cmocka_unit_test(test_register),  cmocka_unit_test(test_registered_loads_and_judges),
        cmocka_unit_test(test_supported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
