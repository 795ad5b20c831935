/*
 * How every report names a test and shows a duration, so the console, JUnit,
 * HTML and Markdown agree. Strings returned are borrowed from the test or
 * written into the caller's buffer.
 */
#ifndef ANANKE_REPORT_RPT_FORMAT_H
#define ANANKE_REPORT_RPT_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#include "ananke/result.h"
#include "core/buf.h"

/* A JSONL case's own name: t->name without its "ID — " prefix; NULL when
 * the case has none (its name is its id) or t is not a JSONL case (no id).
 * Borrowed from t. */
const char *an_rpt_case_name(const struct an_test_result *t);
/* How a report names a test, appended raw (the caller escapes): "[ID] NAME"
 * or "[ID]" for a JSONL case, the name (or "(unnamed)") for a YAML test. */
void an_rpt_title(struct an_buf *b, const struct an_test_result *t);
/* Milliseconds as seconds for a time="" attribute; negative counts as 0. */
double an_rpt_secs(int64_t ms);

/* "812ms" below 10 s, "12.3s" from there on; negative shows as 0ms. */
const char *an_rpt_ms(char *buf, size_t cap, int64_t ms);

#endif
