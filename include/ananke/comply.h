/*
 * Compliance results (`ananke comply`): plain data between the comply
 * runner and its reporters (Markdown, JUnit, JSON).
 *
 * A compliance run is agents × tests. Each test ends PASS, FAIL or NA (a
 * precondition is not met: the agent does not advertise the feature, or the
 * client configuration makes the test meaningless); SKIP when it did not
 * run (the run was interrupted first); with an expected-failures file, a
 * listed test that failed is XFAIL (does not fail the run) and a listed one
 * that passed is STALE (fails the run). A FAIL carries its unmet
 * expectations, each with the expected envelope, the closest message the
 * agent did send and a field-level diff.
 *
 * This model is separate from the run result model (result.h): a compliance
 * run has no turns, transcripts or repeats, and the run reporters are not
 * bent to carry it.
 *
 * Ownership: every string and JSON value is owned by the result (copies);
 * an_comply_result_release() frees everything.
 */
#ifndef ANANKE_COMPLY_H
#define ANANKE_COMPLY_H

#include <jansson.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"

enum an_comply_status {
    AN_COMPLY_PASS = 0,
    AN_COMPLY_FAIL,
    AN_COMPLY_NA,
    AN_COMPLY_SKIP,
    AN_COMPLY_XFAIL,
    AN_COMPLY_STALE
};
/* The JSON report's names (the contract): "pass", "fail", "na", "skip",
 * "xfail", "stale" */
const char *an_comply_status_name(enum an_comply_status s);
/* What people read (progress lines, Markdown, JUnit): "PASS", "FAIL", "NA",
 * "SKIP", "XFAIL", "STALE" */
const char *an_comply_status_label(enum an_comply_status s);

/* One unmet expectation of a test. */
struct an_comply_unmet {
    /* "response", "notification", "clientRequest", "forbid", "send",
     * "step" (a step could not run: an unknown variable, a dead agent),
     * "startup" (the agent did not start or initialize) */
    char *kind;
    int step;       /* 0-based step index, -1 for the test as a whole */
    char *message;  /* one line: what went wrong */
    char *expected; /* expected envelope as compact JSON, or NULL */
    char *closest;  /* closest observed message as compact JSON, or NULL */
    char **diff;    /* field-level diff lines */
    size_t ndiff;
};

struct an_comply_test {
    char *id; /* file name without .jsont */
    char *title;
    char *description;
    char *area;    /* the report row: `area`, else the title */
    bool required; /* severity: required */
    char **docs;
    size_t ndocs;
    char **requirements; /* the requirement IDs it checks ("A2A-TASK-012") */
    size_t nrequirements;
    enum an_comply_status status;
    char *na_reason; /* NA only */
    /* XFAIL, STALE: the expected-failures entry, "ID (FILE:LINE:COL)" and
     * ": REASON" when it gives one */
    char *expected_failure;
    struct an_comply_unmet *unmet;
    size_t nunmet, capunmet;
    int64_t duration_ms;
    char *stderr_tail; /* last bytes the agent wrote to stderr on FAIL (or NULL) */
    /* what a step asked to have noted about the answer, whatever the status
     * (AG-UI `observe`: "step 1: HTTP 406 application/json ...") */
    char **notes;
    size_t nnotes;
};

/* A requirement of the spec revision, and what the agent's tests say of it:
 * met (a test citing it passed, none failed), not met (one failed), not
 * tested (none ran: none cites it, or they were NA). */
enum an_comply_req_status { AN_REQ_MET = 0, AN_REQ_NOT_MET, AN_REQ_NOT_TESTED };
/* "met", "not_met", "not_tested" */
const char *an_comply_req_status_name(enum an_comply_req_status s);

struct an_comply_req {
    char *id;      /* "A2A-TASK-012" */
    char *level;   /* "MUST", "SHOULD" or "MAY" */
    char *title;   /* one line */
    char *section; /* the spec section's link */
    enum an_comply_req_status status;
};

struct an_comply_agent {
    char *name;
    char *command;    /* as given, for the report (AG-UI: the endpoint URL) */
    json_t *init;     /* ACP, MCP: the agent's (server's) initialize result; AG-UI: what the probe
                         run answered ({httpStatus, contentType, status, events,
                         protocolVersion}); or NULL */
    char *init_error; /* why initialize (the probe run) failed, or NULL */
    char *binding;    /* A2A: the binding its tests spoke, "jsonrpc" or "rest"; else NULL */
    char *spec;       /* the spec revision it was judged at: the run's (--spec), or without
                         --spec the one it negotiated (MCP: 2025-11-25 for a server that
                         answers no server/discover); NULL: the run's (r->spec) */
    json_t *modes;    /* session/new `modes` of the probe session, or NULL */
    json_t *commands; /* availableCommands seen in the probe, or NULL */
    struct an_comply_test *tests;
    size_t ntests, captests;
    /* the revision's requirements (when the suite has requirement sets), in
     * the set's order */
    struct an_comply_req *reqs;
    size_t nreqs;
};

struct an_comply_result {
    char *protocol; /* "acp", "agui", "mcp" or "a2a" */
    char *spec;     /* the run's spec revision (--spec, or the suite's newest), or NULL;
                       an agent judged at another has its own (an_comply_agent.spec) */
    int64_t started_ms, duration_ms;
    struct an_comply_agent *agents;
    size_t nagents, capagents;
};

/* Append and return a zeroed agent / test / unmet entry (strings copied). */
struct an_comply_agent *an_comply_add_agent(struct an_comply_result *r, const char *name,
                                            const char *command);
struct an_comply_test *an_comply_add_test(struct an_comply_agent *a);
struct an_comply_unmet *an_comply_add_unmet(struct an_comply_test *t, const char *kind, int step,
                                            const char *message);
/* The same with the message formatted (cut at 1 KiB). */
struct an_comply_unmet *an_comply_add_unmetv(struct an_comply_test *t, const char *kind, int step,
                                             const char *fmt, va_list ap)
    __attribute__((format(printf, 4, 0)));
/* Append a note to a test (copied). */
void an_comply_add_note(struct an_comply_test *t, const char *note);
void an_comply_result_release(struct an_comply_result *r);
/* The revision agent a of r was judged at (its own, else the run's), or NULL. */
const char *an_comply_agent_spec(const struct an_comply_result *r, const struct an_comply_agent *a);
/* Whether agent i of r has a requirement table of revision `spec`; whether
 * it is the first agent with a table of its revision (a report's table of
 * that revision starts there: one per revision the agents were judged at). */
bool an_comply_agent_at(const struct an_comply_result *r, size_t i, const char *spec);
bool an_comply_spec_first(const struct an_comply_result *r, size_t i);

/* Judge every agent's requirement table from its tests (the statuses
 * above). The table's rows must be there already (ids, levels). */
void an_comply_judge_reqs(struct an_comply_agent *a);
/* An agent's MUST coverage: how many MUSTs the revision has, how many were
 * tested, how many met. */
void an_comply_must_counts(const struct an_comply_agent *a, size_t *musts, size_t *tested,
                           size_t *met);

/* Counts over every agent; `required_failed` counts FAILs of required tests.
 * XFAIL and SKIP count in none of them; STALE counts as a required failure
 * (it fails the run) and in an_comply_xcounts. */
void an_comply_counts(const struct an_comply_result *r, size_t *pass, size_t *fail, size_t *na,
                      size_t *required_failed);
void an_comply_xcounts(const struct an_comply_result *r, size_t *xfail, size_t *stale,
                       size_t *skip);

/*
 * The Markdown report (seed 003's sample): methodology, an area × agent
 * table with footnotes, a summary per agent, one section per test.
 * Area status: every test of the area that ran passed → PASS; some passed
 * and some failed → PARTIAL; none passed and some failed → FAIL; every test
 * NA → NA. NA tests do not count when others ran.
 */
int an_report_comply_md(const struct an_comply_result *r, const char *path, struct an_err *err);
/* JUnit: one <testsuite> per agent, one <testcase name=ID classname=AGENT>
 * per test; FAIL → <failure>, NA → <skipped message=REASON>. */
int an_report_comply_junit(const struct an_comply_result *r, const char *path, struct an_err *err);
/* JSON: the whole result model. */
int an_report_comply_json(const struct an_comply_result *r, const char *path, struct an_err *err);
json_t *an_comply_result_to_json(const struct an_comply_result *r);
/* HTML: one self-contained page (docs/comply.md "The HTML report"), PATH
 * itself when it is "-" or ends in .html, else PATH/index.html: the areas ×
 * agents matrix, each agent's summary and MUST coverage, the requirements,
 * a section per test. _all: several results on one page (a section each,
 * under a protocol × agent summary table). */
int an_report_comply_html(const struct an_comply_result *r, const char *path, struct an_err *err);
int an_report_comply_html_all(const struct an_comply_result *const *rs, size_t n, const char *path,
                              struct an_err *err);
/* Read a comply JSON report (an_report_comply_json's) back into r (zeroed
 * by the caller, released with an_comply_result_release, also on error).
 * The file is untrusted: read without following a link, within the size
 * and JSON tree caps of `ananke merge`; malformed JSON is AN_EPARSE at its
 * FILE:LINE:COL, a document of the wrong shape AN_ESCHEMA naming the field. */
int an_comply_result_load(struct an_comply_result *r, const char *path, struct an_err *err);

#endif
