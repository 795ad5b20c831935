/*
 * `type: http` (seed 004's run-case contract, docs/http.md): the target's
 * own keys, behind an_target.data. Loaded by load/target_http.c into the
 * suite's arena; read by run/target_http.c. Its timeout_ms (common) is per
 * attempt, default 15000.
 */
#ifndef ANANKE_LOAD_TARGET_HTTP_H
#define ANANKE_LOAD_TARGET_HTTP_H

#include "ananke/model.h"

struct an_http_target {
    struct an_tmpl endpoint;     /* the base URL: each test one POST <endpoint>/run-case */
    struct an_tmpl case_version; /* the request's `version`; src NULL: "new" */
    unsigned retries;            /* transient failures retried (default 2) */
    int64_t max_body_bytes;      /* the answer's cap (default 2000000) */
    int64_t body_snippet_bytes;  /* of a failed answer kept (default 4000) */
};

static inline const struct an_http_target *an_http_target(const struct an_target *t)
{
    return t->data;
}

#endif
