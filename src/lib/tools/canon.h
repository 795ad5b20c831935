/*
 * The canonical text of a tool call's arguments, on which --replay-tools
 * matches a call with a recorded one (docs/tools.md "Record and replay"):
 * compact JSON with every object's keys sorted (by their bytes), numbers
 * normalised (a real with no fraction is written as the integer, -0 as 0,
 * so 1, 1.0 and 1e0 are one number), and the ignored paths left out.
 * No arguments and {} are the same text, "{}".
 *
 * An ignored path is written as args_match's (ananke/check.h: keys
 * separated by dots, array indexes as numbers or in brackets, a leading
 * "$." optional); a component "*" stands for every key or element there.
 * An ignored object key is removed; an ignored array element becomes null
 * (the others keep their places). A path that is absent changes nothing.
 */
#ifndef ANANKE_TOOLS_CANON_H
#define ANANKE_TOOLS_CANON_H

#include <jansson.h>
#include <stddef.h>

/* args (NULL: none) without the paths in ignore, canonical. The caller
 * frees the string. */
char *an_tools_canon(const json_t *args, const char *const *ignore, size_t nignore);

#endif
