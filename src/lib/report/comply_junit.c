/*
 * JUnit XML for compliance runs:
 *
 *   <testsuites name="ananke comply" tests= failures= skipped= time=>
 *     <testsuite name="AGENT" tests= failures= skipped= time=>
 *       <testcase name="TEST-ID" classname="AGENT" time=>
 *         <failure message="first unmet expectation" type="KIND">all of
 * them</failure> <skipped message="NA reason"/>
 *         <system-out>observed: NOTE</system-out>   (a test's notes, if any)
 *
 * A FAIL of an optional test is still a <failure> (CI shows it), but only
 * required failures change the exit code.
 */
#include <string.h>

#include "ananke/comply.h"
#include "core/buf.h"
#include "report/report_util.h"

/* ' is written as is here (JUnit proper escapes it): the output stays what
 * it has always been. */
static void xml(struct an_buf *b, const char *s, bool attr)
{
    an_rpt_xml(b, s, attr, false);
}

/* The spec revision's requirements of an agent, as testsuite properties:
 * "spec", "must_coverage" ("51/56 met, 54/56 tested"), A2A's "binding",
 * and one "requirement:ID" = "MUST met" per requirement. */
static void suite_properties(struct an_buf *b, const struct an_comply_result *r,
                             const struct an_comply_agent *a)
{
    const char *spec = an_comply_agent_spec(r, a);
    if (!spec || !a->nreqs)
        return;
    size_t m, t, k;
    an_comply_must_counts(a, &m, &t, &k);
    an_buf_puts(b, "    <properties>\n      <property name=\"spec\" value=\"");
    xml(b, spec, true);
    an_buf_printf(b,
                  "\"/>\n      <property name=\"must_coverage\" value=\"%zu/%zu met, %zu/%zu "
                  "tested\"/>\n",
                  k, m, t, m);
    if (a->binding) /* A2A: which binding these results came from */
        an_buf_printf(b, "      <property name=\"binding\" value=\"%s\"/>\n", a->binding);
    for (size_t q = 0; q < a->nreqs; q++) {
        an_buf_puts(b, "      <property name=\"requirement:");
        xml(b, a->reqs[q].id, true);
        an_buf_printf(b, "\" value=\"%s %s\"/>\n", a->reqs[q].level,
                      an_comply_req_status_name(a->reqs[q].status));
    }
    an_buf_puts(b, "    </properties>\n");
}

int an_report_comply_junit(const struct an_comply_result *r, const char *path, struct an_err *err)
{
    struct an_buf b = AN_BUF_INIT;
    size_t p, f, n, xf, st, sk;
    an_comply_counts(r, &p, &f, &n, NULL);
    an_comply_xcounts(r, &xf, &st, &sk);
    f += st;      /* a stale entry fails */
    n += xf + sk; /* an expected failure, a test that did not run: skipped */
    an_buf_printf(&b,
                  "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                  "<testsuites name=\"ananke comply\" tests=\"%zu\" failures=\"%zu\" "
                  "errors=\"0\" skipped=\"%zu\" time=\"%.3f\">\n",
                  p + f + n, f, n, an_rpt_secs(r->duration_ms));
    for (size_t i = 0; i < r->nagents; i++) {
        const struct an_comply_agent *a = &r->agents[i];
        size_t af = 0, an = 0;
        int64_t ms = 0;
        for (size_t k = 0; k < a->ntests; k++) {
            enum an_comply_status ts = a->tests[k].status;
            af += ts == AN_COMPLY_FAIL || ts == AN_COMPLY_STALE;
            an += ts == AN_COMPLY_NA || ts == AN_COMPLY_XFAIL || ts == AN_COMPLY_SKIP;
            ms += a->tests[k].duration_ms;
        }
        an_buf_puts(&b, "  <testsuite name=\"");
        xml(&b, a->name, true);
        an_buf_printf(&b,
                      "\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" skipped=\"%zu\" "
                      "time=\"%.3f\">\n",
                      a->ntests, af, an, an_rpt_secs(ms));
        suite_properties(&b, r, a);
        for (size_t k = 0; k < a->ntests; k++) {
            const struct an_comply_test *t = &a->tests[k];
            an_buf_puts(&b, "    <testcase name=\"");
            xml(&b, t->id, true);
            an_buf_puts(&b, "\" classname=\"");
            xml(&b, a->name, true);
            an_buf_printf(&b, "\" time=\"%.3f\"", an_rpt_secs(t->duration_ms));
            if (t->status == AN_COMPLY_PASS && !t->nnotes && !t->nrequirements) {
                an_buf_puts(&b, "/>\n");
                continue;
            }
            an_buf_puts(&b, ">\n");
            if (t->nrequirements) {
                an_buf_puts(&b, "      <properties>\n");
                for (size_t q = 0; q < t->nrequirements; q++) {
                    an_buf_puts(&b, "        <property name=\"requirement\" value=\"");
                    xml(&b, t->requirements[q], true);
                    an_buf_puts(&b, "\"/>\n");
                }
                an_buf_puts(&b, "      </properties>\n");
            }
            if (t->status == AN_COMPLY_NA || t->status == AN_COMPLY_SKIP) {
                an_buf_puts(&b, "      <skipped message=\"");
                xml(&b, t->na_reason ? t->na_reason : "not applicable", true);
                an_buf_puts(&b, "\"/>\n");
            } else if (t->status == AN_COMPLY_XFAIL || t->status == AN_COMPLY_STALE) {
                bool x = t->status == AN_COMPLY_XFAIL;
                an_buf_puts(&b, x ? "      <skipped message=\"expected failure: "
                                  : "      <failure type=\"stale\" message=\"listed as an "
                                    "expected failure but passed: ");
                xml(&b, t->expected_failure ? t->expected_failure : "", true);
                an_buf_puts(&b, "\"/>\n");
            } else if (t->status == AN_COMPLY_FAIL) {
                const struct an_comply_unmet *u0 = t->nunmet ? &t->unmet[0] : NULL;
                an_buf_puts(&b, "      <failure message=\"");
                struct an_buf m = AN_BUF_INIT;
                an_buf_printf(&m, "%s%s%s", t->required ? "" : "(optional) ",
                              u0 ? u0->message : "failed", u0 && u0->ndiff ? " — " : "");
                if (u0 && u0->ndiff)
                    an_buf_puts(&m, u0->diff[0]);
                xml(&b, an_buf_cstr(&m), true);
                an_buf_release(&m);
                an_buf_puts(&b, "\" type=\"");
                xml(&b, u0 ? u0->kind : "fail", true);
                an_buf_puts(&b, "\">");
                struct an_buf body = AN_BUF_INIT;
                an_buf_printf(&body, "%s\n", t->title);
                for (size_t u = 0; t->unmet && u < t->nunmet; u++) {
                    const struct an_comply_unmet *x = &t->unmet[u];
                    an_buf_printf(&body, "- %s", x->kind);
                    if (x->step >= 0)
                        an_buf_printf(&body, " (step %d)", x->step + 1);
                    an_buf_printf(&body, ": %s\n", x->message);
                    if (x->expected)
                        an_buf_printf(&body, "  expected: %s\n", x->expected);
                    if (x->closest)
                        an_buf_printf(&body, "  closest actual: %s\n", x->closest);
                    for (size_t d = 0; d < x->ndiff; d++)
                        an_buf_printf(&body, "  diff: %s\n", x->diff[d]);
                }
                for (size_t d = 0; d < t->ndocs; d++)
                    an_buf_printf(&body, "docs: %s\n", t->docs[d]);
                xml(&b, an_buf_cstr(&body), false);
                an_buf_release(&body);
                an_buf_puts(&b, "</failure>\n");
            }
            if (t->nnotes) {
                /* what the test observed, whatever its status */
                struct an_buf out = AN_BUF_INIT;
                for (size_t q = 0; q < t->nnotes; q++)
                    an_buf_printf(&out, "observed: %s\n", t->notes[q]);
                an_buf_puts(&b, "      <system-out>");
                xml(&b, an_buf_cstr(&out), false);
                an_buf_puts(&b, "</system-out>\n");
                an_buf_release(&out);
            }
            an_buf_puts(&b, "    </testcase>\n");
        }
        an_buf_puts(&b, "  </testsuite>\n");
    }
    an_buf_puts(&b, "</testsuites>\n");
    int rc = an_atomic_write(path, &b, err);
    an_buf_release(&b);
    return rc;
}
