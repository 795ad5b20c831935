/*
 * `ananke compare` end to end inside the library: redaction rules, then two
 * hand-written records (docs/record.md) read, paired and written as a pack,
 * and the pack read back. The records cover what the e2e recordings cannot
 * make easily: JSONL ids that pair tests whose names changed, a run made
 * with --filter (filtered_out), a result file that is not JSON (broken), a
 * test run.json lists but results.json lacks (not_run), a skipped case, a
 * slug in run.json that tries to leave the record, and finding kinds the
 * result loader does not know.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/buf.h"
#include "core/sha256.h"
#include "compare/compare_int.h"
#include "support/files.h"

/* --- redaction ------------------------------------------------------------- */

static char *redacted(struct cmp_redactor *r, const char *s)
{
    size_t n = 0;
    char *out = cmp_redact(r, s, strlen(s), &n);
    return out ? out : strdup(s);
}

static void test_redact_presets(void **state)
{
    (void)state;
    static const struct {
        const char *in, *want;
    } rows[] = {
        {"mail jane.doe@example.com now", "mail [redacted] now"},
        {"call 555-123-4567 or +1 (555) 123-4567", "call [redacted] or [redacted]"},
        {"SSN 123-45-6789.", "SSN [redacted]."},
        {"key sk-abcdefghijklmnop", "key [redacted]"},
        {"Authorization: Bearer abc.def-ghi_123", "Authorization: Bearer [redacted]"},
        {"api_key=s3cr3tvalue&x=1", "api_key=[redacted]&x=1"},
        {"{\"api_key\": \"s3cr3tvalue\"}", "{\"api_key\": \"[redacted]\"}"},
        {"password: hunter22", "password: [redacted]"},
        {"order 12345 shipped", NULL},
        {"run 1b4e28ba-2fa1-41d2-883f-0016d3cca427", NULL},
        {"2026-11-22T10:00:00.000Z", NULL},
    };
    const char *specs[] = {"pii", "secrets"};
    struct cmp_redactor *r = NULL;
    assert_int_equal(cmp_redactor_new(&r, specs, 2, NULL), 0);
    assert_true(cmp_redactor_active(r));
    assert_string_equal(cmp_redactor_preset_id(r), "pii+secrets");
    cmp_redactor_file(r, "a.json");
    for (size_t i = 0; i < sizeof rows / sizeof *rows; i++) {
        char *got = redacted(r, rows[i].in);
        const char *want = rows[i].want ? rows[i].want : rows[i].in;
        if (strcmp(got, want))
            fail_msg("'%s': got '%s', want '%s'", rows[i].in, got, want);
        free(got);
    }
    json_t *sum = cmp_redactor_summary(r);
    json_t *cats = json_object_get(sum, "categories");
    assert_int_equal(json_integer_value(json_object_get(cats, "email")), 1);
    assert_int_equal(json_integer_value(json_object_get(cats, "phone")), 2);
    assert_int_equal(json_integer_value(json_object_get(cats, "ssn")), 1);
    assert_int_equal(json_integer_value(json_object_get(cats, "openai_key")), 1);
    assert_int_equal(json_integer_value(json_object_get(cats, "bearer_token")), 1);
    assert_int_equal(json_integer_value(json_object_get(cats, "api_key")), 3);
    assert_int_equal(json_integer_value(json_object_get(sum, "total")), 9);
    json_t *touched = json_object_get(sum, "touched_files");
    assert_int_equal(json_array_size(touched), 1);
    assert_string_equal(json_string_value(json_object_get(json_array_get(touched, 0), "rel_path")),
                        "a.json");
    assert_int_equal(json_integer_value(json_object_get(json_array_get(touched, 0), "count")), 9);
    json_decref(sum);
    cmp_redactor_free(r);
}

/* A --redact pattern PCRE2 gives up on (catastrophic backtracking) redacts
 * the whole text, as a recording's redaction does (run/redact.h): before
 * compare shared that engine it stopped searching and left the text whole. */
static void test_redact_gives_up_closed(void **state)
{
    (void)state;
    const char *specs[] = {"(a+)+$"};
    struct cmp_redactor *r = NULL;
    assert_int_equal(cmp_redactor_new(&r, specs, 1, NULL), 0);
    const char *in = "sk-live-42 aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab";
    size_t n = 0;
    char *got = cmp_redact(r, in, strlen(in), &n);
    assert_non_null(got);
    assert_string_equal(got, "[redacted]");
    free(got);
    json_t *sum = cmp_redactor_summary(r);
    assert_int_equal(json_integer_value(json_object_get(sum, "total")), 1);
    json_decref(sum);
    cmp_redactor_free(r);
}

static void test_redact_regex_secret_json(void **state)
{
    (void)state;
    const char *specs[] = {"/order-(\\d+)/i"};
    struct cmp_redactor *r = NULL;
    assert_int_equal(cmp_redactor_new(&r, specs, 1, NULL), 0);
    assert_string_equal(cmp_redactor_preset_id(r), "custom");
    char *got = redacted(r, "ORDER-42 and order-7");
    assert_string_equal(got, "ORDER-[redacted] and order-[redacted]"); /* group 1 only */
    free(got);

    /* a recorded secret: replaced in strings and in a file's last bytes */
    cmp_redactor_add_secret(r, "TOKEN", "tok-123456");
    cmp_redactor_add_secret(r, "SHORT", "abc"); /* too short: ignored */
    got = redacted(r, "Bearer tok-123456 abc");
    assert_string_equal(got, "Bearer [redacted] abc");
    free(got);
    json_t *v = json_pack("{s:s, s:s, s:[s], s:s}", "text", "x tok-123456 order-9",
                          "new_case_response_href", "order-1/x.json", "list", "order-2",
                          "manifest_key", "order-3/new");
    cmp_redact_json(r, v);
    assert_string_equal(json_string_value(json_object_get(v, "text")),
                        "x [redacted] order-[redacted]");
    /* the pack's own paths are never touched */
    assert_string_equal(json_string_value(json_object_get(v, "new_case_response_href")),
                        "order-1/x.json");
    assert_string_equal(json_string_value(json_object_get(v, "manifest_key")), "order-3/new");
    assert_string_equal(json_string_value(json_array_get(json_object_get(v, "list"), 0)),
                        "order-[redacted]");
    json_decref(v);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "{\"h\":\"tok-123456\", \"o\": \"order-5\"}");
    cmp_redact_bytes(r, &b); /* literals only */
    assert_string_equal(an_buf_cstr(&b), "{\"h\":\"[redacted]\", \"o\": \"order-5\"}");
    an_buf_release(&b);
    cmp_redactor_free(r);

    /* a secret alone activates redaction */
    assert_int_equal(cmp_redactor_new(&r, NULL, 0, NULL), 0);
    assert_false(cmp_redactor_active(r));
    assert_null(cmp_redactor_preset_id(r));
    cmp_redactor_add_secret(r, "TOKEN", "tok-123456");
    assert_string_equal(cmp_redactor_preset_id(r), "env_secrets");
    cmp_redactor_free(r);

    /* a regex that does not compile, an empty one */
    struct an_err err = AN_ERR_INIT;
    const char *bad[] = {"(unclosed"};
    assert_int_equal(cmp_redactor_new(&r, bad, 1, &err), AN_EREGEX);
    assert_non_null(strstr(err.msg, "--redact"));
    cmp_redactor_free(r);
    const char *empty[] = {""};
    assert_int_equal(cmp_redactor_new(&r, empty, 1, &err), AN_EUSAGE);
    cmp_redactor_free(r);
}

/* --- records on disk ---------------------------------------------------------- */

static void put(const char *dir, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(files_dir) + 1; *p; p++)
        if (*p == '/') {
            *p = '\0';
            mkdir(path, 0777);
            *p = '/';
        }
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static const char RUN_JSON[] =
    "{\"format\": \"ananke-record/1\", \"run_id\": \"%s\", \"ananke_version\": \"0.1.0\","
    " \"config\": {\"path\": \"ananke.config.yaml\", \"sha256\": null},"
    " \"target\": {\"type\": \"agui\", \"endpoint\": \"http://127.0.0.1:9/agent\","
    "   \"agentId\": \"x\", \"headers\": {\"X-Key\": \"${ENV.CMP_UNIT_KEY}\"}},"
    " \"started_at\": \"2026-11-22T10:00:00.000Z\", \"ended_at\": \"2026-11-22T10:00:01.000Z\","
    " \"selection\": {\"paths\": [\"cases.jsonl\"], \"filter\": %s, \"shard\": null},"
    " \"options\": {\"parallel\": 1}, \"tests\": [%s]}";

#define TURN(text)                                                                                 \
    "{\"start_ms\": 1, \"end_ms\": 9, \"turns\": [{\"index\": 0, \"kind\": "                       \
    "\"user\", \"status\": \"ok\", \"start_ms\": 1, \"end_ms\": 9, \"input\": \"hi\", "            \
    "\"text\": \"" text "\", \"first_call\": 0, \"ncalls\": 0}], \"tool_calls\": []}"

static void records(char base[256], char new_[256])
{
    snprintf(base, 256, "%s/base", files_dir);
    snprintf(new_, 256, "%s/new", files_dir);
    char buf[4096];
    /* baseline: T1 (old name) passes, T2 fails with a kind the loader does
     * not know, T3 passes, T4 listed but never run, T5 skipped */
    snprintf(
        buf, sizeof buf, RUN_JSON, "b-1", "null",
        "{\"name\": \"T1 \\u2014 old name\", \"id\": \"T1\", \"slug\": \"T1\", \"status\": "
        "\"pass\"},"
        "{\"name\": \"T2 \\u2014 schema\", \"id\": \"T2\", \"slug\": \"../../escape\", \"status\": "
        "\"fail\"},"
        "{\"name\": \"T3 \\u2014 kept\", \"id\": \"T3\", \"slug\": \"T3\", \"status\": \"pass\"},"
        "{\"name\": \"T4 \\u2014 late\", \"id\": \"T4\", \"slug\": \"T4\", \"status\": "
        "\"not_run\"},"
        "{\"name\": \"T5 \\u2014 later\", \"id\": \"T5\", \"slug\": \"T5\", \"status\": \"skip\"}");
    put(base, "run.json", buf);
    put(base, "results.json",
        "{\"ananke\": \"0.1.0\", \"tests\": ["
        "{\"name\": \"T1 \\u2014 old name\", \"id\": \"T1\", \"status\": \"pass\", \"findings\": "
        "[], "
        "\"transcript\": " TURN(
            "Hello <b>there</b>") "},"
                                  "{\"name\": \"T2 \\u2014 schema\", \"id\": \"T2\", \"status\": "
                                  "\"fail\", \"findings\": ["
                                  "{\"kind\": \"check.json_schema\", \"turn\": 1, \"assertion\": "
                                  "\"output matches the schema\","
                                  " \"expected\": \"an object\", \"actual\": \"a string\"}], "
                                  "\"transcript\": " TURN(
                                      "not json") "},"
                                                  "{\"name\": \"T3 \\u2014 kept\", \"id\": \"T3\", "
                                                  "\"status\": \"pass\", \"findings\": [], "
                                                  "\"transcript\": " TURN(
                                                      "ok key-value-123456") "},"
                                                                             "{\"name\": \"T5 "
                                                                             "\\u2014 later\", "
                                                                             "\"id\": \"T5\", "
                                                                             "\"status\": "
                                                                             "\"skip\", "
                                                                             "\"findings\": []}"
                                                                             "]}");
    put(base, "tests/T1/result.json", "{\"name\": \"T1\"}");
    put(base, "tests/T1/frames.jsonl", "");
    put(base, "tests/T3/result.json", "{\"name\": \"T3\"}");
    put(base, "tests/T3/frames.jsonl", "");
    put(files_dir, "escape/result.json", "{\"outside\": true}");
    /* new, run with --filter: T1 renamed and failing, T2 passes, T3's
     * result file is broken, T5 skipped again; T4 not selected */
    snprintf(
        buf, sizeof buf, RUN_JSON, "n-1", "\"T[123]\"",
        "{\"name\": \"T1 \\u2014 new name\", \"id\": \"T1\", \"slug\": \"T1\", \"status\": "
        "\"fail\"},"
        "{\"name\": \"T2 \\u2014 schema\", \"id\": \"T2\", \"slug\": \"T2\", \"status\": \"pass\"},"
        "{\"name\": \"T3 \\u2014 kept\", \"id\": \"T3\", \"slug\": \"T3\", \"status\": \"pass\"},"
        "{\"name\": \"T5 \\u2014 later\", \"id\": \"T5\", \"slug\": \"T5\", \"status\": \"skip\"}");
    put(new_, "run.json", buf);
    put(new_, "results.json",
        "{\"ananke\": \"0.1.0\", \"tests\": ["
        "{\"name\": \"T1 \\u2014 new name\", \"id\": \"T1\", \"status\": \"fail\", \"findings\": ["
        "{\"kind\": \"tools.require\", \"turn\": 1, \"assertion\": \"Tool \\\"a\\\" must be "
        "called\"}], "
        "\"transcript\": " TURN(
            "<script>alert(1)</script>") "},"
                                         "{\"name\": \"T2 \\u2014 schema\", \"id\": \"T2\", "
                                         "\"status\": \"pass\", \"findings\": [], "
                                         "\"transcript\": " TURN(
                                             "{}") "},"
                                                   "{\"name\": \"T3 \\u2014 kept\", \"id\": "
                                                   "\"T3\", \"status\": \"pass\", \"findings\": "
                                                   "[], "
                                                   "\"transcript\": " TURN(
                                                       "ok key-value-123456") "},"
                                                                              "{\"name\": \"T5 "
                                                                              "\\u2014 later\", "
                                                                              "\"id\": \"T5\", "
                                                                              "\"status\": "
                                                                              "\"skip\", "
                                                                              "\"findings\": []}"
                                                                              "]}");
    put(new_, "tests/T1/result.json", "{\"name\": \"T1\"}");
    put(new_, "tests/T1/frames.jsonl",
        "{\"turn\": 1, \"t_ms\": 2, \"data\": \"key-value-123456\"}\n");
    put(new_, "tests/T3/result.json", "{not json");
}

static const struct an_compare_case *find(const struct an_compare *c, const char *id,
                                          struct an_compare_case *k)
{
    for (size_t i = 0; i < an_compare_ncases(c); i++) {
        an_compare_case_at(c, i, k);
        if (!strcmp(k->case_id, id))
            return k;
    }
    fail_msg("no case %s", id);
    return NULL;
}

static json_t *item(json_t *report, const char *id)
{
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(report, "items"), i, v)
    {
        if (!strcmp(json_string_value(json_object_get(v, "case_id")), id))
            return v;
    }
    fail_msg("no item %s", id);
    return NULL;
}

static const char *str(json_t *o, const char *path)
{
    char part[64];
    for (const char *p = path; o && *p;) {
        size_t n = strcspn(p, ".");
        memcpy(part, p, n);
        part[n] = '\0';
        o = json_object_get(o, part);
        p += n + (p[n] == '.');
    }
    return json_is_string(o) ? json_string_value(o) : NULL;
}

static void test_pack(void **state)
{
    (void)state;
    char base[256], new_[256], out[300];
    records(base, new_);
    setenv("CMP_UNIT_KEY", "key-value-123456", 1);
    struct an_compare_opts o = AN_COMPARE_OPTS_INIT;
    o.report_id = "unit";
    o.now_ms = 1795000000000LL;
    struct an_compare *c = NULL;
    struct an_err err = AN_ERR_INIT;
    assert_int_equal(an_compare_load(&c, base, new_, &o, &err), 0);
    assert_int_equal(an_compare_ncases(c), 5);

    struct an_compare_case k;
    /* paired by id though the name changed */
    find(c, "T1", &k);
    assert_string_equal(k.title, "new name");
    assert_string_equal(k.baseline_status, "pass");
    assert_string_equal(k.new_status, "fail");
    assert_int_equal(k.change, AN_CHANGE_REGRESSION);
    assert_int_equal(k.gate, AN_GATE_REQUIRE_APPROVAL);
    assert_string_equal(k.new_root, "wrong_tool_choice");
    find(c, "T2", &k);
    assert_int_equal(k.change, AN_CHANGE_IMPROVEMENT);
    find(c, "T3", &k);
    assert_string_equal(k.new_status, "broken");
    assert_int_equal(k.gate, AN_GATE_REQUIRE_APPROVAL);
    /* not asked for in the filtered new run */
    find(c, "T4", &k);
    assert_string_equal(k.baseline_status, "missing");
    assert_string_equal(k.new_status, "filtered_out");
    assert_int_equal(k.gate, AN_GATE_NONE);
    find(c, "T5", &k);
    assert_string_equal(k.baseline_status, "skip");
    assert_int_equal(k.gate, AN_GATE_NONE);

    /* refused: into an input, and an input's parent */
    snprintf(out, sizeof out, "%s/pack", new_);
    assert_int_equal(an_compare_write(c, out, &err), AN_EUSAGE);
    assert_int_equal(access(out, F_OK), -1);
    assert_int_equal(an_compare_write(c, files_dir, &err), AN_EUSAGE);

    snprintf(out, sizeof out, "%s/out/pack", files_dir);
    assert_int_equal(an_compare_write(c, out, &err), 0);
    an_compare_free(c);

    char path[400];
    snprintf(path, sizeof path, "%s/compare-report.json", out);
    json_t *r = json_load_file(path, 0, NULL);
    assert_non_null(r);
    assert_string_equal(str(r, "report_id"), "unit");
    assert_string_equal(str(r, "generated_at"), "2026-11-18T11:06:40.000Z");
    json_t *t2 = item(r, "T2");
    /* the kind as written in the file: check.json_schema, a format violation */
    assert_string_equal(str(t2, "baseline_root"), "format_violation");
    /* the slug that tried to leave the record was not followed */
    assert_null(json_object_get(json_object_get(t2, "artifacts"), "baseline_frames_href"));
    assert_string_equal(str(t2, "artifacts.baseline_case_response_href"),
                        "assets/case_response/T2/baseline.json");
    json_t *t3 = item(r, "T3");
    assert_string_equal(str(t3, "data_availability.new.status"), "broken");
    assert_string_equal(str(t3, "data_availability.new.reason_code"), "invalid_json");
    assert_string_equal(str(t3, "trace_integrity.new.status"), "broken");
    json_t *t4 = item(r, "T4");
    assert_string_equal(str(t4, "case_status"), "filtered_out");
    assert_string_equal(str(t4, "data_availability.baseline.reason_code"), "not_run");
    assert_string_equal(str(t4, "data_availability.new.reason_code"), "excluded_by_filter");
    assert_string_equal(str(item(r, "T5"), "case_status"), "skipped");
    assert_string_equal(str(item(r, "T1"), "artifacts.new_frames_href"),
                        "new/tests/T1/frames.jsonl");
    json_t *qf = json_object_get(r, "quality_flags");
    assert_true(json_is_true(json_object_get(qf, "portable_paths")));
    assert_true(json_is_true(json_object_get(qf, "self_contained")));

    /* the manifest: every file but itself, with its hash */
    snprintf(path, sizeof path, "%s/artifacts/manifest.json", out);
    json_t *m = json_load_file(path, 0, NULL);
    assert_non_null(m);
    size_t i;
    json_t *e;
    bool saw_report = false;
    json_array_foreach(json_object_get(m, "items"), i, e)
    {
        const char *rel = str(e, "rel_path");
        assert_null(cmp_href_violation(rel));
        assert_string_not_equal(rel, "artifacts/manifest.json");
        saw_report |= !strcmp(rel, "report.html");
        snprintf(path, sizeof path, "%s/%s", out, rel);
        char *text = files_slurp(path);
        size_t n = (size_t)json_integer_value(json_object_get(e, "bytes"));
        char hex[65];
        an_sha256_hex(text, n, hex);
        assert_int_equal(strlen(text), n);
        assert_string_equal(hex, str(e, "sha256"));
        /* the recorded secret is nowhere */
        assert_null(strstr(text, "key-value-123456"));
        free(text);
    }
    assert_true(saw_report);
    json_decref(m);
    snprintf(path, sizeof path, "%s/case-T1.html", out);
    char *page = files_slurp(path);
    assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert_null(strstr(page, "<script"));
    free(page);
    snprintf(path, sizeof path, "%s/case-T4.html", out);
    page = files_slurp(path);
    assert_non_null(strstr(page, "not selected on the new side (filtered out)"));
    free(page);
    /* the inputs are as they were */
    snprintf(path, sizeof path, "%s/tests/T3/result.json", new_);
    char *raw = files_slurp(path);
    assert_string_equal(raw, "{not json");
    free(raw);
    json_decref(r);
    unsetenv("CMP_UNIT_KEY");
}

static void test_not_a_record(void **state)
{
    (void)state;
    char base[256], new_[256], dir[300];
    records(base, new_);
    struct an_compare *c = NULL;
    struct an_err err = AN_ERR_INIT;
    snprintf(dir, sizeof dir, "%s/nothing", files_dir);
    assert_int_equal(an_compare_load(&c, base, dir, NULL, &err), AN_ENOTFOUND);
    assert_null(c);
    mkdir(dir, 0777);
    assert_int_equal(an_compare_load(&c, base, dir, NULL, &err), AN_ENOTFOUND);
    assert_non_null(strstr(err.msg, "run.json"));
    put(dir, "run.json", "{\"format\": \"something-else/1\"}");
    assert_int_equal(an_compare_load(&c, base, dir, NULL, &err), AN_ESCHEMA);
    put(dir, "run.json", "{\"format\": \"ananke-record/1\"}");
    assert_int_equal(an_compare_load(&c, base, dir, NULL, &err), AN_ENOTFOUND);
    assert_non_null(strstr(err.msg, "results.json"));
    put(dir, "results.json", "[1, 2");
    assert_int_equal(an_compare_load(&c, base, dir, NULL, &err), AN_EPARSE);
    const char *bad[] = {"(x"};
    struct an_compare_opts o = AN_COMPARE_OPTS_INIT;
    o.redact = bad;
    o.nredact = 1;
    assert_int_equal(an_compare_load(&c, base, new_, &o, &err), AN_EREGEX);
    assert_null(c);
}

/* quality_flags measure: every *_href of the report and every link of the
 * pages, checked by its text and looked up in the pack. */
static void test_quality_flags(void **state)
{
    (void)state;
    struct cmp_pack p = {0};
    char root[300];
    snprintf(root, sizeof root, "%s/qf", files_dir);
    put(root, "assets/a.json", "{}");
    put(files_dir, "outside.json", "{}");
    p.root = strdup(root);
    an_strmap_init(&p.by_key, &p.arena);
    an_strmap_init(&p.by_rel, &p.arena);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, "{}");
    assert_int_equal(
        cmp_pack_put(&p, "assets/b.json", "x/new/final_output", "application/json", &b, NULL), 0);
    an_buf_release(&b);
    cmp_pack_plan(&p, "report.html", "report/html", "text/html");
    const char page[] = "<a href=\"assets/a.json\">a</a> <a href=\"report.html#top\">r</a>"
                        "<img src=\"data:image/png;base64,AA\"> <a href=\"gone.html\">g</a>"
                        "<a href=\"a&amp;b.json\">amp</a>";
    cmp_pack_scan_links(&p, "case-x.html", page, sizeof page - 1);
    assert_int_equal(p.nlinks, 5);
    assert_string_equal(p.links[4].href, "a&b.json"); /* entities undone */
    json_t *report = json_pack(
        "{s:[{s:{s:s, s:s, s:s, s:s, s:s, s:s}, s:{s:{s:[{s:[{s:s}]}]}}}]}", "items", "artifacts",
        "replay_diff_href", "report.html", "new_final_output_href", "assets/b.json",
        "baseline_case_response_href", "../outside.json", "new_frames_href", "/etc/passwd",
        "new_vars_href", "assets/missing.json", "repro_href", "assets/a.json", "security", "new",
        "signals", "evidence_refs", "manifest_key", "x/new/unknown");
    json_t *q = cmp_quality_flags(report, &p, NULL);
    assert_false(json_is_true(json_object_get(q, "portable_paths")));
    assert_false(json_is_true(json_object_get(q, "self_contained")));
    assert_int_equal(json_integer_value(json_object_get(q, "hrefs_checked")), 12);
    json_t *viol = json_object_get(q, "path_violations"),
           *miss = json_object_get(q, "missing_assets");
    assert_int_equal(json_array_size(viol), 3);
    assert_string_equal(
        json_string_value(json_array_get(viol, 0)),
        "items[0].artifacts.baseline_case_response_href=../outside.json (dot_segment)");
    assert_string_equal(json_string_value(json_array_get(viol, 1)),
                        "items[0].artifacts.new_frames_href=/etc/passwd (absolute)");
    assert_string_equal(json_string_value(json_array_get(viol, 2)),
                        "case-x.html=data:image/png;base64,AA (scheme)");
    assert_int_equal(json_array_size(miss), 4);
    assert_string_equal(json_string_value(json_array_get(miss, 0)),
                        "items[0].artifacts.new_vars_href=assets/missing.json");
    assert_string_equal(json_string_value(json_array_get(miss, 1)),
                        "items[0].security.new.signals[0].evidence_refs[0].manifest_key="
                        "x/new/unknown (no such manifest key)");
    assert_string_equal(json_string_value(json_array_get(miss, 2)), "case-x.html=gone.html");
    assert_string_equal(json_string_value(json_array_get(miss, 3)), "case-x.html=a&b.json");
    assert_int_equal(json_integer_value(json_object_get(q, "path_violations_count")), 3);
    assert_int_equal(json_integer_value(json_object_get(q, "missing_assets_count")), 4);
    json_decref(q);
    json_decref(report);
    cmp_pack_release(&p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_redact_presets),
        cmocka_unit_test(test_redact_regex_secret_json),
        cmocka_unit_test(test_redact_gives_up_closed),
        cmocka_unit_test(test_pack),
        cmocka_unit_test(test_not_a_record),
        cmocka_unit_test(test_quality_flags),
    };
    return cmocka_run_group_tests(tests, files_setup, files_teardown);
}
