/*
 * JSON in unit tests: text parsed (a test fails on bad JSON) and a value
 * compared with the JSON a test expects, both shown when they differ.
 */
#ifndef ANANKE_TEST_JSON_ASSERT_H
#define ANANKE_TEST_JSON_ASSERT_H

#include <jansson.h>

/* text parsed (any JSON value); the caller owns the result */
json_t *ut_json_parse(const char *text);
/* got equals the JSON want_text, else the test fails naming title */
void ut_assert_json(const char *title, const json_t *got, const char *want_text);

#endif
