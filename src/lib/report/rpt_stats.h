/*
 * A repeated test's statistics (ananke/result.h an_test_stats) as the
 * text reports show them, so the console, Markdown, HTML, JUnit, TAP and
 * the GitHub annotations say the same thing in the same words:
 *
 *   flaky, pass^5 0%, pass@5 100%, 95% CI [14.7%, 94.7%] (clopper-pearson)
 */
#ifndef ANANKE_REPORT_RPT_STATS_H
#define ANANKE_REPORT_RPT_STATS_H

#include <stdbool.h>

#include "ananke/result.h"
#include "core/buf.h"

/* A share as a percentage: "0%" and "100%" only when exact, one decimal
 * otherwise (two places, or two digits, when one would round to 0 or 100). */
void an_rpt_pct(struct an_buf *b, double share);
/* "95% CI [14.7%, 94.7%] (clopper-pearson)" */
void an_rpt_ci(struct an_buf *b, const struct an_test_stats *s);
/* "pass^5 0%, pass@5 100%", or "pass^8 n/a (5 runs)" when k > runs */
void an_rpt_pass_k(struct an_buf *b, const struct an_test_stats *s);
/* The whole line above: "flaky, " (when flaky), pass^k and pass@k, the
 * interval. */
void an_rpt_stats_line(struct an_buf *b, const struct an_test_stats *s);

#endif
