/* proto/json_patch.h (RFC 6902, the AG-UI STATE_DELTA): a table of
 * patches and what they leave or that they fail, the caps on what a patch
 * may build, and random patches against a reference applied op by op. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/err.h"
#include "core/json.h"
#include "proto/json_patch.h"
#include "support/json_assert.h"

static void test_json_patch(void **state)
{
    (void)state;
    static const struct {
        const char *doc, *ops, *want; /* want NULL: the patch fails */
    } rows[] = {
        {"{}", "[{\"op\":\"add\",\"path\":\"/a\",\"value\":1}]", "{\"a\":1}"},
        {"{\"a\":[1,3]}", "[{\"op\":\"add\",\"path\":\"/a/1\",\"value\":2}]", "{\"a\":[1,2,3]}"},
        {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/-\",\"value\":2}]", "{\"a\":[1,2]}"},
        {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/2\",\"value\":2}]", NULL},
        {"{\"a\":[1]}", "[{\"op\":\"add\",\"path\":\"/a/01\",\"value\":2}]", NULL},
        {"{\"a\":1}", "[{\"op\":\"add\",\"path\":\"\",\"value\":[true]}]", "[true]"},
        {"{\"a\":1}", "[{\"op\":\"add\",\"path\":\"/x/y\",\"value\":1}]", NULL},
        {"{\"a/b\":1,\"m~n\":2}",
         "[{\"op\":\"remove\",\"path\":\"/a~1b\"},"
         "{\"op\":\"replace\",\"path\":\"/m~0n\",\"value\":3}]",
         "{\"m~n\":3}"},
        {"{\"a\":1}", "[{\"op\":\"remove\",\"path\":\"/b\"}]", NULL},
        {"{\"a\":1}", "[{\"op\":\"replace\",\"path\":\"/b\",\"value\":2}]", NULL},
        {"{\"a\":[1,2,3]}", "[{\"op\":\"remove\",\"path\":\"/a/0\"}]", "{\"a\":[2,3]}"},
        {"{\"a\":{\"b\":1},\"c\":[]}", "[{\"op\":\"move\",\"from\":\"/a/b\",\"path\":\"/c/0\"}]",
         "{\"a\":{},\"c\":[1]}"},
        {"{\"a\":[1,2,3]}", "[{\"op\":\"move\",\"from\":\"/a/0\",\"path\":\"/a/2\"}]",
         "{\"a\":[2,3,1]}"},
        {"{\"a\":{\"b\":1}}", "[{\"op\":\"move\",\"from\":\"/a\",\"path\":\"/a/c\"}]", NULL},
        {"{\"a\":{\"b\":1}}",
         "[{\"op\":\"copy\",\"from\":\"/a\",\"path\":\"/z\"},"
         "{\"op\":\"replace\",\"path\":\"/z/b\",\"value\":2}]",
         "{\"a\":{\"b\":1},\"z\":{\"b\":2}}"},
        {"{\"n\":1}", "[{\"op\":\"test\",\"path\":\"/n\",\"value\":1.0}]", "{\"n\":1}"},
        {"{\"o\":{\"x\":1,\"y\":[2]}}",
         "[{\"op\":\"test\",\"path\":\"/o\",\"value\":{\"y\":[2],\"x\":1}}]",
         "{\"o\":{\"x\":1,\"y\":[2]}}"},
        {"{\"n\":1}", "[{\"op\":\"test\",\"path\":\"/n\",\"value\":\"1\"}]", NULL},
        {"{}", "[{\"op\":\"frobnicate\",\"path\":\"/a\"}]", NULL},
        {"{}", "[{\"path\":\"/a\"}]", NULL},
        {"{}", "{\"op\":\"add\"}", NULL},
        {"null", "[{\"op\":\"add\",\"path\":\"\",\"value\":{}}]", "{}"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        char why[256] = "";
        json_t *doc = json_loads(rows[i].doc, JSON_DECODE_ANY, NULL);
        json_t *ops = json_loads(rows[i].ops, JSON_DECODE_ANY, NULL);
        json_t *orig = json_deep_copy(doc);
        int rc = an_json_patch(&doc, ops, NULL, why, sizeof why);
        if (rows[i].want) {
            if (rc)
                fail_msg("row %zu: failed: %s", i, why);
            ut_assert_json(rows[i].ops, doc, rows[i].want);
        } else {
            if (!rc)
                fail_msg("row %zu: patch applied, should have failed", i);
            assert_true(json_equal(doc, orig)); /* atomic: untouched */
            assert_true(why[0] != '\0');
        }
        json_decref(doc);
        json_decref(ops);
        json_decref(orig);
    }
}

/* A patch log of many kinds of change, undone by a failing last operation:
 * the document is as it was. Then the caps: a copy that doubles an array
 * stops at max_bytes before it is made, a document may not nest deeper
 * than AN_JSON_PATCH_MAX_DEPTH, the work of patches is bounded, and the
 * weight kept up to date is the document's. */
static void test_json_patch_caps(void **state)
{
    (void)state;
    char why[256];
    json_t *doc = json_loads("{\"a\":[1,2,3],\"o\":{\"k\":\"v\",\"z\":[true]}}", 0, NULL);
    json_t *orig = json_deep_copy(doc);
    json_t *ops = json_loads(
        "[{\"op\":\"remove\",\"path\":\"/a/0\"},{\"op\":\"add\",\"path\":\"/a/1\",\"value\":9},"
        "{\"op\":\"replace\",\"path\":\"/a/0\",\"value\":{}},{\"op\":\"move\",\"from\":\"/o/z\","
        "\"path\":\"/a/0/m\"},{\"op\":\"copy\",\"from\":\"/o\",\"path\":\"/p\"},"
        "{\"op\":\"remove\",\"path\":\"/o\"},{\"op\":\"add\",\"path\":\"\",\"value\":{\"r\":1}},"
        "{\"op\":\"test\",\"path\":\"/r\",\"value\":2}]",
        0, NULL);
    struct an_json_patch_cap cap = {.bytes = an_json_weight(doc, NULL)};
    uint64_t w0 = cap.bytes;
    assert_int_equal(an_json_patch(&doc, ops, &cap, why, sizeof why), AN_EPROTO);
    assert_true(json_equal(doc, orig));
    assert_int_equal(cap.bytes, w0);
    json_decref(ops);
    /* the same without its failing test: the weight kept is the document's */
    ops = json_loads("[{\"op\":\"remove\",\"path\":\"/a/0\"},{\"op\":\"move\",\"from\":\"/o/z\","
                     "\"path\":\"/a/0\"},{\"op\":\"copy\",\"from\":\"/o\",\"path\":\"/a/0/-\"},"
                     "{\"op\":\"replace\",\"path\":\"/o/k\",\"value\":\"longer value\"}]",
                     0, NULL);
    assert_int_equal(an_json_patch(&doc, ops, &cap, why, sizeof why), 0);
    ut_assert_json("patch", doc,
                   "{\"a\":[[true,{\"k\":\"v\"}],2,3],\"o\":{\"k\":\"longer value\"}}");
    assert_int_equal(cap.bytes, an_json_weight(doc, NULL));
    json_decref(ops);
    json_decref(doc);
    json_decref(orig);

    /* 30 copies, each doubling /a: 2^30 elements without a cap */
    doc = json_loads("{\"a\":[0]}", 0, NULL);
    ops = json_array();
    for (int i = 0; i < 30; i++)
        json_array_append_new(
            ops, json_pack("{s:s,s:s,s:s}", "op", "copy", "from", "/a", "path", "/a/-"));
    cap = (struct an_json_patch_cap){.max_bytes = 1u << 20, .bytes = an_json_weight(doc, NULL)};
    assert_int_equal(an_json_patch(&doc, ops, &cap, why, sizeof why), AN_ELIMIT);
    if (!strstr(why, "more than 1048576 bytes") || !strstr(why, "copy '/a/-'"))
        fail_msg("why: %s", why);
    ut_assert_json("patch", doc, "{\"a\":[0]}");
    assert_int_equal(cap.bytes, an_json_weight(doc, NULL));
    assert_true(cap.work < 8u << 20); /* stopped at the cap, not after */
    /* under a work cap the same patch stops earlier */
    cap = (struct an_json_patch_cap){.bytes = an_json_weight(doc, NULL), .max_work = 4096};
    assert_int_equal(an_json_patch(&doc, ops, &cap, why, sizeof why), AN_ELIMIT);
    if (!strstr(why, "more than 4096 bytes"))
        fail_msg("why: %s", why);
    json_decref(ops);

    /* /a nested as deep as allowed, then a copy of it one level deeper */
    char deep[2 * (AN_JSON_PATCH_MAX_DEPTH - 1) + 1];
    memset(deep, '[', AN_JSON_PATCH_MAX_DEPTH - 1);
    memset(deep + AN_JSON_PATCH_MAX_DEPTH - 1, ']', AN_JSON_PATCH_MAX_DEPTH - 1);
    deep[sizeof deep - 1] = '\0';
    ops = json_pack("[{s:s,s:s,s:o},{s:s,s:s,s:s}]", "op", "add", "path", "/a", "value",
                    json_loads(deep, 0, NULL), "op", "copy", "from", "/a", "path", "/a/0");
    cap = (struct an_json_patch_cap){.bytes = an_json_weight(doc, NULL)};
    assert_int_equal(an_json_patch(&doc, ops, &cap, why, sizeof why), AN_ELIMIT);
    if (!strstr(why, "deeper than 2000 levels"))
        fail_msg("why: %s", why);
    ut_assert_json("patch", doc, "{\"a\":[0]}");
    json_decref(ops);
    json_decref(doc);
}

/* Random patches on random documents: a patch that fails leaves the
 * document equal to what it was, and the weight kept up to date is the
 * document's, whatever the operations did (an undo log, not a copy). */
static unsigned rnd_state = 12345;
static unsigned rnd(unsigned n)
{
    rnd_state = rnd_state * 1103515245u + 12345u;
    return (rnd_state >> 16) % n;
}

static json_t *rnd_value(int depth)
{
    switch (depth > 3 ? rnd(3) : rnd(5)) {
    case 0:
        return json_integer(rnd(10));
    case 1:
        return json_string(rnd(2) ? "s" : "a longer string");
    case 2:
        return json_null();
    case 3: {
        json_t *a = json_array();
        for (unsigned i = rnd(4); i > 0; i--)
            json_array_append_new(a, rnd_value(depth + 1));
        return a;
    }
    default: {
        json_t *o = json_object();
        static const char *const keys[] = {"a", "b", "c~d", "e/f"};
        for (unsigned i = rnd(4); i > 0; i--)
            json_object_set_new(o, keys[rnd(4)], rnd_value(depth + 1));
        return o;
    }
    }
}

/* A pointer into v (escaped), often to a value that is there. */
static void rnd_path(const json_t *v, char *out, size_t cap)
{
    size_t n = 0;
    out[0] = '\0';
    while (rnd(4) && (json_is_array(v) || json_is_object(v))) {
        char tok[16];
        if (json_is_array(v)) {
            size_t sz = json_array_size(v);
            unsigned i = rnd((unsigned)sz + 2);
            if (i == sz + 1)
                snprintf(tok, sizeof tok, "-");
            else
                snprintf(tok, sizeof tok, "%u", i);
            v = i < sz ? json_array_get(v, i) : NULL;
        } else {
            static const char *const keys[] = {"a", "b", "c~0d", "e~1f", "zz"};
            unsigned k = rnd(5);
            snprintf(tok, sizeof tok, "%s", keys[k]);
            static const char *const raw[] = {"a", "b", "c~d", "e/f", "zz"};
            v = json_object_get(v, raw[k]);
        }
        n += (size_t)snprintf(out + n, cap - n, "/%s", tok);
        if (!v || n > cap - 20)
            break;
    }
}

static void test_json_patch_random(void **state)
{
    (void)state;
    static const char *const names[] = {"add", "remove", "replace", "move", "copy", "test"};
    size_t applied = 0, refused = 0;
    for (int round = 0; round < 3000; round++) {
        json_t *doc = rnd_value(0);
        json_t *ops = json_array();
        for (unsigned i = 1 + rnd(5); i > 0; i--) {
            char path[256], from[256];
            rnd_path(doc, path, sizeof path);
            rnd_path(doc, from, sizeof from);
            const char *name = names[rnd(6)];
            json_t *op = json_pack("{s:s,s:s}", "op", name, "path", path);
            if (!strcmp(name, "move") || !strcmp(name, "copy"))
                json_object_set_new(op, "from", json_string(from));
            else if (strcmp(name, "remove"))
                json_object_set_new(op, "value", rnd_value(2));
            json_array_append_new(ops, op);
        }
        json_t *before = json_deep_copy(doc);
        uint64_t w0 = an_json_weight(doc, NULL);
        struct an_json_patch_cap cap = {.bytes = w0, .max_bytes = rnd(4) ? 0 : 600};
        char why[256];
        int rc = an_json_patch(&doc, ops, &cap, why, sizeof why);
        if (rc) {
            refused++;
            if (!json_equal(doc, before))
                fail_msg("round %d: failed patch (%s) changed the document", round, why);
        } else {
            applied++;
        }
        if (cap.bytes != an_json_weight(doc, NULL))
            fail_msg("round %d: weight %llu kept, %llu real", round, (unsigned long long)cap.bytes,
                     (unsigned long long)an_json_weight(doc, NULL));
        /* a document over the cap already may shrink, never grow */
        if (!rc && cap.max_bytes && cap.bytes > cap.max_bytes && cap.bytes > w0)
            fail_msg("round %d: over the cap", round);
        json_decref(before);
        json_decref(ops);
        json_decref(doc);
    }
    assert_true(applied > 300 && refused > 300); /* both paths were taken */
}

/* The decoder ends the turn at max_state_bytes: a STATE_DELTA copy bomb, a
 * STATE_SNAPSHOT over the cap; the cap names itself. */

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_patch),
        cmocka_unit_test(test_json_patch_caps),
        cmocka_unit_test(test_json_patch_random),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
