/*
 * Reading a comply JSON report (comply_result.c's shape) back into a
 * comply result, for `ananke comply --merge`. The file is untrusted: it is
 * read without following a link and within the caps of `ananke merge`
 * (AN_RESULTS_MAX_BYTES, the JSON tree cap); malformed JSON is an error at
 * its line and column, a field of the wrong type an error naming its path
 * ("agents[1].tests[3].status"). Values are never echoed in messages.
 * Unknown keys are ignored, so newer files still read.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/comply.h"
#include "core/json.h"
#include "core/result_json.h"
#include "report/report_util.h"

/* Where a schema error is: the file, and the field's path in `at`. */
struct rd {
    const char *path;
    struct an_err *err;
    char at[96];
};

static int bad(struct rd *d, const char *field, const char *want, const json_t *v)
{
    struct an_loc loc = {d->path, 0, 0};
    return an_fail(d->err, AN_ESCHEMA, &loc, "%s%s%s: expected %s, got %s", d->at,
                   *d->at && *field ? "." : "", field, want, v ? an_json_type_name(v) : "nothing");
}

/* o[k] as a new string into *out: absent or null leaves NULL; anything but
 * a string is an error, or when `need`, anything but a string at all. */
static int str(struct rd *d, const json_t *o, const char *k, bool need, char **out)
{
    json_t *v = json_object_get(o, k);
    *out = NULL;
    if ((!v || json_is_null(v)) && !need)
        return 0;
    if (!json_is_string(v))
        return bad(d, k, "a string", v);
    *out = an_xstrdup(json_string_value(v));
    return 0;
}

/* o[k], an array of strings (absent: none), into *v, *n. */
static int strs(struct rd *d, const json_t *o, const char *k, char ***v, size_t *n)
{
    json_t *a = json_object_get(o, k), *e;
    size_t i;
    *v = NULL;
    *n = 0;
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a))
        return bad(d, k, "an array of strings", a);
    *v = an_xcalloc(json_array_size(a) + 1, sizeof **v);
    json_array_foreach(a, i, e)
    {
        if (!json_is_string(e))
            return bad(d, k, "an array of strings", e);
        (*v)[(*n)++] = an_xstrdup(json_string_value(e));
    }
    return 0;
}

static int64_t ms(const json_t *o, const char *k)
{
    json_t *v = json_object_get(o, k);
    json_int_t n = json_is_integer(v) ? json_integer_value(v) : 0;
    return n >= 0 && n <= ((int64_t)1 << 43) ? (int64_t)n : 0;
}

static int status_of(struct rd *d, const json_t *t, enum an_comply_status *out)
{
    const char *s = an_json_str(t, "status");
    for (int k = AN_COMPLY_PASS; s && k <= AN_COMPLY_STALE; k++)
        if (!strcmp(s, an_comply_status_name((enum an_comply_status)k))) {
            *out = (enum an_comply_status)k;
            return 0;
        }
    struct an_loc loc = {d->path, 0, 0};
    return an_fail(d->err, AN_ESCHEMA, &loc,
                   "%s.status: expected pass, fail, na, skip, xfail or stale", d->at);
}

/* A JSON value the report wrote as JSON (expected, closest): kept as its
 * compact text, as the runner holds it. */
static char *json_text(const json_t *v)
{
    return v && !json_is_null(v) ? an_json_compact(v) : NULL;
}

static int read_unmet(struct rd *d, const json_t *a, struct an_comply_test *t)
{
    if (!a || json_is_null(a))
        return 0;
    if (!json_is_array(a))
        return bad(d, "unmet", "an array", a);
    size_t i, base = strlen(d->at);
    json_t *u;
    json_array_foreach(a, i, u)
    {
        snprintf(d->at + base, sizeof d->at - base, ".unmet[%zu]", i);
        if (!json_is_object(u))
            return bad(d, "", "an object", u);
        char *kind = NULL, *msg = NULL;
        int rc = str(d, u, "kind", false, &kind);
        if (rc || (rc = str(d, u, "message", false, &msg))) {
            free(kind);
            return rc;
        }
        json_t *step = json_object_get(u, "step");
        json_int_t sv = json_is_integer(step) ? json_integer_value(step) : -1;
        struct an_comply_unmet *x =
            an_comply_add_unmet(t, kind ? kind : "", sv >= 0 && sv < INT32_MAX ? (int)sv : -1, msg);
        free(kind);
        free(msg);
        x->expected = json_text(json_object_get(u, "expected"));
        x->closest = json_text(json_object_get(u, "closest"));
        if ((rc = strs(d, u, "diff", &x->diff, &x->ndiff)))
            return rc;
    }
    d->at[base] = '\0';
    return 0;
}

static int read_test(struct rd *d, const json_t *j, struct an_comply_test *t)
{
    if (!json_is_object(j))
        return bad(d, "", "an object", j);
    int rc;
    if ((rc = str(d, j, "id", true, &t->id)) || (rc = str(d, j, "title", false, &t->title)) ||
        (rc = str(d, j, "description", false, &t->description)) ||
        (rc = str(d, j, "area", false, &t->area)) ||
        (rc = str(d, j, "na_reason", false, &t->na_reason)) ||
        (rc = str(d, j, "expected_failure", false, &t->expected_failure)) ||
        (rc = str(d, j, "stderr_tail", false, &t->stderr_tail)) ||
        (rc = strs(d, j, "docs", &t->docs, &t->ndocs)) ||
        (rc = strs(d, j, "requirements", &t->requirements, &t->nrequirements)) ||
        (rc = strs(d, j, "notes", &t->notes, &t->nnotes)) || (rc = status_of(d, j, &t->status)))
        return rc;
    if (!t->area) /* the report's row: the area, else the title */
        t->area = an_xstrdup(t->title ? t->title : t->id);
    const char *sev = an_json_str(j, "severity");
    t->required = sev && !strcmp(sev, "required");
    t->duration_ms = ms(j, "duration_ms");
    return read_unmet(d, json_object_get(j, "unmet"), t);
}

static int req_status(const char *s, enum an_comply_req_status *out)
{
    for (int k = AN_REQ_MET; s && k <= AN_REQ_NOT_TESTED; k++)
        if (!strcmp(s, an_comply_req_status_name((enum an_comply_req_status)k))) {
            *out = (enum an_comply_req_status)k;
            return 0;
        }
    return -1;
}

/* "requirements": ID -> {level, status, title, section}, in file order. */
static int read_reqs(struct rd *d, const json_t *o, struct an_comply_agent *a)
{
    if (!o || json_is_null(o))
        return 0;
    if (!json_is_object(o))
        return bad(d, "requirements", "an object", o);
    a->reqs = an_xcalloc(json_object_size(o) + 1, sizeof *a->reqs);
    size_t base = strlen(d->at);
    const char *id;
    json_t *v;
    json_object_foreach((json_t *)o, id, v)
    {
        /* the Nth requirement: its ID is not echoed */
        snprintf(d->at + base, sizeof d->at - base, ".requirements[%zu]", a->nreqs);
        if (!json_is_object(v))
            return bad(d, "", "an object", v);
        struct an_comply_req *q = &a->reqs[a->nreqs++];
        q->id = an_xstrdup(id);
        int rc;
        if ((rc = str(d, v, "level", true, &q->level)) ||
            (rc = str(d, v, "title", false, &q->title)) ||
            (rc = str(d, v, "section", false, &q->section)))
            return rc;
        if (req_status(an_json_str(v, "status"), &q->status)) {
            struct an_loc loc = {d->path, 0, 0};
            return an_fail(d->err, AN_ESCHEMA, &loc,
                           "%s.status: expected met, not_met or not_tested", d->at);
        }
    }
    d->at[base] = '\0';
    return 0;
}

static int read_agent(struct rd *d, const json_t *j, struct an_comply_result *r)
{
    if (!json_is_object(j))
        return bad(d, "", "an object", j);
    json_t *tests = json_object_get(j, "tests");
    if (!json_is_string(json_object_get(j, "name")))
        return bad(d, "name", "a string", json_object_get(j, "name"));
    if (!json_is_array(tests))
        return bad(d, "tests", "an array", tests);
    char *cmd;
    int rc = str(d, j, "command", false, &cmd);
    if (rc)
        return rc;
    struct an_comply_agent *a = an_comply_add_agent(r, an_json_str(j, "name"), cmd);
    free(cmd);
    if ((rc = str(d, j, "binding", false, &a->binding)) ||
        (rc = str(d, j, "spec", false, &a->spec)) ||
        (rc = str(d, j, "init_error", false, &a->init_error)) ||
        (rc = read_reqs(d, json_object_get(j, "requirements"), a)))
        return rc;
    size_t k, base = strlen(d->at);
    json_t *t;
    json_array_foreach(tests, k, t)
    {
        snprintf(d->at + base, sizeof d->at - base, ".tests[%zu]", k);
        if ((rc = read_test(d, t, an_comply_add_test(a))))
            return rc;
    }
    d->at[base] = '\0';
    return 0;
}

int an_comply_result_load(struct an_comply_result *r, const char *path, struct an_err *err)
{
    json_t *doc;
    int rc = an_results_json_load(path, &doc, err);
    if (rc)
        return rc;
    struct an_loc at = {path, 0, 0};
    const char *tool = an_json_str(doc, "tool");
    json_t *agents = json_object_get(doc, "agents");
    struct rd d = {path, err, ""};
    if (!tool || strcmp(tool, "ananke comply") || !json_is_array(agents)) {
        rc = an_fail(err, AN_ESCHEMA, &at,
                     "not a comply JSON report (written by 'ananke comply -r json:PATH')");
        goto done;
    }
    if ((rc = str(&d, doc, "protocol", false, &r->protocol)) ||
        (rc = str(&d, doc, "spec", false, &r->spec)))
        goto done;
    r->started_ms = ms(doc, "started_ms");
    r->duration_ms = ms(doc, "duration_ms");
    size_t i;
    json_t *a;
    json_array_foreach(agents, i, a)
    {
        snprintf(d.at, sizeof d.at, "agents[%zu]", i);
        if ((rc = read_agent(&d, a, r)))
            goto done;
    }
done:
    json_decref(doc);
    return rc;
}
