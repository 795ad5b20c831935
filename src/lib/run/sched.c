/*
 * The scheduler: selection (filter, shard), then one event loop over a
 * libcurl multi handle that keeps up to `parallel` runs going, retries with
 * backoff, enforces per-test timeouts, aggregates repeated runs, and hands
 * finished tests to the caller in selection order.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/run.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "proto/http.h"
#include "run/job.h"

size_t an_run_select(const struct an_suite *s, const struct an_run_opts *o, size_t **idx)
{
    size_t *v = an_xcalloc(s->ntests + 1, sizeof *v);
    size_t n = 0, k = 0;
    for (size_t i = 0; i < s->ntests; i++) {
        const char *name = s->tests[i].name;
        if (o->filter && !an_regex_search(o->filter, name, strlen(name)))
            continue;
        if (o->shard_count && (k++ % o->shard_count) + 1 != o->shard_index)
            continue;
        v[n++] = i;
    }
    *idx = v;
    return n;
}

/* What the loop knows of each selected test. */
struct slot {
    unsigned started, done;
    int best; /* run index whose result represents the test; -1: none yet */
    bool emitted;
    bool skip; /* `skip: true`: a SKIP result, no run */
};

struct sched {
    const struct an_suite *suite;
    const struct an_run_opts *o;
    struct an_run_result *out;
    struct an_job_env env;
    size_t *sel, nsel;
    unsigned repeat;
    double pass_rate;
    struct slot *slots;
    struct an_job *jobs; /* nsel * repeat, in start order */
    size_t njobs, next, active;
    struct an_job **act; /* the runs in flight (active of them) */
    size_t steps;        /* runs finished so far */
    struct curl_waitfd *extra; /* descriptors of fd-driven sessions */
    size_t cap_extra;
    size_t emit;         /* next slot to hand to on_test */
    size_t passed, failed, errors, skipped, finished_tests;
    bool stop;           /* fail-fast or interrupted: start nothing new */
    int64_t start_mono;
};

static void progress(struct sched *s)
{
    if (!s->o->on_progress)
        return;
    struct an_progress p = {
        .done = s->finished_tests,
        .total = s->nsel,
        .passed = s->passed,
        .failed = s->failed,
        .errors = s->errors,
        .skipped = s->skipped,
        .running = s->active,
        .elapsed_ms = an_clock_mono_ms() - s->start_mono,
    };
    s->o->on_progress(&p, s->o->ud);
}

static char *attempt_summary(const struct an_test_result *r)
{
    if (r->status == AN_STATUS_ERROR && r->error)
        return an_xstrdup(r->error);
    if (r->findings.n && r->findings.v[0].assertion)
        return an_xstrdup(r->findings.v[0].assertion);
    return NULL;
}

/* What the result says of the test itself (the job fills name and file). */
static void describe(struct an_test_result *r, const struct an_test *t)
{
    if (t->id && !r->id)
        r->id = an_xstrdup(t->id);
    r->nhistory = t->history ? json_array_size(t->history) : 0;
}

/* A selected `skip: true` test: a SKIP result in its place, nothing run.
 * Its slot is complete from the start, so it is reported in order. */
static void skip_test(struct sched *s, size_t slot, const struct an_test *t)
{
    struct an_test_result *r = &s->out->tests[slot];
    r->name = t->name ? an_xstrdup(t->name) : NULL;
    r->file = t->file ? an_xstrdup(t->file) : NULL;
    describe(r, t);
    r->status = AN_STATUS_SKIP;
    r->start_ms = r->end_ms = s->out->start_ms;
    s->slots[slot].skip = true;
    s->slots[slot].done = s->repeat;
    s->skipped++;
    s->finished_tests++;
}

/* Move a finished run's result into its test's slot. */
static void collect(struct sched *s, struct an_job *j)
{
    struct slot *sl = &s->slots[j->slot];
    struct an_test_result *dst = &s->out->tests[j->slot];
    bool repeated = s->repeat > 1;
    sl->done++;
    if (repeated) {
        if (!dst->attempts)
            dst->attempts = an_xcalloc(s->repeat, sizeof *dst->attempts);
        struct an_attempt *a = &dst->attempts[j->run];
        a->status = j->res.status;
        a->duration_ms = j->res.end_ms - j->res.start_ms;
        a->summary = attempt_summary(&j->res);
        dst->runs = s->repeat;
        if (j->res.status == AN_STATUS_PASS)
            dst->passes++;
    }
    /* The representative run: the first (by run number, so the report does
     * not depend on timing) that did not pass; else run 0. */
    bool take;
    if (sl->best < 0)
        take = true;
    else {
        bool have_pass = dst->status == AN_STATUS_PASS;
        bool mine_pass = j->res.status == AN_STATUS_PASS;
        take = (have_pass && !mine_pass) || (have_pass == mine_pass && (int)j->run < sl->best);
    }
    if (take) {
        unsigned runs = dst->runs, passes = dst->passes;
        struct an_attempt *att = dst->attempts;
        dst->attempts = NULL;
        dst->runs = 0;
        an_test_result_release(dst);
        *dst = j->res;
        dst->runs = runs;
        dst->passes = passes;
        dst->attempts = att;
        sl->best = (int)j->run;
    } else {
        an_test_result_release(&j->res);
    }
    memset(&j->res, 0, sizeof j->res);

    if (sl->done < s->repeat)
        return;
    describe(dst, j->test);
    if (repeated) {
        /* passes / runs >= pass_rate, compared without rounding surprises */
        bool ok = (double)dst->passes + 1e-9 >= s->pass_rate * (double)dst->runs;
        if (ok)
            dst->status = AN_STATUS_PASS;
        else if (dst->status == AN_STATUS_PASS)
            dst->status = AN_STATUS_FAIL; /* cannot happen: best is a non-pass */
        /* timings of the whole repeated test: first start to last end */
    }
    an_expected_apply(s->o->expected, dst);
    s->finished_tests++;
    switch (dst->status) {
    case AN_STATUS_PASS:
        s->passed++;
        break;
    case AN_STATUS_FAIL:
        s->failed++;
        break;
    case AN_STATUS_ERROR:
        s->errors++;
        break;
    case AN_STATUS_SKIP: /* never run, so never collected: skip_test() counts it */
        break;
    }
    bool failing = dst->status == AN_STATUS_ERROR ||
                   (dst->status == AN_STATUS_FAIL) != (dst->expect == AN_EXPECT_FAILED) ||
                   dst->expect == AN_EXPECT_STALE;
    if (failing && s->o->fail_fast)
        s->stop = true;
}

static void emit_ready(struct sched *s)
{
    while (s->emit < s->nsel) {
        struct slot *sl = &s->slots[s->emit];
        bool complete = sl->done == s->repeat;
        bool skipped = s->stop && sl->started == 0;
        if (!complete && !skipped)
            return;
        if (complete && s->o->on_test)
            s->o->on_test(&s->out->tests[s->emit], s->o->ud);
        if (complete && !s->o->keep_transcripts)
            an_transcript_release(&s->out->tests[s->emit].transcript);
        sl->emitted = true;
        s->emit++;
    }
}

/* A run that reached DONE leaves the active list and joins its test. */
static void after_step(struct sched *s, struct an_job *j)
{
    if (j->state != AN_JOB_DONE)
        return;
    s->steps++;
    for (size_t i = 0; i < s->active; i++) {
        if (s->act[i] == j) {
            s->act[i] = s->act[--s->active];
            break;
        }
    }
    collect(s, j);
}

static void start_one(struct sched *s)
{
    struct an_job *j = &s->jobs[s->next++];
    s->slots[j->slot].started++;
    s->act[s->active++] = j;
    an_job_start(j, &s->env);
    after_step(s, j);
}

/* Drop the slots of tests that never started (fail-fast, interruption). */
static void compact(struct sched *s)
{
    size_t w = 0;
    for (size_t i = 0; i < s->nsel; i++) {
        if (s->slots[i].started == 0 && !s->slots[i].skip) {
            an_test_result_release(&s->out->tests[i]);
            s->out->not_run++;
            continue;
        }
        if (w != i)
            s->out->tests[w] = s->out->tests[i];
        w++;
    }
    s->out->ntests = w;
}

int an_run_suite(const struct an_suite *suite, const struct an_run_opts *opts,
                 struct an_run_result *out, struct an_err *err)
{
    struct an_run_opts defaults = AN_RUN_OPTS_INIT;
    const struct an_run_opts *o = opts ? opts : &defaults;
    struct sched s = {.suite = suite, .o = o, .out = out};
    unsigned parallel = o->parallel ? o->parallel : 1;
    s.repeat = o->repeat ? o->repeat : 1;
    s.pass_rate = o->pass_rate > 0 ? o->pass_rate : 1.0;
    s.start_mono = an_clock_mono_ms();

    an_http_global_init();
    s.env.multi = curl_multi_init();
    if (!s.env.multi)
        return an_fail(err, AN_EINTERNAL, NULL, "libcurl could not create a multi handle");
    /* one connection per run in flight, reused across turns and tests */
    curl_multi_setopt(s.env.multi, CURLMOPT_MAXCONNECTS, (long)(parallel < 8 ? 8 : parallel));
    s.env.retries = o->retries;
    s.env.timeout_ms = o->test_timeout_ms;
    s.env.keep_frames = o->keep_frames;
    s.env.keep_var_values = o->keep_var_values;
    s.env.seed = o->has_seed ? o->seed : -1;
    if (o->has_seed)
        s.env.helper_params =
            json_pack("{s:I,s:i}", "seed", (json_int_t)o->seed, "temperature", 0);

    out->start_ms = an_clock_unix_ms();
    out->config_path = an_xstrdup(suite->config.path);
    out->parallel = parallel;
    out->repeat = s.repeat;
    out->pass_rate = s.pass_rate;

    s.nsel = an_run_select(suite, o, &s.sel);
    s.slots = an_xcalloc(s.nsel + 1, sizeof *s.slots);
    for (size_t i = 0; i < s.nsel; i++) {
        s.slots[i].best = -1;
        an_run_result_add(out);
    }
    size_t nrun = 0;
    for (size_t i = 0; i < s.nsel; i++)
        nrun += !suite->tests[s.sel[i]].skip;
    s.njobs = nrun * s.repeat; /* a skipped test is skipped once, whatever --repeat says */
    s.jobs = an_xcalloc(s.njobs + 1, sizeof *s.jobs);
    s.act = an_xcalloc(parallel + 1, sizeof *s.act);
    for (size_t i = 0, k = 0; i < s.nsel; i++) {
        const struct an_test *t = &suite->tests[s.sel[i]];
        if (t->skip) {
            skip_test(&s, i, t);
            continue;
        }
        for (unsigned r = 0; r < s.repeat; r++, k++) {
            s.jobs[k].cfg = &suite->config;
            s.jobs[k].test = t;
            s.jobs[k].slot = i;
            s.jobs[k].run = r;
        }
    }

    for (;;) {
        size_t steps_before = s.steps;
        if (an_cancelled() && !s.stop)
            s.stop = true;
        while (!s.stop && s.active < parallel && s.next < s.njobs) {
            start_one(&s);
            progress(&s);
        }
        if (s.active == 0 && (s.stop || s.next == s.njobs))
            break;

        int running = 0;
        curl_multi_perform(s.env.multi, &running);
        CURLMsg *m;
        int left;
        while ((m = curl_multi_info_read(s.env.multi, &left))) {
            if (m->msg != CURLMSG_DONE)
                continue;
            struct an_job *j = NULL;
            CURL *easy = m->easy_handle;
            CURLcode cc = m->data.result;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&j);
            curl_multi_remove_handle(s.env.multi, easy);
            an_job_transfer_done(j, cc);
            after_step(&s, j);
            progress(&s);
        }

        /* fd-driven sessions (ACP): let those whose descriptors are ready work */
        for (size_t i = s.active; i-- > 0;) {
            struct an_job *j = s.act[i];
            if (j->state == AN_JOB_TURN && !j->easy && j->nfds_at >= 0) {
                if (an_job_fd_step(j, s.extra ? s.extra + j->nfds_at : NULL, j->nfds)) {
                    after_step(&s, j);
                    progress(&s);
                }
            }
        }

        int64_t now = an_clock_mono_ms();
        int64_t next_wake = now + 1000;
        bool hooks_running = false;
        /* backwards: after_step() moves the last entry into a finished one's place */
        for (size_t i = s.active; i-- > 0;) {
            struct an_job *j = s.act[i];
            if (j->state == AN_JOB_HOOKS || j->state == AN_JOB_CHECKS || j->state == AN_JOB_SIM) {
                if (atomic_load(&j->thread_done)) {
                    an_job_thread_finished(j);
                    after_step(&s, j);
                    progress(&s);
                } else {
                    hooks_running = true;
                }
                continue;
            }
            if (an_cancelled()) {
                an_job_abort(j, AN_ETIMEOUT, "interrupted (Ctrl-C or SIGTERM): the run was stopped");
                after_step(&s, j);
                continue;
            }
            if (j->deadline_mono && now >= j->deadline_mono) {
                char msg[128];
                snprintf(msg, sizeof msg, "test timed out after %lld ms",
                         (long long)o->test_timeout_ms);
                an_job_abort(j, AN_ETIMEOUT, msg);
                after_step(&s, j);
                progress(&s);
                continue;
            }
            if (j->state == AN_JOB_WAIT) {
                if (now >= j->wake_mono) {
                    an_job_wake(j);
                    after_step(&s, j);
                    continue;
                }
                if (j->wake_mono < next_wake)
                    next_wake = j->wake_mono;
            }
            if (j->deadline_mono && j->deadline_mono < next_wake)
                next_wake = j->deadline_mono;
        }
        emit_ready(&s);
        if (s.active == 0 && (s.stop || s.next == s.njobs))
            break;

        /* the descriptors of fd-driven sessions join the poll */
        size_t nextra = 0;
        bool fd_sessions = false;
        for (size_t i = 0; i < s.active; i++) {
            struct an_job *j = s.act[i];
            j->nfds_at = -1;
            if (j->state != AN_JOB_TURN || j->easy)
                continue;
            fd_sessions = true;
            if (nextra + AN_JOB_MAX_FDS > s.cap_extra) {
                s.cap_extra = (s.cap_extra + AN_JOB_MAX_FDS) * 2;
                s.extra = an_xrealloc(s.extra, s.cap_extra * sizeof *s.extra);
            }
            j->nfds = an_job_fds(j, s.extra + nextra, AN_JOB_MAX_FDS);
            j->nfds_at = (long)nextra;
            nextra += j->nfds;
        }
        int64_t wait = next_wake - an_clock_mono_ms();
        if (fd_sessions && wait > AN_CANCEL_POLL_MS)
            wait = AN_CANCEL_POLL_MS; /* they keep their own turn timeouts */
        /* a run finished: go round at once, its place may take the next
         * test (waiting here would leave the place idle) */
        if (s.steps != steps_before)
            wait = 0;
        if (hooks_running || wait > AN_CANCEL_POLL_MS)
            wait = wait > AN_CANCEL_POLL_MS ? AN_CANCEL_POLL_MS : wait;
        if (wait < 0)
            wait = 0;
        for (size_t i = 0; i < nextra; i++)
            s.extra[i].revents = 0;
        curl_multi_poll(s.env.multi, nextra ? s.extra : NULL, (unsigned)nextra, (int)wait, NULL);
    }
    emit_ready(&s);
    compact(&s);

    out->end_ms = an_clock_unix_ms();
    free(s.jobs);
    free(s.act);
    free(s.extra);
    free(s.slots);
    free(s.sel);
    curl_multi_cleanup(s.env.multi);
    json_decref(s.env.helper_params);
    an_http_thread_cleanup();
    return AN_OK;
}
