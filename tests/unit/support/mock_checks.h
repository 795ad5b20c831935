/*
 * Checks the unit tests of the HTTP mocks (test_mock_scenario.c for agui,
 * test_mock_openai.c) share: scenarios that must not load, and rendered
 * answers compared byte for byte. A failure ends the running test through
 * cmocka's assertions. The mocks' own sources are compiled into those tests
 * only, so a protocol reaches in through a callback.
 */
#ifndef ANANKE_TEST_MOCK_CHECKS_H
#define ANANKE_TEST_MOCK_CHECKS_H

#include <stddef.h>

#include "ananke/err.h"
#include "../../../src/mock/mock_plan.h"

/* A scenario that must fail to load, where, and with what message. */
struct mock_bad_scenario {
    const char *yaml;
    const char *where; /* file:line:col */
    const char *msg;   /* a part of the message */
};

/* Loads `yaml` as the scenario "s.yaml" and frees what it loaded; returns
 * the loader's code (checking that a failure leaves no scenario). */
typedef int (*mock_load_fn)(const char *yaml, struct an_err *err);

/* Every case fails with an exit class 2 error at `where` whose message holds
 * `msg`; all cases run before the test fails. */
void mock_assert_bad_scenarios(const struct mock_bad_scenario *cases, size_t n, mock_load_fn load);

/* Fail the test with err's message unless rc is 0 (a scenario that must load). */
void mock_assert_loaded(int rc, const struct an_err *err);

/* The plan as text: writes verbatim, other actions as <sleep N>, <cut>,
 * <stall>. The caller frees it. */
char *mock_plan_text(const struct mock_plan *p);

/* `got` (freed here), rendered from case i's `yaml`, is `expected`. */
void mock_assert_rendered(size_t i, const char *yaml, const char *expected, char *got);

#endif
