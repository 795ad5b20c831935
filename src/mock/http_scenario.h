/*
 * `ananke-mock http` scenarios: how seed 004's demo agent answers POST
 * /run-case, per case_id and version (docs/mock.md "http").
 *
 * A scenario is a list of rules (the first that takes a request answers it)
 * and an optional default for requests no rule takes (without one, such a
 * request is answered 404, an unknown case). A rule answers with a run-case
 * answer (`response`, sent as JSON), verbatim bytes (`body`), or one of the
 * original demo's failures: any status, a `delay_ms`, a `stall` (no answer
 * until the client hangs up) or a `drop` (the connection closed without an
 * answer). Everything is checked at load time, so a broken script is a
 * `file:line:col` message before the server listens.
 *
 * Ownership: everything lives in the scenario's arena (scenario_rules.h);
 * rules handed out by http_scenario_pick() are borrowed until it is freed.
 * Thread safety: read-only after loading except the `times` counters,
 * which http_scenario_pick() updates under the scenario's lock.
 */
#ifndef ANANKE_MOCK_HTTP_SCENARIO_H
#define ANANKE_MOCK_HTTP_SCENARIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "mock_common.h"
#include "scenario_rules.h"

struct http_rule {
    struct an_loc loc;
    bool is_default;
    /* selectors */
    const char **cases; /* `case`: one id or a list; none = any case */
    size_t ncases;
    const char *version; /* NULL = any */
    long long times;     /* 0 = unlimited */
    long long used;      /* guarded by http_scenario.head.lock */
    /* the answer */
    int status; /* default 200 */
    struct mock_header *headers;
    size_t nheaders;
    const char *content_type; /* default application/json */
    const char *response;     /* compact JSON; an object gets case_id and version added */
    /* `mcp_calls`: [{server, tool, arguments?, report?}] as compact JSON,
     * made before answering and added to `events` (NULL = none) */
    const char *mcp_calls;
    const char *body; /* verbatim; NULL = none */
    size_t body_len;
    int64_t delay_ms; /* before answering */
    bool stall;       /* never answer */
    bool drop;        /* close the connection without an answer */
};

struct http_scenario {
    struct scn_rules_head head; /* first: see scenario_rules.h */
    struct http_rule *rules;
    size_t nrules;
    struct http_rule *fallback; /* `default`; NULL = 404 unknown case */
};

extern const struct scn_rules_kind http_scenario_kind;

/* Load from data[0..len) named `name`, or from the file `name` when data is
 * NULL. On failure err says where and why, and *out is NULL. */
int http_scenario_load(struct http_scenario **out, const char *name, const char *data, size_t len,
                       struct an_err *err);
void http_scenario_free(struct http_scenario *s); /* NULL-safe */

/* The rule that answers case `case_id` of `version` (counting the use), the
 * default, or NULL. Thread-safe. */
const struct http_rule *http_scenario_pick(struct http_scenario *s, const char *case_id,
                                           const char *version);

#endif
