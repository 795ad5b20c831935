/* Tool coverage as rows (rpt_toolcov.h). */
#include "report/rpt_toolcov.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/err.h"

static long long num(const json_t *o, const char *key)
{
    return (long long)json_integer_value(json_object_get(o, key));
}

static void add(struct rpt_cov_server *s, const char *name, bool exposed, const json_t *called)
{
    struct rpt_cov_tool *t = &s->tools[s->ntools++];
    const json_t *e = json_object_get(called, name);
    t->name = name;
    t->exposed = exposed;
    t->calls = num(e, "calls");
    t->tests = num(e, "tests");
    t->mocked = num(e, "mocked");
    t->keys = e ? json_object_get(e, "argument_keys") : NULL;
    if (exposed) {
        s->nexposed++;
        s->ncovered += e != NULL;
    }
}

void rpt_cov_read(const char *name, const json_t *s, struct rpt_cov_server *out)
{
    memset(out, 0, sizeof *out);
    out->name = name;
    const json_t *exposed = json_object_get(s, "exposed");
    const json_t *called = json_object_get(s, "called");
    out->tools =
        an_xcalloc(json_array_size(exposed) + json_object_size(called) + 1, sizeof *out->tools);
    size_t i;
    const json_t *n;
    json_array_foreach(exposed, i, n)
    {
        if (json_is_string(n))
            add(out, json_string_value(n), true, called);
    }
    const char *key;
    json_t *e;
    json_object_foreach((json_t *)called, key, e)
    {
        out->calls += num(e, "calls");
        out->mocked += num(e, "mocked");
        bool listed = false;
        json_array_foreach(exposed, i, n)
        {
            listed |= json_is_string(n) && !strcmp(json_string_value(n), key);
        }
        if (!listed)
            add(out, key, false, called);
    }
    const json_t *ratio = json_object_get(s, "ratio");
    out->has_ratio = json_is_number(ratio);
    out->ratio = out->has_ratio ? json_number_value(ratio) : 0;
}

void rpt_cov_release(struct rpt_cov_server *s)
{
    free(s->tools);
    s->tools = NULL;
}
