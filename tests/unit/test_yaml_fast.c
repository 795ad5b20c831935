/*
 * The YAML fast path (core/yaml_fast.h) against libyaml: every input it
 * takes must give the tree libyaml gives, node for node and mark for mark,
 * or the same error. Inputs: crafted cases (each feature of the subset,
 * each case it must decline, libyaml's mark corners), documents glued at
 * random from fragments and lines, and every .yaml file of the repository.
 * fuzz/fuzz_yaml_fast.c does the same with libFuzzer's inputs.
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cmocka.h>

#include "core/yaml.h"
#include "core/yaml_fast.h"

/* Where two trees first differ, or NULL when they are the same. */
static const char *tree_diff(const struct an_ynode *x, const struct an_ynode *y, char *why,
                             size_t cap)
{
    if (x->kind != y->kind || x->loc.line != y->loc.line || x->loc.col != y->loc.col ||
        strcmp(x->loc.file, y->loc.file) != 0) {
        snprintf(why, cap, "node %u:%u (kind %d) vs %u:%u (kind %d)", x->loc.line, x->loc.col,
                 (int)x->kind, y->loc.line, y->loc.col, (int)y->kind);
        return why;
    }
    if (x->kind == AN_Y_SCALAR) {
        if (x->len != y->len || memcmp(x->str, y->str, x->len) != 0 || x->str[x->len] ||
            y->str[y->len] || x->quoted != y->quoted || !x->tag != !y->tag ||
            (x->tag && strcmp(x->tag, y->tag) != 0)) {
            snprintf(why, cap, "scalar at %u:%u: '%.*s'%s vs '%.*s'%s", x->loc.line, x->loc.col,
                     (int)x->len, x->str, x->quoted ? " quoted" : "", (int)y->len, y->str,
                     y->quoted ? " quoted" : "");
            return why;
        }
        return NULL;
    }
    if (x->nitems != y->nitems || x->npairs != y->npairs) {
        snprintf(why, cap, "collection at %u:%u: %zu/%zu vs %zu/%zu children", x->loc.line,
                 x->loc.col, x->nitems, x->npairs, y->nitems, y->npairs);
        return why;
    }
    for (size_t i = 0; i < x->nitems; i++)
        if (tree_diff(x->items[i], y->items[i], why, cap))
            return why;
    for (size_t i = 0; i < x->npairs; i++)
        if (tree_diff(x->pairs[i].key, y->pairs[i].key, why, cap) ||
            tree_diff(x->pairs[i].value, y->pairs[i].value, why, cap))
            return why;
    return NULL;
}

/* Load `text` both ways. False when the fast path declined it; otherwise
 * the trees (or the errors) must be the same, and *rc is the outcome. */
static bool same_both_ways(const char *name, const char *text, size_t len, int *rc)
{
    struct an_arena a1 = AN_ARENA_INIT, s1 = AN_ARENA_INIT, a2 = AN_ARENA_INIT, s2 = AN_ARENA_INIT;
    struct an_err e1 = AN_ERR_INIT, e2 = AN_ERR_INIT;
    struct an_ynode *fast = NULL, *slow = NULL;
    int rf = an_yaml_load_mem_with(&fast, name, text, len, &a1, &s1, &e1, AN_YAML_READER_FAST);
    int rs = an_yaml_load_mem_with(&slow, name, text, len, &a2, &s2, &e2, AN_YAML_READER_LIBYAML);
    bool taken = rf != AN_YAML_FAST_DECLINED;
    char why[512];
    if (taken) {
        if (rf != rs)
            fail_msg("%s: fast rc %d (%s), libyaml rc %d (%s)", name, rf, e1.msg, rs, e2.msg);
        if (rf == 0 && tree_diff(fast, slow, why, sizeof why))
            fail_msg("%s: trees differ: %s", name, why);
        if (rf != 0 && (e1.code != e2.code || strcmp(e1.msg, e2.msg) != 0 ||
                        strcmp(e1.file, e2.file) != 0 || e1.line != e2.line || e1.col != e2.col))
            fail_msg("%s: errors differ: %s:%u:%u: %s vs %s:%u:%u: %s", name, e1.file, e1.line,
                     e1.col, e1.msg, e2.file, e2.line, e2.col, e2.msg);
        /* the default reader, which took the fast path, agrees too */
        struct an_arena a3 = AN_ARENA_INIT;
        struct an_err e3 = AN_ERR_INIT;
        struct an_ynode *dflt = NULL;
        int rd = an_yaml_load_mem2(&dflt, name, text, len, &a3, &a3, &e3);
        assert_int_equal(rd, rs);
        if (rd == 0 && tree_diff(dflt, slow, why, sizeof why))
            fail_msg("%s: default reader differs: %s", name, why);
        an_arena_release(&a3);
    } else {
        assert_null(fast);
    }
    *rc = rs;
    an_arena_release(&a1);
    an_arena_release(&s1);
    an_arena_release(&a2);
    an_arena_release(&s2);
    return taken;
}

enum expect { FAST, SLOW };
static const struct {
    enum expect expect;
    const char *text;
} cases[] = {
    /* the typical test file (bench/run.sh) */
    {FAST, "version: \"1.0\"\nname: \"bench 00001\"\nturns:\n"
           "  - user: \"What is the weather in Paris? (00001)\"\n    assert:\n      text:\n"
           "        must_match: [\"sunny\", \"/\\\\b[0-9]+ degrees\\\\b/\"]\n      tools:\n"
           "        require:\n          - name: search\n"},
    /* documents without a node */
    {FAST, ""},
    {FAST, "\n\n"},
    {FAST, "# only a comment\n"},
    {FAST, "  # indented comment\n\n# another"},
    /* block mappings */
    {FAST, "a: 1"},
    {FAST, "a: 1\nb: two words\nc: -3\n"},
    {FAST, "  a: 1\n  b: 2\n"},
    {FAST, "a :  x  \nb:   y # comment\nc: z#not a comment\n"},
    {FAST, "a:\n  b:\n    c: deep\n  d: back\ne: top\n"},
    {FAST, "a: http://x:80/y\nb: a:b\n"},
    {FAST, "url: http://example.com/a?b=c&d=e#frag\n"},
    {FAST, "\"quoted key\": v\n'single key': w\n\"\": empty key\n"},
    {FAST, "a: [1,2]\nb: x, y\nc: a[0]\nd: x{y}\n"},
    {FAST, "a: 1\na: 2\n"}, /* duplicate key: the same error */
    {FAST, "a: 1\nb:\n  a: x\n  a: y\n"},
    {FAST, "key with spaces: value with spaces\n"},
    {FAST, "true: false\nnull: ~\n1: 2\n"},
    /* empty values: a null just after the ':' */
    {FAST, "a:\nb: 1\n"},
    {FAST, "a:\n"},
    {FAST, "a:"},
    {FAST, "a:   \nb:  # comment\n"},
    {FAST, "a:\n  b:\n  c:\n"},
    {FAST, "outer:\n  inner:\nnext: 1\n"},
    /* block sequences */
    {FAST, "- a\n- b\n"},
    {FAST, "  - a\n  - b\n"},
    {FAST, "a:\n  - x\n  - y\nb: 1\n"},
    {FAST, "a:\n- x\n- y\nb: 1\n"}, /* indentless */
    {FAST, "turns:\n- user: x\n  assert: y\n- user: z\n"},
    {FAST, "- a: 1\n  b: 2\n- c: 3\n"},
    {FAST, "-   a: 1\n    b: 2\n"},
    {FAST, "- - a\n  - b\n- - c\n"},
    {FAST, "- - - x\n"},
    {FAST, "-\n- \n-  # c\n- x\n"},
    {FAST, "-\n  a: 1\n-\n  - x\n"},
    {FAST, "a:\n-\n- x\n"},
    {FAST, "- a:\n  - x\n  b: 1\n"},
    {FAST, "- a:\n  b:\n- c:\n"},
    {FAST, "a:\n- b: 1\n  c: 2\nd: 3\n"},
    {FAST, "- \"a\": b\n- 'c': d\n- \"e\"\n"},
    {FAST, "- a : b\n"},
    {FAST, "- --flag\n- -1\n- -x: y\n"},
    {FAST, "- [a, b]\n- {c: d}\n"},
    /* quoted scalars */
    {FAST, "a: 'it''s'\nb: ''''\nc: ''\nd: '  spaced  '\n"},
    {FAST, "a: \"\\\"q\\\" \\\\ \\/ \\n\\t\\r\\0\\a\\b\\v\\f\\e\\ \\N\\_\"\n"},
    {FAST, "a: \"\\x41\\xe9\\u00e9\\u20ac\\U0001F600\\u0000\"\n"},
    {FAST, "a: \"  spaced  \"\nb: \"\"\n"},
    {FAST, "a: \"# not a comment\" # comment\n"},
    {FAST, "a: \"x\"   \n"},
    {FAST, "\"a\\nb\": 1\n"},
    /* flow collections on one line */
    {FAST, "a: []\nb: {}\nc: [ ]\nd: { }\n"},
    {FAST, "a: [x, \"y\", 'z', 1, true]\n"},
    {FAST, "a: [x y, z  ]\n"},
    {FAST, "a: [[1, 2], [3], []]\n"},
    {FAST, "a: {x: 1, y: [2, 3], z: {w: 4}}\n"},
    {FAST, "target: {\"type\":\"http\",\"endpoint\":\"${ENV.URL}\",\"timeout_ms\":1000}\n"},
    {FAST, "a: {'k':v}\n"},
    {FAST, "a: {x : 1}\n"},
    {FAST, "a: [-1, --x, a-b]\n"},
    {FAST, "a: [a#b]\n"},
    {FAST, "a: {a: 1, a: 2}\n"}, /* duplicate key inside a flow mapping */
    {FAST, "a: [x] # comment\n"},
    /* a leading document start */
    {FAST, "---\na: 1\n"},
    {FAST, "--- # comment\n- x\n"},
    {FAST, "# c\n---\na: 1\n"},
    /* characters: columns count characters, not bytes */
    {FAST, "caf\xc3\xa9: na\xc3\xafve\nb: \xe2\x82\xac\xe2\x82\xac x\n\xc3\xa9: [\xc3\xa9, "
           "\"\xc3\xa9\"]\n"},
    {FAST, "- \xf0\x9f\x98\x80: 1\n  b: \"\xf0\x9f\x98\x80\"\n"},
    {FAST, "a: \xc2\xa0x\n"},
    /* the CRLF-free, tab-free everyday corner: a comment after a value at any column */
    {FAST, "a:\n  b: 1\n# c\n      # d\n  c: 2\n"},
    {FAST, "a: 1\n\n\n\nb: 2\n\n"},

    /* declined: libyaml reads these (or fails on them) */
    {SLOW, "---\n"},
    {SLOW, "--- a\n"},
    {SLOW, "a: 1\n---\nb: 2\n"},
    {SLOW, "- a\n---\n- b\n"},
    {SLOW, "---\na: 1\n---\n"},
    {SLOW, "a: 1\n...\n---\nb: 2\n"},
    {SLOW, "a: 1\n...\n"},
    {SLOW, "%YAML 1.1\n---\na: 1\n"},
    {SLOW, "a: &x 1\nb: *x\n"},
    {SLOW, "a: !!str 1\n"},
    {SLOW, "a: !foo 1\n"},
    {SLOW, "a: |\n  text\n"},
    {SLOW, "a: >\n  text\n"},
    {SLOW, "a: plain\n  continued\n"},
    {SLOW, "- plain\n  continued\n"},
    {SLOW, "a: \"multi\n  line\"\n"},
    {SLOW, "a: 'multi\n  line'\n"},
    {SLOW, "a: [1,\n  2]\n"},
    {SLOW, "a: {x: 1,\n  y: 2}\n"},
    {SLOW, "? a\n: b\n"},
    {SLOW, "a:\tb\n"},
    {SLOW, "a: b\r\n"},
    {SLOW, "\xef\xbb\xbf"
           "a: 1\n"},
    {SLOW, "a: \xff\n"},
    {SLOW, "a: \xc0\x80\n"},
    {SLOW, "a: \xed\xa0\x80\n"},
    {SLOW, "a: \xc2\x85\n"},
    {SLOW, "a: \xe2\x80\xa8\n"},
    {SLOW, "a: \x01\n"},
    {SLOW, "a: \x7f\n"},
    {SLOW, "scalar\n"},
    {SLOW, "\"scalar\"\n"},
    {SLOW, "[a, b]\n"},
    {SLOW, "{a: b}\n"},
    {SLOW, "a:\n  just a scalar\n"},
    {SLOW, "a: \"\\L\"\n"},
    {SLOW, "a: \"\\q\"\n"},
    {SLOW, "a: \"\\ud800\"\n"},
    {SLOW, "a: \"\\x4\"\n"},
    {SLOW, "a: \"x\\\n  y\"\n"},
    {SLOW, "a: [x,]\n"},
    {SLOW, "a: [,x]\n"},
    {SLOW, "a: [x: y]\n"},
    {SLOW, "a: {x}\n"},
    {SLOW, "a: {x: }\n"},
    {SLOW, "a: [a:b]\n"},
    {SLOW, "a: {x:1}\n"},
    {SLOW, "a: [x #c]\n"},
    {SLOW, "a: \"x\"#c\n"},
    {SLOW, "a: b: c\n"},
    {SLOW, "c: \"x\": y\n"},
    {SLOW, "a: - b\n"},
    {SLOW, "a: 1\n b: 2\n"},
    {SLOW, "a:\n    b: 1\n  c: 2\n"},
    {SLOW, "- a\nb: 1\n"},
    {SLOW, "a: 1\n- b\n"},
    {SLOW, "- a: 1\n - b\n"},
    {SLOW, "a:b\n"},
    {SLOW, "a\n"},
    {SLOW, "a #c: b\n"},
    {SLOW, ":a: b\n"},
    {SLOW, "?a: b\n"},
    {SLOW, "a: ?x\n"},
    {SLOW, "a: @x\n"},
    {SLOW, "a: `x`\n"},
    {SLOW, "[a]: b\n"},
    {SLOW, "a: [x] y\n"},
    {SLOW, "a: \"x\" y\n"},
    {SLOW, "a: 'x\n"},
    {SLOW, "a: \"x\n"},
    {SLOW, "a: \"x"},
};

/* The file bench/run.sh writes a thousand times: taken, with the events
 * libyaml gives (checked against it in test_cases). */
static void test_typical_file(void **state)
{
    (void)state;
    const char *text = cases[0].text;
    struct an_yfast f;
    assert_true(an_yaml_fast_parse(&f, text, strlen(text)));
    assert_int_equal(f.n, 34);
    yaml_event_t ev;
    an_yaml_fast_event(&f, 15, &ev); /* the [ of must_match */
    assert_int_equal(ev.type, YAML_SEQUENCE_START_EVENT);
    assert_int_equal(ev.start_mark.line, 6);
    assert_int_equal(ev.start_mark.column, 20);
    an_yaml_fast_event(&f, 17, &ev); /* its second item, unescaped */
    assert_int_equal(ev.type, YAML_SCALAR_EVENT);
    assert_int_equal(ev.data.scalar.style, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    assert_int_equal(ev.data.scalar.length, strlen("/\\b[0-9]+ degrees\\b/"));
    assert_memory_equal(ev.data.scalar.value, "/\\b[0-9]+ degrees\\b/", ev.data.scalar.length);
    an_yaml_fast_event(&f, 34, &ev);
    assert_int_equal(ev.type, YAML_STREAM_END_EVENT);
    an_yaml_fast_release(&f);
}

static void test_cases(void **state)
{
    (void)state;
    size_t wrong = 0;
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char name[32];
        snprintf(name, sizeof name, "case%zu.yaml", i);
        int rc;
        bool taken = same_both_ways(name, cases[i].text, strlen(cases[i].text), &rc);
        if (taken != (cases[i].expect == FAST)) {
            print_error("case %zu: the fast path %s \"%s\"\n", i, taken ? "took" : "declined",
                        cases[i].text);
            wrong++;
        }
    }
    assert_int_equal(wrong, 0);
}

/* A key just under and just over the simple-key limit, nesting just under
 * and over the fast path's own depth limit, and a big input. */
static void test_limits(void **state)
{
    (void)state;
    char *buf = malloc(8192);
    assert_non_null(buf);
    int rc;
    /* libyaml drops a simple key 1024 characters on; the fast path stops at 1000 bytes */
    for (size_t n = 990; n <= 1030; n += 10) {
        memset(buf, 'k', n);
        memcpy(buf + n, ": v\n", 5);
        assert_true(same_both_ways("key.yaml", buf, strlen(buf), &rc) == (n <= 1000));
    }
    /* nesting: the fast path declines past 64 levels */
    for (unsigned depth = 60; depth <= 70; depth += 10) {
        size_t o = 0;
        for (unsigned d = 0; d < depth; d++)
            o += (size_t)snprintf(buf + o, 8192 - o, "%*sk:\n", (int)d, "");
        assert_true(same_both_ways("deep.yaml", buf, o, &rc) == (depth <= 60));
        o = (size_t)snprintf(buf, 8192, "a: ");
        for (unsigned d = 0; d < depth; d++)
            buf[o++] = '[';
        for (unsigned d = 0; d < depth; d++)
            buf[o++] = ']';
        buf[o++] = '\n';
        assert_true(same_both_ways("flow.yaml", buf, o, &rc) == (depth <= 60));
    }
    free(buf);
    /* over the fast path's size cap: libyaml reads it */
    size_t big = AN_YAML_FAST_MAX_BYTES + 16;
    char *huge = malloc(big + 1);
    assert_non_null(huge);
    for (size_t i = 0; i + 8 <= big; i += 8)
        snprintf(huge + i, 9, "- %05zu\n", (i / 8) % 100000);
    assert_false(same_both_ways("big.yaml", huge, big / 8 * 8, &rc));
    assert_int_equal(rc, 0);
    free(huge);
}

/* Documents glued from YAML fragments by a fixed pseudo-random sequence:
 * the indentation, quoting and flow corners in combinations nobody wrote
 * by hand. */
static void test_random_documents(void **state)
{
    (void)state;
    /* under valgrind (tests/valgrind.sh) an eighth of them: the same
     * corners, in a sixth of the step's time */
    unsigned rounds = getenv("ANANKE_UNDER_VALGRIND") ? 5000 : 40000;
    static const char *const frag[] = {
        "a",    "b",       "key",     ": ",     ":",      "- ",   "-",   " ",     "  ",
        "\n",   "\n",      "\n  ",    "\n- ",   "\n  - ", " #c",  "#",   "\"x\"", "'y'",
        "''",   "\"\\n\"", "[",       "]",      "{",      "}",    ", ",  ",",     "\xc3\xa9",
        "---",  "...",     "?",       "x:y",    "&a ",    "*a",   "!t ", "|",     ">",
        "\"",   "'",       "1",       "~",      "\n\n",   "    ", "-1",  "a b",   "\"\\u00e9\"",
        "k: v", "\nk: ",   "\n  k: ", "[a, b]", "{a: b}",
    };
    size_t nfrag = sizeof frag / sizeof *frag;
    uint32_t seed = 12345;
    char doc[512];
    size_t taken = 0;
    for (unsigned i = 0; i < rounds; i++) {
        size_t o = 0;
        seed = seed * 1103515245u + 12345u;
        unsigned n = 1 + (seed >> 16) % 24;
        for (unsigned k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            const char *f = frag[(seed >> 16) % nfrag];
            size_t fl = strlen(f);
            if (o + fl >= sizeof doc)
                break;
            memcpy(doc + o, f, fl);
            o += fl;
        }
        doc[o] = '\0';
        int rc;
        taken += same_both_ways("random.yaml", doc, o, &rc);
    }
    print_message("the fast path took %zu of %u random documents\n", taken, rounds);
    assert_true(taken > rounds / 40);

    /* then line by line: indentation against structure */
    static const char *const line[] = {
        "k: v",
        "k:",
        "- x",
        "-",
        "- k: v",
        "- k:",
        "k: [a, b]",
        "j: {a: b}",
        "\"q\": 'v'",
        "# c",
        "",
        "m: v # c",
        "- - x",
        "n: v",
        "o:",
        "-  p: \"w\"",
        "- [x]",
        "r: ''",
        "caf\xc3\xa9: \xc3\xa9",
        "s: a b ",
        "---",
        "t: -1",
        "- {}",
        "u:   ",
    };
    size_t nline = sizeof line / sizeof *line;
    size_t taken2 = 0;
    for (unsigned i = 0; i < rounds; i++) {
        size_t o = 0;
        seed = seed * 1103515245u + 12345u;
        unsigned n = 1 + (seed >> 16) % 12;
        for (unsigned k = 0; k < n; k++) {
            seed = seed * 1103515245u + 12345u;
            unsigned ind = (seed >> 12) % 9; /* mostly 0, 2, 4; sometimes odd */
            ind = ind < 6 ? 2 * (ind % 3) : ind - 5;
            const char *l = line[(seed >> 18) % nline];
            int w = snprintf(doc + o, sizeof doc - o, "%*s%s\n", (int)ind, "", l);
            if (w < 0 || (size_t)w >= sizeof doc - o)
                break;
            o += (size_t)w;
        }
        int rc;
        taken2 += same_both_ways("lines.yaml", doc, o, &rc);
    }
    print_message("the fast path took %zu of %u line-built documents\n", taken2, rounds);
    assert_true(taken2 > rounds / 40);
}

/* Every .yaml file of examples/, docs/ and tests/ (run from the repository
 * root, as ctest does). */
static size_t nfiles, ntaken;

static void walk(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' || !strcmp(e->d_name, "node_modules"))
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode)) {
            walk(path);
            continue;
        }
        size_t nl = strlen(e->d_name);
        if (!S_ISREG(st.st_mode) || nl < 5 ||
            (strcmp(e->d_name + nl - 5, ".yaml") && strcmp(e->d_name + nl - 4, ".yml")))
            continue;
        FILE *f = fopen(path, "rb");
        assert_non_null(f);
        char *text = malloc((size_t)st.st_size + 1);
        assert_non_null(text);
        size_t len = fread(text, 1, (size_t)st.st_size, f);
        fclose(f);
        int rc;
        nfiles++;
        ntaken += same_both_ways(path, text, len, &rc);
        free(text);
    }
    closedir(d);
}

static void test_repository_files(void **state)
{
    (void)state;
    walk("examples");
    walk("docs");
    walk("tests");
    print_message("the fast path took %zu of %zu .yaml files\n", ntaken, nfiles);
    /* the repository is where the common subset comes from: most of it
     * must be taken, or the fast path has quietly stopped working */
    assert_true(nfiles >= 100);
    assert_true(ntaken * 10 >= nfiles * 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_typical_file),     cmocka_unit_test(test_cases),
        cmocka_unit_test(test_limits),           cmocka_unit_test(test_random_documents),
        cmocka_unit_test(test_repository_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
