/* A test's conversation from the recording its run made (`--record DIR`,
 * docs/record.md): DIR/results.json, read without following a link and
 * at most view.max_results_bytes. The recording is untrusted: only what
 * the pages need is taken from it, and they escape all of it. */
#include <stdlib.h>
#include <string.h>

#include "ananke/nofollow.h"
#include "view/view_int.h"

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

json_t *view_recording(const char *dir, size_t max_bytes, const char *name, const char *file,
                       const char **why)
{
    struct an_err err = AN_ERR_INIT;
    json_t *doc = an_nf_json(dir, "results.json", 0, max_bytes, &err);
    if (!doc) {
        *why = err.code == AN_ENOTFOUND ? "the run's recording is gone"
               : err.code == AN_ELIMIT  ? "the run's recording is too large to show: its "
                                          "results.json is larger than view.max_results_bytes"
                                        : "the run's recording cannot be read";
        return NULL;
    }
    json_t *tests = json_object_get(doc, "tests"), *t, *out = NULL;
    size_t i;
    json_array_foreach(tests, i, t)
    {
        if (!json_is_object(t) || !same(json_string_value(json_object_get(t, "name")), name) ||
            !same(json_string_value(json_object_get(t, "file")), file))
            continue;
        json_t *tr = json_object_get(t, "transcript"), *tags = json_object_get(t, "tags");
        json_t *turns = json_object_get(tr, "turns"), *calls = json_object_get(tr, "tool_calls");
        out = json_pack("{s:O, s:O, s:O}", "tags", json_is_array(tags) ? tags : json_null(),
                        "turns", json_is_array(turns) ? turns : json_null(), "tool_calls",
                        json_is_array(calls) ? calls : json_null());
        break;
    }
    json_decref(doc);
    if (!out)
        *why = "the run's recording does not hold this test";
    return out;
}

/* name US file: the key of a test in the recording (a name holds no US
 * the history could not store, and a collision only mislabels tags). */
static char *key_of(const char *name, const char *file)
{
    size_t n = strlen(name ? name : "") + strlen(file ? file : "") + 2;
    char *k = an_xmalloc(n);
    snprintf(k, n, "%s\x1f%s", name ? name : "", file ? file : "");
    return k;
}

void view_rec_tags(const char *dir, size_t max_bytes, json_t *tests)
{
    struct an_err err = AN_ERR_INIT;
    json_t *doc = an_nf_json(dir, "results.json", 0, max_bytes, &err);
    json_t *by = json_object(), *t;
    size_t i;
    json_array_foreach(json_object_get(doc, "tests"), i, t)
    {
        json_t *tags = json_object_get(t, "tags");
        if (!json_is_array(tags) || !json_array_size(tags))
            continue;
        char *k = key_of(json_string_value(json_object_get(t, "name")),
                         json_string_value(json_object_get(t, "file")));
        json_object_set(by, k, tags);
        free(k);
    }
    json_array_foreach(tests, i, t)
    {
        char *k = key_of(json_string_value(json_object_get(t, "name")),
                         json_string_value(json_object_get(t, "file")));
        json_t *tags = json_object_get(by, k);
        if (tags)
            json_object_set(t, "tags", tags);
        free(k);
    }
    json_decref(by);
    json_decref(doc);
}
