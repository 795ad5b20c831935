/*
 * A check kind that exists only in the tests: `{type: word_count, min: 3,
 * max: 50}` on the reply (or, with `of:`, on the state or messages), words
 * being runs of characters other than spaces. It is one row, registered
 * from a constructor through ananke/check_kind.h, following docs/internals.md
 * "Adding a check kind"; tests/e2e/ext-check-word-count runs it with
 * build/ananke-ext (plain build/ananke does not know it).
 */
#include <ctype.h>
#include <stdio.h>

#include "ananke/check_kind.h"

/* `min` and `max` were checked to be whole numbers (their rows' type);
 * what is left is how they go together. */
static int load(struct an_check_ctx *cx, json_t *item, struct an_check_item *out)
{
    json_t *min = json_object_get(item, "min"), *max = json_object_get(item, "max");
    if (json_object_get(item, "value"))
        return an_check_fail(cx, "value", "a word_count check takes 'min' and 'max', not 'value'");
    if (!min && !max)
        return an_check_fail(cx, "type", "a word_count check needs 'min' or 'max'");
    if ((min && json_integer_value(min) < 0) || (max && json_integer_value(max) < 0))
        return an_check_fail(cx, min && json_integer_value(min) < 0 ? "min" : "max",
                             "word counts are at least 0");
    if (min && max && json_integer_value(min) > json_integer_value(max))
        return an_check_fail(cx, "max", "'max' is less than 'min'");
    out->value = item; /* the suite keeps it */
    return 0;
}

static void eval(const struct an_check_item *it, const struct an_scope *s, const char *text,
                 size_t len, struct an_check_verdict *v)
{
    (void)s;
    json_int_t words = 0;
    for (size_t i = 0; i < len; i++)
        words += !isspace((unsigned char)text[i]) &&
                 (i == 0 || isspace((unsigned char)text[i - 1]));
    json_t *jmin = json_object_get(it->value, "min"), *jmax = json_object_get(it->value, "max");
    long long min = jmin ? (long long)json_integer_value(jmin) : 0;
    long long max = jmax ? (long long)json_integer_value(jmax) : -1;
    an_check_verdict_set(v, words >= min && (max < 0 || words <= max));
    char range[64];
    if (jmin && jmax)
        snprintf(range, sizeof range, "%lld to %lld words", min, max);
    else if (jmin)
        snprintf(range, sizeof range, "at least %lld words", min);
    else
        snprintf(range, sizeof range, "at most %lld words", max);
    an_check_verdict_printf(v, AN_CV_SUBJECT, "Output");
    an_check_verdict_printf(v, AN_CV_VERB, "have %s", range);
    an_check_verdict_printf(v, AN_CV_EXPECTED, "%s", range);
    an_check_verdict_printf(v, AN_CV_NEGATED_EXPECTED, "not %s", range);
    an_check_verdict_printf(v, AN_CV_ACTUAL, "%lld word%s in ", (long long)words,
                            words == 1 ? "" : "s");
    if (len)
        an_check_verdict_quote(v, AN_CV_ACTUAL, text, len);
    else
        an_check_verdict_printf(v, AN_CV_ACTUAL, "empty output");
}

static const struct an_check_key keys[] = {
    {"min", AN_CK_INT, "word_count: the fewest words the reply may have.", "{\"minimum\": 0}"},
    {"max", AN_CK_INT, "word_count: the most words the reply may have.", "{\"minimum\": 0}"},
    {NULL, AN_CK_ANY, NULL, NULL},
};

static const struct an_check_kind_def word_count = {
    .name = "word_count",
    .finding = "check.word_count",
    .keys = (const char *const[]){"of", NULL},
    .new_keys = keys,
    .load = load,
    .eval = eval,
    .pure = true,
};

__attribute__((constructor)) static void register_word_count(void)
{
    if (an_check_kind_register(&word_count) < 0)
        __builtin_trap(); /* a row that does not register is a bug of this file */
}
