#include "run/hook.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/buf.h"
#include "core/json.h"
#include "core/proc.h"
#include "run/secrets.h"

/* Output budgets that keep the whole message inside struct an_err. */
#define LABEL_MAX 100
#define EXCERPT_MAX 200

/* Append one escaped character or UTF-8 sequence at p (from a string
 * an_utf8_lossy() made valid) unless it would pass `max`; returns the
 * input bytes used, 0 when it did not fit. */
static size_t put_char(struct an_buf *b, const unsigned char *p, size_t *used, size_t max,
                       bool quoted)
{
    static const char hex[] = "0123456789abcdef";
    char esc[4];
    const char *piece = esc;
    size_t len, in = 1;
    if (quoted && (*p == '"' || *p == '\\'))
        esc[0] = '\\', esc[1] = (char)*p, len = 2;
    else if (*p == '\n')
        esc[0] = '\\', esc[1] = 'n', len = 2;
    else if (*p == '\r')
        esc[0] = '\\', esc[1] = 'r', len = 2;
    else if (*p == '\t')
        esc[0] = '\\', esc[1] = 't', len = 2;
    else if (*p < 0x20 || *p == 0x7F)
        esc[0] = '\\', esc[1] = 'x', esc[2] = hex[*p >> 4], esc[3] = hex[*p & 15], len = 4;
    else {
        /* Only valid sequences are left: the lead byte gives the length. */
        piece = (const char *)p;
        len = in = *p < 0x80 ? 1 : *p < 0xE0 ? 2 : *p < 0xF0 ? 3 : 4;
    }
    if (*used + len > max)
        return 0;
    an_buf_append(b, piece, len);
    *used += len;
    return in;
}

/* Append s[0..n) with control characters escaped (and, when `quoted`,
 * double quotes and backslashes) and invalid UTF-8 replaced by U+FFFD,
 * stopping before `max` output bytes; "..." marks a cut. Only a prefix of
 * at most `max` input bytes is looked at: each yields at least one output
 * byte. */
static void put_escaped(struct an_buf *b, const char *s, size_t n, size_t max, bool quoted)
{
    size_t take = n < max ? n : max;
    /* Do not split a UTF-8 sequence at the cut. */
    if (take < n)
        for (int k = 0; k < 3 && take > 0 && ((unsigned char)s[take] & 0xC0) == 0x80; k++)
            take--;
    bool full = false;
    size_t used = 0, i = 0;
    /* an_utf8_lossy() turns NUL into U+FFFD too; show NUL as \\x00 instead,
     * so take the input a NUL-free run at a time. */
    while (i < take && !full) {
        const char *nul = memchr(s + i, '\0', take - i);
        size_t run = nul ? (size_t)(nul - (s + i)) : take - i;
        char *clean = an_utf8_lossy(s + i, run);
        for (const unsigned char *p = (const unsigned char *)clean; *p && !full;) {
            size_t k = put_char(b, p, &used, max, quoted);
            p += k;
            full = k == 0;
        }
        free(clean);
        i += run;
        if (nul && !full) {
            full = put_char(b, (const unsigned char *)"", &used, max, quoted) == 0;
            i++;
        }
    }
    bool cut = full || take < n;
    if (cut)
        an_buf_puts(b, "...");
}

static void put_excerpt(struct an_buf *b, const char *label, const char *s, size_t n)
{
    if (!n)
        return;
    an_buf_printf(b, "; %s: \"", label);
    put_escaped(b, s, n, EXCERPT_MAX, true);
    an_buf_putc(b, '"');
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/* Trim in place by moving *s and shrinking *n. */
static void trim(const char **s, size_t *n)
{
    if (*n >= 3 && memcmp(*s, "\xEF\xBB\xBF", 3) == 0)
        *s += 3, *n -= 3;
    while (*n && is_space(**s))
        (*s)++, (*n)--;
    while (*n && is_space((*s)[*n - 1]))
        (*n)--;
}

/* Each member as a string variable: strings as they are, the rest as
 * compact JSON text (a template can then still embed them as JSON). */
static json_t *to_vars(json_t *obj)
{
    json_t *vars = json_object();
    const char *key;
    json_t *val;
    if (!vars)
        an_oom();
    json_object_foreach(obj, key, val)
    {
        json_t *s;
        if (json_is_string(val)) {
            s = json_stringn_nocheck(json_string_value(val), json_string_length(val));
        } else {
            char *text = an_json_compact(val);
            s = json_string_nocheck(text);
            free(text);
        }
        if (!s || json_object_set_new_nocheck(vars, key, s) != 0)
            an_oom();
    }
    return vars;
}

int an_hook_run(const char *const *argv, size_t argc, const char *cwd, int64_t timeout_ms,
                json_t **vars_out, char **failure_out, struct an_err *err)
{
    struct an_hook_opts o = AN_HOOK_OPTS_INIT;
    o.argv = argv;
    o.argc = argc;
    o.cwd = cwd;
    o.timeout_ms = timeout_ms;
    return an_hook_run_opts(&o, vars_out, failure_out, err);
}

int an_hook_run_opts(const struct an_hook_opts *o, json_t **vars_out, char **failure_out,
                     struct an_err *err)
{
    struct an_buf label = AN_BUF_INIT, msg = AN_BUF_INIT;
    struct an_proc_result r = {0};
    struct an_err perr = AN_ERR_INIT;
    const char **argv = NULL;
    json_t *doc = NULL;
    int rc = AN_OK;
    bool show_stdout = true;

    *vars_out = NULL;
    if (failure_out)
        *failure_out = NULL;
    if (!o->argc || !o->argv || !o->argv[0] || !o->argv[0][0]) {
        an_buf_puts(&msg, "hook has an empty command");
        rc = AN_EHOOK;
        goto done;
    }

    argv = an_xcalloc(o->argc + 1, sizeof *argv);
    for (size_t i = 0; i < o->argc; i++) {
        argv[i] = o->argv[i];
        /* The label is cut at LABEL_MAX; build only what can show. */
        if (label.len <= LABEL_MAX) {
            if (i)
                an_buf_putc(&label, ' ');
            an_buf_puts(&label, o->argv[i]);
        }
    }
    an_buf_puts(&msg, "hook '");
    put_escaped(&msg, an_buf_cstr(&label), label.len, LABEL_MAX, false);
    an_buf_puts(&msg, "' ");

    struct an_proc_opts po = AN_PROC_OPTS_INIT;
    po.argv = argv;
    po.cwd = o->cwd;
    po.env = o->env;
    po.stdout_max = o->stdout_max ? o->stdout_max : AN_HOOK_STDOUT_MAX;
    po.stderr_max = o->stderr_max ? o->stderr_max : AN_HOOK_STDERR_MAX;
    po.timeout_ms = o->timeout_ms > 0 ? o->timeout_ms : AN_HOOK_TIMEOUT_MS;

    if (an_proc_run(&po, &r, &perr) != AN_OK) {
        an_buf_printf(&msg, "did not start: %s", perr.msg);
        rc = AN_EHOOK;
        goto done;
    }

    const char *out = an_buf_cstr(&r.stdout_buf);
    size_t out_len = r.stdout_buf.len;
    trim(&out, &out_len);

    if (r.cancelled) {
        an_buf_puts(&msg, "was stopped: the run was interrupted");
        rc = AN_EHOOK;
    } else if (r.timed_out) {
        an_buf_printf(&msg, "timed out after %" PRId64 " ms", po.timeout_ms);
        rc = AN_EHOOK;
    } else if (r.term_signal || r.exit_code != 0) {
        char st[64];
        an_buf_puts(&msg, an_proc_status_str(&r, st, sizeof st));
        rc = AN_EHOOK;
    } else if (r.stdout_truncated) {
        an_buf_printf(&msg, "printed more than %zu bytes on stdout (max_stdout_bytes)",
                      po.stdout_max);
        rc = AN_EHOOK;
    } else if (out_len) {
        doc = an_json_parse(out, out_len, NULL, 0);
        if (!doc || !json_is_object(doc)) {
            if (!doc)
                an_buf_puts(&msg, "printed invalid JSON on stdout: \"");
            else
                an_buf_printf(&msg, "printed a JSON %s on stdout: \"", an_json_type_name(doc));
            put_escaped(&msg, out, out_len, EXCERPT_MAX, true);
            an_buf_puts(&msg, "\" (expected an object of variables)");
            show_stdout = false;
            rc = AN_EHOOK;
        }
    }
    if (rc == AN_OK) {
        *vars_out = doc ? to_vars(doc) : json_object();
        if (!*vars_out)
            an_oom();
        goto done;
    }
    if (o->learn)
        an_secrets_from_hook_output(o->learn, an_buf_cstr(&r.stdout_buf), r.stdout_buf.len, NULL,
                                    NULL);
    if (show_stdout)
        put_excerpt(&msg, "stdout", out, out_len);
    const char *errtext = an_buf_cstr(&r.stderr_buf);
    size_t err_len = r.stderr_buf.len;
    trim(&errtext, &err_len);
    put_excerpt(&msg, "stderr", errtext, err_len);

done:
    if (rc != AN_OK) {
        an_fail(err, (enum an_code)rc, NULL, "%s", an_buf_cstr(&msg));
        if (failure_out)
            *failure_out = an_buf_detach(&msg, NULL);
    }
    json_decref(doc);
    an_proc_result_release(&r);
    an_buf_release(&label);
    an_buf_release(&msg);
    free(argv);
    return rc;
}
