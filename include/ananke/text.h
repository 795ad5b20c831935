/*
 * Text that came from an agent or a test file, made safe to print on a
 * terminal or in a log: invalid UTF-8 shown as U+FFFD, control characters
 * and bidi overrides as \t, \r, \n or \uXXXX, cut at `cut` bytes with
 * "..." (as every report does).
 */
#ifndef ANANKE_TEXT_H
#define ANANKE_TEXT_H

#include <stddef.h>

/* s shown safely (malloc'd, the caller's); NULL shows as "". */
char *an_text_shown(const char *s, size_t cut);

#endif
