/*
 * The scheduler: selection (filter, shard), then the event loops
 * (run/sched_loop.c) that keep up to `parallel` runs going; here, what
 * becomes of a finished run (repeated runs aggregated into one test, the
 * fail-fast stop) and the tests handed to the caller in selection order.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ananke/run.h"
#include "core/cancel.h"
#include "core/clock.h"
#include "core/port.h"
#include "proto/http.h"
#include "run/sched_int.h"
#include "run/redact_result.h"
#include "core/result_paths.h"
#include "core/usage.h"
#include "run/secrets.h"

static bool has_tag(const struct an_test *t, const char *const *tags, size_t n)
{
    for (size_t i = 0; i < n; i++)
        for (size_t k = 0; k < t->ntags; k++)
            if (!strcmp(tags[i], t->tags[k]))
                return true;
    return false;
}

size_t an_run_select(const struct an_suite *s, const struct an_run_opts *o, size_t **idx)
{
    size_t *v = an_xcalloc(s->ntests + 1, sizeof *v);
    size_t n = 0, k = 0;
    bool only = false;
    for (size_t i = 0; i < s->ntests && !only; i++)
        only = s->tests[i].only;
    for (size_t i = 0; i < s->ntests; i++) {
        const struct an_test *t = &s->tests[i];
        const char *name = t->name;
        if ((only && !t->only) || (o->chosen && !o->chosen[i]))
            continue;
        if (o->ntags && !has_tag(t, o->tags, o->ntags))
            continue;
        if (has_tag(t, o->exclude_tags, o->nexclude_tags))
            continue;
        if (o->filter && !an_regex_search(o->filter, name, strlen(name)))
            continue;
        if (o->shard_count && (k++ % o->shard_count) + 1 != o->shard_index)
            continue;
        v[n++] = i;
    }
    *idx = v;
    return n;
}

void sched_lock(struct sched *s)
{
    if (s->threaded)
        pthread_mutex_lock(&s->mu);
}

void sched_unlock(struct sched *s)
{
    if (s->threaded)
        pthread_mutex_unlock(&s->mu);
}

void sched_progress(struct sched *s)
{
    if (!s->o->on_progress)
        return;
    sched_lock(s);
    struct an_progress p = {
        .done = s->finished_tests,
        .total = s->nsel,
        .passed = s->passed,
        .failed = s->failed,
        .errors = s->errors,
        .skipped = s->skipped,
        .inconclusive = s->inconclusive,
        .running = s->running,
        .elapsed_ms = an_clock_mono_ms() - s->start_mono,
    };
    sched_unlock(s);
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

/* A copy of what a test file says, redacted as the rest of the result
 * (--redact). */
static char *own_copy(struct sched *s, const char *text)
{
    char *red = an_redact_text(s->secrets, text, strlen(text), NULL, NULL);
    return red ? red : an_xstrdup(text);
}

/* What the result says of the test itself (the job fills name and file). */
static void describe(struct sched *s, struct an_test_result *r, const struct an_test *t)
{
    if (t->id && !r->id)
        r->id = own_copy(s, t->id);
    r->nhistory = t->history ? json_array_size(t->history) : 0;
    if (t->ntags && !r->tags) {
        r->tags = an_xcalloc(t->ntags, sizeof *r->tags);
        for (size_t i = 0; i < t->ntags; i++)
            r->tags[i] = own_copy(s, t->tags[i]);
        r->ntags = t->ntags;
    }
    if (t->skip_reason && !r->skip_reason)
        r->skip_reason = own_copy(s, t->skip_reason);
}

/* A selected `skip: true` test: a SKIP result in its place, nothing run.
 * Its slot is complete from the start, so it is reported in order. */
static void skip_test(struct sched *s, size_t slot, const struct an_test *t)
{
    struct an_test_result *r = &s->out->tests[slot];
    r->name = t->name ? an_xstrdup(t->name) : NULL;
    r->file = t->file ? an_xstrdup(t->file) : NULL;
    r->file_sum = t->file_sum;
    describe(s, r, t);
    an_test_result_redact(r, s->secrets);
    an_test_result_relative_in(r, s->paths);
    r->status = AN_STATUS_SKIP;
    r->start_ms = r->end_ms = s->out->start_ms;
    s->slots[slot].skip = true;
    s->slots[slot].complete = true;
    s->slots[slot].done = s->repeat;
    s->skipped++;
    s->finished_tests++;
}

/* The test's verdict is final: what the result says of the test, the
 * counts, the fail-fast stop. */
static void finish(struct sched *s, struct slot *sl, struct an_test_result *dst,
                   const struct an_test *t)
{
    sl->complete = true;
    describe(s, dst, t);
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
    case AN_STATUS_INCONCLUSIVE:
        s->inconclusive++;
        break;
    case AN_STATUS_SKIP: /* never run, so never collected: skip_test() counts it */
        break;
    }
    bool failing = dst->status == AN_STATUS_ERROR ||
                   (dst->status == AN_STATUS_FAIL) != (dst->expect == AN_EXPECT_FAILED) ||
                   dst->expect == AN_EXPECT_STALE ||
                   (dst->status == AN_STATUS_INCONCLUSIVE && !s->o->allow_inconclusive);
    if (failing && s->o->fail_fast)
        s->stop = true;
}

/* --repeat auto: the rule's verdict on the runs so far; false while it
 * wants another run (then queued). A test the run stops (fail-fast,
 * interruption) before a verdict is INCONCLUSIVE. */
static bool adaptive_verdict(struct sched *s, struct an_job *j, struct an_test_result *dst)
{
    struct slot *sl = &s->slots[j->slot];
    enum an_sprt_verdict v = an_sprt_decide(&s->sprt, dst->runs, dst->passes);
    if (v == AN_SPRT_CONTINUE && !s->stop && !an_cancelled()) {
        /* the test's one job, done and holding nothing (run/job.h), is
         * made its next run */
        *j = (struct an_job){.cfg = j->cfg, .test = j->test, .slot = j->slot, .run = sl->done};
        s->again = an_xrealloc(s->again, (s->nagain + 1) * sizeof *s->again);
        s->again[s->nagain++] = j;
        return false;
    }
    dst->max_runs = s->repeat;
    if (v == AN_SPRT_PASS)
        dst->status = AN_STATUS_PASS;
    else if (v == AN_SPRT_FAIL && dst->status == AN_STATUS_PASS)
        dst->status = AN_STATUS_FAIL; /* cannot happen: a FAIL needs a non-pass run */
    else if (v != AN_SPRT_FAIL)
        dst->status = AN_STATUS_INCONCLUSIVE;
    /* a FAIL keeps its representative run's status: FAIL, or ERROR when
     * that run broke (as --repeat K does) */
    return true;
}

/* A collected run's job: its result has moved to its test, and a job that
 * is DONE holds nothing else (run/job.h) but, defensively, its thread. */
static void job_free(struct an_job *j)
{
    if (j->thread_started)
        pthread_join(j->thread, NULL);
    free(j);
}

/* Move a finished run's result into its test's slot. */
void sched_collect(struct sched *s, struct an_job *j)
{
    struct slot *sl = &s->slots[j->slot];
    struct an_test_result *dst = &s->out->tests[j->slot];
    bool repeated = s->repeat > 1 || s->adaptive;
    sl->done++;
    if (repeated) {
        if (!dst->attempts)
            dst->attempts = an_xcalloc(s->repeat, sizeof *dst->attempts);
        struct an_attempt *a = &dst->attempts[j->run];
        a->status = j->res.status;
        a->duration_ms = j->res.end_ms - j->res.start_ms;
        a->summary = attempt_summary(&j->res);
        struct an_usage_sum u;
        an_usage_sum(j->res.transcript.turns, j->res.transcript.nturns, &u);
        a->total_tokens = u.reports && u.has_total ? u.total : -1;
        dst->runs = s->adaptive ? sl->done : s->repeat;
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

    if (s->adaptive) {
        if (!adaptive_verdict(s, j, dst))
            return; /* the job is queued again */
    } else if (sl->done < s->repeat) {
        job_free(j);
        return;
    } else if (repeated) {
        /* passes / runs >= pass_rate, compared without rounding surprises */
        bool ok = (double)dst->passes + 1e-9 >= s->pass_rate * (double)dst->runs;
        if (ok)
            dst->status = AN_STATUS_PASS;
        else if (dst->status == AN_STATUS_PASS)
            dst->status = AN_STATUS_FAIL; /* cannot happen: best is a non-pass */
        /* timings of the whole repeated test: first start to last end */
    }
    finish(s, sl, dst, j->test);
    job_free(j);
}

/* Run k of the plan, made now (sched_int.h "plan"). */
static struct an_job *job_new(struct sched *s, size_t k)
{
    unsigned per = s->adaptive ? 1 : s->repeat;
    size_t slot = s->plan[k / per];
    struct an_job *j = an_xcalloc(1, sizeof *j);
    j->cfg = &s->suite->config;
    j->test = &s->suite->tests[s->sel[slot]];
    j->slot = slot;
    j->run = (unsigned)(k % per);
    return j;
}

struct an_job *sched_next(struct sched *s)
{
    if (!s->adaptive)
        return s->next < s->njobs ? job_new(s, s->next++) : NULL;
    if (s->nagain) {
        /* the earliest test first, so tests complete in selection order */
        size_t at = 0;
        for (size_t i = 1; i < s->nagain; i++)
            if (s->again[i]->slot < s->again[at]->slot)
                at = i;
        struct an_job *j = s->again[at];
        s->again[at] = s->again[--s->nagain];
        return j;
    }
    return s->next < s->nfresh ? job_new(s, s->next++) : NULL;
}

bool sched_drained(const struct sched *s)
{
    if (!s->adaptive)
        return s->next == s->njobs;
    /* a run in flight may want its test run again */
    return s->next == s->nfresh && !s->nagain && !s->running;
}

void sched_adaptive_finish(struct sched *s)
{
    for (size_t i = 0; s->adaptive && i < s->nsel; i++) {
        struct slot *sl = &s->slots[i];
        if (sl->complete || sl->skip || !sl->done)
            continue;
        struct an_test_result *dst = &s->out->tests[i];
        dst->max_runs = s->repeat;
        dst->status = AN_STATUS_INCONCLUSIVE;
        finish(s, sl, dst, &s->suite->tests[s->sel[i]]);
    }
}

void sched_emit_ready(struct sched *s)
{
    for (;;) {
        /* the tests complete from s->emit on; a complete slot no loop
         * touches again, and with `stop` set none starts a new run */
        sched_lock(s);
        size_t from = s->emit, to = from;
        while (to < s->nsel) {
            const struct slot *sl = &s->slots[to];
            if (!sl->complete && !(s->stop && sl->started == 0))
                break;
            to++;
        }
        sched_unlock(s);
        if (to == from)
            return;
        for (size_t i = from; i < to; i++) {
            struct slot *sl = &s->slots[i];
            bool complete = sl->complete;
            if (complete && s->o->on_test)
                s->o->on_test(&s->out->tests[i], s->o->ud);
            if (complete && !s->o->keep_transcripts)
                an_transcript_release(&s->out->tests[i].transcript);
            else if (complete)
                an_transcript_fit(&s->out->tests[i].transcript);
            sl->emitted = true;
        }
        sched_lock(s); /* the loops read it to know when to wake this thread */
        s->emit = to;
        sched_unlock(s);
    }
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

/* Event loops for a run: what the options say, else one per core while
 * each keeps at least LOOP_MIN_PARALLEL runs in flight (one loop copes with
 * a handful of transfers; with more, the loop's own work is what waits). */
#define LOOP_MIN_PARALLEL 4
#define LOOPS_MAX 8
/* The loop's wake-up pipe: both ends non-blocking (a helper thread never
 * waits to write; the loop drains it without waiting). */
static int wake_pipe(int fds[2])
{
    if (an_port_pipe_cloexec(fds))
        return -1;
    for (int k = 0; k < 2; k++)
        if (fcntl(fds[k], F_SETFL, fcntl(fds[k], F_GETFL) | O_NONBLOCK) == -1)
            return -1;
    return 0;
}

static unsigned loop_count(const struct an_run_opts *o, unsigned parallel, size_t njobs)
{
    unsigned n = o->loops;
    if (!n) {
        long cores = an_port_cpu_count();
        n = cores > 1 ? (unsigned)(cores < LOOPS_MAX ? cores : LOOPS_MAX) : 1;
        if (n > parallel / LOOP_MIN_PARALLEL)
            n = parallel / LOOP_MIN_PARALLEL;
    }
    if (n > parallel)
        n = parallel;
    if (n > njobs)
        n = (unsigned)njobs;
    return n ? n : 1;
}

static void *loop_thread(void *arg)
{
    struct loop *l = arg;
    sched_loop_run(l);
    an_http_thread_cleanup(); /* its pool of handles is its own */
    sched_lock(l->s);
    l->s->loops_left--;
    pthread_cond_signal(&l->s->news);
    sched_unlock(l->s);
    return NULL;
}

#define PROGRESS_MS 250
/* After handing tests on, the caller's thread lets runs collect for this
 * long before the next one wakes it (a loop's end or a stop still does):
 * 1,000 instant tests are then handed on in a few dozen batches, not with a
 * thread switch each, and a person sees no difference. */
#define EMIT_MS 2

/* pthread_cond_timedwait's deadline `ms` from now on CLOCK_MONOTONIC. */
static struct timespec mono_after(long ms)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    t.tv_nsec += ms * 1000000L;
    t.tv_sec += t.tv_nsec / 1000000000L;
    t.tv_nsec %= 1000000000L;
    return t;
}

/* Several loops on threads of their own; this thread hands the tests on as
 * they complete. Returns how many loops started (0: run them here). */
static unsigned run_threaded(struct sched *s, struct loop *loops, unsigned n)
{
    s->threaded = true;
    pthread_mutex_init(&s->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&s->news, &ca);
    pthread_condattr_destroy(&ca);
    unsigned started = 0;
    sched_lock(s);
    for (unsigned i = 0; i < n; i++) {
        /* on another CPU than this thread's, which hands the tests on */
        if (an_port_thread_start(&loops[i].thread, 0, loop_thread, &loops[i]))
            break;
        started++;
        s->loops_left++;
    }
    /* a loop that could not start leaves its runs to the others, which
     * take them from the common list: only its share of --parallel is lost */
    if (!started) {
        sched_unlock(s);
        s->threaded = false;
        pthread_cond_destroy(&s->news);
        pthread_mutex_destroy(&s->mu);
        return 0;
    }
    for (;;) {
        size_t seen = s->collected;
        bool more = s->loops_left > 0;
        sched_unlock(s);
        sched_emit_ready(s);
        sched_progress(s);
        if (!more)
            break;
        /* first a quiet EMIT_MS (only a loop's end or a stop wakes it);
         * then woken when the next test to hand on is complete, and at
         * least every PROGRESS_MS, so a progress line keeps its counts and
         * clock moving while that test takes its time */
        sched_lock(s);
        s->quiet_until = an_clock_mono_ms() + EMIT_MS;
        struct timespec quiet = mono_after(EMIT_MS);
        while (s->loops_left > 0 && !s->stop && an_clock_mono_ms() < s->quiet_until)
            if (pthread_cond_timedwait(&s->news, &s->mu, &quiet) == ETIMEDOUT)
                break;
        struct timespec until = mono_after(PROGRESS_MS);
        while (s->collected == seen && s->loops_left > 0)
            if (pthread_cond_timedwait(&s->news, &s->mu, &until) == ETIMEDOUT)
                break;
    }
    for (unsigned i = 0; i < started; i++)
        pthread_join(loops[i].thread, NULL);
    s->threaded = false;
    pthread_cond_destroy(&s->news);
    pthread_mutex_destroy(&s->mu);
    return started;
}

/* A secret too short to redact: said once per label (from any loop). */
static void short_secret(const char *label, void *ud)
{
    struct sched *s = ud;
    if (!s->o->warn)
        return;
    pthread_mutex_lock(&s->warn_mu);
    bool said = false;
    for (size_t i = 0; i < s->nwarned && !said; i++)
        said = !strcmp(s->warned[i], label);
    if (!said) {
        s->warned = an_xrealloc(s->warned, (s->nwarned + 1) * sizeof *s->warned);
        s->warned[s->nwarned++] = an_xstrdup(label);
        char msg[512];
        snprintf(msg, sizeof msg,
                 "the value of %s is shorter than %d bytes: it is not searched for, so it is "
                 "not redacted",
                 label, AN_REDACT_MIN);
        s->o->warn(msg, s->o->ud);
    }
    pthread_mutex_unlock(&s->warn_mu);
}

/* The run's own secrets: --redact and the config's credentials. */
static int make_secrets(struct sched *s, struct an_err *err)
{
    s->secrets = an_redactor_new();
    for (size_t i = 0; i < s->o->nredact; i++) {
        int rc = an_redactor_add_regex(s->secrets, s->o->redact[i], err);
        if (rc)
            return rc;
    }
    struct an_vars none = AN_VARS_INIT;
    an_secrets_gather(s->secrets, &s->suite->config, &none, short_secret, s);
    return AN_OK;
}

/* How the run is made, for the reports. */
static void run_head(struct sched *s, unsigned parallel)
{
    struct an_run_result *out = s->out;
    out->start_ms = an_clock_unix_ms();
    out->config_path = an_project_path(s->paths, s->suite->config.path);
    out->project_dir = an_path_absolute(s->suite->config.dir);
    out->parallel = parallel;
    out->repeat = s->adaptive ? 0 : s->repeat;
    out->pass_rate = s->pass_rate;
    out->adaptive = s->adaptive;
    out->max_repeats = s->adaptive ? s->repeat : 0;
    out->confidence = an_sprt_confidence(s->o->confidence);
    out->pass_k = s->o->pass_k;
}

/* A loop's pipe and environment (its s, parallel and act are set). */
static int loop_init(struct loop *l, struct sched *s, json_t *helper_params, struct an_err *err)
{
    const struct an_run_opts *o = s->o;
    if (wake_pipe(l->wake))
        return an_fail(err, AN_EINTERNAL, NULL, "cannot create the loop's pipe: %s",
                       strerror(errno));
    /* one connection per run in flight, reused across turns and tests;
     * the multi handle itself waits for the loop's first transfer */
    l->multi.maxconnects = (long)(l->parallel < 8 ? 8 : l->parallel);
    l->env.multi = &l->multi;
    l->env.wake_fd = l->wake[1];
    l->env.retries = o->retries;
    l->env.timeout_ms = o->test_timeout_ms;
    l->env.keep_frames = o->keep_frames;
    l->env.keep_transcripts = o->keep_transcripts;
    l->env.drop_messages = o->drop_messages;
    l->env.keep_var_values = o->keep_var_values;
    l->env.trace = o->trace;
    l->env.seed = o->has_seed ? o->seed : -1;
    l->env.helper_params = helper_params; /* read only, by every loop */
    l->env.secrets = s->secrets;          /* read only too */
    l->env.short_secret = short_secret;
    l->env.short_ud = s;
    l->env.paths = an_project_paths_new(s->suite->config.dir);
    l->env.spare_checks = &l->spare_checks;
    return AN_OK;
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
    if (o->adaptive) {
        s.adaptive = true;
        an_sprt_init(&s.sprt, s.pass_rate, o->confidence, o->max_repeats);
        s.repeat = s.sprt.max_runs; /* places for every run a test may need */
    }
    s.start_mono = an_clock_mono_ms();

    pthread_mutex_init(&s.warn_mu, NULL);
    if (make_secrets(&s, err)) {
        an_redactor_free(s.secrets);
        pthread_mutex_destroy(&s.warn_mu);
        return err->code;
    }
    an_http_set_tracestate(o->trace ? o->tracestate : NULL);
    s.paths = an_project_paths_new(suite->config.dir);
    run_head(&s, parallel);

    s.nsel = an_run_select(suite, o, &s.sel);
    s.slots = an_xcalloc(s.nsel + 1, sizeof *s.slots);
    an_run_result_reserve(out, s.nsel);
    for (size_t i = 0; i < s.nsel; i++) {
        s.slots[i].best = -1;
        an_run_result_add(out);
    }
    size_t nrun = 0;
    for (size_t i = 0; i < s.nsel; i++)
        nrun += !suite->tests[s.sel[i]].skip;
    /* a skipped test is skipped once, whatever --repeat says; with --repeat
     * auto a test has one job, run again while the rule asks */
    s.njobs = nrun * (s.adaptive ? 1 : s.repeat);
    s.nfresh = nrun;
    s.plan = an_xcalloc(nrun + 1, sizeof *s.plan);
    for (size_t i = 0, k = 0; i < s.nsel; i++) {
        const struct an_test *t = &suite->tests[s.sel[i]];
        if (t->skip)
            skip_test(&s, i, t);
        else
            s.plan[k++] = i;
    }

    unsigned nloops = loop_count(o, parallel, s.njobs);
    struct loop *loops = an_xcalloc(nloops, sizeof *loops);
    json_t *helper_params =
        o->has_seed ? json_pack("{s:I,s:i}", "seed", (json_int_t)o->seed, "temperature", 0) : NULL;
    int rc = AN_OK;
    for (unsigned i = 0; i < nloops; i++)
        loops[i].wake[0] = loops[i].wake[1] = -1;
    for (unsigned i = 0; i < nloops; i++) {
        struct loop *l = &loops[i];
        l->s = &s;
        /* --parallel shared out: the first loops take one more */
        l->parallel = parallel / nloops + (i < parallel % nloops);
        l->act = an_xcalloc(l->parallel + 1, sizeof *l->act);
        if ((rc = loop_init(l, &s, helper_params, err)))
            break;
    }

    if (rc == AN_OK) {
        if (nloops < 2 || !run_threaded(&s, loops, nloops)) {
            if (nloops > 1) /* no thread could start: one loop does it all */
                loops[0].parallel = parallel;
            loops[0].act = an_xrealloc(loops[0].act, (parallel + 1) * sizeof *loops[0].act);
            sched_loop_run(&loops[0]);
        }
        sched_adaptive_finish(&s);
        sched_emit_ready(&s);
        compact(&s);
    }

    out->end_ms = an_clock_unix_ms();
    for (unsigned i = 0; i < nloops; i++) {
        free(loops[i].act);
        free(loops[i].extra);
        free(loops[i].pfds);
        an_project_paths_free(loops[i].env.paths);
        free(loops[i].spare_checks);
        if (loops[i].multi.handle)
            curl_multi_cleanup(loops[i].multi.handle);
        for (int k = 0; k < 2; k++)
            if (loops[i].wake[k] >= 0)
                close(loops[i].wake[k]);
    }
    free(loops);
    free(s.plan);
    for (size_t i = 0; i < s.nagain; i++) /* --repeat auto, stopped: never started again */
        job_free(s.again[i]);
    free(s.again);
    free(s.slots);
    free(s.sel);
    json_decref(helper_params);
    an_redactor_say_gave_up(s.secrets, s.o->warn, s.o->ud);
    an_redactor_free(s.secrets);
    for (size_t i = 0; i < s.nwarned; i++)
        free(s.warned[i]);
    free(s.warned);
    an_project_paths_free(s.paths);
    pthread_mutex_destroy(&s.warn_mu);
    an_http_set_tracestate(NULL);
    an_http_thread_cleanup();
    return rc;
}
