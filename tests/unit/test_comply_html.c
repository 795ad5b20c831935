/* The comply HTML page and the comply JSON read back (report/comply_html.c,
 * report/comply_read.c): a result with hostile strings makes a page where
 * they are text; a result written as JSON and read back is the same result
 * (its JSON is the same); a file of the wrong shape is an error naming the
 * field, and never echoes its value. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ananke/comply.h"
#include "core/json.h"

#define EVIL "<script>alert(1)</script>\"'&"

static void build(struct an_comply_result *r)
{
    memset(r, 0, sizeof *r);
    r->protocol = an_xstrdup("a2a");
    r->spec = an_xstrdup(EVIL);
    struct an_comply_agent *a = an_comply_add_agent(r, EVIL, "cmd " EVIL);
    a->reqs = an_xcalloc(2, sizeof *a->reqs);
    a->reqs[0] = (struct an_comply_req){.id = an_xstrdup("R-1"),
                                        .level = an_xstrdup("MUST"),
                                        .title = an_xstrdup(EVIL),
                                        .section = an_xstrdup("javascript:alert(2)")};
    a->reqs[1] = (struct an_comply_req){.id = an_xstrdup("R-2"),
                                        .level = an_xstrdup("MUST"),
                                        .title = an_xstrdup("t"),
                                        .section = an_xstrdup("https://example.com/#r2")};
    a->nreqs = 2;
    struct an_comply_test *t = an_comply_add_test(a);
    t->id = an_xstrdup("required.x");
    t->title = an_xstrdup(EVIL);
    t->area = an_xstrdup(EVIL);
    t->required = true;
    t->status = AN_COMPLY_FAIL;
    t->requirements = an_xcalloc(1, sizeof *t->requirements);
    t->requirements[t->nrequirements++] = an_xstrdup("R-1");
    struct an_comply_unmet *u = an_comply_add_unmet(t, "response", 0, EVIL);
    u->expected = an_xstrdup("{\"a\":\""
                             "<b>"
                             "\"}");
    u->diff = an_xcalloc(1, sizeof *u->diff);
    u->diff[u->ndiff++] = an_xstrdup(EVIL);
    an_comply_judge_reqs(a);
}

static char *slurp(const char *path)
{
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    char *s = an_xcalloc(1 << 20, 1);
    size_t n = fread(s, 1, (1 << 20) - 1, f);
    fclose(f);
    s[n] = '\0';
    return s;
}

static size_t count(const char *s, const char *what)
{
    size_t n = 0;
    for (const char *p = s; (p = strstr(p, what)); p++)
        n++;
    return n;
}

static void test_hostile_strings_are_text(void **state)
{
    (void)state;
    struct an_comply_result r;
    build(&r);
    char path[] = "/tmp/comply-html-XXXXXX.html";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    close(fd);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_report_comply_html(&r, path, &err), AN_OK);
    char *page = slurp(path);
    assert_int_equal(count(page, "<script"), 1); /* ours */
    assert_true(count(page, "&lt;script&gt;alert(1)&lt;/script&gt;&quot;&#39;&amp;") >= 6);
    assert_null(strstr(page, "href=\"javascript"));
    assert_non_null(strstr(page, "href=\"https://example.com/#r2\""));
    assert_non_null(strstr(page, "default-src 'none'"));
    assert_non_null(strstr(page, "data-musts=\"2\" data-tested=\"1\" data-met=\"0\""));
    assert_non_null(strstr(page, "data-status=\"not_met\""));
    assert_non_null(strstr(page, "<a href=\"#p0-t0\">FAIL</a>"));
    free(page);
    unlink(path);
    an_comply_result_release(&r);
}

static void test_json_round_trip(void **state)
{
    (void)state;
    struct an_comply_result r, back = {0};
    build(&r);
    char path[] = "/tmp/comply-json-XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    close(fd);
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_report_comply_json(&r, path, &err), AN_OK);
    assert_int_equal(an_comply_result_load(&back, path, &err), AN_OK);
    json_t *a = an_comply_result_to_json(&r), *b = an_comply_result_to_json(&back);
    assert_true(json_equal(a, b));
    json_decref(a);
    json_decref(b);
    unlink(path);
    an_comply_result_release(&r);
    an_comply_result_release(&back);
}

static int load_text(const char *text, struct an_err *err)
{
    char path[] = "/tmp/comply-bad-XXXXXX.json";
    int fd = mkstemps(path, 5);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct an_comply_result r = {0};
    int rc = an_comply_result_load(&r, path, err);
    an_comply_result_release(&r);
    unlink(path);
    return rc;
}

static void test_wrong_shapes(void **state)
{
    (void)state;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(load_text("{\"tool\": \"ananke comply\",\n \"agents\": [}", &err), AN_EPARSE);
    assert_int_equal(err.line, 2);
    assert_int_equal(load_text("{\"tool\": \"ananke run\", \"agents\": []}", &err), AN_ESCHEMA);
    assert_int_equal(load_text("{\"tool\": \"ananke comply\", \"agents\": [{\"name\": \"a\", "
                               "\"tests\": [{\"id\": \"x\", \"status\": \"<secret>\"}]}]}",
                               &err),
                     AN_ESCHEMA);
    assert_non_null(strstr(err.msg, "agents[0].tests[0].status"));
    assert_null(strstr(err.msg, "<secret>"));
    assert_int_equal(load_text("{\"tool\": \"ananke comply\", \"agents\": [{\"name\": \"a\", "
                               "\"tests\": [{\"id\": \"x\", \"status\": \"pass\", "
                               "\"unmet\": [{\"diff\": [1]}]}]}]}",
                               &err),
                     AN_ESCHEMA);
    assert_non_null(
        strstr(err.msg, "agents[0].tests[0].unmet[0].diff: expected an array of strings"));
    assert_int_equal(
        load_text("{\"tool\": \"ananke comply\", \"agents\": [{\"tests\": []}]}", &err),
        AN_ESCHEMA);
    assert_non_null(strstr(err.msg, "agents[0].name"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hostile_strings_are_text),
        cmocka_unit_test(test_json_round_trip),
        cmocka_unit_test(test_wrong_shapes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
