/*
 * Reading a recording without following links (core/nofollow.h): a table
 * of what is planted under a directory and what each call must say.
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "core/nofollow.h"
#include "support/files.h"

static char root[128], outside[300];

static void put(const char *rel, const char *text)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void mk(const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    assert_int_equal(mkdir(p, 0777), 0);
}

static void link_to(const char *target, const char *rel)
{
    char p[512];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    assert_int_equal(symlink(target, p), 0);
}

static int setup(void **state)
{
    if (files_setup(state))
        return -1;
    snprintf(root, sizeof root, "%s", files_dir);
    /* outside the recording: a canary and a directory holding one */
    mk("out");
    mk("out/dir");
    put("out/secret", "{\"canary\": 1}");
    put("out/dir/vars.json", "{\"canary\": 2}");
    snprintf(outside, sizeof outside, "%s/out", root);
    /* the recording */
    mk("rec");
    mk("rec/tests");
    mk("rec/tests/ok");
    put("rec/run.json", "{\"format\": \"ananke-record/1\"}");
    put("rec/tests/ok/vars.json", "{\"a\": 1}");
    put("rec/bad.json", "{not json");
    char t[400];
    snprintf(t, sizeof t, "%s/secret", outside);
    link_to(t, "rec/tests/ok/frames.jsonl"); /* a file linked out */
    snprintf(t, sizeof t, "%s/dir", outside);
    link_to(t, "rec/tests/linked");                   /* a test directory linked out */
    link_to("vars.json", "rec/tests/ok/result.json"); /* even a link inside */
    char p[512];
    snprintf(p, sizeof p, "%s/rec/fifo", root);
    assert_int_equal(mkfifo(p, 0600), 0);
    return 0;
}

static void test_kinds(void **state)
{
    (void)state;
    char rec[300];
    snprintf(rec, sizeof rec, "%s/rec", root);
    static const struct {
        const char *rel;
        enum an_nf_kind kind;
    } rows[] = {
        {"run.json", AN_NF_FILE},
        {"tests/ok/vars.json", AN_NF_FILE},
        {"tests/ok/frames.jsonl", AN_NF_LINK},  /* a link out */
        {"tests/ok/result.json", AN_NF_LINK},   /* a link that stays inside: still a link */
        {"tests/linked/vars.json", AN_NF_LINK}, /* through a linked directory */
        {"tests/linked", AN_NF_LINK},
        {"tests/nope/vars.json", AN_NF_ABSENT},
        {"nope.json", AN_NF_ABSENT},
        {"tests/ok", AN_NF_OTHER},          /* a directory */
        {"fifo", AN_NF_OTHER},              /* opened without blocking, refused */
        {"tests/../run.json", AN_NF_OTHER}, /* not a plain path */
        {"/etc/passwd", AN_NF_OTHER},
    };
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        enum an_nf_kind k = an_nf_kind(rec, rows[i].rel);
        if (k != rows[i].kind)
            fail_msg("row %zu '%s': kind %d, expected %d", i, rows[i].rel, (int)k,
                     (int)rows[i].kind);
    }
    /* a whole path (root NULL): only its last component is checked */
    char p[400];
    snprintf(p, sizeof p, "%s/tests/ok/frames.jsonl", rec);
    assert_int_equal(an_nf_kind(NULL, p), AN_NF_LINK);
    snprintf(p, sizeof p, "%s/run.json", rec);
    assert_int_equal(an_nf_kind(NULL, p), AN_NF_FILE);
}

static void test_reads(void **state)
{
    (void)state;
    char rec[300];
    snprintf(rec, sizeof rec, "%s/rec", root);
    struct an_buf b;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_nf_read(rec, "tests/ok/vars.json", 0, &b, &err), AN_OK);
    assert_int_equal(b.len, 8);
    assert_memory_equal(b.data, "{\"a\": 1}", 8);
    an_buf_release(&b);
    /* a link: refused, naming the file; nothing of the canary read */
    assert_int_equal(an_nf_read(rec, "tests/linked/vars.json", 0, &b, &err), AN_EIO);
    assert_non_null(
        strstr(err.msg, "tests/linked/vars.json' is (or goes through) a symbolic link"));
    assert_null(b.data);
    assert_int_equal(an_nf_read(rec, "nope.json", 0, &b, &err), AN_ENOTFOUND);
    /* the cap names the file */
    assert_int_equal(an_nf_read(rec, "run.json", 4, &b, &err), AN_ELIMIT);
    assert_non_null(strstr(err.msg, "run.json' is larger than 4 bytes"));
    /* JSON, with the file and line of a parse error */
    json_t *v = an_nf_json(rec, "run.json", 0, 0, &err);
    assert_non_null(v);
    json_decref(v);
    assert_null(an_nf_json(rec, "bad.json", 0, 0, &err));
    assert_int_equal(err.code, AN_EPARSE);
    assert_non_null(strstr(err.file, "rec/bad.json"));
    assert_int_equal(err.line, 1);
    assert_null(an_nf_json(rec, "tests/ok/frames.jsonl", 0, 0, &err));
    assert_int_equal(err.code, AN_EIO);
    /* text that would make a tree past the JSON tree cap is never parsed:
     * 2 MiB of empty arrays, about 160 bytes of tree each 3 bytes */
    size_t n = (size_t)2 << 20;
    char *dense = malloc(n + 1);
    assert_non_null(dense);
    size_t at = 0;
    dense[at++] = '[';
    while (at + 4 < n) {
        memcpy(dense + at, "[],", 3);
        at += 3;
    }
    memcpy(dense + at - 1, "]", 2); /* the last comma closes the array */
    put("rec/dense.json", dense);
    free(dense);
    assert_null(an_nf_json(rec, "dense.json", 0, 0, &err));
    assert_int_equal(err.code, AN_ELIMIT);
    assert_non_null(strstr(err.msg, "the JSON tree cap"));
    assert_non_null(strstr(err.file, "rec/dense.json"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kinds),
        cmocka_unit_test(test_reads),
    };
    return cmocka_run_group_tests(tests, setup, files_teardown);
}
