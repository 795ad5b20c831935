/*
 * A history database for the history tests (test_history.c, the schema
 * and the queries; test_history_write.c, what a run's write costs): one
 * file under files_dir at a time, its values read back, and runs of named
 * tests appended through the library's write. A failure ends the running
 * test through cmocka's assertions.
 */
#ifndef ANANKE_TEST_HISTORY_DB_H
#define ANANKE_TEST_HISTORY_DB_H

#include <stddef.h>
#include <stdint.h>

/* the database the helpers below use: files_dir/NAME after hist_fresh */
extern char hist_db[128];
/* A new database path files_dir/name, nothing there yet (nor its WAL). */
void hist_fresh(const char *name);
/* The first column of the first row of sql. */
int64_t hist_scalar(const char *sql);
/* Its text ("" for NULL), in a static buffer. */
const char *hist_text(const char *sql);
void hist_exec(const char *sql);
/* files_dir/name holding text. */
void hist_file(const char *name, const char *text);
/* The clock of the runs hist_add_run appends (a minute apart). */
extern int64_t hist_clock_ms;
/* One run: tests[i] named names[i] (file "NAME.test.yaml") with outcome
 * outcomes[i] ('p', 'f', 'e', 's') lasting durations[i] ms (NULL: 10 ms
 * each); its id. max_text: the run's max_text_bytes. */
int64_t hist_add_run(size_t n, const char *const *names, const char *outcomes,
                     const int64_t *durations, int64_t max_text);

#endif
