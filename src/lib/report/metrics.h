/*
 * The metrics every report shows of a test (core/result_metrics.h: what
 * they are, and their JSON form), as text.
 */
#ifndef ANANKE_REPORT_METRICS_H
#define ANANKE_REPORT_METRICS_H

#include "core/buf.h"
#include "core/result_metrics.h"

/* "2 tool calls · 1 turn · ttft 120ms · 150 tokens (in 120, out 30) · cost 0.0012",
 * leaving out what is not known (the duration is every report's own). */
void an_metrics_line(struct an_buf *b, const struct an_metrics *m);

#endif
