/*
 * The compliance report as one self-contained HTML page (docs/comply.md
 * "The HTML report"), for one comply result or several (`ananke comply
 * --merge`: one ACP run, one MCP run, one A2A run... on one page).
 *
 *   summary       (several results) protocol × agent: pass / fail / NA
 *                 counts and the MUST coverage of each agent
 *   per result    the areas × agents matrix (seed 003): PASS, PARTIAL,
 *                 FAIL, NA cells, a failing cell linking to its first
 *                 failed test; per agent its summary and MUST coverage;
 *                 the revision's requirements (ID with its spec link,
 *                 level, title, each agent's met / not met / not tested,
 *                 the tests citing it); one <details> per test with each
 *                 agent's status, unmet expectations and diffs
 *
 * The page is the run report's (report/html_int.h): its style sheet, its
 * CSP (no source at all, inline styles, our one script by its hash), its
 * escaping. Every string of a result is untrusted (an agent said it, or a
 * results file read back said anything): each goes through html_text. A
 * link is written only for an http(s) URL; anchors are made of indices,
 * never of names.
 */
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ananke/comply.h"
#include "core/arena.h"
#include "core/strmap.h"
#include "report/comply_area.h"
#include "report/html_int.h"
#include "report/report_util.h"

/* The matrix cells and requirement statuses, on top of html_style. */
static const char comply_style[] =
    "table.grid{border-collapse:collapse;margin:8px 0 16px;font-size:14px}\n"
    "table.grid th,table.grid td{border:1px solid var(--line);padding:3px 10px;"
    "text-align:left;vertical-align:top}\n"
    "table.grid th{background:var(--card);font-weight:600}\n"
    "td.cell,td.req{font-weight:700;text-align:center}\n"
    "td.pass,td.met{color:var(--on);background:var(--pass)}\n"
    "td.fail,td.not_met{color:var(--on);background:var(--fail)}\n"
    "td.partial{color:var(--on);background:var(--err)}\n"
    "td.na,td.not_tested,td.none{color:var(--muted)}\n"
    "td.cell a{color:inherit}\n"
    "section.proto{margin:24px 0;padding-top:8px;border-top:2px solid var(--line)}\n"
    "h2{font-size:19px;margin:8px 0}\n";

/* The tests of a result, every agent's, by id in the order they first
 * appear: the page's sections. */
struct ids {
    struct an_arena arena;
    struct an_strmap map;                /* id -> index + 1 */
    const struct an_comply_test **first; /* the first agent's test of each id */
    size_t n;
};

static const char *id_of(const struct an_comply_test *t)
{
    return t->id ? t->id : "";
}

static void ids_build(struct ids *x, const struct an_comply_result *r)
{
    size_t cap = 0;
    for (size_t i = 0; i < r->nagents; i++)
        cap += r->agents[i].ntests;
    memset(x, 0, sizeof *x);
    an_strmap_init(&x->map, &x->arena);
    x->first = an_xcalloc(cap + 1, sizeof *x->first);
    for (size_t i = 0; i < r->nagents; i++)
        for (size_t k = 0; k < r->agents[i].ntests; k++) {
            const struct an_comply_test *t = &r->agents[i].tests[k];
            if (an_strmap_get(&x->map, id_of(t)))
                continue;
            x->first[x->n++] = t;
            an_strmap_put(&x->map, id_of(t), (void *)(uintptr_t)x->n);
        }
}

/* The section index of a test id; 0 when the id is unknown (never). */
static size_t ids_at(const struct ids *x, const char *id)
{
    size_t j = (size_t)(uintptr_t)an_strmap_get(&x->map, id);
    return j ? j - 1 : 0;
}

static void ids_release(struct ids *x)
{
    free(x->first);
    an_arena_release(&x->arena);
}

/* Agent a's test of that id, or NULL. */
static const struct an_comply_test *test_of(const struct an_comply_agent *a, const char *id)
{
    for (size_t k = 0; k < a->ntests; k++)
        if (!strcmp(id_of(&a->tests[k]), id))
            return &a->tests[k];
    return NULL;
}

/* A link when url is http(s), else the text alone. */
static void link(struct an_buf *b, const char *url, const char *label)
{
    bool web = url && (!strncasecmp(url, "https://", 8) || !strncasecmp(url, "http://", 7));
    if (web) {
        an_buf_puts(b, "<a rel=\"noopener noreferrer\" href=\"");
        html_text(b, url, false);
        an_buf_puts(b, "\">");
    }
    html_text(b, label ? label : url, false);
    if (web)
        an_buf_puts(b, "</a>");
}

static const char *status_class(enum an_comply_status s)
{
    switch (s) {
    case AN_COMPLY_PASS:
        return "pass";
    case AN_COMPLY_FAIL:
    case AN_COMPLY_STALE:
        return "fail";
    case AN_COMPLY_XFAIL:
        return "error";
    case AN_COMPLY_NA:
    case AN_COMPLY_SKIP:
        break;
    }
    return "skip";
}

struct agent_counts {
    size_t pass, fail, na, xfail, stale, skip, required_failed;
};

static struct agent_counts agent_counts(const struct an_comply_agent *a)
{
    struct agent_counts c = {0};
    for (size_t k = 0; k < a->ntests; k++) {
        const struct an_comply_test *t = &a->tests[k];
        c.pass += t->status == AN_COMPLY_PASS;
        c.fail += t->status == AN_COMPLY_FAIL;
        c.na += t->status == AN_COMPLY_NA;
        c.xfail += t->status == AN_COMPLY_XFAIL;
        c.stale += t->status == AN_COMPLY_STALE;
        c.skip += t->status == AN_COMPLY_SKIP;
        c.required_failed += (t->status == AN_COMPLY_FAIL && t->required) ||
                             t->status == AN_COMPLY_STALE;
    }
    return c;
}

/* "T of M MUSTs tested, K met", with the figures as data attributes. */
static void must_coverage(struct an_buf *b, const struct an_comply_agent *a)
{
    size_t m, t, k;
    an_comply_must_counts(a, &m, &t, &k);
    an_buf_printf(b,
                  "<span class=\"must\" data-musts=\"%zu\" data-tested=\"%zu\" data-met=\"%zu\">"
                  "%zu of %zu MUSTs tested, %zu met</span>",
                  m, t, k, t, m, k);
}

/* A <th> per agent, its name. */
static void agent_heads(struct an_buf *b, const struct an_comply_result *r)
{
    for (size_t i = 0; i < r->nagents; i++) {
        an_buf_puts(b, "<th>");
        html_text(b, r->agents[i].name, false);
        an_buf_puts(b, "</th>");
    }
}

/* The areas × agents matrix of result ri. */
static void matrix(struct an_buf *b, const struct an_comply_result *r, size_t ri,
                   const struct ids *x)
{
    const char **areas;
    bool *req;
    size_t nareas = comply_areas(r->nagents ? &r->agents[0] : NULL, &areas, &req);
    an_buf_puts(b, "<table class=\"grid matrix\"><thead><tr><th>Compliance area</th>"
                   "<th>Severity</th>");
    agent_heads(b, r);
    an_buf_puts(b, "</tr></thead><tbody>\n");
    for (size_t j = 0; j < nareas; j++) {
        an_buf_puts(b, "<tr><th>");
        html_text(b, areas[j], false);
        an_buf_printf(b, "</th><td>%s</td>", req[j] ? "required" : "optional");
        for (size_t i = 0; i < r->nagents; i++) {
            const struct an_comply_test *ff;
            enum comply_cell c = comply_area_cell(&r->agents[i], areas[j], &ff);
            static const char *const cls[] = {"none", "pass", "fail", "partial", "na"};
            an_buf_printf(b, "<td class=\"cell %s\" data-agent=\"%zu\" data-status=\"%s\">", cls[c],
                          i, comply_cell_name(c));
            if (ff)
                an_buf_printf(b, "<a href=\"#p%zu-t%zu\">%s</a>", ri, ids_at(x, id_of(ff)),
                              comply_cell_name(c));
            else
                an_buf_puts(b, comply_cell_name(c));
            an_buf_puts(b, "</td>");
        }
        an_buf_puts(b, "</tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
    free(areas);
    free(req);
}

/* Each agent's summary: command, counts, MUST coverage. */
static void summaries(struct an_buf *b, const struct an_comply_result *r)
{
    for (size_t i = 0; i < r->nagents; i++) {
        const struct an_comply_agent *a = &r->agents[i];
        struct agent_counts c = agent_counts(a);
        an_buf_printf(b, "<div class=\"box agent\" data-agent=\"%zu\"><b>", i);
        html_text(b, a->name, false);
        an_buf_printf(b,
                      "</b> <span class=\"badge pass\">%zu passed</span> "
                      "<span class=\"badge fail\">%zu failed</span> "
                      "<span class=\"badge skip\">%zu NA</span>",
                      c.pass, c.fail, c.na);
        if (c.xfail || c.stale)
            an_buf_printf(b, " <span class=\"badge error\">%zu XFAIL, %zu STALE</span>", c.xfail,
                          c.stale);
        an_buf_printf(b, " <span class=\"muted\">%zu required failed</span>", c.required_failed);
        an_buf_puts(b, "<dl class=\"meta\">");
        if (a->command) {
            an_buf_puts(b, "<dt>command</dt><dd class=\"mono\">");
            html_text(b, a->command, false);
            an_buf_puts(b, "</dd>");
        }
        if (a->binding) {
            an_buf_puts(b, "<dt>binding</dt><dd>");
            html_text(b, a->binding, false);
            an_buf_puts(b, "</dd>");
        }
        if (a->init_error) {
            an_buf_puts(b, "<dt>initialize</dt><dd>");
            html_text(b, a->init_error, false);
            an_buf_puts(b, "</dd>");
        }
        if (an_comply_agent_spec(r, a) && a->nreqs) {
            an_buf_puts(b, "<dt>spec revision</dt><dd>");
            html_text(b, an_comply_agent_spec(r, a), false);
            an_buf_puts(b, "</dd><dt>MUST coverage</dt><dd>");
            must_coverage(b, a);
            an_buf_puts(b, "</dd>");
        }
        an_buf_puts(b, "</dl></div>\n");
    }
}

/* The tests citing requirement id, as links to their sections. */
static void citing(struct an_buf *b, const struct ids *x, size_t ri, const char *id)
{
    bool any = false;
    for (size_t j = 0; j < x->n; j++) {
        const struct an_comply_test *t = x->first[j];
        for (size_t q = 0; q < t->nrequirements; q++) {
            if (!t->requirements[q] || strcmp(t->requirements[q], id))
                continue;
            an_buf_printf(b, "%s<a class=\"mono\" href=\"#p%zu-t%zu\">", any ? " " : "", ri, j);
            html_text(b, id_of(t), false);
            an_buf_puts(b, "</a>");
            any = true;
            break;
        }
    }
    if (!any)
        an_buf_puts(b, "<span class=\"muted\">none</span>");
}

/* One revision's requirements: a row each, a status column per agent
 * judged at it (from agent `first` on). */
static void requirements_at(struct an_buf *b, const struct an_comply_result *r, size_t ri,
                            const struct ids *x, size_t first)
{
    const struct an_comply_agent *a0 = &r->agents[first];
    const char *spec = an_comply_agent_spec(r, a0);
    an_buf_puts(b, "<h3>Requirements (spec revision ");
    html_text(b, spec, false);
    an_buf_puts(b, ")</h3>\n<table class=\"grid reqs\"><thead><tr><th>Requirement</th>"
                   "<th>Level</th><th>Title</th>");
    for (size_t i = first; i < r->nagents; i++)
        if (an_comply_agent_at(r, i, spec)) {
            an_buf_puts(b, "<th>");
            html_text(b, r->agents[i].name, false);
            an_buf_puts(b, "</th>");
        }
    an_buf_puts(b, "<th>Tests</th></tr></thead><tbody>\n");
    for (size_t q = 0; q < a0->nreqs; q++) {
        const struct an_comply_req *rq = &a0->reqs[q];
        an_buf_puts(b, "<tr class=\"req\" data-id=\"");
        html_text(b, rq->id, false);
        an_buf_puts(b, "\"><th class=\"mono\">");
        link(b, rq->section && *rq->section ? rq->section : NULL, rq->id);
        an_buf_puts(b, "</th><td class=\"level\">");
        html_text(b, rq->level, false);
        an_buf_puts(b, "</td><td>");
        html_text(b, rq->title, false);
        an_buf_puts(b, "</td>");
        for (size_t i = first; i < r->nagents; i++) {
            const struct an_comply_agent *a = &r->agents[i];
            if (!an_comply_agent_at(r, i, spec))
                continue;
            /* the same row of every such agent's table: the revision's set */
            const char *st = q < a->nreqs && !strcmp(a->reqs[q].id, rq->id)
                                 ? an_comply_req_status_name(a->reqs[q].status)
                                 : "not_tested";
            an_buf_printf(b, "<td class=\"req %s\" data-agent=\"%zu\" data-status=\"%s\">%s</td>",
                          st, i, st,
                          !strcmp(st, "met")       ? "met"
                          : !strcmp(st, "not_met") ? "not met"
                                                   : "not tested");
        }
        an_buf_puts(b, "<td>");
        citing(b, x, ri, rq->id);
        an_buf_puts(b, "</td></tr>\n");
    }
    an_buf_puts(b, "</tbody></table>\n");
}

/* The requirements: a table per revision the agents were judged at (one
 * without --spec when they negotiated different ones). */
static void requirements(struct an_buf *b, const struct an_comply_result *r, size_t ri,
                         const struct ids *x)
{
    for (size_t i = 0; i < r->nagents; i++)
        if (an_comply_spec_first(r, i))
            requirements_at(b, r, ri, x, i);
}

/* One unmet expectation: message, expected, closest, diff. */
static void unmet(struct an_buf *b, const struct an_comply_unmet *u)
{
    an_buf_puts(b, "<div class=\"finding\"><div class=\"title\">");
    html_text(b, u->message, false);
    an_buf_puts(b, " <span class=\"chip\">");
    html_text(b, u->kind ? u->kind : "?", false);
    if (u->step >= 0)
        an_buf_printf(b, ", step %d", u->step + 1);
    an_buf_puts(b, "</span></div>");
    if (u->expected || u->closest || u->ndiff) {
        an_buf_puts(b, "<dl class=\"kv\">");
        html_kv(b, "expected", u->expected);
        html_kv(b, "closest", u->closest);
        if (u->ndiff) {
            an_buf_puts(b, "<dt>diff</dt><dd><ul class=\"diff\">");
            for (size_t d = 0; d < u->ndiff; d++) {
                an_buf_puts(b, "<li>");
                html_text(b, u->diff[d], false);
                an_buf_puts(b, "</li>");
            }
            an_buf_puts(b, "</ul></dd>");
        }
        an_buf_puts(b, "</dl>");
    }
    an_buf_puts(b, "</div>\n");
}

/* Agent a's result of one test inside its section. */
static void agent_result(struct an_buf *b, const struct an_comply_agent *a, size_t i,
                         const struct an_comply_test *t)
{
    an_buf_printf(b, "<div class=\"box res\" data-agent=\"%zu\" data-status=\"%s\">", i,
                  t ? an_comply_status_name(t->status) : "none");
    an_buf_printf(b, "<span class=\"badge %s\">%s</span> <b>", t ? status_class(t->status) : "skip",
                  t ? an_comply_status_label(t->status) : "—");
    html_text(b, a->name, false);
    an_buf_puts(b, "</b>");
    if (t && t->na_reason) {
        an_buf_puts(b, " <span class=\"muted\">");
        html_text(b, t->na_reason, false);
        an_buf_puts(b, "</span>");
    }
    if (t && t->expected_failure) {
        an_buf_puts(b, "<div class=\"muted\">expected failure: ");
        html_text(b, t->expected_failure, false);
        an_buf_puts(b, "</div>");
    }
    for (size_t u = 0; t && u < t->nunmet; u++)
        unmet(b, &t->unmet[u]);
    if (t)
        html_notes(b, "", t->notes, t->nnotes);
    if (t && t->stderr_tail) {
        an_buf_puts(b, "<div class=\"lbl\">agent stderr (tail)</div><pre>");
        html_text(b, t->stderr_tail, true);
        an_buf_puts(b, "</pre>");
    }
    an_buf_puts(b, "</div>\n");
}

/* Test j of result ri: what it checks, then each agent's result. */
static void test_section(struct an_buf *b, const struct an_comply_result *r, size_t ri,
                         const struct ids *x, size_t j)
{
    const struct an_comply_test *t0 = x->first[j];
    const char *worst = "skip";
    for (size_t i = 0; i < r->nagents; i++) {
        const struct an_comply_test *t = test_of(&r->agents[i], id_of(t0));
        const char *c = t ? status_class(t->status) : "skip";
        if (!strcmp(c, "fail") || (!strcmp(c, "pass") && !strcmp(worst, "skip")))
            worst = c;
    }
    an_buf_printf(b, "<details class=\"test %s\" id=\"p%zu-t%zu\"%s><summary>", worst, ri, j,
                  strcmp(worst, "fail") ? "" : " open");
    an_buf_puts(b, "<span class=\"tname mono\">");
    html_text(b, id_of(t0), false);
    an_buf_puts(b, "</span> <span class=\"tfile\">");
    html_text(b, t0->title, false);
    an_buf_printf(b, "</span> <span class=\"tag\">%s</span></summary>\n<div class=\"tbody\">",
                  t0->required ? "required" : "optional");
    if (t0->description) {
        an_buf_puts(b, "<p>");
        html_text(b, t0->description, false);
        an_buf_puts(b, "</p>");
    }
    an_buf_puts(b, "<dl class=\"meta\"><dt>area</dt><dd>");
    html_text(b, t0->area, false);
    an_buf_puts(b, "</dd>");
    if (t0->nrequirements) {
        an_buf_puts(b, "<dt>requirements</dt><dd class=\"mono\">");
        for (size_t q = 0; q < t0->nrequirements; q++) {
            an_buf_puts(b, q ? ", " : "");
            html_text(b, t0->requirements[q], false);
        }
        an_buf_puts(b, "</dd>");
    }
    for (size_t d = 0; d < t0->ndocs; d++) {
        an_buf_puts(b, d ? "<br>" : "<dt>docs</dt><dd>");
        link(b, t0->docs[d], NULL);
    }
    an_buf_puts(b, t0->ndocs ? "</dd></dl>\n" : "</dl>\n");
    for (size_t i = 0; i < r->nagents; i++)
        agent_result(b, &r->agents[i], i, test_of(&r->agents[i], id_of(t0)));
    an_buf_puts(b, "</div></details>\n");
}

/* Result ri as a section: heading, matrix, summaries, requirements, tests. */
static void result_section(struct an_buf *b, const struct an_comply_result *r, size_t ri)
{
    struct ids x;
    ids_build(&x, r);
    an_buf_printf(b, "<section class=\"proto\" id=\"p%zu\" data-protocol=\"", ri);
    html_text(b, r->protocol, false);
    an_buf_puts(b, "\"><h2>");
    html_text(b, r->protocol ? r->protocol : "?", false);
    if (r->spec) {
        an_buf_puts(b, " <span class=\"muted\">spec ");
        html_text(b, r->spec, false);
        an_buf_puts(b, "</span>");
    }
    an_buf_printf(b, "</h2>\n<p class=\"muted\">%zu tests, %zu agent%s; run in ", x.n, r->nagents,
                  r->nagents == 1 ? "" : "s");
    html_ms(b, r->duration_ms);
    an_buf_puts(b, ". PASS: every test of the area that ran passed; PARTIAL: some passed and "
                   "some failed; FAIL: none passed; NA: no test of the area could run (a "
                   "precondition is not met). A failing cell links to its first failed "
                   "test.</p>\n");
    matrix(b, r, ri, &x);
    summaries(b, r);
    requirements(b, r, ri, &x);
    an_buf_puts(b, "<h3>Tests</h3>\n");
    for (size_t j = 0; j < x.n; j++)
        test_section(b, r, ri, &x, j);
    an_buf_puts(b, "</section>\n");
    ids_release(&x);
}

/* Several results: protocol × agent, each cell the agent's counts. */
static void overview(struct an_buf *b, const struct an_comply_result *const *rs, size_t n)
{
    an_buf_puts(b, "<table class=\"grid overview\"><thead><tr><th>Protocol</th><th>Agent</th>"
                   "<th>Passed</th><th>Failed</th><th>NA</th><th>Required failed</th>"
                   "<th>MUST coverage</th></tr></thead><tbody>\n");
    for (size_t ri = 0; ri < n; ri++)
        for (size_t i = 0; i < rs[ri]->nagents; i++) {
            const struct an_comply_agent *a = &rs[ri]->agents[i];
            struct agent_counts c = agent_counts(a);
            an_buf_printf(b,
                          "<tr data-result=\"%zu\" data-agent=\"%zu\" data-pass=\"%zu\" "
                          "data-fail=\"%zu\" data-na=\"%zu\"><td><a href=\"#p%zu\">",
                          ri, i, c.pass, c.fail, c.na, ri);
            html_text(b, rs[ri]->protocol ? rs[ri]->protocol : "?", false);
            an_buf_puts(b, "</a></td><td>");
            html_text(b, a->name, false);
            an_buf_printf(b, "</td><td>%zu</td><td>%zu</td><td>%zu</td><td>%zu</td><td>", c.pass,
                          c.fail, c.na, c.required_failed);
            if (an_comply_agent_spec(rs[ri], a) && a->nreqs)
                must_coverage(b, a);
            else
                an_buf_puts(b, "<span class=\"muted\">no requirement set</span>");
            an_buf_puts(b, "</td></tr>\n");
        }
    an_buf_puts(b, "</tbody></table>\n");
}

/* Where the page goes: PATH itself when it is "-" or ends in .html and is
 * not a directory; else PATH/index.html (the directory made). */
static int page_path(const char *path, struct an_buf *out, struct an_err *err)
{
    size_t n = path ? strlen(path) : 0;
    struct stat st;
    if (!n)
        return an_fail(err, AN_EUSAGE, NULL, "html report needs a path");
    an_buf_puts(out, path);
    if (!strcmp(path, "-") ||
        (n >= 5 && !strcasecmp(path + n - 5, ".html") && (stat(path, &st) || !S_ISDIR(st.st_mode))))
        return AN_OK;
    int rc = an_mkdir_p(path, n, err);
    if (rc)
        return rc;
    an_buf_puts(out, path[n - 1] == '/' ? "index.html" : "/index.html");
    return AN_OK;
}

int an_report_comply_html_all(const struct an_comply_result *const *rs, size_t n, const char *path,
                              struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT, where = AN_BUF_INIT;
    int rc = page_path(path, &where, err);
    if (rc)
        goto done;
    size_t fails = 0, agents = 0;
    for (size_t ri = 0; ri < n; ri++) {
        size_t rf;
        an_comply_counts(rs[ri], NULL, NULL, NULL, &rf);
        fails += rf;
        agents += rs[ri]->nagents;
    }
    char title[128];
    snprintf(title, sizeof title, "ananke comply: %zu protocol%s, %zu agent%s, %zu required failed",
             n, n == 1 ? "" : "s", agents, agents == 1 ? "" : "s", fails);
    html_page_open(&b, title, comply_style);
    an_buf_puts(&b, "<header>\n<h1>ananke <span class=\"muted\">compliance report</span></h1>\n");
    if (n > 1)
        overview(&b, rs, n);
    an_buf_puts(&b, "<nav class=\"bar-tools\" aria-label=\"tests\"><span class=\"sep\"></span>"
                    "<button type=\"button\" data-open=\"1\" hidden>expand all</button>"
                    "<button type=\"button\" data-open=\"0\" hidden>collapse all</button>"
                    "</nav>\n</header>\n<main>\n");
    for (size_t ri = 0; ri < n; ri++)
        result_section(&b, rs[ri], ri);
    if (!n)
        an_buf_puts(&b, "<p class=\"muted\">No results.</p>\n");
    an_buf_puts(&b, "</main>\n");
    html_page_close(&b);
    rc = an_atomic_write(an_buf_cstr(&where), &b, err);
done:
    an_buf_release(&b);
    an_buf_release(&where);
    return rc;
}

int an_report_comply_html(const struct an_comply_result *r, const char *path, struct an_err *err)
{
    return an_report_comply_html_all(&r, 1, path, err);
}
