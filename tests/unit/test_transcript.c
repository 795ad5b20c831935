/* Turn warnings (core/transcript.c): the first max_warnings of a kind are
 * kept, 10 times as many in all; the rest are counted in one line per kind
 * and in warnings_dropped, which the JSON form carries. And the test
 * scope's text: the turns that ran, joined; the first turn's own when it is
 * the only one. And a kept transcript fitted to its records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <stdlib.h>

#include <cmocka.h>
#include <jansson.h>

#include "ananke/transcript.h"

static size_t count_like(const struct an_turn_rec *r, const char *needle)
{
    size_t n = 0;
    for (size_t i = 0; i < r->nwarnings; i++)
        n += strstr(r->warnings[i], needle) != NULL;
    return n;
}

static void test_one_kind(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    r->max_warnings = 10;
    an_turn_warn(r, "first of its kind");
    for (int i = 0; i < 300000; i++)
        an_turn_warn(r, "unknown event type 'T%d' (event #%d), ignored", i, i + 2);
    an_turn_warn(r, "another kind");
    assert_int_equal(r->nwarnings, 1 + 10 + 1 + 1);
    assert_int_equal(r->warnings_dropped, 300000 - 10);
    assert_int_equal(count_like(r, "unknown event type 'T"), 11);
    assert_string_equal(r->warnings[11],
                        "and 299990 more warnings like 'unknown event type 'T299999' (event "
                        "#300001), ignored', not kept (max_warnings: 10 of a kind)");
    assert_string_equal(r->warnings[12], "another kind");

    json_t *j = an_transcript_to_json(&t, false);
    json_t *turn = json_array_get(json_object_get(j, "turns"), 0);
    assert_int_equal(json_integer_value(json_object_get(turn, "warnings_dropped")), 299990);
    assert_int_equal(json_array_size(json_object_get(turn, "warnings")), 13);
    json_decref(j);

    /* a retry starts over, with the same cap */
    an_turn_reset(r);
    assert_int_equal(r->nwarnings, 0);
    assert_int_equal(r->warnings_dropped, 0);
    assert_int_equal(r->max_warnings, 10);
    for (int i = 0; i < 12; i++)
        an_turn_warn(r, "again %d", i);
    assert_int_equal(r->nwarnings, 11);
    an_transcript_release(&t);
}

/* Kinds told apart by words: 10 x max_warnings in all, then "of other kinds". */
static void test_many_kinds(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    r->max_warnings = 2;
    for (int i = 0; i < 200; i++)
        an_turn_warn(r, "kind %c%c", 'a' + i % 26, 'a' + i / 26);
    for (int i = 0; i < 100000; i++)
        an_turn_warn(r, "kind %c%c", 'a' + i % 26, 'a' + (i / 26) % 26);
    assert_int_equal(r->nwarnings, 20 + 1);
    assert_int_equal(r->warnings_dropped, 200 + 100000 - 20);
    assert_string_equal(r->warnings[20], "and 100180 more warnings of other kinds, not kept "
                                         "(max_warnings: 20 in all)");
    an_transcript_release(&t);
}

/* The default, with no cap set: 100 of a kind. */
static void test_default(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    for (int i = 0; i < 1000; i++)
        an_turn_warn(r, "unknown event type 'X%d'", i);
    assert_int_equal(r->nwarnings, AN_DEFAULT_MAX_WARNINGS + 1);
    assert_int_equal(r->warnings_dropped, 1000 - AN_DEFAULT_MAX_WARNINGS);
    an_turn_warn_dropped(r, SIZE_MAX);
    assert_true(r->warnings_dropped == SIZE_MAX); /* saturates: read back from disk */
    an_transcript_release(&t);
}

/* The test scope of turns with these texts (NULL: none; "-": not run). */
static void scope_of(const char *const *texts, size_t n, const char *want, bool lent)
{
    struct an_transcript t;
    an_transcript_init(&t);
    for (size_t i = 0; i < n; i++) {
        struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
        bool ran = !texts[i] || strcmp(texts[i], "-");
        r->status = ran ? AN_TURN_OK : AN_TURN_NOT_RUN;
        r->text = ran && texts[i] ? strdup(texts[i]) : NULL;
    }
    char *joined = (char *)"untouched";
    struct an_scope s = an_scope_test(&t, &joined);
    assert_string_equal(s.text, want);
    if (lent) {
        assert_null(joined);
        if (t.turns[0].text)
            assert_ptr_equal(s.text, t.turns[0].text); /* not a copy */
    } else {
        assert_non_null(joined);
        assert_ptr_equal(s.text, joined);
    }
    free(joined);
    an_transcript_release(&t);
}

static void test_scope_text(void **state)
{
    (void)state;
    const char *one[] = {"a long answer"}, *none[] = {NULL}, *two[] = {"a", "b"},
               *later[] = {"-", "b"}, *stopped[] = {"a", "-"}, *three[] = {"a", NULL, "c"};
    scope_of(one, 1, "a long answer", true);
    scope_of(none, 1, "", true);
    scope_of(two, 2, "a\nb", false);
    scope_of(later, 2, "\nb", false); /* as always: a line per turn from the second */
    scope_of(stopped, 2, "a", true);  /* the first turn alone ran */
    scope_of(three, 3, "a\n\nc", false);
    scope_of(NULL, 0, "", false);
}

/* A kept transcript gives back its arrays' spare room and keeps every
 * record; it can still grow afterwards, and an empty one holds nothing. */
static void test_fit(void **state)
{
    (void)state;
    struct an_transcript t;
    an_transcript_init(&t);
    an_transcript_fit(&t);
    assert_null(t.calls);
    assert_null(t.turns);
    struct an_turn_rec *r = an_transcript_add_turn(&t, "user");
    r->text = strdup("kept");
    struct an_tool_call *c = an_transcript_add_call(&t, 0);
    c->name = strdup("search");
    r = &t.turns[0];
    r->ncalls = 1;
    assert_true(t.cap_calls > 1 && t.cap_turns > 1);
    an_transcript_fit(&t);
    assert_int_equal(t.cap_calls, 1);
    assert_int_equal(t.cap_turns, 1);
    assert_string_equal(t.turns[0].text, "kept");
    assert_string_equal(t.calls[0].name, "search");
    an_transcript_add_turn(&t, "user")->text = strdup("later");
    an_transcript_add_call(&t, 1)->name = strdup("fetch");
    assert_string_equal(t.turns[0].text, "kept");
    assert_string_equal(t.turns[1].text, "later");
    assert_string_equal(t.calls[0].name, "search");
    assert_string_equal(t.calls[1].name, "fetch");
    an_transcript_drop_calls(&t, 0);
    an_transcript_fit(&t);
    assert_null(t.calls);
    assert_int_equal(t.cap_calls, 0);
    assert_int_equal(t.nturns, 2);
    an_transcript_release(&t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_kind),
        cmocka_unit_test(test_many_kinds),
        cmocka_unit_test(test_default),
        cmocka_unit_test(test_scope_text),
        cmocka_unit_test(test_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
