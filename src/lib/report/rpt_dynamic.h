#ifndef ANANKE_REPORT_RPT_DYNAMIC_H
#define ANANKE_REPORT_RPT_DYNAMIC_H

#include <stddef.h>

#include "ananke/result.h"
#include "ananke/transcript.h"
#include "core/buf.h"

/*
 * A dynamic test (t->dyn non-NULL; each helper does nothing for a static
 * test). Its conversation is the ordinary transcript: turn i's input is what
 * the simulated user said, and a checkpoint's reached_at_turn indexes it.
 * Every line these append starts with `indent` and ends in '\n'; text from
 * the agent, the simulator or the test file goes through an_rpt_str(), cut
 * at `cut` bytes (0: whole).
 */
/* Checkpoints reached, of t->dyn->ncheckpoints. */
size_t an_rpt_dyn_reached(const struct an_dynamic_result *d);
/* How the test ended as words: "all reached", "max turns", ... */
const char *an_rpt_dyn_end(enum an_dyn_end e);
/* The outcome on one line, without indent or newline:
 * "3 turns, 2/3 checkpoints (max turns); missing: confirm", then
 * "; optional, not reached: ID, ..." when an optional one was missed. */
void an_rpt_dyn_outcome(struct an_buf *b, const struct an_test_result *t, size_t cut);
/* "simulator: NAME (seed 42)". */
void an_rpt_dyn_simulator(struct an_buf *b, const struct an_test_result *t, const char *indent,
                          size_t cut);
/* What goes right under turn `turn`'s block: "reached: ID (DESCRIPTION)"
 * per checkpoint reached there, each with an "  evidence: ..." line, then
 * 'simulator reasoning: "..."' when the simulator gave one for the turn. */
void an_rpt_dyn_turn(struct an_buf *b, const struct an_test_result *t, size_t turn,
                     const char *indent, size_t cut);
/* The simulator's reasoning for turns that were never sent (it ended the
 * conversation), as 'simulator after turn N: "..."'. */
void an_rpt_dyn_after(struct an_buf *b, const struct an_test_result *t, const char *indent,
                      size_t cut);
/* "checkpoints:" and one line per checkpoint: 'ID (DESCRIPTION): reached at
 * turn 1', '...: missing' (required, never reached) or '...: not reached
 * (optional)', each reached one with its evidence. */
void an_rpt_dyn_checkpoints(struct an_buf *b, const struct an_test_result *t, const char *indent,
                            size_t cut);
/* The whole dynamic test as text (JUnit system-out): the simulator, the
 * outcome, every turn's block (an_rpt_turn_block) with an_rpt_dyn_turn under
 * it, an_rpt_dyn_after and the checkpoints. */
void an_rpt_dyn_text(struct an_buf *b, const struct an_test_result *t, const char *indent,
                     size_t cut);

#endif
