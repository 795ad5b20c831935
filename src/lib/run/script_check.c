#include "run/script_check.h"

#include <stdlib.h>
#include <string.h>

#include "ananke/check.h"
#include "core/buf.h"
#include "core/json.h"
#include "core/proc.h"
#include "run/hook.h"

#define EXCERPT 200

json_t *an_check_subject_json(const struct an_scope *s, const char *input)
{
    json_t *calls = json_array();
    for (size_t i = 0; i < s->ncalls; i++) {
        const struct an_tool_call *c = &s->calls[i];
        json_t *o = json_object();
        json_object_set_new(o, "name",
                            an_json_lossy(c->name ? c->name : "", c->name ? strlen(c->name) : 0));
        /* arguments that were not JSON are sent as their text; the tree is
         * shared, not changed (jansson counts references through non-const
         * pointers) */
        const json_t *args = an_tool_call_args(c);
        json_object_set_new(o, "arguments",
                            args ? json_incref((json_t *)args)
                                 : an_json_lossy(c->args_text ? c->args_text : "",
                                                 c->args_text ? strlen(c->args_text) : 0));
        json_object_set(o, "result", c->result ? c->result : json_null());
        json_array_append_new(calls, o);
    }
    const char *text = s->text ? s->text : "";
    json_t *in = json_object();
    json_object_set_new(in, "input", an_json_lossy(input ? input : "", input ? strlen(input) : 0));
    json_object_set_new(in, "output", an_json_lossy(text, strlen(text)));
    json_object_set_new(in, "tool_calls", calls);
    return in;
}

static json_t *stdin_json(const struct an_check_item *it, const struct an_scope *s,
                          const char *input)
{
    json_t *in = an_check_subject_json(s, input);
    json_object_set(in, "value", it->value ? it->value : json_null());
    json_object_set_new(in, "options", it->options ? json_incref(it->options) : json_object());
    return in;
}

static void excerpt(struct an_buf *b, const char *what, const struct an_buf *out)
{
    const char *s = an_buf_cstr(out);
    size_t n = out->len;
    while (n && strchr(" \t\r\n", s[n - 1]))
        n--;
    if (!n)
        return;
    char *safe = an_utf8_lossy(s, n < EXCERPT ? n : EXCERPT);
    an_buf_printf(b, "%s%s: %s%s", b->len ? "; " : "", what, safe, n > EXCERPT ? "…" : "");
    free(safe);
}

/* The program as a reader would type it, cut. */
static void label(struct an_buf *b, const struct an_check_item *it)
{
    an_buf_puts(b, "Script '");
    for (size_t i = 0; i < it->argc && b->len < 100; i++)
        an_buf_printf(b, "%s%s", i ? " " : "", it->argv[i]);
    an_buf_putc(b, '\'');
}

static int run_one(const struct an_check_item *it, const struct an_scope *s, const char *input,
                   const char *cwd, struct an_findings *out, size_t *nfailed, struct an_err *err)
{
    json_t *in = stdin_json(it, s, input);
    char *body = an_json_compact(in);
    json_decref(in);
    const char **argv = an_xcalloc(it->argc + 1, sizeof *argv);
    for (size_t i = 0; i < it->argc; i++)
        argv[i] = it->argv[i];
    struct an_proc_opts po = AN_PROC_OPTS_INIT;
    po.argv = argv;
    po.cwd = it->cwd ? it->cwd : cwd;
    po.stdin_data = body;
    po.stdin_len = strlen(body);
    po.stdout_max = AN_HOOK_STDOUT_MAX;
    po.stderr_max = AN_HOOK_STDERR_MAX;
    po.timeout_ms = it->timeout_ms;
    struct an_proc_result r;
    struct an_err perr = AN_ERR_INIT;
    struct an_buf name = AN_BUF_INIT, actual = AN_BUF_INIT, detail = AN_BUF_INIT;
    label(&name, it);
    int rc = an_proc_run(&po, &r, &perr);
    free(body);
    free(argv);
    bool pass = false;
    if (rc) {
        rc = an_fail(err, AN_EHOOK, &it->loc, "%s check could not run: %s", an_buf_cstr(&name),
                     perr.msg);
        goto done;
    }
    if (r.timed_out || r.term_signal) {
        char st[128];
        if (r.timed_out)
            rc = an_fail(err, AN_EHOOK, &it->loc, "%s check timed out after %lld ms",
                         an_buf_cstr(&name), (long long)it->timeout_ms);
        else
            rc = an_fail(err, AN_EHOOK, &it->loc, "%s check %s", an_buf_cstr(&name),
                         an_proc_status_str(&r, st, sizeof st));
        goto done;
    }
    if (r.stdout_truncated) {
        rc = an_fail(err, AN_EHOOK, &it->loc, "%s check printed more than %zu bytes",
                     an_buf_cstr(&name), AN_HOOK_STDOUT_MAX);
        goto done;
    }
    const char *o = an_buf_cstr(&r.stdout_buf);
    size_t olen = r.stdout_buf.len;
    while (olen && strchr(" \t\r\n", *o)) {
        o++;
        olen--;
    }
    while (olen && strchr(" \t\r\n", o[olen - 1]))
        olen--;
    if (r.exit_code != 0) {
        pass = false;
        an_buf_printf(&actual, "exited with status %d", r.exit_code);
        excerpt(&detail, "stdout", &r.stdout_buf);
        excerpt(&detail, "stderr", &r.stderr_buf);
    } else if (!olen) {
        pass = true;
        an_buf_puts(&actual, "exited with status 0");
    } else {
        json_t *ans = json_loadb(o, olen, JSON_DECODE_ANY, NULL);
        json_t *p = json_is_object(ans) ? json_object_get(ans, "pass") : ans;
        const char *msg = json_is_object(ans) ? an_json_str(ans, "message") : NULL;
        if (!json_is_boolean(p)) {
            struct an_buf why = AN_BUF_INIT;
            excerpt(&why, "stdout", &r.stdout_buf);
            rc = an_fail(err, AN_EHOOK, &it->loc,
                         "%s check answered neither true/false nor {\"pass\": bool, "
                         "\"message\": \"...\"} (%s)",
                         an_buf_cstr(&name), an_buf_cstr(&why));
            an_buf_release(&why);
            json_decref(ans);
            goto done;
        }
        pass = json_is_true(p);
        if (msg)
            an_buf_puts(&actual, msg);
        else
            an_buf_printf(&actual, "answered %s", pass ? "pass" : "fail");
        excerpt(&detail, "stderr", &r.stderr_buf);
        json_decref(ans);
    }
    if (pass == it->negate) {
        struct an_scope sc = *s;
        an_check_item_finding(out, it, &sc, an_buf_cstr(&name), "pass", it->negate,
                              it->negate ? "a failing answer" : "a passing answer",
                              an_buf_cstr(&actual), detail.len ? an_buf_cstr(&detail) : NULL);
        (*nfailed)++;
    }
done:
    an_proc_result_release(&r);
    an_buf_release(&name);
    an_buf_release(&actual);
    an_buf_release(&detail);
    return rc;
}

int an_script_checks(const struct an_assert *blk, const struct an_scope *s, const char *input,
                     const char *cwd, struct an_findings *out, size_t *nfailed, struct an_err *err)
{
    *nfailed = 0;
    for (size_t k = 0; k < blk->nchecks; k++) {
        if (blk->checks[k].kind != AN_CHECK_SCRIPT)
            continue;
        int rc = run_one(&blk->checks[k], s, input, cwd, out, nfailed, err);
        if (rc)
            return rc;
    }
    return AN_OK;
}
