/* The reporter table (ananke/reporter.h): the library's rows, lookup by
 * name, alias and extension, and what an_reporter_register refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "ananke/reporter.h"

static int write_nothing(const struct an_run_result *r, const char *path, struct an_err *err)
{
    (void)r, (void)path, (void)err;
    return AN_OK;
}

static void builtin_rows_in_order(void **state)
{
    (void)state;
    static const char *const want[] = {"console", "junit", "json",    "tap",
                                       "html",    "jsonl", "markdown"};
    assert_true(an_reporter_count() >= 7);
    for (size_t i = 0; i < 7; i++)
        assert_string_equal(an_reporter_at(i)->name, want[i]);
    assert_null(an_reporter_at(an_reporter_count()));
    assert_null(an_reporter_at(0)->write); /* the console: always on */
}

static void lookup(void **state)
{
    (void)state;
    assert_string_equal(an_reporter_find("md:out.md", 2)->name, "markdown"); /* the alias */
    assert_string_equal(an_reporter_find("json", 4)->name, "json");
    assert_null(an_reporter_find("jso", 3));
    assert_null(an_reporter_find("jsonx", 5));
    assert_string_equal(an_reporter_for_ext("out/r.JSONL")->name, "jsonl");
    assert_string_equal(an_reporter_for_ext("r.xml")->name, "junit");
    assert_non_null(an_reporter_for_ext("page.html")->write_file);
    assert_null(an_reporter_for_ext("v1.5/report")); /* a dot of a directory is no extension */
    assert_null(an_reporter_for_ext("report.txt"));
    /* comply's rows: those with a compliance writer */
    assert_non_null(an_reporter_find("junit", 5)->write_comply);
    assert_null(an_reporter_find("tap", 3)->write_comply);
}

static void register_refuses(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    size_t n = an_reporter_count();
    static const struct an_reporter taken = {.name = "json", .write = write_nothing};
    assert_int_equal(an_reporter_register(&taken, &err), AN_EUSAGE);
    assert_non_null(strstr(err.msg, "'json' exists already"));
    static const struct an_reporter alias_taken = {
        .name = "x1", .alias = "md", .write = write_nothing};
    assert_int_equal(an_reporter_register(&alias_taken, &err), AN_EUSAGE);
    static const struct an_reporter bad_name = {.name = "Csv:x", .write = write_nothing};
    assert_int_equal(an_reporter_register(&bad_name, &err), AN_EUSAGE);
    static const struct an_reporter no_writer = {.name = "none"};
    assert_int_equal(an_reporter_register(&no_writer, &err), AN_EUSAGE);
    assert_int_equal(an_reporter_count(), n);

    static const struct an_reporter ok = {.name = "csv", .ext = ".csv", .write = write_nothing};
    assert_int_equal(an_reporter_register(&ok, &err), AN_OK);
    assert_int_equal(an_reporter_count(), n + 1);
    assert_ptr_equal(an_reporter_at(n), &ok); /* after the library's rows */
    assert_ptr_equal(an_reporter_find("csv", 3), &ok);
    assert_ptr_equal(an_reporter_for_ext("a.csv"), &ok);
    assert_int_equal(an_reporter_register(&ok, &err), AN_EUSAGE); /* once */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(builtin_rows_in_order),
        cmocka_unit_test(lookup),
        cmocka_unit_test(register_refuses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
