/*
 * What the fuzz targets share (docs/fuzzing.md).
 *
 * Each target is one LLVMFuzzerTestOneInput that drives a parser of outside
 * input through the library's own entry points. Inputs are bytes; helpers
 * here turn them into the NUL-terminated strings and files those entry
 * points take. Every target releases everything it made, so LeakSanitizer
 * finds real leaks.
 */
#ifndef ANANKE_FUZZ_H
#define ANANKE_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

/* A NUL-terminated copy of data[0..size) (caller frees). */
char *fz_strdup(const uint8_t *data, size_t size);

/* Split at the first "\n": *head gets a NUL-terminated copy of what comes
 * before it (caller frees), *rest and *rest_len what follows (borrowed). No
 * newline: everything is the head, the rest is empty. */
void fz_split(const uint8_t *data, size_t size, char **head, const uint8_t **rest,
              size_t *rest_len);

/* The first byte of an input as the target's mode (how to feed the rest):
 * returns it and leaves *data and *size on the rest; -1 for an empty input.
 * Targets that feed in pieces take the piece size from it with
 * fz_step(). */
int fz_mode(const uint8_t **data, size_t *size);
/* A piece size from a mode's low 6 bits: 1..63 bytes, or all of size at
 * once when they are 0. */
size_t fz_step(unsigned mode, size_t size);

/* A fresh private directory (mkdtemp under $TMPDIR or /tmp), made once per
 * process; the files fz_write() put there and the directory are removed at
 * exit. Returns its path. */
const char *fz_tmpdir(void);

/* Write data[0..size) to dir/name (replacing it). Returns the full path in a
 * static buffer, or NULL (the input is then skipped). */
const char *fz_write(const char *name, const uint8_t *data, size_t size);

#endif
