/*
 * Which values are secrets (docs/record.md "Secrets never reach the disk"):
 * the credentials a config sends (headers, api_key, ACP env built from
 * ${ENV...} or named like a secret, of the target and of every helper
 * agent, built with a test's hook variables, and each ${...} they are made
 * of) and the hook variables named like a secret. One list, read by the
 * run (every result is redacted before anyone sees it, run/redact_result.c)
 * and by the recorder.
 */
#ifndef ANANKE_RUN_SECRETS_H
#define ANANKE_RUN_SECRETS_H

#include <stdbool.h>

#include "ananke/model.h"
#include "core/interp.h"
#include "run/redact.h"

/* A name that says it holds a secret: TOKEN, SECRET, KEY or PASSWORD in
 * it, any case. */
bool an_secret_name(const char *name);

/* Told the label of a value too short to be searched for (AN_REDACT_MIN). */
typedef void (*an_secret_short_fn)(const char *label, void *ud);

/* Add to r every secret of cfg as built with vars (an empty list: the
 * config's own, ${ENV...}) and every secret-named variable of vars.
 * short_fn may be NULL. */
void an_secrets_gather(struct an_redactor *r, const struct an_config *cfg,
                       const struct an_vars *vars, an_secret_short_fn short_fn, void *ud);

/* A value a config builds from the template `src` (${ENV...} only), and
 * each ${ENV.NAME} it is made of (labelled "environment variable NAME"),
 * added to r: the whole under `label` when it interpolates. For the
 * settings of `ananke comply` (an agent's env). */
void an_secrets_add_template(struct an_redactor *r, const char *label, const char *src,
                             an_secret_short_fn short_fn, void *ud);

/* The value of every ${ENV.NAME} written in `text` (a test file of `ananke
 * comply`), labelled "environment variable NAME". */
void an_secrets_add_env_refs(struct an_redactor *r, const char *text, an_secret_short_fn short_fn,
                             void *ud);

/* The secret-named members of a hook's output, as far as it can be read (a
 * hook that failed or was cut may have printed them): each added to r
 * labelled "hook variable NAME". `text` need not be valid JSON: the
 * members of a JSON object are read up to where it breaks. */
void an_secrets_from_hook_output(struct an_redactor *r, const char *text, size_t n,
                                 an_secret_short_fn short_fn, void *ud);

#endif
