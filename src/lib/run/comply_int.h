/*
 * Private to the compliance step engine: what comply.c (the engine core:
 * callbacks, pumping, observation, one test and the probe), comply_steps.c
 * (send / expect / forbid / newSession) and comply_setup.c (sandbox, test
 * metadata) share. The engine borrows the test and options; it owns the
 * observed and sent messages until the test ends.
 */
#ifndef ANANKE_RUN_COMPLY_INT_H
#define ANANKE_RUN_COMPLY_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/json.h"
#include "run/comply.h"

#define STEP_WAIT_MS 10000 /* initialize and session/new by the runner */
#define PROBE_LISTEN_MS 300
#define STDERR_TAIL 2000

/* A message the agent sent during the test. */
struct obs {
    enum an_jsont_msg_kind kind;
    json_t *msg;
    bool taken; /* matched by an expect */
    int64_t mono_ms;
};

/* A request the test sent with an id. */
struct sent {
    json_t *id;
    size_t step;
    const char *method;
    int expect_error;
    json_t *response; /* once arrived */
    bool taken;
};

/* A canned reply: armed from the test start. */
struct canned {
    const struct an_jsont_expected *e;
    bool used;
};

struct eng {
    const struct an_jsont *t;
    const struct an_comply_opts *o;
    struct an_comply_test *out;
    struct an_acp_client *c;
    struct an_vars vars;
    struct obs *obs;
    size_t nobs, capobs;
    struct sent *sent;
    size_t nsent, capsent;
    struct canned *canned;
    size_t ncanned;
    int64_t runner_ids[8]; /* our own requests (initialize, session/new): not the
                              test's */
    size_t nrunner;
    bool news; /* something was observed: stop pumping */
    bool closed;
    char close_reason[256];
    int64_t start_mono;
    FILE *log;
    /* lines that were not JSON-RPC messages: the first
     * AN_DEFAULT_MAX_WARNINGS are unmet entries, the rest counted in one
     * more (out->unmet[framing_more]) */
    size_t framing, framing_more;
    bool over; /* more messages than max_messages came: no more are read */
    /* the last cancel notification the test sent (session/cancel,
     * notifications/cancelled): when, and what. A response that arrived
     * before it and is not what the test expects after the cancel makes
     * the test NA with `race` (the agent finished first: timing it
     * controls), not a FAIL. */
    int64_t cancel_mono;
    char cancel_method[48];
    char *race; /* malloc'd NA reason, or NULL */
    /* -v: the frames of the test, printed when it ends, redacted together
     * (a secret streamed in pieces is only known once all have come) */
    char **vframes;
    bool *vout; /* sent by us */
    size_t nv;
    /* mcpHttp steps (comply_mcp_http.c): the server's endpoint (NULL over
     * stdio: comply_mcp_stdio.c), the session the test's own requests made, what they got
     * (for redaction), and why the test does not apply (naUnless) */
    const char *http_url;
    char *http_sid;
    json_t *http_seen;
    char *na;
};

/* ---- comply.c: the engine core ---------------------------------------- */

void comply_unmet_add(struct eng *e, const char *kind, int step, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* -v: one frame of the test (out: sent by us), shown redacted when the
 * test ends. */
void comply_vframe(struct eng *e, bool out, const char *line, size_t len);
/* Pump up to ms, returning early when something new arrives. */
void comply_pump(struct eng *e, int64_t ms);
void comply_pump_all(struct eng *e, int64_t ms);

/* ---- comply_steps.c: the step kinds ----------------------------------- */

bool comply_step_send(struct eng *e, const struct an_jsont_step *st);
bool comply_step_expect(struct eng *e, const struct an_jsont_step *st);
bool comply_step_forbid(struct eng *e, const struct an_jsont_step *st);
bool comply_step_new_session(struct eng *e, const struct an_jsont_step *st);
/* mcpHttp: one request that sees HTTP (comply_mcp_http.c); false ends
 * the test (an unmet expectation, or e->na set by naUnless). */
bool comply_step_mcp_http(struct eng *e, const struct an_jsont_step *st);
/* One MCP request js POSTed to url with headers, outside any test
 * (comply_mcp_http.c): its outcome, as an mcpHttp step's (new reference). */
json_t *comply_mcp_http_post(const char *url, const json_t *headers, const json_t *js,
                             int64_t window_ms);
/* mcpHttp over stdio (comply_mcp_stdio.c): send the step's request js on
 * the pipe and read until its answer: the outcome without `http` (new
 * reference); the step's expectations of HTTP left out of expect and
 * *any_of (replaced). */
json_t *comply_mcp_stdio_exchange(struct eng *e, const json_t *js, int64_t window_ms);
/* A step with listenMs over stdio: js sent, every message read for
 * listen_ms; `during` (or NULL) sent once the first came, its answer
 * awaited up to window_ms, and the outcome's `during`; then the listen
 * request cancelled (notifications/cancelled). */
json_t *comply_mcp_stdio_listen(struct eng *e, const json_t *js, int64_t listen_ms,
                                const json_t *during, int64_t window_ms);
void comply_mcp_stdio_unhttp(json_t *expect, json_t **any_of);
/* The messages one test keeps (--max-messages, or the default). */
size_t comply_max_messages(const struct eng *e);
/* A window's length after --timeout-scale (at least 1 ms). */
int64_t comply_window(const struct eng *e, int64_t ms);
/* Every request the test sent: an error answer nobody expected fails the
 * test; expectError (true or false) is checked once the response is in. */
void comply_check_sent(struct eng *e);

/* ---- comply_setup.c: sandbox and test metadata ------------------------ */

void comply_rm_tree(const char *dir);
/* The agent's confinement and environment, as the spec says (comply.c). */
struct an_acp_opts;
void comply_confine_opts(struct an_acp_opts *ao, const struct an_comply_spec *spec);
int comply_make_sandbox(const struct an_jsont *t, char *dir, size_t cap, struct an_err *err);
void comply_fill_meta(struct an_comply_test *out, const struct an_jsont *t);
/* A step's captures into vars from its outcome o (comply.c); false, with
 * an unmet part, when one found nothing. */
bool comply_captures(struct an_comply_test *out, struct an_vars *vars,
                     const struct an_jsont_step *st, const json_t *o, const long *matched);

struct an_http_req;
struct an_http_xfer;
/* A step's HTTP request to url: method (GET and DELETE send no body and no
 * Content-Type; anything else the body as application/json), then the
 * test's headers (a JSON object of strings, sent after the defaults: a same
 * name replaces them). Fills *req from AN_HTTP_REQ_INIT; returns the header
 * array req points to (names and values borrowed from headers) for the
 * caller to free once the transfer is done. */
struct an_kv *an_comply_http_req(struct an_http_req *req, const char *url, const char *method,
                                 const json_t *headers, const char *body);

/* The method of a step's request on its initialised transfer: GET and
 * DELETE (POST, libcurl's own for a body, needs nothing). */
void an_comply_http_method(struct an_http_xfer *xf, const char *method);

#endif
