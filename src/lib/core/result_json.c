/*
 * The result model as JSON (core/result_json.h): what the json reporter
 * writes, `ananke run --record` keeps (results.json) and `ananke merge`,
 * replay and compare read back (result_json_read.c). Keys always in this
 * order, so two reports diff cleanly.
 *
 * Shape (a reader such as `ananke merge` may rely on every key being present;
 * "?" marks values that may be null):
 *
 * {
 *   "ananke": "0.1.0",              version that wrote the file
 *   "started_ms": 1737100000000,    Unix ms, run start
 *   "ended_ms": 1737100001420,      Unix ms, run end
 *   "duration_ms": 1420,            ended_ms - started_ms
 *   "config": "ananke.config.yaml"?, config file used
 *   "summary": {"total": 5, "passed": 3, "failed": 1, "errors": 1, "skipped": 0,
 *               "inconclusive": 0, "expected_failures": 1, "stale": 0, "not_run": 0,
 *               "runs_saved": 0, "flaky": 0, "agent_calls": 5},
 *               (expected_failures: of the failed, those --expected-failures lists;
 *                stale: of the passed, those it lists; inconclusive: --repeat auto
 *                could not decide; runs_saved: --repeat auto, the sum over the
 *                tests it decided of --max-repeats minus the runs each needed;
 *                flaky: repeated tests whose runs disagree; agent_calls: every run
 *                of every test that ran)
 *   "options": {"parallel": 1, "repeat": 1 | "auto", "pass_rate": 1.0,
 *               "max_repeats": 20?,  (--repeat auto; else null)
 *               "shard": "2/4"?, "filter": "re"?,
 *               "pass_k": 3?, "confidence": 0.95, "fail_on_flaky": false},
 *               (pass_k null: each test's runs)
 *   "tool_coverage": {SERVER: {   only when the config names tool servers
 *       "exposed": ["echo", ...], its tools/list (docs/tools.md "Tool coverage")
 *       "called": {"echo": {"calls": 3, "tests": 2, "argument_keys": ["message"],
 *                           "mocked": 1}},
 *       "ratio": 0.25?}},         called and exposed / exposed; null: none exposed
 *   "tests": [{
 *     "name": "pays once",
 *     "id": "T001"?,                a JSONL case's id; null for a YAML test
 *     "file": "tests/checkout.test.yaml"?,
 *     "status": "pass" | "fail" | "error" | "skip" | "inconclusive",
 *                                   skip: never run, duration 0; inconclusive:
 *                                   --repeat auto ran max_runs runs undecided
 *     "tags": ["smoke"],            the test's `tags`, as written
 *     "skip_reason": "..."?,        skip: the reason `skip:` gave
 *     "start_ms": 1737100000000,    Unix ms, before hooks
 *     "duration_ms": 812,           end = start_ms + duration_ms
 *     "trace_id": "4bf92f35..."?,   --otlp: the test's OpenTelemetry trace (32 hex
 *                                   digits, docs/otel.md); absent otherwise
 *     "findings": [{                failed assertions (may be non-empty on "error")
 *       "kind": "tools.require",    one of the static kinds in ananke/result.h
 *       "turn": 2?,                 1-based turn; null = test level
 *       "assertion": "Tool \"x\" must be called"?,
 *       "expected": "at least 1 call"?,
 *       "actual": "0 calls"?,
 *       "detail": "..."?,
 *       "location": "file:line:col"?  the assertion's source; ":col" or
 *                                   ":line:col" are left out when unknown,
 *                                   so split from the right on digits only
 *     }],
 *     "judgements": [{              agent checks (judges), in the order they ran
 *       "agent": "judge", "turn": 1?, "location": "file:line:col"?,
 *       "verdict": "pass" | "fail" | "error", "reason": "..."?,
 *       "duration_ms": 812, "shown": "what the judge was sent",
 *       "answer": "what it answered"?
 *     }],
 *     "error": {                    null unless status is "error"
 *       "code": "AN_ECONNECT",      an_code_name(); map back by name
 *       "message": "...",
 *       "turn": 2?                  1-based; null = outside any turn (hooks)
 *     }?,
 *     "variables": ["TOKEN"],       hook variable names (values may be secret)
 *     "timed_out": false,           --timeout cut the test
 *     "expected_failure": {         null unless --expected-failures lists the test
 *       "outcome": "failed" | "stale",  failed as listed / passed though listed
 *       "reason": "..."?            the list's reason
 *     }?,
 *     "metrics": {                  null when skipped (report/metrics.h)
 *       "tool_calls": 2, "turns": 1, "duration_ms": 812,
 *       "ttft_ms": 120?,            the first turn with text: request -> first text
 *       "usage": {"input_tokens"?, "output_tokens"?, "total_tokens"?, "cost"?}?
 *     }?,
 *     "runs": 5, "passes": 3,       --repeat (1 and 0/1 when not repeated, 0 and 0 skipped)
 *     "pass_rate": 0.6?, "stability": "unstable"?,  null when skipped
 *     "attempts": [{"status", "duration_ms", "summary"?, "total_tokens"?}],  one per run
 *                                   when repeated; total_tokens when the agent reported usage
 *     "max_runs": 20?,              --repeat auto: the runs it could have taken; else null
 *     "stats": {                    a repeated test (docs/statistics.md); null otherwise
 *       "runs": 5, "passes": 3, "pass_rate": 0.6,
 *       "k": 5, "pass_at_k": 1.0?, "pass_hat_k": 0.0?,  null when k > runs
 *       "ci_low": 0.1466, "ci_high": 0.9473,   the interval at options.confidence
 *       "ci_method": "clopper-pearson" | "wilson",   clopper-pearson below 10 runs
 *       "flaky": true               its runs disagree
 *     }?,
 *     "dynamic": {                  a dynamic test (seed 002); null for a static one
 *       "simulator": "user-sim"?,   the simulator agent's name
 *       "end": "all_reached" | "goal_achieved" | "max_turns" | "timeout" | "error",
 *       "seed": 42?,                --seed given to the simulator
 *       "total_turns": 3,           turns that ran: the transcript's turns,
 *                                   each input written by the simulator
 *       "checkpoints": [{"id": "ask_type", "description": "..."?, "required": true,
 *                        "reached": true, "reached_at_turn": 1?,  1-based; null = never
 *                        "evidence": "what satisfied it"?,
 *                        "missed": "the check that failed, and why"? (never reached)}],
 *       "reasoning": ["why it said that"?]  the simulator's, per turn (index 0 = turn 1)
 *     }?,
 *     "transcript": {...}           an_transcript_to_json(t, false)
 *   }]
 * }
 *
 * Strings that came from an agent may have been invalid UTF-8; each bad byte
 * is written as U+FFFD, so the file is always valid JSON.
 */
#include "core/result_json.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/result_metrics.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

static json_t *str(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

static json_t *turn1(int turn)
{
    return turn >= 0 ? json_integer((json_int_t)turn + 1) : json_null();
}

static json_t *location_of(const char *file, unsigned line, unsigned col)
{
    if (!file)
        return json_null();
    struct an_buf b = AN_BUF_INIT;
    an_buf_puts(&b, file);
    if (line) {
        an_buf_printf(&b, ":%u", line);
        if (col)
            an_buf_printf(&b, ":%u", col);
    }
    json_t *v = an_json_lossy(b.data, b.len);
    an_buf_release(&b);
    return v;
}

/* json_object_set_new() in a fixed order is what keeps the key order. */
static void set(json_t *o, const char *key, json_t *v)
{
    if (!v || json_object_set_new(o, key, v) != 0)
        an_oom();
}

static json_t *judgement(const struct an_judgement *g)
{
    json_t *o = json_object();
    set(o, "agent", str(g->agent));
    set(o, "turn", turn1(g->turn));
    set(o, "location", location_of(g->file, g->line, g->col));
    set(o, "verdict", json_string(g->verdict > 0 ? "pass" : g->verdict == 0 ? "fail" : "error"));
    set(o, "reason", str(g->reason));
    set(o, "duration_ms", json_integer(g->duration_ms));
    set(o, "shown", str(g->shown));
    set(o, "answer", str(g->answer));
    return o;
}

static json_t *finding(const struct an_finding *f)
{
    json_t *o = json_object();
    set(o, "kind", str(f->kind));
    set(o, "turn", turn1(f->turn));
    set(o, "assertion", str(f->assertion));
    set(o, "expected", str(f->expected));
    set(o, "actual", str(f->actual));
    set(o, "detail", str(f->detail));
    set(o, "location", location_of(f->file, f->line, f->col));
    return o;
}

static json_t *dynamic(const struct an_test_result *t)
{
    const struct an_dynamic_result *d = t->dyn;
    if (!d)
        return json_null();
    json_t *o = json_object();
    set(o, "simulator", str(d->simulator));
    set(o, "end", json_string(an_dyn_end_name(d->end)));
    set(o, "seed", d->seed >= 0 ? json_integer((json_int_t)d->seed) : json_null());
    set(o, "total_turns", json_integer((json_int_t)an_result_turns_run(&t->transcript)));
    json_t *cps = json_array();
    for (size_t i = 0; i < d->ncheckpoints; i++) {
        const struct an_checkpoint_result *c = &d->checkpoints[i];
        json_t *k = json_object();
        set(k, "id", str(c->id));
        set(k, "description", str(c->description));
        set(k, "required", json_boolean(c->required));
        set(k, "reached", json_boolean(c->reached_at_turn >= 0));
        set(k, "reached_at_turn", turn1(c->reached_at_turn));
        set(k, "evidence", str(c->evidence));
        if (c->missed)
            set(k, "missed", str(c->missed));
        json_array_append_new(cps, k);
    }
    set(o, "checkpoints", cps);
    json_t *why = json_array();
    for (size_t i = 0; i < d->nreasoning; i++)
        json_array_append_new(why, str(d->reasoning[i]));
    set(o, "reasoning", why);
    return o;
}

/* A statistic to 15 significant digits: far below its own uncertainty,
 * and what keeps the document's reals short (an_json_dumps writes every
 * real of a document with 17 digits as soon as one needs them). NAN, an
 * estimate that does not exist, is null. */
static json_t *real_or_null(double v)
{
    if (!isfinite(v))
        return json_null();
    char t[40];
    snprintf(t, sizeof t, "%.15g", v);
    return json_real(strtod(t, NULL));
}

json_t *an_result_json_stats(const struct an_run_result *r, const struct an_test_result *t)
{
    struct an_test_stats s;
    if (!an_test_stats(t, r->pass_k, r->confidence, &s))
        return json_null();
    json_t *o = json_object();
    set(o, "runs", json_integer(s.runs));
    set(o, "passes", json_integer(s.passes));
    set(o, "pass_rate", real_or_null(s.pass_rate));
    set(o, "k", json_integer(s.k));
    set(o, "pass_at_k", real_or_null(s.pass_at_k));
    set(o, "pass_hat_k", real_or_null(s.pass_hat_k));
    set(o, "ci_low", real_or_null(s.ci_low));
    set(o, "ci_high", real_or_null(s.ci_high));
    set(o, "ci_method", json_string(s.ci_method));
    set(o, "flaky", json_boolean(s.flaky));
    return o;
}

json_t *an_result_json_test(const struct an_run_result *r, const struct an_test_result *t)
{
    json_t *o = json_object();
    set(o, "name", str(t->name));
    set(o, "id", str(t->id));
    set(o, "file", str(t->file));
    set(o, "status", json_string(an_status_name(t->status)));
    json_t *tags = json_array();
    for (size_t i = 0; i < t->ntags; i++)
        json_array_append_new(tags, str(t->tags[i]));
    set(o, "tags", tags);
    set(o, "skip_reason", t->status == AN_STATUS_SKIP ? str(t->skip_reason) : json_null());
    set(o, "start_ms", json_integer(t->start_ms));
    set(o, "duration_ms", json_integer(t->end_ms > t->start_ms ? t->end_ms - t->start_ms : 0));
    if (t->trace_id[0])
        set(o, "trace_id", json_string(t->trace_id));
    json_t *fs = json_array();
    for (size_t i = 0; i < t->findings.n; i++)
        json_array_append_new(fs, finding(&t->findings.v[i]));
    set(o, "findings", fs);
    json_t *js = json_array();
    for (size_t i = 0; i < t->judgements.n; i++)
        json_array_append_new(js, judgement(&t->judgements.v[i]));
    set(o, "judgements", js);
    if (t->status == AN_STATUS_ERROR) {
        json_t *e = json_object();
        set(e, "code", json_string(an_code_name((enum an_code)t->error_code)));
        set(e, "message", str(t->error ? t->error : an_code_desc((enum an_code)t->error_code)));
        set(e, "turn", turn1(t->error_turn));
        set(o, "error", e);
    } else {
        set(o, "error", json_null());
    }
    json_t *vars = json_array();
    for (size_t i = 0; i < t->nvar_names; i++)
        json_array_append_new(vars, str(t->var_names[i]));
    set(o, "variables", vars);
    set(o, "timed_out", json_boolean(t->timed_out));
    if (t->expect)
        set(o, "expected_failure",
            json_pack("{s:s,s:o}", "outcome", t->expect == AN_EXPECT_FAILED ? "failed" : "stale",
                      "reason", str(t->expect_reason)));
    else
        set(o, "expected_failure", json_null());
    if (t->status != AN_STATUS_SKIP) {
        struct an_metrics m;
        an_metrics_of(t, &m);
        set(o, "metrics", an_metrics_json(&m));
    } else {
        set(o, "metrics", json_null());
    }
    bool skip = t->status == AN_STATUS_SKIP; /* not run: no rate, no stability */
    unsigned runs = skip ? 0 : t->runs ? t->runs : 1;
    unsigned passes = t->runs ? t->passes : t->status == AN_STATUS_PASS;
    set(o, "runs", json_integer(runs));
    set(o, "passes", json_integer(passes));
    set(o, "pass_rate", skip ? json_null() : json_real(an_test_pass_rate(t)));
    set(o, "stability",
        skip ? json_null() : json_string(an_stability_name(an_stability_of(passes, runs))));
    json_t *att = json_array();
    for (unsigned i = 0; t->attempts && i < t->runs; i++) {
        json_t *a = json_pack("{s:s,s:I,s:o}", "status", an_status_name(t->attempts[i].status),
                              "duration_ms", (json_int_t)t->attempts[i].duration_ms, "summary",
                              str(t->attempts[i].summary));
        if (t->attempts[i].total_tokens >= 0) /* only when the agent reported it */
            set(a, "total_tokens", json_integer(t->attempts[i].total_tokens));
        json_array_append_new(att, a);
    }
    set(o, "attempts", att);
    set(o, "max_runs", t->max_runs ? json_integer(t->max_runs) : json_null());
    set(o, "stats", an_result_json_stats(r, t));
    set(o, "dynamic", dynamic(t));
    set(o, "transcript", an_transcript_to_json(&t->transcript, false));
    return o;
}

json_t *an_result_json_head(const struct an_run_result *r)
{
    struct an_counts c = an_run_result_counts(r);
    json_t *o = json_object();
    set(o, "ananke", json_string(ANANKE_VERSION));
    set(o, "started_ms", json_integer(r->start_ms));
    set(o, "ended_ms", json_integer(r->end_ms));
    set(o, "duration_ms", json_integer(r->end_ms > r->start_ms ? r->end_ms - r->start_ms : 0));
    set(o, "config", str(r->config_path));
    json_t *s = json_object();
    set(s, "total", json_integer((json_int_t)r->ntests));
    set(s, "passed", json_integer((json_int_t)c.passed));
    set(s, "failed", json_integer((json_int_t)c.failed));
    set(s, "errors", json_integer((json_int_t)c.errors));
    set(s, "skipped", json_integer((json_int_t)c.skipped));
    set(s, "inconclusive", json_integer((json_int_t)c.inconclusive));
    set(s, "expected_failures", json_integer((json_int_t)c.xfailed));
    set(s, "stale", json_integer((json_int_t)c.stale));
    set(s, "not_run", json_integer((json_int_t)r->not_run));
    set(s, "runs_saved", json_integer((json_int_t)an_run_result_runs_saved(r)));
    set(s, "flaky", json_integer((json_int_t)c.flaky));
    set(s, "agent_calls", json_integer((json_int_t)an_run_result_agent_calls(r)));
    set(o, "summary", s);
    json_t *opt = json_object();
    set(opt, "parallel", json_integer(r->parallel ? r->parallel : 1));
    set(opt, "repeat", r->adaptive ? json_string("auto") : json_integer(r->repeat ? r->repeat : 1));
    set(opt, "pass_rate", json_real(r->pass_rate > 0 ? r->pass_rate : 1.0));
    set(opt, "max_repeats", r->adaptive ? json_integer(r->max_repeats) : json_null());
    set(opt, "shard", str(r->shard));
    set(opt, "filter", str(r->filter));
    set(opt, "pass_k", r->pass_k ? json_integer(r->pass_k) : json_null());
    set(opt, "confidence",
        json_real(r->confidence > 0 && r->confidence < 1 ? r->confidence : AN_CONFIDENCE_DEFAULT));
    set(opt, "fail_on_flaky", json_boolean(r->fail_on_flaky));
    set(o, "options", opt);
    if (r->tool_coverage)
        set(o, "tool_coverage", json_deep_copy(r->tool_coverage));
    return o;
}

json_t *an_run_result_to_json(const struct an_run_result *r)
{
    json_t *o = an_result_json_head(r);
    json_t *tests = json_array();
    for (size_t i = 0; i < r->ntests; i++)
        json_array_append_new(tests, an_result_json_test(r, &r->tests[i]));
    set(o, "tests", tests);
    return o;
}
