/* "did you mean": the closest of a list of names, as the loaders suggest
 * a key (`unknown key 'asert' (did you mean 'assert'?)`). */
#ifndef ANANKE_SUGGEST_H
#define ANANKE_SUGGEST_H

/* The entry of `valid` (NULL-terminated) closest to key, or NULL when none
 * is close enough to be a likely typo. Borrowed from valid. */
const char *an_closest(const char *key, const char *const *valid);

#endif
