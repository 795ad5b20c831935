/*
 * The compliance report in Markdown (seed 003's sample): a methodology
 * line, a table of compliance areas × agents with numbered footnotes, a
 * summary per agent, then one section per test with each agent's result,
 * unmet expectations (expected, closest actual, diff) and the doc links.
 *
 * Everything an agent produced is shown inside code spans or fenced blocks
 * with control characters escaped, so a hostile message cannot break out
 * of its cell or inject Markdown.
 */
#include <stdlib.h>
#include <string.h>

#include "ananke/comply.h"
#include "core/buf.h"
#include "core/json.h"
#include "report/comply_area.h"
#include "report/report_util.h"

#define MD_CUT 1500

/* `s` as a code span: controls escaped, long text cut, a fence of more
 * backticks than any run inside it. */
static void code(struct an_buf *b, const char *s)
{
    struct an_buf clean = AN_BUF_INIT;
    an_rpt_str(&clean, s ? s : "", MD_CUT, NULL, 0);
    const char *c = an_buf_cstr(&clean);
    size_t run = 0, max = 0;
    for (const char *p = c; *p; p++) {
        run = *p == '`' ? run + 1 : 0;
        if (run > max)
            max = run;
    }
    for (size_t i = 0; i <= max; i++)
        an_buf_putc(b, '`');
    bool pad = c[0] == '`' || (clean.len && c[clean.len - 1] == '`') || max;
    if (pad)
        an_buf_putc(b, ' ');
    /* a pipe would end a table cell even inside a code span */
    for (const char *p = c; *p; p++) {
        if (*p == '|')
            an_buf_puts(b, "\\|");
        else
            an_buf_putc(b, *p);
    }
    if (pad)
        an_buf_putc(b, ' ');
    for (size_t i = 0; i <= max; i++)
        an_buf_putc(b, '`');
    an_buf_release(&clean);
}

/* Plain text from a test file (titles, areas): controls escaped, pipes escaped.
 */
static void text(struct an_buf *b, const char *s)
{
    struct an_buf clean = AN_BUF_INIT;
    an_rpt_str(&clean, s ? s : "", 0, NULL, 0);
    for (const char *p = an_buf_cstr(&clean); *p; p++) {
        if (*p == '|' || *p == '<' || *p == '>')
            an_buf_putc(b, '\\');
        an_buf_putc(b, *p);
    }
    an_buf_release(&clean);
}

static void footnote_text(struct an_buf *b, const struct an_comply_agent *a,
                          const struct an_comply_test *t, enum comply_cell c)
{
    size_t nfail = 0, nall = 0;
    for (size_t k = 0; k < a->ntests; k++) {
        if (strcmp(a->tests[k].area, t->area) || a->tests[k].status == AN_COMPLY_NA)
            continue;
        nall++;
        nfail += a->tests[k].status == AN_COMPLY_FAIL || a->tests[k].status == AN_COMPLY_XFAIL;
    }
    text(b, a->name);
    an_buf_puts(b, ", ");
    code(b, t->id);
    an_buf_puts(b, ": ");
    if (c == COMPLY_CELL_PARTIAL)
        an_buf_printf(b, "%zu of %zu tests failed; first: ", nfail, nall);
    if (t->nunmet) {
        const struct an_comply_unmet *u = &t->unmet[0];
        struct an_buf m = AN_BUF_INIT;
        an_rpt_str(&m, u->message, 300, NULL, 0);
        text(b, an_buf_cstr(&m));
        an_buf_release(&m);
        /* a wrong reply's message is its first difference already */
        if (u->ndiff && strncmp(u->message, u->diff[0], strlen(u->diff[0]))) {
            an_buf_puts(b, " — ");
            code(b, u->diff[0]);
        }
        if (t->nunmet > 1)
            an_buf_printf(b, " (+%zu more)", t->nunmet - 1);
    }
    an_buf_putc(b, '\n');
}

/* Capabilities in one line: loadSession:false; promptCapabilities(image:true,
 * ...) */
static void caps_line(struct an_buf *b, const json_t *v)
{
    const char *k;
    json_t *x;
    bool first = true;
    json_object_foreach((json_t *)v, k, x)
    {
        if (!first)
            an_buf_puts(b, json_is_object(v) ? ", " : "");
        first = false;
        an_rpt_str(b, k, 80, NULL, 0);
        if (json_is_object(x) && json_object_size(x)) {
            an_buf_putc(b, '(');
            caps_line(b, x);
            an_buf_putc(b, ')');
        } else {
            an_buf_putc(b, ':');
            char *s = json_is_object(x) ? an_xstrdup("{}") : an_json_compact(x);
            an_rpt_str(b, s, 120, NULL, 0);
            free(s);
        }
    }
}

/* AG-UI has no handshake: what the probe run answered stands in for it. */
static void agui_probe_lines(struct an_buf *b, const struct an_comply_agent *a)
{
    if (a->command) {
        an_buf_puts(b, "- Endpoint: ");
        code(b, a->command);
        an_buf_putc(b, '\n');
    }
    if (!a->init) {
        an_buf_puts(b, "- Probe run failed: ");
        code(b, a->init_error ? a->init_error : "no answer");
        an_buf_putc(b, '\n');
        return;
    }
    struct an_buf p = AN_BUF_INIT;
    json_int_t hs = json_integer_value(json_object_get(a->init, "httpStatus"));
    const char *ct = an_json_str(a->init, "contentType");
    json_int_t nev = json_integer_value(json_object_get(a->init, "events"));
    an_buf_printf(&p, "HTTP %lld %s, %lld event%s, %s", (long long)hs, ct && *ct ? ct : "(none)",
                  (long long)nev, nev == 1 ? "" : "s",
                  an_json_str(a->init, "status") ? an_json_str(a->init, "status") : "?");
    an_buf_puts(b, "- Probe run (one user message, \"Hello\"): ");
    code(b, an_buf_cstr(&p));
    an_buf_release(&p);
    an_buf_puts(b, "\n- Protocol version (RUN_STARTED.protocolVersion): ");
    json_t *pv = json_object_get(a->init, "protocolVersion");
    if (pv && !json_is_null(pv)) {
        char *s = an_json_compact(pv);
        code(b, s);
        free(s);
    } else {
        an_buf_puts(b, "not declared");
    }
    an_buf_putc(b, '\n');
}

/* ACP: the command, and what initialize and the probe session told. */
static void acp_lines(struct an_buf *b, const struct an_comply_agent *a)
{
    if (a->command) {
        an_buf_puts(b, "- Command: ");
        code(b, a->command);
        an_buf_putc(b, '\n');
    }
    if (a->init) {
        json_t *pv = json_object_get(a->init, "protocolVersion");
        char *s = an_json_compact(pv);
        an_buf_puts(b, "- Protocol version: ");
        code(b, s);
        free(s);
        an_buf_putc(b, '\n');
        json_t *info = json_object_get(a->init, "agentInfo");
        if (json_is_object(info)) {
            an_buf_puts(b, "- Agent: ");
            struct an_buf n = AN_BUF_INIT;
            an_buf_printf(&n, "%s %s", an_json_str(info, "name") ? an_json_str(info, "name") : "?",
                          an_json_str(info, "version") ? an_json_str(info, "version") : "");
            code(b, an_buf_cstr(&n));
            an_buf_release(&n);
            an_buf_putc(b, '\n');
        }
        struct an_buf c = AN_BUF_INIT;
        json_t *caps = json_object_get(a->init, "agentCapabilities");
        if (json_is_object(caps) && json_object_size(caps))
            caps_line(&c, caps);
        else
            an_buf_puts(&c, "none advertised");
        an_buf_puts(b, "- Caps: ");
        code(b, an_buf_cstr(&c));
        an_buf_putc(b, '\n');
        an_buf_release(&c);
        json_t *am = json_object_get(a->init, "authMethods");
        if (json_is_array(am) && json_array_size(am)) {
            char *s2 = an_json_compact(am);
            an_buf_puts(b, "- Auth methods: ");
            code(b, s2);
            free(s2);
            an_buf_putc(b, '\n');
        }
    } else {
        an_buf_puts(b, "- Initialize failed: ");
        code(b, a->init_error ? a->init_error : "no answer");
        an_buf_putc(b, '\n');
    }
    an_buf_puts(b, "- Modes: ");
    json_t *avail = json_object_get(a->modes, "availableModes");
    if (json_is_array(avail) && json_array_size(avail)) {
        struct an_buf m = AN_BUF_INIT;
        size_t i;
        json_t *x;
        json_array_foreach(avail, i, x)
        {
            an_buf_printf(&m, "%s%s", i ? ", " : "",
                          an_json_str(x, "id") ? an_json_str(x, "id") : "?");
            if (an_json_str(x, "name"))
                an_buf_printf(&m, " (%s)", an_json_str(x, "name"));
        }
        code(b, an_buf_cstr(&m));
        an_buf_release(&m);
    } else {
        an_buf_puts(b, "not advertised");
    }
    an_buf_puts(b, "\n- Commands: ");
    if (json_is_array(a->commands) && json_array_size(a->commands)) {
        struct an_buf m = AN_BUF_INIT;
        size_t i;
        json_t *x;
        json_array_foreach(a->commands, i, x) an_buf_printf(
            &m, "%s/%s", i ? ", " : "", an_json_str(x, "name") ? an_json_str(x, "name") : "?");
        code(b, an_buf_cstr(&m));
        an_buf_release(&m);
    } else {
        an_buf_puts(b, "none seen");
    }
    an_buf_putc(b, '\n');
}

/* MCP: the command, and what initialize told (no sessions, modes or commands). */
static void mcp_lines(struct an_buf *b, const struct an_comply_agent *a)
{
    if (a->command) {
        an_buf_puts(b, "- Command: ");
        code(b, a->command);
        an_buf_putc(b, '\n');
    }
    if (!a->init) {
        an_buf_puts(b, "- Initialize failed: ");
        code(b, a->init_error ? a->init_error : "no answer");
        an_buf_putc(b, '\n');
        return;
    }
    /* initialize's result, or server/discover's (a 2026-07-28 server only) */
    const json_t *versions = json_object_get(a->init, "supportedVersions");
    bool discover = !json_object_get(a->init, "protocolVersion") && versions;
    char *s = an_json_compact(discover ? versions : json_object_get(a->init, "protocolVersion"));
    an_buf_puts(b, discover ? "- Supported versions (server/discover): " : "- Protocol version: ");
    code(b, s);
    free(s);
    an_buf_putc(b, '\n');
    json_t *info = json_object_get(a->init, "serverInfo");
    if (!info)
        info = json_object_get(json_object_get(a->init, "_meta"),
                               "io.modelcontextprotocol/serverInfo");
    if (json_is_object(info)) {
        struct an_buf n = AN_BUF_INIT;
        an_buf_printf(&n, "%s %s", an_json_str(info, "name") ? an_json_str(info, "name") : "?",
                      an_json_str(info, "version") ? an_json_str(info, "version") : "");
        an_buf_puts(b, "- Server: ");
        code(b, an_buf_cstr(&n));
        an_buf_release(&n);
        an_buf_putc(b, '\n');
    }
    json_t *caps = json_object_get(a->init, "capabilities");
    struct an_buf c = AN_BUF_INIT;
    if (json_is_object(caps) && json_object_size(caps)) {
        const char *k;
        json_t *v;
        json_object_foreach(caps, k, v)
        {
            an_buf_printf(&c, "%s%s", c.len ? ", " : "", k);
        }
    } else {
        an_buf_puts(&c, "none advertised");
    }
    an_buf_puts(b, "- Capabilities: ");
    code(b, an_buf_cstr(&c));
    an_buf_putc(b, '\n');
    an_buf_release(&c);
}

/* A2A: what the card says (the probe). */
static void a2a_lines(struct an_buf *b, const struct an_comply_agent *a)
{
    if (a->binding)
        an_buf_printf(b, "- Binding: %s\n",
                      !strcmp(a->binding, "rest") ? "HTTP+JSON (REST)" : "JSON-RPC");
    if (!a->init) {
        an_buf_puts(b, "- Agent card: none: ");
        text(b, a->init_error ? a->init_error : "?");
        an_buf_putc(b, '\n');
        return;
    }
    static const char *const keys[] = {"name", "version", "protocolVersion", "url",
                                       "preferredTransport"};
    an_buf_puts(b, "- Agent card:");
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++) {
        const char *v = an_json_str(a->init, keys[i]);
        if (!v)
            continue;
        an_buf_printf(b, " %s ", keys[i]);
        code(b, v);
    }
    an_buf_puts(b, "\n- Capabilities: ");
    char *c = an_json_compact(json_object_get(a->init, "capabilities"));
    code(b, c ? c : "none");
    free(c);
    an_buf_putc(b, '\n');
}

static void agent_summary(struct an_buf *b, const struct an_comply_result *r,
                          const struct an_comply_agent *a)
{
    an_buf_puts(b, "## ");
    text(b, a->name);
    an_buf_puts(b, " Summary\n\n");
    if (r->protocol && !strcmp(r->protocol, "agui"))
        agui_probe_lines(b, a);
    else if (r->protocol && !strcmp(r->protocol, "mcp"))
        mcp_lines(b, a);
    else if (r->protocol && !strcmp(r->protocol, "a2a"))
        a2a_lines(b, a);
    else
        acp_lines(b, a);
    if (a->spec && r->spec && strcmp(a->spec, r->spec)) {
        an_buf_puts(b, "- Judged at spec revision ");
        code(b, a->spec);
        an_buf_puts(b, ": the one it negotiated (no --spec named one)\n");
    }
    size_t rp = 0, rt = 0, op = 0, of = 0, ona = 0, rna = 0;
    for (size_t k = 0; k < a->ntests; k++) {
        const struct an_comply_test *t = &a->tests[k];
        if (t->required) {
            rt++;
            rp += t->status == AN_COMPLY_PASS;
            rna += t->status == AN_COMPLY_NA;
        } else {
            op += t->status == AN_COMPLY_PASS;
            of += t->status == AN_COMPLY_FAIL;
            ona += t->status == AN_COMPLY_NA;
        }
    }
    an_buf_printf(b, "- Results: required %zu/%zu passed", rp, rt);
    if (rna)
        an_buf_printf(b, " (%zu NA)", rna);
    an_buf_printf(b, "; optional %zu passed, %zu failed, %zu NA\n", op, of, ona);
    an_buf_puts(b, "- Notes: ");
    bool any = false;
    for (int pass = 0; pass < 2; pass++) {
        bool head = false;
        for (size_t k = 0; k < a->ntests; k++) {
            const struct an_comply_test *t = &a->tests[k];
            if (t->status != AN_COMPLY_FAIL || t->required != (pass == 0))
                continue;
            if (!head) {
                an_buf_printf(b, "%s%s failed: ", any ? "; " : "",
                              pass == 0 ? "required" : "optional");
                head = true;
            } else {
                an_buf_puts(b, ", ");
            }
            text(b, t->title);
            any = true;
        }
    }
    if (!any)
        an_buf_puts(b, "every test that ran passed");
    an_buf_puts(b, "\n");
    /* links: the docs of what failed, else of the required tests */
    an_buf_puts(b, "- Links: ");
    size_t nl = 0;
    for (int want_fail = 1; want_fail >= 0 && !nl; want_fail--) {
        for (size_t k = 0; k < a->ntests && nl < 6; k++) {
            const struct an_comply_test *t = &a->tests[k];
            bool f = t->status == AN_COMPLY_FAIL;
            if ((want_fail && !f) || (!want_fail && !t->required) || !t->ndocs)
                continue;
            an_buf_puts(b, nl++ ? ", [" : "[");
            text(b, t->area);
            an_buf_printf(b, "](%s)", t->docs[0]);
        }
    }
    if (!nl)
        an_buf_puts(b, "none");
    an_buf_puts(b, "\n\n");
}

static void test_section(struct an_buf *b, const struct an_comply_result *r, size_t ti)
{
    const struct an_comply_test *t0 = &r->agents[0].tests[ti];
    an_buf_puts(b, "### ");
    text(b, t0->title);
    an_buf_puts(b, "\n\n- id: ");
    code(b, t0->id);
    an_buf_printf(b, "\n- severity: %s\n- area: ", t0->required ? "required" : "optional");
    text(b, t0->area);
    an_buf_puts(b, "\n- description: ");
    text(b, t0->description);
    an_buf_putc(b, '\n');
    if (t0->nrequirements) {
        an_buf_puts(b, "- requirements: ");
        for (size_t q = 0; q < t0->nrequirements; q++) {
            if (q)
                an_buf_puts(b, ", ");
            code(b, t0->requirements[q]);
        }
        an_buf_putc(b, '\n');
    }
    for (size_t i = 0; i < r->nagents; i++) {
        const struct an_comply_agent *a = &r->agents[i];
        if (ti >= a->ntests)
            continue;
        const struct an_comply_test *t = &a->tests[ti];
        an_buf_puts(b, "- ");
        text(b, a->name);
        an_buf_printf(b, ": **%s**", an_comply_status_label(t->status));
        if ((t->status == AN_COMPLY_NA || t->status == AN_COMPLY_SKIP) && t->na_reason) {
            an_buf_puts(b, " — ");
            text(b, t->na_reason);
        }
        if (t->expected_failure) {
            an_buf_puts(b, t->status == AN_COMPLY_STALE
                               ? " — listed as an expected failure but passed: "
                               : " — expected failure: ");
            text(b, t->expected_failure);
        }
        an_buf_putc(b, '\n');
        for (size_t u = 0; u < t->nunmet; u++) {
            const struct an_comply_unmet *x = &t->unmet[u];
            an_buf_printf(b, "  - unmet %s", x->kind);
            if (x->step >= 0)
                an_buf_printf(b, " (step %d)", x->step + 1);
            an_buf_puts(b, ": ");
            text(b, x->message);
            an_buf_putc(b, '\n');
            if (x->expected) {
                an_buf_puts(b, "    - expected: ");
                code(b, x->expected);
                an_buf_putc(b, '\n');
            }
            if (x->closest) {
                an_buf_puts(b, "    - closest actual: ");
                code(b, x->closest);
                an_buf_putc(b, '\n');
            }
            if (x->ndiff) {
                an_buf_puts(b, "    - diff:\n");
                for (size_t d = 0; d < x->ndiff; d++) {
                    an_buf_puts(b, "      - ");
                    code(b, x->diff[d]);
                    an_buf_putc(b, '\n');
                }
            }
        }
        for (size_t n = 0; n < t->nnotes; n++) {
            an_buf_puts(b, "  - observed: ");
            code(b, t->notes[n]);
            an_buf_putc(b, '\n');
        }
        if (t->stderr_tail && *t->stderr_tail) {
            an_buf_puts(b, "  - agent stderr (last lines): ");
            code(b, t->stderr_tail);
            an_buf_putc(b, '\n');
        }
    }
    an_buf_puts(b, "- docs: ");
    for (size_t d = 0; d < t0->ndocs; d++) {
        an_buf_puts(b, d ? ", <" : "<");
        text(b, t0->docs[d]);
        an_buf_putc(b, '>');
    }
    an_buf_puts(b, "\n\n");
}

/* "# PROTOCOL Compliance Report" and how the tests were run. */
static void methodology(struct an_buf *b, const struct an_comply_result *r, size_t ntests,
                        size_t nreq)
{
    bool agui = r->protocol && !strcmp(r->protocol, "agui");
    bool mcp = r->protocol && !strcmp(r->protocol, "mcp");
    bool a2a = r->protocol && !strcmp(r->protocol, "a2a");
    const char *title = "JSON-RPC";
    if (agui)
        title = "AG-UI";
    else if (a2a)
        title = "A2A";
    else if (mcp)
        title = "MCP";
    else if (r->protocol && !strcmp(r->protocol, "acp"))
        title = "ACP";
    an_buf_printf(b, "# %s Compliance Report\n\n", title);
    if (a2a)
        an_buf_printf(b,
                      "Methodology: read each agent's card at /.well-known/agent-card.json on "
                      "its base URL (its capabilities feed the preconditions), then ran each "
                      "of %zu tests (%zu required, %zu optional) as HTTP requests: JSON-RPC "
                      "2.0 POSTs to the card's url (on the base URL's origin only) and GETs of "
                      "the card, one request per step, each bounded by the step's window. "
                      "Answers were read whole: a JSON body, or an SSE stream whose events are "
                      "JSON-RPC responses. Expectations use regex subset matching over each "
                      "step's outcome (HTTP answer, response, events in order, the sequence of "
                      "task states); a test stops at its first unmet step. Tests that need "
                      "the agent to do something specific (ask for input, fail, run long) send "
                      "the trigger texts of docs/comply.md and are optional. Each test cites "
                      "the spec requirements it checks. NA: a capability the test needs is not "
                      "advertised. PARTIAL: some tests of the area passed and some failed.\n\n",
                      ntests, nreq, ntests - nreq);
    else if (mcp)
        an_buf_printf(b,
                      "Methodology: initialized each server once to read its capabilities "
                      "(for the preconditions and the summaries below) and asked it "
                      "server/discover (MCP 2026-07-28) for the revisions it speaks (without "
                      "--spec each server is judged at its own), then ran each of %zu "
                      "tests (%zu required, %zu optional) against a fresh server process, "
                      "speaking MCP as the client over stdio (JSON-RPC 2.0, one message per "
                      "line): initialize (protocol 2025-11-25) and notifications/initialized "
                      "unless the test does its own handshake; the server's own requests are "
                      "answered (ping, roots/list empty, anything else -32601). Expectations "
                      "use regex subset matching over responses and notifications; each "
                      "expected message must match a distinct observed one; the tests of "
                      "Streamable HTTP itself send their own HTTP requests (mcpHttp steps). "
                      "NA: a capability the test needs is not advertised, or a test of "
                      "Streamable HTTP meets a server over stdio or one without sessions. "
                      "PARTIAL: some tests of the area passed and some failed.\n\n",
                      ntests, nreq, ntests - nreq);
    else if (agui)
        an_buf_printf(b,
                      "Methodology: sent each of %zu tests (%zu required, %zu optional) to "
                      "each AG-UI endpoint as HTTP POSTs of RunAgentInput bodies "
                      "(Content-Type: application/json, Accept: text/event-stream unless a "
                      "test says otherwise), one request per step, each bounded by the "
                      "step's window, so a server that never finishes fails instead of "
                      "hanging the run. Every answer was framed as SSE and decoded by "
                      "ananke's own AG-UI client, which checks the stream against every MUST "
                      "rule of the specification (a violation is a protocol error naming the "
                      "rule) and rebuilds the messages and the state. Expectations use regex "
                      "subset matching over each step's outcome (status, HTTP answer, events "
                      "in order, messages, state); a test stops at its first unmet step. "
                      "Tests of a feature AG-UI leaves to the agent (use the context, update "
                      "the state, call an offered tool) are optional; a test of the rules of "
                      "a feature a producer may leave out (tool calls, reasoning, chunks, "
                      "subagents, interrupts, state deltas, a failed run) is NA when it did "
                      "not use it. PARTIAL: some tests of the area passed and some failed.\n\n",
                      ntests, nreq, ntests - nreq);
    else
        an_buf_printf(b,
                      "Methodology: initialized each agent once to read its "
                      "capabilities (for the "
                      "preconditions and the summaries below), then ran each of %zu "
                      "tests (%zu required, %zu "
                      "optional) in a fresh sandbox directory with a fresh agent "
                      "process, speaking ACP as "
                      "the client over stdio (JSON-RPC 2.0, one message per line) "
                      "and serving the agent's "
                      "fs, terminal and permission requests inside the sandbox. "
                      "Expectations use regex "
                      "subset matching over responses, notifications and "
                      "agent→client requests; each "
                      "expected message must match a distinct observed one. Requests "
                      "never block later "
                      "steps, so cancellation and forbidden-request windows are "
                      "observed while a turn "
                      "runs. MCP tests start a local stdio MCP server supplied by "
                      "the suite. NA: a "
                      "precondition (an agent or client capability) is not met. "
                      "PARTIAL: some tests of "
                      "the area passed and some failed.\n\n",
                      ntests, nreq, ntests - nreq);
}

/* The table of compliance areas (in the order they first appear) against
 * the agents, then its footnotes. */
static void area_table(struct an_buf *b, const struct an_comply_result *r)
{
    const char **areas;
    bool *req;
    size_t nareas = comply_areas(r->nagents ? &r->agents[0] : NULL, &areas, &req);
    an_buf_puts(b, "| Compliance Area | Severity |");
    for (size_t i = 0; i < r->nagents; i++) {
        an_buf_putc(b, ' ');
        text(b, r->agents[i].name);
        an_buf_puts(b, " |");
    }
    an_buf_puts(b, "\n|---|---|");
    for (size_t i = 0; i < r->nagents; i++)
        an_buf_puts(b, "---|");
    an_buf_putc(b, '\n');
    struct an_buf notes = AN_BUF_INIT;
    size_t nnote = 0;
    for (size_t j = 0; j < nareas; j++) {
        an_buf_puts(b, "| ");
        text(b, areas[j]);
        an_buf_printf(b, " | %s |", req[j] ? "required" : "optional");
        for (size_t i = 0; i < r->nagents; i++) {
            const struct an_comply_test *ff;
            enum comply_cell c = comply_area_cell(&r->agents[i], areas[j], &ff);
            an_buf_printf(b, " %s", comply_cell_name(c));
            if (ff) {
                an_buf_printf(b, " [%zu]", ++nnote);
                an_buf_printf(&notes, "[%zu] ", nnote);
                footnote_text(&notes, &r->agents[i], ff, c);
                an_buf_putc(&notes, '\n');
            }
            an_buf_puts(b, " |");
        }
        an_buf_putc(b, '\n');
    }
    an_buf_putc(b, '\n');
    if (notes.len) {
        an_buf_append(b, notes.data, notes.len);
    }
    an_buf_release(&notes);
    free(areas);
    free(req);
}

static const char *req_cell(enum an_comply_req_status s)
{
    return s == AN_REQ_MET ? "met" : s == AN_REQ_NOT_MET ? "**not met**" : "not tested";
}

/* One revision's requirements: the MUST coverage of each agent judged at
 * it, then one row per requirement, one column per such agent. */
static void req_table_at(struct an_buf *b, const struct an_comply_result *r, size_t first)
{
    const char *spec = an_comply_agent_spec(r, &r->agents[first]);
    an_buf_puts(b, "## Requirements (spec revision ");
    text(b, spec);
    an_buf_puts(b, ")\n\n");
    for (size_t i = first; i < r->nagents; i++) {
        if (!an_comply_agent_at(r, i, spec))
            continue;
        size_t m, t, k;
        an_comply_must_counts(&r->agents[i], &m, &t, &k);
        an_buf_puts(b, "- ");
        text(b, r->agents[i].name);
        an_buf_printf(b, ": MUST coverage: %zu of %zu MUSTs tested, %zu met\n", t, m, k);
    }
    an_buf_puts(b, "\n| Requirement | Level | Title |");
    for (size_t i = first; i < r->nagents; i++)
        if (an_comply_agent_at(r, i, spec)) {
            an_buf_putc(b, ' ');
            text(b, r->agents[i].name);
            an_buf_puts(b, " |");
        }
    an_buf_puts(b, "\n|---|---|---|");
    for (size_t i = first; i < r->nagents; i++)
        if (an_comply_agent_at(r, i, spec))
            an_buf_puts(b, "---|");
    an_buf_putc(b, '\n');
    const struct an_comply_agent *a0 = &r->agents[first];
    for (size_t q = 0; q < a0->nreqs; q++) {
        an_buf_puts(b, "| ");
        if (*a0->reqs[q].section)
            an_buf_printf(b, "[%s](%s)", a0->reqs[q].id, a0->reqs[q].section);
        else
            text(b, a0->reqs[q].id);
        an_buf_printf(b, " | %s | ", a0->reqs[q].level);
        text(b, a0->reqs[q].title);
        an_buf_puts(b, " |");
        for (size_t i = first; i < r->nagents; i++)
            if (an_comply_agent_at(r, i, spec))
                an_buf_printf(b, " %s |",
                              q < r->agents[i].nreqs ? req_cell(r->agents[i].reqs[q].status) : "?");
        an_buf_putc(b, '\n');
    }
    an_buf_putc(b, '\n');
}

/* The requirements, a table per revision the agents were judged at (one
 * without --spec when they negotiated different ones), in the order the
 * agents first name them. */
static void req_table(struct an_buf *b, const struct an_comply_result *r)
{
    for (size_t i = 0; i < r->nagents; i++)
        if (an_comply_spec_first(r, i))
            req_table_at(b, r, i);
}

static void render(struct an_buf *b, const struct an_comply_result *r)
{
    size_t ntests = r->nagents ? r->agents[0].ntests : 0, nreq = 0;
    for (size_t k = 0; k < ntests; k++)
        nreq += r->agents[0].tests[k].required;
    methodology(b, r, ntests, nreq);
    area_table(b, r);

    for (size_t i = 0; i < r->nagents; i++)
        agent_summary(b, r, &r->agents[i]);
    req_table(b, r);
    an_buf_puts(b, "## Tests\n\n");
    for (size_t k = 0; k < ntests; k++)
        test_section(b, r, k);
}

int an_report_comply_md(const struct an_comply_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    render(&b, r);
    int rc = an_atomic_write(path, &b, err);
    an_buf_release(&b);
    return rc;
}
