/* The comply result model: building, releasing, counting, and its JSON form. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/comply.h"
#include "core/json.h"
#include "report/report_util.h"

const char *an_comply_status_name(enum an_comply_status s)
{
    switch (s) {
    case AN_COMPLY_PASS:
        return "pass";
    case AN_COMPLY_FAIL:
        return "fail";
    case AN_COMPLY_NA:
        return "na";
    case AN_COMPLY_SKIP:
        return "skip";
    case AN_COMPLY_XFAIL:
        return "xfail";
    case AN_COMPLY_STALE:
        return "stale";
    }
    return "?";
}

const char *an_comply_status_label(enum an_comply_status s)
{
    switch (s) {
    case AN_COMPLY_PASS:
        return "PASS";
    case AN_COMPLY_FAIL:
        return "FAIL";
    case AN_COMPLY_NA:
        return "NA";
    case AN_COMPLY_SKIP:
        return "SKIP";
    case AN_COMPLY_XFAIL:
        return "XFAIL";
    case AN_COMPLY_STALE:
        return "STALE";
    }
    return "?";
}

const char *an_comply_req_status_name(enum an_comply_req_status s)
{
    switch (s) {
    case AN_REQ_MET:
        return "met";
    case AN_REQ_NOT_MET:
        return "not_met";
    case AN_REQ_NOT_TESTED:
        return "not_tested";
    }
    return "?";
}

void an_comply_judge_reqs(struct an_comply_agent *a)
{
    for (size_t r = 0; r < a->nreqs; r++) {
        bool pass = false, fail = false;
        for (size_t k = 0; k < a->ntests; k++) {
            const struct an_comply_test *t = &a->tests[k];
            for (size_t i = 0; i < t->nrequirements; i++)
                if (!strcmp(t->requirements[i], a->reqs[r].id)) {
                    /* an expected failure is still a failure of the
                     * requirement; a stale entry's test passed */
                    pass = pass || t->status == AN_COMPLY_PASS || t->status == AN_COMPLY_STALE;
                    fail = fail || t->status == AN_COMPLY_FAIL || t->status == AN_COMPLY_XFAIL;
                }
        }
        a->reqs[r].status = fail ? AN_REQ_NOT_MET : pass ? AN_REQ_MET : AN_REQ_NOT_TESTED;
    }
}

void an_comply_must_counts(const struct an_comply_agent *a, size_t *musts, size_t *tested,
                           size_t *met)
{
    size_t m = 0, t = 0, k = 0;
    for (size_t r = 0; r < a->nreqs; r++) {
        if (strcmp(a->reqs[r].level, "MUST"))
            continue;
        m++;
        t += a->reqs[r].status != AN_REQ_NOT_TESTED;
        k += a->reqs[r].status == AN_REQ_MET;
    }
    *musts = m;
    *tested = t;
    *met = k;
}

struct an_comply_agent *an_comply_add_agent(struct an_comply_result *r, const char *name,
                                            const char *command)
{
    if (r->nagents == r->capagents) {
        r->capagents = r->capagents ? r->capagents * 2 : 4;
        r->agents = an_xrealloc(r->agents, r->capagents * sizeof *r->agents);
    }
    struct an_comply_agent *a = &r->agents[r->nagents++];
    memset(a, 0, sizeof *a);
    a->name = an_xstrdup(name);
    a->command = command ? an_xstrdup(command) : NULL;
    return a;
}

struct an_comply_test *an_comply_add_test(struct an_comply_agent *a)
{
    if (a->ntests == a->captests) {
        a->captests = a->captests ? a->captests * 2 : 16;
        a->tests = an_xrealloc(a->tests, a->captests * sizeof *a->tests);
    }
    struct an_comply_test *t = &a->tests[a->ntests++];
    memset(t, 0, sizeof *t);
    return t;
}

struct an_comply_unmet *an_comply_add_unmet(struct an_comply_test *t, const char *kind, int step,
                                            const char *message)
{
    if (t->nunmet == t->capunmet) {
        t->capunmet = t->capunmet ? t->capunmet * 2 : 4;
        t->unmet = an_xrealloc(t->unmet, t->capunmet * sizeof *t->unmet);
    }
    struct an_comply_unmet *u = &t->unmet[t->nunmet++];
    memset(u, 0, sizeof *u);
    u->kind = an_xstrdup(kind);
    u->step = step;
    u->message = an_xstrdup(message ? message : "");
    return u;
}

struct an_comply_unmet *an_comply_add_unmetv(struct an_comply_test *t, const char *kind, int step,
                                             const char *fmt, va_list ap)
{
    char msg[1024];
    vsnprintf(msg, sizeof msg, fmt, ap);
    return an_comply_add_unmet(t, kind, step, msg);
}

void an_comply_add_note(struct an_comply_test *t, const char *note)
{
    t->notes = an_xrealloc(t->notes, (t->nnotes + 1) * sizeof *t->notes);
    t->notes[t->nnotes++] = an_xstrdup(note ? note : "");
}

static void test_release(struct an_comply_test *t)
{
    for (size_t i = 0; i < t->nnotes; i++)
        free(t->notes[i]);
    free(t->notes);
    free(t->id);
    free(t->title);
    free(t->description);
    free(t->area);
    for (size_t i = 0; i < t->ndocs; i++)
        free(t->docs[i]);
    free(t->docs);
    for (size_t i = 0; i < t->nrequirements; i++)
        free(t->requirements[i]);
    free(t->requirements);
    free(t->na_reason);
    free(t->expected_failure);
    for (size_t i = 0; i < t->nunmet; i++) {
        struct an_comply_unmet *u = &t->unmet[i];
        free(u->kind);
        free(u->message);
        free(u->expected);
        free(u->closest);
        for (size_t k = 0; k < u->ndiff; k++)
            free(u->diff[k]);
        free(u->diff);
    }
    free(t->unmet);
    free(t->stderr_tail);
}

void an_comply_result_release(struct an_comply_result *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nagents; i++) {
        struct an_comply_agent *a = &r->agents[i];
        free(a->name);
        free(a->command);
        json_decref(a->init);
        free(a->init_error);
        free(a->binding);
        free(a->spec);
        json_decref(a->modes);
        json_decref(a->commands);
        for (size_t k = 0; k < a->ntests; k++)
            test_release(&a->tests[k]);
        free(a->tests);
        for (size_t k = 0; k < a->nreqs; k++) {
            free(a->reqs[k].id);
            free(a->reqs[k].level);
            free(a->reqs[k].title);
            free(a->reqs[k].section);
        }
        free(a->reqs);
    }
    free(r->agents);
    free(r->protocol);
    free(r->spec);
    memset(r, 0, sizeof *r);
}

const char *an_comply_agent_spec(const struct an_comply_result *r, const struct an_comply_agent *a)
{
    return a->spec ? a->spec : r->spec;
}

bool an_comply_agent_at(const struct an_comply_result *r, size_t i, const char *spec)
{
    const char *s = an_comply_agent_spec(r, &r->agents[i]);
    return s && spec && !strcmp(s, spec) && r->agents[i].nreqs;
}

bool an_comply_spec_first(const struct an_comply_result *r, size_t i)
{
    const char *spec = an_comply_agent_spec(r, &r->agents[i]);
    if (!an_comply_agent_at(r, i, spec))
        return false;
    for (size_t j = 0; j < i; j++)
        if (an_comply_agent_at(r, j, spec))
            return false;
    return true;
}

void an_comply_counts(const struct an_comply_result *r, size_t *pass, size_t *fail, size_t *na,
                      size_t *required_failed)
{
    size_t p = 0, f = 0, n = 0, rf = 0;
    for (size_t i = 0; i < r->nagents; i++) {
        for (size_t k = 0; k < r->agents[i].ntests; k++) {
            const struct an_comply_test *t = &r->agents[i].tests[k];
            switch (t->status) {
            case AN_COMPLY_PASS:
                p++;
                break;
            case AN_COMPLY_NA:
                n++;
                break;
            case AN_COMPLY_FAIL:
                f++;
                rf += t->required;
                break;
            case AN_COMPLY_STALE:
                rf++;
                break;
            case AN_COMPLY_SKIP:
            case AN_COMPLY_XFAIL:
                break;
            }
        }
    }
    if (pass)
        *pass = p;
    if (fail)
        *fail = f;
    if (na)
        *na = n;
    if (required_failed)
        *required_failed = rf;
}

void an_comply_xcounts(const struct an_comply_result *r, size_t *xfail, size_t *stale, size_t *skip)
{
    size_t x = 0, s = 0, k = 0;
    for (size_t i = 0; i < r->nagents; i++)
        for (size_t j = 0; j < r->agents[i].ntests; j++) {
            enum an_comply_status st = r->agents[i].tests[j].status;
            x += st == AN_COMPLY_XFAIL;
            s += st == AN_COMPLY_STALE;
            k += st == AN_COMPLY_SKIP;
        }
    *xfail = x;
    *stale = s;
    *skip = k;
}

static json_t *str_or_null(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

/* Parsed back when it is JSON (it always is, made by the runner); else a
 * string. */
static json_t *json_text(const char *s)
{
    if (!s)
        return json_null();
    json_t *v = json_loads(s, JSON_DECODE_ANY, NULL);
    return v ? v : an_json_lossy(s, strlen(s));
}

/* ID -> {level, status, title, section}, and the MUST coverage */
static json_t *reqs_json(const struct an_comply_agent *a)
{
    json_t *o = json_object();
    for (size_t k = 0; k < a->nreqs; k++) {
        const struct an_comply_req *q = &a->reqs[k];
        json_object_set_new(o, q->id,
                            json_pack("{s:s,s:s,s:o,s:o}", "level", q->level, "status",
                                      an_comply_req_status_name(q->status), "title",
                                      str_or_null(q->title), "section", str_or_null(q->section)));
    }
    return o;
}

json_t *an_comply_result_to_json(const struct an_comply_result *r)
{
    size_t p, f, n, rf;
    an_comply_counts(r, &p, &f, &n, &rf);
    json_t *agents = json_array();
    for (size_t i = 0; i < r->nagents; i++) {
        const struct an_comply_agent *a = &r->agents[i];
        json_t *tests = json_array();
        for (size_t k = 0; k < a->ntests; k++) {
            const struct an_comply_test *t = &a->tests[k];
            json_t *docs = json_array(), *unmet = json_array(), *notes = json_array(),
                   *reqs = json_array();
            for (size_t d = 0; d < t->nrequirements; d++)
                json_array_append_new(reqs, str_or_null(t->requirements[d]));
            for (size_t d = 0; d < t->nnotes; d++)
                json_array_append_new(notes, str_or_null(t->notes[d]));
            for (size_t d = 0; d < t->ndocs; d++)
                json_array_append_new(docs, str_or_null(t->docs[d]));
            for (size_t u = 0; u < t->nunmet; u++) {
                const struct an_comply_unmet *x = &t->unmet[u];
                json_t *diff = json_array();
                for (size_t d = 0; d < x->ndiff; d++)
                    json_array_append_new(diff, str_or_null(x->diff[d]));
                json_array_append_new(
                    unmet,
                    json_pack("{s:o,s:o,s:o,s:o,s:o,s:o}", "kind", str_or_null(x->kind), "step",
                              x->step >= 0 ? json_integer(x->step) : json_null(), "message",
                              str_or_null(x->message), "expected", json_text(x->expected),
                              "closest", json_text(x->closest), "diff", diff));
            }
            json_t *tj = json_pack(
                "{s:o,s:o,s:o,s:o,s:s,s:o,s:s,s:o,s:o,s:o,s:I,s:o}", "id", str_or_null(t->id),
                "title", str_or_null(t->title), "description", str_or_null(t->description), "area",
                str_or_null(t->area), "severity", t->required ? "required" : "optional", "docs",
                docs, "status", an_comply_status_name(t->status), "na_reason",
                str_or_null(t->na_reason), "unmet", unmet, "notes", notes, "duration_ms",
                (json_int_t)t->duration_ms, "stderr_tail", str_or_null(t->stderr_tail));
            json_object_set_new(tj, "requirements", reqs);
            if (t->expected_failure)
                json_object_set_new(tj, "expected_failure", str_or_null(t->expected_failure));
            json_array_append_new(tests, tj);
        }
        json_t *aj = json_pack("{s:o,s:o,s:O?,s:o,s:O?,s:O?,s:o}", "name", str_or_null(a->name),
                               "command", str_or_null(a->command), "initialize", a->init,
                               "init_error", str_or_null(a->init_error), "modes", a->modes,
                               "commands", a->commands, "tests", tests);
        if (a->binding)
            json_object_set_new(aj, "binding", json_string(a->binding));
        if (an_comply_agent_spec(r, a)) {
            size_t m, t, k;
            json_object_set_new(aj, "spec", json_string(an_comply_agent_spec(r, a)));
            an_comply_must_counts(a, &m, &t, &k);
            json_object_set_new(aj, "requirements", reqs_json(a));
            json_object_set_new(aj, "must_coverage",
                                json_pack("{s:I,s:I,s:I}", "musts", (json_int_t)m, "tested",
                                          (json_int_t)t, "met", (json_int_t)k));
        }
        json_array_append_new(agents, aj);
    }
    size_t xf, st, sk;
    an_comply_xcounts(r, &xf, &st, &sk);
    json_t *out = json_pack(
        "{s:s,s:o,s:I,s:I,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:o}", "tool", "ananke comply",
        "protocol", str_or_null(r->protocol), "started_ms", (json_int_t)r->started_ms,
        "duration_ms", (json_int_t)r->duration_ms, "summary", "passed", (json_int_t)p, "failed",
        (json_int_t)f, "na", (json_int_t)n, "required_failed", (json_int_t)rf, "xfail",
        (json_int_t)xf, "stale", (json_int_t)st, "skipped", (json_int_t)sk, "agents", agents);
    if (r->spec)
        json_object_set_new(out, "spec", json_string(r->spec));
    return out;
}

int an_report_comply_json(const struct an_comply_result *r, const char *path, struct an_err *err)
{
    json_t *j = an_comply_result_to_json(r);
    char *s = an_json_dumps(j, JSON_INDENT(2));
    json_decref(j);
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, s);
    an_buf_putc(&b, '\n');
    free(s);
    int rc = an_atomic_write(path, &b, err);
    an_buf_release(&b);
    return rc;
}
