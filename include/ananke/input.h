/*
 * Where cases come from besides files (seed 002 "-i"): a generator agent
 * (`agents:NAME?count=N&focus=...`) or a command (`scripts:COMMAND`) that
 * writes JSONL cases. Both give JSONL text, which the loader then validates
 * like any file (an_mem_file in ananke/load.h), so a generated case that is
 * malformed is a load error with its line.
 */
#ifndef ANANKE_INPUT_H
#define ANANKE_INPUT_H

#include <stddef.h>

#include "ananke/model.h"

#define AN_GENERATE_DEFAULT_COUNT 5

/* A parsed `agents:NAME?count=N&focus=TEXT` (focus %-decoded, '+' = ' ').
 * Strings are malloc'd; an_gen_spec_release frees them. */
struct an_gen_spec {
    char *agent;
    unsigned count; /* default AN_GENERATE_DEFAULT_COUNT */
    char *focus;    /* NULL = none */
};
int an_gen_spec_parse(const char *src, struct an_gen_spec *out, struct an_err *err);
void an_gen_spec_release(struct an_gen_spec *g);

/* Ask the agent for cases. The agent gets one user message, a JSON object
 * {"test_mode": "generator", "target_agent": <what is tested>, "count",
 * "focus"?} (for an openai agent preceded by how to write a case), and
 * answers JSONL, a JSON array of cases, or {"cases": [...]}, with or
 * without a code fence. *jsonl is one case per line (malloc'd). */
int an_generate_cases(const struct an_config *cfg, const struct an_gen_spec *g, char **jsonl,
                      size_t *len, struct an_err *err);

/* Run `scripts:COMMAND` (split on blanks, no shell, in the current
 * directory, 5 minutes at most): its stdout is the JSONL text. A non-zero
 * exit, a signal or a timeout is an error showing the start of stderr. */
int an_script_cases(const char *command, char **jsonl, size_t *len, struct an_err *err);

/* seed 002's -i "Hello": an inline message as one JSONL case line (no
 * newline), {"id": id, "input": msg} with invalid UTF-8 in msg replaced by
 * U+FFFD. malloc'd. */
char *an_inline_case(const char *msg, const char *id);

#endif
