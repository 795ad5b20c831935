/*
 * Preflight hooks (seed 000): run a setup command before a test's turns and
 * collect the variables it prints.
 *
 * The contract:
 * - argv is executed without a shell (see core/proc.h) from cwd, the
 *   project root, with env applied, under a timeout.
 * - stdout is kept up to stdout_max bytes (the hook's max_stdout_bytes;
 *   AN_HOOK_STDOUT_MAX by default) and stderr up to stderr_max
 *   (max_stderr_bytes; AN_HOOK_STDERR_MAX). More stdout is a failure (the variables would be
 *   cut); more stderr is not, since stderr only serves the failure message.
 * - stdout is trimmed (ASCII whitespace, and a leading UTF-8 BOM). Empty
 *   stdout means no variables. Otherwise it must be one JSON object; each
 *   member becomes a variable: a string value as it is, any other value
 *   (number, true/false, null, object, array) as its compact JSON text, so
 *   {"N": 42, "O": {"a": [1]}} gives N = "42" and O = "{\"a\":[1]}".
 * - A failed start, a timeout, death by a signal, a non-zero exit, stdout
 *   over the cap, invalid JSON or a JSON value that is not an object each
 *   fail with AN_EHOOK (the only code; a timeout too, so callers test
 *   one code) and a message that names the command (argv joined, cut at
 *   about 100 bytes), what went wrong, and the start (about 200 bytes,
 *   control characters and invalid UTF-8 escaped) of stdout and stderr
 *   when they are not empty:
 *     hook 'bash scripts/seed.sh' exited with status 3; stderr: "db not reachable"
 *     hook 'sleep 60' timed out after 1000 ms
 *     hook 'cat big' printed more than 1048576 bytes on stdout (max_stdout_bytes)
 *     hook 'echo hi' printed invalid JSON on stdout: "hi" (expected an object of variables)
 *   The message fits in struct an_err; callers show it after "Hook failed: ".
 */
#ifndef ANANKE_RUN_HOOK_H
#define ANANKE_RUN_HOOK_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "ananke/err.h"
#include "run/redact.h"

#define AN_HOOK_TIMEOUT_MS 30000
#define AN_HOOK_STDOUT_MAX ((size_t)1 << 20)
#define AN_HOOK_STDERR_MAX ((size_t)64 << 10)

struct an_hook_opts {
    const char *const *argv; /* argc strings; need not be NULL-terminated */
    size_t argc;
    const char *cwd; /* NULL = the current directory */
    /* NULL-terminated "NAME=VALUE" entries added to the environment (seed
     * 000's hook `env`, already interpolated by the caller), or NULL. */
    const char *const *env;
    int64_t timeout_ms; /* <= 0 means AN_HOOK_TIMEOUT_MS: a hook is never
                           unbounded */
    /* When the hook fails (a timeout, a status, invalid JSON ...), the
     * secret-named members of what it printed on stdout, as far as they
     * can be read, are added here (run/secrets.h): the failure message
     * quotes stdout, and what it quotes must be redacted. NULL: not kept. */
    struct an_redactor *learn;
    size_t stdout_max, stderr_max; /* 0: AN_HOOK_STDOUT_MAX, AN_HOOK_STDERR_MAX */
};
/* clang-format off */
#define AN_HOOK_OPTS_INIT {.timeout_ms = AN_HOOK_TIMEOUT_MS}
/* clang-format on */

/* Run one hook and return its variables.
 *
 * argv holds argc strings (need not be NULL-terminated); cwd may be NULL
 * (the current directory); timeout_ms <= 0 means AN_HOOK_TIMEOUT_MS. All
 * are borrowed for the call.
 *
 * On AN_OK, *vars_out is a new reference to a JSON object whose values are
 * all JSON strings (empty when the hook printed nothing); the caller owns
 * it (json_decref) and merges it into its variable map in hook order.
 * *failure_out (when failure_out is not NULL) is NULL.
 *
 * On failure the return is AN_EHOOK, *vars_out is NULL, err holds the
 * message described above without a location, and *failure_out is a
 * malloc'd copy of that message (the caller frees it), handy to re-raise
 * it at the hook's location in the test file. */
int an_hook_run(const char *const *argv, size_t argc, const char *cwd, int64_t timeout_ms,
                json_t **vars_out, char **failure_out, struct an_err *err);

/* The same with every option, including extra environment entries. */
int an_hook_run_opts(const struct an_hook_opts *o, json_t **vars_out, char **failure_out,
                     struct an_err *err);

#endif
