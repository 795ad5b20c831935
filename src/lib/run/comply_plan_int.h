/* What the compliance plan (include/ananke/comply_run.h) holds, shared by
 * its files: comply_plan.c (tests), comply_agents.c (agents),
 * comply_pool.c (the run). */
#ifndef ANANKE_RUN_COMPLY_PLAN_INT_H
#define ANANKE_RUN_COMPLY_PLAN_INT_H

#include "ananke/comply_run.h"
#include "load/jsont.h"
#include "run/comply.h"
#include "run/comply_expected.h"
#include "run/redact.h"

/* A row of the protocol table (comply_protocols.c). */
struct an_comply_protocol {
    struct an_comply_protocol_info info; /* name, default suite, endpoint agents */
    const char *label;                   /* "AG-UI", in messages */
    enum an_jsont_protocol steps;        /* the step kinds its tests have */
    enum an_comply_proto wire;           /* what a stdio runner says (run/comply.h) */
    bool sessions;                       /* newSession steps make sense */
    bool http_steps;                     /* mcpHttp steps make sense (MCP over HTTP) */
    void (*probe)(const struct an_comply_spec *, struct an_comply_agent *,
                  const struct an_comply_opts *);
    void (*run)(const struct an_comply_spec *, const struct an_comply_agent *,
                const struct an_jsont *, const struct an_comply_opts *, struct an_comply_test *);
    const char *probe_what; /* "initialize": what failed when the probe did */
    /* A2A: the bindings an agent's tests run over, from its probe and
     * --binding (`wanted`, NULL: the card's): fills up to 2 names, returns
     * how many; NULL hook: one run, no binding */
    size_t (*bindings)(const struct an_comply_agent *probed, const char *wanted,
                       const char *out[2]);
};
/* The row named name, or NULL. */
const struct an_comply_protocol *an_comply_protocol_row(const char *name);

/* One agent, as the runner gets it (struct an_comply_spec), owned. */
struct an_comply_plan_agent {
    char *name, *command;
    char **argv;
    char **env;
    /* confinement and environment: the options', then the settings file's
     * keys */
    int confine;
    char **confine_paths; /* NULL-terminated */
    bool network, inherit_env;
};

/* One frozen requirement set, loaded (comply_reqs.c). */
struct an_comply_reqset {
    char *rev;
    struct an_comply_req *reqs;
    size_t n;
};
#define AN_COMPLY_MAX_SETS 16 /* requirement sets of a suite */

struct an_comply_plan {
    struct an_comply_plan_opts o; /* its arrays borrowed from the caller until new() returns */
    char *protocol;
    const struct an_comply_protocol *proto;
    int confine;          /* enum an_acp_confine */
    char **confine_paths; /* copied, NULL-terminated */
    char *settings;
    char **pick, **agent_specs; /* copied, NULL-terminated */
    struct an_redactor *red;
    struct an_jsont **tests;
    size_t ntests;
    struct an_comply_plan_agent *agents;
    size_t nagents;
    char *binding;   /* A2A --binding, copied, or NULL */
    char *spec;      /* the run's revision (--spec, else the default set's), or NULL */
    bool spec_given; /* --spec named it: every agent is judged at it */
    /* the sets: --spec's alone, else every set of the suite (comply_reqs.c) */
    struct an_comply_reqset sets[AN_COMPLY_MAX_SETS];
    size_t nsets;
    struct an_comply_xlist xfail; /* --expected-failures (empty without) */
    char said[16][128];           /* short secrets already warned about */
    size_t nsaid;
};

/* comply_reqs.c: load the suite's requirement set for `spec`, or without
 * it every set the suite has, the newest the default (none at all is fine
 * without --spec), and check the tests' IDs against each; the revision an
 * agent that speaks `speaks` (NULL: unknown) is judged at: --spec's, else
 * the set of that revision, else the newest older one, else the oldest
 * (the run's without sets); give an agent the rows of set `rev`, judged
 * from its tests; free them. */
int an_comply_reqs_load(struct an_comply_plan *p, const char *const *paths, size_t npaths,
                        const char *spec);
const char *an_comply_reqs_pick(const struct an_comply_plan *p, const char *speaks);
void an_comply_reqs_give(const struct an_comply_plan *p, const char *rev,
                         struct an_comply_agent *a);
void an_comply_reqs_free(struct an_comply_plan *p);
/* Revision order (<0, 0, >0): digits compare as numbers, anything else byte
 * by byte ("0.10" after "0.9", "1.0" after "0.3.0"). */
int an_comply_rev_cmp(const char *a, const char *b);
/* Whether test t applies to spec revision `rev` ("1.0", "0.3.0"; NULL:
 * any): it lists no `revisions`, or one of them is rev's major.minor. */
bool an_comply_rev_applies(const struct an_jsont *t, const char *rev);

/* "terminals", "agent", "required", "none" -> enum an_acp_confine, or -1. */
int an_comply_confine_parse(const char *mode);
/* Say one error (opts.on_error or "ananke: MSG" on the log); returns code. */
int an_comply_plan_fail(struct an_comply_plan *p, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
FILE *an_comply_plan_log(const struct an_comply_plan *p);
/* an_secret_short_fn for the plan (ud: the plan): warns once per label. */
void an_comply_plan_short_secret(const char *label, void *ud);
char **an_comply_strv_copy(const char *const *v, size_t n); /* NULL-terminated copy */
void an_comply_strv_free(char **v);

#endif
