/*
 * Redaction for a program on top of the library: what it prints itself
 * (the run's first line, a dry run's list) and results it reads back
 * (`ananke merge`) go through the same redactor the runner uses, behind an
 * opaque handle. The runner redacts its own results (an_run_opts.redact);
 * this is for everything else.
 *
 * A secret is replaced by "[REDACTED]" wherever it appears; a --redact
 * pattern is a regex (PCRE2) whose every match is replaced.
 *
 * Ownership: a redactor is the caller's, freed with an_redactor_free();
 * strings returned are malloc'd and the caller's.
 */
#ifndef ANANKE_REDACT_H
#define ANANKE_REDACT_H

#include <stddef.h>

#include "ananke/err.h"
#include "ananke/model.h"
#include "ananke/result.h"

struct an_redactor; /* opaque */

/* An empty redactor; then add patterns. */
struct an_redactor *an_redactor_new(void);
/* Add a --redact regex: AN_EREGEX (err "--redact: ...") when it does not
 * compile. */
int an_redactor_add_regex(struct an_redactor *r, const char *src, struct an_err *err);
void an_redactor_free(struct an_redactor *r); /* NULL-safe */

/* The secrets a run knows before any test starts: the `patterns`
 * (--redact; one that does not compile is left out: check them first) and
 * the config's own secrets (credentials in target headers and env,
 * ${ENV...} values it reads), as the runner gathers them. */
struct an_redactor *an_redactor_for_suite(const struct an_suite *s, const char *const *patterns,
                                          size_t npatterns);

/* s with every secret replaced (malloc'd); NULL for NULL. */
char *an_redact_str(const struct an_redactor *r, const char *s);

/* Every string of a result (names, findings, transcripts, errors) redacted
 * in place. */
void an_run_result_redact(struct an_run_result *res, const struct an_redactor *r);

#endif
