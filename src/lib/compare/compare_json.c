/*
 * compare-report.json: Report Contract v5 (seed 004, reference/
 * seed-origins.md §4.4) as ananke fills it, and its quality_flags.
 * schema/compare-report.schema.json is the contract in checkable form.
 *
 * Every path stored here is an href relative to the report directory and
 * every evidence reference a manifest_key; baseline_dir and new_dir are
 * informational only. quality_flags are not asserted but measured: each
 * *_href member of the report and each link of every page is checked
 * against the portability rules and looked up in the pack.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "compare/compare_int.h"
#include "report/metrics.h"
#include "report/report_util.h"

#ifndef ANANKE_VERSION
#define ANANKE_VERSION "unknown"
#endif

static json_t *str_or_null(const char *s)
{
    return s ? an_json_lossy(s, strlen(s)) : json_null();
}

static json_t *lossy(const char *s)
{
    return an_json_lossy(s ? s : "", s ? strlen(s) : 0);
}

static json_t *words(const char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, json_string(v[i]));
    return a;
}

static json_t *availability(const struct cmp_side *s)
{
    json_t *o = json_object();
    json_object_set_new(o, "status", json_string(cmp_avail_name(s->avail)));
    if (s->reason)
        json_object_set_new(o, "reason", lossy(s->reason));
    if (s->reason_code) {
        json_object_set_new(o, "reason_code", json_string(s->reason_code));
        if (s->avail == CMP_BROKEN && s->slug) {
            json_t *d = json_object();
            char path[200];
            snprintf(path, sizeof path, "tests/%.150s/%s", s->slug,
                     s->broken_file ? s->broken_file : "result.json");
            json_object_set_new(d, "file", json_string(path));
            json_object_set_new(o, "details", d);
        }
    } else if (s->failed_run && cmp_failure_is_transport(&s->failure)) {
        /* as the original: a runner failure's class and facts, though the
         * case's data is there */
        json_t *d = json_object();
        json_object_set_new(o, "reason_code", json_string(s->failure.cls));
        if (s->failure.http_status)
            json_object_set_new(d, "http_status", json_integer(s->failure.http_status));
        if (s->failure.timeout_ms)
            json_object_set_new(d, "timeout_ms", json_integer(s->failure.timeout_ms));
        json_object_set_new(d, "attempts", json_integer(s->failure.attempts));
        json_object_set_new(o, "details", d);
    }
    return o;
}

static json_t *trace(const struct cmp_trace *t)
{
    return json_pack("{s:s, s:o}", "status", t->status, "issues", words(t->issues, t->n));
}

static json_t *strv(char *const *v, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; i < n; i++)
        json_array_append_new(a, lossy(v[i]));
    return a;
}

static json_t *signal(const struct cmp_item *it, int side, const struct cmp_signal *g)
{
    json_t *d = json_object();
    if (g->tool)
        json_object_set_new(d, "tool", lossy(g->tool));
    if (g->call_id)
        json_object_set_new(d, "call_id", lossy(g->call_id));
    if (g->action_id)
        json_object_set_new(d, "action_id", lossy(g->action_id));
    if (g->nfields)
        json_object_set_new(d, "fields", strv(g->fields, g->nfields));
    if (g->nurls)
        json_object_set_new(d, "urls", strv(g->urls, g->nurls));
    if (g->notes)
        json_object_set_new(d, "notes", lossy(g->notes));
    char key[200];
    snprintf(key, sizeof key, "%s/%s/%s", it->fid, cmp_side_name[side], cmp_art_name[g->evidence]);
    json_t *ref = json_pack("{s:s, s:s}", "kind",
                            g->evidence == CMP_ART_FINAL_OUTPUT      ? "final_output"
                            : g->evidence == CMP_ART_FAILURE_SUMMARY ? "runner_failure"
                                                                     : "tool_call",
                            "manifest_key", key);
    if (g->call_id && g->evidence == CMP_ART_CASE_RESPONSE)
        json_object_set_new(ref, "call_id", lossy(g->call_id));
    json_t *refs = json_array();
    json_array_append_new(refs, ref);
    return json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}", "kind", g->kind, "severity",
                     cmp_sev_name(g->severity), "confidence", g->confidence, "title", g->title,
                     "details", d, "evidence_refs", refs);
}

static json_t *failure(const struct cmp_failure *f)
{
    json_t *o = json_pack("{s:s, s:s}", "class", f->cls, "code", f->code);
    if (f->message)
        json_object_set_new(o, "message", lossy(f->message));
    if (f->http_status)
        json_object_set_new(o, "http_status", json_integer(f->http_status));
    json_object_set_new(o, "attempts", json_integer(f->attempts));
    if (f->timeout_ms)
        json_object_set_new(o, "timeout_ms", json_integer(f->timeout_ms));
    if (f->net_error_kind)
        json_object_set_new(o, "net_error_kind", lossy(f->net_error_kind));
    if (f->turn >= 0)
        json_object_set_new(o, "turn", json_integer(f->turn + 1));
    return o;
}

static void link_pair(json_t *a, const struct cmp_pack *p, const char *name, const char *key)
{
    const char *rel = cmp_pack_rel(p, key);
    if (!rel)
        return;
    char k[80];
    snprintf(k, sizeof k, "%s_href", name);
    json_object_set_new(a, k, json_string(rel));
    snprintf(k, sizeof k, "%s_key", name);
    json_object_set_new(a, k, json_string(key));
}

static json_t *artifacts(const struct cmp_item *it, const struct cmp_pack *p)
{
    json_t *a = json_object();
    char key[200], name[80];
    snprintf(key, sizeof key, "%s/replay_diff", it->fid);
    json_object_set_new(a, "replay_diff_href", json_string(it->diff_href));
    json_object_set_new(a, "replay_diff_key", json_string(key));
    for (int k = 0; k < 2; k++) {
        snprintf(key, sizeof key, "run/%s/run_meta", cmp_side_name[k]);
        snprintf(name, sizeof name, "%s_run_meta", cmp_side_name[k]);
        link_pair(a, p, name, key);
        for (int art = 0; art < CMP_ART_COUNT; art++) {
            snprintf(key, sizeof key, "%s/%s/%s", it->fid, cmp_side_name[k], cmp_art_name[art]);
            snprintf(name, sizeof name, "%s_%s", cmp_side_name[k], cmp_art_name[art]);
            link_pair(a, p, name, key);
        }
    }
    snprintf(key, sizeof key, "%s/repro", it->fid);
    link_pair(a, p, "repro", key);
    return a;
}

/* new - baseline of one figure; null when either side does not know it */
static json_t *delta_int(bool known, int64_t base, int64_t now)
{
    return known ? json_integer(now - base) : json_null();
}

/* What every report shows of a test (report/metrics.h), on both sides,
 * and how it moved: a regression in calls, latency or tokens is visible
 * even when the verdict did not change. */
static json_t *metrics(const struct cmp_item *it)
{
    struct an_metrics m[2];
    bool have[2] = {false, false};
    json_t *o = json_object();
    for (int k = 0; k < 2; k++) {
        const struct an_test_result *t = it->side[k].t;
        if (t && t->status != AN_STATUS_SKIP) {
            an_metrics_of(t, &m[k]);
            have[k] = true;
            json_object_set_new(o, cmp_side_name[k], an_metrics_json(&m[k]));
        } else {
            json_object_set_new(o, cmp_side_name[k], json_null());
        }
    }
    const struct an_metrics *b = &m[CMP_BASE], *n = &m[CMP_NEW];
    if (!have[CMP_BASE] || !have[CMP_NEW]) {
        json_object_set_new(o, "delta", json_null());
        return o;
    }
    json_t *d = json_object();
    json_object_set_new(d, "tool_calls",
                        json_integer((json_int_t)n->tool_calls - (json_int_t)b->tool_calls));
    json_object_set_new(d, "turns", json_integer((json_int_t)n->turns - (json_int_t)b->turns));
    json_object_set_new(d, "duration_ms", json_integer(n->duration_ms - b->duration_ms));
    json_object_set_new(d, "ttft_ms",
                        delta_int(b->ttft_ms >= 0 && n->ttft_ms >= 0, b->ttft_ms, n->ttft_ms));
    json_object_set_new(
        d, "total_tokens",
        delta_int(b->usage.has_total && n->usage.has_total, b->usage.total, n->usage.total));
    json_object_set_new(d, "cost",
                        b->usage.has_cost && n->usage.has_cost
                            ? json_real(n->usage.cost - b->usage.cost)
                            : json_null());
    json_object_set_new(o, "delta", d);
    return o;
}

static json_t *item_json(const struct cmp_item *it, const struct cmp_pack *p)
{
    json_t *o = json_object(), *avail = json_object(), *tr = json_object(), *sec = json_object(),
           *fs = json_object();
    json_object_set_new(o, "case_id", lossy(it->case_id));
    json_object_set_new(o, "title", lossy(it->title));
    json_object_set_new(o, "test_file", str_or_null(it->file));
    for (int k = 0; k < 2; k++) {
        const struct cmp_side *s = &it->side[k];
        json_object_set_new(avail, cmp_side_name[k], availability(s));
        json_object_set_new(tr, cmp_side_name[k], trace(&s->trace));
        json_t *sigs = json_array();
        for (size_t i = 0; i < s->sig.n; i++)
            json_array_append_new(sigs, signal(it, k, &s->sig.v[i]));
        /* v1 shape: derived from the case's gate, the same on both sides */
        json_object_set_new(sec, cmp_side_name[k],
                            json_pack("{s:o, s:b}", "signals", sigs, "requires_gate_recommendation",
                                      it->gate != AN_GATE_NONE));
        if (s->failed_run)
            json_object_set_new(fs, cmp_side_name[k], failure(&s->failure));
    }
    json_object_set_new(o, "data_availability", avail);
    json_object_set_new(o, "case_status", json_string(cmp_case_status_name(it->status)));
    json_object_set_new(o, "case_status_reason", json_string(it->status_reason));
    json_object_set_new(o, "baseline_status", json_string(it->side[CMP_BASE].word));
    json_object_set_new(o, "new_status", json_string(it->side[CMP_NEW].word));
    json_object_set_new(o, "change",
                        json_string(it->change == AN_CHANGE_REGRESSION    ? "regression"
                                    : it->change == AN_CHANGE_IMPROVEMENT ? "improvement"
                                                                          : "none"));
    json_object_set_new(o, "baseline_pass", json_boolean(it->side[CMP_BASE].pass));
    json_object_set_new(o, "new_pass", json_boolean(it->side[CMP_NEW].pass));
    if (it->side[CMP_BASE].root)
        json_object_set_new(o, "baseline_root",
                            json_string(cmp_root_name(it->side[CMP_BASE].root)));
    if (it->side[CMP_NEW].root)
        json_object_set_new(o, "new_root", json_string(cmp_root_name(it->side[CMP_NEW].root)));
    json_object_set_new(o, "preventable_by_policy", json_boolean(it->preventable));
    json_object_set_new(o, "recommended_policy_rules", words(it->rules, it->nrules));
    json_object_set_new(o, "trace_integrity", tr);
    json_object_set_new(o, "metrics", metrics(it));
    if (it->repeated) {
        json_object_set_new(o, "stats", cmp_rstats_json(&it->rs));
        json_object_set_new(o, "medians", cmp_medians_json(&it->rs));
    }
    json_object_set_new(o, "security", sec);
    json_object_set_new(o, "risk_level", json_string(cmp_risk_level(it->gate)));
    json_object_set_new(o, "risk_tags", words(it->tags, it->ntags));
    json_object_set_new(o, "gate_recommendation", json_string(an_gate_name(it->gate)));
    if (json_object_size(fs))
        json_object_set_new(o, "failure_summary", fs);
    else
        json_decref(fs);
    json_object_set_new(o, "artifacts", artifacts(it, p));
    return o;
}

static json_t *sev_counts(const size_t c[5])
{
    return json_pack("{s:I, s:I, s:I, s:I}", "low", (json_int_t)c[CMP_SEV_LOW], "medium",
                     (json_int_t)c[CMP_SEV_MEDIUM], "high", (json_int_t)c[CMP_SEV_HIGH], "critical",
                     (json_int_t)c[CMP_SEV_CRITICAL]);
}

/* Up to 5 signal kinds, most frequent first (ties: first seen first). */
static json_t *top_kinds(const struct an_compare *c, int side)
{
    const char *kinds[32];
    size_t counts[32], n = 0;
    for (size_t i = 0; i < c->nitems; i++) {
        const struct cmp_signals *s = &c->items[i].side[side].sig;
        for (size_t k = 0; k < s->n; k++) {
            size_t j = 0;
            while (j < n && strcmp(kinds[j], s->v[k].kind))
                j++;
            if (j == n && n < 32) {
                kinds[n] = s->v[k].kind;
                counts[n++] = 0;
            }
            if (j < n)
                counts[j]++;
        }
    }
    json_t *a = json_array();
    for (size_t taken = 0; taken < 5 && taken < n; taken++) {
        size_t best = n;
        for (size_t j = 0; j < n; j++)
            if (counts[j] && (best == n || counts[j] > counts[best]))
                best = j;
        if (best == n)
            break;
        json_array_append_new(a, json_string(kinds[best]));
        counts[best] = 0;
    }
    return a;
}

static json_t *summary(const struct an_compare *c)
{
    size_t bpass = 0, npass = 0, reg = 0, imp = 0, approval = 0, block = 0;
    size_t risk[3] = {0, 0, 0}, roots[CMP_ROOT_COUNT] = {0};
    size_t sev[2][5] = {{0}}, with_sig[2] = {0, 0}, missing[2] = {0, 0}, broken[2] = {0, 0};
    for (size_t i = 0; i < c->nitems; i++) {
        const struct cmp_item *it = &c->items[i];
        bpass += it->side[CMP_BASE].pass;
        npass += it->side[CMP_NEW].pass;
        reg += it->change == AN_CHANGE_REGRESSION;
        imp += it->change == AN_CHANGE_IMPROVEMENT;
        approval += it->gate == AN_GATE_REQUIRE_APPROVAL;
        block += it->gate == AN_GATE_BLOCK;
        risk[it->gate]++;
        if (it->status == CMP_EXECUTED && !it->side[CMP_NEW].pass && it->side[CMP_NEW].root)
            roots[it->side[CMP_NEW].root]++;
        for (int k = 0; k < 2; k++) {
            const struct cmp_side *s = &it->side[k];
            with_sig[k] += s->sig.n > 0;
            for (size_t g = 0; g < s->sig.n; g++)
                sev[k][s->sig.v[g].severity]++;
            missing[k] += s->avail == CMP_MISSING;
            broken[k] += s->avail == CMP_BROKEN;
        }
    }
    json_t *rb = json_object();
    for (int r = 1; r < CMP_ROOT_COUNT; r++)
        if (roots[r])
            json_object_set_new(rb, cmp_root_name((enum cmp_root)r),
                                json_integer((json_int_t)roots[r]));
    json_t *quality = json_pack("{s:s, s:s}", "transfer_class", "internal_only", "redaction_status",
                                cmp_redactor_active(c->red) ? "applied" : "none");
    if (cmp_redactor_preset_id(c->red))
        json_object_set_new(quality, "redaction_preset_id",
                            json_string(cmp_redactor_preset_id(c->red)));
    json_t *security = json_pack(
        "{s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "total_cases", (json_int_t)c->nitems,
        "cases_with_signals_new", (json_int_t)with_sig[CMP_NEW], "cases_with_signals_baseline",
        (json_int_t)with_sig[CMP_BASE], "signal_counts_new", sev_counts(sev[CMP_NEW]),
        "signal_counts_baseline", sev_counts(sev[CMP_BASE]), "top_signal_kinds_new",
        top_kinds(c, CMP_NEW), "top_signal_kinds_baseline", top_kinds(c, CMP_BASE));
    json_t *coverage = json_pack(
        "{s:I, s:I, s:I, s:I, s:I, s:I}", "total_cases", (json_int_t)c->nitems, "items_emitted",
        (json_int_t)c->nitems, "missing_baseline_artifacts", (json_int_t)missing[CMP_BASE],
        "missing_new_artifacts", (json_int_t)missing[CMP_NEW], "broken_baseline_artifacts",
        (json_int_t)broken[CMP_BASE], "broken_new_artifacts", (json_int_t)broken[CMP_NEW]);
    return json_pack(
        "{s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:{s:I, s:I, s:I}, s:I, s:I, s:o}", "baseline_pass",
        (json_int_t)bpass, "new_pass", (json_int_t)npass, "regressions", (json_int_t)reg,
        "improvements", (json_int_t)imp, "root_cause_breakdown", rb, "quality", quality, "security",
        security, "risk_summary", "low", (json_int_t)risk[AN_GATE_NONE], "medium",
        (json_int_t)risk[AN_GATE_REQUIRE_APPROVAL], "high", (json_int_t)risk[AN_GATE_BLOCK],
        "cases_requiring_approval", (json_int_t)approval, "cases_block_recommended",
        (json_int_t)block, "data_coverage", coverage);
}

static json_t *run_info(const struct cmp_run *run, int side, const struct cmp_pack *p)
{
    json_t *o = json_object(), *m = run->meta;
    json_object_set_new(o, "run_id", str_or_null(an_json_str(m, "run_id")));
    json_object_set_new(o, "ananke_version", str_or_null(an_json_str(m, "ananke_version")));
    json_object_set_new(o, "started_at", str_or_null(an_json_str(m, "started_at")));
    json_object_set_new(o, "ended_at", str_or_null(an_json_str(m, "ended_at")));
    json_object_set_new(o, "target_type",
                        str_or_null(an_json_str(json_object_get(m, "target"), "type")));
    json_object_set_new(o, "tests", json_integer((json_int_t)run->res.ntests));
    char key[64];
    snprintf(key, sizeof key, "run/%s/run_meta", cmp_side_name[side]);
    link_pair(o, p, "run_meta", key);
    snprintf(key, sizeof key, "run/%s/results", cmp_side_name[side]);
    link_pair(o, p, "results", key);
    snprintf(key, sizeof key, "run/%s/redactions", cmp_side_name[side]);
    link_pair(o, p, "redactions", key);
    return o;
}

json_t *cmp_report_json(const struct an_compare *c, const struct cmp_pack *p)
{
    char ts[40];
    json_t *items = json_array();
    for (size_t i = 0; i < c->nitems; i++)
        json_array_append_new(items, item_json(&c->items[i], p));
    json_t *o = json_object();
    json_object_set_new(o, "contract_version", json_integer(5));
    json_object_set_new(o, "report_id", lossy(c->report_id));
    json_object_set_new(o, "generated_at", json_string(an_iso8601_ms(ts, sizeof ts, c->now_ms)));
    json_object_set_new(o, "generator",
                        json_pack("{s:s, s:s}", "name", "ananke", "version", ANANKE_VERSION));
    json_object_set_new(o, "baseline_dir", lossy(c->run[CMP_BASE].dir));
    json_object_set_new(o, "new_dir", lossy(c->run[CMP_NEW].dir));
    json_object_set_new(o, "runs",
                        json_pack("{s:o, s:o}", "baseline",
                                  run_info(&c->run[CMP_BASE], CMP_BASE, p), "new",
                                  run_info(&c->run[CMP_NEW], CMP_NEW, p)));
    json_object_set_new(o, "summary", summary(c));
    json_object_set_new(o, "items", items);
    json_t *cov = cmp_tool_coverage(c);
    if (cov) /* only when a run had tool servers */
        json_object_set_new(o, "tool_coverage", cov);
    json_t *repro = json_object();
    link_pair(repro, p, "config", "repro/config");
    link_pair(repro, p, "baseline_config", "repro/baseline_config");
    if (json_object_size(repro))
        json_object_set_new(o, "repro", repro);
    else
        json_decref(repro);
    return o;
}

/* --- quality flags --------------------------------------------------------- */

struct qf {
    const struct cmp_pack *p;
    json_t *missing, *violations;
    size_t checked;
};

static void entry(json_t *list, const char *where, const char *value, const char *why)
{
    struct an_buf b = AN_BUF_INIT;
    an_buf_printf(&b, "%s=%s", where, value);
    if (why)
        an_buf_printf(&b, " (%s)", why);
    json_array_append_new(list, an_json_lossy(b.data, b.len));
    an_buf_release(&b);
}

static void check_href(struct qf *q, const char *where, const char *href)
{
    q->checked++;
    const char *why = cmp_href_violation(href);
    if (why) {
        entry(q->violations, where, href, why);
        return;
    }
    size_t n = strcspn(href, "#");
    if (!n)
        return; /* "#x": this page */
    char *path = an_xstrndup(href, n);
    if (!cmp_pack_has_file(q->p, path))
        entry(q->missing, where, href, NULL);
    free(path);
}

static void walk(struct qf *q, const json_t *v, struct an_buf *where, int depth)
{
    const char *k;
    json_t *x;
    size_t i, mark = where->len;
    if (depth > 32)
        return;
    if (json_is_object(v)) {
        json_object_foreach((json_t *)v, k, x)
        {
            an_buf_printf(where, "%s%s", where->len ? "." : "", k);
            size_t n = strlen(k);
            if (json_is_string(x) && n > 5 && !strcmp(k + n - 5, "_href")) {
                check_href(q, an_buf_cstr(where), json_string_value(x));
            } else if (json_is_string(x) && !strcmp(k, "manifest_key")) {
                q->checked++;
                if (!cmp_pack_rel(q->p, json_string_value(x)))
                    entry(q->missing, an_buf_cstr(where), json_string_value(x),
                          "no such manifest key");
            } else {
                walk(q, x, where, depth + 1);
            }
            where->len = mark;
            where->data[mark] = '\0';
        }
    } else if (json_is_array(v)) {
        json_array_foreach(v, i, x)
        {
            an_buf_printf(where, "[%zu]", i);
            walk(q, x, where, depth + 1);
            where->len = mark;
            where->data[mark] = '\0';
        }
    }
}

/* A stored path that names a file by where it sat on the recording
 * machine: absolute (/..., \\..., C:\\...). A report moved to another
 * machine cannot use it, and it tells where the project lived. */
static bool path_absolute(const char *s)
{
    return s && (s[0] == '/' || s[0] == '\\' ||
                 (isalpha((unsigned char)s[0]) && s[1] == ':' && (s[2] == '/' || s[2] == '\\')));
}

static void stored_path(struct qf *q, const char *file, const char *field, const json_t *v)
{
    if (!json_is_string(v))
        return;
    q->checked++;
    if (path_absolute(json_string_value(v))) {
        struct an_buf w = AN_BUF_INIT;
        an_buf_printf(&w, "%s:%s", file, field);
        entry(q->violations, an_buf_cstr(&w), json_string_value(v), "absolute path");
        an_buf_release(&w);
    }
}

/* The paths the pack's raw copies store (seed 004: portable_paths "is
 * computed by scanning stored path/href strings"): run.json's config path,
 * selection paths and test files, results.json's config, test files and
 * finding locations. Every path ananke writes is relative to the project
 * directory; only a file outside the project keeps an absolute one. */
static void stored_paths(struct qf *q, const struct an_compare *c)
{
    char field[64];
    for (int k = 0; k < 2; k++) {
        const struct cmp_run *run = &c->run[k];
        char file[40];
        size_t i, j;
        json_t *v, *f;
        snprintf(file, sizeof file, "%s/run.json", cmp_side_name[k]);
        stored_path(q, file, "config.path",
                    json_object_get(json_object_get(run->meta, "config"), "path"));
        json_array_foreach(json_object_get(json_object_get(run->meta, "selection"), "paths"), i, v)
        {
            snprintf(field, sizeof field, "selection.paths[%zu]", i);
            stored_path(q, file, field, v);
        }
        json_array_foreach(json_object_get(run->meta, "tests"), i, v)
        {
            snprintf(field, sizeof field, "tests[%zu].file", i);
            stored_path(q, file, field, json_object_get(v, "file"));
        }
        snprintf(file, sizeof file, "%s/results.json", cmp_side_name[k]);
        stored_path(q, file, "config", json_object_get(run->doc, "config"));
        json_array_foreach(json_object_get(run->doc, "tests"), i, v)
        {
            snprintf(field, sizeof field, "tests[%zu].file", i);
            stored_path(q, file, field, json_object_get(v, "file"));
            json_array_foreach(json_object_get(v, "findings"), j, f)
            {
                snprintf(field, sizeof field, "tests[%zu].findings[%zu].location", i, j);
                stored_path(q, file, field, json_object_get(f, "location"));
            }
        }
    }
}

json_t *cmp_quality_flags(const json_t *report, const struct cmp_pack *p,
                          const struct an_compare *c)
{
    struct qf q = {p, json_array(), json_array(), 0};
    struct an_buf where = AN_BUF_INIT;
    an_buf_puts(&where, "");
    walk(&q, report, &where, 0);
    an_buf_release(&where);
    if (c)
        stored_paths(&q, c);
    for (size_t i = 0; i < p->nlinks; i++)
        check_href(&q, p->links[i].where, p->links[i].href);
    size_t nm = json_array_size(q.missing), nv = json_array_size(q.violations);
    return json_pack("{s:b, s:b, s:I, s:I, s:I, s:o, s:o}", "self_contained", nm == 0,
                     "portable_paths", nv == 0, "hrefs_checked", (json_int_t)q.checked,
                     "missing_assets_count", (json_int_t)nm, "path_violations_count",
                     (json_int_t)nv, "missing_assets", q.missing, "path_violations", q.violations);
}
