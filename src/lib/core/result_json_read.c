/*
 * Reading a JSON report back (the shape written by result_json.c) into a run
 * result, so `ananke merge` can join the results of shards and write any
 * report from them. Only what reporters use is read back; unknown keys
 * are ignored so newer files still merge.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/intern.h"
#include "core/json.h"
#include "core/result_json.h"
#include "core/nofollow.h"

static char *dup_str(const json_t *o, const char *k)
{
    const char *s = an_json_str(o, k);
    return s ? an_xstrdup(s) : NULL;
}

/* Every number in the file is untrusted: each is read within the range
 * its field can hold, so that no arithmetic on it (an end from a start
 * and a duration, a difference of two runs, a sum over tests) can
 * overflow. Outside it a field reads as absent. */

/* A time or a duration in ms: 0..2^43 (the year 2248 since 1970). */
#define READ_MS_MAX ((int64_t)1 << 43)

static int64_t in_range(const json_t *o, const char *k, int64_t lo, int64_t hi, int64_t dflt)
{
    json_t *v = json_object_get(o, k);
    if (!json_is_integer(v))
        return dflt;
    json_int_t n = json_integer_value(v);
    return n >= lo && n <= hi ? (int64_t)n : dflt;
}

static int64_t num(const json_t *o, const char *k)
{
    return in_range(o, k, 0, READ_MS_MAX, 0);
}

/* A count or an index: 0..2^31. */
static size_t count(const json_t *o, const char *k)
{
    return (size_t)in_range(o, k, 0, INT32_MAX, 0);
}

/* A 1-based turn number as written, 0-based as held; -1: none. */
static int turn_of(const json_t *o, const char *k)
{
    return (int)in_range(o, k, 1, INT32_MAX, 0) - 1;
}

static int status_of(const char *s, enum an_status *out)
{
    if (!s)
        return -1;
    if (!strcmp(s, "pass"))
        *out = AN_STATUS_PASS;
    else if (!strcmp(s, "fail"))
        *out = AN_STATUS_FAIL;
    else if (!strcmp(s, "error"))
        *out = AN_STATUS_ERROR;
    else if (!strcmp(s, "skip"))
        *out = AN_STATUS_SKIP;
    else if (!strcmp(s, "inconclusive"))
        *out = AN_STATUS_INCONCLUSIVE;
    else
        return -1;
    return 0;
}

static int code_of(const char *name)
{
    for (int c = 0; c < AN_CODE_COUNT; c++)
        if (name && !strcmp(an_code_name((enum an_code)c), name))
            return c;
    return AN_EINTERNAL;
}

/* "file:line:col" split from the right on digits only (json.c's promise). */
static void location(const char *loc, char **file, unsigned *line, unsigned *col)
{
    *file = NULL;
    *line = *col = 0;
    if (!loc)
        return;
    size_t n = strlen(loc);
    unsigned parts[2] = {0, 0};
    int got = 0;
    while (got < 2) {
        size_t k = n;
        while (k > 0 && loc[k - 1] >= '0' && loc[k - 1] <= '9')
            k--;
        if (k == n || k == 0 || loc[k - 1] != ':')
            break;
        parts[got++] = (unsigned)strtoul(loc + k, NULL, 10);
        n = k - 1;
    }
    *file = an_xstrndup(loc, n);
    if (got == 2) {
        *line = parts[1];
        *col = parts[0];
    } else if (got == 1) {
        *line = parts[0];
    }
}

static const char *kind_static(const char *k)
{
    /* findings point at static kind strings: keep the known ones */
    static const char *const kinds[] = {
        "tools.forbid",
        "tools.require",
        "tools.require.after",
        "tools.forbid_calls",
        "text.must_match",
        "text.must_not_match",
        "timing.max_duration_ms",
        "timing.max_idle_ms",
        "timing.max_gap_ms",
        "tools.allow",
        "tools.sequence",
        "timing.max_ttft_ms",
        "timing.max_first_event_ms",
        "check.contains",
        "check.not_contains",
        "check.equals",
        "check.regex",
        "check.json_path",
        "check.type",
        "check.tool_called",
        "check.tool_result",
        "check.script",
        "check.agent",
        "check.action_required",
        "check.tool_sequence",
        "check.retrieval_required",
        "check.json_schema",
        "check.evidence_required",
        "check.tool_execution",
        "dynamic.max_turns",
        "dynamic.timeout",
        "dynamic.goal_achieved",
    };
    for (size_t i = 0; k && i < sizeof kinds / sizeof *kinds; i++)
        if (!strcmp(k, kinds[i]))
            return kinds[i];
    /* any other kind a results file may hold (check.task_state, a
     * registered check kind's): kept when it looks like a kind name, in
     * the capped table of core/intern.h */
    size_t n = k ? strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_.") : 0;
    const char *kept = n && k[n] == '\0' && k[0] >= 'a' && k[0] <= 'z' ? an_intern(k) : NULL;
    return kept ? kept : "other";
}

static void read_transcript(const json_t *j, struct an_transcript *t)
{
    t->start_ms = num(j, "start_ms");
    t->end_ms = num(j, "end_ms");
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(j, "tool_calls"), i, v)
    {
        struct an_tool_call *c = an_transcript_add_call(t, (unsigned)count(v, "turn"));
        c->id = dup_str(v, "id");
        c->name = dup_str(v, "name");
        c->args_text = dup_str(v, "args_text");
        c->args_error = dup_str(v, "args_error");
        json_t *a = json_object_get(v, "args");
        c->args = a && !json_is_null(a) ? json_incref(a) : NULL;
        json_t *r = json_object_get(v, "result");
        c->result = r ? json_incref(r) : NULL;
        c->start_ms = num(v, "start_ms");
        c->ts_ms = num(v, "timestamp");
        c->result_ms = num(v, "result_ms");
        c->end_ms = c->ts_ms;
        c->args_done = true;
        c->status = dup_str(v, "status");
    }
    json_array_foreach(json_object_get(j, "turns"), i, v)
    {
        /* the record's kind is a static string: one of those ananke writes */
        static const char *const kinds[] = {"agui:connect", "mcp:call",   "mcp:list",
                                            "mcp:read",     "mcp:prompt", NULL};
        const char *kind = an_json_str(v, "kind"), *known = "user";
        for (size_t k = 0; kind && kinds[k]; k++)
            if (!strcmp(kind, kinds[k]))
                known = kinds[k];
        struct an_turn_rec *r = an_transcript_add_turn(t, known);
        const char *st = an_json_str(v, "status");
        r->status = st && !strcmp(st, "error")     ? AN_TURN_ERROR
                    : st && !strcmp(st, "not_run") ? AN_TURN_NOT_RUN
                                                   : AN_TURN_OK;
        r->input = dup_str(v, "input");
        r->run_id = dup_str(v, "run_id");
        r->text = dup_str(v, "text");
        r->error = dup_str(v, "error");
        r->start_ms = num(v, "start_ms");
        r->end_ms = num(v, "end_ms");
        r->first_event_ms = num(v, "first_event_ms"); /* absent: 0, none recorded */
        r->first_text_ms = num(v, "first_text_ms");
        r->first_call = count(v, "first_call");
        r->ncalls = count(v, "ncalls");
        if (r->first_call + r->ncalls > t->ncalls)
            r->first_call = r->ncalls = 0; /* a hand-edited file: show no calls */
        r->http_status = (int)in_range(v, "http_status", 0, 999, 0);
        json_t *s = json_object_get(v, "state");
        r->state = s ? json_incref(s) : NULL;
        json_t *m = json_object_get(v, "messages");
        r->messages = m ? json_incref(m) : NULL;
        json_t *resp = json_object_get(v, "response");
        if (resp)
            an_turn_set_response(r, json_incref(resp));
        json_t *fail = json_object_get(v, "failure");
        r->failure = json_is_object(fail) ? json_incref(fail) : NULL;
        json_t *task = json_object_get(v, "task"); /* an a2a target's */
        r->task = json_is_object(task) ? json_incref(task) : NULL;
        json_t *usage = json_object_get(v, "usage"); /* a turn's reports */
        r->usage = json_is_array(usage) ? json_incref(usage) : NULL;
        size_t k;
        json_t *w;
        json_array_foreach(json_object_get(v, "warnings"), k, w)
        {
            if (json_is_string(w))
                an_turn_warn(r, "%s", json_string_value(w));
        }
        an_turn_warn_dropped(r, count(v, "warnings_dropped"));
        json_array_foreach(json_object_get(v, "retries"), k, w)
        {
            if (json_is_string(w))
                an_turn_retry(r, "%s", json_string_value(w));
        }
    }
}

static enum an_dyn_end end_of(const char *name)
{
    for (int e = AN_DYN_ALL_REACHED; e <= AN_DYN_BROKEN; e++)
        if (name && !strcmp(an_dyn_end_name((enum an_dyn_end)e), name))
            return (enum an_dyn_end)e;
    return AN_DYN_NONE; /* a newer file's word: the end is not shown */
}

/* json.c's "dynamic" member; NULL for null (a static test). total_turns
 * is left out: it is the transcript's, read with it. */
static struct an_dynamic_result *read_dynamic(const json_t *j)
{
    if (!json_is_object(j))
        return NULL;
    struct an_dynamic_result *d = an_xcalloc(1, sizeof *d);
    d->end = end_of(an_json_str(j, "end"));
    d->simulator = dup_str(j, "simulator");
    json_t *seed = json_object_get(j, "seed");
    d->seed = json_is_integer(seed) ? (int64_t)json_integer_value(seed) : -1;
    json_t *cps = json_object_get(j, "checkpoints");
    d->checkpoints = an_xcalloc(json_array_size(cps) + 1, sizeof *d->checkpoints);
    size_t i;
    json_t *v;
    json_array_foreach(cps, i, v)
    {
        struct an_checkpoint_result *c = &d->checkpoints[d->ncheckpoints++];
        c->id = dup_str(v, "id");
        c->description = dup_str(v, "description");
        c->required = !json_is_false(json_object_get(v, "required")); /* default true */
        c->reached_at_turn = turn_of(v, "reached_at_turn");
        c->evidence = dup_str(v, "evidence");
        c->missed = dup_str(v, "missed");
    }
    json_t *why = json_object_get(j, "reasoning");
    d->reasoning = an_xcalloc(json_array_size(why) + 1, sizeof *d->reasoning);
    json_array_foreach(why, i, v)
    {
        d->reasoning[d->nreasoning++] = json_is_string(v) ? an_xstrdup(json_string_value(v)) : NULL;
    }
    return d;
}

static int read_test(const json_t *j, struct an_test_result *t, size_t index, const char *path,
                     struct an_err *err)
{
    struct an_loc loc = {path, 0, 0};
    if (!json_is_object(j) || !an_json_str(j, "name") ||
        status_of(an_json_str(j, "status"), &t->status))
        return an_fail(err, AN_ESCHEMA, &loc,
                       "tests[%zu] is not an ananke test result (needs name and status)", index);
    t->name = dup_str(j, "name");
    t->id = dup_str(j, "id");
    t->file = dup_str(j, "file");
    t->start_ms = num(j, "start_ms");
    t->end_ms = t->start_ms + num(j, "duration_ms");
    t->timed_out = json_is_true(json_object_get(j, "timed_out"));
    t->skip_reason = dup_str(j, "skip_reason");
    const char *trace = an_json_str(j, "trace_id");
    if (trace && strlen(trace) == 32 && strspn(trace, "0123456789abcdef") == 32)
        memcpy(t->trace_id, trace, 33);
    const json_t *tags = json_object_get(j, "tags");
    for (size_t k = 0; k < json_array_size(tags); k++) {
        const char *tag = json_string_value(json_array_get(tags, k));
        if (!tag)
            continue;
        if (!t->tags)
            t->tags = an_xcalloc(json_array_size(tags), sizeof *t->tags);
        t->tags[t->ntags++] = an_xstrdup(tag);
    }
    const json_t *xf = json_object_get(j, "expected_failure");
    const char *outcome = an_json_str(xf, "outcome");
    if (outcome) {
        t->expect = !strcmp(outcome, "stale") ? AN_EXPECT_STALE : AN_EXPECT_FAILED;
        t->expect_reason = dup_str(xf, "reason");
    }
    size_t i;
    json_t *v;
    json_array_foreach(json_object_get(j, "findings"), i, v)
    {
        char *file;
        unsigned line, col;
        location(an_json_str(v, "location"), &file, &line, &col);
        an_findings_add(&t->findings, kind_static(an_json_str(v, "kind")), turn_of(v, "turn"), file,
                        line, col, an_json_str(v, "assertion"), an_json_str(v, "expected"),
                        an_json_str(v, "actual"), an_json_str(v, "detail"));
        free(file);
    }
    json_array_foreach(json_object_get(j, "judgements"), i, v)
    {
        struct an_judgement *g = an_judgements_add(&t->judgements);
        location(an_json_str(v, "location"), &g->file, &g->line, &g->col);
        const char *verdict = an_json_str(v, "verdict");
        g->turn = turn_of(v, "turn");
        g->agent = dup_str(v, "agent");
        g->shown = dup_str(v, "shown");
        g->answer = dup_str(v, "answer");
        g->reason = dup_str(v, "reason");
        g->verdict = verdict && !strcmp(verdict, "pass")   ? 1
                     : verdict && !strcmp(verdict, "fail") ? 0
                                                           : -1;
        g->duration_ms = num(v, "duration_ms");
    }
    json_t *e = json_object_get(j, "error");
    if (json_is_object(e)) {
        t->error = dup_str(e, "message");
        t->error_code = code_of(an_json_str(e, "code"));
        t->error_turn = turn_of(e, "turn");
    }
    json_t *vars = json_object_get(j, "variables");
    t->var_names = an_xcalloc(json_array_size(vars) + 1, sizeof *t->var_names);
    json_array_foreach(vars, i, v)
    {
        if (json_is_string(v))
            t->var_names[t->nvar_names++] = an_xstrdup(json_string_value(v));
    }
    size_t runs = count(j, "runs");
    json_t *att = json_object_get(j, "attempts");
    /* --repeat auto: the cap it ran under (a single run is repeated too) */
    t->max_runs = (unsigned)in_range(j, "max_runs", 1, 1 << 20, 0);
    if (t->max_runs && runs > t->max_runs)
        t->max_runs = 0;
    if ((runs > 1 || (runs == 1 && t->max_runs)) && json_array_size(att) == runs) {
        t->runs = (unsigned)runs;
        t->passes = (unsigned)count(j, "passes");
        if (t->passes > t->runs)
            t->passes = t->runs;
        t->attempts = an_xcalloc(t->runs, sizeof *t->attempts);
        json_array_foreach(att, i, v)
        {
            status_of(an_json_str(v, "status"), &t->attempts[i].status);
            t->attempts[i].duration_ms = num(v, "duration_ms");
            t->attempts[i].summary = dup_str(v, "summary");
            json_t *tok = json_object_get(v, "total_tokens");
            t->attempts[i].total_tokens =
                json_is_integer(tok) && json_integer_value(tok) >= 0 ? json_integer_value(tok) : -1;
        }
    }
    t->dyn = read_dynamic(json_object_get(j, "dynamic"));
    read_transcript(json_object_get(j, "transcript"), &t->transcript);
    return 0;
}

/* Tool coverage of one more result file (shards of one run, `ananke
 * merge`): exposed tools joined, counts added, argument keys joined, the
 * ratio recomputed. */
static void add_count(json_t *to, const json_t *from, const char *key)
{
    json_int_t n = json_integer_value(json_object_get(to, key)) +
                   json_integer_value(json_object_get(from, key));
    json_object_set_new(to, key, json_integer(n));
}

static void merge_names(json_t *into, const json_t *add)
{
    size_t i, k;
    const json_t *n, *m;
    json_array_foreach(add, i, n)
    {
        bool have = false;
        json_array_foreach(into, k, m)
        {
            have |= json_equal(n, m);
        }
        if (!have && json_is_string(n))
            json_array_append(into, (json_t *)n);
    }
}

static void merge_server(json_t *into, const json_t *add)
{
    json_t *exposed = json_object_get(into, "exposed");
    if (!json_is_array(exposed))
        json_object_set_new(into, "exposed", exposed = json_array());
    merge_names(exposed, json_object_get(add, "exposed"));
    json_t *called = json_object_get(into, "called");
    if (!json_is_object(called))
        json_object_set_new(into, "called", called = json_object());
    const char *name;
    json_t *e;
    json_object_foreach(json_object_get(add, "called"), name, e)
    {
        json_t *to = json_object_get(called, name);
        if (!to) {
            to = json_pack("{s:i,s:i,s:[],s:i}", "calls", 0, "tests", 0, "argument_keys", "mocked",
                           0);
            json_object_set_new(called, name, to);
        }
        add_count(to, e, "calls");
        add_count(to, e, "tests");
        merge_names(json_object_get(to, "argument_keys"), json_object_get(e, "argument_keys"));
        add_count(to, e, "mocked");
    }
    size_t hit = 0, i;
    const json_t *n;
    json_array_foreach(exposed, i, n)
    {
        hit += json_object_get(called, json_string_value(n)) != NULL;
    }
    size_t ne = json_array_size(exposed);
    json_object_set_new(into, "ratio", ne ? json_real((double)hit / (double)ne) : json_null());
}

static void merge_coverage(json_t *into, const json_t *add)
{
    const char *server;
    json_t *s;
    json_object_foreach((json_t *)add, server, s)
    {
        json_t *to = json_object_get(into, server);
        if (!to) {
            to = json_object();
            json_object_set_new(into, server, to);
        }
        if (json_is_object(s))
            merge_server(to, s);
    }
}

int an_results_json_load(const char *path, json_t **doc, struct an_err *err)
{
    json_error_t je;
    struct an_buf raw;
    *doc = NULL;
    /* a results file read back (merge, replay, compare): never through a link */
    int rrc = an_nf_read(NULL, path, AN_RESULTS_MAX_BYTES, &raw, err);
    if (rrc)
        return rrc;
    char why[256];
    if (an_json_tree_over_cap(raw.data ? raw.data : "", raw.len, why, sizeof why)) {
        an_buf_release(&raw);
        struct an_loc at = {path, 0, 0};
        return an_fail(err, AN_ELIMIT, &at, "not read: %s", why);
    }
    *doc = json_loadb(raw.data ? raw.data : "", raw.len, 0, &je);
    an_buf_release(&raw);
    if (!*doc) {
        struct an_loc loc = {path, (unsigned)(je.line > 0 ? je.line : 0),
                             (unsigned)(je.column > 0 ? je.column : 0)};
        return an_fail(err, AN_EPARSE, &loc, "not a JSON report: %s", an_json_error_text(&je));
    }
    return AN_OK;
}

int an_run_result_load(struct an_run_result *out, const char *path, struct an_err *err)
{
    json_t *doc;
    int rc = an_results_json_load(path, &doc, err);
    if (!rc)
        rc = an_run_result_read(out, doc, path, err);
    json_decref(doc);
    return rc;
}

int an_run_result_read(struct an_run_result *out, const json_t *doc, const char *path,
                       struct an_err *err)
{
    struct an_loc loc = {path, 0, 0};
    json_t *tests = json_object_get(doc, "tests");
    int rc = 0;
    if (!json_is_object(doc) || !an_json_str(doc, "ananke") || !json_is_array(tests))
        return an_fail(err, AN_ESCHEMA, &loc,
                       "not an ananke JSON report (written by 'ananke run --reporter json:PATH')");
    int64_t start = num(doc, "started_ms"), end = num(doc, "ended_ms");
    if (!out->start_ms || (start && start < out->start_ms))
        out->start_ms = start;
    if (end > out->end_ms)
        out->end_ms = end;
    if (!out->config_path)
        out->config_path = dup_str(doc, "config");
    json_t *cov = json_object_get(doc, "tool_coverage");
    if (json_is_object(cov)) {
        if (!out->tool_coverage)
            out->tool_coverage = json_object();
        merge_coverage(out->tool_coverage, cov);
    }
    json_t *sum = json_object_get(doc, "summary");
    out->not_run += count(sum, "not_run");
    json_t *opt = json_object_get(doc, "options");
    if (!out->repeat) {
        out->parallel = (unsigned)in_range(opt, "parallel", 0, 1 << 16, 0);
        out->repeat = (unsigned)in_range(opt, "repeat", 0, 1 << 20, 0);
        const char *rep = an_json_str(opt, "repeat");
        if (rep && !strcmp(rep, "auto")) {
            out->adaptive = true;
            out->max_repeats = (unsigned)in_range(opt, "max_repeats", 1, 1 << 20, 0);
        }
        json_t *pr = json_object_get(opt, "pass_rate");
        double rate = json_is_number(pr) ? json_number_value(pr) : 1.0;
        out->pass_rate = rate >= 0 && rate <= 1 ? rate : 1.0;
        if (!out->filter)
            out->filter = dup_str(opt, "filter");
        /* the statistics are recomputed from runs and passes with these */
        out->pass_k = (unsigned)in_range(opt, "pass_k", 0, INT32_MAX, 0);
        json_t *conf = json_object_get(opt, "confidence");
        double cv = json_is_number(conf) ? json_number_value(conf) : 0;
        out->confidence = cv > 0 && cv < 1 ? cv : AN_CONFIDENCE_DEFAULT;
        out->fail_on_flaky = json_is_true(json_object_get(opt, "fail_on_flaky"));
    }
    size_t i;
    json_t *v;
    json_array_foreach(tests, i, v)
    {
        struct an_test_result *t = an_run_result_add(out);
        if ((rc = read_test(v, t, i, path, err))) {
            an_test_result_release(t);
            out->ntests--;
            break;
        }
    }
    return rc;
}
