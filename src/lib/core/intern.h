/* Interned strings: one process-lifetime copy of each distinct short name,
 * for the fields results hold as static strings (a finding's kind read back
 * from a results.json, core/result_json_read.c). Thread-safe. */
#ifndef ANANKE_CORE_INTERN_H
#define ANANKE_CORE_INTERN_H

/* At most this many distinct names are kept, each at most this long: a
 * results file cannot grow the process without bound. */
#define AN_INTERN_MAX 1024
#define AN_INTERN_MAX_LEN 64

/* The one copy of s, never freed; NULL when s is NULL, longer than
 * AN_INTERN_MAX_LEN, or the table is full (the caller then uses a
 * fallback of its own). */
const char *an_intern(const char *s);

#endif
