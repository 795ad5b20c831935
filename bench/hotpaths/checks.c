/*
 * Assertion evaluation through the library's public API
 * (include/ananke/check.h), for bench/hotpaths.sh:
 *
 *     bench-checks [CALLS [ASSERTIONS]]     (default 10000 and 100)
 *
 * Writes a config and a one-turn test whose `assert:` holds ASSERTIONS
 * assertions of every kind a turn is judged on (tools.require with
 * args_match and result_match, tools.forbid_calls, tools.forbid,
 * text.must_match / must_not_match, typed checks: contains, regex,
 * tool_called with arguments, tool_result), loads them with an_suite_load,
 * builds a transcript of CALLS tool calls (parsed arguments and results)
 * and a text, then times an_assert_for_turn + an_check on it: the best of 5.
 * Every assertion passes, as in a green run. Prints one line of JSON.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ananke/check.h"
#include "ananke/load.h"
#include "ananke/transcript.h"

#define NAMES 50

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* The assertions, in rounds over the kinds until there are `n`. */
static void write_test(FILE *f, int n, int ncalls)
{
    int base = (ncalls / NAMES - 1) * NAMES; /* a block of calls that exists */
    int k[8] = {0}, made = 0;
    char req[1 << 16] = "", fc[1 << 16] = "", fb[1 << 14] = "", mm[1 << 14] = "", mn[1 << 14] = "",
                  ck[1 << 16] = "";
#define ADD(buf, ...) snprintf(buf + strlen(buf), sizeof buf - strlen(buf), __VA_ARGS__)
    while (made < n) {
        switch (made % 8) {
        case 0:
        case 1: /* tools.require, every other one with filters */
            if (k[0] % 2)
                ADD(req,
                    "        - name: tool_%d\n          args_match: {query: \"/city [0-9]+/\"}\n"
                    "          result_match: \"\\\"status\\\":\\\"ok\\\"\"\n"
                    "          count: {min: 10}\n",
                    k[0] % NAMES);
            else
                ADD(req, "        - name: tool_%d\n", k[0] % NAMES);
            k[0]++;
            break;
        case 2: /* tools.forbid_calls: a filter no call matches */
            ADD(fc, "        - name: tool_%d\n          args_match: {query: \"DELETE\"}\n",
                k[1]++ % NAMES);
            break;
        case 3:
            ADD(fb, "        - danger_%d\n", k[2]++);
            break;
        case 4:
            ADD(mm, "        - \"/\\\\b%d degrees\\\\b/\"\n", 21);
            k[3]++;
            break;
        case 5:
            ADD(mn, "        - \"/error %d/i\"\n", k[4]++);
            break;
        default: /* typed checks */
            switch (k[5]++ % 4) {
            case 0:
                ADD(ck, "      - {type: contains, value: \"sunny\"}\n");
                break;
            case 1:
                ADD(ck, "      - {type: regex, pattern: \"/Paris/\"}\n");
                break;
            case 2:
                ADD(ck, "      - {type: tool_called, name: tool_%d, arguments: {n: %d}}\n",
                    k[5] % NAMES, base + k[5] % NAMES);
                break;
            default:
                ADD(ck,
                    "      - {type: tool_result, value: {tool: tool_%d, result: {status: ok}}}\n",
                    k[5] % NAMES);
            }
        }
        made++;
    }
    fprintf(f, "version: \"1.0\"\nname: checks\nturns:\n  - user: \"go\"\n    assert:\n");
    fprintf(f, "      tools:\n");
    if (*req)
        fprintf(f, "        require:\n%s", req);
    if (*fc)
        fprintf(f, "        forbid_calls:\n%s", fc);
    if (*fb)
        fprintf(f, "        forbid:\n%s", fb);
    fprintf(f, "      text:\n");
    if (*mm)
        fprintf(f, "        must_match:\n%s", mm);
    if (*mn)
        fprintf(f, "        must_not_match:\n%s", mn);
    if (*ck)
        fprintf(f, "      checks:\n%s", ck);
#undef ADD
}

int main(int argc, char **argv)
{
    int ncalls = argc > 1 ? atoi(argv[1]) : 10000;
    int nassert = argc > 2 ? atoi(argv[2]) : 100;
    if (ncalls < NAMES || nassert < 1) {
        fprintf(stderr, "usage: bench-checks [CALLS >= %d [ASSERTIONS >= 1]]\n", NAMES);
        return 2;
    }
    char dir[] = "/tmp/ananke-bench-checks-XXXXXX", cfg[64], test[64];
    if (!mkdtemp(dir))
        return 2;
    snprintf(cfg, sizeof cfg, "%s/ananke.config.yaml", dir);
    snprintf(test, sizeof test, "%s/c.test.yaml", dir);
    FILE *f = fopen(cfg, "w");
    fprintf(f, "version: \"1.0\"\ntarget:\n  type: agui\n  endpoint: \"http://127.0.0.1:9/a\"\n  "
               "agentId: \"bench\"\n");
    fclose(f);
    f = fopen(test, "w");
    write_test(f, nassert, ncalls);
    fclose(f);

    struct an_load_opts lo = AN_LOAD_OPTS_INIT;
    const char *paths[] = {test};
    lo.config_path = cfg;
    lo.paths = paths;
    lo.npaths = 1;
    struct an_suite *suite = NULL;
    struct an_errlist errs = {0};
    int rc = an_suite_load(&suite, &lo, &errs);
    unlink(cfg);
    unlink(test);
    rmdir(dir);
    if (rc || suite->ntests != 1) {
        fprintf(stderr, "bench-checks: the generated test does not load (%d)\n", rc);
        for (size_t i = 0; i < errs.n; i++)
            fprintf(stderr, "  %s:%u: %s\n", errs.v[i].file, errs.v[i].line, errs.v[i].msg);
        return 2;
    }
    const struct an_test *t = &suite->tests[0];

    struct an_transcript tr;
    an_transcript_init(&tr);
    struct an_turn_rec *r = an_transcript_add_turn(&tr, "user");
    r->text = strdup("The weather in Paris is sunny, 21 degrees, with a light breeze.");
    r->start_ms = 1000;
    r->end_ms = 2000 + ncalls;
    for (int i = 0; i < ncalls; i++) {
        struct an_tool_call *c = an_transcript_add_call(&tr, 0);
        char name[32], args[128];
        snprintf(name, sizeof name, "tool_%d", i % NAMES);
        snprintf(args, sizeof args, "{\"query\":\"weather in city %d\",\"n\":%d}", i, i);
        c->id = strdup(name);
        c->name = strdup(name);
        c->args_text = strdup(args);
        c->args = json_loads(args, 0, NULL);
        c->result = json_pack("{s:s,s:i}", "status", "ok", "value", i);
        c->args_done = true;
        c->start_ms = c->end_ms = c->result_ms = c->ts_ms = 1500 + i;
    }
    r->ncalls = tr.ncalls;

    double best = 1e9;
    size_t nfind = 0;
    for (int rep = 0; rep < 5; rep++) {
        double t0 = now_s();
        struct an_assert blk, own_test, own_turn;
        an_assert_expand(t->assert, &own_test);
        an_assert_expand(t->turns[0].assert, &own_turn);
        an_assert_for_turn(&blk, &suite->config.target.assert, &own_test, &own_turn);
        struct an_scope sc = an_scope_turn(&tr, 0);
        struct an_findings fs = {0};
        size_t have = blk.nrequire + blk.nforbid_calls + blk.nforbid + blk.nmust_match +
                      blk.nmust_not_match + blk.nchecks;
        if (have != (size_t)nassert) {
            fprintf(stderr, "bench-checks: %zu assertions loaded, not %d\n", have, nassert);
            return 2;
        }
        nfind = an_check(&blk, &sc, &fs);
        an_assert_release(&blk);
        double s = now_s() - t0;
        if (nfind)
            for (size_t i = 0; i < fs.n; i++)
                fprintf(stderr, "finding: %s: %s\n", fs.v[i].assertion, fs.v[i].actual);
        an_findings_release(&fs);
        if (s < best)
            best = s;
    }
    printf("{\"calls\":%d,\"assertions\":%d,\"findings\":%zu,\"seconds\":%.6f}\n", ncalls, nassert,
           nfind, best);
    an_transcript_release(&tr);
    an_suite_free(suite);
    an_errlist_release(&errs);
    return nfind ? 1 : 0;
}
