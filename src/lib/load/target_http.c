/* `target.type: http` (seed 004's run-case contract, docs/http.md) -> struct an_target. */
#include <string.h>

#include "load/config_int.h"
#include "load/target_http.h"

#define DEFAULT_TIMEOUT_MS 15000
#define DEFAULT_RETRIES 2
#define DEFAULT_MAX_BODY 2000000
#define DEFAULT_SNIPPET 4000
#define MAX_RETRIES 100

static int load_bytes(struct an_ld *ld, const struct an_ynode *n, const char *key, int64_t min,
                      int64_t *out)
{
    struct an_ynode *v = an_yaml_get(n, key);
    int rc;
    if (!v)
        return 0;
    if ((rc = an_ld_uint(ld, v, key, out)))
        return rc;
    if (*out < min || *out > ((int64_t)1 << 40))
        return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'%s' must be from %lld to 2^40 bytes", key,
                       (long long)min);
    return 0;
}

int an_target_http_load(struct an_ld *ld, const struct an_ynode *n, struct an_target *t)
{
    static const char *const keys[] = {
        "type",           "endpoint",           "version", "headers", "timeout_ms", "retries",
        "max_body_bytes", "body_snippet_bytes", "assert",  "start",   NULL};
    struct an_ynode *v;
    int rc;
    struct an_http_target *h = an_arena_alloc(ld->a, sizeof *h);
    t->data = h;
    t->timeout_ms = DEFAULT_TIMEOUT_MS; /* per attempt, as the original runner's */
    h->retries = DEFAULT_RETRIES;
    h->max_body_bytes = DEFAULT_MAX_BODY;
    h->body_snippet_bytes = DEFAULT_SNIPPET;
    if ((rc = an_ld_keys(ld, n, keys, "an http target")) ||
        (rc = an_cfg_endpoint(ld, n, "an http target", &h->endpoint)))
        return rc;
    if ((v = an_yaml_get(n, "version"))) {
        if ((rc = an_cfg_tmpl(ld, v, "version", &h->case_version)))
            return rc;
        if (!h->case_version.src[0])
            return an_fail(ld->err, AN_ESCHEMA, &v->loc,
                           "'version' must not be empty (the agent's baseline or new, for "
                           "example)");
    }
    if ((v = an_yaml_get(n, "headers")) && (rc = an_cfg_headers(ld, v, t)))
        return rc;
    if ((v = an_yaml_get(n, "retries"))) {
        int64_t r;
        if ((rc = an_ld_uint(ld, v, "retries", &r)))
            return rc;
        if (r > MAX_RETRIES)
            return an_fail(ld->err, AN_ESCHEMA, &v->loc, "'retries' must be from 0 to %d, not %lld",
                           MAX_RETRIES, (long long)r);
        h->retries = (unsigned)r;
    }
    if ((rc = load_bytes(ld, n, "max_body_bytes", 1, &h->max_body_bytes)) ||
        (rc = load_bytes(ld, n, "body_snippet_bytes", 0, &h->body_snippet_bytes)))
        return rc;
    return 0;
}

int an_target_http_always(struct an_ld *ld, struct an_target *t)
{
    /* seed 004's evaluator fails a case whose tool reported an error, whatever
     * its `expected` says: a target-level tool_execution check, judged with
     * the test (docs/http.md "Always-on checks") */
    struct an_assert *blk = &t->assert;
    for (size_t i = 0; i < blk->nchecks; i++)
        if (blk->checks[i].kind == AN_CHECK_TOOL_EXECUTION)
            return 0; /* written out already */
    struct an_check_item *v =
        an_arena_grow(ld->a, blk->checks, blk->nchecks, blk->nchecks + 1, sizeof *v);
    memset(&v[blk->nchecks], 0, sizeof *v);
    v[blk->nchecks].kind = AN_CHECK_TOOL_EXECUTION;
    v[blk->nchecks].loc = t->loc;
    v[blk->nchecks].level = AN_LEVEL_TARGET;
    blk->checks = v;
    blk->nchecks++;
    return 0;
}
