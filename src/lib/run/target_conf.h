/*
 * Opening a session on a configured target: the target's templates are
 * interpolated with the run's variables (hook output, ${ENV...}), the
 * test's history, options and timeout applied, and the protocol's session
 * opened. Used for the target under test (run/job.c) and for helper agents
 * such as judges (run/judge.c).
 *
 * Ownership: *conf holds the interpolated strings the session borrows; free
 * it with an_target_conf_free() after the session.
 */
#ifndef ANANKE_RUN_TARGET_CONF_H
#define ANANKE_RUN_TARGET_CONF_H

#include "ananke/model.h"
#include "ananke/target_type.h"
#include "core/interp.h"
#include "proto/adapter.h"

struct an_target_conf;

/* `test` may be NULL (a helper agent: no history, options or timeout of
 * its own). `sandbox` is the ACP agent's directory (NULL for the others);
 * `project_dir` is where tool commands run. On failure *out is NULL, err
 * says why, and *conf (possibly set) must still be freed. */
/* What a helper agent's call may change (NULL: nothing): more request
 * params for an openai agent (--seed), a shorter turn limit (0: none). */
struct an_target_over {
    const json_t *params;
    int64_t timeout_ms;
};

int an_target_open(const struct an_target *t, const struct an_test *test,
                   const struct an_vars *vars, const char *sandbox, const char *project_dir,
                   const struct an_target_over *over, struct an_target_conf **conf,
                   struct an_session **out, struct an_err *err);
void an_target_conf_free(struct an_target_conf *c); /* NULL-safe */

#endif
