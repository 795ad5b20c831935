/*
 * What a test did, as indented text lines for the console (FAIL evidence,
 * -v), JUnit's system-out and the other text reports: a turn's tool calls
 * and assistant text, its header, the turns not run, the judgements. Agent
 * text goes through an_rpt_str (rpt_text.h).
 */
#ifndef ANANKE_REPORT_RPT_EVIDENCE_H
#define ANANKE_REPORT_RPT_EVIDENCE_H

#include <stdbool.h>
#include <stddef.h>

#include "ananke/result.h"
#include "ananke/transcript.h"
#include "core/buf.h"

/*
 * The evidence of one turn as indented lines, each ending in '\n':
 * the tool calls `name(args) → result` (with "+Nms" offsets from the turn
 * start when `timing`), then the assistant text quoted. `indent` prefixes
 * every line. Used by the console (FAIL evidence, -v) and JUnit system-out.
 */
void an_rpt_turn_evidence(struct an_buf *b, const struct an_transcript *t, size_t turn,
                          const char *indent, size_t cut, bool timing);
/* "turn 2 user: \"message\" (812ms)" header line plus warnings and, when
 * `timing`, the evidence with offsets. The whole verbose block of a turn. */
void an_rpt_turn_block(struct an_buf *b, const struct an_transcript *t, size_t turn,
                       const char *indent, size_t cut);
/* The test's judgements (agent checks), one line each: "judge 'NAME'
 * passed (12 ms): reason"; `full` adds what each was shown and answered. */
void an_rpt_judgements(struct an_buf *b, const struct an_test_result *t, const char *indent,
                       size_t cut, bool full);
/* "turns 3–4 not run" lines for every run of consecutive not-run turns. */
void an_rpt_not_run(struct an_buf *b, const struct an_transcript *t, const char *indent);

#endif
