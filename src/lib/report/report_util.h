/*
 * Helpers shared by the reporters, one idea per header; this one includes
 * them all for a reporter that needs several:
 *
 *   rpt_text.h      untrusted text made safe for a terminal and a CI log
 *   rpt_escape.h    XML and HTML escaping, invalid UTF-8 replaced
 *   rpt_format.h    how a report names a test, durations
 *   rpt_stats.h     a repeated test's statistics as text
 *   rpt_evidence.h  a turn's evidence, turns not run, judgements as text
 *   rpt_dynamic.h   a dynamic test's simulator, checkpoints and outcome
 *   core/atomic_file.h  a report file written whole or not at all
 *   core/iso8601.h      Unix ms as ISO 8601
 */
#ifndef ANANKE_REPORT_UTIL_H
#define ANANKE_REPORT_UTIL_H

#include "core/atomic_file.h"
#include "core/iso8601.h"
#include "report/rpt_dynamic.h"
#include "report/rpt_escape.h"
#include "report/rpt_evidence.h"
#include "report/rpt_format.h"
#include "report/rpt_stats.h"
#include "report/rpt_text.h"

#endif
