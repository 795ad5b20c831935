/* The YAML tree: locations, scalar typing, aliases and their limits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/yaml.h"

static struct an_ynode *load(struct an_arena *a, const char *text, struct an_err *err)
{
    struct an_ynode *root = NULL;
    int rc = an_yaml_load_mem(&root, "mem.yaml", text, strlen(text), a, err);
    return rc ? NULL : root;
}

static void test_locations_and_types(void **state)
{
    (void)state;
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_ynode *r = load(&a,
                              "version: \"1.0\"\n"
                              "flag: false\n"
                              "quoted: 'false'\n"
                              "n: 42\n"
                              "list:\n"
                              "  - a\n"
                              "  - {x: 1}\n",
                              &err);
    assert_non_null(r);
    assert_int_equal(r->kind, AN_Y_MAP);
    struct an_ynode *v = an_yaml_get(r, "version");
    assert_true(v->quoted);
    assert_int_equal(v->loc.line, 1);
    assert_int_equal(v->loc.col, 10);
    bool b = true;
    assert_true(an_yaml_as_bool(an_yaml_get(r, "flag"), &b));
    assert_false(b);
    assert_false(an_yaml_as_bool(an_yaml_get(r, "quoted"), &b));
    long long n = 0;
    assert_true(an_yaml_as_int(an_yaml_get(r, "n"), &n));
    assert_int_equal(n, 42);
    struct an_ynode *l = an_yaml_get(r, "list");
    assert_int_equal(l->nitems, 2);
    assert_int_equal(l->items[1]->loc.line, 7);
    assert_int_equal(l->items[1]->loc.col, 5);
    json_t *j = an_yaml_to_json(r, &err);
    char *s = json_dumps(j, JSON_COMPACT);
    assert_string_equal(s, "{\"version\":\"1.0\",\"flag\":false,\"quoted\":\"false\",\"n\":42,"
                           "\"list\":[\"a\",{\"x\":1}]}");
    free(s);
    json_decref(j);
    an_arena_release(&a);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
        unsigned line;
    } rows[] = {
        {"a: 1\n b: 2\n", "invalid YAML", 2},
        {"a: [1, 2\n", "invalid YAML", 2},
        {"a: 1\na: 2\n", "duplicate key 'a'", 2},
        {"a: *nope\n", "unknown alias", 1},
        {"a: \"x\0y\"\n", "binary", 0},
        /* one document a file: a second is an error at its '---', not skipped */
        {"a: 1\n---\nb: 2\n", "a second YAML document", 2},
        {"---\nname: one\n---\nname: two\n", "a second YAML document", 3},
        {"a: 1\n...\n---\nb: 2\n", "a second YAML document", 3},
        {"- x\n--- # empty\n", "a second YAML document", 2},
        {"a: 1\n---\nb: [\n", "a second YAML document", 2},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        struct an_arena a = AN_ARENA_INIT;
        struct an_err err = AN_ERR_INIT;
        struct an_ynode *root = NULL;
        size_t len = i == 4 ? 10 : strlen(rows[i].text);
        assert_int_not_equal(an_yaml_load_mem(&root, "mem.yaml", rows[i].text, len, &a, &err), 0);
        if (!strstr(err.msg, rows[i].msg))
            fail_msg("row %zu: '%s'", i, err.msg);
        assert_int_equal(err.line, rows[i].line);
        if (strstr(rows[i].msg, "second"))
            assert_int_equal(err.col, 1);
        assert_string_equal(err.file, "mem.yaml");
        an_arena_release(&a);
    }
}

static void test_alias_bomb(void **state)
{
    (void)state;
    /* each level multiplies by 9: 9^9 nodes when expanded */
    const char *bomb = "a: &a [x,x,x,x,x,x,x,x,x]\n"
                       "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
                       "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
                       "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
                       "e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
                       "f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]\n"
                       "g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]\n";
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_ynode *root = NULL;
    assert_int_equal(an_yaml_load_mem(&root, "bomb.yaml", bomb, strlen(bomb), &a, &err), AN_ELIMIT);
    assert_non_null(strstr(err.msg, "alias bomb"));
    an_arena_release(&a);

    /* a small alias is fine and shared */
    struct an_ynode *r = load(&a, "base: &b {x: 1}\nother: *b\n", &err);
    assert_non_null(r);
    assert_ptr_equal(an_yaml_get(r, "base"), an_yaml_get(r, "other"));
    an_arena_release(&a);
}

static void test_empty(void **state)
{
    (void)state;
    struct an_arena a = AN_ARENA_INIT;
    struct an_err err = AN_ERR_INIT;
    struct an_ynode *r = load(&a, "", &err);
    assert_non_null(r);
    assert_int_equal(r->kind, AN_Y_MAP);
    assert_int_equal(r->npairs, 0);
    an_arena_release(&a);
}

/* The words files repeat point to one static copy (issue 26); any other
 * scalar, a word's prefix or extension included, gets its own. Each reads
 * as written either way, on the fast reader and on libyaml. */
static void common_words_shared(void **state)
{
    (void)state;
    static const char *const text[2] = {
        "version: \"1.0\"\nname: user\nturns: [assert, tools, names, nam, 'name', \"\"]\n",
        "version: \"1.0\"\nname: user\nturns: [assert, tools, names, nam, 'name', \"\"]\n"
        "multi: |\n  x\n",
    }; /* the block scalar sends the second to libyaml */
    const char *want[] = {"assert", "tools", "names", "nam", "name", ""};
    bool shared[] = {true, true, false, false, true, false};
    const char *first[6] = {0};
    struct an_arena a[2] = {AN_ARENA_INIT, AN_ARENA_INIT}; /* both live: copies differ */
    for (int k = 0; k < 2; k++) {
        struct an_err err = AN_ERR_INIT;
        struct an_ynode *r = load(&a[k], text[k], &err);
        assert_non_null(r);
        assert_string_equal(an_yaml_get(r, "version")->str, "1.0");
        assert_string_equal(an_yaml_get(r, "name")->str, "user");
        struct an_ynode *v = an_yaml_get(r, "turns");
        assert_int_equal(v->nitems, 6);
        for (size_t i = 0; i < 6; i++) {
            assert_string_equal(v->items[i]->str, want[i]);
            assert_int_equal(v->items[i]->len, strlen(want[i]));
            if (k == 0)
                first[i] = v->items[i]->str;
            else if (shared[i])
                assert_ptr_equal(v->items[i]->str, first[i]);
            else
                assert_ptr_not_equal(v->items[i]->str, first[i]);
        }
        assert_true(v->items[4]->quoted);
    }
    an_arena_release(&a[0]);
    an_arena_release(&a[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_locations_and_types),
        cmocka_unit_test(common_words_shared),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_alias_bomb),
        cmocka_unit_test(test_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
