/*
 * Tool coverage (docs/tools.md "Tool coverage"): per tool server, the
 * tools it exposes and which of them the run's tests called.
 *
 * Everything is read from the results (each turn's server_calls), already
 * redacted, so coverage says nothing a report does not. With --parallel
 * above 1 one call may sit in two turns' lists; it is counted once (the
 * same record: server, name, start and end, arguments) but for both tests.
 */
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "tools/tools.h"

/* The names of the tool_mocks rules that may answer on `server`, for a
 * server ananke could not ask its tools/list. */
static void add_mock_names(json_t *names, const struct an_tool_mock *m, size_t n,
                           const char *server)
{
    for (size_t i = 0; i < n; i++)
        if (!m[i].server || !strcmp(m[i].server, server))
            json_object_set_new(names, m[i].tool, json_true());
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of obj, sorted, as a new array. */
static json_t *sorted_keys(const json_t *obj)
{
    size_t n = json_object_size(obj), k = 0;
    const char **v = an_xcalloc(n + 1, sizeof *v);
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)obj, key, val)
    {
        v[k++] = key;
    }
    qsort(v, n, sizeof *v, cmp_str);
    json_t *out = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(out, json_string(v[i]));
    free(v);
    return out;
}

static json_t *exposed_of(const struct an_tools *t, const struct an_suite *suite,
                          const char *server)
{
    const json_t *listed = an_tools_exposed(t, server);
    if (listed)
        return json_deep_copy(listed);
    json_t *names = json_object();
    for (size_t i = 0; i < suite->ntests; i++) {
        const struct an_test *te = &suite->tests[i];
        add_mock_names(names, te->tool_mocks, te->ntool_mocks, server);
        for (size_t j = 0; j < te->nturns; j++)
            add_mock_names(names, te->turns[j].tool_mocks, te->turns[j].ntool_mocks, server);
    }
    json_t *out = sorted_keys(names);
    json_decref(names);
    return out;
}

/* One call counted into called[name]: once per record (seen), and the
 * test once per name (tested). */
static void count_call(json_t *called, json_t *seen, json_t *tested, const json_t *c)
{
    const char *name = an_json_str(c, "name");
    if (!name)
        return;
    json_t *e = json_object_get(called, name);
    if (!e) {
        e = json_pack("{s:i,s:i,s:{},s:i}", "calls", 0, "tests", 0, "argument_keys", "mocked", 0);
        json_object_set_new(called, name, e);
    }
    if (!json_object_get(tested, name)) {
        json_object_set_new(tested, name, json_true());
        json_object_set_new(e, "tests",
                            json_integer(json_integer_value(json_object_get(e, "tests")) + 1));
    }
    char *id = an_json_compact(c);
    bool dup = json_object_get(seen, id) != NULL;
    if (!dup)
        json_object_set_new(seen, id, json_true());
    free(id);
    if (dup)
        return;
    json_object_set_new(e, "calls",
                        json_integer(json_integer_value(json_object_get(e, "calls")) + 1));
    if (json_is_true(json_object_get(c, "mocked")))
        json_object_set_new(e, "mocked",
                            json_integer(json_integer_value(json_object_get(e, "mocked")) + 1));
    const char *key;
    json_t *v;
    json_object_foreach(json_object_get(c, "arguments"), key, v)
    {
        json_object_set_new(json_object_get(e, "argument_keys"), key, json_true());
    }
}

/* called with its names in order and each argument_keys a sorted list */
static json_t *finish_called(json_t *called)
{
    json_t *names = sorted_keys(called), *out = json_object();
    size_t i;
    json_t *n;
    json_array_foreach(names, i, n)
    {
        json_t *e = json_object_get(called, json_string_value(n));
        json_object_set_new(e, "argument_keys", sorted_keys(json_object_get(e, "argument_keys")));
        json_object_set(out, json_string_value(n), e);
    }
    json_decref(names);
    json_decref(called);
    return out;
}

static json_t *server_coverage(const struct an_tools *t, const struct an_suite *suite,
                               const struct an_run_result *r, const char *server)
{
    json_t *called = json_object(), *seen = json_object();
    for (size_t i = 0; i < r->ntests; i++) {
        json_t *tested = json_object();
        const struct an_transcript *tr = &r->tests[i].transcript;
        for (size_t k = 0; k < tr->nturns; k++) {
            size_t j;
            json_t *c;
            json_array_foreach(tr->turns[k].server_calls, j, c)
            {
                const char *s = an_json_str(c, "server");
                if (s && !strcmp(s, server))
                    count_call(called, seen, tested, c);
            }
        }
        json_decref(tested);
    }
    json_decref(seen);
    called = finish_called(called);
    json_t *exposed = exposed_of(t, suite, server);
    size_t hit = 0, i;
    json_t *n;
    json_array_foreach(exposed, i, n)
    {
        hit += json_object_get(called, json_string_value(n)) != NULL;
    }
    size_t ne = json_array_size(exposed);
    return json_pack("{s:o,s:o,s:o}", "exposed", exposed, "called", called, "ratio",
                     ne ? json_real((double)hit / (double)ne) : json_null());
}

json_t *an_tools_coverage(const struct an_tools *t, const struct an_suite *suite,
                          const struct an_run_result *r)
{
    if (!t || !suite->config.ntool_servers)
        return NULL;
    json_t *out = json_object();
    for (size_t i = 0; i < suite->config.ntool_servers; i++) {
        const char *name = suite->config.tool_servers[i].name;
        json_object_set_new(out, name, server_coverage(t, suite, r, name));
    }
    return out;
}
