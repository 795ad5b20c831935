/*
 * A compliance result redacted in place (docs/comply.md "Secrets"): every
 * string a reporter or the console shows of a test (title, description,
 * NA reason, each unmet expectation's message, envelopes and diff, the
 * agent's stderr, notes) and of an agent (name, command, what it answered
 * to initialize or the probe run, modes, commands) has each secret the
 * run knows replaced by "[redacted]". The texts that quote one message of
 * the agent also lose a piece of a secret at a string's edge (one chunk of
 * a secret it streamed: an_redact_quoted). Done where the result is made,
 * before the progress line, so that no reporter can forget it.
 */
#ifndef ANANKE_RUN_COMPLY_REDACT_H
#define ANANKE_RUN_COMPLY_REDACT_H

#include "ananke/comply.h"
#include "run/redact.h"

/* Costs nothing when r is empty or NULL. */
void an_comply_test_redact(struct an_comply_test *t, const struct an_redactor *r);
/* The same, and first every text a --redact pattern of r matches in what
 * the agent sent during the test (`seen`: an array of its messages or
 * events), searched as streams are (run/redact.h an_redact_frames: the
 * strings of every message of one method or type at one path, joined in
 * order): a match streamed in pieces is then a known secret, so each piece
 * that a report quotes (one message) is found as a literal secret's
 * piece is. seen may be NULL. */
void an_comply_test_redact_seen(struct an_comply_test *t, const struct an_redactor *r,
                                const json_t *seen);
/* s with the secrets of r redacted, always a new string (for a line the
 * runner prints itself: an agent's name in -v). */
char *an_comply_shown(const struct an_redactor *r, const char *s);
/* The agent's own fields, not its tests. */
void an_comply_agent_redact(struct an_comply_agent *a, const struct an_redactor *r);

#endif
