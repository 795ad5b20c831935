/*
 * JSONL reporter: seed 002's output file (`-o results.jsonl`), one JSON
 * object per line, events in this order:
 *
 *   {"type":"start","ananke":"0.1.0","started_at":"2025-01-17T07:46:40.000Z",
 *    "total":5,"config":"ananke.config.yaml","runs_per_case":1,"parallel":1}
 *   {"type":"result","id":"T001","name":"greeting","file":"cases.jsonl",
 *    "status":"failed","tags":["smoke"],"skip_reason":null,"duration_ms":40,"input":"Hello","response":"Hi
 * there", "messages_count":1,"assertions":[{"type":"contains","passed":false, "message":"Output
 * must contain \"Bye\"","expected":"...","actual":null,
 *    "detail":null,"turn":null,"location":"cases.jsonl:1:40"}],"error":null}
 *   {"type":"stability","id":"T001","name":"greeting","runs":5,"passed":3,"failed":2,
 *    "pass_rate":0.6,"stable":false,"stability_class":"unstable","avg_duration_ms":41,
 *    "stats":{"runs":5,"passes":3,"pass_rate":0.6,"k":5,"pass_at_k":1.0,"pass_hat_k":0.0,
 *             "ci_low":0.1466,"ci_high":0.9473,"ci_method":"clopper-pearson","flaky":true}}
 *   {"type":"summary","total":5,"passed":2,"failed":1,"skipped":1,"errors":1,
 *    "timeouts":0,"not_run":0,"pass_rate":0.5,"duration_ms":1420,
 *    "ended_at":"2025-01-17T07:46:41.420Z","flaky":1,"agent_calls":9}
 *
 * "stats" is the json reporter's object (core/result_json.c), to 15 digits.
 *
 * Statuses are seed 002's words: passed, failed, skipped, error, and timeout
 * for an error that --timeout cut. A YAML test has no id: its name stands in.
 * "assertions" lists the assertions that failed (results keep no record of
 * the ones that held); "response" is the assistant's text of the last turn
 * that ran, "input" the first user message, "messages_count" the messages
 * the test sent (JSONL history plus one per user turn). Pass rates are
 * shares from 0 to 1, rounded to 4 places; the summary's leaves skipped
 * tests out. Keys are always present and in this order; strings an agent
 * produced are made valid UTF-8 (each bad byte U+FFFD).
 *
 * A dynamic test's result (seed 002 "Dynamic Mode Output") has three more
 * keys after "error", only for such a test:
 *
 *   "turns":[{"turn":1,"input":"Help me file an expense","output":"What type?"}],
 *   "checkpoints":[{"id":"ask_type","reached_at_turn":1,"passed":true,"required":true}],
 *   "total_turns":3
 *
 * "input" is what the simulated user said, "output" the agent's text (null:
 * none); "reached_at_turn" is 1-based, null when never reached, and
 * "passed" says whether it was reached. Turns not run are left out.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/report.h"
#include "core/json.h"
#include "core/result_json.h"
#include "report/metrics.h"
#include "report/report_util.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

static json_t *str(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

/* json_object_set_new() in a fixed order is what keeps the key order. */
static void set(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v) != 0)
        an_oom();
}

static json_t *rate(double r)
{
    return json_real(round(r * 10000.0) / 10000.0);
}

static json_t *iso(int64_t unix_ms)
{
    char ts[48];
    an_iso8601_ms(ts, sizeof ts, unix_ms);
    return ts[0] ? json_string(ts) : json_null();
}

static int64_t duration(const struct an_test_result *t)
{
    return t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0;
}

static const char *seed_status(const struct an_test_result *t)
{
    switch (t->status) {
    case AN_STATUS_PASS:
        return "passed";
    case AN_STATUS_FAIL:
        return "failed";
    case AN_STATUS_SKIP:
        return "skipped";
    case AN_STATUS_INCONCLUSIVE:
        return "inconclusive";
    case AN_STATUS_ERROR:
        break;
    }
    return t->timed_out ? "timeout" : "error";
}

/* seed 002's stability classes are single words: "mostly_stable" */
static json_t *stability_class(enum an_stability st)
{
    char word[32];
    snprintf(word, sizeof word, "%s", an_stability_name(st));
    for (char *p = word; *p; p++)
        if (*p == ' ')
            *p = '_';
    return json_string(word);
}

/* The id a seed 002 reader keys on: the case's, else the test's name. */
static json_t *id_of(const struct an_test_result *t)
{
    return str(t->id ? t->id : t->name);
}

static json_t *name_of(const struct an_test_result *t)
{
    const char *own = an_rpt_case_name(t);
    return str(own ? own : t->id ? t->id : t->name);
}

static json_t *assertion(const struct an_finding *f)
{
    json_t *o = json_object();
    const char *kind = f->kind ? f->kind : "other";
    /* a typed check is named as seed 002 writes it: "contains", not "check.contains" */
    set(o, "type", json_string(strncmp(kind, "check.", 6) ? kind : kind + 6));
    set(o, "passed", json_false());
    set(o, "message", str(f->assertion ? f->assertion : kind));
    set(o, "expected", str(f->expected));
    set(o, "actual", str(f->actual));
    set(o, "detail", str(f->detail));
    set(o, "turn", f->turn >= 0 ? json_integer((json_int_t)f->turn + 1) : json_null());
    if (f->file) {
        struct an_buf b = AN_BUF_INIT;
        an_buf_puts(&b, f->file);
        if (f->line)
            an_buf_printf(&b, ":%u", f->line);
        if (f->line && f->col)
            an_buf_printf(&b, ":%u", f->col);
        set(o, "location", an_json_lossy(b.data, b.len));
        an_buf_release(&b);
    } else {
        set(o, "location", json_null());
    }
    return o;
}

/* seed 002's "Dynamic Mode Output" keys, added to a result event */
static void dynamic(json_t *o, const struct an_test_result *t)
{
    const struct an_transcript *tr = &t->transcript;
    json_t *turns = json_array();
    for (size_t i = 0; i < tr->nturns; i++) {
        const struct an_turn_rec *r = &tr->turns[i];
        if (r->status == AN_TURN_NOT_RUN)
            continue;
        json_t *k = json_object();
        set(k, "turn", json_integer((json_int_t)i + 1));
        set(k, "input", str(r->input));
        set(k, "output", str(r->text));
        json_array_append_new(turns, k);
    }
    set(o, "turns", turns);
    json_t *cps = json_array();
    for (size_t i = 0; i < t->dyn->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &t->dyn->checkpoints[i];
        json_t *k = json_object();
        set(k, "id", str(c->id));
        set(k, "reached_at_turn",
            c->reached_at_turn >= 0 ? json_integer((json_int_t)c->reached_at_turn + 1)
                                    : json_null());
        set(k, "passed", json_boolean(c->reached_at_turn >= 0));
        set(k, "required", json_boolean(c->required));
        json_array_append_new(cps, k);
    }
    set(o, "checkpoints", cps);
    set(o, "total_turns", json_integer((json_int_t)an_result_turns_run(tr)));
}

static json_t *result_event(const struct an_test_result *t)
{
    const struct an_transcript *tr = &t->transcript;
    const char *input = NULL, *response = NULL;
    size_t sent = 0;
    for (size_t i = 0; i < tr->nturns; i++) {
        const struct an_turn_rec *r = &tr->turns[i];
        if (r->status == AN_TURN_NOT_RUN)
            continue;
        if (r->input) {
            sent++;
            if (!input)
                input = r->input;
        }
        response = r->text; /* the last turn that ran has the final word */
    }
    json_t *o = json_object();
    set(o, "type", json_string("result"));
    set(o, "id", id_of(t));
    set(o, "name", name_of(t));
    set(o, "file", str(t->file));
    set(o, "status", json_string(seed_status(t)));
    json_t *tags = json_array();
    for (size_t i = 0; i < t->ntags; i++)
        json_array_append_new(tags, str(t->tags[i]));
    set(o, "tags", tags);
    set(o, "skip_reason", t->status == AN_STATUS_SKIP ? str(t->skip_reason) : json_null());
    set(o, "duration_ms", json_integer(duration(t)));
    set(o, "input", str(input));
    set(o, "response", str(response));
    set(o, "messages_count",
        json_integer(t->status == AN_STATUS_SKIP ? 0 : (json_int_t)(t->nhistory + sent)));
    json_t *as = json_array();
    for (size_t i = 0; i < t->findings.n; i++)
        json_array_append_new(as, assertion(&t->findings.v[i]));
    set(o, "assertions", as);
    json_t *js = json_array(); /* every judge's verdict, passed or not */
    for (size_t i = 0; i < t->judgements.n; i++) {
        const struct an_judgement *g = &t->judgements.v[i];
        json_t *j = json_object();
        set(j, "agent", str(g->agent));
        set(j, "verdict",
            json_string(g->verdict > 0    ? "pass"
                        : g->verdict == 0 ? "fail"
                                          : "error"));
        set(j, "reason", str(g->reason));
        set(j, "answer", str(g->answer));
        json_array_append_new(js, j);
    }
    set(o, "judgements", js);
    if (t->status == AN_STATUS_ERROR)
        set(o, "error", str(t->error ? t->error : an_code_desc((enum an_code)t->error_code)));
    else
        set(o, "error", json_null());
    if (t->expect)
        set(o, "expected_failure",
            json_pack("{s:s,s:o}", "outcome", t->expect == AN_EXPECT_FAILED ? "failed" : "stale",
                      "reason", str(t->expect_reason)));
    if (t->status != AN_STATUS_SKIP) {
        struct an_metrics m;
        an_metrics_of(t, &m);
        set(o, "metrics", an_metrics_json(&m));
    }
    if (t->dyn)
        dynamic(o, t);
    return o;
}

static json_t *stability_event(const struct an_run_result *r, const struct an_test_result *t)
{
    enum an_stability st = an_stability_of(t->passes, t->runs);
    int64_t total = 0;
    for (unsigned i = 0; t->attempts && i < t->runs; i++)
        total += t->attempts[i].duration_ms;
    json_t *o = json_object();
    set(o, "type", json_string("stability"));
    set(o, "id", id_of(t));
    set(o, "name", name_of(t));
    set(o, "runs", json_integer(t->runs));
    set(o, "passed", json_integer(t->passes));
    set(o, "failed", json_integer(t->runs - t->passes));
    set(o, "pass_rate", rate(an_test_pass_rate(t)));
    set(o, "stable", json_boolean(st == AN_STABLE));
    set(o, "stability_class", stability_class(st));
    set(o, "avg_duration_ms", json_integer(t->attempts ? total / t->runs : duration(t)));
    /* the json reporter's object, key for key (docs/statistics.md) */
    set(o, "stats", an_result_json_stats(r, t));
    return o;
}

static json_t *start_event(const struct an_run_result *r)
{
    json_t *o = json_object();
    set(o, "type", json_string("start"));
    set(o, "ananke", json_string(ANANKE_VERSION));
    set(o, "started_at", iso(r->start_ms));
    set(o, "total", json_integer((json_int_t)r->ntests));
    set(o, "config", str(r->config_path));
    set(o, "runs_per_case", /* --repeat auto: as many as each test needs */
        r->adaptive ? json_string("auto") : json_integer(r->repeat ? r->repeat : 1));
    set(o, "parallel", json_integer(r->parallel ? r->parallel : 1));
    return o;
}

static json_t *summary_event(const struct an_run_result *r)
{
    struct an_counts c = an_run_result_counts(r);
    json_t *o = json_object();
    set(o, "type", json_string("summary"));
    set(o, "total", json_integer((json_int_t)r->ntests));
    set(o, "passed", json_integer((json_int_t)c.passed));
    set(o, "failed", json_integer((json_int_t)c.failed));
    set(o, "skipped", json_integer((json_int_t)c.skipped));
    /* seed 002 counts a timeout apart from the other errors */
    set(o, "errors", json_integer((json_int_t)(c.errors - c.timeouts)));
    set(o, "timeouts", json_integer((json_int_t)c.timeouts));
    set(o, "expected_failures", json_integer((json_int_t)c.xfailed));
    set(o, "stale", json_integer((json_int_t)c.stale));
    set(o, "not_run", json_integer((json_int_t)r->not_run));
    if (r->adaptive) { /* --repeat auto; seed 002's summary otherwise as it was */
        set(o, "inconclusive", json_integer((json_int_t)c.inconclusive));
        set(o, "runs_saved", json_integer((json_int_t)an_run_result_runs_saved(r)));
    }
    set(o, "pass_rate", rate(an_counts_pass_rate(&c)));
    set(o, "duration_ms", json_integer(r->end_ms > r->start_ms ? r->end_ms - r->start_ms : 0));
    set(o, "ended_at", iso(r->end_ms));
    set(o, "flaky", json_integer((json_int_t)c.flaky));
    set(o, "agent_calls", json_integer((json_int_t)an_run_result_agent_calls(r)));
    return o;
}

/* One event on one line; takes the reference. */
static void line(FILE *fp, json_t *ev)
{
    char *text = an_json_dumps(ev, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(ev);
    fputs(text, fp);
    fputc('\n', fp);
    free(text);
}

int an_report_jsonl(const struct an_run_result *r, const char *path, struct an_err *err)
{
    struct an_atomic_file f;
    int rc = an_atomic_open(&f, path, err);
    if (rc)
        return rc;
    /* written an event at a time: a run of 10000 tests is never one document */
    line(f.fp, start_event(r));
    for (size_t i = 0; i < r->ntests; i++)
        line(f.fp, result_event(&r->tests[i]));
    for (size_t i = 0; i < r->ntests; i++)
        if (r->tests[i].runs > 1)
            line(f.fp, stability_event(r, &r->tests[i]));
    line(f.fp, summary_event(r));
    /* a failed write sets the stream's error flag; commit reports it */
    return an_atomic_commit(&f, err);
}
