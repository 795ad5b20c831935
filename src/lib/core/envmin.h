/*
 * The environment an ACP agent, its terminals and a stdio MCP server start
 * with when they do not inherit ananke's (docs/security.md "A scrubbed
 * environment"): only
 *   PATH   ananke's PATH, or /usr/local/bin:/usr/bin:/bin when it has none
 *   HOME   the given home (the sandbox), or ananke's HOME when NULL
 *   TMPDIR the same as HOME
 *   LANG   ananke's LANG, or C.UTF-8
 *   TERM   ananke's TERM, or dumb
 * then every entry of `extra` ("NAME=VALUE"; a later one wins, as in
 * core/child). Variables holding ananke's secrets (API keys, CI tokens)
 * are simply never copied.
 *
 * Ownership: the returned array and its strings are the caller's, freed
 * with an_envmin_free(); `extra` is copied.
 */
#ifndef ANANKE_CORE_ENVMIN_H
#define ANANKE_CORE_ENVMIN_H

/* NULL-terminated "NAME=VALUE" list; never NULL. */
char **an_envmin_build(const char *home, const char *const *extra);
void an_envmin_free(char **env); /* NULL-safe */

#endif
