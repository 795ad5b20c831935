/*
 * What appending a run to the history costs as the history grows, through
 * the library's public API (include/ananke/history.h), for
 * docs/performance.md ("Session 12: the history write"):
 *
 *     bench-history-write [TESTS [RUNS [WRITES]]] [--schema3-index]
 *                                       (default 1000 tests, 100 runs, 9)
 *
 * Appends RUNS runs of TESTS passing tests (named and digested as a run of
 * bench_gen_tests files is) to a new history in a temporary directory with
 * an_history_rec_write, as `ananke run` does after its last test, and times
 * each write. Prints one line of JSON: the median of writes 2 to WRITES + 1
 * ("young") and of the last WRITES ("grown"), in ms, and the file's size.
 * --schema3-index: after the first write, index test_results as schema 3
 * did ((test_id, run_id) and (run_id)), to measure what it cost.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ananke/history.h"
#include "ananke/result.h"

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, by_value);
    return v[n / 2];
}

static int schema3_index(const char *path)
{
    sqlite3 *db = NULL;
    int rc = sqlite3_open(path, &db) != SQLITE_OK ||
             sqlite3_exec(db,
                          "CREATE INDEX test_results_test ON test_results(test_id, run_id);"
                          "CREATE INDEX test_results_run ON test_results(run_id);"
                          "DROP INDEX test_results_run_test",
                          NULL, NULL, NULL) != SQLITE_OK;
    if (rc)
        fprintf(stderr, "bench-history-write: %s\n", sqlite3_errmsg(db));
    sqlite3_close(db);
    return rc;
}

static long arg_or(int argc, char **argv, int i, long def)
{
    return i < argc ? strtol(argv[i], NULL, 10) : def;
}

int main(int argc, char **argv)
{
    bool old = argc > 1 && !strcmp(argv[argc - 1], "--schema3-index");
    int nargs = old ? argc - 1 : argc;
    long ntests = arg_or(nargs, argv, 1, 1000), runs = arg_or(nargs, argv, 2, 100),
         writes = arg_or(nargs, argv, 3, 9);
    if (ntests < 1 || writes < 1 || runs < 2 * writes + 1) {
        fprintf(stderr, "usage: bench-history-write [TESTS [RUNS [WRITES]]] [--schema3-index]"
                        " (RUNS > 2 WRITES)\n");
        return 2;
    }
    char dir[] = "/tmp/bench-history-XXXXXX", path[64];
    if (!mkdtemp(dir))
        return 1;
    snprintf(path, sizeof path, "%s/history.sqlite", dir);
    static const unsigned char sum[32] = {1};
    struct an_run_result res = {.start_ms = 1700000000000, .end_ms = 1700000000100};
    for (long i = 1; i <= ntests; i++) {
        struct an_test_result *t = an_run_result_add(&res);
        char b[64];
        snprintf(b, sizeof b, "bench %05ld", i);
        t->name = an_xstrdup(b);
        snprintf(b, sizeof b, "t%05ld.test.yaml", i);
        t->file = an_xstrdup(b);
        t->status = AN_STATUS_PASS;
        t->start_ms = res.start_ms;
        t->end_ms = res.start_ms + 2;
        t->file_sum = sum; /* the loader's digest, borrowed */
    }
    double *ms = calloc((size_t)runs, sizeof *ms);
    struct an_history_run_info info = {.kind = "run", .command = "ananke run", .project_dir = dir};
    int rc = 0;
    for (long k = 0; k < runs && !rc; k++) {
        struct an_history_rec *rec = an_history_rec_new();
        struct an_err err = AN_ERR_INIT;
        int64_t id = 0;
        double t0 = now_ms();
        rc = an_history_rec_write(rec, path, false, &info, &res, &id, &err);
        ms[k] = now_ms() - t0;
        if (rc)
            fprintf(stderr, "bench-history-write: %s\n", err.msg);
        an_history_rec_free(rec);
        if (!rc && k == 0 && old)
            rc = schema3_index(path);
    }
    struct stat sb;
    if (!rc) {
        long long size = stat(path, &sb) ? -1 : (long long)sb.st_size;
        double young = median(ms + 1, (size_t)writes);
        double grown = median(ms + runs - writes, (size_t)writes);
        printf("{\"tests\": %ld, \"runs\": %ld, \"index\": \"%s\", \"young_ms\": %.2f,"
               " \"grown_ms\": %.2f, \"bytes\": %lld}\n",
               ntests, runs, old ? "(test_id, run_id)" : "(run_id, test_id)", young, grown, size);
    }
    free(ms);
    an_run_result_release(&res);
    char side[96];
    static const char *const files[] = {"", "-wal", "-shm"};
    for (size_t i = 0; i < 3; i++) {
        snprintf(side, sizeof side, "%s%s", path, files[i]);
        unlink(side);
    }
    rmdir(dir);
    return rc ? 1 : 0;
}
