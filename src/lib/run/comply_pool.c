/* A compliance plan's run (include/ananke/comply_run.h): each agent is
 * probed, then its tests run `jobs` at once. Each test has its own agent
 * process and sandbox, so tests run side by side on a few threads; results
 * land in preallocated slots, in suite order, so the report does not
 * depend on the interleaving. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "ananke/cancel.h"
#include "core/buf.h"
#include "core/clock.h"
#include "core/json.h"
#include "proto/http.h"
#include "run/comply_int.h"
#include "run/comply_plan_int.h"
#include "run/comply_redact.h"

#define MAX_JOBS 64

struct pool {
    void (*run)(const struct an_comply_spec *, const struct an_comply_agent *,
                const struct an_jsont *, const struct an_comply_opts *, struct an_comply_test *);
    const struct an_comply_spec *spec;
    struct an_comply_agent *ra;
    struct an_jsont *const *tests;
    size_t n;
    const struct an_comply_opts *o;
    struct an_comply_xlist *xfail; /* --expected-failures */
    pthread_mutex_t mu;            /* guards xfail's marks and the progress line */
    atomic_size_t next;
};

static void *worker(void *arg)
{
    struct pool *pl = arg;
    for (;;) {
        size_t k = atomic_fetch_add(&pl->next, 1);
        if (k >= pl->n) {
            an_http_thread_cleanup(); /* AG-UI: this thread's reused handles */
            return NULL;
        }
        struct an_comply_test *t = &pl->ra->tests[k];
        if (an_cancelled()) {
            /* interrupted before it started: it did not run */
            comply_fill_meta(t, pl->tests[k]);
            t->status = AN_COMPLY_SKIP;
            t->na_reason = an_xstrdup("not run: interrupted (Ctrl-C or SIGTERM)");
            continue;
        }
        pl->run(pl->spec, pl->ra, pl->tests[k], pl->o, t);
        an_comply_test_redact(t, pl->o->redact); /* before anyone shows it */
        pthread_mutex_lock(&pl->mu);
        an_comply_xlist_test(pl->xfail, pl->ra->name, t);
        fprintf(pl->o->log, "comply: %s %s %s (%.1fs)%s%s\n", pl->ra->name, t->id,
                an_comply_status_label(t->status), (double)t->duration_ms / 1000,
                t->status == AN_COMPLY_FAIL && t->nunmet ? ": " : "",
                t->status == AN_COMPLY_FAIL && t->nunmet ? t->unmet[0].message : "");
        pthread_mutex_unlock(&pl->mu);
    }
}

/* Every test of the plan against the probed agent ra, on up to `jobs`
 * threads (this one among them). */
static void run_tests(struct an_comply_plan *p, const struct an_comply_spec *spec,
                      struct an_comply_agent *ra, const struct an_comply_opts *o)
{
    /* every slot first: the workers write into them, nothing grows */
    for (size_t k = 0; k < p->ntests; k++)
        an_comply_add_test(ra);
    struct pool pl = {.run = p->proto->run,
                      .spec = spec,
                      .ra = ra,
                      .tests = p->tests,
                      .n = p->ntests,
                      .o = o,
                      .xfail = &p->xfail};
    pthread_mutex_init(&pl.mu, NULL);
    atomic_init(&pl.next, 0);
    unsigned jobs = p->o.jobs ? p->o.jobs : 1;
    unsigned nw = jobs > p->ntests ? (unsigned)p->ntests : jobs;
    pthread_t th[MAX_JOBS];
    unsigned started = 0;
    for (unsigned w = 1; w < nw && w < MAX_JOBS; w++)
        if (pthread_create(&th[started], NULL, worker, &pl) == 0)
            started++;
    worker(&pl); /* this thread works too */
    for (unsigned w = 0; w < started; w++)
        pthread_join(th[w], NULL);
    pthread_mutex_destroy(&pl.mu);
    an_comply_xlist_agent(&p->xfail, ra, o->log);
    an_comply_reqs_give(p, o->spec, ra);
}

/* One agent: its probe, then its tests, at the revision it is judged at
 * (--spec's, else the one its probe says it speaks: an_comply_reqs_pick);
 * an A2A agent whose card offers two bindings is run once per binding, as
 * "NAME (jsonrpc)" and "NAME (rest)" (each result says its binding). */
static void run_agent(struct an_comply_plan *p, const struct an_comply_plan_agent *ag,
                      struct an_comply_result *res, const struct an_comply_opts *run_o)
{
    struct an_comply_spec spec = {ag->name,
                                  ag->command,
                                  (const char *const *)ag->argv,
                                  (const char *const *)ag->env,
                                  ag->confine,
                                  (const char *const *)ag->confine_paths,
                                  ag->network,
                                  ag->inherit_env};
    struct an_comply_agent probed = {0};
    p->proto->probe(&spec, &probed, run_o);
    probed.command = ag->command;
    struct an_comply_opts ao = *run_o, *o = &ao;
    ao.spec = an_comply_reqs_pick(p, probed.spec);
    if (ao.spec && run_o->spec && strcmp(ao.spec, run_o->spec))
        fprintf(o->log, "comply: %s: judged at revision %s, the one it speaks (no --spec)\n",
                ag->name, ao.spec);
    const char *bind[2] = {NULL, NULL};
    size_t nb = p->proto->bindings ? p->proto->bindings(&probed, p->binding, bind) : 1;
    for (size_t b = 0; b < nb; b++) {
        struct an_buf name = AN_BUF_INIT;
        an_buf_puts(&name, ag->name);
        if (nb > 1)
            an_buf_printf(&name, " (%s)", bind[b]);
        struct an_comply_agent *ra = an_comply_add_agent(res, an_buf_cstr(&name), ag->command);
        an_buf_release(&name);
        ra->init = json_incref(probed.init);
        ra->init_error = probed.init_error ? an_xstrdup(probed.init_error) : NULL;
        ra->modes = json_incref(probed.modes);
        ra->commands = json_incref(probed.commands);
        ra->binding = bind[b] ? an_xstrdup(bind[b]) : NULL;
        an_comply_agent_redact(ra, p->red);
        if (!ra->init)
            fprintf(o->log, "comply: %s: %s failed: %s\n", ra->name, p->proto->probe_what,
                    ra->init_error ? ra->init_error : "?");
        run_tests(p, &spec, ra, o);
    }
    json_decref(probed.init);
    json_decref(probed.modes);
    json_decref(probed.commands);
    free(probed.init_error);
    free(probed.spec);
}

void an_comply_plan_run(struct an_comply_plan *p, struct an_comply_result *res)
{
    struct an_comply_opts o = AN_COMPLY_OPTS_INIT;
    o.redact = p->red;
    o.protocol = p->proto->wire;
    o.keep_sandbox = p->o.keep_sandbox;
    o.timeout_scale = p->o.timeout_scale;
    o.max_event_bytes = p->o.max_event_bytes;
    o.max_turn_bytes = p->o.max_turn_bytes;
    o.max_messages = p->o.max_messages;
    o.verbose = p->o.verbose;
    o.spec = p->spec;
    o.spec_given = p->spec_given;
    o.log = an_comply_plan_log(p);
    res->protocol = an_xstrdup(p->protocol);
    res->spec = p->spec ? an_xstrdup(p->spec) : NULL;
    res->started_ms = an_clock_unix_ms();
    int64_t t0 = an_clock_mono_ms();
    for (size_t i = 0; i < p->nagents; i++)
        run_agent(p, &p->agents[i], res, &o);
    an_comply_xlist_unseen(&p->xfail, o.log);
    res->duration_ms = an_clock_mono_ms() - t0;
}
