/*
 * SQLite databases as the history tests read them back: one value of a
 * query. A failure ends the running test through cmocka's assertions.
 */
#ifndef ANANKE_TEST_SQL_H
#define ANANKE_TEST_SQL_H

#include <stdint.h>

/* The first column of the first row of sql over the database at path
 * (opened read-write, as a second process would). */
int64_t sql_scalar(const char *path, const char *sql);

#endif
