/* `comply --expected-failures FILE` (docs/comply.md "Expected failures"):
 * known deviations of each agent, as test ids or requirement ids.
 *
 * Ownership: the list owns its strings (an_comply_xlist_release). The
 * judging calls change the tests' status to XFAIL or STALE and set their
 * expected_failure (owned by the test). */
#ifndef ANANKE_RUN_COMPLY_EXPECTED_H
#define ANANKE_RUN_COMPLY_EXPECTED_H

#include <stdbool.h>
#include <stdio.h>

#include "ananke/comply.h"
#include "ananke/err.h"

struct an_comply_xentry {
    char *agent, *id;
    char *where;  /* "FILE:LINE:COL" */
    char *reason; /* or NULL */
    bool failed;  /* a test it names (or that cites it) failed */
    bool passed;  /* one passed */
    bool agent_seen;
};

struct an_comply_xlist {
    struct an_comply_xentry *e;
    size_t n;
};

/* A YAML map of agent name to a list of `ID` or `ID: reason`; an error at
 * the offending node's file:line:col. */
int an_comply_xlist_load(const char *path, struct an_comply_xlist *out, struct an_err *err);
void an_comply_xlist_release(struct an_comply_xlist *x);
/* One test of agent, as it ends: FAIL listed (by id, or a requirement it
 * cites) -> XFAIL; PASS listed by id -> STALE. Not thread-safe. */
void an_comply_xlist_test(struct an_comply_xlist *x, const char *agent, struct an_comply_test *t);
/* Once the agent's tests are in: a listed requirement none of whose tests
 * failed but some passed makes those STALE; an entry that matched nothing
 * is a warning on log. */
void an_comply_xlist_agent(struct an_comply_xlist *x, struct an_comply_agent *a, FILE *log);
/* At the end of the run: entries of agents that did not run (warnings). */
void an_comply_xlist_unseen(const struct an_comply_xlist *x, FILE *log);

#endif
